package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// BEIR is a BEIR-format data set: corpus, queries and relevance judgements.
type BEIR struct {
	Docs    []BEIRDoc
	Queries map[string]string
	// Qrels maps query id → doc id → graded relevance (> 0 relevant).
	Qrels map[string]map[string]int
}

// BEIRDoc is one corpus entry.
type BEIRDoc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// LoadBEIR reads dir/corpus.jsonl (or the parts dir/corpus/*.jsonl in name
// order, concatenated), dir/queries.jsonl and the qrels file (default
// dir/qrels/test.tsv, else dir/qrels/train.tsv).
func LoadBEIR(dir, qrelsPath string) (BEIR, error) {
	var b BEIR
	corpusFiles := []string{filepath.Join(dir, "corpus.jsonl")}
	if _, err := os.Stat(corpusFiles[0]); err != nil {
		parts, _ := filepath.Glob(filepath.Join(dir, "corpus", "*.jsonl"))
		if len(parts) == 0 {
			return b, fmt.Errorf("eval: no corpus.jsonl or corpus/*.jsonl in %s", dir)
		}
		sort.Strings(parts)
		corpusFiles = parts
	}
	for _, f := range corpusFiles {
		if err := readJSONL(f, func(line []byte) error {
			var d BEIRDoc
			if err := json.Unmarshal(line, &d); err != nil {
				return err
			}
			b.Docs = append(b.Docs, d)
			return nil
		}); err != nil {
			return b, err
		}
	}
	b.Queries = map[string]string{}
	if err := readJSONL(filepath.Join(dir, "queries.jsonl"), func(line []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		b.Queries[q.ID] = q.Text
		return nil
	}); err != nil {
		return b, err
	}
	if qrelsPath == "" {
		qrelsPath = filepath.Join(dir, "qrels", "test.tsv")
		if _, err := os.Stat(qrelsPath); err != nil {
			qrelsPath = filepath.Join(dir, "qrels", "train.tsv")
		}
	}
	qrels, err := readQrels(qrelsPath)
	if err != nil {
		return b, err
	}
	b.Qrels = qrels
	return b, nil
}

func readJSONL(path string, fn func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			if perr := fn(line); perr != nil {
				return fmt.Errorf("eval: %s line %d: %w", path, n, perr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("eval: %s: %w", path, err)
		}
	}
}

func readQrels(path string) (map[string]map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: qrels: %w", err)
	}
	defer f.Close()
	out := map[string]map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			continue
		}
		score, err := strconv.Atoi(fields[len(fields)-1])
		if err != nil {
			continue // header line
		}
		q, d := fields[0], fields[len(fields)-2]
		if out[q] == nil {
			out[q] = map[string]int{}
		}
		out[q][d] = score
	}
	return out, sc.Err()
}

// IngestBEIR writes one document per corpus entry (title + text, cut by the
// ordinary chunker) into st for tenant. embed may be nil.
func IngestBEIR(ctx context.Context, st ingest.Store, tenant string, docs []BEIRDoc, embed ingest.Embedder) error {
	ix := &indexer{st: st, embed: embed}
	for _, d := range docs {
		doc := store.Document{Tenant: tenant, ID: d.ID, Number: d.ID, Title: d.Title}
		if err := ix.add(ctx, doc, ingest.Block{Page: 1, Text: strings.TrimSpace(d.Text)}); err != nil {
			return err
		}
	}
	return ix.flush(ctx)
}

// indexer writes evaluation documents, embedding the chunks of many
// documents per request: one request per document would leave an
// embedding server's batching idle and dominate the evaluation's time.
type indexer struct {
	st      ingest.Store
	embed   ingest.Embedder
	pending []pendingDoc
	chunks  int
}

type pendingDoc struct {
	doc    store.Document
	chunks []store.Chunk
}

// indexBatch is how many chunks are embedded together.
const indexBatch = 256

func (ix *indexer) add(ctx context.Context, doc store.Document, b ingest.Block) error {
	doc.Revision, doc.Status, doc.Pages = "1", "eval", 1
	chunks := ingest.Chunk(doc, []ingest.Block{b}, ingest.DefaultChunkOptions)
	if len(chunks) == 0 {
		return nil
	}
	doc.Chunks = len(chunks)
	ix.pending = append(ix.pending, pendingDoc{doc, chunks})
	ix.chunks += len(chunks)
	if ix.chunks >= indexBatch {
		return ix.flush(ctx)
	}
	return nil
}

