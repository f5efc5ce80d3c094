package store

import (
	"maps"
	"testing"
)

// TestCountWords: plain words and model numbers are counted once per chunk,
// in lower case; numbers are left out.
func TestCountWords(t *testing.T) {
	words := map[string]int{}
	seen := map[string]bool{}
	CountWords(&Chunk{Title: "Module database", Text: "Kyocera KC158G: Isco 7.58 A; Kyocera KC158G again"}, seen, words)
	CountWords(&Chunk{Sheet: "Data", Text: "PVI-5000-208 at 208 V"}, seen, words)
	want := map[string]int{"module": 1, "database": 1, "kyocera": 1, "kc158g": 1, "isco": 1, "again": 1, "data": 1,
		"pvi-5000-208": 1, "at": 1, "a": 1, "v": 1}
	if !maps.Equal(words, want) {
		t.Errorf("CountWords = %v, want %v", words, want)
	}
}
