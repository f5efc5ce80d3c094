// Package pipeline is cew's guarded question-answering pipeline: validate,
// classify, retrieve, rank, pre-guard, generate, post-guard, and format the
// answer contract with its sources and confidence. Every stage is timed into
// the answer. Not answering is a normal outcome with a reason code; an error
// is returned only when a dependency failed.
package pipeline

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/pipeline/rank"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/register"
)

// QueryEmbedder embeds the question for dense retrieval.
type QueryEmbedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Config wires a Pipeline. Searcher, Catalog and Generator are required.
type Config struct {
	Searcher  store.Searcher
	Catalog   store.Catalog
	Generator generate.Generator
	// Embedder enables hybrid retrieval; nil means BM25 only.
	Embedder QueryEmbedder
	// Reranker reorders candidates; nil means the lexical reranker. When a
	// configured reranker fails, the lexical one is used for that question.
	Reranker rank.Reranker
	Validate guard.ValidateOptions
	Pre      guard.PreOptions
	Post     guard.PostOptions
	// Candidates is how many hits retrieval returns (default 50); TopK how
	// many ranked chunks reach the generator (default DefaultTopK).
	Candidates int
	TopK       int
	Logger     *slog.Logger
	// Confidence is the calibrated model for the extractive generator's
	// answers; nil keeps the uncalibrated blend (see confidence).
	// ConfidenceFallback judges the answers Confidence cannot (one that
	// lacks a feature the model needs, as when the embedder failed).
	Confidence, ConfidenceFallback *confidence.Model
	// KeepUnconfident shows answers the calibrated model would refuse, at
	// level "low": for collecting the samples a model is fitted on.
	KeepUnconfident bool
	// NewID and Now are seams for tests.
	NewID func() string
	Now   func() time.Time
}

// DefaultTopK is how many ranked chunks reach the generator: the extractive
// reader reads them all (on the domain dev set the answering table was often
// sixth to tenth after reranking), an LLM generator the first few (see
// generate.LLMOptions.MaxChunks).
const DefaultTopK = 10

// Pipeline answers questions. It is safe for concurrent use.
type Pipeline struct {
	cfg      Config
	lexical  *rank.Lexical
	spellers spellers
}

