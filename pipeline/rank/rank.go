// Package rank reorders retrieval candidates so the chunks that answer a
// question come first: a reranker re-scores them (a lexical proximity
// reranker by default, a cross-encoder behind an HTTP /rerank endpoint when
// configured), then Select penalises boilerplate pages, drops
// near-duplicates and keeps the best few for the guards and the generator.
//
// Every score this package returns is in [0,1], higher is better, and
// meaningful in absolute terms: the pre-guard refuses to answer when the
// best one is low.
package rank

import (
	"cmp"
	"context"
	"slices"

	"github.com/cewhq/cew/store"
)

// Reranker re-scores candidates for a query. It returns the hits with Score
// replaced by its own score in [0,1], best first, ties ordered by chunk id.
// It must not modify the slice it is given.
type Reranker interface {
	Rerank(ctx context.Context, query string, hits []store.Hit) ([]store.Hit, error)
}

// sortHits orders hits best first; equal scores fall back to chunk id so
// the order never depends on the input order.
func sortHits(hits []store.Hit) {
	slices.SortStableFunc(hits, func(a, b store.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Chunk.ID, b.Chunk.ID)
	})
}

// clamp01 keeps a score on the package's scale; NaN becomes 0 so a bad
// upstream value can never sort first.
func clamp01(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return min(x, 1)
}
