package pipeline

import (
	"context"
	"log/slog"
	"sync"

	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
)

// analyse reads the question once for every later stage, with spelling
// corrected against the tenant's own vocabulary when the store offers one.
func (r *run) analyse(ctx context.Context, tenant, question string, intent classify.Intent) query.Analysis {
	r.speller = r.p.spellers.get(ctx, r.p.cfg.Searcher, tenant, r.p.cfg.Logger)
	qa := query.Analyse(question, query.Input{
		Technical:  intent.Category == classify.CategoryTechnicalValue,
		Expansions: intent.Hints.ExpandTerms,
		Speller:    r.speller,
	})
	r.ans.Trace.Read = qa.Text
	for _, c := range qa.Corrections {
		r.ans.Trace.Corrections = append(r.ans.Trace.Corrections, c.From+" → "+c.To)
	}
	r.ans.Trace.Stray = qa.Stray
	for _, d := range qa.Expect.Dims {
		r.ans.Trace.Expect = append(r.ans.Trace.Expect, string(d))
	}
	return qa
}

// spellers keeps one speller per tenant, rebuilt when the tenant's index
// generation moves.
type spellers struct {
	mu sync.Mutex
	by map[string]spellerEntry
}

type spellerEntry struct {
	generation uint64
	speller    *query.Speller
}

// get returns the tenant's speller, or nil when the store has no lexicon
// or it cannot be read (the question is then read as typed).
func (s *spellers) get(ctx context.Context, searcher store.Searcher, tenant string, log *slog.Logger) *query.Speller {
	lex, ok := searcher.(store.Lexicon)
	if !ok {
		return nil
	}
	vocab, err := lex.Vocabulary(ctx, tenant)
	if err != nil {
		log.Warn("vocabulary unavailable; spelling not corrected", "tenant", tenant, "err", err)
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.by[tenant]; ok && e.generation == vocab.Generation && e.speller != nil {
		return e.speller
	}
	sp := query.NewSpeller(vocab.Words)
	if s.by == nil {
		s.by = map[string]spellerEntry{}
	}
	s.by[tenant] = spellerEntry{generation: vocab.Generation, speller: sp}
	return sp
}
