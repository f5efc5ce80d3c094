// Package teams connects cew to Microsoft Teams through the Bot Framework.
// It serves POST /api/messages: every activity's bearer token is checked
// against the Bot Framework's signing keys before the body is read, the
// activity is acknowledged at once and answered on a bounded worker pool
// through the bot, and the answer goes back through the Bot Connector REST
// API as an Adaptive Card with an "Open in Drive" button per cited source.
package teams

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

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
	// StatusLookup answers "status <document>" from the register.
	StatusLookup(ctx context.Context, q bot.Query) (answer.Answer, error)
	// RecordFeedback attaches a 👍/👎 to an answer id.
	RecordFeedback(ctx context.Context, f bot.Feedback) error
}

var _ Bot = (*bot.Bot)(nil)

// Config configures the adapter.
type Config struct {
	// AppID and AppPassword are the Azure Bot's Microsoft App ID and client
	// secret (MICROSOFT_APP_ID, MICROSOFT_APP_PASSWORD).
	AppID, AppPassword string
	// TenantID makes a single-tenant bot: its tokens come from its own
	// tenant (MICROSOFT_APP_TENANT_ID). "" means multi-tenant.
	TenantID string
	// OpenIDMetadataURL and TokenURL override Microsoft's endpoints (tests,
	// sovereign clouds); "" means DefaultOpenIDMetadataURL and
	// DefaultTokenURL (or TenantTokenURL for a single-tenant bot).
	OpenIDMetadataURL string
	TokenURL          string
	// Tenants maps Microsoft Entra tenant ids to cew tenants; nil or empty
	// means every organisation uses DefaultTenant, otherwise unknown ones
	// are politely refused.
	Tenants       map[string]string
	DefaultTenant string
	// Workers is the size of the worker pool (default 16); QueueSize is how
	// many activities may wait for a worker (default 256).
	Workers   int
	QueueSize int
	// AnswerTimeout bounds one answer, from when a worker takes it
	// (default 60 s).
	AnswerTimeout time.Duration
	// MaxBodyBytes bounds an activity (default 256 KiB).
	MaxBodyBytes int64
	// Deliverer sends replies; nil means the Bot Connector client.
	Deliverer Deliverer
	// Outbox, when set, keeps every reply until the connector has it:
	// replies are stored, sent in order per conversation and retried with
	// backoff through an outage until DeliveryDeadline (default 15 min),
	// after which the conversation is told. nil sends at once with a few
	// retries.
	Outbox           outbox.Queue
	OutboxMetrics    *outbox.Metrics
	DeliveryDeadline time.Duration
	// DeliveryBackoff is the first wait between delivery attempts
	// (default 1 s); waits double up to ten times it.
	DeliveryBackoff time.Duration
	Logger          *slog.Logger
	Registerer      prometheus.Registerer
	Now             func() time.Time
}

// Defaults for the optional settings.
const (
	DefaultWorkers       = 16
	DefaultQueueSize     = 256
	DefaultAnswerTimeout = 60 * time.Second
	DefaultMaxBodyBytes  = 256 << 10
)

const (
	// seenLimit bounds the activity ids remembered for de-duplication.
	seenLimit = 50_000
	// welcomeTTL: a conversation is welcomed at most once in this time.
	welcomeTTL = 30 * 24 * time.Hour
	// deliverTimeout bounds delivering an answer once it exists, so an
	// answer that used its whole AnswerTimeout can still be delivered.
	deliverTimeout = 30 * time.Second
	// feedbackTimeout bounds recording a vote inside the invoke request.
	feedbackTimeout = 5 * time.Second
	// httpTimeout bounds any one call to Microsoft's endpoints.
	httpTimeout = retry.DefaultCallTimeout
)

// Adapter is cew's Teams bot. It is safe for concurrent use.
type Adapter struct {
	cfg     Config
	bot     Bot
	auth    *authenticator
	deliver Deliverer
	http    *http.Client
	log     *slog.Logger
	metrics *metrics
	pool    *workpool.Pool

	seen     *recent.Map[struct{}]
	welcomed *recent.Map[struct{}]
	// outbox delivers replies durably; nil without Config.Outbox.
	outbox *outbox.Outbox
}

