package pipeline

import (
	"fmt"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store"
)

// renumberCitations rewrites [S#] markers so they number the answer's
// sources 1..n in citation order rather than the ranked chunks; the guard
// owns the citation grammar.
func renumberCitations(text string, renumber map[int]int) string {
	return guard.RenumberCitations(text, renumber)
}

// Confidence thresholds on the blended score.
const (
	highConfidence   = 0.7
	mediumConfidence = 0.45
)

// confidence blends how well each sentence is supported by its source, how
// relevant the best passage is, and how many sources agree.
func confidence(ranked []store.Hit, post guard.PostVerdict) answer.Confidence {
	top := 0.0
	if len(ranked) > 0 {
		top = ranked[0].Score
	}
	n := len(post.Cited)
	score := 0.5*post.Support + 0.35*top + 0.15*float64(min(n, 3))/3
	score = round3(min(1, max(0, score)))
	level := answer.LevelLow
	switch {
	case score >= highConfidence:
		level = answer.LevelHigh
	case score >= mediumConfidence:
		level = answer.LevelMedium
	}
	sources := "1 source"
	if n != 1 {
		sources = fmt.Sprintf("%d sources", n)
	}
	return answer.Confidence{
		Level:  level,
		Score:  score,
		Reason: fmt.Sprintf("%s, every statement cited; support %.2f, best passage relevance %.2f", sources, post.Support, top),
	}
}
