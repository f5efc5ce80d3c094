package slack

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/cewhq/cew/adapters/internal/drafts"
	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/workpool"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// eventEnvelope is an Events API delivery (the HTTP body, or a Socket Mode
// events_api payload).
type eventEnvelope struct {
	Type      string       `json:"type"`
	Challenge string       `json:"challenge"`
	TeamID    string       `json:"team_id"`
	EventID   string       `json:"event_id"`
	Event     inboundEvent `json:"event"`
}

// inboundEvent holds the fields cew reads of app_mention and message events.
type inboundEvent struct {
	Type        slackevents.EventsAPIType `json:"type"`
	Subtype     string                    `json:"subtype"`
	User        string                    `json:"user"`
	BotID       string                    `json:"bot_id"`
	Text        string                    `json:"text"`
	TS          string                    `json:"ts"`
	ThreadTS    string                    `json:"thread_ts"`
	Channel     string                    `json:"channel"`
	ChannelType string                    `json:"channel_type"`
	Team        string                    `json:"team"`
	Edited      json.RawMessage           `json:"edited"`
}

// conversationKind is how a message reached cew.
type conversationKind int

const (
	kindMention  conversationKind = iota + 1 // @cew in a channel
	kindDM                                   // a direct message
	kindFollowUp                             // a thread reply without a mention, maybe to cew
)

func (k conversationKind) String() string {
	switch k {
	case kindMention:
		return "mention"
	case kindDM:
		return "dm"
	}
	return "follow_up"
}

// conversation is one message to answer, normalised from an event.
type conversation struct {
	kind     conversationKind
	eventID  string
	retry    int
	tenant   string
	known    bool   // the workspace maps to a tenant
	channel  string // where to answer
	threadTS string // the thread to answer in; "" = top level (DMs)
	thread   string // bot.Query.Thread: the thread ts, or the DM's channel
	user     string
	text     string
}

func (c conversation) query() bot.Query {
	return bot.Query{
		EventID: c.eventID, Platform: answer.PlatformSlack, Tenant: c.tenant,
		Channel: c.channel, Thread: c.thread, User: c.user, Text: c.text,
	}
}

// handleEvents serves POST /slack/events.
func (a *Adapter) handleEvents(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { a.metrics.acked("events", time.Since(start)) }()
	if a.pool.Closing() {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	body, ok := a.verified(w, r, "events", mediaJSON)
	if !ok {
		return
	}
	var env eventEnvelope
	if err := json.Unmarshal(body, &env); err != nil {
		http.Error(w, "malformed event", http.StatusBadRequest)
		return
	}
	switch env.Type {
	case slackevents.URLVerification:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"challenge": env.Challenge})
		return
	case slackevents.CallbackEvent:
		if err := a.Ready(); err != nil {
			// Who the app is (to ignore its own messages, to find its
			// mention) is not known yet: Slack delivers the event again.
			a.log.Info("event refused: not ready", "platform", "slack", "stage", "ack", "event_id", env.EventID, "reason", err)
			http.Error(w, "starting: not connected to Slack yet", http.StatusServiceUnavailable)
			return
		}
		retry, _ := strconv.Atoi(r.Header.Get(headerRetryNum))
		if retry > 0 {
			a.log.Info("event redelivered", "platform", "slack", "stage", "ack", "event_id", env.EventID,
				"retry", retry, "retry_reason", r.Header.Get(headerRetryWhy))
		}
		if err := a.dispatchEvent(context.WithoutCancel(r.Context()), env, retry, replayKey(r.Header, body)); errors.Is(err, workpool.ErrClosed) {
			http.Error(w, "shutting down", http.StatusServiceUnavailable)
			return
		}
	case slackevents.AppRateLimited:
		a.log.Warn("slack is rate limiting event deliveries to this app", "platform", "slack", "stage", "ack")
	}
	w.WriteHeader(http.StatusOK)
}

