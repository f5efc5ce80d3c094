package guard

import (
	"reflect"
	"testing"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

func TestValues(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Value // Text, Num, Unit, Dim compared
	}{
		{"unit after the number", "a depth of 800 mm", []Value{{Text: "800 mm", Num: "800", Unit: "mm", Dim: DimLength}}},
		{"header unit in brackets", "Paco (W): 6007", []Value{{Text: "6007", Num: "6007", Unit: "w", Dim: DimPower}}},
		{"bracketed unit with a note", "System size (kW (DC)) — Default Value: 4", []Value{{Text: "4", Num: "4", Unit: "kw", Dim: DimPower}}},
		{"header unit ends with the field", "Paco (W): 6007; Rows: 3", []Value{{Text: "6007", Num: "6007", Unit: "w", Dim: DimPower}, {Text: "3", Num: "3", Dim: DimCount}}},
		{"temperature coefficient", "-0.35 %/°C", []Value{{Text: "-0.35 %/°C", Num: "-0.35", Unit: "%/°c", Dim: DimTempCoeff}}},
		{"a rate is a percentage", "about 0.5 %/year", []Value{{Text: "0.5 %/year", Num: "0.5", Unit: "%/year", Dim: DimPercent}}},
		{"a range is its first number", "Year | 1950-2050", []Value{{Text: "1950-2050", Num: "1950", Dim: DimDate}}},
		{"a number in words", "the incidence angle is zero", []Value{{Text: "zero", Num: "0", Dim: DimCount}}},
		{"a compound adjective is not a number", "fixed, one-axis, or two-axis tracking", nil},
		{"a plain decimal is a ratio", "GCR 0.4", []Value{{Text: "0.4", Num: "0.4", Dim: DimRatio}}},
		{"a year behind a prefix", "renovating pre-1978 housing", []Value{{Text: "pre-1978", Num: "1978", Dim: DimDate}}},
		{"a decade behind a prefix", "since the mid-1990s", []Value{{Text: "mid-1990s", Num: "1990", Dim: DimDate}}},
		{"a model number is no year", "the IG-2000 inverter", nil},
		{"an early year after a preposition", "the fort was destroyed in 1560", []Value{{Text: "1560", Num: "1560", Dim: DimDate}}},
		{"an early year after a month", "In April 1191 Richard left Messina", []Value{{Text: "1191", Num: "1191", Dim: DimDate}}},
		{"a count of that size is no year", "1500 modules in 60 rows", []Value{{Text: "1500", Num: "1500", Dim: DimCount}, {Text: "60", Num: "60", Dim: DimCount}}},
		{"a reference to the bibliography is no value", "a commercial software product [5]", nil},
		{"references beside a value", "losses of 14 % [12, 13]", []Value{{Text: "14 %", Num: "14", Unit: "%", Dim: DimPercent}}},
		{"quantities joined by a slash", "Photowatt PW1000 (95W/12V)", []Value{{Text: "95W", Num: "95", Unit: "w", Dim: DimPower}, {Text: "12V", Num: "12", Unit: "v", Dim: DimVoltage}}},
		{"numbers joined by a slash are no quantities", "GEPVb-5000-NA-240/208-02", nil},
		{"a bracketed unit still types its number", "deltaT [C]: 13", []Value{{Text: "13", Num: "13", Unit: "°c", Dim: DimTemperature}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Values(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("Values(%q) = %+v, want %+v", tc.text, got, tc.want)
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Text != w.Text || g.Num != w.Num || g.Unit != w.Unit || g.Dim != w.Dim {
					t.Errorf("Values(%q)[%d] = %+v, want %+v", tc.text, i, g, w)
				}
				if tc.text[g.Start:g.End] != g.Text {
					t.Errorf("offsets %d:%d give %q, not %q", g.Start, g.End, tc.text[g.Start:g.End], g.Text)
				}
			}
		})
	}
}

