package slack

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slacktest"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// Identities the test workspace uses; the payloads in testdata carry them.
const (
	testSecret  = "8f742231b10e8888abcd99yyyzzz85a5"
	testBotUser = "U0LAN0Z89"
	testBotID   = "B0LAN0Z89"
	testTeam    = "T061EG9R6"
	testChannel = "C0LAN2Q65"
	testUser    = "U061F7AUR"
	testTenant  = "solar-farm"
)

// testNow is the fixed clock of the tests; requests are signed with it.
var testNow = time.Unix(1700000000, 0)

// apiCall is one Web API call the fake Slack received.
type apiCall struct {
	Method string
	Form   url.Values
	// Failed: the fake answered with a failure; TS: the message ts it
	// answered with otherwise.
	Failed bool
	TS     string
}

// blocks decodes the call's blocks with slack-go, as Slack would read them.
func (c apiCall) blocks(t *testing.T) []slackapi.Block {
	t.Helper()
	raw := c.Form.Get("blocks")
	if raw == "" {
		return nil
	}
	var b slackapi.Blocks
	if err := json.Unmarshal([]byte(raw), &b); err != nil {
		t.Fatalf("%s: blocks do not decode: %v", c.Method, err)
	}
	return b.BlockSet
}

// apiFailure is a scripted failure of the next call to a method.
type apiFailure struct {
	status     int    // HTTP status; 0 = 200 with ok:false
	retryAfter string // Retry-After header
	slackError string // the "error" of an ok:false response
	succeed    bool   // the call succeeds: lets a later call fail
}

// fakeSlack is slack-go's slacktest server with the chat methods recorded,
// so tests assert on what the adapter posted.
type fakeSlack struct {
	srv *slacktest.Server

	mu       sync.Mutex
	calls    []apiCall
	failures map[string][]apiFailure
	nextTS   int
	changed  chan struct{} // closed and replaced on every call
	// down makes every chat.* call answer 500 (an outage).
	down bool
}

// setDown starts or ends an outage of the chat methods.
func (fs *fakeSlack) setDown(down bool) {
	fs.mu.Lock()
	fs.down = down
	fs.mu.Unlock()
}

func newFakeSlack(t testing.TB, extra ...slacktest.Binder) *fakeSlack {
	t.Helper()
	fs := &fakeSlack{failures: map[string][]apiFailure{}, changed: make(chan struct{})}
	// The first handler bound to a path wins: the test's own come first.
	binders := append(extra, func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, `{"ok":true,"url":"https://project.slack.com/","team":"Project","user":"cew","team_id":%q,"user_id":%q,"bot_id":%q}`,
				testTeam, testBotUser, testBotID)
		})
		for _, m := range []string{"chat.postMessage", "chat.update", "chat.postEphemeral", "chat.delete"} {
			c.Handle("/"+m, fs.record(m))
		}
	})
	fs.srv = slacktest.NewTestServer(binders...)
	fs.srv.Start()
	t.Cleanup(fs.srv.Stop)
	return fs
}

func (fs *fakeSlack) url() string { return fs.srv.GetAPIURL() }

func (fs *fakeSlack) record(method string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fs.mu.Lock()
		var fail *apiFailure
		if q := fs.failures[method]; len(q) > 0 {
			fail, fs.failures[method] = &q[0], q[1:]
			if fail.succeed {
				fail = nil
			}
		}
		if fs.down && fail == nil {
			fail = &apiFailure{status: http.StatusInternalServerError}
		}
		fs.nextTS++
		ts := fmt.Sprintf("1700000000.%06d", fs.nextTS)
		if method == "chat.update" || method == "chat.delete" {
			ts = r.PostForm.Get("ts")
		}
		call := apiCall{Method: method, Form: r.PostForm, Failed: fail != nil}
		if fail == nil {
			call.TS = ts
		}
		fs.calls = append(fs.calls, call)
		close(fs.changed)
		fs.changed = make(chan struct{})
		fs.mu.Unlock()

		w.Header().Set("Content-Type", "application/json")
		switch {
		case fail != nil && fail.status != 0:
			if fail.retryAfter != "" {
				w.Header().Set("Retry-After", fail.retryAfter)
			}
			w.WriteHeader(fail.status)
			return
		case fail != nil:
			fmt.Fprintf(w, `{"ok":false,"error":%q}`, fail.slackError)
			return
		}
		fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":%q,"message_ts":%q}`, r.PostForm.Get("channel"), ts, ts)
	}
}

