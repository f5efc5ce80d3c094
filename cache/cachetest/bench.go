package cachetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/cewhq/cew/cache"
)

// BenchSemanticVectors and BenchDims shape the semantic benchmark: a full
// tenant set of a small embedding model's vectors (all-MiniLM-L6-v2 has
// 384 dimensions). A backend under benchmark keeps at least
// BenchSemanticVectors per tenant.
const (
	BenchSemanticVectors = 1000
	BenchDims            = 384
)

// Benchmark measures the hot-path calls of a backend: exact Get (hit and
// miss), Put, and semantic Nearest over a full set. Every backend runs the
// same benchmarks so their numbers compare.
func Benchmark(b *testing.B, newStore func(b *testing.B) Backend) {
	ctx := context.Background()
	value := make([]byte, 2048) // a typical serialised answer with sources
	for i := range value {
		value[i] = byte('a' + i%26)
	}
	key := func(i int) cache.Key {
		return cache.Key{Tenant: "bench", Generation: 1, Question: "question " + strconv.Itoa(i), PromptSet: "v1", Model: "m"}
	}

	b.Run("GetHit", func(b *testing.B) {
		s := newStore(b)
		if err := s.Put(ctx, key(0), cache.Entry{Value: value, Question: "question 0"}, time.Hour); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, err := s.Get(ctx, key(0)); err != nil || !ok {
				b.Fatalf("Get = %v, %v", ok, err)
			}
		}
	})

	b.Run("GetMiss", func(b *testing.B) {
		s := newStore(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, err := s.Get(ctx, key(-1)); err != nil || ok {
				b.Fatalf("Get = %v, %v", ok, err)
			}
		}
	})

	b.Run("Put", func(b *testing.B) {
		s := newStore(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := s.Put(ctx, key(i%1000), cache.Entry{Value: value}, time.Hour); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})

	b.Run(fmt.Sprintf("Nearest/%dx%d", BenchSemanticVectors, BenchDims), func(b *testing.B) {
		s := newStore(b)
		rng := rand.New(rand.NewPCG(1, 2))
		vectors := make([][]float32, BenchSemanticVectors)
		for i := range vectors {
			v := make([]float32, BenchDims)
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
			vectors[i] = v
			if err := s.Put(ctx, key(i), cache.Entry{Value: value, Vector: v}, time.Hour); err != nil {
				b.Fatal(err)
			}
		}
		query := vectors[BenchSemanticVectors/2]
		b.ReportAllocs()
		for b.Loop() {
			if _, _, ok, err := s.Nearest(ctx, "bench", 1, query, 0.95); err != nil || !ok {
				b.Fatalf("Nearest = %v, %v", ok, err)
			}
		}
	})
}
