package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/retry"
	"github.com/cewhq/cew/outbox"
)

// Kinds of durable delivery.
const (
	// deliverThread replaces the placeholder in a thread (or DM) with the
	// answer, or posts the answer when there is no placeholder.
	deliverThread = "thread"
	// deliverPrivate shows the answer to one user: response_url, else an
	// ephemeral message.
	deliverPrivate = "private"
)

// delivery is what the outbox keeps of an answer to post: where, and the
// rendered message (blocks as Slack reads them), so a restarted replica
// posts exactly what was rendered.
type delivery struct {
	Kind     string `json:"kind"`
	EventID  string `json:"event_id,omitempty"`
	Channel  string `json:"channel"`
	ThreadTS string `json:"thread_ts,omitempty"`
	// Placeholder is the "Searching…" message the answer replaces;
	// PlaceholderGone says it could not be updated (deleted, too old), so
	// the answer is posted instead.
	Placeholder     string `json:"placeholder,omitempty"`
	PlaceholderGone bool   `json:"placeholder_gone,omitempty"`
	// Posted says the answer was posted as a new message; only removing the
	// placeholder is left.
	Posted bool `json:"posted,omitempty"`
	// User and ResponseURL address a private answer; ResponseURLGone says
	// the response_url refused it (expired), so an ephemeral message is
	// sent instead.
	User            string          `json:"user,omitempty"`
	ResponseURL     string          `json:"response_url,omitempty"`
	ResponseURLGone bool            `json:"response_url_gone,omitempty"`
	Text            string          `json:"text"`
	Blocks          json.RawMessage `json:"blocks,omitempty"`
}

func newDelivery(kind string, m message) (delivery, error) {
	d := delivery{Kind: kind, Text: m.text}
	if len(m.blocks) > 0 {
		raw, err := json.Marshal(slackapi.Blocks{BlockSet: m.blocks})
		if err != nil {
			return delivery{}, fmt.Errorf("adapters/slack: blocks: %w", err)
		}
		d.Blocks = raw
	}
	return d, nil
}

// message is the rendered message again.
func (d delivery) message() (message, error) {
	m := message{text: d.Text}
	if len(d.Blocks) > 0 {
		var b slackapi.Blocks
		if err := json.Unmarshal(d.Blocks, &b); err != nil {
			return message{}, fmt.Errorf("adapters/slack: stored blocks: %w", err)
		}
		m.blocks = b.BlockSet
	}
	return m, nil
}

// key orders deliveries: one thread's (or one user's private) answers
// reach Slack in the order they were answered.
func (d delivery) key() string {
	if d.Kind == deliverPrivate {
		return "private:" + d.Channel + ":" + d.User
	}
	return "thread:" + d.Channel + ":" + d.ThreadTS
}

// deliverDurably hands d to the outbox; when no outbox is configured, or
// no queue can take it, it is delivered at once as before.
func (a *Adapter) deliverDurably(ctx context.Context, log *slog.Logger, d delivery, m message) {
	if a.outbox != nil {
		err := a.enqueue(ctx, d, m)
		if err == nil {
			return
		}
		log.Error("answer not queued for delivery; delivering it now", "stage", "deliver", "err", err)
	}
	var ok bool
	if d.Kind == deliverPrivate {
		ok = a.deliverPrivately(ctx, log, d.ResponseURL, d.Channel, d.User, "", m)
	} else {
		ok = a.deliver(ctx, log, d.Channel, d.ThreadTS, d.Placeholder, m)
	}
	if !ok && a.outbox != nil {
		a.outbox.Unqueued()
	}
}

// enqueue stores m, addressed as d says, in the outbox.
func (a *Adapter) enqueue(ctx context.Context, d delivery, m message) error {
	stored, err := newDelivery(d.Kind, m)
	if err != nil {
		return err
	}
	stored.EventID, stored.Channel, stored.ThreadTS = d.EventID, d.Channel, d.ThreadTS
	stored.Placeholder, stored.User, stored.ResponseURL = d.Placeholder, d.User, d.ResponseURL
	return a.outbox.Enqueue(ctx, "slack:"+d.Kind+":"+d.EventID, stored.key(), stored)
}

// sender delivers the outbox's messages: one attempt per call, each
// failure classified for the outbox (rate limit → its wait, server and
// network → retry, anything else → refused for good).
type sender struct{ a *Adapter }

var _ outbox.Sender = sender{}