// New validates cfg and returns a Pipeline.
func New(cfg Config) (*Pipeline, error) {
	if cfg.Searcher == nil || cfg.Catalog == nil || cfg.Generator == nil {
		return nil, errors.New("pipeline: Searcher, Catalog and Generator are required")
	}
	if cfg.Candidates <= 0 {
		cfg.Candidates = store.DefaultK
	}
	if cfg.TopK <= 0 {
		cfg.TopK = DefaultTopK
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.NewID == nil {
		cfg.NewID = rand.Text
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	p := &Pipeline{cfg: cfg, lexical: rank.NewLexical(rank.LexicalOptions{})}
	if cfg.Reranker == nil {
		p.cfg.Reranker = p.lexical
	}
	return p, nil
}

// Request is one question.
type Request struct {
	Tenant   string
	Question string
	// Platform phrases the canned replies (help, greeting) for where the
	// question was asked; "" means plain words.
	Platform answer.Platform
	// Vector is the question's embedding when the caller already has it
	// (the semantic cache computed it); nil means embed here if configured.
	// It drives dense retrieval only when an Embedder is configured; the
	// reader may use it either way.
	Vector []float32
	// EmbedFailed says the caller already tried to embed the question and
	// failed: search by keyword only (a degraded answer) rather than wait
	// on the embedder a second time.
	EmbedFailed bool
	// OnToken receives generated text as it streams (LLM generator only).
	// Streamed text is a draft: the post-guard may still reject it.
	OnToken func(string)
}

// Answer runs the pipeline. The returned Answer is always usable; the error
// is non-nil only when a dependency failed (the Answer then has status
// "error" and a reference the user can quote).
func (p *Pipeline) Answer(ctx context.Context, req Request) (answer.Answer, error) {
	run := p.newRun(req.Question)
	ans, err := run.answer(ctx, req)
	ans.TimingsMS["total"] = ms(p.cfg.Now().Sub(run.start))
	return ans, err
}

// Status answers a document status lookup from the register directly, as
// "/cew status <document>" asks, without classifying the text.
func (p *Pipeline) Status(ctx context.Context, tenant, query string) (answer.Answer, error) {
	run := p.newRun("status " + query)
	if tenant == "" {
		return run.fail(store.ErrNoTenant)
	}
	ans, err := run.statusLookup(ctx, tenant, strings.TrimSpace(query))
	ans.TimingsMS["total"] = ms(p.cfg.Now().Sub(run.start))
	return ans, err
}

func (p *Pipeline) newRun(question string) *run {
	return &run{p: p, start: p.cfg.Now(), ans: answer.Answer{
		ID: p.cfg.NewID(), Sources: []answer.Source{}, TimingsMS: map[string]float64{},
		Question: question, StandaloneQuestion: question,
	}}
}

// run is the state of one question moving through the stages.
type run struct {
	p     *Pipeline
	start time.Time
	ans   answer.Answer
	// queryVector is the question's embedding, once retrieval has one.
	queryVector []float32
	// speller is the tenant's vocabulary, when the store has one.
	speller *query.Speller
}

// stage times fn into the answer under name.
func (r *run) stage(name string, fn func()) {
	t := r.p.cfg.Now()
	fn()
	r.ans.TimingsMS[name] += ms(r.p.cfg.Now().Sub(t))
}

func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

func (r *run) answer(ctx context.Context, req Request) (answer.Answer, error) {
	if req.Tenant == "" {
		return r.fail(store.ErrNoTenant)
	}
	var (
		question string
		reason   guard.Reason
		message  string
	)
	r.stage("validate", func() { question, reason, message = guard.Validate(req.Question, r.p.cfg.Validate) })
	if reason != guard.None {
		return r.blocked(reason, message), nil
	}

	var intent classify.Intent
	r.stage("classify", func() { intent = classify.Classify(question) })
	switch intent.Kind {
	case classify.KindSmalltalk, classify.KindHelp:
		r.ans.Status, r.ans.Intent = answer.StatusSmalltalk, string(intent.Kind)
		r.ans.Answer = answer.CannedText(intent.Reply, req.Platform)
		r.ans.Confidence = answer.Confidence{Level: "high", Score: 1, Reason: "canned reply, no documents needed"}
		return r.ans, nil
	case classify.KindStatus:
		return r.statusLookup(ctx, req.Tenant, intent.DocQuery)
	}
	r.ans.Intent = string(intent.Category)
	r.ans.Trace.Category, r.ans.Trace.Complexity = string(intent.Category), string(intent.Complexity)

	var qa query.Analysis
	r.stage("analyse", func() { qa = r.analyse(ctx, req.Tenant, question, intent) })
	question = qa.Text

	hits, err := r.retrieve(ctx, req, qa)
	if err != nil {
		return r.fail(err)
	}
	var (
		ranked  []store.Hit
		imprint []string
	)
	r.stage("rank", func() {
		ranked = r.rank(ctx, qa.Subject, hits, intent.Hints)
		// A document's title and back pages are retrieved for a question
		// about the document, and the entries of its reference list for
		// one about a work it cites, before the pre-guard judges what
		// was found.
		ranked, imprint = r.withImprint(ctx, req.Tenant, qa, ranked)
		ranked = r.withReferences(ctx, req.Tenant, qa, ranked, hits)
	})

	var pre guard.PreVerdict
	// The pre-guard looks for what the question is about (qa.Subject):
	// "full name" in "cercla full name" asks, it is no word a passage
	// must hold.
	r.stage("pre_guard", func() { pre = guard.Pre(qa.Subject, ranked, r.p.cfg.Pre) })
	r.ans.Trace.PreGuard = string(pre.Reason)
	if !pre.OK {
		return r.notFound(pre.Reason, pre.Detail, ranked), nil
	}
	if w := qa.Expect.Unnamed; w != "" {
		// "what stow angle do 1-axis trackers assume": no document says
		// "stow"; an angle they state is another one.
		return r.notFound(guard.NoKeywordMatch, fmt.Sprintf("no document names the %q kind of what is asked", w), ranked), nil
	}

	chunks := make([]store.Chunk, len(ranked))
	for i, h := range ranked {
		chunks[i] = h.Chunk
	}
	var before []store.Chunk
	r.stage("rank", func() { before = r.tableHeads(ctx, req.Tenant, chunks) })
	var gen generate.Result
	r.stage("generate", func() {
		gen, err = r.p.cfg.Generator.Generate(ctx, generate.Request{
			Question: question, Category: string(intent.Category), Complexity: string(intent.Complexity),
			Expect: qa.Expect, Stray: qa.Stray, Chunks: chunks, QueryVector: r.queryVector, OnToken: req.OnToken, Imprint: imprint,
			Before: before,
		})
	})
	if err != nil {
		return r.fail(fmt.Errorf("generate: %w", err))
	}
	r.ans.Trace.Generator, r.ans.Trace.FallbackReason = gen.Generator, gen.FallbackReason
	r.ans.Trace.PromptTokens, r.ans.Trace.CompletionTokens = gen.PromptTokens, gen.CompletionTokens
	if gen.FellBack {
		r.ans.Trace.Degraded = append(r.ans.Trace.Degraded, "llm")
		r.p.cfg.Logger.Warn("generator fell back", "answer_id", r.ans.ID, "reason", gen.FallbackReason)
	}
	if gen.NotFound {
		return r.notFound(guard.NoSource, "the passages retrieved do not state the answer", ranked), nil
	}

	var post guard.PostVerdict
	r.stage("post_guard", func() {
		post = guard.Post(ctx, question, gen.Text, chunks, r.p.cfg.Post)
		if post.OK && len(post.Cited) > 0 {
			post = guard.Expected(post, qa.Expect, chunks)
		}
	})
	r.ans.Trace.PostGuard = string(post.Reason)
	if !post.OK {
		r.p.cfg.Logger.Info("answer rejected by post-guard", "answer_id", r.ans.ID, "reason", post.Reason, "detail", post.Detail)
		return r.notFound(post.Reason, post.Detail, ranked), nil
	}
	if len(post.Cited) == 0 {
		// The generator itself said the documents do not answer.
		return r.notFound(guard.NoSource, "the passages retrieved do not state the answer", ranked), nil
	}
	var judged judgement
	r.stage("confidence", func() { judged = r.judge(qa, gen, ranked, pre, post) })
	if judged.refuse {
		return r.notFound(guard.LowConfidence, judged.conf.Reason, ranked), nil
	}
	r.stage("format", func() { r.format(gen.Text, ranked, post, judged.conf) })
	return r.ans, nil
}

// retrieve embeds the question when it can and searches: keyword search
// reads the question with its abbreviations spelled out, the embedder the
// question as the reader sees it. An embedder failure, here or already in
// the caller, degrades to keyword search; a store failure is an error.
// The embedder reads the question without the marks that end it
// (generate.EmbeddingText).
func (r *run) retrieve(ctx context.Context, in Request, qa query.Analysis) ([]store.Hit, error) {
	question := generate.EmbeddingText(qa.Text)
	req := store.SearchRequest{Tenant: in.Tenant, Query: qa.Search, Mode: store.ModeHybrid, K: r.p.cfg.Candidates, Vector: in.Vector}
	if req.Vector != nil && question != EmbeddingText(in.Question) && r.p.cfg.Embedder != nil {
		// The caller embedded the question as asked; the reader and
		// dense retrieval read it as analysed ("hey, quick q: paco of the
		// sb7000tl-us-22 thx" is "paco of the sb7000tl-us-22"), as when
		// nobody embedded it before.
		req.Vector = nil
	}
	if req.Vector == nil && r.p.cfg.Embedder != nil {
		if in.EmbedFailed {
			r.ans.Trace.Degraded = append(r.ans.Trace.Degraded, "embedder")
		} else {
			var (
				vecs [][]float32
				err  error
			)
			r.stage("embed", func() { vecs, err = r.p.cfg.Embedder.Embed(ctx, []string{question}) })
			switch {
			case err == nil && len(vecs) == 1:
				req.Vector = vecs[0]
			case in.Vector != nil:
				// The question as asked still has its vector.
				req.Vector = in.Vector
			default:
				r.ans.Trace.Degraded = append(r.ans.Trace.Degraded, "embedder")
				r.p.cfg.Logger.Warn("query embedding failed; keyword search only", "answer_id", r.ans.ID, "err", err)
			}
		}
	}
	r.queryVector = req.Vector
	if r.p.cfg.Embedder == nil {
		// Without dense retrieval a vector the caller made (for its
		// semantic cache) serves the reader only.
		req.Vector = nil
	}
	var (
		hits []store.Hit
		err  error
	)
	r.stage("retrieve", func() { hits, err = r.p.cfg.Searcher.Search(ctx, req) })
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	return hits, nil
}

// rank reranks the candidates (falling back to the lexical reranker when a
// configured one fails) and keeps the top chunks.
func (r *run) rank(ctx context.Context, question string, hits []store.Hit, hints classify.Hints) []store.Hit {
	if len(hits) == 0 {
		return nil
	}
	reranked, err := r.p.cfg.Reranker.Rerank(ctx, question, hits)
	if err != nil {
		r.ans.Trace.Degraded = append(r.ans.Trace.Degraded, "reranker")
		r.p.cfg.Logger.Warn("reranker failed; lexical reranking", "answer_id", r.ans.ID, "err", err)
		reranked, _ = r.p.lexical.Rerank(ctx, question, hits)
	}
	return rank.Select(reranked, rank.SelectOptions{TopK: r.p.cfg.TopK, Hints: hints, Query: question})
}

// format fills sources (the chunks cited, in citation order, renumbered
// [S1]… to match), related documents and confidence.
func (r *run) format(text string, ranked []store.Hit, post guard.PostVerdict, conf answer.Confidence) {
	renumber := make(map[int]int, len(post.Cited))
	cited := map[string]bool{}
	for i, n := range post.Cited {
		h := ranked[n-1]
		renumber[n] = i + 1
		r.ans.Sources = append(r.ans.Sources, SourceFromHit(h))
		r.ans.Trace.CitedChunks = append(r.ans.Trace.CitedChunks, h.Chunk.ID)
		cited[h.Chunk.DocID] = true
	}
	r.ans.Answer = renumberCitations(text, renumber)
	r.ans.Related = related(ranked, cited)
	r.ans.Status = answer.StatusAnswered
	r.ans.Confidence = conf
}

func related(ranked []store.Hit, exclude map[string]bool) []answer.Source {
	var out []answer.Source
	seen := map[string]bool{}
	for _, h := range ranked {
		if exclude[h.Chunk.DocID] || seen[h.Chunk.DocID] {
			continue
		}
		seen[h.Chunk.DocID] = true
		out = append(out, SourceFromHit(h))
	}
	return out
}

// notFound is the refusal: the fixed sentence, the reason, and the
// documents that came closest, so the user knows where to look.
func (r *run) notFound(reason guard.Reason, detail string, ranked []store.Hit) answer.Answer {
	r.ans.Status, r.ans.Reason, r.ans.Answer = answer.StatusNotFound, reason, answer.NotFoundText
	r.ans.Related = related(ranked, nil)
	r.ans.Confidence = answer.Confidence{Level: "low", Score: 0, Reason: detail}
	return r.ans
}

func (r *run) blocked(reason guard.Reason, message string) answer.Answer {
	r.ans.Status, r.ans.Reason, r.ans.Answer = answer.StatusBlocked, reason, message
	r.ans.Confidence = answer.Confidence{Level: "low", Score: 0, Reason: message}
	return r.ans
}

func (r *run) fail(err error) (answer.Answer, error) {
	r.ans.Status, r.ans.Reason = answer.StatusError, guard.Internal
	r.ans.Answer = answer.Apology(r.ans.ID)
	r.ans.Confidence = answer.Confidence{Level: "low", Score: 0, Reason: "internal error"}
	return r.ans, fmt.Errorf("pipeline: answer %s: %w", r.ans.ID, err)
}

// statusLookup answers "/cew status <document>" from the register.
func (r *run) statusLookup(ctx context.Context, tenant, query string) (answer.Answer, error) {
	r.ans.Intent = answer.IntentDocumentStatus
	var (
		entries []register.Entry
		err     error
	)
	r.stage("status_lookup", func() { entries, err = register.Lookup(ctx, r.p.cfg.Catalog, tenant, query) })
	if err != nil {
		return r.fail(err)
	}
	if len(entries) == 0 {
		r.ans.Status, r.ans.Reason = answer.StatusNotFound, guard.DocNotFound
		r.ans.Answer = fmt.Sprintf("No document in the register matches %q.", query)
		r.ans.Confidence = answer.Confidence{Level: "high", Score: 1, Reason: "register lookup, no match"}
		return r.ans, nil
	}
	const maxShown = 5
	var lines []string
	for i, e := range entries {
		if i == maxShown {
			break
		}
		lines = append(lines, StatusLine(e)+fmt.Sprintf(" [S%d]", i+1))
		r.ans.Sources = append(r.ans.Sources, answer.Source{
			DocID: e.DocID, DocName: answer.DocName(e.Number, e.Title), Revision: e.Revision, DriveLink: e.DriveLink,
			Snippet: StatusLine(e), Score: round3(max(e.Score, 0)), DocNumber: e.Number, Title: e.Title,
		})
	}
	r.ans.Status = answer.StatusAnswered
	r.ans.Answer = strings.Join(lines, "\n")
	r.ans.Confidence = answer.Confidence{Level: "high", Score: 1, Reason: "read from the document register"}
	if len(entries) > 1 {
		r.ans.Confidence = answer.Confidence{Level: "medium", Score: 0.6, Reason: fmt.Sprintf("%d documents match; the closest are listed", len(entries))}
	} else {
		r.stage("title_page", func() { r.withTitlePage(ctx, tenant, entries[0]) })
	}
	return r.ans, nil
}

// StatusLine is one document's register status in a sentence.
func StatusLine(e register.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", answer.DocName(e.Number, e.Title))
	if e.Revision != "" {
		fmt.Fprintf(&b, " is at revision %s", e.Revision)
	} else {
		b.WriteString(" has no revision marked")
	}
	if e.Status != "" {
		fmt.Fprintf(&b, ", status %s", e.Status)
	}
	if e.Date != "" {
		fmt.Fprintf(&b, ", dated %s", e.Date)
	}
	if !e.Active {
		b.WriteString(" (withdrawn: not searched)")
	}
	if len(e.Superseded) > 0 {
		revs := make([]string, len(e.Superseded))
		for i, s := range e.Superseded {
			revs[i] = s.Revision
		}
		fmt.Fprintf(&b, "; earlier revisions: %s", strings.Join(revs, ", "))
	}
	b.WriteString(".")
	return b.String()
}

// EmbeddingText is a question as the embedder reads it
// (generate.EmbeddingText). A caller that embeds the question for its own
// use — a semantic cache — embeds this text, and the pipeline reuses its
// vector when the analysis reads the question as asked.
func EmbeddingText(question string) string { return generate.EmbeddingText(question) }
