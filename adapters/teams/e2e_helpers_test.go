package teams

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

const (
	testAppID  = "00000000-aaaa-bbbb-cccc-000000000001"
	testTenant = "acme"
	testEntra  = "72f988bf-0000-0000-0000-000000000001"
	testBotID  = "28:" + testAppID
)

var testNow = time.Date(2025, 6, 2, 9, 30, 0, 0, time.UTC)

// signingKey is an RSA key published in the local JWKS under kid.
type signingKey struct {
	kid          string
	priv         *rsa.PrivateKey
	endorsements []string
}

var (
	keyOnce sync.Once
	keyPool []*rsa.PrivateKey
)

// testKeys are generated once per test binary: RSA generation is slow
// under the race detector.
func testKey(i int) *rsa.PrivateKey {
	keyOnce.Do(func() {
		for range 3 {
			k, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				panic(err)
			}
			keyPool = append(keyPool, k)
		}
	})
	return keyPool[i]
}

func jwksOf(keys ...signingKey) json.RawMessage {
	type jwk struct {
		Kty          string   `json:"kty"`
		Use          string   `json:"use"`
		Kid          string   `json:"kid"`
		N            string   `json:"n"`
		E            string   `json:"e"`
		Endorsements []string `json:"endorsements,omitempty"`
	}
	var set struct {
		Keys []jwk `json:"keys"`
	}
	for _, k := range keys {
		set.Keys = append(set.Keys, jwk{
			Kty: "RSA", Use: "sig", Kid: k.kid, Endorsements: k.endorsements,
			N: base64.RawURLEncoding.EncodeToString(k.priv.N.Bytes()),
			E: base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.priv.E)).Bytes()),
		})
	}
	data, _ := json.Marshal(set)
	return data
}

// mint signs a channel token for serviceURL at testNow.
func mint(t testing.TB, k signingKey, serviceURL string, tweak func(jwt.MapClaims)) string {
	t.Helper()
	claims := jwt.MapClaims{
		"iss": channelIssuer, "aud": testAppID, "serviceurl": serviceURL,
		"nbf": testNow.Add(-time.Minute).Unix(), "exp": testNow.Add(time.Hour).Unix(),
	}
	if tweak != nil {
		tweak(claims)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	tok.Header["kid"] = k.kid
	s, err := tok.SignedString(k.priv)
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + s
}

// recorded is one request the fake connector received.
type recorded struct {
	Path     string
	Auth     string
	Activity Activity
	Raw      string
	Status   int
}

// fakeConnector records activities; script lets a test answer a call
// with a status (429 with Retry-After, 500, …) before succeeding.
type fakeConnector struct {
	srv *httptest.Server

	mu     sync.Mutex
	calls  []recorded
	script []int // statuses for the next calls; 0 or empty = 201
	down   bool  // every call answers 503 (an outage)
}

func (f *fakeConnector) setDown(down bool) {
	f.mu.Lock()
	f.down = down
	f.mu.Unlock()
}

func newFakeConnector(t testing.TB) *fakeConnector {
	fc := &fakeConnector{}
	fc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var act Activity
		_ = json.Unmarshal(body, &act)
		fc.mu.Lock()
		status := http.StatusCreated
		if len(fc.script) > 0 {
			if fc.script[0] != 0 {
				status = fc.script[0]
			}
			fc.script = fc.script[1:]
		}
		if fc.down {
			status = http.StatusServiceUnavailable
		}
		fc.calls = append(fc.calls, recorded{Path: r.URL.EscapedPath(), Auth: r.Header.Get("Authorization"), Activity: act, Raw: string(body), Status: status})
		fc.mu.Unlock()
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"id":"reply-1"}`))
	}))
	t.Cleanup(fc.srv.Close)
	return fc
}

func (f *fakeConnector) url() string { return f.srv.URL + "/" }

func (f *fakeConnector) all() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.calls...)
}

// replies are the calls that posted a message (not typing).
func (f *fakeConnector) replies() []recorded {
	var out []recorded
	for _, c := range f.all() {
		if c.Activity.Type == "message" {
			out = append(out, c)
		}
	}
	return out
}

// fakeTokens is a local token endpoint.
type fakeTokens struct {
	srv    *httptest.Server
	mu     sync.Mutex
	status int
	calls  int
	forms  []string
}

func newFakeTokens(t testing.TB) *fakeTokens {
	ft := &fakeTokens{status: http.StatusOK}
	ft.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		ft.mu.Lock()
		ft.calls++
		ft.forms = append(ft.forms, r.PostForm.Get("grant_type")+" "+r.PostForm.Get("scope")+" "+r.PostForm.Get("client_id"))
		status := ft.status
		ft.mu.Unlock()
		if status != http.StatusOK {
			http.Error(w, `{"error":"invalid_client"}`, status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"token_type":"Bearer","expires_in":3600,"access_token":"bot-token-1"}`))
	}))
	t.Cleanup(ft.srv.Close)
	return ft
}

