package guard

import (
	"reflect"
	"slices"
	"testing"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

func TestQuantities(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []quantity
	}{
		{name: "number with unit", text: "a depth of 800 mm below ground",
			want: []quantity{{Text: "800 mm", Num: "800", Unit: "mm"}}},
		{name: "glued unit", text: "800mm", want: []quantity{{Text: "800mm", Num: "800", Unit: "mm"}}},
		{name: "hyphenated unit", text: "a 600-mm trench", want: []quantity{{Text: "600-mm", Num: "600", Unit: "mm"}}},
		{name: "unit spelt out", text: "800 millimetres", want: []quantity{{Text: "800 millimetres", Num: "800", Unit: "mm"}}},
		{name: "percent", text: "losses of 14% and 14 percent",
			want: []quantity{{Text: "14%", Num: "14", Unit: "%"}, {Text: "14 percent", Num: "14", Unit: "%"}}},
		{name: "cross-section", text: "4 mm² cable", want: []quantity{{Text: "4 mm²", Num: "4", Unit: "mm2"}}},
		{name: "grouped thousands", text: "1,500 kWh", want: []quantity{{Text: "1,500 kWh", Num: "1500", Unit: "kwh"}}},
		{name: "signed coefficient", text: "-0.35 %/°C", want: []quantity{{Text: "-0.35 %/°C", Num: "-0.35", Unit: "%/°c"}}},
		{name: "glued coefficient", text: "-0.35%/°C", want: []quantity{{Text: "-0.35%/°C", Num: "-0.35", Unit: "%/°c"}}},
		{name: "ampere needs capital", text: "10 A and 3 a day",
			want: []quantity{{Text: "10 A", Num: "10", Unit: "a"}, {Text: "3", Num: "3"}}},
		{name: "drawing number", text: "see 277-007-D-C-40327",
			want: []quantity{{Text: "277-007-D-C-40327", Code: "277007dc40327"}}},
		{name: "model number", text: "SB7000TL-US-22 (208V)",
			want: []quantity{{Text: "SB7000TL-US-22", Code: "sb7000tlus22"}, {Text: "208V", Num: "208", Unit: "v"}}},
		{name: "ordinal", text: "the 32nd Attorney General", want: []quantity{{Text: "32nd", Num: "32"}}},
		{name: "unit with digit is not a quantity", text: "in kWh/m2 per day", want: nil},
		{name: "trailing zeros", text: "1500.0 W", want: []quantity{{Text: "1500.0 W", Num: "1500", Unit: "w"}}},
		{name: "no numbers", text: "finished ground level", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := quantities(tt.text)
			for i := range got {
				// Offsets are checked through Values; here, what was read.
				got[i].start, got[i].end = 0, 0
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("quantities(%q)\n got %+v\nwant %+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestHasQuantity(t *testing.T) {
	tests := []struct {
		name   string
		chunk  string
		answer string
		want   bool
	}{
		{name: "same number and unit", chunk: "laid at 800 mm depth", answer: "800 mm", want: true},
		{name: "glued in chunk", chunk: "laid at 800mm depth", answer: "800 mm", want: true},
		{name: "glued in answer", chunk: "laid at 800 mm depth", answer: "800mm", want: true},
		{name: "other unit", chunk: "laid at 800 m from the fence", answer: "800 mm", want: false},
		{name: "converted value", chunk: "laid at 0.8 m depth", answer: "800 mm", want: false},
		{name: "grouping", chunk: "a 1500 kWh yield", answer: "1,500 kWh", want: true},
		{name: "header unit", chunk: "Paco (W): 7000; Vac (V): 208", answer: "7000 W", want: true},
		{name: "header unit absent", chunk: "Paco: 7000; Vac: 208", answer: "7000 W", want: false},
		{name: "unitless answer", chunk: "laid at 800 mm", answer: "800", want: true},
		{name: "unsigned quotes signed", chunk: "coefficient -0.35 %/°C", answer: "0.35", want: true},
		{name: "sign must match", chunk: "coefficient 0.35", answer: "-0.35", want: false},
		{name: "different number", chunk: "laid at 800 mm", answer: "900 mm", want: false},
		{name: "part of a number is not the number", chunk: "6.213 km long", answer: "6 km", want: false},
		{name: "code", chunk: "drawing 277-007-D-C-40327 Rev 03", answer: "277-007-D-C-40327", want: true},
		{name: "code spelt without hyphens", chunk: "drawing 277-007-D-C-40327", answer: "277007DC40327", want: true},
		{name: "wrong code", chunk: "drawing 277-007-D-C-40327", answer: "277-007-D-C-40328", want: false},
		{name: "model part", chunk: "SMA America: SB7000TL-US-22", answer: "SB7000TL", want: true},
		{name: "percent of a fraction", chunk: "nominal inverter efficiency is 0.96", answer: "96 %", want: true},
		{name: "fraction of a percent", chunk: "a total loss of 14 %", answer: "0.14", want: true},
		{name: "percent of another fraction", chunk: "reference efficiency is 0.9637", answer: "96 %", want: false},
		{name: "percent against a length", chunk: "a depth of 0.96 m", answer: "96 %", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs := quantities(tt.answer)
			if len(qs) != 1 {
				t.Fatalf("quantities(%q) = %+v, want one", tt.answer, qs)
			}
			ev := newEvidence(store.Chunk{Text: tt.chunk})
			if got := ev.hasQuantity(qs[0]); got != tt.want {
				t.Errorf("hasQuantity(%q in %q) = %v, want %v", tt.answer, tt.chunk, got, tt.want)
			}
		})
	}
}

func TestUnitWordDimension(t *testing.T) {
	tests := map[string]Dimension{"amps": DimCurrent, "volts": DimVoltage, "kilowatts": DimPower, "kg": DimMass,
		"degrees": DimAngle, "in": "", "a": "", "m": "", "strings": "", "modules": ""}
	for word, want := range tests {
		if got := UnitWordDimension(word); got != want {
			t.Errorf("UnitWordDimension(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestSpacedModels(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // the letters and the number after them
	}{
		{"letters spaced off a number", "kyocera pv 110 module area", []string{"pv 110"}},
		{"two of them", "es 5000 vs gs 4048 paco", []string{"es 5000", "gs 4048"}},
		{"a word too long to be a prefix", "table 8 boulder", nil},
		{"a hyphen is no space", "pv-110 module area", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			toks := analysis.Tokens(tc.text)
			var got []string
			for _, i := range SpacedModels(tc.text, toks) {
				got = append(got, toks[i].Text+" "+toks[i+1].Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("SpacedModels(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
