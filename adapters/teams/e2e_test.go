package teams

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestPersonalMessageAnsweredWithCard(t *testing.T) {
	env := newTestEnv(t, nil)
	code, _ := env.post(t, env.activity("act-1", "personal", "What is the minimum trench depth for DC cables?"))
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	env.drain(t)
	calls := env.connector.all()
	if len(calls) != 2 || calls[0].Activity.Type != "typing" || calls[1].Activity.Type != "message" {
		t.Fatalf("want typing then the answer, got %+v", calls)
	}
	reply := calls[1]
	if reply.Path != "/v3/conversations/a:1personal-chat-id/activities/act-1" {
		t.Errorf("reply path %s", reply.Path)
	}
	if reply.Auth != "Bearer bot-token-1" {
		t.Errorf("reply authorization %q", reply.Auth)
	}
	if reply.Activity.ReplyToID != "act-1" || reply.Activity.From.ID != testBotID || reply.Activity.Recipient.ID != "29:user-1" {
		t.Errorf("reply addressing %+v", reply.Activity)
	}
	card := cardOf(t, reply)
	if err := contains(card, "800 mm from finished ground level", "[S1] 277-007-D-C-40327", "Rev 03 · page 6 · section 4.2 Cable trenches",
		`"Action.OpenUrl"`, "https://drive.google.com/file/d/abc/view", "Open in Drive", `"answer_id":"ans-1"`, `"vote":"up"`); err != nil {
		t.Error(err)
	}
	q := env.bot.asked()
	if len(q) != 1 || q[0].Text != "What is the minimum trench depth for DC cables?" || q[0].Tenant != testTenant ||
		q[0].Platform != "teams" || q[0].User != "aad-user-1" || q[0].EventID != "act-1" {
		t.Errorf("bot asked %+v", q)
	}
	env.tokens.mu.Lock()
	defer env.tokens.mu.Unlock()
	if env.tokens.calls != 1 || env.tokens.forms[0] != "client_credentials https://api.botframework.com/.default "+testAppID {
		t.Errorf("token calls %d %q (one cached token for typing and reply)", env.tokens.calls, env.tokens.forms)
	}
}

func TestChannelMessageNeedsMention(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		entities []Entity
		want     string // "" = ignored
	}{
		{"no mention ignored", "What is the trench depth?", nil, ""},
		{"mention of someone else ignored", "<at>Sam</at> what is the trench depth?",
			[]Entity{{Type: "mention", Mentioned: &ChannelAccount{ID: "29:sam"}, Text: "<at>Sam</at>"}}, ""},
		{"mention answered, markup and entities cleaned", "<at>cew</at> What&#39;s the depth for <at>Sam</at>&nbsp;&amp; DC cables?",
			[]Entity{mention("<at>cew</at>"), {Type: "mention", Mentioned: &ChannelAccount{ID: "29:sam"}, Text: "<at>Sam</at>"}},
			"What's the depth for Sam & DC cables?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newTestEnv(t, nil)
			act := env.activity("act-1", "channel", tt.text)
			act.Entities = tt.entities
			if code, _ := env.post(t, act); code != http.StatusOK {
				t.Fatalf("status %d", code)
			}
			env.drain(t)
			q := env.bot.asked()
			if tt.want == "" {
				if len(q) != 0 || len(env.connector.all()) != 0 {
					t.Errorf("answered an unaddressed message: %+v", q)
				}
				return
			}
			if len(q) != 1 || q[0].Text != tt.want {
				t.Fatalf("bot asked %+v, want %q", q, tt.want)
			}
			if q[0].Channel != "19:general@thread.tacv2" || q[0].Thread != "19:general@thread.tacv2;messageid=1717000000000" {
				t.Errorf("session keys %q %q", q[0].Channel, q[0].Thread)
			}
			replies := env.connector.replies()
			if len(replies) != 1 || replies[0].Path != "/v3/conversations/19:general@thread.tacv2%3Bmessageid=1717000000000/activities/act-1" {
				t.Errorf("replies %+v", replies)
			}
		})
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
		asks       int
	}{
		{"help", "help", []string{"How to use cew", "status <document>"}, 0},
		{"status usage", "status", []string{"Usage: status <document number or title>"}, 0},
		{"status lookup", "status 277-007-D-C-40327", []string{"Document status", "Trenches crossing layout", "Open in Drive"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newTestEnv(t, nil)
			env.post(t, env.activity("act-1", "personal", tt.text))
			env.drain(t)
			replies := env.connector.replies()
			if len(replies) != 1 {
				t.Fatalf("replies %d", len(replies))
			}
			if err := contains(cardOf(t, replies[0]), tt.want...); err != nil {
				t.Error(err)
			}
			if got := len(env.bot.asked()); got != tt.asks {
				t.Errorf("bot asked %d times, want %d", got, tt.asks)
			}
			if tt.asks == 1 && env.bot.asked()[0].Text != "277-007-D-C-40327" {
				t.Errorf("status of %q", env.bot.asked()[0].Text)
			}
		})
	}
}

