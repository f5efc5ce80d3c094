package analysis

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"defualt", "default", 2, 1},
		{"sytem", "system", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"abc", "abcdef", 2, 3},
		{"same", "same", 1, 0},
		{"mitsubishi", "misubishi", 1, 1},
	}
	for _, tc := range tests {
		if got := EditDistance(tc.a, tc.b, tc.max); got != tc.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.max, got, tc.want)
		}
	}
}
