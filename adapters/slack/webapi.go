package slack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/cewhq/cew/adapters/internal/retry"
	"github.com/cewhq/cew/answer"
	slackapi "github.com/slack-go/slack"
)

// deliverTimeout bounds posting an answer once it exists, so an answer that
// used its whole AnswerTimeout can still be delivered.
const deliverTimeout = 30 * time.Second

// apiCallTimeout bounds a single HTTP call to Slack.
const apiCallTimeout = retry.DefaultCallTimeout

// retry runs call until it succeeds, fails permanently, the attempts run out
// or ctx ends. A 429 waits exactly as long as Slack's Retry-After says;
// server and network failures back off exponentially. Every failure is
// logged with the method and counted.
func (a *Adapter) retry(ctx context.Context, method string, call func(ctx context.Context) error) error {
	policy := retry.Policy{
		Classify: classifyAPIError,
		Sleep:    a.sleep,
		Observe:  retry.Logged(a.log, "slack", "slack", a.metrics.apiError),
	}
	if err := policy.Do(ctx, method, call); err != nil {
		return fmt.Errorf("adapters/slack: %s: %w", method, err)
	}
	return nil
}

// classifyAPIError says what kind of failure err is, how long to wait
// before trying again and whether to.
func classifyAPIError(err error, next func() time.Duration) retry.Verdict {
	var (
		limited *slackapi.RateLimitedError
		status  slackapi.StatusCodeError
		apiErr  slackapi.SlackErrorResponse
		urlErr  *url.Error
		netErr  net.Error
	)
	switch {
	case errors.As(err, &limited):
		return retry.Verdict{Kind: retry.KindRateLimited, Wait: max(limited.RetryAfter, retry.MinRateLimitWait), Retryable: true}
	case errors.As(err, &status):
		return retry.HTTPStatus(status.Code, 0, next)
	case errors.As(err, &apiErr):
		switch apiErr.Err {
		case "ratelimited", "rate_limited":
			return retry.Verdict{Kind: retry.KindRateLimited, Wait: max(next(), retry.MinRateLimitWait), Retryable: true}
		case "internal_error", "fatal_error", "service_unavailable", "request_timeout":
			return retry.Verdict{Kind: retry.KindServer, Wait: next(), Retryable: true}
		}
		return retry.Verdict{Kind: retry.KindAPI}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &urlErr), errors.As(err, &netErr):
		return retry.Verdict{Kind: retry.KindNetwork, Wait: next(), Retryable: true}
	}
	return retry.Verdict{Kind: retry.KindAPI}
}

// message is what cew posts: blocks and the fallback text.
type message struct {
	text   string
	blocks []slackapi.Block
}

// answerMessage renders an answer as a message.
func answerMessage(ans answer.Answer, opt renderOptions) message {
	return message{text: FallbackText(ans), blocks: render(ans, opt)}
}

// noticeMessage is a one-line message of the adapter itself.
func noticeMessage(text string) message {
	return message{text: escape(text), blocks: []slackapi.Block{section(escape(text))}}
}

// options are the message's chat.* parameters. parse=none and
// link_names=false keep Slack from turning "@channel" or names in the
// fallback text into mentions; the blocks are verbatim for the same reason.
func (m message) options() []slackapi.MsgOption {
	opts := []slackapi.MsgOption{
		slackapi.MsgOptionText(m.text, false), slackapi.MsgOptionParse(false), slackapi.MsgOptionLinkNames(false),
		slackapi.MsgOptionDisableLinkUnfurl(),
	}
	if len(m.blocks) > 0 {
		opts = append(opts, slackapi.MsgOptionBlocks(m.blocks...))
	}
	return opts
}

// caller makes a Web API call: a.retry retries it, a.once makes one
// attempt (the outbox retries on its own schedule; a placeholder or a
// draft is not worth waiting for).
type caller func(ctx context.Context, method string, call func(ctx context.Context) error) error

// once makes a single Web API call under the call timeout, counting a
// failure.
func (a *Adapter) once(ctx context.Context, method string, call func(ctx context.Context) error) error {
	cctx, cancel := context.WithTimeout(ctx, apiCallTimeout)
	defer cancel()
	err := call(cctx)
	if err != nil {
		a.metrics.apiError(method, classifyAPIError(err, func() time.Duration { return 0 }).Kind)
		return fmt.Errorf("adapters/slack: %s: %w", method, err)
	}
	return nil
}

// postMessage posts m in channel, in the thread threadTS when set, and
// returns the new message's ts.
func (a *Adapter) postMessage(ctx context.Context, do caller, channel, threadTS string, m message) (string, error) {
	opts := m.options()
	if threadTS != "" {
		opts = append(opts, slackapi.MsgOptionTS(threadTS))
	}
	var ts string
	err := do(ctx, "chat.postMessage", func(ctx context.Context) error {
		var err error
		_, ts, err = a.api.PostMessageContext(ctx, channel, opts...)
		return err
	})
	return ts, err
}

// updateMessage replaces the message ts with m.
func (a *Adapter) updateMessage(ctx context.Context, do caller, channel, ts string, m message) error {
	return do(ctx, "chat.update", func(ctx context.Context) error {
		_, _, _, err := a.api.UpdateMessageContext(ctx, channel, ts, m.options()...)
		return err
	})
}

func (a *Adapter) deleteMessage(ctx context.Context, do caller, channel, ts string) error {
	return do(ctx, "chat.delete", func(ctx context.Context) error {
		_, _, err := a.api.DeleteMessageContext(ctx, channel, ts)
		return err
	})
}

// postEphemeral shows m to user only.
func (a *Adapter) postEphemeral(ctx context.Context, do caller, channel, user, threadTS string, m message) error {
	opts := m.options()
	if threadTS != "" {
		opts = append(opts, slackapi.MsgOptionTS(threadTS))
	}
	return do(ctx, "chat.postEphemeral", func(ctx context.Context) error {
		_, err := a.api.PostEphemeralContext(ctx, channel, user, opts...)
		return err
	})
}

// respond posts to an interaction's or slash command's response_url (valid
// for 30 minutes, five times).
func (a *Adapter) respond(ctx context.Context, do caller, responseURL string, msg *slackapi.WebhookMessage) error {
	return do(ctx, "response_url", func(ctx context.Context) error {
		return slackapi.PostWebhookCustomHTTPContext(ctx, responseURL, a.http, msg)
	})
}

// webhookMessage builds a response_url body.
func webhookMessage(responseType string, m message) *slackapi.WebhookMessage {
	w := &slackapi.WebhookMessage{ResponseType: responseType, Text: m.text}
	if len(m.blocks) > 0 {
		w.Blocks = &slackapi.Blocks{BlockSet: m.blocks}
	}
	return w
}
