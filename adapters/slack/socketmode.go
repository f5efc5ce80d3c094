package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// RunSocketMode receives the same events, commands and clicks over a Socket
// Mode WebSocket (no public URL needed) and handles them exactly as the
// HTTP endpoints do: each envelope is acknowledged at once and its work
// goes to the same worker pool. It waits until the adapter is Ready, and
// returns nil when ctx ends, or an error when Slack refuses the connection
// (a bad or revoked app token).
func (a *Adapter) RunSocketMode(ctx context.Context) error {
	if a.cfg.AppToken == "" {
		return errors.New("adapters/slack: socket mode: no app token (SLACK_APP_TOKEN)")
	}
	// Events need the app's own identity: connect once Slack has answered
	// auth.test (at once, unless it could not be reached at start-up).
	select {
	case <-a.ready:
	case <-ctx.Done():
		return nil
	}
	client := socketmode.New(a.api, socketmode.OptionLog(slog.NewLogLogger(a.log.Handler(), slog.LevelDebug)))
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- client.RunContext(runCtx) }()
	for {
		select {
		case <-ctx.Done():
			cancel()
			<-errc
			return nil
		case err := <-errc:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("adapters/slack: socket mode: %w", err)
		case evt := <-client.Events:
			a.socketEvent(ctx, client, evt)
		}
	}
}

// socketEvent handles one Socket Mode event.
func (a *Adapter) socketEvent(ctx context.Context, client *socketmode.Client, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		a.log.Info("socket mode connecting", "platform", "slack", "stage", "socket")
	case socketmode.EventTypeConnected:
		a.log.Info("socket mode connected", "platform", "slack", "stage", "socket")
	case socketmode.EventTypeConnectionError, socketmode.EventTypeIncomingError, socketmode.EventTypeErrorBadMessage,
		socketmode.EventTypeErrorWriteFailed, socketmode.EventTypeInvalidAuth:
		a.log.Warn("socket mode trouble", "platform", "slack", "stage", "socket", "event", string(evt.Type),
			"err", socketError(evt.Data))
	case socketmode.EventTypeEventsAPI, socketmode.EventTypeSlashCommand, socketmode.EventTypeInteractive:
		if evt.Request != nil {
			a.socketRequest(ctx, client, evt)
		}
	}
}

// socketRequest acknowledges an envelope and queues its work. While
// shutting down nothing is acknowledged, so Slack delivers the envelope
// again on another connection.
func (a *Adapter) socketRequest(ctx context.Context, client *socketmode.Client, evt socketmode.Event) {
	start := time.Now()
	req := evt.Request
	log := a.log.With("platform", "slack", "stage", "ack", "envelope_id", req.EnvelopeID)
	if a.pool.Closing() {
		log.Info("shutting down; envelope left for redelivery")
		return
	}
	base := context.WithoutCancel(ctx)
	ack := func(payload any) {
		var err error
		if payload == nil {
			err = client.AckCtx(ctx, req.EnvelopeID, nil)
		} else {
			err = client.AckCtx(ctx, req.EnvelopeID, payload)
		}
		a.metrics.acked("socket", time.Since(start))
		if err != nil {
			log.Warn("envelope not acknowledged", "err", err)
		}
	}
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		ack(nil)
		var env eventEnvelope
		if err := json.Unmarshal(req.Payload, &env); err != nil {
			log.Warn("malformed event envelope", "err", err)
			return
		}
		if env.Type == slackevents.CallbackEvent {
			_ = a.dispatchEvent(base, env, req.RetryAttempt, payloadKey(req.Payload))
		}
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slackapi.SlashCommand)
		if !ok {
			ack(nil)
			return
		}
		if resp := a.command(base, cmd, payloadKey(req.Payload)); resp != nil {
			ack(resp)
		} else {
			ack(nil)
		}
	case socketmode.EventTypeInteractive:
		ack(nil)
		if cb, ok := evt.Data.(slackapi.InteractionCallback); ok {
			_ = a.interaction(base, cb)
		}
	}
}

// socketError is the error a Socket Mode client event carries.
func socketError(data any) error {
	switch d := data.(type) {
	case *slackapi.ConnectionErrorEvent:
		return d.ErrorObj
	case *slackapi.IncomingEventError:
		return d.ErrorObj
	case *socketmode.ErrorBadMessage:
		return d.Cause
	case *socketmode.ErrorWriteFailed:
		return d.Cause
	case error:
		return d
	}
	return nil
}
