package embedded

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

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
	benchTenant      = "bench"
	benchCommonWords = 100 // the most frequent words play the part of function words
)

type benchCorpus struct {
	docs    []store.Document
	chunks  [][]store.Chunk
	queries []store.SearchRequest
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

func makeBenchCorpus(chunks int, vectors bool) *benchCorpus {
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
	c := &benchCorpus{}
	for d := 0; d*benchChunksDoc < chunks; d++ {
		id := fmt.Sprintf("277-007-D-C-%05d", d)
		doc := store.Document{Tenant: benchTenant, ID: id, Number: id, Title: sentence(6), Revision: "01", Status: "IFC"}
		cs := make([]store.Chunk, 0, benchChunksDoc)
		for i := 0; i < benchChunksDoc && d*benchChunksDoc+i < chunks; i++ {
			ch := store.Chunk{ID: store.ChunkID(id, "01", i), Tenant: benchTenant, DocID: id, DocNumber: id,
				Title: doc.Title, Revision: "01", Page: 1 + i/4, Section: sentence(4), Index: i, Text: sentence(benchWordsChunk)}
			if vectors {
				ch.Vector = randomUnitVector(r)
			}
			cs = append(cs, ch)
		}
		c.docs = append(c.docs, doc)
		c.chunks = append(c.chunks, cs)
	}
	// Questions name a few content words, mostly of middling frequency.
	for range benchQueries {
		n := 3 + r.IntN(4)
		q := make([]string, n)
		for i := range q {
			q[i] = words[min(benchCommonWords+int(zipf.Uint64()), benchVocabulary-1)]
		}
		req := store.SearchRequest{Tenant: benchTenant, Query: strings.Join(q, " "), K: store.DefaultK}
		if vectors {
			req.Vector = randomUnitVector(r)
		}
		c.queries = append(c.queries, req)
	}
	return c
}

var benchStores sync.Map // "size/vectors" → *Store

// benchStore builds an in-memory store once per size and shares it between
// benchmarks, so runs measure search and not corpus construction.
func benchStore(b *testing.B, chunks int, vectors bool) (*Store, *benchCorpus) {
	b.Helper()
	type built struct {
		s *Store
		c *benchCorpus
	}
	key := fmt.Sprint(chunks, vectors)
	if v, ok := benchStores.Load(key); ok {
		return v.(built).s, v.(built).c
	}
	c := makeBenchCorpus(chunks, vectors)
	s := newStore(nil, nil)
	for i, d := range c.docs {
		if err := s.PutDocument(context.Background(), d, c.chunks[i]); err != nil {
			b.Fatal(err)
		}
	}
	benchStores.Store(key, built{s, c})
	return s, c
}

// runSearches runs the corpus queries in turn and reports the median and
// 99th percentile latency beside the mean that ns/op gives.
func runSearches(b *testing.B, s *Store, queries []store.SearchRequest, mode store.Mode) {
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

func BenchmarkSearchBM25(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			s, c := benchStore(b, n, false)
			runSearches(b, s, c.queries, store.ModeKeyword)
		})
	}
}

func BenchmarkSearchHybrid(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			s, c := benchStore(b, n, true)
			runSearches(b, s, c.queries, store.ModeHybrid)
		})
	}
}

// BenchmarkOpen measures loading an index file of 100k chunks with 384-d
// vectors: decoding, analysis and building the postings.
func BenchmarkOpen(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	// Write the fixture straight to the file in one transaction: building
	// the in-memory index on the way would only slow the set-up down.
	c := makeBenchCorpus(n, true)
	var an analyser
	err = s.db.Update(func(tx *bolt.Tx) error {
		for i, d := range c.docs {
			d.Active, d.Chunks = true, len(c.chunks[i])
			analysed := make([]analysed, len(c.chunks[i]))
			for j := range c.chunks[i] {
				analysed[j] = an.analyse(&c.chunks[i][j])
			}
			if err := persist(tx, d, c.chunks[i], analysed, []store.Document{d}, uint64(i+1)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	c = nil
	b.Run("chunks=100k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if got := s.tenants[benchTenant].live; got != n {
				b.Fatalf("loaded %d chunks, want %d", got, n)
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