func TestExpectationAccepts(t *testing.T) {
	depth := Expectation{Dims: []Dimension{DimLength}, Cues: []string{"depth"}}
	power := Expectation{Dims: []Dimension{DimPower}, Cues: []string{"paco"}}
	year := Expectation{Dims: []Dimension{DimDate}, Cues: []string{"year"}}
	units := Expectation{WantsUnit: true}
	loss := Expectation{Dims: []Dimension{DimPercent}, Cues: []string{"losses"}}
	tests := []struct {
		name string
		exp  Expectation
		text string
		want bool
	}{
		{"a length answers a depth", depth, "DC cables are laid at 800 mm", true},
		{"a voltage does not", depth, "DC cables are rated 1500 V", false},
		{"a loss set to zero needs no percent sign", loss, "the losses for shading and availability were set to zero for both models", true},
		{"a depth of zero needs a unit", depth, "the loss mechanisms were set to zero for both models", false},
		{"a bare number beside its cue", power, "Paco: 7000", true},
		{"a bare number far from its cue", power, "Paco is listed in the table of inverters that were tested in 2012 by 3 labs", false},
		{"a bare number under a column the quantity names", Expectation{Dims: []Dimension{DimVoltage}, Cues: []string{"vac"}},
			"ID: SHO-1.1; ac Voltage: 120", true},
		{"a column of another quantity does not", Expectation{Dims: []Dimension{DimVoltage}, Cues: []string{"vac"}}, "ID: SHO-1.1; Weight: 120", false},
		{"a bare number beside year must look like one", year, "data for one year for two components", false},
		{"a year beside year", year, "houses built before the year 1978", true},
		{"a unit answers a units question", units, "Wind speed at 10 m — Units/Values: m/s", true},
		{"no unit does not", units, "The wind speed is measured at the site", false},
		{"a reciprocal unit in brackets", units, "Heading: αIsc; Description: Module Isc temperature coefficient, normalized, (1/C)", true},
		{"a unit in brackets", units, "Heading: Isco; Description: Short circuit current at reference conditions (A)", true},
		{"a bracketed note is no unit", units, "Model: First Solar FS-272; Vintage: 2007 (E)", false},
		{"nothing expected, anything goes", Expectation{}, "no number here", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.exp.Accepts(tc.text, nil); got != tc.want {
				t.Errorf("Accepts(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestExpectedRefusesTheWrongKindAndCase(t *testing.T) {
	chunks := []store.Chunk{{DocID: "spec", Page: 3, Section: "3.4 Cable trenches", Text: "The minimum trench depth for DC cables is 800 mm. DC cables are rated 1500 V."}}
	ok := PostVerdict{OK: true, Cited: []int{1}}
	tests := []struct {
		name   string
		exp    Expectation
		answer string
		want   Reason
	}{
		{"a depth answered with a length", Expectation{Dims: []Dimension{DimLength}}, "The minimum trench depth for DC cables is 800 mm [S1].", None},
		{"a depth answered with a voltage", Expectation{Dims: []Dimension{DimLength}}, "DC cables are rated 1500 V [S1].", AnswerTypeMismatch},
		{"an angle answered by a cell of a degrees column", Expectation{Dims: []Dimension{DimAngle}}, "Tilt angle (degrees) — Default Value: Site Latitude [S1].", None},
		{"an angle answered by a cell of a kW column", Expectation{Dims: []Dimension{DimAngle}}, "System size (kW) — Default Value: Site Latitude [S1].", AnswerTypeMismatch},
		{"AC asked, DC answered", Expectation{Qualifiers: Qualifiers("trench depth for AC cables")}, "The minimum trench depth for DC cables is 800 mm [S1].", QualifierMismatch},
		{"southern hemisphere asked, northern answered", Expectation{Qualifiers: Qualifiers("default azimuth southern hemisphere")}, "The default azimuth is 180° in the northern hemisphere [S1].", QualifierMismatch},
		{"rear side asked, front side answered", Expectation{Qualifiers: Qualifiers("rear side irradiance of the middle module")}, "Front side irradiance is reported for the middle module [S1].", QualifierMismatch},
		{"a cloudy day asked, a clear day answered", Expectation{Qualifiers: Qualifiers("which cloudy day in june")}, "June 15, 2022 (clear day) [S1].", QualifierMismatch},
		{"the sunset hour asked, the sunrise hour answered", Expectation{Qualifiers: Qualifiers("sun position for the sunset hour")},
			"For the sunrise hour, the midpoint between the sunrise time and the end of the timestep is used [S1].", QualifierMismatch},
		{"mono-Si asked, mc-Si answered", Expectation{Qualifiers: Qualifiers("c3 for mono-si modules")}, "Material: mc-Si; C3: -10.991 [S1].", QualifierMismatch},
		{"premium thin film asked, thin film answered", Expectation{Qualifiers: Qualifiers("temp coeff for premium thin film modules")}, "Thin film modules have a temperature coefficient of -0.20 %/°C [S1].", QualifierMismatch},
		{"premium and thin film asked, thin film answered", Expectation{Qualifiers: Qualifiers("temp coeff for premium and thin film modules")}, "Thin film modules have a temperature coefficient of -0.20 %/°C [S1].", None},
		{"240 V asked, 208 V answered", Expectation{Described: Values("the 240 V variant")}, "Vac (V): 208; Paco (W): 6007 [S1].", QualifierMismatch},
		{"SAM asked, a passage that names no tool", Expectation{Qualifiers: Qualifiers("default losses in SAM")}, "The minimum trench depth for DC cables is 800 mm [S1].", QualifierMismatch},
		{"Aurora asked, PVWatts' default answered", Expectation{Qualifiers: Qualifiers("aurora solar default mismatch loss - same 2% as pvwatts")}, "The PVWatts default mismatch loss is 2 % [S1].", QualifierMismatch},
		{"gcr 0.25 asked, GCR of 0.4 answered", Expectation{Labelled: LabelledNumbers("pitch at gcr 0.25")}, "For a 2-Up portrait system with a GCR of 0.4 the pitch is 11.92 m [S1].", QualifierMismatch},
		{"gcr 0.25 asked and answered", Expectation{Labelled: LabelledNumbers("pitch at gcr 0.25")}, "For a GCR of 0.25 the pitch is 9.536 m [S1].", None},
		{"a length and a power asked, both given", Expectation{Dims: []Dimension{DimLength, DimPower}, Pair: true, Second: []Dimension{DimPower}},
			"The module is 2.384 m long and rated 650 W [S1].", None},
		{"a length and a power asked, the length alone given", Expectation{Dims: []Dimension{DimLength, DimPower}, Pair: true, Second: []Dimension{DimPower}},
			"A GCR of 0.4 for the module (length = 2.384m) corresponds to a pitch of 5.96m [S1].", AnswerTypeMismatch},
		{"a weight and a temperature asked, the one named cell of the weight given",
			Expectation{Dims: []Dimension{DimMass, DimTemperature}, Pair: true, Second: []Dimension{DimTemperature}, Words: map[string]bool{"weight": true, "ambient": true}},
			"ID: PVI 3000 (240V); Weight: 41.2 [S1].", AnswerTypeMismatch},
		{"a weight and a temperature asked, both named cells given",
			Expectation{Dims: []Dimension{DimMass, DimTemperature}, Pair: true, Second: []Dimension{DimTemperature}, Words: map[string]bool{"weight": true, "tamb": true}},
			"ID: PVI 3000 (240V); Tamb Max: 50; Weight: 41.2 [S1].", None},
		{"a phone number asked, none given", Expectation{Format: FormatPhone}, "The minimum trench depth for DC cables is 800 mm [S1].", AnswerTypeMismatch},
		{"a file name asked and given", Expectation{Format: FormatFile}, "The trench depths are in trenches.csv [S1].", None},
		{"temperature coefficients asked by their columns' names", Expectation{Dims: []Dimension{DimTempCoeff}, Words: map[string]bool{"pl-225": true, "a": true, "and": true, "b": true, "temp": true}},
			"Model: PowerLight PL-225-QM-I; b: -0.072; a: -3.54 [S1].", None},
		{"temperature coefficients asked, other columns answered", Expectation{Dims: []Dimension{DimTempCoeff}, Words: map[string]bool{"pl-225": true, "temp": true, "coeffs": true}},
			"Model: PowerLight PL-225-QM-I; b: -0.072; a: -3.54 [S1].", AnswerTypeMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := ok
			for _, s := range SplitSentences(tc.answer) {
				v.Sentences = append(v.Sentences, SentenceVerdict{Text: s.Text, Citations: s.Citations})
			}
			got := Expected(v, tc.exp, chunks)
			if got.Reason != tc.want || got.OK != (tc.want == None) {
				t.Errorf("Expected(%q) = %s %q, want %s", tc.answer, got.Reason, got.Detail, tc.want)
			}
		})
	}
}

// TestExpectedReadsASentenceOnFromTheOneBefore: a sentence goes on from the
// one before it from the same passage, for the case it is about and for a
// value the question states (a year said by one sentence of an entry holds
// for the entry's next sentences); alone, it is judged by itself.
func TestExpectedReadsASentenceOnFromTheOneBefore(t *testing.T) {
	table := store.Chunk{DocID: "nrel", Page: 5, Title: "PVWatts Version 5 Manual", Section: "Table 1. Version History",
		Text: "V1 | Original online calculator. | 239 TMY2 sites. Added 360 international sites in 2005. | 1998 | Retiring in 2014"}
	entry := store.Chunk{DocID: "nrel", Page: 19, Title: "PVWatts Version 5 Manual", Section: "References",
		Text: "[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays.\nSAND85-0330. Accessed September 3, 2013: http://prod.sandia.gov/850330.pdf."}
	sites := Expectation{Qualifiers: Qualifiers("when did v1 get the 360 international sites added")}
	report := Expectation{Described: Values("fuentes 1987 thermal model report - pdf link")}
	tests := []struct {
		name, answer string
		exp          Expectation
		chunk        store.Chunk
		want         Reason
	}{
		{"the sentence before names the case asked", "V1 — Weather Data Options: 239 TMY2 sites. [S1] Added 360 international sites in 2005 [S1].", sites, table, None},
		{"alone, the title's version is what the sentence is about", "Added 360 international sites in 2005 [S1].", sites, table, QualifierMismatch},
		{"the entry's year is said first", "[15] Fuentes, M. K. (1987). [S1] SAND85-0330. [S1] Accessed September 3, 2013: http://prod.sandia.gov/850330.pdf [S1].", report, entry, None},
		{"alone, the access date is another year", "Accessed September 3, 2013: http://prod.sandia.gov/850330.pdf [S1].", report, entry, QualifierMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := PostVerdict{OK: true, Cited: []int{1}}
			for _, s := range SplitSentences(tc.answer) {
				v.Sentences = append(v.Sentences, SentenceVerdict{Text: s.Text, Citations: s.Citations})
			}
			if got := Expected(v, tc.exp, []store.Chunk{tc.chunk}); got.Reason != tc.want {
				t.Errorf("Expected(%q) = %s %q, want %s", tc.answer, got.Reason, got.Detail, tc.want)
			}
		})
	}
}

func TestQualifiersReadPluralFileKinds(t *testing.T) {
	got := Qualifiers("239 TMY2s, 1020 TMY3s")
	if len(got) != 2 || !Mentions(got, Qualifiers("tmy2")[0]) || !Mentions(got, Qualifiers("tmy3")[0]) {
		t.Errorf("Qualifiers = %+v, want TMY2 and TMY3", got)
	}
}

func TestLabelledNumbers(t *testing.T) {
	tests := []struct {
		question string
		want     []Labelled
	}{
		{"iea bifi pitch for 2-up at gcr 0.25", []Labelled{{Label: "gcr", Num: "0.25", Text: "gcr 0.25"}}},
		{"suniva titan 250 voco", []Labelled{{Label: "titan", Num: "250", Text: "titan 250"}}},
		{"most similar to pvwatts version 1", []Labelled{{Label: "version", Num: "1", Text: "version 1",
			Cases: []Qualifier{{Group: 2, Slot: 0, Text: "version 1"}}}}},
		// A value with a unit, a place in a document, a percentage and a
		// number after a function word label nothing.
		{"paco of the SB7000TL-US-22 at 240 v", nil},
		{"avg increase (see table 8)", nil},
		{"losses above 14% in the 4 kW system", nil},
		// The tail of a hyphenated name names nothing of its own.
		{"nextronex ray-max 150 weight", nil},
		// Nor does a word a comma parts from the number.
		{"shell st10 series cells, 1998 measured", nil},
	}
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			got := LabelledNumbers(tc.question)
			if len(got) != len(tc.want) {
				t.Fatalf("LabelledNumbers(%q) = %v, want %v", tc.question, got, tc.want)
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tc.want[i]) {
					t.Errorf("LabelledNumbers(%q)[%d] = %v, want %v", tc.question, i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestContradictsLabelledNumber(t *testing.T) {
	tests := []struct {
		question, text string
		want           bool
	}{
		{"suniva titan 250 voco", "Model: Suniva Titan 230; Voco: 37.26", true},
		{"suniva titan 250 voco", "Model: Suniva Titan 250; Voco: 37.5", false},
		{"suniva titan 250 voco", "Model: Suniva Titan-250 (2012); Voco: 37.5", false},
		// A column that numbers its rows names the label's number.
		{"iea bifi scenario 1 - name + hub height", "2 | A1 | 0.25 | 1.5 m\nScenario number: 2; Scenario name: A1; GCR: 0.25; Hub Height: 1.5 m", true},
		{"iea bifi scenario 1 - name + hub height", "1 | Ref-A | 0.4 | 1.5 m\nScenario number: 1; Scenario name: Ref-A; GCR: 0.4; Hub Height: 1.5 m", false},
		// The label followed by a word, not a number, states nothing.
		{"suniva titan 250 voco", "Titan series modules come in 230 and 240 W", false},
		// A model number written with a suffix is the one asked; one that
		// opens with another number is another model, and a number after
		// the model number is not the label's.
		{"fronius primo 8.2 paco", "Name: Fronius USA: Fronius Primo 8.2-1 @ 208 VAC 208V [CEC 2015]; Paco (W): 7900", false},
		{"fronius primo 8.2 paco", "Name: Fronius USA: Fronius Primo 10.0-1 208-240 [CEC 2015]; Paco (W): 9995", true},
		{"conext cl 20000 paco", "Name: Schneider Electric Solar Inverters USA: Conext CL 18000NA 480V [CEC 2015]; Paco (W): 18200", true},
		// A labelled number that names a case is found in another
		// spelling: the "Version 5" of the manual's title does not
		// contradict a sentence about V1.
		{"which module type option is most similar to pvwatts version 1",
			"The standard option is most similar to PVWatts V1.\nPVWatts Version 5 Manual", false},
		{"which module type option is most similar to pvwatts version 1",
			"The standard option is the default.\nPVWatts Version 5 Manual", true},
		// Two numbers of one label ask about the rows of either.
		{"sb5000us [CEC 2011] and [CEC 2012] paco", "Name: SMA America: SB5000US 240V [CEC 2012]; Paco (W): 5000", false},
		{"sb5000us [CEC 2011] and [CEC 2012] paco", "Name: SMA America: SB5000US 240V [CEC 2010]; Paco (W): 5000", true},
	}
	for _, tc := range tests {
		exp := Expectation{Labelled: LabelledNumbers(tc.question)}
		if _, stated, got := exp.Contradicts(tc.text); got != tc.want {
			t.Errorf("%q: Contradicts(%q) = %v (%q), want %v", tc.question, tc.text, got, stated.Text, tc.want)
		}
	}
}

func TestContradictsDescribedValue(t *testing.T) {
	tests := []struct {
		name, question, text string
		want                 bool
	}{
		{"another voltage than the one asked", "paco of the hisel-k 3000 at 240v", "HiSEL-K 3000 (208V) 208V; Paco (W): 2800", true},
		{"the voltage asked", "paco of the hisel-k 3000 at 240v", "HiSEL-K 3000 (240V) 240V; Paco (W): 2800", false},
		{"either of two voltages asked", "is the paco lower on the 208v version than the 240v one", "HiSEL-K 3000 (240V) 240V; Paco (W): 2800", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp := Expectation{Described: Values(tc.question)}
			if _, stated, got := exp.Contradicts(tc.text); got != tc.want {
				t.Errorf("Contradicts(%q) = %v (%q), want %v", tc.text, got, stated.Text, tc.want)
			}
		})
	}
}

func TestIsPolar(t *testing.T) {
	tests := []struct {
		question string
		want     bool
	}{
		{"is the total system loss just the sum of the individual losses", true},
		{"does the 2-axis tracking in pvwatts account for any shading", true},
		{"can we load our own weather file into the pvwatts web app", true},
		{"does anyone know what the default tilt is", false},
		{"what is the default tilt", false},
		{"is it?", false},
		{"default losses is 14?", false},
		{"vf note: is the integral for the avg sky vf exact or does it need numerical integration", true},
		{"asbestos neshap - do we notify epa on every renovation or just on demo", true},
		{"vf note: what is the integral", false},
	}
	for _, tc := range tests {
		if got := IsPolar(tc.question, analysis.Tokens(tc.question)); got != tc.want {
			t.Errorf("IsPolar(%q) = %v, want %v", tc.question, got, tc.want)
		}
	}
}

func TestFormatHolds(t *testing.T) {
	tests := []struct {
		f    Format
		text string
		want bool
	}{
		{FormatPhone, "call the RCRA Hotline at 800-424-9346 (TDD 800-553-7672)", true},
		{FormatPhone, "call (303) 275-3000", true},
		{FormatPhone, "Contract No. DE-AC36-08GO28308", false},
		{FormatPhone, "contact the National Lead Information Center at 800-424-LEAD (5323)", true},
		{FormatFax, "303-275-3000 • www.nrel.gov", false},
		{FormatFax, "Phone: 865.576.8401 fax: 865.576.5728", true},
		{FormatTDD, "call the RCRA Hotline at 800-424-9346 (TDD 800-553-7672)", true},
		{FormatPhone, "EPA305-F-03-007", false},
		{FormatURL, "the Web site (www.cicacenter.org)", true},
		{FormatURL, "on http://developer.nrel.gov", true},
		{FormatURL, "the Construction Industry Compliance Assistance Center", false},
		{FormatEmail, "send results to jane.doe@example.org", true},
		{FormatEmail, "results go to the study team", false},
		{FormatFile, "PS3 file (Phase2_meteo_hourly_psm3format.csv)", true},
		{FormatFile, "An excel spreadsheet template is provided", false},
		{FormatEquation, "the sum of the three components (Eqn. 2)", true},
		{FormatEquation, "the integral in Eq. 7 is exact", true},
		{FormatEquation, "Ipoa = Ib + Id,sky + Id,ground (2)", true},
		{FormatEquation, "calculated using the Perez 1990 algorithm [7]", false},
		{"", "anything", true},
	}
	for _, tc := range tests {
		if got := tc.f.Holds(tc.text); got != tc.want {
			t.Errorf("%q.Holds(%q) = %v, want %v", tc.f, tc.text, got, tc.want)
		}
	}
}

// TestNamesEquation: words refer to an equation by its number; the "(2)"
// that ends a formula line is no such reference.
func TestNamesEquation(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"the sum of the three components (Eqn. 2)", true},
		{"as listed in Eqn. 1", true},
		{"given by equation 12", true},
		{"Ipoa = Ib + Id,sky + Id,ground (2)", false},
		{"f | du: = | x 1 2 1/2 | (8)", false},
	}
	for _, tc := range tests {
		if got := NamesEquation(tc.text); got != tc.want {
			t.Errorf("NamesEquation(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
