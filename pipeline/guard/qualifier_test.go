package guard

import (
	"slices"
	"testing"
)

// TestJoinedQualifiers: two cases of one set written side by side modify
// one thing; joined by a word or a mark, or of a set whose pairs name a
// relation, they are two cases.
func TestJoinedQualifiers(t *testing.T) {
	tests := []struct {
		text   string
		joined []string
	}{
		// A misspelt case is no case (the question is corrected first).
		{"temp coef for premium thin flim modules", nil},
		{"temp coef for premium thin film modules", []string{"premium", "thin film"}},
		{"fixed 1-axis increase", []string{"fixed", "1-axis"}},
		{"premium and thin film", nil},
		{"premium, thin film", nil},
		{"premium vs thin film", nil},
		{"dc ac ratio", nil},
		{"lv mv transformer", nil},
		{"v1 v5 change", nil},
		{"thin film premium standard modules", []string{"thin film", "premium", "standard modules"}},
	}
	for _, tc := range tests {
		var got []string
		for _, q := range Qualifiers(tc.text) {
			if q.Joined {
				got = append(got, q.Text)
			}
		}
		if !slices.Equal(got, tc.joined) {
			t.Errorf("Qualifiers(%q) joined %q, want %q", tc.text, got, tc.joined)
		}
	}
}