// fakeBot answers from a script and records what it was asked.
type fakeBot struct {
	mu       sync.Mutex
	queries  []bot.Query
	feedback []bot.Feedback
	answer   func(q bot.Query) answer.Answer
	dedupe   map[string]bool
}

func newFakeBot() *fakeBot {
	return &fakeBot{dedupe: map[string]bool{}, answer: func(q bot.Query) answer.Answer { return answeredFixture("ans-1", q.Text) }}
}

func (b *fakeBot) Handle(_ context.Context, q bot.Query) (answer.Answer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if q.EventID != "" && b.dedupe[q.EventID] {
		return answer.Answer{}, bot.ErrDuplicate
	}
	b.dedupe[q.EventID] = true
	b.queries = append(b.queries, q)
	return b.answer(q), nil
}

func (b *fakeBot) StatusLookup(_ context.Context, q bot.Query) (answer.Answer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.queries = append(b.queries, q)
	return statusFixture(), nil
}

func (b *fakeBot) RecordFeedback(_ context.Context, f bot.Feedback) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.feedback = append(b.feedback, f)
	return nil
}

func (b *fakeBot) asked() []bot.Query {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bot.Query(nil), b.queries...)
}

func (b *fakeBot) votes() []bot.Feedback {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bot.Feedback(nil), b.feedback...)
}

