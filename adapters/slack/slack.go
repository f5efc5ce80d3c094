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
	"net/http"
	"regexp"
	"strings"
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

	// botUserID is the app's bot user, from auth.test; mention matches its
	// mention in message text.
	botUserID string
	mention   *regexp.Regexp

	seen   *recent.Map[struct{}]
	shares *recent.Map[heldShare]
	// outbox delivers answers durably; nil without Config.Outbox.
	outbox *outbox.Outbox

	// sleep waits between retries; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New checks the configuration, calls auth.test once to learn the app's
// own bot user id and starts the worker pool.
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
	}

	var auth *slackapi.AuthTestResponse
	err := a.retry(ctx, "auth.test", func(ctx context.Context) error {
		var err error
		auth, err = a.api.AuthTestContext(ctx)
		return err
	})
	if err != nil {
		httpClient.CloseIdleConnections()
		return nil, fmt.Errorf("adapters/slack: new: %w", err)
	}
	// Metrics are registered once the app is known to work, so a failed
	// start leaves the registry as it was.
	if a.metrics, err = newMetrics(cfg.Registerer); err != nil {
		httpClient.CloseIdleConnections()
		return nil, err
	}
	a.botUserID = auth.UserID
	a.mention = regexp.MustCompile(`<@` + regexp.QuoteMeta(auth.UserID) + `(?:\|[^>]*)?>`)
	if cfg.Outbox != nil {
		a.outbox, err = outbox.New(outbox.Config{
			Queue: cfg.Outbox, Sender: sender{a}, Platform: "slack", Deadline: cfg.DeliveryDeadline,
			Initial: cfg.DeliveryBackoff, Max: 10 * cfg.DeliveryBackoff, Poll: min(cfg.DeliveryBackoff, outbox.DefaultPoll),
			GiveUp: a.giveUp, Logger: cfg.Logger, Metrics: cfg.OutboxMetrics,
		})
		if err != nil {
			httpClient.CloseIdleConnections()
			return nil, fmt.Errorf("adapters/slack: %w", err)
		}
		a.outbox.Start()
	}
	a.pool = workpool.New(cfg.Workers, cfg.QueueSize, cfg.AnswerTimeout, "slack", cfg.Logger)
	a.log.Info("slack adapter ready", "platform", "slack", "stage", "start", "bot_user", a.botUserID, "bot_id", auth.BotID,
		"team", auth.TeamID, "socket_mode", cfg.AppToken != "", "workers", cfg.Workers, "queue", cfg.QueueSize)
	return a, nil
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
	return strings.TrimSpace(a.mention.ReplaceAllString(text, " "))
}

func (a *Adapter) mentionsMe(text string) bool {
	return a.mention.MatchString(text)
}

// errorAnswer makes sure a failed answer apologises with a reference and
// says nothing else.
func errorAnswer(ans answer.Answer, ref string) answer.Answer {
	if ans.Status == answer.StatusError && strings.TrimSpace(ans.Answer) != "" {
		return ans
	}
	if ans.ID != "" {
		ref = ans.ID
	}
	return answer.Answer{ID: ans.ID, Status: answer.StatusError, Answer: answer.Apology(ref)}
}

// isDuplicate reports the bot's verdict on a repeated delivery.
func isDuplicate(err error) bool { return errors.Is(err, bot.ErrDuplicate) }
