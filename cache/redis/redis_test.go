package redis_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
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

// server is a redis-server of the test's own, which it can kill, freeze
// and restart.
type server struct {
	t    *testing.T
	bin  string
	port int
	mu   sync.Mutex
	cmd  *exec.Cmd
}

func newServer(t *testing.T) *server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not in PATH; CI must install it (scripts/redis-test-server.sh start)")
		}
		t.Skip("redis-server is not in PATH")
	}
	s := &server{t: t, bin: bin, port: closedPort(t)}
	s.start()
	t.Cleanup(s.kill)
	return s
}

func (s *server) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

func (s *server) start() {
	s.t.Helper()
	cmd := exec.Command(s.bin, "--bind", "127.0.0.1", "--port", fmt.Sprint(s.port),
		"--save", "", "--appendonly", "no", "--dir", s.t.TempDir())
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start redis-server: %v", err)
	}
	s.mu.Lock()
	s.cmd = cmd
	s.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for !answers(s.port) {
		if time.Now().After(deadline) {
			s.t.Fatalf("redis-server on port %d did not answer", s.port)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// kill ends the server abruptly, as a crash or a lost node would.
func (s *server) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGCONT) // a frozen server must die too
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// signal freezes (SIGSTOP) or thaws (SIGCONT) the server: frozen, it
// accepts connections but never replies, like an overloaded Redis.
func (s *server) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("signal redis-server: %v", err)
	}
}

func answers(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "+PONG")
}

func TestOutageAndRecovery(t *testing.T) {
	srv := newServer(t)
	var logs strings.Builder
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{mu: &logMu, w: &logs}, nil))
	// Long enough that a loaded CI machine does not time out a healthy
	// server, short enough that the frozen case stays quick.
	store := open(t, srv.url(), redis.Options{Timeout: 500 * time.Millisecond, Logger: logger})
	health := cache.NewHealth(cache.HealthOptions{Backend: "redis", Logger: logger})
	ctx := context.Background()
	key := cache.Key{Tenant: "acme", Generation: 1, Question: "What is the trench depth?"}

	// calls is one of every operation; each reports into health as the bot
	// would.
	calls := []struct {
		name string
		call func() error
	}{
		{"Get", func() error { _, _, err := store.Get(ctx, key); return err }},
		{"Put", func() error {
			return store.Put(ctx, key, cache.Entry{Value: []byte("800 mm"), Vector: []float32{1, 0}}, time.Minute)
		}},
		{"Nearest", func() error { _, _, _, err := store.Nearest(ctx, "acme", 1, []float32{1, 0}, 0.95); return err }},
		{"Turns", func() error { _, err := store.Turns(ctx, "slack:C1"); return err }},
		{"Append", func() error { return store.Append(ctx, "slack:C1", cache.Turn{Question: "q"}, 3, time.Minute) }},
		{"FirstSeen", func() error { _, err := store.FirstSeen(ctx, "Ev1", time.Minute); return err }},
		{"Allow", func() error { _, err := store.Allow(ctx, "user:U1", 100, time.Minute); return err }},
		{"Ping", func() error { return store.Ping(ctx) }},
	}
	allSucceed := func(t *testing.T) {
		t.Helper()
		for _, c := range calls {
			if err := c.call(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			health.Observe(nil)
		}
		if health.Degraded() {
			t.Fatal("Health still degraded after successful calls")
		}
	}
	allUnavailable := func(t *testing.T) {
		t.Helper()
		for _, c := range calls {
			done := make(chan error, 1)
			go func() { done <- c.call() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				// Far beyond the timeout: the call is stuck, not slow.
				t.Fatalf("%s blocked on an unresponsive Redis", c.name)
			}
			health.Observe(err)
			if !errors.Is(err, cache.ErrUnavailable) {
				t.Errorf("%s: error = %v, want ErrUnavailable", c.name, err)
			}
		}
		if !health.Degraded() {
			t.Error("Health not degraded after failed calls")
		}
	}
	// recovered polls until the client has reconnected by itself.
	recovered := func(t *testing.T) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for store.Ping(ctx) != nil {
			if time.Now().After(deadline) {
				t.Fatal("the store did not reconnect")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	allSucceed(t)

	t.Run("killed", func(t *testing.T) {
		srv.kill()
		allUnavailable(t)
	})
	t.Run("restarted", func(t *testing.T) {
		srv.start()
		recovered(t)
		allSucceed(t)
	})
	t.Run("frozen", func(t *testing.T) {
		srv.signal(syscall.SIGSTOP)
		allUnavailable(t)
	})
	t.Run("thawed", func(t *testing.T) {
		srv.signal(syscall.SIGCONT)
		recovered(t)
		allSucceed(t)
	})

	logMu.Lock()
	defer logMu.Unlock()
	for _, want := range []string{"cache backend unavailable", "cache backend recovered"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("logs lack %q:\n%s", want, logs.String())
		}
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