// logBuffer collects log lines for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// testEnv is the adapter on an HTTP server with a local JWKS, token
// endpoint and connector.
type testEnv struct {
	a         *Adapter
	srv       *httptest.Server
	keys      *keyServer
	key       signingKey
	connector *fakeConnector
	tokens    *fakeTokens
	bot       *fakeBot
	logs      *logBuffer
	waits     chan time.Duration
	now       *clock
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestEnv(t testing.TB, tweak func(*Config)) *testEnv {
	t.Helper()
	env := &testEnv{
		key:       signingKey{kid: "key-1", priv: testKey(0), endorsements: []string{"msteams"}},
		connector: newFakeConnector(t),
		tokens:    newFakeTokens(t),
		bot:       newFakeBot(),
		logs:      &logBuffer{},
		waits:     make(chan time.Duration, 100),
		now:       &clock{t: testNow},
	}
	env.keys = newKeyServer(t, jwksOf(env.key))
	cfg := Config{
		AppID: testAppID, AppPassword: "test-app-password", OpenIDMetadataURL: env.keys.metadataURL(),
		TokenURL: env.tokens.srv.URL + "/token", DefaultTenant: testTenant, Workers: 2, QueueSize: 64,
		Logger: slog.New(slog.NewTextHandler(env.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:    env.now.Now,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	a, err := New(cfg, env.bot)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if c, ok := a.deliver.(*connector); ok {
		c.sleep = func(ctx context.Context, d time.Duration) error {
			select {
			case env.waits <- d:
			default:
			}
			return ctx.Err()
		}
	}
	env.a = a
	mux := http.NewServeMux()
	a.Routes(mux)
	env.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		env.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = a.Shutdown(ctx)
	})
	return env
}

// post sends an activity with a token minted for its serviceUrl.
func (e *testEnv) post(t testing.TB, act Activity) (int, string) {
	t.Helper()
	return e.postWith(t, act, mint(t, e.key, act.ServiceURL, nil))
}

func (e *testEnv) postWith(t testing.TB, act Activity, authorization string) (int, string) {
	t.Helper()
	body, err := json.Marshal(act)
	if err != nil {
		t.Fatal(err)
	}
	return e.postRaw(t, body, authorization)
}

func (e *testEnv) postRaw(t testing.TB, body []byte, authorization string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/api/messages", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// drain waits for every queued and running job.
func (e *testEnv) drain(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.a.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// activity builds a message from a user in a conversation of kind
// ("personal", "channel", "groupChat").
func (e *testEnv) activity(id, kind, text string) Activity {
	conv := &ConversationAccount{ID: "a:1personal-chat-id", ConversationType: kind, TenantID: testEntra}
	if kind != "personal" {
		conv.ID = "19:general@thread.tacv2;messageid=1717000000000"
		conv.IsGroup = true
	}
	return Activity{
		Type: "message", ID: id, ServiceURL: e.connector.url(), ChannelID: "msteams",
		From:         &ChannelAccount{ID: "29:user-1", Name: "Dana Engineer", AADObjectID: "aad-user-1"},
		Recipient:    &ChannelAccount{ID: testBotID, Name: "cew"},
		Conversation: conv, Text: text,
		ChannelData: json.RawMessage(fmt.Sprintf(`{"tenant":{"id":%q}}`, testEntra)),
	}
}

func mention(text string) Entity {
	return Entity{Type: "mention", Mentioned: &ChannelAccount{ID: testBotID, Name: "cew"}, Text: text}
}

func answeredFixture(id, question string) answer.Answer {
	return answer.Answer{
		ID: id, Status: answer.StatusAnswered, Intent: "technical_value",
		Answer: "The minimum trench depth for DC cables is 800 mm from finished ground level [S1].",
		Sources: []answer.Source{{
			DocID: "277-007-d-c-40327", DocName: "277-007-D-C-40327 — Trenches crossing layout", Revision: "03",
			Page: 6, Section: "4.2 Cable trenches", DriveLink: "https://drive.google.com/file/d/abc/view",
			Snippet: "DC cables shall be laid at a minimum depth of 800 mm from finished ground level.", Score: 0.89,
			DocNumber: "277-007-D-C-40327", Title: "Trenches crossing layout",
		}},
		Confidence: answer.Confidence{Level: answer.LevelHigh, Score: 0.86, Reason: "1 source, every statement cited"},
		TimingsMS:  map[string]float64{}, Question: question, StandaloneQuestion: question,
	}
}

func statusFixture() answer.Answer {
	return answer.Answer{
		ID: "status-1", Status: answer.StatusAnswered, Intent: answer.IntentDocumentStatus,
		Answer: "277-007-D-C-40327 — Trenches crossing layout is at revision 03, status IFC [S1]",
		Sources: []answer.Source{{
			DocID: "277-007-d-c-40327", DocName: "277-007-D-C-40327 — Trenches crossing layout", Revision: "03",
			DriveLink: "https://drive.google.com/file/d/abc/view", DocNumber: "277-007-D-C-40327", Title: "Trenches crossing layout",
			Snippet: "277-007-D-C-40327 — Trenches crossing layout is at revision 03, status IFC, dated 2024-03-01.",
		}},
		Confidence: answer.Confidence{Level: answer.LevelHigh, Score: 1, Reason: "read from the document register"},
		TimingsMS:  map[string]float64{},
	}
}

// cardOf returns the Adaptive Card JSON a reply carried.
func cardOf(t testing.TB, r recorded) string {
	t.Helper()
	var raw struct {
		Attachments []struct {
			ContentType string          `json:"contentType"`
			Content     json.RawMessage `json:"content"`
		} `json:"attachments"`
	}
	if err := json.Unmarshal([]byte(r.Raw), &raw); err != nil || len(raw.Attachments) != 1 || raw.Attachments[0].ContentType != contentTypeAdaptiveCard {
		t.Fatalf("reply without one Adaptive Card: %s", r.Raw)
	}
	return readable(t, raw.Attachments[0].Content)
}

// readable re-encodes JSON without escaping <, > and &.
func readable(t testing.TB, data []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func contains(s string, parts ...string) error {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return fmt.Errorf("lacks %q in %s", p, s)
		}
	}
	return nil
}
