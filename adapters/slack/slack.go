// Package slack connects cew to Slack. It receives Events API deliveries
// (mentions, DMs, thread follow-ups), the /cew slash command and button
// clicks over HTTP or Socket Mode, verifies and acknowledges each at once,
// answers on a bounded worker pool through the bot, and renders answers as
// Block Kit with an "Open in Drive" button per cited source.
package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	slackapi "github.com/slack-go/slack"

	"github.com/cewhq/cew/adapters/internal/recent"
	"github.com/cewhq/cew/adapters/internal/retry"
	"github.com/cewhq/cew/adapters/internal/workpool"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/outbox"
)

// Bot is what the adapter needs from the bot. *bot.Bot satisfies it.
type Bot interface {
	// Handle answers a question; it returns bot.ErrDuplicate for a delivery
	// already handled.
	Handle(ctx context.Context, q bot.Query) (answer.Answer, error)
	// StatusLookup answers "/cew status <document>" from the register.
	StatusLookup(ctx context.Context, q bot.Query) (answer.Answer, error)
	// RecordFeedback attaches a 👍/👎 to an answer id.
	RecordFeedback(ctx context.Context, f bot.Feedback) error
	// InConversation reports whether the bot has answered in q's thread, so
	// a reply there without a mention is addressed to it.
	InConversation(ctx context.Context, q bot.Query) bool
}

var _ Bot = (*bot.Bot)(nil)

// Config configures the adapter.
type Config struct {
	// BotToken ("xoxb-…") calls the Web API. SigningSecret verifies HTTP
	// requests. AppToken ("xapp-…") enables Socket Mode.
	BotToken, SigningSecret, AppToken string
	// APIURL overrides the Web API base URL (slacktest, proxies); "" means
	// Slack's.
	APIURL string
	// ResponseURLHosts are hosts ("host" for any port, or "host:port")
	// besides hooks.slack.com and APIURL's that a response_url may point
	// to; a response_url elsewhere is ignored and the answer goes through
	// the Web API.
	ResponseURLHosts []string
	// Tenants maps Slack team ids to cew tenants; nil or empty means every
	// workspace uses DefaultTenant, otherwise unknown workspaces are
	// politely refused.
	Tenants       map[string]string
	DefaultTenant string
	// Workers is the size of the worker pool (default 16); QueueSize is how
	// many events may wait for a worker (default 256). When the queue is
	// full the user is told cew is busy.
	Workers   int
	QueueSize int
	// AnswerTimeout bounds one answer, from when a worker takes it (default
	// 60 s).
	AnswerTimeout time.Duration
	// DraftInterval is the least time between two updates of a streamed
	// draft (default 1 s); negative disables drafts.
	DraftInterval time.Duration
	// Outbox, when set, keeps every answer until Slack has it: answers
	// are stored, then posted in order per thread, retried with backoff
	// through an outage until DeliveryDeadline (default 15 min), after
	// which the user is told it could not be delivered. nil delivers at
	// once with a few retries.
	Outbox           outbox.Queue
	OutboxMetrics    *outbox.Metrics
	DeliveryDeadline time.Duration
	// DeliveryBackoff is the first wait between delivery attempts
	// (default 1 s); waits double up to ten times it.
	DeliveryBackoff time.Duration
	Logger          *slog.Logger
	// Registerer receives the ack-latency histogram and the Slack API error
	// counters; nil registers nothing.
	Registerer prometheus.Registerer
	Now        func() time.Time
}

// Defaults for the optional settings.
const (
	DefaultWorkers       = 16
	DefaultQueueSize     = 256
	DefaultAnswerTimeout = 60 * time.Second
	DefaultDraftInterval = time.Second
)

const (
	// seenLimit bounds the delivery ids remembered for de-duplication.
	seenLimit = 50_000
	// shareTTL is how long an ephemeral answer can be shared: its
	// response_url is valid for 30 minutes.
	shareTTL = 30 * time.Minute
	// shareLimit bounds the answers kept for sharing.
	shareLimit = 2_000
)