// dispatchEvent turns an event into work on the pool. It never blocks: the
// caller acknowledges right after. It returns workpool.ErrClosed when shutting down,
// so HTTP can answer 503 and Slack deliver the event elsewhere. replay names
// the delivery itself (its signed body): an event without an event_id is
// de-duplicated on it, so a replayed request is not answered again.
func (a *Adapter) dispatchEvent(base context.Context, env eventEnvelope, retry int, replay string) error {
	c, ok := a.conversationFor(env)
	if !ok {
		return nil
	}
	c.retry = retry
	if c.eventID == "" {
		c.eventID = replay
	}
	key := "event:" + c.eventID
	if c.eventID != "" && !a.seen.Add(key, struct{}{}, a.now()) {
		a.metrics.drop("duplicate")
		a.log.Debug("duplicate delivery dropped", "platform", "slack", "stage", "ack", "event_id", env.EventID, "retry", retry)
		return nil
	}
	err := a.pool.Submit(base, func(ctx context.Context) { a.answerConversation(ctx, c) })
	switch {
	case errors.Is(err, workpool.ErrClosed):
		a.seen.Forget(key)
		a.metrics.drop("shutting_down")
		return err
	case err != nil:
		a.metrics.drop("busy")
		a.log.Warn("worker queue full; telling the user", "platform", "slack", "stage", "ack", "event_id", env.EventID)
		if c.kind == kindFollowUp {
			return nil // not known to be addressed to cew: say nothing
		}
		if a.outbox != nil {
			// Durably, like an answer: in an outage a busy notice must not
			// be lost either.
			err := a.enqueue(base, delivery{Kind: deliverThread, EventID: "busy:" + c.eventID, Channel: c.channel, ThreadTS: c.threadTS},
				noticeMessage(notice.Busy))
			if err == nil {
				return nil
			}
			a.log.Warn("busy notice not queued; sending it now", "platform", "slack", "stage", "ack", "event_id", env.EventID, "err", err)
		}
		sent := a.pool.GoSide(base, deliverTimeout, func(ctx context.Context) {
			if _, err := a.postMessage(ctx, a.retry, c.channel, c.threadTS, noticeMessage(notice.Busy)); err != nil {
				a.log.Warn("busy notice failed", "platform", "slack", "stage", "deliver", "event_id", c.eventID, "err", err)
			}
		})
		if !sent {
			a.log.Warn("busy notice dropped", "platform", "slack", "stage", "ack", "event_id", env.EventID)
		}
	}
	return nil
}

// conversationFor decides whether an event is a message for cew: a mention
// in a channel, a DM, or a reply in a thread (a follow-up when cew already
// answered there). Messages from bots, cew's own, edits and deletions are
// not.
func (a *Adapter) conversationFor(env eventEnvelope) (conversation, bool) {
	ev := env.Event
	if ev.BotID != "" || ev.Subtype == "bot_message" || ev.User == "" || ev.User == a.botUser() {
		return conversation{}, false
	}
	team := env.TeamID
	if team == "" {
		team = ev.Team
	}
	tenant, known := a.tenant(team)
	c := conversation{eventID: env.EventID, tenant: tenant, known: known, channel: ev.Channel, user: ev.User}
	switch ev.Type {
	case slackevents.AppMention:
		// A DM also arrives as message.im, and an edit re-sends the
		// mention: both would answer twice.
		if isDMChannel(ev.Channel) || len(ev.Edited) > 0 {
			return conversation{}, false
		}
		c.kind, c.text = kindMention, a.stripMention(ev.Text)
		c.threadTS = ev.ThreadTS
		if c.threadTS == "" {
			c.threadTS = ev.TS
		}
		c.thread = c.threadTS
		return c, true
	case slackevents.Message:
		switch ev.Subtype {
		case "", "thread_broadcast", "file_share":
		default: // message_changed, message_deleted, channel_join, …
			return conversation{}, false
		}
		c.text = a.stripMention(ev.Text)
		if ev.ChannelType == "im" {
			c.kind, c.threadTS, c.thread = kindDM, ev.ThreadTS, ev.Channel
			return c, true
		}
		// In channels, mentions come as app_mention; only thread replies
		// without one can be follow-ups.
		if ev.ThreadTS == "" || ev.ThreadTS == ev.TS || a.mentionsMe(ev.Text) || !known {
			return conversation{}, false
		}
		c.kind, c.threadTS, c.thread = kindFollowUp, ev.ThreadTS, ev.ThreadTS
		return c, true
	}
	return conversation{}, false
}

// isDMChannel: direct-message channel ids start with D.
func isDMChannel(id string) bool { return strings.HasPrefix(id, "D") }

