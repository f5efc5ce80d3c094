package bot_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/cache/memory"
	"github.com/cewhq/cew/pipeline"
)

// scriptedPipeline answers every question with a source, counting calls;
// questions containing "fail" are pipeline errors and "degrade" marks the
// answer as produced with a failing dependency.
type scriptedPipeline struct {
	calls    atomic.Int32
	mu       sync.Mutex
	asked    []string
	requests []pipeline.Request
	statuses []string
}

func (p *scriptedPipeline) Answer(_ context.Context, req pipeline.Request) (answer.Answer, error) {
	n := p.calls.Add(1)
	p.mu.Lock()
	p.asked = append(p.asked, req.Question)
	p.requests = append(p.requests, req)
	p.mu.Unlock()
	ans := answer.Answer{
		ID: "ans-" + string(rune('a'+n-1)), Status: answer.StatusAnswered, Answer: "Answer to " + req.Question + " [S1].",
		Sources:   []answer.Source{{DocID: "277-007-d-c-40327", DocName: "277-007-D-C-40327 — Trenches", Revision: "03", Page: 5}},
		TimingsMS: map[string]float64{"total": 1}, Question: req.Question, StandaloneQuestion: req.Question,
		Trace: answer.Trace{CitedChunks: []string{"277-007-d-c-40327/03/0"}},
	}
	switch {
	case strings.Contains(req.Question, "fail"):
		ans.Status = answer.StatusError
		return ans, errors.New("store down")
	case strings.Contains(req.Question, "degrade"):
		ans.Trace.Degraded = []string{"llm"}
	case strings.Contains(req.Question, "unknown"):
		ans.Status, ans.Reason, ans.Answer, ans.Sources = answer.StatusNotFound, "NO_CHUNKS_FOUND", answer.NotFoundText, nil
	}
	return ans, nil
}

func (p *scriptedPipeline) Status(_ context.Context, _, query string) (answer.Answer, error) {
	p.mu.Lock()
	p.statuses = append(p.statuses, query)
	p.mu.Unlock()
	return answer.Answer{ID: "status", Status: answer.StatusAnswered, Answer: query + " is at revision 03.", TimingsMS: map[string]float64{}}, nil
}

func (p *scriptedPipeline) lastRequest() pipeline.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests[len(p.requests)-1]
}

func (p *scriptedPipeline) lastAsked() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked[len(p.asked)-1]
}

type generations struct{ gen atomic.Uint64 }

func (g *generations) Generation(context.Context, string) (uint64, error) { return g.gen.Load(), nil }

type fixture struct {
	bot   *bot.Bot
	pipe  *scriptedPipeline
	gens  *generations
	now   *time.Time
	audit string
}