// fail scripts the next calls to method to fail, in order.
func (fs *fakeSlack) fail(method string, f ...apiFailure) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.failures[method] = append(fs.failures[method], f...)
}

func (fs *fakeSlack) snapshot() ([]apiCall, chan struct{}) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]apiCall(nil), fs.calls...), fs.changed
}

// all returns the calls to the given methods (all methods when none).
func (fs *fakeSlack) all(methods ...string) []apiCall {
	calls, _ := fs.snapshot()
	if len(methods) == 0 {
		return calls
	}
	var out []apiCall
	for _, c := range calls {
		for _, m := range methods {
			if c.Method == m {
				out = append(out, c)
			}
		}
	}
	return out
}

// waitFor blocks until cond holds on the recorded calls. The deadline only
// keeps a broken test from hanging; nothing is measured.
func (fs *fakeSlack) waitFor(t *testing.T, what string, cond func([]apiCall) bool) []apiCall {
	t.Helper()
	if !fs.until(cond) {
		t.Fatalf("timed out waiting for %s; calls: %s", what, describe(fs.all()))
	}
	return fs.all()
}

// until blocks until cond holds on the recorded calls and reports whether
// it did before the (generous) deadline.
func (fs *fakeSlack) until(cond func([]apiCall) bool) bool {
	deadline := time.After(20 * time.Second)
	for {
		calls, changed := fs.snapshot()
		if cond(calls) {
			return true
		}
		select {
		case <-changed:
		case <-deadline:
			return false
		}
	}
}

func describe(calls []apiCall) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "\n  %s channel=%s ts=%s thread_ts=%s text=%q", c.Method, c.Form.Get("channel"),
			c.Form.Get("ts"), c.Form.Get("thread_ts"), c.Form.Get("text"))
	}
	return b.String()
}

func count(calls []apiCall, method string) int {
	n := 0
	for _, c := range calls {
		if c.Method == method {
			n++
		}
	}
	return n
}

// fakeBot behaves like the bot as far as the adapter can tell: it
// de-duplicates event ids, remembers the threads it answered in, records
// feedback, and answers from a script. Handle can be held until released.
type fakeBot struct {
	mu            sync.Mutex
	queries       []bot.Query
	lookups       int // how many of the queries were status lookups
	seen          map[string]bool
	conversations map[string]bool
	feedback      []bot.Feedback

	answer  func(q bot.Query) (answer.Answer, error)
	tokens  []string      // streamed to OnToken before answering
	hold    chan struct{} // when set, Handle waits for it to close
	entered chan bot.Query
}

func newFakeBot() *fakeBot {
	return &fakeBot{
		seen: map[string]bool{}, conversations: map[string]bool{},
		answer: func(q bot.Query) (answer.Answer, error) { return answeredFixture("ans-"+q.EventID, q.Text), nil },
	}
}

