package store

import "testing"

func TestCompareRevisions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"02", "10", -1}, {"Rev 3", "03", 0}, {"A", "B", -1}, {"B", "AA", -1}, {"P1", "P2", -1},
		{"P2", "P10", -1}, {"03", "03", 0}, {"B", "0", -1}, {"C", "1", -1}, {"P03", "C01", -1}, {"C02", "P05", 1}, {"rev.B", "C", -1}, {"2012.1.12", "2012.2.1", -1}, {"1", "0", 1},
	}
	for _, tc := range tests {
		t.Run(tc.a+" vs "+tc.b, func(t *testing.T) {
			if got := CompareRevisions(tc.a, tc.b); got != tc.want {
				t.Errorf("CompareRevisions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := CompareRevisions(tc.b, tc.a); got != -tc.want {
				t.Errorf("not antisymmetric: CompareRevisions(%q, %q) = %d", tc.b, tc.a, got)
			}
		})
	}
}

func TestMarkActive(t *testing.T) {
	tests := []struct {
		name   string
		revs   []Document
		active string
	}{
		{"newest wins", []Document{{Revision: "02"}, {Revision: "03"}, {Revision: "01"}}, "03"},
		{"withdrawn newest leaves the previous", []Document{{Revision: "02"}, {Revision: "03", Status: "Withdrawn"}}, "02"},
		{"all superseded leaves none", []Document{{Revision: "01", Status: "Superseded"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			MarkActive(tc.revs)
			got := ""
			for _, r := range tc.revs {
				if r.Active {
					if got != "" {
						t.Fatalf("two active revisions")
					}
					got = r.Revision
				}
			}
			if got != tc.active {
				t.Errorf("active = %q, want %q", got, tc.active)
			}
		})
	}
}
