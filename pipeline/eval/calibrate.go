package eval

import (
	"fmt"
	"math"
	"sort"

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

// CalibrationSummary describes a fitted model on its own samples: its
// weights, thresholds and how many answers each level keeps and gets right.
func CalibrationSummary(m confidence.Model, samples []confidence.Sample) []string {
	lines := []string{fmt.Sprintf("fitted on %d answers (%d right), L2 %.2f, log loss %.3f (out of fold %.3f)",
		m.Fit.Samples, m.Fit.Right, m.Fit.L2, m.Fit.LogLoss, m.Fit.OutOfFoldLogLoss)}
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
	type tally struct{ n, right int }
	levels := map[string]*tally{"high": {}, "medium": {}, "low": {}, "refused": {}}
	for _, s := range samples {
		l := m.Level(m.Probability(s.Features))
		if l == "" {
			l = "refused"
		}
		levels[l].n++
		if s.Right {
			levels[l].right++
		}
	}
	for _, l := range []string{"high", "medium", "low", "refused"} {
		t := levels[l]
		lines = append(lines, fmt.Sprintf("  %-8s %3d answers, %3d right (%s)", l, t.n, t.right, pct(t.right, t.n)))
	}
	return lines
}
