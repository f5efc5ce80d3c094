package slack

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/adapters/internal/notice"
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

func TestSignedRequests(t *testing.T) {
	mention := readTestdata(t, "events/app_mention.json")
	tests := []struct {
		name       string
		request    func(env *testEnv) *http.Request
		wantStatus int
		wantAnswer bool
	}{
		{
			name: "valid signature",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
			},
			wantStatus: http.StatusOK, wantAnswer: true,
		},
		{
			name: "timestamp 4 minutes old is inside the window",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow.Add(-4*time.Minute))
			},
			wantStatus: http.StatusOK, wantAnswer: true,
		},
		{
			name: "wrong secret",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, "not-the-secret", testNow)
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "stale timestamp",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow.Add(-6*time.Minute))
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "timestamp from the future",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow.Add(6*time.Minute))
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "replayed signature over another body",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				tampered := strings.Replace(string(mention), "DC cables", "AC cables", 1)
				other := signedRequest(t, env.srv.URL, "/slack/events", "application/json", []byte(tampered), testSecret, testNow)
				other.Header.Set(headerSignature, req.Header.Get(headerSignature))
				return other
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "signature replayed with a new timestamp",
			request: func(env *testEnv) *http.Request {
				old := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow.Add(-10*time.Minute))
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Set(headerSignature, old.Header.Get(headerSignature))
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "missing signature header",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Del(headerSignature)
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "missing timestamp header",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Del(headerTimestamp)
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "timestamp not a number",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Set(headerTimestamp, "yesterday")
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "signature of another version",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Set(headerSignature, strings.Replace(req.Header.Get(headerSignature), "v0=", "v1=", 1))
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "signature not hex",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/events", "application/json", mention, testSecret, testNow)
				req.Header.Set(headerSignature, "v0=zz"+strings.Repeat("0", 62))
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "signed but malformed body",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", []byte(`{"type":"event_callback","event":`), testSecret, testNow)
			},
			wantStatus: http.StatusBadRequest,
		},
		{
			name: "signed body over the size limit",
			request: func(env *testEnv) *http.Request {
				big := []byte(`{"type":"event_callback","pad":"` + strings.Repeat("x", maxBodyBytes) + `"}`)
				return signedRequest(t, env.srv.URL, "/slack/events", "application/json", big, testSecret, testNow)
			},
			wantStatus: http.StatusRequestEntityTooLarge,
		},
		{
			name: "unsigned command",
			request: func(env *testEnv) *http.Request {
				req := signedRequest(t, env.srv.URL, "/slack/commands", "application/x-www-form-urlencoded",
					readTestdata(t, "commands/question.form"), testSecret, testNow)
				req.Header.Del(headerSignature)
				return req
			},
			wantStatus: http.StatusUnauthorized,
		},
		{
			name: "badly signed interaction",
			request: func(env *testEnv) *http.Request {
				return signedRequest(t, env.srv.URL, "/slack/interactivity", "application/x-www-form-urlencoded",
					interactionBody(t, "interactivity/feedback_up.json", ""), "not-the-secret", testNow)
			},
			wantStatus: http.StatusUnauthorized,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newTestEnv(t, newFakeBot(), nil)
			status, _ := do(t, env.srv.Client(), tt.request(env))
			if status != tt.wantStatus {
				t.Fatalf("status = %d, want %d", status, tt.wantStatus)
			}
			env.drain(t)
			queries := env.bot.recorded()
			if got := len(queries) > 0; got != tt.wantAnswer {
				t.Errorf("bot asked = %v, want %v (queries %+v)", got, tt.wantAnswer, queries)
			}
			if !tt.wantAnswer && (len(env.slack.all("chat.postMessage", "chat.update")) > 0 || len(env.bot.votes()) > 0) {
				t.Errorf("refused request had effects: %s", describe(env.slack.all()))
			}
		})
	}
}

