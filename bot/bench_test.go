package bot_test

import (
	"context"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/cache/memory"
	"github.com/cewhq/cew/cache/redis"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/embedded"
)

// BenchmarkHandle measures a question answered through the bot, as the CLI
// and the Slack adapter call it: a cache hit (same question again) against a
// miss (a new question each time, answered by the real pipeline on the
// sample corpus), for the in-memory cache and, with CEW_TEST_REDIS_URL set,
// for Redis.
func BenchmarkHandle(b *testing.B) {
	dir := b.TempDir()
	st, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	pdf := ingest.NewPDF("", nil)
	if _, err := ingest.New(ingest.Config{Store: st, PDF: pdf}).Ingest(context.Background(), "acme", []string{"../examples/corpus"}, nil); err != nil {
		b.Fatal(err)
	}
	pdf.Close()
	p, err := pipeline.New(pipeline.Config{Searcher: st, Catalog: st, Generator: generate.NewExtractive(generate.ExtractiveOptions{}),
		Pre: guard.DefaultPreOptions(), Post: guard.DefaultPostOptions()})
	if err != nil {
		b.Fatal(err)
	}

	type backend struct {
		name string
		open func(b *testing.B) bot.Config
	}
	backends := []backend{{"memory", func(b *testing.B) bot.Config {
		m := memory.New(memory.Options{})
		b.Cleanup(func() { m.Close() })
		return bot.Config{Answers: m, Sessions: m, Deduper: m, Limiter: m}
	}}}
	if url := os.Getenv("CEW_TEST_REDIS_URL"); url != "" {
		backends = append(backends, backend{"redis", func(b *testing.B) bot.Config {
			r, err := redis.Open(context.Background(), url, redis.Options{Prefix: "cew-bench-" + strconv.FormatInt(time.Now().UnixNano(), 36) + ":"})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { r.Close() })
			return bot.Config{Answers: r, Sessions: r, Deduper: r, Limiter: r}
		}})
	}
	for _, be := range backends {
		for _, path := range []string{"hit", "miss"} {
			b.Run(be.name+"/"+path, func(b *testing.B) {
				cfg := be.open(b)
				cfg.Pipeline, cfg.Generations = p, st
				bt, err := bot.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				q := bot.Query{Platform: answer.PlatformCLI, Tenant: "acme", Text: "What is the default value of the total system losses in PVWatts?"}
				if _, err := bt.Handle(ctx, q); err != nil {
					b.Fatal(err)
				}
				lat := make([]time.Duration, 0, b.N)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if path == "miss" {
						// A question never asked before: the cache misses and
						// the pipeline answers.
						q.Text = "What is the default value of the total system losses in PVWatts, case " + strconv.Itoa(i) + "?"
					}
					start := time.Now()
					ans, err := bt.Handle(ctx, q)
					lat = append(lat, time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
					if (path == "hit") != ans.Cached {
						b.Fatalf("%s path: cached = %v", path, ans.Cached)
					}
				}
				b.StopTimer()
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
			})
		}
	}
}
