package slack

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/cewhq/cew/adapters/internal/command"
	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/workpool"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// Slash-command response types.
const (
	responseEphemeral = "ephemeral"
	responseInChannel = "in_channel"
)

// helpText is the Slack help of /cew help (and /cew alone).
const helpText = "*cew answers from this project's documents, with a citation for every statement.*\n" +
	"• `@cew <question>` in a channel: I answer in the thread; reply in that thread to ask a follow-up.\n" +
	"• A direct message to cew: the same, without the mention.\n" +
	"• `/cew <question>`: an answer only you see, with a button to share it in the channel.\n" +
	"• `/cew status <document number or title>`: the latest revision and status from the document register.\n" +
	"• `/cew help`: this message.\n" +
	"Each source has an *Open in Drive* button. When the documents do not contain the answer, " +
	"I say so instead of guessing."

const statusUsageText = "Usage: `/cew status <document number or title>`, for example `/cew status 277-007-D-C-40327`."

// commandJob is one /cew question or status lookup to answer.
type commandJob struct {
	eventID     string
	tenant      string
	channel     string
	user        string
	text        string
	status      bool
	responseURL string
}

func (c commandJob) query() bot.Query {
	return bot.Query{
		EventID: c.eventID, Platform: answer.PlatformSlack, Tenant: c.tenant, Channel: c.channel,
		// Slash-command answers are private: each user's /cew questions
		// form their own conversation in the channel.
		Thread: "slash:" + c.user, User: c.user, Text: c.text,
	}
}

// startingText answers a slash command while cew cannot reach Slack yet.
const startingText = "cew is starting and cannot reach Slack yet; please ask again in a minute."

// handleCommands serves POST /slack/commands.
func (a *Adapter) handleCommands(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { a.metrics.acked("commands", time.Since(start)) }()
	body, ok := a.verified(w, r, "commands", mediaForm)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil || form.Get("command") == "" {
		http.Error(w, "malformed command", http.StatusBadRequest)
		return
	}
	if a.Ready() != nil {
		// The reply to a slash command needs no Web API call: say so at once.
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(slackapi.WebhookMessage{ResponseType: slackapi.ResponseTypeEphemeral, Text: startingText})
		return
	}
	resp := a.command(context.WithoutCancel(r.Context()), commandFromForm(form), replayKey(r.Header, body))
	if resp == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(resp)
}

func commandFromForm(f url.Values) slackapi.SlashCommand {
	return slackapi.SlashCommand{
		TeamID: f.Get("team_id"), ChannelID: f.Get("channel_id"), UserID: f.Get("user_id"),
		Command: f.Get("command"), Text: f.Get("text"), ResponseURL: f.Get("response_url"),
		TriggerID: f.Get("trigger_id"), EnterpriseID: f.Get("enterprise_id"), APIAppID: f.Get("api_app_id"),
	}
}

// command handles /cew and returns the immediate (ephemeral) response:
// help, a usage hint, a refusal, "busy", or "Searching…" while the answer
// is worked out on the pool and posted to response_url. nil means an empty
// 200 (a repeated delivery). replay names the delivery itself: a command
// without a trigger_id is de-duplicated on it.
func (a *Adapter) command(base context.Context, cmd slackapi.SlashCommand, replay string) *slackapi.WebhookMessage {
	delivery := "command:" + cmd.TriggerID
	if cmd.TriggerID == "" {
		delivery = replay
	}
	if delivery != "" && !a.seen.Add(delivery, struct{}{}, a.now()) {
		a.metrics.drop("duplicate")
		return nil
	}
	tenant, known := a.tenant(cmd.TeamID)
	if !known {
		a.log.Warn("workspace not mapped to a tenant; refusing", "platform", "slack", "stage", "tenant")
		return webhookMessage(responseEphemeral, noticeMessage(refusal))
	}
	text := strings.TrimSpace(cmd.Text)
	parsed := command.Parse(text)
	job := commandJob{
		eventID: delivery, tenant: tenant, channel: cmd.ChannelID, user: cmd.UserID, text: text,
		responseURL: a.responseURL(cmd.ResponseURL, "commands"),
	}
	switch parsed.Kind {
	case command.Help:
		return webhookMessage(responseEphemeral, message{text: "How to use cew", blocks: []slackapi.Block{section(escape(helpText))}})
	case command.StatusUsage:
		return webhookMessage(responseEphemeral, message{text: escape("Usage: /cew status <document>"), blocks: []slackapi.Block{section(escape(statusUsageText))}})
	case command.Status:
		job.status, job.text = true, parsed.Arg
	}
	err := a.pool.Submit(base, func(ctx context.Context) { a.answerCommand(ctx, job) })
	switch {
	case errors.Is(err, workpool.ErrClosed):
		a.metrics.drop("shutting_down")
		return webhookMessage(responseEphemeral, noticeMessage(notice.ShuttingDown))
	case err != nil:
		a.metrics.drop("busy")
		a.log.Warn("worker queue full; telling the user", "platform", "slack", "stage", "ack", "event_id", job.eventID)
		return webhookMessage(responseEphemeral, noticeMessage(notice.Busy))
	}
	what := "Searching the documents for: _" + escape(truncateRaw(text, 500)) + "_"
	if job.status {
		what = "Looking up the status of: _" + escape(truncateRaw(job.text, 500)) + "_"
	}
	return webhookMessage(responseEphemeral, message{
		text: "🔎 " + notice.Searching, blocks: []slackapi.Block{contextText("🔎 " + what)},
	})
}

