package main

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"golang.org/x/net/netutil"

	"github.com/cewhq/cew/adapters/slack"
	"github.com/cewhq/cew/adapters/teams"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// shutdownGrace bounds how long in-flight answers may take to finish after
// SIGTERM before the server gives up on them.
const shutdownGrace = 30 * time.Second

func newServeCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP server: Slack (Events API or Socket Mode), Teams, /healthz, /readyz, /metrics",
		Long: `Serve the chat platforms configured in the environment on CEW_ADDR:

  /slack/events, /slack/commands, /slack/interactivity   Slack over HTTP (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET)
  Socket Mode                                            when SLACK_APP_TOKEN (xapp-…) is set
  /api/messages                                          Microsoft Teams (MICROSOFT_APP_ID, MICROSOFT_APP_PASSWORD)
  /healthz   the process is up
  /readyz    the index answers (and, with CEW_STORE=milvus, Milvus has the collection loaded); cache state ("degraded" while Redis is unreachable); Drive sync state; LLM configured or not
  /metrics   Prometheus metrics: on CEW_METRICS_ADDR when set, behind CEW_METRICS_TOKEN when set,
             else only when CEW_ADDR is a loopback address

The embedded index is not held: cew status, search and ask run beside the server, and
documents cew ingest adds while it runs are answerable within CEW_INDEX_POLL (the
server checks the index file that often and loads it again when it changed).

With CEW_DRIVE_FOLDERS (tenant:id,…), the Google Drive folders and shared drives are synced
at start and every CEW_DRIVE_SYNC_INTERVAL: what changes in Drive becomes answerable without a
restart.

SIGINT/SIGTERM stop accepting work, finish the answers in flight (up to 30 s) and exit.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.serve(cmd.Context()) },
	}
}

func (a *app) serve(ctx context.Context) error {
	st, err := a.openStoreMode(ctx, storeFollow)
	if err != nil {
		return err
	}
	stopFollowing := a.followIndex(ctx, st)
	defer stopFollowing()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	b, err := a.newBot(ctx, st, bot.NewMetrics(reg), answer.PlatformSlack)
	if err != nil {
		return err
	}

	// The Drive sync stops with the server (syncCtx) and is waited for
	// before the store it writes to is closed.
	syncCtx, stopSync := context.WithCancel(ctx)
	defer stopSync()
	ds, err := a.startDriveSync(syncCtx, st, reg)
	if err != nil {
		return err
	}
	defer func() { stopSync(); ds.wait() }()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	probes := newProber(a.cfg.ProbeInterval, a.readinessProbes(st), observeProbe(a.health))
	probeCtx, stopProbes := context.WithCancel(ctx)
	defer stopProbes()
	go probes.run(probeCtx)
	metricsHandler := promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	var adminMux *http.ServeMux
	switch placement := a.metricsPlacement(); placement {
	case metricsOnAdmin:
		adminMux = http.NewServeMux()
		adminMux.Handle("GET /metrics", requireToken(a.cfg.MetricsToken, metricsHandler))
	case metricsWithToken, metricsOpen:
		mux.Handle("GET /metrics", requireToken(a.cfg.MetricsToken, metricsHandler))
	default:
		a.logger.Warn("/metrics is not served: CEW_ADDR is not a loopback address; set CEW_METRICS_ADDR (an admin address) or CEW_METRICS_TOKEN",
			"addr", a.cfg.Addr)
	}

	outboxMetrics, err := outbox.NewMetrics(reg)
	if err != nil {
		return err
	}
	var adapter *slack.Adapter
	if a.cfg.SlackBotToken != "" {
		tenants, _ := parseTenantMap(a.cfg.SlackTenants)
		queue, err := a.outboxQueue("slack")
		if err != nil {
			return err
		}
		adapter, err = slack.New(ctx, slack.Config{
			Outbox: queue, OutboxMetrics: outboxMetrics, DeliveryDeadline: a.cfg.DeliveryDeadline,
			BotToken: a.cfg.SlackBotToken, SigningSecret: a.cfg.SlackSigningKey, AppToken: a.cfg.SlackAppToken,
			APIURL: a.cfg.SlackAPIURL, Tenants: tenants, DefaultTenant: a.cfg.Tenant,
			Workers: a.cfg.SlackWorkers, AnswerTimeout: a.cfg.AnswerTimeout, Logger: a.logger, Registerer: reg,
			DraftInterval: draftInterval(a.cfg.SlackDrafts),
		}, b)
		if err != nil {
			return err
		}
		adapter.Routes(mux)
	}
	var teamsAdapter *teams.Adapter
	if a.cfg.TeamsAppID != "" {
		tenants, _ := parseTenantMap(a.cfg.TeamsTenants)
		queue, err := a.outboxQueue("teams")
		if err != nil {
			return err
		}
		teamsAdapter, err = teams.New(teams.Config{
			Outbox: queue, OutboxMetrics: outboxMetrics, DeliveryDeadline: a.cfg.DeliveryDeadline,
			AppID: a.cfg.TeamsAppID, AppPassword: a.cfg.TeamsAppPassword, TenantID: a.cfg.TeamsTenantID,
			OpenIDMetadataURL: a.cfg.TeamsMetadataURL, TokenURL: a.cfg.TeamsTokenURL,
			Tenants: tenants, DefaultTenant: a.cfg.Tenant, Workers: a.cfg.TeamsWorkers,
			AnswerTimeout: a.cfg.AnswerTimeout, Logger: a.logger, Registerer: reg,
		}, b)
		if err != nil {
			return err
		}
		teamsAdapter.Routes(mux)
	}
	if adapter == nil && teamsAdapter == nil {
		a.logger.Warn("neither SLACK_BOT_TOKEN nor MICROSOFT_APP_ID is set: serving health and metrics only")
	}
	platforms := map[string]readyChecker{}
	if adapter != nil {
		platforms["slack"] = adapter
	}
	mux.Handle("GET /readyz", a.readyHandler(st, probes, ds, platforms))

	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Addr, err)
	}
	// Past the cap, connections wait in the kernel's backlog instead of
	// each taking a goroutine and buffers.
	ln = netutil.LimitListener(ln, a.cfg.MaxConnections)
	srv := newHTTPServer(mux)
	errc := make(chan error, 3)
	go func() { errc <- srv.Serve(ln) }()
	var admin *http.Server
	if adminMux != nil {
		adminLn, err := net.Listen("tcp", a.cfg.MetricsAddr)
		if err != nil {
			_ = srv.Close()
			return fmt.Errorf("listen on CEW_METRICS_ADDR %s: %w", a.cfg.MetricsAddr, err)
		}
		admin = newHTTPServer(adminMux)
		go func() { errc <- admin.Serve(netutil.LimitListener(adminLn, 16)) }()
		a.logger.Info("metrics served on the admin address", "metrics_addr", adminLn.Addr().String())
	}
	a.logger.Info("serving", "addr", ln.Addr().String(), "slack_http", adapter != nil && a.cfg.SlackSigningKey != "",
		"slack_socket_mode", adapter != nil && a.cfg.SlackAppToken != "", "teams", teamsAdapter != nil, "config", a.cfg)

	socketCtx, stopSocket := context.WithCancel(ctx)
	defer stopSocket()
	if adapter != nil && a.cfg.SlackAppToken != "" {
		go func() {
			if err := adapter.RunSocketMode(socketCtx); err != nil && !errors.Is(err, context.Canceled) {
				errc <- fmt.Errorf("slack socket mode: %w", err)
			}
		}()
	}

	// A failed listener (HTTP or Socket Mode) stops the server as a signal
	// does: the other listener is closed and the answers in flight finish
	// before the store they use is closed.
	var runErr error
	select {
	case <-ctx.Done():
		a.logger.Info("shutting down: finishing answers in flight")
	case runErr = <-errc:
		if errors.Is(runErr, http.ErrServerClosed) {
			runErr = nil
		}
		a.logger.Error("shutting down: a listener failed", "err", runErr)
	}
	stopSocket()
	stopSync()
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	// Stop taking requests first, then drain the answers already acked.
	err = srv.Shutdown(shutdownCtx)
	if admin != nil {
		err = errors.Join(err, admin.Shutdown(shutdownCtx))
	}
	if adapter != nil {
		err = errors.Join(err, adapter.Shutdown(shutdownCtx))
	}
	if teamsAdapter != nil {
		err = errors.Join(err, teamsAdapter.Shutdown(shutdownCtx))
	}
	a.logger.Info("stopped", "err", err)
	return errors.Join(runErr, err)
}

// followIndex keeps an embedded index current while the server runs; the
// returned func stops it and waits. Milvus needs nothing: every replica
// reads the same server.
func (a *app) followIndex(ctx context.Context, st store.Store) (stop func()) {
	f, ok := st.(*embedded.Follower)
	if !ok {
		return func() {}
	}
	if !f.Loaded() {
		a.logger.Warn("the index is being written (cew ingest): not ready until it has finished", "data_dir", a.indexLocation())
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.Run(ctx, a.cfg.IndexPoll)
	}()
	return func() { cancel(); <-done }
}

func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
}

// Where /metrics is served.
const (
	metricsNowhere   = iota // a public CEW_ADDR with neither setting
	metricsOpen             // on a loopback CEW_ADDR, open
	metricsWithToken        // on CEW_ADDR behind CEW_METRICS_TOKEN
	metricsOnAdmin          // on CEW_METRICS_ADDR (and its token when set)
)

// metricsPlacement keeps /metrics off a public address unless a token
// guards it: the series name tenants, platforms and failure counts.
func (a *app) metricsPlacement() int {
	switch {
	case a.cfg.MetricsAddr != "":
		return metricsOnAdmin
	case a.cfg.MetricsToken != "":
		return metricsWithToken
	case isLoopback(a.cfg.Addr):
		return metricsOpen
	}
	return metricsNowhere
}

// isLoopback reports whether a listen address accepts only local
// connections.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// requireToken guards h with a bearer token; "" means no guard.
func requireToken(token string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cew metrics"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// draftInterval turns streamed drafts on (Slack's default pace) or off.
// Off by default: a draft has not passed the post-guard yet, and a number
// a reader sees for a second can still end up on site.
func draftInterval(on bool) time.Duration {
	if on {
		return slack.DefaultDraftInterval
	}
	return -1
}

// readiness is the /readyz body.
type readiness struct {
	Status string            `json:"status"` // ready, degraded, unavailable
	Checks map[string]string `json:"checks"`
	Errors map[string]string `json:"errors,omitempty"`
	Age    map[string]int64  `json:"checked_ms_ago,omitempty"`
}

// readyChecker is a platform adapter that can be up but not ready: Slack
// before auth.test has answered.
type readyChecker interface {
	Ready() error
}

// readyHandler reports whether this replica can answer, from the
// prober's latest results (every CEW_PROBE_INTERVAL, with or without
// traffic): the index (and Milvus) must answer, else 503; a failing Redis,
// LLM or embedding endpoint only degrades (200, "degraded"). Each check
// says "ok" or what failed; "errors" has the reason, "checked_ms_ago" how
// old each result is. A platform that is not connected yet (Slack before
// auth.test answers) is unavailable too.
func (a *app) readyHandler(st store.Store, p *prober, ds *driveSync, platforms map[string]readyChecker) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res := readiness{Status: "ready", Checks: map[string]string{}, Errors: map[string]string{}, Age: map[string]int64{}}
		code := http.StatusOK
		fail := func(required bool) {
			switch {
			case required:
				res.Status, code = "unavailable", http.StatusServiceUnavailable
			case code == http.StatusOK:
				res.Status = "degraded"
			}
		}
		for _, pr := range p.probes {
			r, ok := p.result(pr.name)
			switch {
			case !ok:
				res.Checks[pr.name] = "not checked yet"
				fail(pr.required)
			case r.err == nil:
				res.Checks[pr.name] = "ok"
			case errors.Is(r.err, errNoHealthEndpoint):
				res.Checks[pr.name] = "configured (no health endpoint)"
			default:
				res.Checks[pr.name], res.Errors[pr.name] = "error", r.err.Error()
				if pr.name == "cache" {
					res.Checks[pr.name] = "degraded"
				}
				fail(pr.required)
			}
			if ok {
				res.Age[pr.name] = p.now().Sub(r.at).Milliseconds()
			}
		}
		if f, ok := st.(*embedded.Follower); ok {
			switch {
			case !f.Loaded():
				// Started while cew ingest held the file: nothing to answer from yet.
				res.Checks["index"] = "not loaded yet: cew ingest is writing it"
				fail(true)
			case f.LastError() != nil && !errors.Is(f.LastError(), embedded.ErrLocked):
				res.Checks["index"] = "reload failing: answering from the last snapshot"
				fail(false)
			default:
				res.Checks["index"] = "ok"
			}
		}
		for name, pl := range platforms {
			res.Checks[name] = "ok"
			if err := pl.Ready(); err != nil {
				res.Checks[name], res.Errors[name] = "not ready", err.Error()
				fail(true)
			}
		}
		if a.cfg.RedisURL == "" {
			res.Checks["cache"] = "memory"
		}
		if check, ok := ds.readiness(); ds != nil {
			res.Checks["drive"] = check
			if !ok && code == http.StatusOK {
				res.Status = "degraded"
			}
		}
		if a.cfg.LLMModel == "" {
			res.Checks["llm"] = "not configured (extractive answers)"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(res)
	})
}