func TestURLVerification(t *testing.T) {
	env := newTestEnv(t, newFakeBot(), nil)
	status, body := env.post(t, "/slack/events", readTestdata(t, "events/url_verification.json"), nil)
	if status != http.StatusOK {
		t.Fatalf("status = %d", status)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	if want := "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"; got["challenge"] != want {
		t.Errorf("challenge = %q, want %q", got["challenge"], want)
	}
}

// The 200 must reach Slack while the answer is still being worked out.
func TestAckBeforeAnswer(t *testing.T) {
	b := newFakeBot()
	b.hold, b.entered = make(chan struct{}), make(chan bot.Query, 1)
	env := newTestEnv(t, b, nil)

	status, _ := env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	if status != http.StatusOK {
		t.Fatalf("status = %d", status)
	}
	q := <-b.entered // the bot is answering, and holds until released
	if q.Text != "What is the minimum trench depth for DC cables?" {
		t.Errorf("question = %q: the bot's mention must be stripped", q.Text)
	}
	want := bot.Query{
		EventID: "Ev0LAN670R", Platform: answer.PlatformSlack, Tenant: testTenant, Channel: testChannel,
		Thread: "1515449522.000016", User: testUser, Text: q.Text,
	}
	if q.OnToken != nil {
		t.Error("drafts are disabled in this test, OnToken must be nil")
	}
	if fields(q) != fields(want) {
		t.Errorf("query = %v, want %v", fields(q), fields(want))
	}
	calls := env.slack.waitFor(t, "the placeholder", func(c []apiCall) bool { return count(c, "chat.postMessage") == 1 })
	if n := count(calls, "chat.update"); n != 0 {
		t.Fatalf("answer posted before the bot answered: %s", describe(calls))
	}
	ph := calls[0]
	if ph.Form.Get("text") != notice.Searching || ph.Form.Get("thread_ts") != "1515449522.000016" || ph.Form.Get("channel") != testChannel {
		t.Errorf("placeholder = %s", describe(calls[:1]))
	}

	close(b.hold)
	calls = env.slack.waitFor(t, "the answer", func(c []apiCall) bool { return count(c, "chat.update") == 1 })
	upd := env.slack.all("chat.update")[0]
	if upd.Form.Get("ts") != "1700000000.000001" || upd.Form.Get("channel") != testChannel {
		t.Errorf("update did not replace the placeholder: %s", describe(calls))
	}
	if got := blocksJSON(t, upd.blocks(t)); !strings.Contains(got, "800 mm") || !strings.Contains(got, actionFeedbackUp) {
		t.Errorf("final blocks lack the answer or feedback buttons:\n%s", got)
	}
	if upd.Form.Get("parse") != "none" || upd.Form.Get("link_names") != "false" || !strings.HasPrefix(upd.Form.Get("text"), "The minimum") {
		t.Errorf("update must not parse mentions and must carry the fallback text: %v", upd.Form)
	}
}

// Slack retries a delivery it thinks failed, up to three times: there must
// still be exactly one reply in the thread.
func TestMentionDeliveredFourTimes(t *testing.T) {
	mention := readTestdata(t, "events/app_mention.json")
	tests := []struct {
		name string
		// replica[i] receives delivery i (0 = original); two replicas share
		// the bot's de-duplication, as they share Redis.
		replica   []int
		wantPosts int // chat.postMessage calls, both replicas
		wantEdits int // chat.update calls
	}{
		{name: "all to one replica", replica: []int{0, 0, 0, 0}, wantPosts: 1, wantEdits: 1},
		{name: "retries to another replica", replica: []int{0, 1, 1, 1}, wantPosts: 1, wantEdits: 1},
		{name: "original lost, retries only", replica: []int{-1, 1, 0, 1}, wantPosts: 1, wantEdits: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			envs := []*testEnv{newTestEnv(t, b, nil), newTestEnv(t, b, nil)}
			settled := false
			for i, r := range tt.replica {
				if r < 0 {
					continue
				}
				h := http.Header{}
				if i > 0 {
					h.Set(headerRetryNum, strconv.Itoa(i))
					h.Set(headerRetryWhy, "http_timeout")
				}
				if status, _ := envs[r].post(t, "/slack/events", mention, h); status != http.StatusOK {
					t.Fatalf("delivery %d: status %d", i, status)
				}
				if !settled {
					// Slack retries after its 3-second timeout; by then the
					// first delivery is answered.
					envs[r].slack.waitFor(t, "the first reply", func(c []apiCall) bool {
						return len(c) > 0 && strings.Contains(c[len(c)-1].Form.Get("blocks"), "800 mm")
					})
					settled = true
				}
			}
			posts, edits := 0, 0
			var replies []apiCall
			for _, env := range envs {
				env.drain(t)
				posts += len(env.slack.all("chat.postMessage"))
				edits += len(env.slack.all("chat.update"))
				replies = append(replies, env.slack.all("chat.postMessage", "chat.update")...)
			}
			if posts != tt.wantPosts || edits != tt.wantEdits {
				t.Errorf("posts = %d, updates = %d; want %d, %d:%s", posts, edits, tt.wantPosts, tt.wantEdits, describe(replies))
			}
			if n := len(b.recorded()); n != 1 {
				t.Errorf("bot answered %d times, want 1", n)
			}
			final := replies[len(replies)-1]
			if !strings.Contains(final.Form.Get("blocks"), "800 mm") {
				t.Errorf("last message is not the answer: %s", describe(replies))
			}
			for _, c := range env0(envs).slack.all("chat.postMessage") {
				if c.Form.Get("thread_ts") != "1515449522.000016" {
					t.Errorf("reply outside the thread: %s", describe([]apiCall{c}))
				}
			}
		})
	}
}

