package eval

import (
	"fmt"
	"math"
	"sort"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline/confidence"
)

// CalibrationSamples are the answered questions of one split that carry
// confidence features: right answers are positive samples; wrong answers
// and answered unanswerable questions negative. Answers citing the same
// first source are one group (see confidence.Sample).
func CalibrationSamples(outcomes []DomainOutcome, split string) []confidence.Sample {
	var out []confidence.Sample
	for _, o := range outcomes {
		if o.Split != split || !o.Answered() || len(o.Trace.Features) == 0 {
			continue
		}
		s := confidence.Sample{Features: o.Trace.Features, Right: o.Verdict == VerdictRight}
		if len(o.Sources) > 0 {
			s.Group = GoldPlace(o.Sources[0]).String()
		}
		out = append(out, s)
	}
	return out
}

// BorrowedSamples are the answered SQuAD questions of a cew eval qa
// outcomes file (written with --keep-unconfident), as samples that help fit
// the confidence weights but not its thresholds (see confidence.Sample):
// a right answer is positive; a wrong one, or an answered unanswerable
// question, negative. Questions of one article are one group. Their
// weights together make share times the weight of own samples.
func BorrowedSamples(outcomes []QAOutcome, own int, share float64) []confidence.Sample {
	var out []confidence.Sample
	for _, o := range outcomes {
		if o.Status != answer.StatusAnswered || len(o.Features) == 0 {
			continue
		}
		out = append(out, confidence.Sample{Features: o.Features, Right: o.Correct, Group: "squad:" + o.Article, Borrowed: true})
	}
	if len(out) > 0 {
		w := share * float64(own) / float64(len(out))
		for i := range out {
			out[i].Weight = w
		}
	}
	return out
}

// CalibrationSummary describes a fitted model on its own samples: its
// weights, thresholds and how many answers each level keeps and gets right,
// for the own samples and, apart, the borrowed ones.
func CalibrationSummary(m confidence.Model, samples []confidence.Sample) []string {
	lines := []string{fmt.Sprintf("fitted on %d answers (%d right), L2 %.2f, log loss %.3f (out of fold %.3f)",
		m.Fit.Samples, m.Fit.Right, m.Fit.L2, m.Fit.LogLoss, m.Fit.OutOfFoldLogLoss)}
	if m.Fit.Borrowed > 0 {
		lines = append(lines, fmt.Sprintf("  of which %d borrowed (%d right), weighing %.2f times the own answers; thresholds chosen on the own answers only",
			m.Fit.Borrowed, m.Fit.BorrowedRight, m.Fit.BorrowedShare),
			fmt.Sprintf("  out-of-fold log loss on the own answers alone %.3f", m.Fit.OwnOutOfFoldLogLoss))
	}
	names := make([]string, 0, len(m.Weights))
	for n := range m.Weights {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return math.Abs(m.Weights[names[i]]) > math.Abs(m.Weights[names[j]]) })
	for _, n := range names {
		lines = append(lines, fmt.Sprintf("  %-16s %+.3f", n, m.Weights[n]))
	}
	lines = append(lines, fmt.Sprintf("  %-16s %+.3f", "(bias)", m.Bias),
		fmt.Sprintf("thresholds: refuse below %.3f, medium from %.3f, high from %.3f", m.Refuse, m.Medium, m.High))
	if m.RefuseRows > 0 {
		lines = append(lines, fmt.Sprintf("  answers read from a table row or record: refuse below %.3f", m.RefuseRows))
	}
	type tally struct{ n, right int }
	for _, borrowed := range []bool{false, true} {
		levels := map[string]*tally{"high": {}, "medium": {}, "low": {}, "refused": {}}
		seen := 0
		for _, s := range samples {
			if s.Borrowed != borrowed {
				continue
			}
			seen++
			l := m.Level(m.Probability(s.Features), s.Features)
			if l == "" {
				l = "refused"
			}
			levels[l].n++
			if s.Right {
				levels[l].right++
			}
		}
		if seen == 0 {
			continue
		}
		if borrowed {
			lines = append(lines, "borrowed answers at these thresholds:")
		}
		for _, l := range []string{"high", "medium", "low", "refused"} {
			t := levels[l]
			lines = append(lines, fmt.Sprintf("  %-8s %4d answers, %4d right (%s)", l, t.n, t.right, pct(t.right, t.n)))
		}
	}
	return lines
}
