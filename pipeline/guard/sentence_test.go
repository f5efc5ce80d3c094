package guard

import (
	"reflect"
	"testing"
)

func TestSplitSentences(t *testing.T) {
	type sent struct {
		claim string
		cites []int
	}
	tests := []struct {
		name   string
		answer string
		want   []sent
	}{
		{name: "one sentence",
			answer: "The minimum trench depth for DC cables is 800 mm from finished ground level [S1].",
			want:   []sent{{"The minimum trench depth for DC cables is 800 mm from finished ground level.", []int{1}}}},
		{name: "two citations adjacent",
			answer: "LV and DC cables share the trench [S1][S3]. Warning tape is 300 mm above them [S2].",
			want: []sent{
				{"LV and DC cables share the trench.", []int{1, 3}},
				{"Warning tape is 300 mm above them.", []int{2}},
			}},
		{name: "a maker's abbreviation ends no sentence",
			answer: "Manufacturer: Power-One (Original Mfr. - Magnetek); ID: PVI-6000-277; Tamb Max: 60 [S1].",
			want:   []sent{{"Manufacturer: Power-One (Original Mfr. - Magnetek); ID: PVI-6000-277; Tamb Max: 60.", []int{1}}}},
		{name: "exclamation in brackets before the citation",
			answer: "October 1, 2023: Modeling results are due (DO NOT WAIT UNTIL THE LAST MINUTE!!!) [S1].",
			want:   []sent{{"October 1, 2023: Modeling results are due (DO NOT WAIT UNTIL THE LAST MINUTE!!!).", []int{1}}}},
		{name: "periods inside the cells of a table row",
			answer: "Version | Description | Weather Data Options: V1 | Original online calculator. | 239 TMY2 sites. Added 1998 | Retiring [S1].",
			want:   []sent{{"Version | Description | Weather Data Options: V1 | Original online calculator. | 239 TMY2 sites. Added 1998 | Retiring.", []int{1}}}},
		{name: "a sentence after a table row",
			answer: "Soiling | % | 2 [S1]. Shading is 3 % [S2].",
			want:   []sent{{"Soiling | % | 2.", []int{1}}, {"Shading is 3 %.", []int{2}}}},
		{name: "grouped citation",
			answer: "Soiling is 2% and shading 3% [S1, S2].",
			want:   []sent{{"Soiling is 2% and shading 3%.", []int{1, 2}}}},
		{name: "semicolon group",
			answer: "The default is 14 % [S2; S4].",
			want:   []sent{{"The default is 14 %.", []int{2, 4}}}},
		{name: "citation after the period",
			answer: "The albedo is fixed at 0.2. [S1] The GCR default is 0.4. [S2]",
			want: []sent{
				{"The albedo is fixed at 0.2.", []int{1}},
				{"The GCR default is 0.4.", []int{2}},
			}},
		{name: "citation glued to the period",
			answer: "The albedo is fixed at 0.2.[S1] The GCR default is 0.4.[S2]",
			want: []sent{
				{"The albedo is fixed at 0.2.", []int{1}},
				{"The GCR default is 0.4.", []int{2}},
			}},
		{name: "decimal numbers do not split",
			answer: "The ratio is 1.1 and the rating 3.63 kW [S1].",
			want:   []sent{{"The ratio is 1.1 and the rating 3.63 kW.", []int{1}}}},
		{name: "abbreviations do not split",
			answer: "Use approx. 2 mm glass, e.g. Fig. 2 shows it [S1]. No. 5 cable is used [S2].",
			want: []sent{
				{"Use approx. 2 mm glass, e.g. Fig. 2 shows it.", []int{1}},
				{"No. 5 cable is used.", []int{2}},
			}},
		{name: "initials do not split",
			answer: "The note is by J. Smith of the U.S. Army Corps [S1].",
			want:   []sent{{"The note is by J. Smith of the U.S. Army Corps.", []int{1}}}},
		{name: "bullets are sentences",
			answer: "The default losses are:\n- Soiling: 2% [S1]\n- Shading: 3% [S1]\n* Snow: 0% [S2]\n1. Mismatch: 2% [S2]",
			want: []sent{
				{"The default losses are:", nil},
				{"Soiling: 2%", []int{1}},
				{"Shading: 3%", []int{1}},
				{"Snow: 0%", []int{2}},
				{"Mismatch: 2%", []int{2}},
			}},
		{name: "citation line joins the line before",
			answer: "Paco (W): 7000; Vac (V): 208\n[S3]",
			want:   []sent{{"Paco (W): 7000; Vac (V): 208", []int{3}}}},
		{name: "table row is one sentence",
			answer: "Name: SMA America: SB7000TL-US-22 (208V); Paco (W): 7000; Vac (V): 208; Pdco (W): 7250 [S2]",
			want:   []sent{{"Name: SMA America: SB7000TL-US-22 (208V); Paco (W): 7000; Vac (V): 208; Pdco (W): 7250", []int{2}}}},
		{name: "repeated citation once",
			answer: "Depth [S1] is 800 mm [S1].",
			want:   []sent{{"Depth is 800 mm.", []int{1}}}},
		{name: "unreadable citation number",
			answer: "Depth is 800 mm [S99999999999999999999].",
			want:   []sent{{"Depth is 800 mm.", []int{0}}}},
		{name: "lower-case after period continues",
			answer: "Cables are min. eight hundred mm deep [S1].",
			want:   []sent{{"Cables are min. eight hundred mm deep.", []int{1}}}},
		{name: "question and exclamation",
			answer: "Is it 800 mm? Yes [S1]! It is [S2].",
			want: []sent{
				{"Is it 800 mm?", nil},
				{"Yes!", []int{1}},
				{"It is.", []int{2}},
			}},
		{name: "empty", answer: " \n ", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []sent
			for _, s := range SplitSentences(tt.answer) {
				got = append(got, sent{s.Claim, s.Citations})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitSentences(%q)\n got %+v\nwant %+v", tt.answer, got, tt.want)
			}
		})
	}
}

func TestRenumberCitations(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"single", "Depth is 800 mm [S3].", "Depth is 800 mm [S1]."},
		{"group", "A [S3, S1] and B [S1][S3].", "A [S1, S2] and B [S2][S1]."},
		{"unmapped stays", "C [S9].", "C [S9]."},
		{"not a citation", "Table S3 [3].", "Table S3 [3]."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RenumberCitations(tc.in, map[int]int{3: 1, 1: 2}); got != tc.want {
				t.Errorf("RenumberCitations(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
