package eval

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// The domain dev set and the corpus it is about, from this package's folder.
const (
	devSetPath    = "../../eval/domain/questions.jsonl"
	devSetReadme  = "../../eval/domain/README.md"
	devCorpusPath = "../../examples/corpus"
)

// Sizes the dev set must keep (issue 8: at least 120 answerable questions
// and 60 unanswerable near misses).
const (
	minAnswerable   = 120
	minUnanswerable = 60
)

// chunkRecorder is an index that keeps what ingest writes, so the test reads
// exactly the text cew indexes.
type chunkRecorder struct {
	mu     sync.Mutex
	chunks []store.Chunk
}

func (r *chunkRecorder) PutDocument(_ context.Context, _ store.Document, chunks []store.Chunk) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks = append(r.chunks, chunks...)
	return nil
}

func (r *chunkRecorder) Documents(context.Context, string) ([]store.Document, error) { return nil, nil }
func (r *chunkRecorder) Generation(context.Context, string) (uint64, error)          { return 0, nil }

// placeKey locates a gold place's text: document number and page, or
// document number, sheet and row.
func placeKey(doc string, page int, sheet string, row int) string {
	if row > 0 {
		return fmt.Sprintf("%s|%s|row %d", strings.ToUpper(doc), strings.ToLower(sheet), row)
	}
	return fmt.Sprintf("%s|page %d", strings.ToUpper(doc), page)
}

// TestDomainDevSet keeps the dev set honest: it parses, ids are unique, the
// held-out third holds, every gold document is in the register, and every
// gold value occurs in the text cew indexes for at least one of its gold
// pages or rows.
func TestDomainDevSet(t *testing.T) {
	qs, err := LoadDomainQuestions(devSetPath)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("sizes and split", func(t *testing.T) {
		var answerable, unanswerable, heldAns, heldUnans int
		for _, q := range qs {
			if q.Answerable {
				answerable++
				if q.Split == SplitHeldout {
					heldAns++
				}
			} else {
				unanswerable++
				if q.Split == SplitHeldout {
					heldUnans++
				}
			}
		}
		if answerable < minAnswerable || unanswerable < minUnanswerable {
			t.Errorf("%d answerable and %d unanswerable questions; want at least %d and %d", answerable, unanswerable, minAnswerable, minUnanswerable)
		}
		for _, c := range []struct {
			name      string
			held, all int
		}{{"answerable", heldAns, answerable}, {"unanswerable", heldUnans, unanswerable}} {
			if want := float64(c.all) / 3; float64(c.held) < want-2 || float64(c.held) > want+2 {
				t.Errorf("%s: %d of %d held out; want a third (%.1f ± 2)", c.name, c.held, c.all, want)
			}
		}
	})

	t.Run("held out on every document", func(t *testing.T) {
		perDoc := map[string][2]int{} // questions, held out
		for _, q := range qs {
			if !q.Answerable {
				continue
			}
			c := perDoc[q.Gold[0].Doc]
			c[0]++
			if q.Split == SplitHeldout {
				c[1]++
			}
			perDoc[q.Gold[0].Doc] = c
		}
		for doc, c := range perDoc {
			if c[0] >= 3 && c[1] == 0 {
				t.Errorf("%s: none of its %d questions is held out", doc, c[0])
			}
		}
	})

	t.Run("tags are documented", func(t *testing.T) {
		readme, err := os.ReadFile(devSetReadme)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			for _, tag := range q.Tags {
				if !strings.Contains(string(readme), "`"+tag+"`") {
					t.Errorf("%s: tag %q is not in %s", q.ID, tag, devSetReadme)
				}
			}
		}
	})

	t.Run("gold documents are registered", func(t *testing.T) {
		numbers := registerNumbers(t, filepath.Join(devCorpusPath, "register.csv"))
		for _, q := range qs {
			for _, g := range q.Gold {
				if !slices.Contains(numbers, strings.ToUpper(g.Doc)) {
					t.Errorf("%s: gold document %q is not in the register", q.ID, g.Doc)
				}
			}
		}
	})

	t.Run("gold values are in the indexed text", func(t *testing.T) {
		if testing.Short() {
			t.Skip("indexes the sample corpus")
		}
		rec := &chunkRecorder{}
		pdf := ingest.NewPDF(filepath.Join(os.TempDir(), "cew-test-pdfium-cache"), nil)
		defer pdf.Close()
		rep, err := ingest.New(ingest.Config{Store: rec, PDF: pdf}).Ingest(context.Background(), "devset", []string{devCorpusPath}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n := rep.Count(ingest.Failed); n > 0 {
			t.Fatalf("%d files failed to ingest", n)
		}
		text := map[string]string{}
		for _, c := range rec.chunks {
			k := placeKey(c.DocNumber, c.Page, c.Sheet, c.Row)
			text[k] += "\n" + c.Text
		}
		for _, q := range qs {
			for _, g := range q.Gold {
				if text[placeKey(g.Doc, g.Page, g.Sheet, g.Row)] == "" {
					t.Errorf("%s: nothing is indexed at %s", q.ID, g)
				}
			}
			for _, spellings := range q.Values {
				found := false
				for _, g := range q.Gold {
					if len(MissingValues(text[placeKey(g.Doc, g.Page, g.Sheet, g.Row)], [][]string{spellings})) == 0 {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s %q: value %q is on none of its gold places %v", q.ID, q.Question, spellings, q.Gold)
				}
			}
		}
	})
}

// registerNumbers reads the document numbers of a register.csv.
func registerNumbers(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(records[0], "number")
	if col < 0 {
		t.Fatalf("%s: no number column", path)
	}
	var numbers []string
	for _, r := range records[1:] {
		numbers = append(numbers, strings.ToUpper(r[col]))
	}
	return numbers
}
