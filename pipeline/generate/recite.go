package generate

import (
	"context"
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
)

// recite corrects the citation of sentences that cite the wrong source:
// small models tend to cite [S1] for a value that [S2] states. A sentence
// that cites some source, fails the post-guard's checks against it, and
// passes every one of them against another single source given — the
// same numbers, codes, names, qualifiers and support — cites that source
// instead, the best-ranked one first. Nothing else changes: the sentence
// still meets the whole post-guard afterwards, against its new source, so
// a value no source states is never let through. Sentences without any
// citation are left to the guard: the model did not say where they come
// from. Nor are sentences citing a source number that was never given.
func recite(ctx context.Context, question, text string, chunks []store.Chunk) string {
	if len(chunks) < 2 {
		return text
	}
	// The lexical checks decide; the model-based verifier, when one is
	// configured, still has its say when the whole answer is checked.
	opts := guard.DefaultPostOptions()
	for _, s := range guard.SplitSentences(text) {
		if len(s.Citations) == 0 || s.Claim == "" || slices.ContainsFunc(s.Citations, func(n int) bool { return n < 1 || n > len(chunks) }) {
			// A source number that was never given is an invented
			// source, not a slip between two real ones: the guard
			// refuses it.
			continue
		}
		if guard.Post(ctx, question, s.Text, chunks, opts).OK {
			continue
		}
		bare := strings.TrimSpace(guard.StripCitations(s.Text))
		for i := range chunks {
			if containsInt(s.Citations, i+1) {
				continue
			}
			candidate := appendCitation(bare, citation(i))
			if guard.Post(ctx, question, candidate, chunks, opts).OK {
				text = strings.Replace(text, s.Text, candidate, 1)
				break
			}
		}
	}
	return text
}

func containsInt(s []int, n int) bool {
	for _, v := range s {
		if v == n {
			return true
		}
	}
	return false
}
