package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/cewhq/cew/answer"
)

func TestBorrowedSamples(t *testing.T) {
	f := map[string]float64{"reader_score": 0.7}
	outcomes := []QAOutcome{
		{Article: "Normans", Status: answer.StatusAnswered, Correct: true, Features: f},
		{Article: "Normans", Status: answer.StatusAnswered, Answerable: true, Features: f},
		{Article: "Huguenot", Status: answer.StatusAnswered, Features: f},
		{Article: "Huguenot", Status: answer.StatusNotFound, Features: f},   // refused: nothing to judge
		{Article: "Huguenot", Status: answer.StatusAnswered, Correct: true}, // no features
		{Article: "Steam_engine", Status: answer.StatusAnswered, Correct: true, Features: f},
	}
	got := BorrowedSamples(outcomes, 8, 2)
	if len(got) != 4 {
		t.Fatalf("%d samples, want the 4 answered with features", len(got))
	}
	var total float64
	right := 0
	for _, s := range got {
		if !s.Borrowed || !strings.HasPrefix(s.Group, "squad:") {
			t.Errorf("sample %+v: want borrowed, grouped by article", s)
		}
		total += s.Weight
		if s.Right {
			right++
		}
	}
	if math.Abs(total-16) > 1e-9 {
		t.Errorf("total weight %.3f, want share 2 × 8 own samples = 16", total)
	}
	if right != 2 || got[0].Group != got[1].Group || got[0].Group == got[2].Group {
		t.Errorf("samples = %+v", got)
	}
}

func TestSQuADArticles(t *testing.T) {
	s := SQuAD{Data: make([]SQuADArticle, 4)}
	for i, title := range []string{"a", "b", "c", "d"} {
		s.Data[i].Title = title
	}
	got, err := s.Articles(2, 3)
	if err != nil || len(got.Data) != 2 || got.Data[0].Title != "b" || got.Data[1].Title != "c" {
		t.Fatalf("Articles(2, 3) = %+v, %v", got.Data, err)
	}
	for _, r := range [][2]int{{0, 1}, {3, 2}, {1, 5}} {
		if _, err := s.Articles(r[0], r[1]); err == nil {
			t.Errorf("Articles(%d, %d): want an error", r[0], r[1])
		}
	}
}
