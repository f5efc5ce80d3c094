package cache

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// UnitVector returns v scaled to length 1, or nil for an empty or zero
// vector, which has no direction to compare. Semantic caches store unit
// vectors so cosine similarity is a dot product.
func UnitVector(v []float32) []float32 {
	norm := VectorNorm(v)
	if norm == 0 {
		return nil
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / norm)
	}
	return out
}

// VectorNorm is the Euclidean length of v.
func VectorNorm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// Candidate is a cached answer whose question vector passed the semantic
// threshold.
type Candidate struct {
	Hash       string
	Similarity float64
}

// SortCandidates orders candidates best first, ties by hash so every
// backend and replica picks the same entry.
func SortCandidates(cs []Candidate) {
	slices.SortFunc(cs, func(a, b Candidate) int {
		if c := cmp.Compare(b.Similarity, a.Similarity); c != 0 {
			return c
		}
		return strings.Compare(a.Hash, b.Hash)
	})
}
