package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/store"
)

// probe is one dependency /readyz reports on.
type probe struct {
	name string
	// required: while it fails this replica cannot answer (503); otherwise
	// it answers without the dependency ("degraded").
	required bool
	check    func(ctx context.Context) error
}

// probeResult is a probe's last outcome.
type probeResult struct {
	err error
	at  time.Time
}

// prober checks every dependency on a short interval with a timeout, so
// /readyz says what is true now, with or without traffic.
type prober struct {
	probes   []probe
	interval time.Duration
	timeout  time.Duration
	now      func() time.Time
	// observe hears each result (the bot's cache health learns of an
	// outage, and of the recovery, without waiting for a question).
	observe func(name string, err error)

	mu      sync.Mutex
	results map[string]probeResult
}

func newProber(interval time.Duration, probes []probe, observe func(string, error)) *prober {
	return &prober{
		probes: probes, interval: interval, timeout: min(max(interval/2, 100*time.Millisecond), 2*time.Second),
		now: time.Now, observe: observe, results: map[string]probeResult{},
	}
}

// run probes at once, then every interval until ctx ends.
func (p *prober) run(ctx context.Context) {
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		p.probeAll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (p *prober) probeAll(ctx context.Context) {
	var wg sync.WaitGroup
	for _, pr := range p.probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, p.timeout)
			err := pr.check(cctx)
			cancel()
			if ctx.Err() != nil {
				return
			}
			p.mu.Lock()
			p.results[pr.name] = probeResult{err: err, at: p.now()}
			p.mu.Unlock()
			if p.observe != nil {
				p.observe(pr.name, err)
			}
		}()
	}
	wg.Wait()
}

// result is a probe's last outcome; ok is false before its first run.
func (p *prober) result(name string) (probeResult, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.results[name]
	return r, ok
}

// readinessProbes are the dependencies of this server: the index (and
// Milvus), Redis, and the LLM and embedding endpoints where configured.
func (a *app) readinessProbes(st store.Store) []probe {
	probes := []probe{{name: "store", required: true, check: func(ctx context.Context) error {
		_, err := st.Generation(ctx, a.cfg.Tenant)
		return err
	}}}
	if a.cfg.Store == "milvus" {
		probes = append(probes, probe{name: "milvus", required: true, check: func(ctx context.Context) error {
			return milvusPing(ctx, st)
		}})
	}
	if pinger, ok := a.cache.(interface{ Ping(context.Context) error }); ok && a.cfg.RedisURL != "" {
		probes = append(probes, probe{name: "cache", check: pinger.Ping})
	}
	if a.cfg.LLMModel != "" {
		probes = append(probes, probe{name: "llm", check: endpointHealth(a.cfg.LLMBaseURL, a.cfg.OpenAIKey)})
	}
	if e, err := a.embedding(); err == nil && e.kind == embedHTTP {
		probes = append(probes, probe{name: "embedder", check: endpointHealth(a.cfg.EmbedBaseURL, a.cfg.OpenAIKey)})
	}
	return probes
}

// errNoHealthEndpoint: the endpoint has no model list to ask; its health
// is learnt from the answers that use it.
var errNoHealthEndpoint = errors.New("no health endpoint")

// endpointHealth asks an OpenAI-compatible endpoint for its model list
// (GET {base}/models), the one health check they share; it costs no
// tokens.
func endpointHealth(baseURL, key string) func(ctx context.Context) error {
	if baseURL == "" {
		baseURL = "https://api.openai.com/v1"
	}
	url := strings.TrimRight(baseURL, "/") + "/models"
	client := &http.Client{}
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("unreachable: %w", errors.Unwrap(err))
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		switch {
		case resp.StatusCode/100 == 2:
			return nil
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed:
			return errNoHealthEndpoint
		}
		return fmt.Errorf("answered %d", resp.StatusCode)
	}
}

// observeProbe feeds the cache probe to the bot's cache health, so the bot
// stops (and resumes) using Redis as soon as the probe knows.
func observeProbe(h *cache.Health) func(name string, err error) {
	return func(name string, err error) {
		if name != "cache" || h == nil {
			return
		}
		h.Observe(err)
	}
}
