package teams

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/cewhq/cew/adapters/internal/retry"
)

// Bot Connector settings.
const (
	// DefaultTokenURL issues the bot's tokens for a multi-tenant bot; a
	// single-tenant bot uses its own tenant's endpoint (TenantTokenURL).
	DefaultTokenURL = "https://login.microsoftonline.com/botframework.com/oauth2/v2.0/token"
	// connectorScope is the scope of tokens for the Bot Connector API.
	connectorScope = "https://api.botframework.com/.default"
	// tokenEarly is how long before its expiry a token is renewed.
	tokenEarly = 5 * time.Minute
	// maxResponseBytes bounds what is read of a token or connector reply.
	maxResponseBytes = 1 << 20
)

// TenantTokenURL is the token endpoint of a single-tenant bot.
func TenantTokenURL(tenantID string) string {
	return "https://login.microsoftonline.com/" + url.PathEscape(tenantID) + "/oauth2/v2.0/token"
}

// statusError is an HTTP failure of the token endpoint or the connector.
type statusError struct {
	endpoint   string
	code       int
	retryAfter time.Duration
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s answered %d", e.endpoint, e.code)
}

// errNoToken: no bearer token could be had; nothing is sent without one.
var errNoToken = errors.New("adapters/teams: no connector token")

// tokenSource gets and caches the bot's client-credentials token. One
// fetch runs at a time; waiting for it honours ctx.
type tokenSource struct {
	url, clientID, secret string
	http                  *http.Client
	now                   func() time.Time

	mu     sync.Mutex
	token  string
	expiry time.Time
	fetch  chan struct{}
}

func newTokenSource(tokenURL, clientID, secret string, client *http.Client, now func() time.Time) *tokenSource {
	return &tokenSource{url: tokenURL, clientID: clientID, secret: secret, http: client, now: now, fetch: make(chan struct{}, 1)}
}

func (s *tokenSource) cached() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token != "" && s.now().Before(s.expiry.Add(-tokenEarly)) {
		return s.token, true
	}
	return "", false
}

// Token returns a valid token, fetching one when the cached one is about
// to expire.
func (s *tokenSource) Token(ctx context.Context) (string, error) {
	if t, ok := s.cached(); ok {
		return t, nil
	}
	select {
	case s.fetch <- struct{}{}:
	case <-ctx.Done():
		return "", fmt.Errorf("%w: %v", errNoToken, ctx.Err())
	}
	defer func() { <-s.fetch }()
	if t, ok := s.cached(); ok { // fetched while this caller waited
		return t, nil
	}
	form := url.Values{
		"grant_type": {"client_credentials"}, "client_id": {s.clientID},
		"client_secret": {s.secret}, "scope": {connectorScope},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoToken, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.http.Do(req)
	if err != nil {
		// The URL error names the endpoint, never the form.
		return "", fmt.Errorf("%w: token endpoint: %w", errNoToken, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%w: %w", errNoToken, &statusError{
			endpoint: "token endpoint", code: resp.StatusCode,
			retryAfter: retry.RetryAfter(resp.Header.Get("Retry-After"), s.now()),
		})
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &tok); err != nil || tok.AccessToken == "" || tok.ExpiresIn <= 0 {
		return "", fmt.Errorf("%w: token endpoint answered without a token", errNoToken)
	}
	s.mu.Lock()
	s.token, s.expiry = tok.AccessToken, s.now().Add(time.Duration(tok.ExpiresIn)*time.Second)
	s.mu.Unlock()
	return tok.AccessToken, nil
}

// Delivery is one activity to send to a conversation: a reply when
// ReplyToID is set, else a new activity (the typing indicator).
type Delivery struct {
	ServiceURL     string
	ConversationID string
	ReplyToID      string
	Activity       Activity
}

// Deliverer sends activities. The Bot Connector client is one; a durable
// outbox can wrap it without the adapter changing.
type Deliverer interface {
	Deliver(ctx context.Context, d Delivery) error
}

// connector posts activities to the Bot Connector REST API with the bot's
// token, retrying 429 and 5xx with backoff and Retry-After.
type connector struct {
	tokens *tokenSource
	http   *http.Client
	now    func() time.Time
	log    *slog.Logger
	// sleep waits between attempts; tests replace it.
	sleep   func(ctx context.Context, d time.Duration) error
	metrics *metrics
	// attempts per Deliver; 0 means retry.DefaultAttempts.
	attempts int
}

var _ Deliverer = (*connector)(nil)

// Deliver posts d.Activity to /v3/conversations/{id}/activities[/{replyToId}].
func (c *connector) Deliver(ctx context.Context, d Delivery) error {
	base := strings.TrimRight(d.ServiceURL, "/")
	if base == "" || d.ConversationID == "" {
		return errors.New("adapters/teams: deliver: no serviceUrl or conversation")
	}
	endpoint := base + "/v3/conversations/" + url.PathEscape(d.ConversationID) + "/activities"
	if d.ReplyToID != "" {
		endpoint += "/" + url.PathEscape(d.ReplyToID)
	}
	body, err := json.Marshal(d.Activity)
	if err != nil {
		return fmt.Errorf("adapters/teams: deliver: %w", err)
	}
	method := "send_" + d.Activity.Type
	policy := retry.Policy{
		Attempts: c.attempts,
		Classify: classifyDeliveryError,
		Sleep:    c.sleep,
		Observe:  retry.Logged(c.log, "teams", "connector", c.metrics.apiError),
	}
	err = policy.Do(ctx, method, func(ctx context.Context) error { return c.post(ctx, endpoint, body) })
	if err != nil {
		return fmt.Errorf("adapters/teams: deliver %s: %w", d.Activity.Type, err)
	}
	return nil
}

func (c *connector) post(ctx context.Context, endpoint string, body []byte) error {
	token, err := c.tokens.Token(ctx)
	if err != nil {
		return err
	}
	if token == "" {
		return errNoToken
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBytes))
	if resp.StatusCode/100 != 2 {
		return &statusError{endpoint: "connector", code: resp.StatusCode,
			retryAfter: retry.RetryAfter(resp.Header.Get("Retry-After"), c.now())}
	}
	return nil
}

// classifyDeliveryError: HTTP statuses of the connector and the token
// endpoint by retry.HTTPStatus (a 401 from either is final), network
// failures retried, anything else final.
func classifyDeliveryError(err error, next func() time.Duration) retry.Verdict {
	var (
		se     *statusError
		urlErr *url.Error
		netErr net.Error
	)
	switch {
	case errors.As(err, &se):
		return retry.HTTPStatus(se.code, se.retryAfter, next)
	case errors.Is(err, context.Canceled):
		return retry.Verdict{Kind: retry.KindNetwork}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &urlErr), errors.As(err, &netErr):
		return retry.Verdict{Kind: retry.KindNetwork, Wait: next(), Retryable: true}
	}
	return retry.Verdict{Kind: retry.KindAPI}
}