// answerConversation answers one message in its thread: a placeholder
// first, drafts while an LLM streams, then the checked answer in place of
// them.
func (a *Adapter) answerConversation(ctx context.Context, c conversation) {
	start := time.Now()
	log := a.log.With("event_id", c.eventID, "platform", "slack", "channel", c.channel, "kind", c.kind.String())
	if !c.known {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
		defer cancel()
		log.Warn("workspace not mapped to a tenant; refusing", "stage", "tenant")
		if _, err := a.postMessage(dctx, a.retry, c.channel, c.threadTS, noticeMessage(refusal)); err != nil {
			log.Warn("refusal not delivered", "stage", "deliver", "err", err)
		}
		return
	}
	q := c.query()
	if c.kind == kindFollowUp && !a.bot.InConversation(ctx, q) {
		return
	}

	// A redelivery gets no placeholder: its first delivery is most likely
	// being answered by another replica, and the bot will say so.
	var placeholder string
	if c.retry == 0 {
		placeholder = a.postPlaceholder(ctx, log, c)
	}
	var draft *drafts.Throttler
	if placeholder != "" && a.cfg.DraftInterval > 0 {
		draft = drafts.Start(ctx, a.cfg.DraftInterval, func(ctx context.Context, text string) error {
			return a.updateMessage(ctx, a.once, c.channel, placeholder, draftMessage(text))
		}, log)
		q.OnToken = draft.Add
	}
	ans, err := a.bot.Handle(ctx, q)
	if draft != nil {
		draft.Stop()
	}
	log = log.With("answer_id", ans.ID)
	log.Info("answered", "stage", "answer", "status", ans.Status, "latency_ms", time.Since(start).Milliseconds())

	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
	defer cancel()
	if isDuplicate(err) {
		a.metrics.drop("duplicate")
		if placeholder != "" {
			if err := a.deleteMessage(dctx, a.retry, c.channel, placeholder); err != nil {
				log.Warn("placeholder of a duplicate not deleted", "stage", "deliver", "err", err)
			}
		}
		return
	}
	if err != nil {
		log.Error("answer failed", "stage", "answer", "err", err)
		ans = answer.Failed(ans, c.eventID)
	}
	a.deliverDurably(dctx, log, delivery{Kind: deliverThread, EventID: c.eventID, Channel: c.channel, ThreadTS: c.threadTS, Placeholder: placeholder},
		answerMessage(ans, renderOptions{}))
	log.Info("answer handed over for delivery", "stage", "deliver", "latency_ms", time.Since(start).Milliseconds())
}

// deliver replaces the placeholder with the answer; when that fails it
// posts the answer as a new message and removes the placeholder, so a
// draft can never stay in place of the checked answer. The placeholder is
// removed even when the answer is lost: an unchecked draft must not
// outlive it. It reports whether the answer was delivered. (Without an
// outbox this is how answers go out; with one, only when no queue can
// take them.)
func (a *Adapter) deliver(ctx context.Context, log *slog.Logger, channel, threadTS, placeholder string, m message) bool {
	if placeholder != "" {
		err := a.updateMessage(ctx, a.retry, channel, placeholder, m)
		if err == nil {
			return true
		}
		log.Warn("placeholder not updated; posting the answer as a new message", "stage", "deliver", "err", err)
	}
	delivered := true
	if _, err := a.postMessage(ctx, a.retry, channel, threadTS, m); err != nil {
		a.metrics.drop("lost_answer")
		log.Error("answer not delivered", "stage", "deliver", "err", err)
		delivered = false
	}
	if placeholder != "" {
		if err := a.deleteMessage(ctx, a.retry, channel, placeholder); err != nil {
			log.Warn("stale placeholder not deleted", "stage", "deliver", "err", err)
		}
	}
	return delivered
}

// placeholderTimeout bounds posting a placeholder: it is only a courtesy,
// and a worker waiting on it is a worker not answering.
const placeholderTimeout = 3 * time.Second

// postPlaceholder posts "Searching the documents…" in the thread and returns
// its ts, or "" when there is none. With an outbox it is one attempt, and
// none while Slack is failing: the answer is then posted (later) instead
// of replacing it, and the worker goes on to the next question rather than
// waiting out retries.
func (a *Adapter) postPlaceholder(ctx context.Context, log *slog.Logger, c conversation) string {
	if a.outbox == nil {
		ts, err := a.postMessage(ctx, a.retry, c.channel, c.threadTS, placeholderMessage())
		if err != nil {
			log.Warn("placeholder not posted", "stage", "placeholder", "err", err)
		}
		return ts
	}
	if a.outbox.Failing() {
		log.Info("Slack is failing: no placeholder", "stage", "placeholder")
		return ""
	}
	pctx, cancel := context.WithTimeout(ctx, placeholderTimeout)
	defer cancel()
	ts, err := a.postMessage(pctx, a.once, c.channel, c.threadTS, placeholderMessage())
	if err != nil {
		log.Warn("placeholder not posted", "stage", "placeholder", "err", err)
		return ""
	}
	return ts
}

func placeholderMessage() message {
	return message{
		text:   notice.Searching,
		blocks: []slackapi.Block{contextText("🔎 " + notice.Searching)},
	}
}

// draftMessage shows streamed text as an unchecked draft. Its notification
// text stays "Searching…": a draft is not an answer.
func draftMessage(text string) message {
	blocks := textSections(text, maxBlocks-1)
	return message{text: notice.Searching, blocks: append(blocks, contextText(notice.DraftNote))}
}
