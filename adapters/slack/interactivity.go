package slack

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/workpool"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// handleInteractivity serves POST /slack/interactivity: button clicks.
func (a *Adapter) handleInteractivity(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() { a.metrics.acked("interactivity", time.Since(start)) }()
	body, ok := a.verified(w, r, "interactivity", mediaForm)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	payload := form.Get("payload")
	if err != nil || payload == "" {
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	var cb slackapi.InteractionCallback
	if err := json.Unmarshal([]byte(payload), &cb); err != nil {
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	if a.Ready() != nil {
		http.Error(w, "starting: not connected to Slack yet", http.StatusServiceUnavailable)
		return
	}
	if err := a.interaction(context.WithoutCancel(r.Context()), cb); errors.Is(err, workpool.ErrClosed) {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// interaction queues the work of a click: feedback or share. "Open in
// Drive" clicks are links and need nothing.
func (a *Adapter) interaction(base context.Context, cb slackapi.InteractionCallback) error {
	if cb.Type != slackapi.InteractionTypeBlockActions {
		return nil
	}
	cb.ResponseURL = a.responseURL(cb.ResponseURL, "interactivity")
	tenant, known := a.tenant(cb.Team.ID)
	if !known {
		a.log.Warn("click from a workspace not mapped to a tenant", "platform", "slack", "stage", "tenant")
		return nil
	}
	for _, act := range cb.ActionCallback.BlockActions {
		if act == nil {
			continue
		}
		var work func(ctx context.Context)
		switch act.ActionID {
		case actionFeedbackUp, actionFeedbackDown:
			value, up := act.Value, act.ActionID == actionFeedbackUp
			work = func(ctx context.Context) { a.feedback(ctx, cb, tenant, value, up) }
		case actionShare:
			value := act.Value
			work = func(ctx context.Context) { a.share(ctx, cb, tenant, value) }
		default:
			continue
		}
		if err := a.pool.Submit(base, work); err != nil {
			a.metrics.drop("busy")
			a.log.Warn("click not handled", "platform", "slack", "stage", "ack", "action", act.ActionID, "err", err)
			if errors.Is(err, workpool.ErrClosed) {
				return err
			}
		}
	}
	return nil
}

func channelOf(cb slackapi.InteractionCallback) string {
	if cb.Channel.ID != "" {
		return cb.Channel.ID
	}
	return cb.Container.ChannelID
}

// feedback records a 👍/👎 and thanks the user privately, leaving the
// buttons in place for everyone else.
func (a *Adapter) feedback(ctx context.Context, cb slackapi.InteractionCallback, tenant, answerID string, up bool) {
	log := a.log.With("platform", "slack", "answer_id", answerID, "channel", channelOf(cb))
	text := notice.FeedbackRecorded(up)
	err := a.bot.RecordFeedback(ctx, bot.Feedback{
		AnswerID: answerID, Platform: answer.PlatformSlack, Tenant: tenant,
		Channel: channelOf(cb), User: cb.User.ID, Up: up,
	})
	if err != nil {
		log.Error("feedback not recorded", "stage", "feedback", "err", err)
		text = notice.FeedbackFailed
	} else {
		log.Info("feedback recorded", "stage", "feedback", "up", up)
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
	defer cancel()
	a.deliverPrivately(dctx, log, cb.ResponseURL, channelOf(cb), cb.User.ID, cb.Container.ThreadTs, noticeMessage(text))
}

// share posts an ephemeral /cew answer in the channel, headed by who asked
// what, then removes the private copy. An answer this replica no longer
// holds is asked again (the bot's cache usually has it).
func (a *Adapter) share(ctx context.Context, cb slackapi.InteractionCallback, tenant, value string) {
	log := a.log.With("platform", "slack", "channel", channelOf(cb))
	ref, ok := decodeShareRef(value)
	if !ok {
		log.Warn("share button with an unreadable value", "stage", "share")
		return
	}
	log = log.With("answer_id", ref.AnswerID)
	held, found := a.shares.Get(ref.AnswerID, a.now())
	if found && (held.tenant != tenant || held.user != cb.User.ID) {
		// A button naming an answer shown to someone else, perhaps in
		// another workspace: never post it. The click came from a
		// verified request, so the forger is told nothing about it.
		a.metrics.drop("foreign_share")
		log.Warn("share refused: the answer belongs to another user or workspace", "stage", "share", "user", cb.User.ID)
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
		defer cancel()
		a.deliverPrivately(dctx, log, cb.ResponseURL, channelOf(cb), cb.User.ID, "", noticeMessage(notice.ShareRefused))
		return
	}
	ans := held.answer
	if !found {
		q := bot.Query{
			Platform: answer.PlatformSlack, Tenant: tenant, Channel: channelOf(cb),
			Thread: "slash:" + cb.User.ID, User: cb.User.ID, Text: ref.Question,
		}
		var err error
		if ref.Status {
			ans, err = a.bot.StatusLookup(ctx, q)
		} else {
			ans, err = a.bot.Handle(ctx, q)
		}
		if err != nil {
			log.Error("answer to share not rebuilt", "stage", "share", "err", err)
			ans = answer.Failed(ans, ref.AnswerID)
		}
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverTimeout)
	defer cancel()
	if !shareable(ans) {
		// A rate limit or an error: tell the user, share nothing.
		a.deliverPrivately(dctx, log, cb.ResponseURL, channelOf(cb), cb.User.ID, "", answerMessage(ans, renderOptions{}))
		return
	}
	question := ref.Question
	if ref.Status {
		question = "status " + question
	}
	m := answerMessage(ans, renderOptions{askedBy: cb.User.ID, question: question})
	if cb.ResponseURL == "" {
		if _, err := a.postMessage(dctx, a.retry, channelOf(cb), "", m); err != nil {
			log.Error("answer not shared", "stage", "share", "err", err)
		}
		return
	}
	if err := a.respond(dctx, a.retry, cb.ResponseURL, webhookMessage(responseInChannel, m)); err != nil {
		log.Error("answer not shared", "stage", "share", "err", err)
		a.deliverPrivately(dctx, log, "", channelOf(cb), cb.User.ID, "", noticeMessage("Sorry, the answer could not be shared. Please try again."))
		return
	}
	log.Info("answer shared", "stage", "share")
	if err := a.respond(dctx, a.retry, cb.ResponseURL, &slackapi.WebhookMessage{DeleteOriginal: true}); err != nil {
		log.Warn("private copy not removed", "stage", "share", "err", err)
	}
}