func (f *fakeBot) Handle(ctx context.Context, q bot.Query) (answer.Answer, error) {
	f.mu.Lock()
	if q.EventID != "" && f.seen[q.EventID] {
		f.mu.Unlock()
		return answer.Answer{}, bot.ErrDuplicate
	}
	f.seen[q.EventID] = true
	f.queries = append(f.queries, q)
	hold, entered, tokens, answerFn := f.hold, f.entered, f.tokens, f.answer
	f.mu.Unlock()

	if entered != nil {
		entered <- q
	}
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return answer.Answer{ID: "ans-timeout", Status: answer.StatusError,
				Answer: "Sorry, something went wrong while searching the documents. Please try again; if it keeps happening, quote reference ans-timeout."}, ctx.Err()
		}
	}
	for _, tok := range tokens {
		if q.OnToken != nil {
			q.OnToken(tok)
		}
	}
	ans, err := answerFn(q)
	if err == nil {
		f.mu.Lock()
		f.conversations[q.Channel+"/"+q.Thread] = true
		f.mu.Unlock()
	}
	return ans, err
}

func (f *fakeBot) StatusLookup(_ context.Context, q bot.Query) (answer.Answer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries = append(f.queries, q)
	f.lookups++
	return statusFixture(), nil
}

func (f *fakeBot) RecordFeedback(_ context.Context, fb bot.Feedback) error {
	if fb.AnswerID == "" {
		return fmt.Errorf("fake bot: feedback without an answer id")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.feedback = append(f.feedback, fb)
	return nil
}

func (f *fakeBot) InConversation(_ context.Context, q bot.Query) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conversations[q.Channel+"/"+q.Thread]
}

func (f *fakeBot) recorded() []bot.Query {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bot.Query(nil), f.queries...)
}

func (f *fakeBot) votes() []bot.Feedback {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]bot.Feedback(nil), f.feedback...)
}

// testEnv is an adapter wired to a fake Slack and a fake bot, with its
// routes served over real HTTP.
type testEnv struct {
	a     *Adapter
	slack *fakeSlack
	bot   *fakeBot
	srv   *httptest.Server
	waits chan time.Duration // retry waits the adapter asked for
}

func newTestEnv(t testing.TB, b *fakeBot, tweak func(*Config)) *testEnv {
	t.Helper()
	return newTestEnvOn(t, newFakeSlack(t), b, tweak)
}

func newTestEnvOn(t testing.TB, fs *fakeSlack, b *fakeBot, tweak func(*Config)) *testEnv {
	t.Helper()
	cfg := Config{
		BotToken: "xoxb-test", SigningSecret: testSecret, APIURL: fs.url(),
		DefaultTenant: testTenant, Workers: 4, QueueSize: 64, Now: func() time.Time { return testNow },
		DraftInterval: -1,
		// The tests' response_url sinks are local servers.
		ResponseURLHosts: []string{"127.0.0.1"},
	}
	if tweak != nil {
		tweak(&cfg)
	}
	a, err := New(context.Background(), cfg, b)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	env := &testEnv{a: a, slack: fs, bot: b, waits: make(chan time.Duration, 100)}
	a.sleep = func(ctx context.Context, d time.Duration) error {
		select {
		case env.waits <- d:
		default:
		}
		return ctx.Err()
	}
	mux := http.NewServeMux()
	a.Routes(mux)
	env.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		env.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := a.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return env
}

// drain waits for every queued and running job: Shutdown is the barrier.
func (e *testEnv) drain(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.a.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// signedRequest builds a request signed like Slack signs it.
func signedRequest(t testing.TB, target, path, contentType string, body []byte, secret string, at time.Time) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, target+path, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set(headerTimestamp, ts)
	req.Header.Set(headerSignature, "v0="+hex.EncodeToString(sign(secret, ts, body)))
	return req
}

// post sends a signed request and returns the status and body.
func (e *testEnv) post(t testing.TB, path string, body []byte, header http.Header) (int, string) {
	t.Helper()
	ct := "application/json"
	if path != "/slack/events" {
		ct = "application/x-www-form-urlencoded"
	}
	req := signedRequest(t, e.srv.URL, path, ct, body, testSecret, testNow)
	for k, v := range header {
		req.Header[k] = v
	}
	return do(t, e.srv.Client(), req)
}