// New checks the configuration and starts the worker pool. It does not
// call Microsoft: the signing keys are fetched on the first activity (and
// a failure there answers 503, so the channel retries).
func New(cfg Config, b Bot) (*Adapter, error) {
	if err := cfg.validate(b); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 2 * cfg.Workers
	client := &http.Client{Transport: transport, Timeout: httpTimeout}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	a := &Adapter{
		cfg:      cfg,
		bot:      b,
		auth:     newAuthenticator(cfg.AppID, cfg.OpenIDMetadataURL, client, cfg.Now, cfg.Logger),
		deliver:  cfg.Deliverer,
		http:     client,
		log:      cfg.Logger,
		metrics:  m,
		seen:     recent.New[struct{}](bot.DefaultDedupeTTL, seenLimit),
		welcomed: recent.New[struct{}](welcomeTTL, seenLimit),
	}
	if a.deliver == nil {
		c := &connector{
			tokens: newTokenSource(cfg.TokenURL, cfg.AppID, cfg.AppPassword, client, cfg.Now),
			http:   client, now: cfg.Now, log: cfg.Logger, sleep: retry.Sleep, metrics: m,
		}
		if cfg.Outbox != nil {
			c.attempts = 1 // the outbox retries, for as long as it takes
		}
		a.deliver = c
	}
	if cfg.Outbox != nil {
		direct := a.deliver
		a.outbox, err = outbox.New(outbox.Config{
			Queue: cfg.Outbox, Sender: outboxSender{direct: direct}, Platform: "teams", Deadline: cfg.DeliveryDeadline,
			Initial: cfg.DeliveryBackoff, GiveUp: a.giveUp(direct), Logger: cfg.Logger, Metrics: cfg.OutboxMetrics,
		})
		if err != nil {
			return nil, fmt.Errorf("adapters/teams: %w", err)
		}
		a.deliver = &durable{box: a.outbox, direct: direct, log: cfg.Logger}
		a.outbox.Start()
	}
	a.pool = workpool.New(cfg.Workers, cfg.QueueSize, cfg.AnswerTimeout, "teams", cfg.Logger)
	a.log.Info("teams adapter ready", "platform", "teams", "stage", "start", "app_id", cfg.AppID,
		"single_tenant", cfg.TenantID != "", "tenants_mapped", len(cfg.Tenants), "workers", cfg.Workers)
	return a, nil
}

func (c Config) validate(b Bot) error {
	var problems []string
	if b == nil {
		problems = append(problems, "a bot is required")
	}
	if c.AppID == "" {
		problems = append(problems, "AppID (MICROSOFT_APP_ID) is required")
	}
	if c.AppPassword == "" && c.Deliverer == nil {
		problems = append(problems, "AppPassword (MICROSOFT_APP_PASSWORD) is required")
	}
	for _, u := range []struct{ name, value string }{{"OpenIDMetadataURL", c.OpenIDMetadataURL}, {"TokenURL", c.TokenURL}} {
		if u.value != "" && !strings.HasPrefix(u.value, "https://") && !strings.HasPrefix(u.value, "http://") {
			problems = append(problems, u.name+" must be an http(s) URL")
		}
	}
	if len(c.Tenants) == 0 && c.DefaultTenant == "" {
		problems = append(problems, "DefaultTenant is required when no Tenants are mapped")
	}
	if c.Workers < 0 || c.QueueSize < 0 || c.AnswerTimeout < 0 || c.MaxBodyBytes < 0 {
		problems = append(problems, "Workers, QueueSize, AnswerTimeout and MaxBodyBytes cannot be negative")
	}
	if len(problems) > 0 {
		return fmt.Errorf("adapters/teams: config: %s", strings.Join(problems, "; "))
	}
	return nil
}

func (c *Config) setDefaults() {
	if c.OpenIDMetadataURL == "" {
		c.OpenIDMetadataURL = DefaultOpenIDMetadataURL
	}
	if c.TokenURL == "" {
		c.TokenURL = DefaultTokenURL
		if c.TenantID != "" {
			c.TokenURL = TenantTokenURL(c.TenantID)
		}
	}
	if c.Workers == 0 {
		c.Workers = DefaultWorkers
	}
	if c.QueueSize == 0 {
		c.QueueSize = DefaultQueueSize
	}
	if c.AnswerTimeout == 0 {
		c.AnswerTimeout = DefaultAnswerTimeout
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Routes mounts POST /api/messages, the Azure Bot's messaging endpoint.
func (a *Adapter) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/messages", a.handleMessages)
}

// Shutdown stops taking activities (the endpoint answers 503 so the
// channel retries) and waits for answers in flight until ctx ends.
func (a *Adapter) Shutdown(ctx context.Context) error {
	err := a.pool.Shutdown(ctx)
	// Replies still queued stay in the outbox for the next start (or
	// another replica sharing Redis).
	if a.outbox != nil {
		err = errors.Join(err, a.outbox.Shutdown(ctx))
	}
	a.http.CloseIdleConnections()
	a.log.Info("teams adapter stopped", "platform", "teams", "stage", "shutdown", "err", err)
	if err != nil {
		return fmt.Errorf("adapters/teams: %w", err)
	}
	return nil
}

// tenant resolves a Microsoft Entra tenant to a cew tenant.
func (a *Adapter) tenant(entraID string) (string, bool) {
	if len(a.cfg.Tenants) == 0 {
		return a.cfg.DefaultTenant, true
	}
	t, ok := a.cfg.Tenants[entraID]
	return t, ok && t != ""
}

func isDuplicate(err error) bool { return errors.Is(err, bot.ErrDuplicate) }
