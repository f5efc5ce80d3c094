package slack

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRequests sends any body to each endpoint, signed or not, with any
// media type: never a panic, never a 5xx other than "shutting down", and
// nothing unsigned gets past the check.
func FuzzRequests(f *testing.F) {
	for _, s := range []struct {
		endpoint uint8
		body     string
		signed   bool
		ct       string
	}{
		{0, string(readTestdata(f, "events/app_mention.json")), true, mediaJSON},
		{0, string(readTestdata(f, "events/url_verification.json")), true, mediaJSON},
		{0, `{"type":"event_callback","event":{"type":"message","channel_type":"im","user":"U1","text":"hi","channel":"D1"}}`, true, mediaJSON},
		{1, strings.TrimSpace(string(readTestdata(f, "commands/question.form"))), true, mediaForm},
		{2, "payload=" + string(readTestdata(f, "interactivity/share.json")), true, mediaForm},
		{0, `{"type":"event_callback"`, false, mediaJSON},
		{1, "command=%2Fcew&text=%ZZ", true, mediaForm},
		{2, "payload=%7B%22type%22%3A%22block_actions%22%2C%22actions%22%3A%5Bnull%5D%7D", true, mediaForm},
	} {
		f.Add(s.endpoint, []byte(s.body), s.signed, s.ct, int64(0))
	}
	env := newTestEnv(f, newFakeBot(), func(c *Config) { c.QueueSize = 8 })
	paths := []string{"/slack/events", "/slack/commands", "/slack/interactivity"}
	handlers := []http.HandlerFunc{env.a.handleEvents, env.a.handleCommands, env.a.handleInteractivity}
	f.Fuzz(func(t *testing.T, endpoint uint8, body []byte, signed bool, contentType string, skew int64) {
		i := int(endpoint) % len(paths)
		at := testNow.Add(time.Duration(skew%int64(10*time.Minute)) * time.Nanosecond)
		secret := testSecret
		if !signed {
			secret = "not-the-signing-secret"
		}
		req := signedRequest(t, "http://cew.test", paths[i], contentType, body, secret, at)
		w := httptest.NewRecorder()
		handlers[i](w, req)
		switch code := w.Code; {
		case code >= 500 && code != http.StatusServiceUnavailable:
			t.Fatalf("%s answered %d", paths[i], code)
		case !signed && code == http.StatusOK:
			t.Fatalf("%s accepted a request signed with another secret", paths[i])
		}
	})
}