func TestWelcomeOnce(t *testing.T) {
	env := newTestEnv(t, nil)
	update := func(id string, members ...string) Activity {
		act := env.activity(id, "personal", "")
		act.Type = "conversationUpdate"
		for _, m := range members {
			act.MembersAdded = append(act.MembersAdded, ChannelAccount{ID: m})
		}
		return act
	}
	env.post(t, update("cu-1", "29:user-1")) // someone else joined: no welcome
	env.post(t, update("cu-2", testBotID))
	env.post(t, update("cu-3", testBotID)) // added again (re-install): still once
	env.drain(t)
	replies := env.connector.replies()
	if len(replies) != 1 {
		t.Fatalf("welcomes %d, want 1", len(replies))
	}
	if replies[0].Path != "/v3/conversations/a:1personal-chat-id/activities" {
		t.Errorf("welcome is a new message, got path %s", replies[0].Path)
	}
	if err := contains(cardOf(t, replies[0]), "Hello, I'm cew", "status <document>"); err != nil {
		t.Error(err)
	}
	if strings.Contains(cardOf(t, replies[0]), "/cew") {
		t.Error("Teams welcome speaks Slack")
	}
}

func TestFeedback(t *testing.T) {
	t.Run("message with value", func(t *testing.T) {
		env := newTestEnv(t, nil)
		act := env.activity("act-2", "personal", "")
		act.Value = json.RawMessage(`{"cew":"feedback","answer_id":"ans-1","vote":"down"}`)
		env.post(t, act)
		env.drain(t)
		v := env.bot.votes()
		if len(v) != 1 || v[0].AnswerID != "ans-1" || v[0].Up || v[0].Platform != "teams" || v[0].Tenant != testTenant || v[0].User != "aad-user-1" {
			t.Fatalf("votes %+v", v)
		}
		if r := env.connector.replies(); len(r) != 1 || !strings.Contains(cardOf(t, r[0]), "👎 on this answer was recorded") {
			t.Errorf("receipt %+v", r)
		}
	})
	t.Run("invoke adaptiveCard/action", func(t *testing.T) {
		env := newTestEnv(t, nil)
		act := env.activity("act-3", "channel", "")
		act.Type, act.Name = "invoke", "adaptiveCard/action"
		act.Value = json.RawMessage(`{"action":{"type":"Action.Execute","data":{"cew":"feedback","answer_id":"ans-9","vote":"up"}}}`)
		code, body := env.post(t, act)
		if code != http.StatusOK || !strings.Contains(body, `"statusCode":200`) || !strings.Contains(body, "👍 on this answer was recorded") {
			t.Errorf("invoke response %d %s", code, body)
		}
		env.drain(t)
		if v := env.bot.votes(); len(v) != 1 || v[0].AnswerID != "ans-9" || !v[0].Up {
			t.Errorf("votes %+v", v)
		}
	})
	t.Run("values that are not cew's", func(t *testing.T) {
		env := newTestEnv(t, nil)
		for i, v := range []string{`"just a string"`, `[1,2]`, `{"cew":"feedback"}`, `{"other":"app"}`, `null`} {
			act := env.activity("act-v"+string(rune('a'+i)), "personal", "")
			act.Value = json.RawMessage(v)
			if code, _ := env.post(t, act); code != http.StatusOK {
				t.Errorf("%s: status %d", v, code)
			}
		}
		env.drain(t)
		if len(env.bot.votes()) != 0 || len(env.bot.asked()) != 0 {
			t.Errorf("acted on foreign values")
		}
	})
}

