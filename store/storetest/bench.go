package storetest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
)

// The benchmark corpus is synthetic but shaped like project documents:
// chunks of about 150 words drawn from a 30,000-word vocabulary with Zipf
// frequencies, sprinkled with drawing numbers and values with units, 100
// chunks per document, and 384-dimensional random unit vectors (the size
// of common small embedding models). Everything is seeded.
const (
	benchVocabulary  = 30000
	benchWordsChunk  = 150
	benchChunksDoc   = 100
	benchDim         = 384
	benchQueries     = 256
	BenchTenant      = "bench"
	benchCommonWords = 100 // the most frequent words play the part of function words
)

// BenchCorpus is a seeded synthetic corpus for benchmarks: Docs[i] has
// the chunks Chunks[i]; Queries are searches for its tenant.
type BenchCorpus struct {
	Docs    []store.Document
	Chunks  [][]store.Chunk
	Queries []store.SearchRequest
}

func benchWords(r *rand.Rand) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	seen := make(map[string]bool, benchVocabulary)
	words := make([]string, 0, benchVocabulary)
	for len(words) < benchVocabulary {
		n := 3 + r.IntN(8)
		var b strings.Builder
		for range n {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

func randomUnitVector(r *rand.Rand) []float32 {
	v := make([]float32, benchDim)
	var sum float64
	for i := range v {
		f := r.NormFloat64()
		v[i] = float32(f)
		sum += f * f
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// NewBenchCorpus builds a corpus of the given number of chunks, with
// 384-dimensional vectors when vectors is true.
func NewBenchCorpus(chunks int, vectors bool) *BenchCorpus {
	r := rand.New(rand.NewPCG(1, 2))
	words := benchWords(r)
	zipf := rand.NewZipf(r, 1.07, 2, benchVocabulary-1)
	sentence := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			switch x := r.IntN(60); x {
			case 0:
				fmt.Fprintf(&b, "277-007-D-C-%05d", r.IntN(100000))
			case 1:
				fmt.Fprintf(&b, "%d mm", 50*(1+r.IntN(40)))
			case 2:
				fmt.Fprintf(&b, "-0.%02d %%/°C", r.IntN(100))
			default:
				b.WriteString(words[zipf.Uint64()])
			}
			if i%15 == 14 {
				b.WriteString(".")
			}
		}
		return b.String()
	}
	c := &BenchCorpus{}
	for d := 0; d*benchChunksDoc < chunks; d++ {
		id := fmt.Sprintf("277-007-D-C-%05d", d)
		doc := store.Document{Tenant: BenchTenant, ID: id, Number: id, Title: sentence(6), Revision: "01", Status: "IFC"}
		cs := make([]store.Chunk, 0, benchChunksDoc)
		for i := 0; i < benchChunksDoc && d*benchChunksDoc+i < chunks; i++ {
			ch := store.Chunk{ID: store.ChunkID(id, "01", i), Tenant: BenchTenant, DocID: id, DocNumber: id,
				Title: doc.Title, Revision: "01", Page: 1 + i/4, Section: sentence(4), Index: i, Text: sentence(benchWordsChunk)}
			if vectors {
				ch.Vector = randomUnitVector(r)
			}
			cs = append(cs, ch)
		}
		c.Docs = append(c.Docs, doc)
		c.Chunks = append(c.Chunks, cs)
	}
	// Questions name a few content words, mostly of middling frequency.
	for range benchQueries {
		n := 3 + r.IntN(4)
		q := make([]string, n)
		for i := range q {
			q[i] = words[min(benchCommonWords+int(zipf.Uint64()), benchVocabulary-1)]
		}
		req := store.SearchRequest{Tenant: BenchTenant, Query: strings.Join(q, " "), K: store.DefaultK}
		if vectors {
			req.Vector = randomUnitVector(r)
		}
		c.Queries = append(c.Queries, req)
	}
	return c
}

// BenchSearch runs the corpus queries in turn and reports the median and
// 99th percentile latency beside the mean that ns/op gives.
func BenchSearch(b *testing.B, s store.Searcher, queries []store.SearchRequest, mode store.Mode) {
	b.Helper()
	ctx := context.Background()
	var lat []time.Duration
	hits := 0
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		q.Mode = mode
		if mode == store.ModeKeyword {
			q.Vector = nil
		}
		start := time.Now()
		h, err := s.Search(ctx, q)
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		hits += len(h)
		i++
	}
	b.StopTimer()
	if hits == 0 {
		b.Fatal("the benchmark queries found nothing")
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchIngest writes the corpus into s, one PutDocument per document, and
// reports the rate in chunks per second.
func BenchIngest(b *testing.B, s store.Indexer, c *BenchCorpus) {
	b.Helper()
	ctx := context.Background()
	start := time.Now()
	n := 0
	for i, d := range c.Docs {
		if err := s.PutDocument(ctx, d, c.Chunks[i]); err != nil {
			b.Fatal(err)
		}
		n += len(c.Chunks[i])
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "chunks/s")
}
