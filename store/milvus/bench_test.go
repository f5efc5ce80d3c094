package milvus_test

import (
	"fmt"
	"testing"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/milvus"
	"github.com/cewhq/cew/store/storetest"
)

// The benchmarks use storetest's corpus, the one the embedded store's
// benchmarks use, so the two backends are measured on the same data:
// 384-dimensional vectors, 100 chunks per document.
const benchDim = 384

func benchCollection(b *testing.B) *milvus.Store {
	opts := testOptions(b)
	opts.Dim = benchDim
	migrate(b, opts)
	return open(b, opts)
}

// BenchmarkIngest reports chunks/s into a fresh collection (run it with
// -benchtime 1x: each iteration ingests the whole corpus).
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			c := storetest.NewBenchCorpus(n, true)
			for b.Loop() {
				storetest.BenchIngest(b, benchCollection(b), c)
			}
		})
	}
}

// BenchmarkSearch ingests the corpus once per size and measures BM25 and
// hybrid search on it (p50 and p99 beside ns/op).
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			c := storetest.NewBenchCorpus(n, true)
			s := benchCollection(b)
			storetest.BenchIngest(b, s, c)
			b.Run("bm25", func(b *testing.B) { storetest.BenchSearch(b, s, c.Queries, store.ModeKeyword) })
			b.Run("hybrid", func(b *testing.B) { storetest.BenchSearch(b, s, c.Queries, store.ModeHybrid) })
		})
	}
}
