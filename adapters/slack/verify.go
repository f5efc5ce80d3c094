package slack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	// maxSignatureAge is Slack's replay window for signed requests: a
	// request whose timestamp is more than five minutes away is refused.
	maxSignatureAge = 5 * time.Minute
	// maxBodyBytes bounds what is read of a request. Slack's payloads are a
	// few kilobytes; a block_actions payload with a full message stays far
	// below this.
	maxBodyBytes = 1 << 20

	headerSignature  = "X-Slack-Signature"
	headerTimestamp  = "X-Slack-Request-Timestamp"
	headerRetryNum   = "X-Slack-Retry-Num"
	headerRetryWhy   = "X-Slack-Retry-Reason"
	signatureVersion = "v0"
)

// Reasons a request is refused before anything in it is looked at.
var (
	errNoSecret         = errors.New("adapters/slack: no signing secret configured")
	errMissingHeaders   = errors.New("adapters/slack: missing signature headers")
	errStaleTimestamp   = errors.New("adapters/slack: request timestamp outside the 5-minute window")
	errInvalidSignature = errors.New("adapters/slack: invalid request signature")
	errBodyTooLarge     = errors.New("adapters/slack: request body too large")
)

// Media types Slack sends: JSON for Events API deliveries, a form for slash
// commands and interactivity.
const (
	mediaJSON = "application/json"
	mediaForm = "application/x-www-form-urlencoded"
)

// slackResponseHost serves every response_url Slack hands out.
const slackResponseHost = "hooks.slack.com"

// verifySignature checks Slack's v0 signature: HMAC-SHA256 with the signing
// secret over "v0:<timestamp>:<body>", hex-encoded after "v0=", compared in
// constant time, with the timestamp within five minutes of now.
func verifySignature(secret string, h http.Header, body []byte, now time.Time) error {
	if secret == "" {
		return errNoSecret
	}
	ts, sig := h.Get(headerTimestamp), h.Get(headerSignature)
	if ts == "" || sig == "" {
		return errMissingHeaders
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errMissingHeaders
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxSignatureAge || d < -maxSignatureAge {
		return errStaleTimestamp
	}
	hexSig, ok := strings.CutPrefix(sig, signatureVersion+"=")
	if !ok {
		return errInvalidSignature
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil || len(got) != sha256.Size {
		return errInvalidSignature
	}
	if !hmac.Equal(got, sign(secret, ts, body)) {
		return errInvalidSignature
	}
	return nil
}

// sign computes the v0 HMAC of a request.
func sign(secret, ts string, body []byte) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(signatureVersion + ":" + ts + ":"))
	mac.Write(body)
	return mac.Sum(nil)
}

// readBody reads at most maxBodyBytes of a request body.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("adapters/slack: read body: %w", err)
	}
	if len(body) > maxBodyBytes {
		return nil, errBodyTooLarge
	}
	return body, nil
}

// verified reads and verifies a request of the given media type; on
// failure it has written the response (405, 415, 401, 400 or 413) and
// returns false. Nothing is parsed before the signature holds.
func (a *Adapter) verified(w http.ResponseWriter, r *http.Request, endpoint, media string) ([]byte, bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return nil, false
	}
	if got, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || got != media {
		a.metrics.refused(endpoint)
		http.Error(w, "unsupported content type: want "+media, http.StatusUnsupportedMediaType)
		return nil, false
	}
	body, err := readBody(r)
	switch {
	case errors.Is(err, errBodyTooLarge):
		http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
		return nil, false
	case err != nil:
		http.Error(w, "bad request", http.StatusBadRequest)
		return nil, false
	}
	if err := verifySignature(a.cfg.SigningSecret, r.Header, body, a.now()); err != nil {
		a.log.Warn("request refused", "platform", "slack", "stage", "verify", "endpoint", endpoint, "err", err)
		a.metrics.refused(endpoint)
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return nil, false
	}
	return body, true
}

// replayKey names a signed request by its signature's input, so a replay of
// the very same request (within the 5-minute window) is recognised when it
// carries no event_id or trigger_id to de-duplicate on.
func replayKey(h http.Header, body []byte) string {
	sum := sha256.New()
	sum.Write([]byte(h.Get(headerTimestamp) + ":"))
	sum.Write(body)
	return "signed:" + hex.EncodeToString(sum.Sum(nil))[:32]
}

// payloadKey names a Socket Mode payload by its content, for the same use.
func payloadKey(payload []byte) string {
	sum := sha256.Sum256(payload)
	return "payload:" + hex.EncodeToString(sum[:])[:32]
}

// allowedResponseURL reports whether a response_url points at Slack: https
// on hooks.slack.com, the configured Web API base (a proxy, or a test
// server), or a host the configuration names. Anything else would make cew
// post an answer wherever a request says.
func (a *Adapter) allowedResponseURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	if u.Scheme == "https" && strings.EqualFold(u.Host, slackResponseHost) {
		return true
	}
	if a.cfg.APIURL != "" {
		if base, err := url.Parse(a.cfg.APIURL); err == nil && base.Scheme == u.Scheme && strings.EqualFold(base.Host, u.Host) {
			return true
		}
	}
	for _, h := range a.cfg.ResponseURLHosts {
		if strings.EqualFold(h, u.Host) || (!strings.Contains(h, ":") && strings.EqualFold(h, u.Hostname())) {
			return true
		}
	}
	return false
}

// responseURL returns raw when cew may post to it, else "" (the answer
// then goes through the Web API), logging and counting the refusal.
func (a *Adapter) responseURL(raw, endpoint string) string {
	if raw == "" || a.allowedResponseURL(raw) {
		return raw
	}
	a.metrics.refused("response_url")
	host := ""
	if u, err := url.Parse(raw); err == nil {
		host = u.Host
	}
	a.log.Warn("response_url not on Slack's hosts; ignored", "platform", "slack", "stage", "verify", "endpoint", endpoint, "host", host)
	return ""
}
