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

// TestAskedCases: a question that names a fixed array and tracking ones by
// a word that covers them all asks about every tracking case; one that
// names a tracking case, or no fixed one, asks about what it names.
func TestAskedCases(t *testing.T) {
	tests := []struct {
		question string
		want     []string
	}{
		{"is the iea sim for fixed tilt or trackers", []string{"fixed tilt", "1-axis", "2-axis"}},
		{"fixed vs tracking default gcr", []string{"fixed", "1-axis", "2-axis"}},
		{"fixed vs 1-axis tracker gcr", []string{"fixed", "1-axis"}},
		{"default gcr for trackers", nil},
		{"fixed tilt default gcr", []string{"fixed tilt"}},
	}
	for _, tc := range tests {
		var got []string
		for _, q := range AskedCases(tc.question) {
			got = append(got, q.Text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("AskedCases(%q) = %q, want %q", tc.question, got, tc.want)
		}
	}
}
