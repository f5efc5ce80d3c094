package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
)

func TestContainsValue(t *testing.T) {
	tests := []struct {
		name, text, value string
		want              bool
	}{
		{"plain", "System losses | % | 14", "14", true},
		{"case", "Fixed open rack", "fixed open rack", true},
		{"whitespace runs", "roughly  49\n°C for 4 inch", "49 °C", true},
		{"thousands separator in text", "Paco (W): 7,000", "7000", true},
		{"thousands separator in value", "Paco (W): 7000", "7,000", true},
		{"unicode minus", "coefficient of \u22120.47 %/°C", "-0.47", true},
		{"longer number", "Paco (W): 140", "14", false},
		{"decimal tail", "Soiling 14.5 %", "14", false},
		{"decimal head", "ratio 0.14", "14", false},
		{"sign matters", "-0.47 %/°C", "0.47", false},
		{"sign after a space", "coefficient -0.47", "0.47", false},
		{"hyphen after a word", "renovating pre-1978 housing", "1978", true},
		{"inside a word", "V14 release", "14", false},
		{"sentence full stop", "the default value is 14.", "14", true},
		{"comma list", "14, 15 and 16", "14", true},
		{"word boundary", "counterclockwise", "clockwise", false},
		{"word found", "the arc clockwise from", "clockwise", true},
		{"absent", "nothing here", "800 mm", false},
		{"value with unit", "Vdcmax (V): 600; Idcmax (A): 30", "30", true},
		{"empty value", "anything", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ContainsValue(tc.text, tc.value); got != tc.want {
				t.Errorf("ContainsValue(%q, %q) = %v, want %v", tc.text, tc.value, got, tc.want)
			}
		})
	}
}

func TestNormaliseValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  7,000  W ", "7000 w"},
		{"1,234,567", "1234567"},
		{"1,2,3", "1,2,3"},
		{"\u22120.35", "-0.35"},
		{"A\u00a0B", "a b"},
	}
	for _, tc := range tests {
		if got := NormaliseValue(tc.in); got != tc.want {
			t.Errorf("NormaliseValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// fixture questions for the scorer.
var (
	lossesQ = DomainQuestion{ID: "a1", Split: SplitTune, Question: "pvwatts default system losses?", Answerable: true,
		Gold: []GoldPlace{{Doc: "NREL-TP-6A20-62641", Page: 6}, {Doc: "NREL-TP-6A20-62641", Page: 13}}, Values: [][]string{{"14"}}, Tags: []string{"shorthand"}}
	inverterQ = DomainQuestion{ID: "a2", Split: SplitHeldout, Question: "vdcmax and idcmax SB7000TL-US-22", Answerable: true,
		Gold: []GoldPlace{{Doc: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1483}}, Values: [][]string{{"600"}, {"30"}}, Tags: []string{"two-value"}}
	samQ = DomainQuestion{ID: "u1", Split: SplitTune, Question: "default system losses in SAM?", Tags: []string{"other-tool"}}
)

func answered(text string, score float64, level answer.Level, sources ...answer.Source) answer.Answer {
	return answer.Answer{Status: answer.StatusAnswered, Answer: text, Sources: sources, Confidence: answer.Confidence{Level: level, Score: score}}
}

func refusal(reason string) answer.Answer {
	return answer.Answer{Status: answer.StatusNotFound, Reason: answer.Reason(reason), Answer: answer.NotFoundText}
}

var (
	page13 = answer.Source{DocNumber: "NREL-TP-6A20-62641", Page: 13}
	page14 = answer.Source{DocNumber: "NREL-TP-6A20-62641", Page: 14}
	row83  = answer.Source{DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1483}
	row84  = answer.Source{DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1484}
)

func TestScoreDomain(t *testing.T) {
	tests := []struct {
		name        string
		q           DomainQuestion
		ans         answer.Answer
		wantVerdict string
		wantGold    bool
		wantMissing []string
	}{
		{"right", lossesQ, answered("Total losses | 14 % (via Eqn. 9) [S1]", 0.8, "high", page13), VerdictRight, true, nil},
		{"right on a second source", lossesQ, answered("14 % [S2]", 0.8, "high", page14, page13), VerdictRight, true, nil},
		{"wrong citation", lossesQ, answered("1 − 14/100 = 0.86 [S1]", 0.9, "high", page14), VerdictWrong, false, nil},
		{"missing value", lossesQ, answered("Shading | 3 % | 1.0 [S1]", 0.76, "high", page13), VerdictWrong, true, []string{"14"}},
		{"both values", inverterQ, answered("Vdcmax (V): 600; Idcmax (A): 30 [S1]", 0.7, "high", row83), VerdictRight, true, nil},
		{"one of two values", inverterQ, answered("Vdcmax (V): 600 [S1]", 0.7, "high", row83), VerdictWrong, true, []string{"30"}},
		{"neighbouring row", inverterQ, answered("Vdcmax (V): 600; Idcmax (A): 30 [S1]", 0.7, "high", row84), VerdictWrong, false, nil},
		{"sheet differs", inverterQ, answered("Vdcmax (V): 600; Idcmax (A): 30 [S1]", 0.7, "high", answer.Source{DocNumber: "CEC-INVERTERS", Sheet: "Other", Row: 1483}), VerdictWrong, false, nil},
		{"refused", lossesQ, refusal("NO_KEYWORD_MATCH"), VerdictRefused, false, nil},
		{"blocked", lossesQ, answer.Answer{Status: answer.StatusBlocked, Reason: "TOO_LONG"}, VerdictRefused, false, nil},
		{"unanswerable refused", samQ, refusal("LOW_RELEVANCE"), VerdictRight, false, nil},
		{"unanswerable answered", samQ, answered("System losses | % | 14 [S1]", 0.9, "high", page13), VerdictWrong, false, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := ScoreDomain(tc.q, tc.ans)
			if o.Verdict != tc.wantVerdict || o.CitesGold != tc.wantGold || strings.Join(o.Missing, ",") != strings.Join(tc.wantMissing, ",") {
				t.Errorf("got verdict %s, cites gold %v, missing %v; want %s, %v, %v", o.Verdict, o.CitesGold, o.Missing, tc.wantVerdict, tc.wantGold, tc.wantMissing)
			}
			if o.ID != tc.q.ID || o.Split != tc.q.Split || len(o.Sources) != len(tc.ans.Sources) {
				t.Errorf("outcome does not describe the question and its sources: %+v", o)
			}
		})
	}
}

func TestTallyAndReport(t *testing.T) {
	outcomes := []DomainOutcome{
		ScoreDomain(lossesQ, answered("14 % [S1]", 0.95, "high", page13)),                // right, bin 0.9-1.0
		ScoreDomain(lossesQ, answered("0.86 × 0.96 = 0.825 [S1]", 0.9, "high", page14)),  // wrong, bin 0.9-1.0
		ScoreDomain(inverterQ, answered("600 and 30 [S1]", 0.55, "medium", row83)),       // right, bin 0.5-0.6
		ScoreDomain(inverterQ, refusal("NO_SOURCE")),                                     // refused
		ScoreDomain(samQ, answered("System losses | % | 14 [S1]", 0.42, "low", page13)),  // unanswerable answered, bin 0-0.5
		ScoreDomain(samQ, refusal("LOW_RELEVANCE")),                                      // unanswerable refused
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 1.0, "high", page13)),     // right, score 1 in the last bin
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 0.599, "medium", page13)), // right, bin 0.5-0.6
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 0.6, "medium", page13)),   // right, bin 0.6-0.7
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 0.4999, "low", page13)),   // right, bin 0-0.5
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 0.7, "high", page13)),     // right, bin 0.7-0.8
		ScoreDomain(lossesQ, answered("System losses 14 [S1]", 0.8999, "high", page13)),  // right, bin 0.8-0.9
		ScoreDomain(inverterQ, answered("Idcmax 30 [S1]", 0.82, "high", row83)),          // wrong (missing 600), bin 0.8-0.9
		ScoreDomain(inverterQ, answered("600 and 30 [S1]", 0.3, "low", row84)),           // wrong citation, bin 0-0.5
		ScoreDomain(samQ, answered("14 [S1]", 0.75, "high", page13)),                     // unanswerable answered, bin 0.7-0.8
		ScoreDomain(samQ, answer.Answer{Status: answer.StatusBlocked, Reason: "EMPTY"}),  // unanswerable refused
	}
	tally := Tally(outcomes)
	if tally.Answerable != 12 || tally.Right != 8 || tally.Wrong != 3 || tally.Refused != 1 {
		t.Errorf("answerable %d right %d wrong %d refused %d; want 12, 8, 3, 1", tally.Answerable, tally.Right, tally.Wrong, tally.Refused)
	}
	if tally.Unanswerable != 4 || tally.UnansRefused != 2 || tally.UnansAnswered != 2 {
		t.Errorf("unanswerable %d refused %d answered %d; want 4, 2, 2", tally.Unanswerable, tally.UnansRefused, tally.UnansAnswered)
	}
	if tally.WrongAt["high"] != 3 || tally.WrongAt["medium"] != 0 || tally.WrongAt["low"] != 2 {
		t.Errorf("wrong at high/medium/low = %v; want 3/0/2", tally.WrongAt)
	}
	if tally.AnsweredAt["high"] != 7 || tally.AnsweredAt["medium"] != 3 || tally.AnsweredAt["low"] != 3 {
		t.Errorf("answered at high/medium/low = %v; want 7/3/3", tally.AnsweredAt)
	}
	wantBins := []ReliabilityBin{
		{0, 0.5, 3, 1}, {0.5, 0.6, 2, 2}, {0.6, 0.7, 1, 1}, {0.7, 0.8, 2, 1}, {0.8, 0.9, 2, 1}, {0.9, 1.0, 3, 2},
	}
	if len(tally.Bins) != len(wantBins) {
		t.Fatalf("%d bins, want %d", len(tally.Bins), len(wantBins))
	}
	for i, b := range tally.Bins {
		if b != wantBins[i] {
			t.Errorf("bin %d = %+v, want %+v", i, b, wantBins[i])
		}
	}

	rep := DomainReport(outcomes, "fixture")
	metric := func(name string) Metric {
		for _, m := range rep.Metrics {
			if m.Name == name {
				return m
			}
		}
		t.Fatalf("no metric %s in %v", name, rep.Metrics)
		return Metric{}
	}
	for _, c := range []struct {
		name  string
		value float64
		n     int
	}{
		{"all/answerable/right", 8.0 / 12, 12},
		{"all/answerable/refused", 1.0 / 12, 12},
		{"all/unanswerable/refused", 0.5, 4},
		{"all/wrong_at/high", 3, 7},
		{"all/right_rate_at/high", 4.0 / 7, 7},
		{"all/reliability/0.9-1.0/right_rate", 2.0 / 3, 3},
		{"heldout/answerable/right", 0.25, 4},
		{"tune/unanswerable/answered", 0.5, 4},
		{"all/tag/two-value/answerable/wrong", 0.5, 4},
		{"all/tag/other-tool/unanswerable/refused", 0.5, 4},
	} {
		m := metric(c.name)
		if diff := m.Value - c.value; diff > 1e-9 || diff < -1e-9 || m.N != c.n {
			t.Errorf("%s = %v (n=%d), want %v (n=%d)", c.name, m.Value, m.N, c.value, c.n)
		}
	}
	reasons, _ := rep.Config["refusals_by_reason"].(map[string]map[string]int)
	if reasons["answerable"]["NO_SOURCE"] != 1 || reasons["unanswerable"]["LOW_RELEVANCE"] != 1 {
		t.Errorf("refusals by reason = %v", reasons)
	}
	summary := strings.Join(DomainSummary(outcomes), "\n")
	for _, want := range []string{"tune", "heldout", "all", "3/0/2", "0.9-1.0"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}