func TestConnectorRateLimitThenSuccess(t *testing.T) {
	env := newTestEnv(t, nil)
	env.connector.script = []int{0, http.StatusTooManyRequests, http.StatusBadGateway} // typing ok, reply 429, 502, then ok
	env.post(t, env.activity("act-1", "personal", "What is the trench depth?"))
	env.drain(t)
	replies := env.connector.replies()
	if len(replies) != 3 {
		t.Fatalf("reply attempts %d, want 3", len(replies))
	}
	if w := <-env.waits; w != 2*time.Second {
		t.Errorf("first wait %v, want Retry-After 2s", w)
	}
	if !strings.Contains(env.logs.String(), "kind=rate_limited") || strings.Contains(env.logs.String(), "reply not delivered") {
		t.Errorf("logs:\n%s", env.logs.String())
	}
}

func TestTokenEndpointRefusal(t *testing.T) {
	env := newTestEnv(t, nil)
	env.tokens.status = http.StatusUnauthorized
	env.post(t, env.activity("act-1", "personal", "What is the trench depth?"))
	env.drain(t)
	if calls := env.connector.all(); len(calls) != 0 {
		t.Errorf("connector called without a token: %+v", calls)
	}
	logs := env.logs.String()
	if err := contains(logs, "reply not delivered", "token endpoint answered 401"); err != nil {
		t.Error(err)
	}
	if strings.Contains(logs, "test-app-password") {
		t.Error("secret in logs")
	}
	if len(env.bot.asked()) != 1 {
		t.Error("question not answered (and so not recorded) when delivery fails")
	}
}

func TestDuplicateAnsweredOnce(t *testing.T) {
	env := newTestEnv(t, nil)
	act := env.activity("act-1", "personal", "What is the trench depth?")
	for range 3 {
		if code, _ := env.post(t, act); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
	}
	env.drain(t)
	if n := len(env.connector.replies()); n != 1 {
		t.Errorf("replies %d, want 1", n)
	}
	if n := len(env.bot.asked()); n != 1 {
		t.Errorf("asked %d times", n)
	}
}

func TestUnknownTenantRefusedPolitely(t *testing.T) {
	env := newTestEnv(t, func(c *Config) { c.Tenants = map[string]string{"another-entra-tenant": "beta"} })
	env.post(t, env.activity("act-1", "personal", "What is the trench depth?"))
	env.drain(t)
	if len(env.bot.asked()) != 0 {
		t.Error("answered for an unmapped organisation")
	}
	r := env.connector.replies()
	if len(r) != 1 || !strings.Contains(cardOf(t, r[0]), "not connected to a cew project") {
		t.Errorf("refusal %+v", r)
	}
}