func env0(envs []*testEnv) *testEnv { return envs[0] }

func TestConversations(t *testing.T) {
	tests := []struct {
		name string
		// before are payloads handled first (and drained), e.g. the mention
		// that starts a thread.
		before    []string
		payload   string
		wantQuery *bot.Query
		// wantThreadTS is where the reply goes; "" = top level.
		wantChannel, wantThreadTS string
	}{
		{
			name: "direct message", payload: "events/message_im.json",
			wantQuery: &bot.Query{
				EventID: "Ev0PV52K21", Platform: answer.PlatformSlack, Tenant: testTenant, Channel: "D0PNCRP9N",
				Thread: "D0PNCRP9N", User: testUser, Text: "Which cable size is specified for the inverter AC output?",
			},
			wantChannel: "D0PNCRP9N", wantThreadTS: "",
		},
		{
			name: "thread follow-up without a mention", before: []string{"events/app_mention.json"}, payload: "events/thread_reply.json",
			wantQuery: &bot.Query{
				EventID: "Ev0PV5THRD", Platform: answer.PlatformSlack, Tenant: testTenant, Channel: testChannel,
				Thread: "1515449522.000016", User: testUser, Text: "and for AC cables?",
			},
			wantChannel: testChannel, wantThreadTS: "1515449522.000016",
		},
		{name: "thread reply where cew never answered", payload: "events/thread_reply.json"},
		{name: "bot message", before: []string{"events/app_mention.json"}, payload: "events/bot_message.json"},
		{name: "cew's own message", before: []string{"events/app_mention.json"}, payload: "events/own_message.json"},
		{name: "edited message", before: []string{"events/app_mention.json"}, payload: "events/message_changed.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			env := newTestEnv(t, b, nil)
			for _, p := range tt.before {
				env.post(t, "/slack/events", readTestdata(t, p), nil)
			}
			if len(tt.before) > 0 {
				env.slack.waitFor(t, "the first answer", func(c []apiCall) bool { return count(c, "chat.update") == 1 })
			}
			queriesBefore, callsBefore := len(b.recorded()), len(env.slack.all())
			if status, _ := env.post(t, "/slack/events", readTestdata(t, tt.payload), nil); status != http.StatusOK {
				t.Fatalf("status = %d", status)
			}
			env.drain(t)
			queries, calls := b.recorded()[queriesBefore:], env.slack.all()[callsBefore:]
			if tt.wantQuery == nil {
				if len(queries) > 0 || len(calls) > 0 {
					t.Fatalf("ignored message was answered: queries %+v, calls %s", queries, describe(calls))
				}
				return
			}
			if len(queries) != 1 {
				t.Fatalf("queries = %+v, want one", queries)
			}
			if fields(queries[0]) != fields(*tt.wantQuery) {
				t.Errorf("query = %v, want %v", fields(queries[0]), fields(*tt.wantQuery))
			}
			if len(calls) != 2 || calls[0].Method != "chat.postMessage" || calls[1].Method != "chat.update" {
				t.Fatalf("want placeholder then answer: %s", describe(calls))
			}
			if calls[0].Form.Get("channel") != tt.wantChannel || calls[0].Form.Get("thread_ts") != tt.wantThreadTS {
				t.Errorf("reply in channel %q thread %q, want %q %q", calls[0].Form.Get("channel"), calls[0].Form.Get("thread_ts"),
					tt.wantChannel, tt.wantThreadTS)
			}
		})
	}
}

