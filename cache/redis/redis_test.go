package redis_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/cache/cachetest"
	"github.com/cewhq/cew/cache/redis"
)

func TestMain(m *testing.M) {
	// The outage tests fail dials on purpose; go-redis would print each.
	goredis.SetLogger(redis.ClientLog{Logger: slog.New(slog.DiscardHandler)})
	os.Exit(m.Run())
}

// testURL is the Redis the suite runs against. Outside CI a missing one
// skips; in CI it is a failure, since CI starts one
// (scripts/redis-test-server.sh).
func testURL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv("CEW_TEST_REDIS_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("CEW_TEST_REDIS_URL is not set; CI must start a Redis (scripts/redis-test-server.sh start)")
		}
		tb.Skip("CEW_TEST_REDIS_URL is not set; start one with scripts/redis-test-server.sh start")
	}
	return url
}

// uniquePrefix keeps each store's keys apart from every other run's on a
// shared server.
func uniquePrefix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "cewtest:" + hex.EncodeToString(b) + ":"
}

func open(tb testing.TB, url string, opts redis.Options) *redis.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := redis.Open(ctx, url, opts)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// deleteKeys removes every key under prefix, so test runs leave a shared
// server as they found it.
func deleteKeys(tb testing.TB, url, prefix string) {
	ro, err := goredis.ParseURL(url)
	if err != nil {
		tb.Fatal(err)
	}
	c := goredis.NewClient(ro)
	defer c.Close()
	ctx := context.Background()
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		tb.Errorf("scan %s*: %v", prefix, err)
		return
	}
	if len(keys) > 0 {
		if err := c.Del(ctx, keys...).Err(); err != nil {
			tb.Errorf("delete %s*: %v", prefix, err)
		}
	}
}

// replicated is a Store that can open a second client onto the same keys,
// the way a second bot replica would.
type replicated struct {
	*redis.Store
	url  string
	opts redis.Options
}

func (r replicated) Replica(t *testing.T) cachetest.Backend {
	return open(t, r.url, r.opts)
}

func TestConformance(t *testing.T) {
	url := testURL(t)
	cachetest.Run(t, func(t *testing.T) cachetest.Backend {
		// A generous timeout: the suite checks behaviour, and -race on a
		// busy CI machine is slow.
		opts := redis.Options{Prefix: uniquePrefix(), SemanticMax: cachetest.SemanticMax, Timeout: 2 * time.Second}
		t.Cleanup(func() { deleteKeys(t, url, opts.Prefix) })
		return replicated{Store: open(t, url, opts), url: url, opts: opts}
	})
}

func TestKeyLayout(t *testing.T) {
	url := testURL(t)
	opts := redis.Options{Prefix: uniquePrefix(), SemanticMax: 2}
	t.Cleanup(func() { deleteKeys(t, url, opts.Prefix) })
	s := open(t, url, opts)
	ro, _ := goredis.ParseURL(url)
	raw := goredis.NewClient(ro)
	defer raw.Close()
	ctx := context.Background()

	k := cache.Key{Tenant: "acme", Generation: 7, Question: "q"}
	if err := s.Put(ctx, k, cache.Entry{Value: []byte("v"), Vector: []float32{1, 0}}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "slack:C1", cache.Turn{Question: "q"}, 3, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FirstSeen(ctx, "Ev1", time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Allow(ctx, "user:U1", 3, time.Minute); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		key  string
	}{
		{"answer", opts.Prefix + "answer:" + k.Hash()},
		{"semantic vectors", opts.Prefix + "semantic:{acme}:7:vectors"},
		{"semantic order", opts.Prefix + "semantic:{acme}:7:order"},
		{"session", opts.Prefix + "session:slack:C1"},
		{"dedupe", opts.Prefix + "seen:Ev1"},
		{"rate limit", opts.Prefix + "rate:user:U1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ttl, err := raw.PTTL(ctx, c.key).Result()
			if err != nil {
				t.Fatal(err)
			}
			// Every key expires: a negative PTTL is a missing key (-2) or
			// one that would live forever (-1).
			if ttl <= 0 || ttl > time.Minute {
				t.Errorf("PTTL(%s) = %v, want in (0, 1m]", c.key, ttl)
			}
		})
	}
}

func TestOpenErrorsHideThePassword(t *testing.T) {
	const secret = "s3cr3t-pa55"
	closed := closedPort(t)
	cases := []struct {
		name            string
		url             string
		wantUnavailable bool
	}{
		{"wrong scheme", "http://:" + secret + "@127.0.0.1:6379/0", false},
		{"malformed port", "redis://:" + secret + "@127.0.0.1:port/0", false},
		{"password with a slash", "redis://:" + secret + "/x@127.0.0.1:6379/0", false},
		{"bad database", "redis://:" + secret + "@127.0.0.1:6379/zero", false},
		{"nothing listening", fmt.Sprintf("redis://:%s@127.0.0.1:%d/0", secret, closed), true},
		{"nothing listening, TLS", fmt.Sprintf("rediss://user:%s@127.0.0.1:%d/0", secret, closed), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs strings.Builder
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			s, err := redis.Open(ctx, c.url, redis.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err == nil {
				_ = s.Close()
				t.Fatal("Open succeeded")
			}
			if got := errors.Is(err, cache.ErrUnavailable); got != c.wantUnavailable {
				t.Errorf("errors.Is(%v, ErrUnavailable) = %v, want %v", err, got, c.wantUnavailable)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(logs.String(), secret) {
				t.Errorf("the password leaked: error %q, logs %q", err, logs.String())
			}
			if !strings.HasPrefix(err.Error(), "cache/redis: ") {
				t.Errorf("error %q does not name the package", err)
			}
		})
	}
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	return port
}

func TestClientLog(t *testing.T) {
	cases := []struct {
		name   string
		format string
		args   []any
		want   string
	}{
		{"formats", "redis: connection pool: failed to dial after %d attempts: %v", []any{1, "refused"}, "failed to dial after 1 attempts: refused"},
		{"no arguments", "redis: pool closed", nil, "redis: pool closed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			l := redis.ClientLog{Logger: slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))}
			l.Printf(context.Background(), c.format, c.args...)
			got := out.String()
			if !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, c.want) || !strings.Contains(got, "component=go-redis") {
				t.Errorf("logged %q, want a debug line with %q", got, c.want)
			}
		})
	}
}

func TestOpenStartDegraded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", closedPort(t))
	s, err := redis.Open(ctx, url, redis.Options{StartDegraded: true})
	if err != nil {
		t.Fatalf("Open with StartDegraded: %v", err)
	}
	defer s.Close()
	_, _, err = s.Get(ctx, cache.Key{Tenant: "t", Question: "q"})
	if !errors.Is(err, cache.ErrUnavailable) {
		t.Fatalf("Get on an unreachable Redis: err = %v, want ErrUnavailable", err)
	}
	if err := s.Ping(ctx); !errors.Is(err, cache.ErrUnavailable) {
		t.Fatalf("Ping: err = %v, want ErrUnavailable", err)
	}
}
