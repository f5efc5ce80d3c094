package memory_test

import (
	"testing"

	"github.com/cewhq/cew/cache/cachetest"
	"github.com/cewhq/cew/cache/memory"
)

func BenchmarkStore(b *testing.B) {
	cachetest.Benchmark(b, func(b *testing.B) cachetest.Backend {
		s := memory.New(memory.Options{SemanticMax: cachetest.BenchSemanticVectors})
		b.Cleanup(func() { _ = s.Close() })
		return s
	})
}