func TestUnknownWorkspaceRefused(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, func(c *Config) { c.Tenants = map[string]string{"T0OTHER01": "other"} })
	env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	env.drain(t)
	if q := b.recorded(); len(q) != 0 {
		t.Fatalf("bot asked for an unknown workspace: %+v", q)
	}
	calls := env.slack.all()
	if len(calls) != 1 || calls[0].Form.Get("text") != escape(refusal) || calls[0].Form.Get("thread_ts") != "1515449522.000016" {
		t.Errorf("want one refusal in the thread: %s", describe(calls))
	}
}

func TestMappedWorkspaceGetsItsTenant(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, func(c *Config) { c.Tenants = map[string]string{testTeam: "tenant-a"}; c.DefaultTenant = "" })
	env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	env.drain(t)
	if q := b.recorded(); len(q) != 1 || q[0].Tenant != "tenant-a" {
		t.Errorf("queries = %+v, want tenant-a", q)
	}
}

func TestBotErrorApologises(t *testing.T) {
	tests := []struct {
		name    string
		answer  answer.Answer
		wantRef string
	}{
		{name: "bot's own apology", answer: answer.Answer{ID: "a-42", Status: answer.StatusError,
			Answer: "Sorry, something went wrong while searching the documents. Please try again; if it keeps happening, quote reference a-42."},
			wantRef: "a-42"},
		{name: "no answer at all", answer: answer.Answer{}, wantRef: "Ev0LAN670R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newFakeBot()
			b.answer = func(bot.Query) (answer.Answer, error) {
				return tt.answer, errors.New("store/milvus: search: connection refused at 10.0.0.7:19530")
			}
			env := newTestEnv(t, b, nil)
			env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
			env.drain(t)
			upd := env.slack.all("chat.update")
			if len(upd) != 1 {
				t.Fatalf("want the placeholder replaced by an apology: %s", describe(env.slack.all()))
			}
			got := upd[0].Form.Get("blocks") + upd[0].Form.Get("text")
			if !strings.Contains(got, "Sorry") || !strings.Contains(got, tt.wantRef) {
				t.Errorf("apology lacks reference %q: %s", tt.wantRef, got)
			}
			if strings.Contains(got, "milvus") || strings.Contains(got, "10.0.0.7") || strings.Contains(got, actionFeedbackUp) {
				t.Errorf("apology leaks detail or offers feedback: %s", got)
			}
		})
	}
}