func (ix *indexer) flush(ctx context.Context) error {
	if len(ix.pending) == 0 {
		return nil
	}
	if ix.embed != nil {
		all := make([]store.Chunk, 0, ix.chunks)
		for _, p := range ix.pending {
			all = append(all, p.chunks...)
		}
		if err := ingest.EmbedChunks(ctx, ix.embed, all, nil); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		i := 0
		for _, p := range ix.pending {
			for j := range p.chunks {
				p.chunks[j].Vector = all[i].Vector
				i++
			}
		}
	}
	for _, p := range ix.pending {
		if err := ix.st.PutDocument(ctx, p.doc, p.chunks); err != nil {
			return fmt.Errorf("eval: index %s: %w", p.doc.ID, err)
		}
	}
	ix.pending, ix.chunks = ix.pending[:0], 0
	return nil
}

// Ranking is a system's ranked document ids for one query, with scores.
type Ranking struct {
	DocIDs []string
	Scores []float64
}

// DocRanking maps chunk hits to documents: a document takes the rank of its
// best chunk.
func DocRanking(hits []store.Hit, k int) Ranking {
	var r Ranking
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.Chunk.DocID] {
			continue
		}
		seen[h.Chunk.DocID] = true
		r.DocIDs = append(r.DocIDs, h.Chunk.DocID)
		r.Scores = append(r.Scores, h.Score)
		if len(r.DocIDs) == k {
			break
		}
	}
	return r
}

// NDCG computes nDCG@k with graded gains (BEIR/pytrec_eval convention:
// gain = relevance, discount = log2(rank+1)).
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, d := range ranked {
		if i == k {
			break
		}
		if g := rel[d]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	var gains []int
	for _, g := range rel {
		if g > 0 {
			gains = append(gains, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(gains)))
	idcg := 0.0
	for i, g := range gains {
		if i == k {
			break
		}
		idcg += float64(g) / math.Log2(float64(i+2))
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// Recall is the share of relevant documents found in the top k.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	total, found := 0, 0
	for _, g := range rel {
		if g > 0 {
			total++
		}
	}
	for i, d := range ranked {
		if i == k {
			break
		}
		if rel[d] > 0 {
			found++
		}
	}
	return ratio(found, total)
}

// WriteTREC writes rankings in TREC run format: qid Q0 docid rank score tag.
func WriteTREC(w io.Writer, tag string, runs map[string]Ranking) error {
	qids := make([]string, 0, len(runs))
	for q := range runs {
		qids = append(qids, q)
	}
	sort.Strings(qids)
	bw := bufio.NewWriter(w)
	for _, q := range qids {
		r := runs[q]
		for i, d := range r.DocIDs {
			if _, err := fmt.Fprintf(bw, "%s Q0 %s %d %.6f %s\n", q, d, i+1, r.Scores[i], tag); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// System is one retrieval configuration under evaluation.
type System struct {
	Name   string
	Search func(ctx context.Context, query string) ([]store.Hit, error)
}

// RecallDepth is how deep Recall is measured (and how many documents each
// system ranks).
const RecallDepth = 100

// Retrieval runs every judged query through every system and reports
// nDCG@10 and Recall@100 per system, plus the rankings for a TREC run file.
func Retrieval(ctx context.Context, b BEIR, systems []System, dataset string) (Report, map[string]map[string]Ranking, error) {
	rep := Report{Name: "retrieval", Dataset: dataset, Config: map[string]any{"docs": len(b.Docs)}}
	qids := make([]string, 0, len(b.Qrels))
	for q := range b.Qrels {
		if _, ok := b.Queries[q]; ok {
			qids = append(qids, q)
		}
	}
	sort.Strings(qids)
	runs := map[string]map[string]Ranking{}
	for _, sys := range systems {
		runs[sys.Name] = map[string]Ranking{}
		var ndcg, recall float64
		for _, q := range qids {
			if err := ctx.Err(); err != nil {
				return rep, runs, err
			}
			hits, err := sys.Search(ctx, b.Queries[q])
			if err != nil {
				return rep, runs, fmt.Errorf("eval: %s query %s: %w", sys.Name, q, err)
			}
			r := DocRanking(hits, RecallDepth)
			runs[sys.Name][q] = r
			ndcg += NDCG(r.DocIDs, b.Qrels[q], 10)
			recall += Recall(r.DocIDs, b.Qrels[q], RecallDepth)
		}
		n := len(qids)
		rep.add(sys.Name+"/ndcg@10", ratioF(ndcg, n), n)
		rep.add(sys.Name+"/recall@100", ratioF(recall, n), n)
	}
	return rep, runs, nil
}

func ratioF(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
