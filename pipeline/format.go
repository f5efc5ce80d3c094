package pipeline

import (
	"fmt"
	"strings"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
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

// judgement is the confidence shown with an answer, or a refusal.
type judgement struct {
	conf   answer.Confidence
	refuse bool
}

// judge rates an answer: with a calibrated model for its generator, the
// model's probability that it is right (refused below the model's
// threshold); otherwise the uncalibrated blend.
func (r *run) judge(qa query.Analysis, gen generate.Result, ranked []store.Hit, pre guard.PreVerdict, post guard.PostVerdict) judgement {
	m := r.p.cfg.Confidence
	if m == nil || gen.Generator != m.Generator || gen.Features == nil {
		return judgement{conf: blend(ranked, post)}
	}
	if !m.Judges(gen.Features) {
		// The answer lacks what the model needs (the embedder failed):
		// the model fitted without it judges.
		if m = r.p.cfg.ConfidenceFallback; m == nil || gen.Generator != m.Generator || !m.Judges(gen.Features) {
			return judgement{conf: blend(ranked, post)}
		}
	}
	f := confidence.Features{}
	for k, v := range gen.Features {
		f[k] = v
	}
	if len(ranked) > 0 {
		f["rerank_top"] = clamp01(ranked[0].Score)
	}
	if len(post.Cited) > 0 {
		f["rerank_cited"] = clamp01(ranked[post.Cited[0]-1].Score)
	}
	f["pre_coverage"] = clamp01(pre.Coverage)
	f["unmatched_rarity"] = unmatchedRarity(qa.Text, ranked, post.Cited, r.speller)
	f["support"] = clamp01(post.Support)
	if len(qa.Corrections) > 0 {
		f["corrected"] = 1
	}
	r.ans.Trace.Features = f
	p := m.Probability(f)
	level := m.Level(p, f)
	conf := answer.Confidence{Level: answer.Level(level), Score: round3(p), Reason: reasonFor(f, len(post.Cited), qa)}
	if level == "" {
		if !r.p.cfg.KeepUnconfident {
			conf.Reason = fmt.Sprintf("the best passage does not answer clearly enough (calibrated confidence %.2f, below %.2f)", p, m.RefuseBelow(f))
			return judgement{conf: conf, refuse: true}
		}
		conf.Level = answer.LevelLow
	}
	return judgement{conf: conf}
}

// FeatureDirections are the signs the calibrated confidence's weights must
// have (confidence.FitOptions.Directions): a better match, a clearer
// margin, a value of the asked kind, more agreement can only make an
// answer more likely right; a missing or corrected word only less. What
// depends on the kind of question (a table row, several parts, a model
// number, a dimension asked) may go either way.
var FeatureDirections = map[string]float64{
	"reader_score": 1, "reader_coverage": 1, "margin": 1, "consensus": 1, "typed_value": 1,
	"label": 1, "codes_whole": 1, "qualifiers": 1, "sense": 1, "sense_margin": 1, "first_chunk": 1,
	"rerank_top": 1, "rerank_cited": 1, "pre_coverage": 1, "support": 1,
	"missing": -1, "unmatched_rarity": -1, "corrected": -1, "no_number": -1,
}

// EmbedderFeatures are the features only an embedder measures: an answer
// read by words alone lacks them, and a model that weighs them needs them
// (confidence.Model.Needs).
var EmbedderFeatures = []string{"sense", "sense_margin"}

// unmatchedRarity is the rarity in the index of the rarest word of the
// question that no cited passage holds (title, section and sheet
// included): a question about the "snow scenario" answered from a passage
// that never says "snow" is likely answered about something else.
func unmatchedRarity(question string, ranked []store.Hit, cited []int, sp *query.Speller) float64 {
	if sp == nil || len(cited) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, n := range cited {
		c := ranked[n-1].Chunk
		for _, t := range analysis.Tokens(c.Text + "\n" + c.Title + "\n" + c.Section + "\n" + c.Sheet) {
			have[t.Term] = true
		}
	}
	worst := 0.0
	for _, t := range analysis.Tokens(question) {
		if t.Kind != analysis.Word || analysis.IsStopword(t.Text) || len(t.Text) < 3 || have[t.Term] {
			continue
		}
		worst = max(worst, sp.Rarity(t.Text))
	}
	return worst
}

// reasonFor says in words what the confidence rests on.
func reasonFor(f confidence.Features, sources int, qa query.Analysis) string {
	var parts []string
	if sources == 1 {
		parts = append(parts, "1 source")
	} else {
		parts = append(parts, fmt.Sprintf("%d sources", sources))
	}
	if f["label"] == 1 {
		parts = append(parts, "the table row is the one asked about")
	}
	if f["place"] == 1 {
		parts = append(parts, "the place matches the row's")
	} else if f["codes_whole"] == 1 {
		parts = append(parts, "the model number matches exactly")
	} else if f["codes"] == 1 {
		parts = append(parts, "the model number matches only part of a longer one")
	}
	if f["typed_value"] == 1 {
		parts = append(parts, "the value has the kind of unit asked for")
	}
	if f["consensus"] > 0 {
		parts = append(parts, "other passages state the same value")
	}
	if f["margin"] < 0.05 {
		parts = append(parts, "another passage came close")
	}
	for _, c := range qa.Corrections {
		parts = append(parts, fmt.Sprintf("read %q as %q", c.From, c.To))
	}
	return strings.Join(parts, "; ")
}

func clamp01(x float64) float64 { return min(1, max(0, x)) }

// blend is the uncalibrated confidence: how well each sentence is supported
// by its source, how relevant the best passage is, and how many sources
// agree.
func blend(ranked []store.Hit, post guard.PostVerdict) answer.Confidence {
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
