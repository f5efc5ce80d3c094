package cache

import "math"

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
