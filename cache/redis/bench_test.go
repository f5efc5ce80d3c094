package redis_test

import (
	"os"
	"testing"
	"time"

	"github.com/cewhq/cew/cache/cachetest"
	"github.com/cewhq/cew/cache/redis"
)

func BenchmarkStore(b *testing.B) {
	url := os.Getenv("CEW_TEST_REDIS_URL")
	if url == "" {
		b.Skip("CEW_TEST_REDIS_URL is not set; start one with scripts/redis-test-server.sh start")
	}
	cachetest.Benchmark(b, func(b *testing.B) cachetest.Backend {
		// The timeout only guards against a hung server here: benchmarks
		// measure latency, they do not police it.
		opts := redis.Options{Prefix: uniquePrefix(), SemanticMax: cachetest.BenchSemanticVectors, Timeout: 5 * time.Second}
		b.Cleanup(func() { deleteKeys(b, url, opts.Prefix) })
		return open(b, url, opts)
	})
}
