package teams

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/adapters/internal/retry"
	"github.com/cewhq/cew/outbox"
)

// durable is a Deliverer that keeps every reply in the outbox until the
// Bot Connector has it: replies are stored, sent in order per
// conversation and retried through an outage until the deadline. Typing
// indicators go straight through: a late one means nothing.
type durable struct {
	box    *outbox.Outbox
	direct Deliverer
	log    *slog.Logger
}

var _ Deliverer = (*durable)(nil)

// Deliver queues d; when no queue can take it, it is sent at once.
func (q *durable) Deliver(ctx context.Context, d Delivery) error {
	if d.Activity.Type == "typing" {
		if q.box.Failing() {
			return nil // the connector is failing: no worker waits on a typing indicator
		}
		return q.direct.Deliver(ctx, d)
	}
	raw, err := json.Marshal(d)
	if err == nil {
		sum := sha256.Sum256(raw)
		id := "teams:" + d.ConversationID + ":" + d.ReplyToID + ":" + hex.EncodeToString(sum[:8])
		if err = q.box.Enqueue(ctx, id, "conversation:"+d.ConversationID, d); err == nil {
			return nil
		}
	}
	q.log.Error("reply not queued for delivery; sending it now", "platform", "teams", "stage", "deliver", "err", err)
	if err := q.direct.Deliver(ctx, d); err != nil {
		q.box.Unqueued()
		return err
	}
	return nil
}

// outboxSender sends stored replies, one attempt each.
type outboxSender struct{ direct Deliverer }

// Send makes one attempt at a stored reply.
func (s outboxSender) Send(ctx context.Context, m *outbox.Message) error {
	var d Delivery
	if err := json.Unmarshal(m.Payload, &d); err != nil {
		return outbox.Permanent(fmt.Errorf("adapters/teams: stored reply: %w", err))
	}
	return retry.ForOutbox(s.direct.Deliver(ctx, d), classifyDeliveryError)
}

// giveUp tells the conversation a reply could not be delivered, once.
func (a *Adapter) giveUp(direct Deliverer) func(ctx context.Context, m outbox.Message, reason string) {
	return func(ctx context.Context, m outbox.Message, reason string) {
		var d Delivery
		if err := json.Unmarshal(m.Payload, &d); err != nil {
			return
		}
		log := a.log.With("platform", "teams", "stage", "deliver", "activity_id", d.ReplyToID, "reason", reason)
		log.Error("reply not delivered", "attempts", m.Attempts, "err", m.LastError)
		a.metrics.drop("lost_answer")
		ref := d.ReplyToID
		if ref == "" {
			ref = m.ID
		}
		card := NoticeCard(notice.Undelivered(ref))
		d.Activity.Summary, d.Activity.Attachments = card.FallbackText, []Attachment{{ContentType: contentTypeAdaptiveCard, Content: card}}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpTimeout)
		defer cancel()
		if err := direct.Deliver(ctx, d); err != nil {
			log.Warn("could-not-deliver notice not delivered either", "err", err)
		}
	}
}
