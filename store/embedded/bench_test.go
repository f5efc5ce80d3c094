package embedded

import (
	"context"
	"fmt"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/storetest"
)

var benchStores sync.Map // "size/vectors" → *Store

// benchStore builds an in-memory store once per size and shares it between
// benchmarks, so runs measure search and not corpus construction.
func benchStore(b *testing.B, chunks int, vectors bool) (*Store, *storetest.BenchCorpus) {
	b.Helper()
	type built struct {
		s *Store
		c *storetest.BenchCorpus
	}
	key := fmt.Sprint(chunks, vectors)
	if v, ok := benchStores.Load(key); ok {
		return v.(built).s, v.(built).c
	}
	c := storetest.NewBenchCorpus(chunks, vectors)
	s := newStore(nil, nil)
	for i, d := range c.Docs {
		if err := s.PutDocument(context.Background(), d, c.Chunks[i]); err != nil {
			b.Fatal(err)
		}
	}
	benchStores.Store(key, built{s, c})
	return s, c
}

func BenchmarkSearchBM25(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			s, c := benchStore(b, n, false)
			storetest.BenchSearch(b, s, c.Queries, store.ModeKeyword)
		})
	}
}

func BenchmarkSearchHybrid(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			s, c := benchStore(b, n, true)
			storetest.BenchSearch(b, s, c.Queries, store.ModeHybrid)
		})
	}
}

// BenchmarkOpen measures loading an index file of 100k chunks with 384-d
// vectors: decoding, analysis and building the postings — for a writer
// (Open), for a reader (OpenSnapshot, what a Follower does when the file
// changed) — and a Follower's poll when it did not.
func BenchmarkOpen(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	// Write the fixture straight to the file in one transaction: building
	// the in-memory index on the way would only slow the set-up down.
	c := storetest.NewBenchCorpus(n, true)
	var an analyser
	err = s.db.Update(func(tx *bolt.Tx) error {
		for i, d := range c.Docs {
			d.Active, d.Chunks = true, len(c.Chunks[i])
			analysed := make([]analysed, len(c.Chunks[i]))
			for j := range c.Chunks[i] {
				analysed[j] = an.analyse(&c.Chunks[i][j])
			}
			if err := persist(context.Background(), tx, d, c.Chunks[i], analysed, []store.Document{d}, uint64(i+1)); err != nil {
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
	b.Run("snapshot/chunks=100k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := OpenSnapshot(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if got := s.tenants[storetest.BenchTenant].live; got != n {
				b.Fatalf("loaded %d chunks, want %d", got, n)
			}
		}
	})
	// What a follower's poll costs when nothing changed: a stat.
	b.Run("refresh-unchanged/chunks=100k", func(b *testing.B) {
		f, err := OpenFollower(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if changed, err := f.Refresh(context.Background()); changed || err != nil {
				b.Fatal(changed, err)
			}
		}
	})
	// A write through a follower (a sync job in the server): the file's
	// lock and one transaction, no reload.
	b.Run("follower-put-100-chunks/chunks=100k", func(b *testing.B) {
		f, err := OpenFollower(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		texts := make([]string, 100)
		for i := range texts {
			texts[i] = fmt.Sprintf("cable schedule line %d, conductor 95 mm2, trench depth %d mm", i, 600+i)
		}
		n := 0
		for b.Loop() {
			n++
			doc := testDoc(storetest.BenchTenant, "follower-bench", fmt.Sprint(n), "IFC")
			if err := f.PutDocument(context.Background(), doc, testChunks(doc, texts...)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("chunks=100k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if got := s.tenants[storetest.BenchTenant].live; got != n {
				b.Fatalf("loaded %d chunks, want %d", got, n)
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkIngest writes the benchmark corpus into an index file, one
// document (100 chunks) per transaction, with 384-d vectors.
func BenchmarkIngest(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("chunks=%dk", n/1000), func(b *testing.B) {
			c := storetest.NewBenchCorpus(n, true)
			for b.Loop() {
				s, err := Open(b.TempDir(), Options{})
				if err != nil {
					b.Fatal(err)
				}
				storetest.BenchIngest(b, s, c)
				_ = s.Close()
			}
		})
	}
}