func TestSlackAPIFailures(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		failures []apiFailure
		// extra scripts other methods' calls.
		extra map[string][]apiFailure
		// wantWaits are the retry waits, in order; 0 means "some backoff".
		wantWaits []time.Duration
		// wantMethods is the sequence of calls the adapter makes.
		wantMethods []string
	}{
		{
			name: "429 on update honours Retry-After", method: "chat.update",
			failures:    []apiFailure{{status: http.StatusTooManyRequests, retryAfter: "7"}},
			wantWaits:   []time.Duration{7 * time.Second},
			wantMethods: []string{"chat.postMessage", "chat.update", "chat.update"},
		},
		{
			name: "rate limited as an API error", method: "chat.update",
			failures:    []apiFailure{{slackError: "ratelimited"}},
			wantWaits:   []time.Duration{0},
			wantMethods: []string{"chat.postMessage", "chat.update", "chat.update"},
		},
		{
			name: "server errors on the placeholder are retried", method: "chat.postMessage",
			failures:    []apiFailure{{status: http.StatusInternalServerError}, {status: http.StatusBadGateway}},
			wantWaits:   []time.Duration{0, 0},
			wantMethods: []string{"chat.postMessage", "chat.postMessage", "chat.postMessage", "chat.update"},
		},
		{
			name: "placeholder gone: the answer is posted anew", method: "chat.update",
			failures:    []apiFailure{{slackError: "message_not_found"}},
			wantMethods: []string{"chat.postMessage", "chat.update", "chat.postMessage", "chat.delete"},
		},
		{
			name: "update keeps failing: posted anew after the retries", method: "chat.update",
			failures:  []apiFailure{{status: 503}, {status: 503}, {status: 503}, {status: 503}},
			wantWaits: []time.Duration{0, 0, 0},
			wantMethods: []string{"chat.postMessage", "chat.update", "chat.update", "chat.update", "chat.update",
				"chat.postMessage", "chat.delete"},
		},
		{
			name: "answer lost: the placeholder and any draft in it go", method: "chat.update",
			failures:    []apiFailure{{slackError: "cant_update_message"}},
			extra:       map[string][]apiFailure{"chat.postMessage": {{succeed: true}, {slackError: "is_archived"}}},
			wantMethods: []string{"chat.postMessage", "chat.update", "chat.postMessage", "chat.delete"},
		},
		{
			name: "no placeholder: the answer is posted alone", method: "chat.postMessage",
			failures:    []apiFailure{{slackError: "not_in_channel"}},
			wantMethods: []string{"chat.postMessage", "chat.postMessage"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newTestEnv(t, newFakeBot(), nil)
			env.slack.fail(tt.method, tt.failures...)
			for m, fs := range tt.extra {
				env.slack.fail(m, fs...)
			}
			env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
			env.drain(t)
			calls := env.slack.all()
			var methods []string
			for _, c := range calls {
				methods = append(methods, c.Method)
			}
			if strings.Join(methods, " ") != strings.Join(tt.wantMethods, " ") {
				t.Fatalf("calls = %v, want %v%s", methods, tt.wantMethods, describe(calls))
			}
			if last := calls[len(calls)-1]; last.Method != "chat.delete" && !strings.Contains(last.Form.Get("blocks"), "800 mm") {
				t.Errorf("the answer was not the last message: %s", describe(calls))
			}
			close(env.waits)
			var waits []time.Duration
			for w := range env.waits {
				waits = append(waits, w)
			}
			if len(waits) != len(tt.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i, w := range tt.wantWaits {
				if w != 0 && waits[i] != w {
					t.Errorf("wait %d = %v, want %v", i, waits[i], w)
				}
				if waits[i] <= 0 {
					t.Errorf("wait %d = %v, want a positive backoff", i, waits[i])
				}
			}
		})
	}
}

// A streamed draft is shown while the LLM writes, and the checked answer
// replaces it, even when the guard turned the draft into "not found".
func TestDraftsReplacedByCheckedAnswer(t *testing.T) {
	b := newFakeBot()
	env := newTestEnv(t, b, func(c *Config) { c.DraftInterval = time.Nanosecond })
	b.tokens = []string{"The minimum depth ", "is 900 mm [S1]."}
	b.answer = func(q bot.Query) (answer.Answer, error) {
		// Hold the answer until a draft has been shown.
		shown := env.slack.until(func(c []apiCall) bool {
			for _, call := range c {
				if call.Method == "chat.update" && strings.Contains(call.Form.Get("blocks"), "Draft") {
					return true
				}
			}
			return false
		})
		if !shown {
			return answer.Answer{}, errors.New("no draft was shown")
		}
		return answer.Answer{ID: "ans-nf", Status: answer.StatusNotFound, Reason: "UNGROUNDED_NUMBER", Answer: answer.NotFoundText}, nil
	}
	env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	env.drain(t)
	updates := env.slack.all("chat.update")
	if len(updates) < 2 {
		t.Fatalf("want at least a draft and the final answer: %s", describe(env.slack.all()))
	}
	for _, u := range updates[:len(updates)-1] {
		if !strings.Contains(u.Form.Get("blocks"), notice.DraftNote) || u.Form.Get("text") != notice.Searching {
			t.Errorf("draft not marked as a draft: %s", u.Form.Get("blocks"))
		}
	}
	final := updates[len(updates)-1].Form.Get("blocks")
	if !strings.Contains(final, answer.NotFoundText) || strings.Contains(final, "900 mm") || strings.Contains(final, "Draft") {
		t.Errorf("final message is not the checked answer:\n%s", final)
	}
}

