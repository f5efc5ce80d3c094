//go:build unix

package redis_test

import (
	"bufio"
	"context"
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

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/cache/redis"
)

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
	dieWithTest(cmd)
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