func TestLoadDomainQuestions(t *testing.T) {
	good := `{"id":"a1","split":"tune","question":"pvwatts losses","answerable":true,"gold":[{"doc":"D","page":1}],"values":[["14"]],"tags":["t"]}`
	tests := []struct {
		name, content, wantErr string
	}{
		{"valid", good + "\n\n" + `{"id":"u1","split":"heldout","question":"sam losses","answerable":false,"tags":["t"]}`, ""},
		{"not json", "{", "unexpected EOF"},
		{"unknown field", `{"id":"a1","split":"tune","question":"q","answerable":false,"tags":["t"],"gold_page":3}`, "unknown field"},
		{"duplicate id", good + "\n" + good, "duplicate id"},
		{"bad split", strings.Replace(good, `"tune"`, `"test"`, 1), "split"},
		{"no gold", strings.Replace(good, `"gold":[{"doc":"D","page":1}],`, "", 1), "without gold"},
		{"no values", strings.Replace(good, `"values":[["14"]],`, "", 1), "without values"},
		{"empty spelling", strings.Replace(good, `[["14"]]`, `[["14",""]]`, 1), "empty value"},
		{"page and row", strings.Replace(good, `"page":1`, `"page":1,"sheet":"S","row":2`, 1), "page or a sheet and row"},
		{"row without sheet", strings.Replace(good, `"page":1`, `"row":2`, 1), "no sheet"},
		{"unanswerable with gold", strings.Replace(good, `"answerable":true`, `"answerable":false`, 1), "unanswerable with gold"},
		{"no tags", strings.Replace(good, `"tags":["t"]`, `"tags":[]`, 1), "no tags"},
		{"empty file", "", "no questions"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.jsonl")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			qs, err := LoadDomainQuestions(path)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr == "" && len(qs) != 2:
				t.Fatalf("%d questions, want 2", len(qs))
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestSelectSplit(t *testing.T) {
	qs := []DomainQuestion{lossesQ, inverterQ, samQ}
	for _, c := range []struct {
		split string
		want  int
	}{{SplitTune, 2}, {SplitHeldout, 1}, {SplitAll, 3}} {
		got, err := SelectSplit(qs, c.split)
		if err != nil || len(got) != c.want {
			t.Errorf("SelectSplit(%s) = %d questions, %v; want %d", c.split, len(got), err, c.want)
		}
	}
	if _, err := SelectSplit(qs, "test"); err == nil {
		t.Error("an unknown split is accepted")
	}
}

// scriptedAnswerer answers from a table, to run AskDomain without an index.
type scriptedAnswerer map[string]answer.Answer

func (s scriptedAnswerer) Answer(_ context.Context, req pipeline.Request) (answer.Answer, error) {
	ans := s[req.Question]
	ans.Trace.Generator = "scripted"
	return ans, nil
}

func TestAskDomain(t *testing.T) {
	p := scriptedAnswerer{
		lossesQ.Question:   answered("System losses | % | 14 [S1]", 0.8, "high", page13),
		inverterQ.Question: refusal("NO_KEYWORD_MATCH"),
		samQ.Question:      refusal("LOW_RELEVANCE"),
	}
	clock := time.Unix(0, 0)
	now := func() time.Time { clock = clock.Add(20 * time.Millisecond); return clock }
	outcomes, err := AskDomain(context.Background(), []DomainQuestion{lossesQ, inverterQ, samQ}, p, "t", now)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, o := range outcomes {
		got = append(got, o.ID+":"+o.Verdict)
		if o.LatencyMS != 20 || o.Trace.Generator != "scripted" {
			t.Errorf("%s: latency %v, trace %+v", o.ID, o.LatencyMS, o.Trace)
		}
	}
	if want := "a1:right a2:refused u1:right"; strings.Join(got, " ") != want {
		t.Errorf("verdicts %v, want %s", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AskDomain(ctx, []DomainQuestion{lossesQ}, p, "t", now); err == nil {
		t.Error("a cancelled run does not stop")
	}
}