// answerCommand answers a /cew question or status lookup and posts it to
// the user alone, with a "Share in channel" button.
func (a *Adapter) answerCommand(ctx context.Context, c commandJob) {
	start := time.Now()
	log := a.log.With("event_id", c.eventID, "platform", "slack", "channel", c.channel, "kind", "command")
	var (
		ans answer.Answer
		err error
	)
	if c.status {
		ans, err = a.bot.StatusLookup(ctx, c.query())
	} else {
		ans, err = a.bot.Handle(ctx, c.query())
	}
	log = log.With("answer_id", ans.ID)
	log.Info("answered", "stage", "answer", "status", ans.Status, "latency_ms", time.Since(start).Milliseconds())
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
	defer cancel()
	if isDuplicate(err) {
		a.metrics.drop("duplicate")
		return
	}
	if err != nil {
		log.Error("answer failed", "stage", "answer", "err", err)
		ans = answer.Failed(ans, c.eventID)
	}
	var opt renderOptions
	if shareable(ans) {
		a.shares.Add(ans.ID, heldShare{answer: ans, tenant: c.tenant, user: c.user}, a.now())
		opt.shareValue = encodeShareRef(shareRef{AnswerID: ans.ID, Status: c.status, Question: c.text})
	}
	a.deliverDurably(dctx, log, delivery{Kind: deliverPrivate, EventID: c.eventID, Channel: c.channel, User: c.user, ResponseURL: c.responseURL},
		answerMessage(ans, opt))
	log.Info("answer handed over for delivery", "stage", "deliver", "latency_ms", time.Since(start).Milliseconds())
}

// heldShare is a private answer kept for its "Share in channel" button,
// with the workspace's tenant and the user it was shown to: only they may
// share it.
type heldShare struct {
	answer answer.Answer
	tenant string
	user   string
}

// shareable: answers and refusals can be shared; errors, rate limits and
// canned replies cannot.
func shareable(ans answer.Answer) bool {
	return ans.ID != "" && (ans.Status == answer.StatusAnswered || ans.Status == answer.StatusNotFound)
}

// deliverPrivately shows m to one user: through the response_url when
// there is one, else (or when that fails) as an ephemeral message. It
// reports whether m was delivered.
func (a *Adapter) deliverPrivately(ctx context.Context, log *slog.Logger, responseURL, channel, user, threadTS string, m message) bool {
	if responseURL != "" {
		w := webhookMessage(responseEphemeral, m)
		err := a.respond(ctx, a.retry, responseURL, w)
		if err == nil {
			return true
		}
		log.Warn("response_url failed; posting an ephemeral message", "stage", "deliver", "err", err)
	}
	if err := a.postEphemeral(ctx, a.retry, channel, user, threadTS, m); err != nil {
		a.metrics.drop("lost_answer")
		log.Error("private answer not delivered", "stage", "deliver", "err", err)
		return false
	}
	return true
}