// Send makes one attempt at a stored delivery.
func (s sender) Send(ctx context.Context, om *outbox.Message) error {
	a := s.a
	var d delivery
	if err := json.Unmarshal(om.Payload, &d); err != nil {
		return outbox.Permanent(fmt.Errorf("adapters/slack: stored delivery: %w", err))
	}
	m, err := d.message()
	if err != nil {
		return outbox.Permanent(err)
	}
	save := func() {
		if raw, err := json.Marshal(d); err == nil {
			om.Payload = raw
		}
	}
	log := a.log.With("platform", "slack", "stage", "deliver", "event_id", d.EventID, "channel", d.Channel, "attempt", om.Attempts)
	switch d.Kind {
	case deliverThread:
		if d.Placeholder != "" && !d.PlaceholderGone && !d.Posted {
			err := a.updateMessage(ctx, a.once, d.Channel, d.Placeholder, m)
			if err == nil {
				return nil
			}
			if !placeholderGone(err) {
				return forOutbox(err)
			}
			log.Warn("placeholder cannot be updated; posting the answer", "err", err)
			d.PlaceholderGone = true
			save()
		}
		if !d.Posted {
			if _, err := a.postMessage(ctx, a.once, d.Channel, d.ThreadTS, m); err != nil {
				return forOutbox(err)
			}
			d.Posted = true
			save()
		}
		if d.Placeholder != "" {
			// An unchecked draft must not outlive the answer; a placeholder
			// that is already gone is fine.
			err := a.deleteMessage(ctx, a.once, d.Channel, d.Placeholder)
			if err != nil && !placeholderGone(err) {
				return forOutbox(err)
			}
		}
		return nil
	case deliverPrivate:
		if d.ResponseURL != "" && !d.ResponseURLGone {
			err := a.respond(ctx, a.once, d.ResponseURL, webhookMessage(responseEphemeral, m))
			if err == nil {
				return nil
			}
			if !permanentFailure(err) {
				return forOutbox(err)
			}
			log.Warn("response_url refused the answer; sending an ephemeral message", "err", err)
			d.ResponseURLGone = true
			save()
		}
		return forOutbox(a.postEphemeral(ctx, a.once, d.Channel, d.User, "", m))
	}
	return outbox.Permanent(fmt.Errorf("adapters/slack: unknown delivery kind %q", d.Kind))
}

// giveUp tells the user an answer could not be delivered: in place of the
// placeholder, else in the thread, else privately. One attempt: Slack has
// been failing for the whole deadline.
func (a *Adapter) giveUp(ctx context.Context, om outbox.Message, reason string) {
	var d delivery
	if err := json.Unmarshal(om.Payload, &d); err != nil {
		return
	}
	log := a.log.With("platform", "slack", "stage", "deliver", "event_id", d.EventID, "channel", d.Channel, "reason", reason)
	log.Error("answer not delivered", "attempts", om.Attempts, "err", om.LastError)
	a.metrics.drop("lost_answer")
	m := noticeMessage(notice.Undelivered(d.EventID))
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), apiCallTimeout)
	defer cancel()
	var err error
	switch {
	case d.Kind == deliverPrivate:
		err = a.postEphemeral(ctx, a.once, d.Channel, d.User, "", m)
	case d.Placeholder != "" && !d.PlaceholderGone && !d.Posted:
		err = a.updateMessage(ctx, a.once, d.Channel, d.Placeholder, m)
	case !d.Posted:
		_, err = a.postMessage(ctx, a.once, d.Channel, d.ThreadTS, m)
	}
	if err != nil {
		log.Warn("could-not-deliver notice not delivered either", "err", err)
	}
}

// placeholderGone: the message to update or delete no longer exists or can
// no longer be edited.
func placeholderGone(err error) bool {
	var apiErr slackapi.SlackErrorResponse
	if errors.As(err, &apiErr) {
		switch apiErr.Err {
		case "message_not_found", "cant_update_message", "cant_delete_message", "edit_window_closed":
			return true
		}
	}
	return false
}

// permanentFailure reports whether a Web API or response_url failure
// cannot be fixed by retrying.
func permanentFailure(err error) bool {
	return !classifyAPIError(err, func() time.Duration { return 0 }).Retryable
}

// forOutbox classifies a failure for the outbox.
func forOutbox(err error) error { return retry.ForOutbox(err, classifyAPIError) }
