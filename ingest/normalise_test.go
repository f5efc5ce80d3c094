package ingest

import "testing"

func TestNormaliseText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ligature unfolded", "temperature coeﬃcient", "temperature coefficient"},
		{"fi ligature", "ﬁnished ground level", "finished ground level"},
		{"units keep superscripts", "cross-section 4 mm² and 2 m³", "cross-section 4 mm² and 2 m³"},
		{"micro sign kept", "thickness 20 µm", "thickness 20 µm"},
		{"non-breaking space", "800\u00a0mm", "800 mm"},
		{"soft hyphen dropped", "tempera\u00adture", "temperature"},
		{"spaces collapse", "  a   b  ", "a b"},
		{"blank lines collapse", "a\n\n\n\nb", "a\n\nb"},
		{"control characters dropped", "a\x07b", "ab"},
		{"fullwidth digits folded", "１２３", "123"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := normaliseText(tc.in); got != tc.want {
				t.Errorf("normaliseText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