func TestShutdownDrainsAnswerInFlight(t *testing.T) {
	b := newFakeBot()
	b.hold, b.entered = make(chan struct{}), make(chan bot.Query, 1)
	env := newTestEnv(t, b, nil)
	env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	<-b.entered

	done := make(chan error, 1)
	go func() { done <- env.a.Shutdown(context.Background()) }()
	for !env.a.pool.Closing() {
		runtime.Gosched()
	}
	// New work is refused: Slack gets a 503 and retries another replica.
	status, _ := env.post(t, "/slack/events", withEventID(t, readTestdata(t, "events/message_im.json"), "Ev0AFTERSTOP"), nil)
	if status != http.StatusServiceUnavailable {
		t.Errorf("event during shutdown: status %d, want 503", status)
	}
	select {
	case err := <-done:
		t.Fatalf("Shutdown returned (%v) while an answer was in flight", err)
	default:
	}
	close(b.hold)
	if err := <-done; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	upd := env.slack.all("chat.update")
	if len(upd) != 1 || !strings.Contains(upd[0].Form.Get("blocks"), "800 mm") {
		t.Errorf("in-flight answer not posted before Shutdown returned: %s", describe(env.slack.all()))
	}
}

func TestShutdownDeadlineCancelsAndApologises(t *testing.T) {
	b := newFakeBot()
	b.hold, b.entered = make(chan struct{}), make(chan bot.Query, 1)
	env := newTestEnv(t, b, nil)
	env.post(t, "/slack/events", readTestdata(t, "events/app_mention.json"), nil)
	<-b.entered

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := env.a.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want context.Canceled", err)
	}
	env.drain(t) // the cancelled answer still finishes its delivery
	upd := env.slack.all("chat.update")
	if len(upd) != 1 || !strings.Contains(upd[0].Form.Get("blocks"), "ans-timeout") {
		t.Errorf("cancelled answer did not apologise with its reference: %s", describe(env.slack.all()))
	}
}

func TestBusyQueueTellsUser(t *testing.T) {
	b := newFakeBot()
	b.hold, b.entered = make(chan struct{}), make(chan bot.Query, 4)
	env := newTestEnv(t, b, func(c *Config) { c.Workers, c.QueueSize = 1, 1 })
	dm := readTestdata(t, "events/message_im.json")
	env.post(t, "/slack/events", withEventID(t, dm, "Ev1"), nil) // taken by the worker
	<-b.entered
	env.post(t, "/slack/events", withEventID(t, dm, "Ev2"), nil) // waits in the queue
	if status, _ := env.post(t, "/slack/events", withEventID(t, dm, "Ev3"), nil); status != http.StatusOK {
		t.Fatalf("a full queue must still ack: %d", status)
	}
	env.slack.waitFor(t, "the busy notice", func(c []apiCall) bool {
		for _, call := range c {
			if call.Form.Get("text") == escape(notice.Busy) {
				return true
			}
		}
		return false
	})
	close(b.hold)
	env.drain(t)
	if n := len(b.recorded()); n != 2 {
		t.Errorf("bot answered %d questions, want 2 (the third was refused)", n)
	}
}

func TestVerifySignatureDirect(t *testing.T) {
	body := []byte(`{"type":"event_callback"}`)
	good := func() http.Header {
		h := http.Header{}
		ts := strconv.FormatInt(testNow.Unix(), 10)
		h.Set(headerTimestamp, ts)
		h.Set(headerSignature, "v0="+hex.EncodeToString(sign(testSecret, ts, body)))
		return h
	}
	tests := []struct {
		name   string
		secret string
		header func() http.Header
		now    time.Time
		want   error
	}{
		{name: "valid", secret: testSecret, header: good, now: testNow},
		{name: "no secret configured", secret: "", header: good, now: testNow, want: errNoSecret},
		{name: "just inside the window", secret: testSecret, header: good, now: testNow.Add(maxSignatureAge), want: nil},
		{name: "just outside the window", secret: testSecret, header: good, now: testNow.Add(maxSignatureAge + time.Second), want: errStaleTimestamp},
		{name: "short signature", secret: testSecret, now: testNow, want: errInvalidSignature, header: func() http.Header {
			h := good()
			h.Set(headerSignature, h.Get(headerSignature)[:20])
			return h
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := verifySignature(tt.secret, tt.header(), body, tt.now); !errors.Is(err, tt.want) {
				t.Errorf("verifySignature = %v, want %v", err, tt.want)
			}
		})
	}
}

// fields lists a query's comparable fields (OnToken, a func, is not).
func fields(q bot.Query) [7]string {
	return [7]string{q.EventID, string(q.Platform), q.Tenant, q.Channel, q.Thread, q.User, q.Text}
}
