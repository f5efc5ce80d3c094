package confidence

import (
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
		if m.Level(m.Probability(s.Features)) == "high" {
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
	m := Model{Weights: map[string]float64{"x": 1}, Refuse: 0.5, Medium: 0.7, High: 0.9}
	tests := []struct {
		p    float64
		want string
	}{{0.95, "high"}, {0.9, "high"}, {0.8, "medium"}, {0.6, "low"}, {0.4, ""}}
	for _, tc := range tests {
		if got := m.Level(tc.p); got != tc.want {
			t.Errorf("Level(%v) = %q, want %q", tc.p, got, tc.want)
		}
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
	m, err := Extractive()
	if err != nil {
		t.Fatal(err)
	}
	if m.Generator != "extractive" || m.Fit.Samples == 0 {
		t.Fatalf("shipped model = %+v, want a fitted extractive model", m)
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
