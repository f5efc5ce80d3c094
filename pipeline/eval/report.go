// Package eval measures cew on public third-party data: retrieval quality on
// BEIR data sets (nDCG@10, Recall@100), end-to-end answering on SQuAD 2.0
// (answered-and-correct, refusals of unanswerable questions, latency), and
// the post-guard alone on HaluEval. Reports carry n, the configuration and
// every metric computed, so numbers can be quoted honestly.
package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Metric is one measured number.
type Metric struct {
	Name  string  `json:"metric"`
	Value float64 `json:"value"`
	// N is how many items the metric averages over.
	N int `json:"n"`
}

// Report is what an evaluation writes.
type Report struct {
	Name        string         `json:"name"`
	Dataset     string         `json:"dataset"`
	Config      map[string]any `json:"config"`
	Metrics     []Metric       `json:"metrics"`
	GeneratedAt time.Time      `json:"generated_at"`
}

func (r *Report) add(name string, value float64, n int) {
	r.Metrics = append(r.Metrics, Metric{Name: name, Value: value, N: n})
}

// Summary is one line per metric.
func (r Report) Summary() []string {
	out := make([]string, 0, len(r.Metrics))
	for _, m := range r.Metrics {
		out = append(out, fmt.Sprintf("%s %s = %.4g (n=%d, %s)", r.Name, m.Name, m.Value, m.N, r.Dataset))
	}
	return out
}

// Write saves the report as indented JSON, creating the folder.
func (r Report) Write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
