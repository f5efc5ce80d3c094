package embedded

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
)

// TestSciFactBM25 measures keyword retrieval on BEIR SciFact, one chunk per
// abstract (title + text), as the BEIR "flat" BM25 setting does. It runs
// only when CEW_SCIFACT_DIR points at the data set (../shared/eval/scifact)
// and CEW_SCIFACT_QRELS names the judgments (default qrels/train.tsv); the
// floor guards the analyser against regressions, the logged numbers are the
// measurement.
func TestSciFactBM25(t *testing.T) {
	dir := os.Getenv("CEW_SCIFACT_DIR")
	if dir == "" {
		t.Skip("CEW_SCIFACT_DIR is not set")
	}
	qrelsFile := os.Getenv("CEW_SCIFACT_QRELS")
	if qrelsFile == "" {
		qrelsFile = filepath.Join("qrels", "train.tsv")
	}
	ctx := context.Background()
	s := newStore(nil, nil)
	parts, err := filepath.Glob(filepath.Join(dir, "corpus", "corpus.part*.jsonl"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no corpus parts in %s: %v", dir, err)
	}
	sort.Strings(parts)
	docs := 0
	for _, p := range parts {
		readJSONLines(t, p, func(line []byte) {
			var d struct{ ID, Title, Text string }
			var raw struct {
				ID    string `json:"_id"`
				Title string `json:"title"`
				Text  string `json:"text"`
			}
			if err := json.Unmarshal(line, &raw); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			d.ID, d.Title, d.Text = raw.ID, raw.Title, raw.Text
			doc := store.Document{Tenant: "scifact", ID: d.ID, Number: d.ID, Title: d.Title, Revision: "1"}
			c := store.Chunk{ID: store.ChunkID(d.ID, "1", 0), Tenant: "scifact", DocID: d.ID, Revision: "1",
				Title: d.Title, Text: d.Text}
			if err := s.PutDocument(ctx, doc, []store.Chunk{c}); err != nil {
				t.Fatal(err)
			}
			docs++
		})
	}
	queries := map[string]string{}
	readJSONLines(t, filepath.Join(dir, "queries.jsonl"), func(line []byte) {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			t.Fatal(err)
		}
		queries[q.ID] = q.Text
	})
	relevant := map[string]map[string]bool{}
	f, err := os.ReadFile(filepath.Join(dir, qrelsFile))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.ReplaceAll(string(f), "\r", ""), "\n") {
		fields := strings.Fields(line)
		if i == 0 || len(fields) != 3 || fields[2] == "0" {
			continue
		}
		if relevant[fields[0]] == nil {
			relevant[fields[0]] = map[string]bool{}
		}
		relevant[fields[0]][fields[1]] = true
	}
	var ndcg, recall, mrr float64
	for qid, rel := range relevant {
		hits, err := s.Search(ctx, store.SearchRequest{Tenant: "scifact", Query: queries[qid], Mode: store.ModeKeyword, K: 100})
		if err != nil {
			t.Fatal(err)
		}
		var dcg, idcg float64
		found := 0
		for i, h := range hits {
			if !rel[h.Chunk.DocID] {
				continue
			}
			found++
			if i < 10 {
				dcg += 1 / math.Log2(float64(i+2))
				if found == 1 {
					mrr += 1 / float64(i+1)
				}
			}
		}
		for i := range min(len(rel), 10) {
			idcg += 1 / math.Log2(float64(i+2))
		}
		ndcg += dcg / idcg
		recall += float64(found) / float64(len(rel))
	}
	n := float64(len(relevant))
	t.Logf("SciFact %s: docs=%d queries=%d nDCG@10=%.4f Recall@100=%.4f MRR@10=%.4f",
		qrelsFile, docs, len(relevant), ndcg/n, recall/n, mrr/n)
	if ndcg/n < 0.64 {
		t.Errorf("nDCG@10 = %.4f, below the 0.64 floor", ndcg/n)
	}
}

func readJSONLines(t *testing.T, path string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			fn(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
