package confidence

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// synthetic draws answers whose chance of being right rises with "score"
// and falls with "missing", as the reader's features do.
func synthetic(n int, seed uint64) []Sample {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]Sample, n)
	for i := range out {
		score, missing := r.Float64(), r.Float64()
		p := sigmoid(6*score - 4*missing - 1)
		out[i] = Sample{Features: Features{"score": score, "missing": missing}, Right: r.Float64() < p}
	}
	return out
}

func TestFitRecoversDirectionAndCalibrates(t *testing.T) {
	m, err := Fit("extractive", "synthetic", synthetic(2000, 1), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Weights["score"] <= 0 || m.Weights["missing"] >= 0 {
		t.Fatalf("weights = %v, want score positive and missing negative", m.Weights)
	}
	if !(m.Refuse <= m.Medium && m.Medium <= m.High) {
		t.Fatalf("thresholds out of order: %+v", m)
	}
	// On fresh samples from the same process, "high" keeps its promise.
	kept, right := 0, 0
	for _, s := range synthetic(4000, 2) {
		if m.Level(m.Probability(s.Features), s.Features) == "high" {
			kept++
			if s.Right {
				right++
			}
		}
	}
	if kept == 0 || float64(right) < 0.9*float64(kept) {
		t.Fatalf("high level: %d of %d right, want at least 90%%", right, kept)
	}
}

func TestFitNeedsBothOutcomes(t *testing.T) {
	all := []Sample{{Features: Features{"x": 1}, Right: true}, {Features: Features{"x": 0.5}, Right: true}}
	if _, err := Fit("extractive", "", all, FitOptions{}); err == nil {
		t.Fatal("Fit with only right answers: want an error")
	}
}

func TestLevel(t *testing.T) {
	m := Model{Weights: map[string]float64{"x": 1}, Refuse: 0.5, Medium: 0.7, High: 0.9, RefuseRows: 0.3}
	row := Features{RowFeature: 1}
	tests := []struct {
		p    float64
		f    Features
		want string
	}{
		{0.95, nil, "high"}, {0.9, nil, "high"}, {0.8, nil, "medium"}, {0.6, nil, "low"}, {0.4, nil, ""},
		// An answer read from a row has its own refusal threshold.
		{0.4, row, "low"}, {0.2, row, ""}, {0.8, row, "medium"},
	}
	for _, tc := range tests {
		if got := m.Level(tc.p, tc.f); got != tc.want {
			t.Errorf("Level(%v, %v) = %q, want %q", tc.p, tc.f, got, tc.want)
		}
	}
	// Without a threshold of their own, rows share the common one.
	m.RefuseRows = 0
	if got := m.Level(0.4, row); got != "" {
		t.Errorf("Level(0.4, row) without RefuseRows = %q, want refused", got)
	}
}

// TestFitRowsThreshold: answers read from rows that are right more often
// than running text at the same probability get a lower refusal
// threshold, chosen on them alone; with too few rows there is none.
func TestFitRowsThreshold(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	var samples []Sample
	for i := range 1200 {
		score := r.Float64()
		f := Features{"score": score}
		p := sigmoid(8*score - 6)
		if i%3 == 0 {
			// Rows: right unless the score is very low.
			f[RowFeature] = 1
			p = sigmoid(20*score - 4)
		}
		samples = append(samples, Sample{Features: f, Right: r.Float64() < p})
	}
	m, err := Fit("extractive", "synthetic", samples, FitOptions{Directions: map[string]float64{"score": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !(m.RefuseRows > 0 && m.RefuseRows < m.Refuse) {
		t.Fatalf("RefuseRows = %.3f, Refuse = %.3f: want rows refused below a lower threshold", m.RefuseRows, m.Refuse)
	}
	few := slices.DeleteFunc(slices.Clone(samples), func(s Sample) bool { return s.Features[RowFeature] == 1 })[:600]
	few = append(few, samples[0], samples[3])
	m, err = Fit("extractive", "synthetic", few, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.RefuseRows != 0 {
		t.Fatalf("RefuseRows = %.3f from two rows, want 0", m.RefuseRows)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"valid", `{"generator":"extractive","weights":{"x":1},"bias":0,"refuse":0.1,"medium":0.5,"high":0.9,"fit":{}}`, true},
		{"no weights", `{"generator":"extractive","weights":{},"refuse":0.1,"medium":0.5,"high":0.9}`, false},
		{"thresholds out of order", `{"generator":"extractive","weights":{"x":1},"refuse":0.6,"medium":0.5,"high":0.9}`, false},
		{"rows threshold", `{"generator":"extractive","weights":{"x":1},"refuse":0.6,"medium":0.7,"high":0.9,"refuse_rows":0.4}`, true},
		{"rows threshold above high", `{"generator":"extractive","weights":{"x":1},"refuse":0.6,"medium":0.7,"high":0.9,"refuse_rows":0.95}`, false},
		{"unknown field", `{"generator":"extractive","weights":{"x":1},"refuse":0.1,"medium":0.5,"high":0.9,"oops":1}`, false},
		{"not JSON", `{`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if (err == nil) != tc.ok {
				t.Errorf("Parse: err = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

func TestShippedModelLoads(t *testing.T) {
	for name, load := range map[string]func() (Model, error){"with the embedder": Extractive, "lexical": ExtractiveLexical} {
		m, err := load()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.Generator != "extractive" || m.Fit.Samples == 0 {
			t.Fatalf("%s: shipped model = %+v, want a fitted extractive model", name, m)
		}
		if name == "lexical" && len(m.Needs) > 0 {
			t.Fatalf("lexical model needs %v: it must judge answers read by words alone", m.Needs)
		}
	}
}

func TestFoldsKeepGroupsWhole(t *testing.T) {
	samples := []Sample{{Group: "p6"}, {Group: "p13"}, {}, {Group: "p6"}, {}, {Group: "p13"}, {Group: "p9"}, {}}
	fold := foldOf(samples)
	if fold[0] != fold[3] || fold[1] != fold[5] {
		t.Errorf("folds %v: answers about one page are split", fold)
	}
	// Groups and ungrouped answers go round the folds in order of first
	// appearance: p6, p13, -, -, p9, -.
	if want := []int{0, 1, 2, 0, 3, 1, 4, 0}; !slices.Equal(fold, want) {
		t.Errorf("folds %v, want %v", fold, want)
	}
}

func TestFitKeepsDirections(t *testing.T) {
	samples := synthetic(2000, 3)
	// "noise" is right more often by chance in these samples only when
	// it is high; a direction of -1 keeps it out of the model.
	for i := range samples {
		if samples[i].Right && i%3 == 0 {
			samples[i].Features["noise"] = 1
		}
	}
	free, err := Fit("extractive", "synthetic", samples, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if free.Weights["noise"] <= 0 {
		t.Fatalf("weights = %v: the test's noise feature should be picked with a positive weight when free", free.Weights)
	}
	bound, err := Fit("extractive", "synthetic", samples, FitOptions{Directions: map[string]float64{"noise": -1, "score": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := bound.Weights["noise"]; ok {
		t.Errorf("weights = %v: a feature against its direction was selected", bound.Weights)
	}
	if bound.Weights["score"] <= 0 {
		t.Errorf("weights = %v: score lost", bound.Weights)
	}
}

func TestWeightCountsAsRepetition(t *testing.T) {
	base := synthetic(300, 3)
	var twice, weighted []Sample
	for i, s := range base {
		twice, weighted = append(twice, s), append(weighted, s)
		if i%3 == 0 {
			twice = append(twice, s)
			weighted[len(weighted)-1].Weight = 2
		}
	}
	names := []string{"missing", "score"}
	a, b := fitModel("", names, twice, 1), fitModel("", names, weighted, 1)
	for _, n := range names {
		if math.Abs(a.Weights[n]-b.Weights[n]) > 1e-6 {
			t.Errorf("weight of %s: %.6f repeated, %.6f weighted", n, a.Weights[n], b.Weights[n])
		}
	}
	if math.Abs(a.Bias-b.Bias) > 1e-6 {
		t.Errorf("bias: %.6f repeated, %.6f weighted", a.Bias, b.Bias)
	}
}

// TestBorrowedSamplesFitWeightsNotThresholds: what the own samples cannot
// teach ("b" is always 1 among them) borrowed samples can, while the
// thresholds stay a promise about the own samples — though the borrowed
// ones, right at most half of the time, score as high.
func TestBorrowedSamplesFitWeightsNotThresholds(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 1))
	var own, borrowed []Sample
	for range 120 {
		a := r.Float64()
		own = append(own, Sample{Features: Features{"a": a, "b": 1}, Right: a > 0.5})
	}
	for range 600 {
		b := r.Float64()
		borrowed = append(borrowed, Sample{Features: Features{"a": 1, "b": b}, Right: r.Float64() < sigmoid(8*b-5)/2, Borrowed: true, Weight: 0.2})
	}
	alone, err := Fit("extractive", "own", own, FitOptions{L2: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := alone.Weights["b"]; ok {
		t.Fatalf("own samples alone gave b a weight: %v", alone.Weights)
	}
	m, err := Fit("extractive", "own + borrowed", append(slices.Clone(own), borrowed...), FitOptions{L2: 1, HighPrecision: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	if m.Weights["b"] <= 0 {
		t.Fatalf("weights = %v, want b positive", m.Weights)
	}
	if m.Fit.Samples != 720 || m.Fit.Borrowed != 600 || math.Abs(m.Fit.BorrowedShare-1) > 1e-9 {
		t.Fatalf("fit info = %+v, want 720 samples, 600 borrowed at share 1", m.Fit)
	}
	// "high" is a promise about own answers: those at or above it are
	// right as often as asked.
	kept, right := 0, 0
	for _, s := range own {
		if m.Probability(s.Features) >= m.High {
			kept++
			if s.Right {
				right++
			}
		}
	}
	if kept == 0 || float64(right) < 0.8*float64(kept) {
		t.Fatalf("own answers at high: %d of %d right", right, kept)
	}
	if _, err := Fit("extractive", "borrowed only", borrowed, FitOptions{L2: 1}); err == nil {
		t.Fatal("Fit on borrowed samples alone: want an error")
	}
}

func TestJudges(t *testing.T) {
	m := Model{Weights: map[string]float64{"sense": 1}, Needs: []string{"sense"}}
	if !m.Judges(Features{"sense": 0, "x": 1}) {
		t.Error("a needed feature present at 0: want judged")
	}
	if m.Judges(Features{"x": 1}) {
		t.Error("a needed feature absent: want not judged")
	}
	if !(Model{}).Judges(nil) {
		t.Error("a model needing nothing judges anything")
	}
}

// TestHoldRefusal raises the refusal threshold just enough to refuse the
// share asked of a set of unanswerable questions, moves the levels above
// it, and leaves a threshold that already refuses enough alone.
func TestHoldRefusal(t *testing.T) {
	base := Model{Weights: map[string]float64{"x": 10}, Bias: -5, Refuse: 0.01, Medium: 0.6, High: 0.9}
	var answered []Features
	for _, x := range []float64{0.1, 0.2, 0.4, 0.6, 0.8, 1.0} {
		answered = append(answered, Features{"x": x})
	}
	// 10 unanswerable questions, 4 refused before the model judged them:
	// 6 of 10 refused takes 2 more, the two with x 0.1 and 0.2.
	m := base
	if !m.HoldRefusal(answered, 4, 0.6) {
		t.Fatal("threshold not raised")
	}
	if got := m.Probability(Features{"x": 0.2}); got >= m.Refuse {
		t.Errorf("x 0.2 (p %.3f) is shown at refuse %.3f", got, m.Refuse)
	}
	if got := m.Probability(Features{"x": 0.4}); got < m.Refuse {
		t.Errorf("x 0.4 (p %.3f) is refused at refuse %.3f", got, m.Refuse)
	}
	if m.Medium < m.Refuse || m.High < m.Medium || m.Fit.HeldRefused != 0.6 {
		t.Errorf("levels refuse %.3f medium %.3f high %.3f, held %g", m.Refuse, m.Medium, m.High, m.Fit.HeldRefused)
	}
	// Enough refused already: nothing moves.
	m = base
	if m.HoldRefusal(answered, 9, 0.6) || m.Refuse != base.Refuse {
		t.Errorf("threshold moved to %.3f though 9 of 15 were refused", m.Refuse)
	}
	// Medium below the raised threshold moves up to it.
	m = base
	if !m.HoldRefusal(answered, 0, 0.9) || m.Medium != m.Refuse || m.High < m.Medium {
		t.Errorf("refusing 90 %%: refuse %.3f medium %.3f high %.3f", m.Refuse, m.Medium, m.High)
	}
}