func TestAuthBeforeAnything(t *testing.T) {
	env := newTestEnv(t, func(c *Config) { c.MaxBodyBytes = 4096 })
	valid := env.activity("act-1", "personal", "What is the trench depth?")
	other := signingKey{kid: "key-1", priv: testKey(1), endorsements: []string{"msteams"}}
	big := env.activity("act-big", "personal", strings.Repeat("x", 5000))
	tests := []struct {
		name string
		send func() int
		want int
	}{
		{"missing header", func() int { c, _ := env.postWith(t, valid, ""); return c }, http.StatusUnauthorized},
		{"garbage header", func() int { c, _ := env.postWith(t, valid, "Bearer not.a.jwt"); return c }, http.StatusUnauthorized},
		{"basic scheme", func() int { c, _ := env.postWith(t, valid, "Basic dXNlcjpwYXNz"); return c }, http.StatusUnauthorized},
		{"forged signature", func() int { c, _ := env.postWith(t, valid, mint(t, other, valid.ServiceURL, nil)); return c }, http.StatusUnauthorized},
		{"expired", func() int {
			c, _ := env.postWith(t, valid, mint(t, env.key, valid.ServiceURL, func(m jwt.MapClaims) { m["exp"] = testNow.Add(-time.Hour).Unix() }))
			return c
		}, http.StatusUnauthorized},
		{"token for another serviceUrl", func() int {
			c, _ := env.postWith(t, valid, mint(t, env.key, "https://attacker.example/", nil))
			return c
		}, http.StatusUnauthorized},
		{"malformed body", func() int { c, _ := env.postRaw(t, []byte("{"), mint(t, env.key, valid.ServiceURL, nil)); return c }, http.StatusBadRequest},
		{"body too large", func() int { c, _ := env.post(t, big); return c }, http.StatusRequestEntityTooLarge},
		{"body too large without a token is 401", func() int { c, _ := env.postWith(t, big, ""); return c }, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.send(); got != tt.want {
				t.Errorf("status %d, want %d", got, tt.want)
			}
		})
	}
	env.drain(t)
	if len(env.bot.asked()) != 0 || len(env.connector.all()) != 0 {
		t.Errorf("refused requests were answered: %+v", env.bot.asked())
	}
}

func TestKeysEndpointDown(t *testing.T) {
	env := newTestEnv(t, nil)
	env.keys.setDown(true)
	act := env.activity("act-1", "personal", "What is the trench depth?")
	code, _ := env.post(t, act)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("status %d with the keys endpoint down, want 503", code)
	}
	// Within keysRetry no new fetch is tried.
	hits := env.keys.metadataHits.Load()
	if code, _ := env.post(t, act); code != http.StatusServiceUnavailable || env.keys.metadataHits.Load() != hits {
		t.Errorf("second request: status %d, fetches %d→%d", code, hits, env.keys.metadataHits.Load())
	}
	env.keys.setDown(false)
	env.now.advance(keysRetry)
	if code, _ := env.post(t, act); code != http.StatusOK {
		t.Errorf("after recovery: status %d", code)
	}
	env.drain(t)
	if len(env.bot.asked()) != 1 {
		t.Errorf("asked %d times", len(env.bot.asked()))
	}
}

func TestKeyRotation(t *testing.T) {
	env := newTestEnv(t, nil)
	act := env.activity("act-1", "personal", "What is the trench depth?")
	if code, _ := env.post(t, act); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	rotated := signingKey{kid: "key-2", priv: testKey(2), endorsements: []string{"msteams"}}
	act2 := env.activity("act-2", "personal", "And for AC cables?")
	// Not published yet: refused, and a second try within a minute does
	// not fetch again.
	if code, _ := env.postWith(t, act2, mint(t, rotated, act2.ServiceURL, nil)); code != http.StatusUnauthorized {
		t.Errorf("unpublished key: status %d", code)
	}
	fetches := env.keys.jwksHits.Load()
	if code, _ := env.postWith(t, act2, mint(t, rotated, act2.ServiceURL, nil)); code != http.StatusUnauthorized || env.keys.jwksHits.Load() != fetches {
		t.Errorf("refetched within a minute: %d→%d", fetches, env.keys.jwksHits.Load())
	}
	env.keys.setJWKS(jwksOf(env.key, rotated))
	env.now.advance(unknownKeyRefresh)
	if code, _ := env.postWith(t, act2, mint(t, rotated, act2.ServiceURL, nil)); code != http.StatusOK {
		t.Errorf("new kid after refresh: status %d", code)
	}
	env.drain(t)
	if len(env.bot.asked()) != 2 {
		t.Errorf("asked %d times, want 2", len(env.bot.asked()))
	}
}

func TestConfigProblems(t *testing.T) {
	_, err := New(Config{OpenIDMetadataURL: "ftp://x"}, nil)
	if err == nil {
		t.Fatal("empty config accepted")
	}
	if err := contains(err.Error(), "MICROSOFT_APP_ID", "MICROSOFT_APP_PASSWORD", "OpenIDMetadataURL", "a bot is required"); err != nil {
		t.Error(err)
	}
}