func newFixture(t *testing.T, mutate func(*bot.Config)) *fixture {
	t.Helper()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	f := &fixture{pipe: &scriptedPipeline{}, gens: &generations{}, now: &now}
	clock := func() time.Time { return *f.now }
	mem := memory.New(memory.Options{Now: clock, SweepInterval: -1})
	t.Cleanup(func() { mem.Close() })
	f.audit = filepath.Join(t.TempDir(), "audit.jsonl")
	audit, err := bot.OpenFileAudit(f.audit, bot.FileAuditOptions{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { audit.Close() })
	cfg := bot.Config{
		Pipeline: f.pipe, Generations: f.gens,
		Answers: mem, Sessions: mem, Deduper: mem, Limiter: mem,
		Audit: audit, UserLimit: 3, TenantLimit: 100, LimitWindow: time.Minute, Now: clock,
	}
	if mutate != nil {
		mutate(&cfg)
	}
	b, err := bot.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f.bot = b
	return f
}

func query(text string) bot.Query {
	return bot.Query{Platform: answer.PlatformSlack, Tenant: "acme", Channel: "C1", Thread: "1700000000.000100", User: "U1", Text: text}
}

func TestCache(t *testing.T) {
	f := newFixture(t, func(c *bot.Config) { c.UserLimit = 0 })
	ctx := context.Background()
	first, err := f.bot.Handle(ctx, query("What is the trench depth?"))
	if err != nil || first.Cached {
		t.Fatalf("first answer: cached=%v err=%v", first.Cached, err)
	}
	second, err := f.bot.Handle(ctx, query("  what is the TRENCH depth "))
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached || second.ID != first.ID || f.pipe.calls.Load() != 1 {
		t.Fatalf("second answer: cached=%v id=%s (first %s), pipeline calls %d; want a hit with the original id", second.Cached, second.ID, first.ID, f.pipe.calls.Load())
	}
	if second.Question != "  what is the TRENCH depth " {
		t.Errorf("cached answer carries question %q, want the one asked", second.Question)
	}
	if recs := readAudit(t, f.audit); len(recs) != 2 || !recs[1].Cached || len(recs[1].Sources) != 1 || recs[1].Sources[0] != "277-007-d-c-40327/03/0" {
		t.Errorf("the cache hit's audit record lacks the cited chunks: %+v", recs)
	}

	t.Run("generation bump invalidates", func(t *testing.T) {
		f.gens.gen.Add(1)
		ans, _ := f.bot.Handle(ctx, query("What is the trench depth?"))
		if ans.Cached {
			t.Errorf("answer served from a previous index generation")
		}
	})
	t.Run("not found is cached", func(t *testing.T) {
		before := f.pipe.calls.Load()
		f.bot.Handle(ctx, query("unknown thing?"))
		ans, _ := f.bot.Handle(ctx, query("unknown thing?"))
		if !ans.Cached || f.pipe.calls.Load() != before+1 {
			t.Errorf("refusal not cached: cached=%v calls=%d", ans.Cached, f.pipe.calls.Load()-before)
		}
	})
	t.Run("degraded answers are not cached", func(t *testing.T) {
		f.bot.Handle(ctx, query("degrade please"))
		ans, _ := f.bot.Handle(ctx, query("degrade please"))
		if ans.Cached {
			t.Errorf("an answer produced with a failed dependency was cached")
		}
	})
	t.Run("errors are not cached", func(t *testing.T) {
		_, err := f.bot.Handle(ctx, query("fail now"))
		if err == nil {
			t.Fatal("pipeline error not returned")
		}
		ans, _ := f.bot.Handle(ctx, query("fail now"))
		if ans.Cached {
			t.Errorf("an error was cached")
		}
	})
	t.Run("tenants do not share answers", func(t *testing.T) {
		q := query("What is the trench depth?")
		q.Tenant = "beta"
		ans, _ := f.bot.Handle(ctx, q)
		if ans.Cached {
			t.Errorf("tenant beta got tenant acme's cached answer")
		}
	})
}

func TestDedupe(t *testing.T) {
	f := newFixture(t, func(c *bot.Config) { c.UserLimit = 0 })
	q := query("What is the trench depth?")
	q.EventID = "Ev123"
	var wins, dups atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.bot.Handle(context.Background(), q)
			switch {
			case errors.Is(err, bot.ErrDuplicate):
				dups.Add(1)
			case err == nil:
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || dups.Load() != 49 {
		t.Errorf("wins=%d duplicates=%d, want exactly one answer", wins.Load(), dups.Load())
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for i := range 3 {
		ans, _ := f.bot.Handle(ctx, query("question number "+string(rune('a'+i))))
		if ans.Status != answer.StatusAnswered {
			t.Fatalf("question %d: %s", i, ans.Status)
		}
	}
	ans, _ := f.bot.Handle(ctx, query("one too many"))
	if ans.Status != answer.StatusBlocked || ans.Reason != answer.ReasonRateLimited || !strings.Contains(ans.Answer, "wait") {
		t.Fatalf("4th question: %s %s %q, want blocked RATE_LIMITED with the time to wait", ans.Status, ans.Reason, ans.Answer)
	}
	other := query("another user asks")
	other.User = "U2"
	if ans, _ := f.bot.Handle(ctx, other); ans.Status != answer.StatusAnswered {
		t.Errorf("another user was limited: %s", ans.Status)
	}
	*f.now = f.now.Add(time.Minute + time.Second)
	if ans, _ := f.bot.Handle(ctx, query("next window")); ans.Status != answer.StatusAnswered {
		t.Errorf("next window still limited: %s", ans.Status)
	}
}

func TestFollowUps(t *testing.T) {
	f := newFixture(t, func(c *bot.Config) { c.UserLimit = 0 })
	ctx := context.Background()
	if _, err := f.bot.Handle(ctx, query("What is the minimum trench depth for DC cables?")); err != nil {
		t.Fatal(err)
	}
	ans, err := f.bot.Handle(ctx, query("and for AC cables?"))
	if err != nil {
		t.Fatal(err)
	}
	want := "What is the minimum trench depth for AC cables?"
	if ans.StandaloneQuestion != want || f.pipe.lastAsked() != want {
		t.Errorf("standalone = %q (pipeline got %q), want %q", ans.StandaloneQuestion, f.pipe.lastAsked(), want)
	}
	if ans.Question != "and for AC cables?" {
		t.Errorf("question = %q, want the one asked", ans.Question)
	}
	// Another thread has no memory of this one.
	other := query("and for AC cables?")
	other.Thread = "1700000000.000999"
	ans, _ = f.bot.Handle(ctx, other)
	if ans.StandaloneQuestion != "and for AC cables?" {
		t.Errorf("memory leaked across threads: %q", ans.StandaloneQuestion)
	}
	if !f.bot.InConversation(ctx, query("")) {
		t.Errorf("InConversation is false for a thread the bot answered in")
	}
}

func TestRewriteFollowUp(t *testing.T) {
	prev := cache.Turn{Question: "What is the minimum trench depth for DC cables?", Standalone: "What is the minimum trench depth for DC cables?", DocIDs: []string{"277-007-d-c-40327"}}
	tests := []struct {
		name, question, want string
		followUp             bool
	}{
		{"prepositional phrase replaced", "and for AC cables?", "What is the minimum trench depth for AC cables?", true},
		{"what about", "what about for MV cables?", "What is the minimum trench depth for MV cables?", true},
		{"focus appended", "and the warning tape?", "What is the minimum trench depth for DC cables the warning tape?", true},
		{"page appended", "what about on page 13?", "What is the minimum trench depth for DC cables on page 13?", true},
		{"pronoun resolved to the cited document", "which revision is that?", "which revision is 277-007-d-c-40327?", true},
		{"standalone question untouched", "What is the default system loss in PVWatts?", "", false},
		{"existential there is not a pronoun", "Is there a warning tape?", "", false},
		{"pronoun after an existential there", "is there a warning tape on it?", "is there a warning tape on 277-007-d-c-40327?", true},
		{"long question starting with and", "And what is the maximum allowed bending radius of the 240 mm2 copper cable in the trench?", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := bot.IsFollowUp(tc.question); got != tc.followUp {
				t.Fatalf("IsFollowUp(%q) = %v, want %v", tc.question, got, tc.followUp)
			}
			if !tc.followUp {
				return
			}
			if got := bot.RewriteFollowUp(tc.question, prev); got != tc.want {
				t.Errorf("RewriteFollowUp(%q) = %q, want %q", tc.question, got, tc.want)
			}
		})
	}
}

// failingBackend is a cache whose every call fails as an unreachable Redis does.
type failingBackend struct{}

var errDown = errors.Join(cache.ErrUnavailable, errors.New("connection refused"))

func (failingBackend) Get(context.Context, cache.Key) (cache.Entry, bool, error) {
	return cache.Entry{}, false, errDown
}
func (failingBackend) Put(context.Context, cache.Key, cache.Entry, time.Duration) error {
	return errDown
}
func (failingBackend) Turns(context.Context, string) ([]cache.Turn, error) { return nil, errDown }
func (failingBackend) Append(context.Context, string, cache.Turn, int, time.Duration) error {
	return errDown
}
func (failingBackend) FirstSeen(context.Context, string, time.Duration) (bool, error) {
	return false, errDown
}
func (failingBackend) Allow(context.Context, string, int, time.Duration) (cache.Decision, error) {
	return cache.Decision{}, errDown
}

func TestCacheDownStillAnswers(t *testing.T) {
	var down failingBackend
	f := newFixture(t, func(c *bot.Config) {
		c.Answers, c.Sessions, c.Deduper, c.Limiter = down, down, down, down
	})
	q := query("What is the trench depth?")
	q.EventID = "Ev1"
	for i := range 2 {
		ans, err := f.bot.Handle(context.Background(), q)
		if err != nil || ans.Status != answer.StatusAnswered || ans.Cached {
			t.Fatalf("call %d with the cache down: %s cached=%v err=%v", i, ans.Status, ans.Cached, err)
		}
	}
	if !f.bot.Degraded() {
		t.Errorf("Degraded() = false with every cache call failing")
	}
}

func TestStatusLookupAndFeedbackAudit(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	q := query("277-007-D-C-40327")
	ans, err := f.bot.StatusLookup(ctx, q)
	if err != nil || !strings.Contains(ans.Answer, "revision 03") {
		t.Fatalf("status lookup: %q %v", ans.Answer, err)
	}
	if err := f.bot.RecordFeedback(ctx, bot.Feedback{AnswerID: "ans-a", Platform: answer.PlatformSlack, Tenant: "acme", User: "U1", Up: true}); err != nil {
		t.Fatal(err)
	}
	if err := f.bot.RecordFeedback(ctx, bot.Feedback{}); err == nil {
		t.Errorf("feedback without an answer id accepted")
	}
	recs := readAudit(t, f.audit)
	if len(recs) != 2 || recs[0].Kind != "answer" || recs[1].Kind != "feedback" || recs[1].Vote != "up" || recs[1].AnswerID != "ans-a" {
		t.Fatalf("audit = %+v", recs)
	}
}

func readAudit(t *testing.T, path string) []bot.AuditRecord {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []bot.AuditRecord
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		var r bot.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// failingEmbedder is an embedding endpoint that is down, counting calls.
type failingEmbedder struct{ calls atomic.Int32 }

func (e *failingEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	e.calls.Add(1)
	return nil, errors.New("embeddings endpoint timed out")
}

func TestEmbedderDownIsTriedOnce(t *testing.T) {
	emb := &failingEmbedder{}
	f := newFixture(t, func(c *bot.Config) { c.UserLimit, c.Embedder = 0, emb })
	if _, err := f.bot.Handle(context.Background(), query("What is the trench depth?")); err != nil {
		t.Fatal(err)
	}
	if n := emb.calls.Load(); n != 1 {
		t.Errorf("embedder called %d times by the bot, want 1", n)
	}
	if req := f.pipe.lastRequest(); !req.EmbedFailed || req.Vector != nil {
		t.Errorf("pipeline request = %+v; want EmbedFailed so it does not embed again", req)
	}
}

// countingSessions counts reads of the conversation memory.
type countingSessions struct {
	cache.Sessions
	reads atomic.Int32
}

func (s *countingSessions) Turns(ctx context.Context, conversation string) ([]cache.Turn, error) {
	s.reads.Add(1)
	return s.Sessions.Turns(ctx, conversation)
}

func TestOnlyFollowUpsReadMemory(t *testing.T) {
	var sessions *countingSessions
	f := newFixture(t, func(c *bot.Config) {
		c.UserLimit = 0
		sessions = &countingSessions{Sessions: c.Sessions}
		c.Sessions = sessions
	})
	ctx := context.Background()
	for _, q := range []string{"What is the minimum trench depth for DC cables?", "What is the default system loss in PVWatts?"} {
		if _, err := f.bot.Handle(ctx, query(q)); err != nil {
			t.Fatal(err)
		}
	}
	if n := sessions.reads.Load(); n != 0 {
		t.Errorf("standalone questions read the memory %d times, want 0", n)
	}
	ans, err := f.bot.Handle(ctx, query("and for AC cables?"))
	if err != nil {
		t.Fatal(err)
	}
	if n := sessions.reads.Load(); n != 1 || ans.StandaloneQuestion != "What is the default system loss in PVWatts for AC cables?" {
		t.Errorf("follow-up: %d reads, standalone %q", n, ans.StandaloneQuestion)
	}
}

// TestRateLimitedStatusLookupIsRecorded: a refused status lookup is audited
// and counted like a refused question.
func TestRateLimitedStatusLookupIsRecorded(t *testing.T) {
	f := newFixture(t, func(c *bot.Config) { c.UserLimit = 1 })
	ctx := context.Background()
	for range 2 {
		if _, err := f.bot.StatusLookup(ctx, query("277-007-D-C-40327")); err != nil {
			t.Fatal(err)
		}
	}
	recs := readAudit(t, f.audit)
	if len(recs) != 2 {
		t.Fatalf("%d audit records for 2 status lookups: %+v", len(recs), recs)
	}
	if recs[1].Status != answer.StatusBlocked || recs[1].Reason != string(answer.ReasonRateLimited) || recs[1].Question != "277-007-D-C-40327" {
		t.Errorf("rate-limited lookup recorded as %+v", recs[1])
	}
}

// fixedEmbedder embeds every question as the same vector, so every cached
// answer of a tenant and generation is a semantic match.
type fixedEmbedder struct{}

func (fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{0.6, 0.8}
	}
	return out, nil
}

// TestSemanticHitNeedsSameModel: semantic matches are looked up by tenant
// and generation only; an answer cached by another model or prompt set
// (a shared Redis during a rolling deploy) is not served.
func TestSemanticHitNeedsSameModel(t *testing.T) {
	ctx := context.Background()
	var shared cache.Answers
	first := newFixture(t, func(c *bot.Config) {
		c.UserLimit, c.Embedder, c.Model, c.PromptSet = 0, fixedEmbedder{}, "model-a", "prompts-1"
		shared = c.Answers
	})
	if _, err := first.bot.Handle(ctx, query("What is the trench depth?")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, model, prompts string
		wantCached           bool
	}{
		{"same model and prompts", "model-a", "prompts-1", true},
		{"another model", "model-b", "prompts-1", false},
		{"other prompts", "model-a", "prompts-2", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, func(c *bot.Config) {
				c.UserLimit, c.Embedder, c.Model, c.PromptSet, c.Answers = 0, fixedEmbedder{}, tc.model, tc.prompts, shared
			})
			ans, err := f.bot.Handle(ctx, query("How deep is the trench?"))
			if err != nil {
				t.Fatal(err)
			}
			if ans.Cached != tc.wantCached {
				t.Errorf("cached = %v, want %v", ans.Cached, tc.wantCached)
			}
		})
	}
}