// Adapter is cew's Slack app. It is safe for concurrent use.
type Adapter struct {
	cfg     Config
	bot     Bot
	api     *slackapi.Client
	http    *http.Client
	log     *slog.Logger
	metrics *metrics
	pool    *workpool.Pool

	// self is who the app is in Slack, from auth.test; nil until Slack
	// has answered (see connect). ready is closed when it is set.
	self  atomic.Pointer[identity]
	ready chan struct{}
	// notReady says why self is still nil, for /readyz.
	notReady atomic.Pointer[error]
	// stopConnect ends the background auth.test retries; connectDone is
	// closed when they have ended.
	stopConnect context.CancelFunc
	connectDone chan struct{}

	seen   *recent.Map[struct{}]
	shares *recent.Map[heldShare]
	// outbox delivers answers durably; nil without Config.Outbox.
	outbox *outbox.Outbox

	// sleep waits between retries; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// identity is the app's bot user and the pattern of its mention in text.
type identity struct {
	userID  string
	mention *regexp.Regexp
}

// Retries of auth.test while Slack cannot be reached at start-up.
const (
	connectInitialWait = time.Second
	connectMaxWait     = time.Minute
)

// New checks the configuration, starts the worker pool and calls auth.test
// to learn the app's own bot user id. When Slack refuses the token New
// fails; when Slack cannot be reached (network, 5xx, rate limit) the
// adapter starts anyway, not Ready, and keeps calling auth.test with
// exponential backoff (1 s to 1 min) in the background until Slack answers
// or Shutdown. Until then events get 503 (Slack delivers them again),
// slash commands a "starting" reply, and Socket Mode waits.
func New(ctx context.Context, cfg Config, b Bot) (*Adapter, error) {
	if err := cfg.validate(b); err != nil {
		return nil, err
	}
	cfg.setDefaults()

	transport := http.DefaultTransport.(*http.Transport).Clone()
	// Every worker (and every busy notice) may be talking to Slack at once;
	// the default of two idle connections per host would make most calls
	// open a new connection.
	transport.MaxIdleConnsPerHost = 2 * cfg.Workers
	httpClient := &http.Client{Transport: transport, Timeout: apiCallTimeout}
	opts := []slackapi.Option{slackapi.OptionHTTPClient(httpClient)}
	if cfg.APIURL != "" {
		opts = append(opts, slackapi.OptionAPIURL(strings.TrimSuffix(cfg.APIURL, "/")+"/"))
	}
	if cfg.AppToken != "" {
		opts = append(opts, slackapi.OptionAppLevelToken(cfg.AppToken))
	}
	a := &Adapter{
		cfg:    cfg,
		bot:    b,
		api:    slackapi.New(cfg.BotToken, opts...),
		http:   httpClient,
		log:    cfg.Logger,
		seen:   recent.New[struct{}](bot.DefaultDedupeTTL, seenLimit),
		shares: recent.New[heldShare](shareTTL, shareLimit),
		sleep:  retry.Sleep,
		ready:  make(chan struct{}),
	}

	callCtx, cancel := context.WithTimeout(ctx, apiCallTimeout)
	auth, authErr := a.api.AuthTestContext(callCtx)
	cancel()
	var verdict retry.Verdict
	if authErr != nil {
		verdict = classifyAPIError(authErr, func() time.Duration { return 0 })
	}
	if authErr != nil && !verdict.Retryable {
		httpClient.CloseIdleConnections()
		return nil, fmt.Errorf("adapters/slack: new: auth.test: %w", authErr)
	}
	// Metrics are registered once Slack has not refused the app, so a
	// failed start leaves the registry as it was.
	var err error
	if a.metrics, err = newMetrics(cfg.Registerer); err != nil {
		httpClient.CloseIdleConnections()
		return nil, err
	}
	if cfg.Outbox != nil {
		a.outbox, err = outbox.New(outbox.Config{
			Queue: cfg.Outbox, Sender: sender{a}, Platform: "slack", Deadline: cfg.DeliveryDeadline,
			Initial: cfg.DeliveryBackoff, GiveUp: a.giveUp, Logger: cfg.Logger, Metrics: cfg.OutboxMetrics,
		})
		if err != nil {
			httpClient.CloseIdleConnections()
			return nil, fmt.Errorf("adapters/slack: %w", err)
		}
		a.outbox.Start()
	}
	a.pool = workpool.New(cfg.Workers, cfg.QueueSize, cfg.AnswerTimeout, "slack", cfg.Logger)
	connectCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stopConnect, a.connectDone = stop, make(chan struct{})
	if authErr == nil {
		a.setIdentity(auth)
		close(a.connectDone)
		return a, nil
	}
	a.metrics.apiError("auth.test", verdict.Kind)
	why := fmt.Errorf("connecting to Slack: %w", authErr)
	a.notReady.Store(&why)
	a.log.Warn("slack unreachable at start-up: serving, not ready, retrying auth.test", "platform", "slack", "stage", "start", "err", authErr)
	go a.connect(connectCtx, a.sleep)
	return a, nil
}

// connect calls auth.test until Slack answers, backing off between tries
// with sleep.
func (a *Adapter) connect(ctx context.Context, sleep func(context.Context, time.Duration) error) {
	defer close(a.connectDone)
	var auth *slackapi.AuthTestResponse
	policy := retry.Policy{
		Attempts: math.MaxInt, Initial: connectInitialWait, Max: connectMaxWait,
		Classify: classifyAPIError, Sleep: sleep,
		Observe: func(at retry.Attempt) {
			a.metrics.apiError("auth.test", at.Kind)
			why := fmt.Errorf("connecting to Slack (attempt %d): %w", at.N+1, at.Err)
			a.notReady.Store(&why)
			a.log.Info("slack auth.test failed; retrying", "platform", "slack", "stage", "start",
				"attempt", at.N+1, "kind", at.Kind, "wait_ms", at.Wait.Milliseconds(), "final", at.Final, "err", at.Err)
		},
	}
	err := policy.Do(ctx, "auth.test", func(ctx context.Context) error {
		var err error
		auth, err = a.api.AuthTestContext(ctx)
		return err
	})
	switch {
	case err == nil:
		a.setIdentity(auth)
	case ctx.Err() != nil:
	default:
		why := fmt.Errorf("slack refused the bot token (SLACK_BOT_TOKEN): %w", err)
		a.notReady.Store(&why)
		a.log.Error("slack refused the bot token: not ready until restarted with a valid SLACK_BOT_TOKEN", "platform", "slack", "stage", "start", "err", err)
	}
}

// setIdentity records who the app is and makes the adapter ready.
func (a *Adapter) setIdentity(auth *slackapi.AuthTestResponse) {
	a.self.Store(&identity{
		userID:  auth.UserID,
		mention: regexp.MustCompile(`<@` + regexp.QuoteMeta(auth.UserID) + `(?:\|[^>]*)?>`),
	})
	a.notReady.Store(nil)
	close(a.ready)
	a.log.Info("slack adapter ready", "platform", "slack", "stage", "start", "bot_user", auth.UserID, "bot_id", auth.BotID,
		"team", auth.TeamID, "socket_mode", a.cfg.AppToken != "", "workers", a.cfg.Workers, "queue", a.cfg.QueueSize)
}

// Ready returns nil once Slack has answered auth.test, else why not.
func (a *Adapter) Ready() error {
	if a.self.Load() != nil {
		return nil
	}
	if why := a.notReady.Load(); why != nil {
		return *why
	}
	return errors.New("connecting to Slack")
}

// botUser is the app's bot user id, "" before Slack has answered.
func (a *Adapter) botUser() string {
	if id := a.self.Load(); id != nil {
		return id.userID
	}
	return ""
}

func (c Config) validate(b Bot) error {
	var problems []string
	if b == nil {
		problems = append(problems, "a bot is required")
	}
	if c.BotToken == "" {
		problems = append(problems, "BotToken (SLACK_BOT_TOKEN) is required")
	}
	if c.SigningSecret == "" && c.AppToken == "" {
		problems = append(problems, "SigningSecret (SLACK_SIGNING_SECRET) is required unless AppToken (SLACK_APP_TOKEN) enables Socket Mode")
	}
	if c.AppToken != "" && !strings.HasPrefix(c.AppToken, "xapp-") {
		problems = append(problems, `AppToken (SLACK_APP_TOKEN) must be an app-level token starting with "xapp-"`)
	}
	if len(c.Tenants) == 0 && c.DefaultTenant == "" {
		problems = append(problems, "DefaultTenant is required when no Tenants are mapped")
	}
	if c.Workers < 0 || c.QueueSize < 0 || c.AnswerTimeout < 0 {
		problems = append(problems, "Workers, QueueSize and AnswerTimeout cannot be negative")
	}
	if len(problems) > 0 {
		return fmt.Errorf("adapters/slack: config: %s", strings.Join(problems, "; "))
	}
	return nil
}

func (c *Config) setDefaults() {
	if c.Workers == 0 {
		c.Workers = DefaultWorkers
	}
	if c.QueueSize == 0 {
		c.QueueSize = DefaultQueueSize
	}
	if c.AnswerTimeout == 0 {
		c.AnswerTimeout = DefaultAnswerTimeout
	}
	if c.DraftInterval == 0 {
		c.DraftInterval = DefaultDraftInterval
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

func (a *Adapter) now() time.Time { return a.cfg.Now() }

// Routes mounts the HTTP endpoints Slack calls: POST /slack/events,
// /slack/commands and /slack/interactivity.
func (a *Adapter) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /slack/events", a.handleEvents)
	mux.HandleFunc("POST /slack/commands", a.handleCommands)
	mux.HandleFunc("POST /slack/interactivity", a.handleInteractivity)
}

// Shutdown stops taking new work (HTTP endpoints answer 503 so Slack
// retries elsewhere) and waits for queued and in-flight answers to be
// answered (and, with an outbox, handed to it) until ctx ends; then it
// cancels what is left.
func (a *Adapter) Shutdown(ctx context.Context) error {
	a.stopConnect()
	<-a.connectDone
	err := a.pool.Shutdown(ctx)
	if err != nil {
		err = fmt.Errorf("adapters/slack: %w", err)
	}
	// Answers still queued stay in the outbox for the next start (or
	// another replica sharing Redis).
	if a.outbox != nil {
		err = errors.Join(err, a.outbox.Shutdown(ctx))
	}
	a.http.CloseIdleConnections()
	a.log.Info("slack adapter stopped", "platform", "slack", "stage", "shutdown", "err", err)
	return err
}

// tenant resolves a Slack team to a cew tenant.
func (a *Adapter) tenant(teamID string) (string, bool) {
	if len(a.cfg.Tenants) == 0 {
		return a.cfg.DefaultTenant, true
	}
	t, ok := a.cfg.Tenants[teamID]
	return t, ok && t != ""
}

// stripMention removes the app's own mention from a message; the bot's
// validation strips the rest of Slack's markup.
func (a *Adapter) stripMention(text string) string {
	id := a.self.Load()
	if id == nil {
		return strings.TrimSpace(text)
	}
	return strings.TrimSpace(id.mention.ReplaceAllString(text, " "))
}

func (a *Adapter) mentionsMe(text string) bool {
	id := a.self.Load()
	return id != nil && id.mention.MatchString(text)
}

// isDuplicate reports the bot's verdict on a repeated delivery.
func isDuplicate(err error) bool { return errors.Is(err, bot.ErrDuplicate) }
