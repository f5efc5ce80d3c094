package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeRedis speaks just enough RESP for a client to connect and PING; it
// can be stopped (Redis killed) and started again on the same address.
type fakeRedis struct {
	addr string

	mu    sync.Mutex
	ln    net.Listener
	conns []net.Conn
}

func newFakeRedis(t *testing.T) *fakeRedis {
	t.Helper()
	f := &fakeRedis{addr: freeAddr(t)}
	f.start(t)
	t.Cleanup(f.stop)
	return f
}

func (f *fakeRedis) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.ln = ln
	f.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns = append(f.conns, c)
			f.mu.Unlock()
			go serveRESP(c)
		}
	}()
}

// stop closes the listener and every connection.
func (f *fakeRedis) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ln != nil {
		f.ln.Close()
		f.ln = nil
	}
	for _, c := range f.conns {
		c.Close()
	}
	f.conns = nil
}

// serveRESP answers PING with PONG and any other command with an error,
// which go-redis tolerates for its connection set-up (HELLO, CLIENT).
func serveRESP(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if !strings.HasPrefix(line, "*") {
			return
		}
		n, _ := strconv.Atoi(strings.TrimSpace(line[1:]))
		var args []string
		for range n {
			if _, err := r.ReadString('\n'); err != nil { // $len
				return
			}
			arg, err := r.ReadString('\n')
			if err != nil {
				return
			}
			args = append(args, strings.TrimSpace(arg))
		}
		reply := "-ERR unknown command\r\n"
		if len(args) > 0 && strings.EqualFold(args[0], "PING") {
			reply = "+PONG\r\n"
		}
		if _, err := c.Write([]byte(reply)); err != nil {
			return
		}
	}
}

// TestReadyzProbesDependencies: /readyz follows Redis and the LLM endpoint
// going down and coming back with no traffic at all.
func TestReadyzProbesDependencies(t *testing.T) {
	redisSrv := newFakeRedis(t)
	var llmDown atomic.Bool
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if llmDown.Load() {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path != "/v1/models" || r.Header.Get("Authorization") != "Bearer sk-test-llm-key" {
			http.Error(w, "unexpected", http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{"object":"list","data":[{"id":"test-model","object":"model"}]}`)
	}))
	defer llm.Close()
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_ADDR": addr, "CEW_EMBED": "none", "CEW_PROBE_INTERVAL": "30ms",
		"CEW_REDIS_URL": "redis://" + redisSrv.addr + "/0", "CEW_LLM_BASE_URL": llm.URL + "/v1",
		"CEW_LLM_MODEL": "test-model", "OPENAI_API_KEY": "sk-test-llm-key",
	}
	base, stop := serveInBackground(t, addr, runWith(env))
	defer func() {
		if logs := stop(); strings.Contains(logs, "sk-test-llm-key") {
			t.Errorf("the API key reached the logs")
		}
	}()
	waitReady := func(what string, want func(code int, r readiness) bool) {
		t.Helper()
		var (
			code int
			r    readiness
		)
		waitFor(t, what, func() bool { code, r = getReadiness(t, base); return want(code, r) })
		t.Logf("%s: %d %+v", what, code, r)
	}
	waitReady("ready with every dependency", func(code int, r readiness) bool {
		return code == 200 && r.Status == "ready" && r.Checks["cache"] == "ok" && r.Checks["llm"] == "ok" && r.Checks["store"] == "ok"
	})
	redisSrv.stop()
	waitReady("Redis reported down, no traffic", func(code int, r readiness) bool {
		return code == 200 && r.Status == "degraded" && r.Checks["cache"] == "degraded" && r.Errors["cache"] != ""
	})
	redisSrv.start(t)
	waitReady("Redis reported back", func(code int, r readiness) bool {
		return r.Status == "ready" && r.Checks["cache"] == "ok"
	})
	llmDown.Store(true)
	waitReady("the LLM endpoint reported down", func(code int, r readiness) bool {
		return code == 200 && r.Status == "degraded" && r.Checks["llm"] == "error" && strings.Contains(r.Errors["llm"], "503")
	})
	llmDown.Store(false)
	waitReady("the LLM endpoint reported back", func(code int, r readiness) bool { return r.Status == "ready" })
}