func do(t testing.TB, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withEventID rewrites a payload's event_id (and its event's ts, so each
// copy is its own message).
func withEventID(t testing.TB, payload []byte, id string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		t.Fatal(err)
	}
	m["event_id"] = id
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// responseSink is a local response_url: it records what is posted to it.
type responseSink struct {
	srv     *httptest.Server
	mu      sync.Mutex
	posts   []slackapi.WebhookMessage
	raw     []string
	changed chan struct{}
}

func newResponseSink(t *testing.T) *responseSink {
	t.Helper()
	s := &responseSink{changed: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m slackapi.WebhookMessage
		if err := json.Unmarshal(body, &m); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.posts = append(s.posts, m)
		s.raw = append(s.raw, string(body))
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *responseSink) rawPosts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.raw...)
}

func (s *responseSink) waitFor(t *testing.T, n int) []slackapi.WebhookMessage {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.mu.Lock()
		posts, changed := append([]slackapi.WebhookMessage(nil), s.posts...), s.changed
		s.mu.Unlock()
		if len(posts) >= n {
			return posts
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %d response_url posts; got %d", n, len(posts))
		}
	}
}

// blocksJSON renders blocks as Slack receives them.
func blocksJSON(t testing.TB, blocks []slackapi.Block) string {
	t.Helper()
	b, err := json.MarshalIndent(blocks, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	// Show "<", ">" and "&" as Slack reads them, not as \u003c; slack-go's
	// own marshalers escape them whatever the encoder is told.
	return htmlUnescaper.Replace(string(b))
}

var htmlUnescaper = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")

// Answer fixtures.

func answeredFixture(id, question string) answer.Answer {
	return answer.Answer{
		ID: id, Status: answer.StatusAnswered, Intent: "technical_value",
		Answer: "The minimum trench depth for DC cables is 800 mm from finished ground level [S1]. " +
			"Cables in the same trench are separated by at least 300 mm [S2].",
		Sources: []answer.Source{
			{
				DocID: "277-007-D-C-40327", DocName: "277-007-D-C-40327 — Trenches crossing layout", Revision: "03",
				Page: 5, Section: "4.2 Cable trenches", DriveLink: "https://drive.google.com/file/d/1AbC/view",
				Snippet: "DC cables shall be laid at a minimum depth of 800 mm from finished ground level.", Score: 0.89,
			},
			{
				DocID: "277-007-S-E-10001", DocName: "277-007-S-E-10001 — Cable schedule", Revision: "B",
				Sheet: "DC cables", Row: 12, DriveLink: "https://drive.google.com/file/d/2DeF/view",
				Snippet: "Separation between cable circuits in the same trench: 300 mm minimum.", Score: 0.74,
			},
		},
		Confidence: confidence("high", 0.86, "2 sources, every statement cited; support 0.91, best passage relevance 0.89"),
		TimingsMS:  map[string]float64{"total": 4.2}, Question: question, StandaloneQuestion: question,
	}
}

func statusFixture() answer.Answer {
	ans := answer.Answer{
		ID: "ans-status", Status: answer.StatusAnswered, Intent: answer.IntentDocumentStatus,
		Answer: "277-007-D-C-40327 — Trenches crossing layout is at revision 03, status IFC, dated 2024-03-12 [S1]",
		Sources: []answer.Source{{
			DocID: "277-007-D-C-40327", DocName: "277-007-D-C-40327 — Trenches crossing layout", Revision: "03",
			DriveLink: "https://drive.google.com/file/d/1AbC/view", Score: 1,
			Snippet: "277-007-D-C-40327 — Trenches crossing layout is at revision 03, status IFC, dated 2024-03-12",
		}},
		Confidence: confidence("high", 1, "read from the document register"),
	}
	return ans
}

// confidence builds the answer's confidence without naming its type, which
// lives in the pipeline.
func confidence(level answer.Level, score float64, reason string) answer.Confidence {
	return answer.Confidence{Level: level, Score: score, Reason: reason}
}