func TestSameSpecifics(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"What is the minimum trench depth for DC cables?", "what's the min trench depth for DC cables", true},
		{"What is the minimum trench depth for DC cables?", "What is the minimum trench depth for AC cables?", false},
		{"What is the rated power of Inverter 4?", "What is the rated power of Inverter 42?", false},
		{"Status of 277-007-D-C-40327?", "status of 277-007-D-C-40328", false},
		{"How deep is the trench at 800 mm cover?", "How deep is the trench at 600 mm cover?", false},
	}
	for _, tc := range tests {
		t.Run(tc.a+" / "+tc.b, func(t *testing.T) {
			if got := bot.SameSpecifics(tc.a, tc.b); got != tc.want {
				t.Errorf("SameSpecifics = %v, want %v", got, tc.want)
			}
		})
	}
}

// sameVector embeds every text as the same vector: the worst case of a
// semantic cache, where every question looks alike.
type sameVector struct{}

func (sameVector) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		out[i] = []float32{1, 0, 0}
	}
	return out, nil
}

func TestSemanticCacheNeedsSameSpecifics(t *testing.T) {
	f := newFixture(t, func(c *bot.Config) { c.UserLimit, c.Embedder = 0, sameVector{} })
	ctx := context.Background()
	f.bot.Handle(ctx, query("What is the minimum trench depth for DC cables?"))
	para, _ := f.bot.Handle(ctx, query("Minimum trench depth of DC cables, please"))
	if !para.Cached {
		t.Errorf("a paraphrase naming the same things missed the semantic cache")
	}
	other, _ := f.bot.Handle(ctx, query("What is the minimum trench depth for AC cables?"))
	if other.Cached {
		t.Errorf("the DC answer was served for an AC question")
	}
}
