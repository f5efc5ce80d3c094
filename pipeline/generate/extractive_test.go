package generate_test

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/classify"
	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

func TestExtractive(t *testing.T) {
	tests := []struct {
		name                 string
		question             string
		category, complexity string
		chunks               []store.Chunk
		want                 string
	}{
		{
			name:     "table row with its header",
			question: "What is the default soiling loss?", category: "technical_value",
			chunks: []store.Chunk{pvwattsLosses},
			want:   "Soiling — Default value: 2% [S1].",
		},
		{
			name:     "table row whose asked column holds the value beats a sentence naming both words",
			question: "What is the temperature coefficient of premium modules?", category: "technical_value",
			chunks: []store.Chunk{{ID: "nrel/1/14", DocID: "nrel", Page: 6, Text: "The “premium” option is appropriate for modeling high efficiency (∼18-20 %) monocrystalline silicon modules that have anti-reflective coatings and lower temperature coefficients."},
				{ID: "nrel/1/15", DocID: "nrel", Page: 7, Section: "Table 3. Assumptions for different module types", Text: "Table 3. Assumptions for different module types\nModule type | Efficiency | Cover type | Temperature coefficient\nStandard | ∼15 % | Glass | -0.47 %/°C\nPremium | ∼19 % | Anti-reflective | -0.35 %/°C\nThin film | ∼10 % | Glass | -0.20 %/°C"}},
			want: "Premium — Temperature coefficient: -0.35 %/°C [S2].",
		},
		{
			name:     "sentence wrapped over PDF lines",
			question: "What is the default total system loss calculated to be?", category: "technical_value",
			chunks: []store.Chunk{pvwattsLosses},
			want:   "The default total system loss is calculated to be 14 % [S1].",
		},
		{
			name:     "method question",
			question: "How is the total loss calculated?", category: "general",
			chunks: []store.Chunk{pvwattsLosses},
			want:   "The total loss is calculated by multiplying the reduction due to each loss Li (%) as shown in Eqn. 9 [S1].",
		},
		{
			name:     "trench depth from the second source",
			question: "What is the minimum trench depth for DC cables?", category: "technical_value",
			chunks: []store.Chunk{pvwattsLosses, trenchSpec},
			want:   "DC cables shall be laid in trenches with a minimum depth of 800 mm from finished ground level to the top of the cable [S2].",
		},
		{
			name:     "unit named in the question",
			question: "What is the minimum depth of AC cables in mm?", category: "technical_value",
			chunks: []store.Chunk{trenchSpec},
			want:   "AC cables shall be laid at a minimum depth of 1000 mm below finished ground level [S1].",
		},
		{
			name:     "comparison quotes both sentences",
			question: "Compare the minimum depth of DC cables and AC cables", category: "technical_value", complexity: "complex",
			chunks: []store.Chunk{trenchSpec, pvwattsLosses},
			want:   "DC cables shall be laid in trenches with a minimum depth of 800 mm from finished ground level to the top of the cable [S1]. AC cables shall be laid at a minimum depth of 1000 mm below finished ground level [S1].",
		},
		{
			name:     "two questions in one",
			question: "What is the default shading loss and the default snow loss?", category: "technical_value", complexity: "complex",
			chunks: []store.Chunk{pvwattsLosses},
			want:   "Shading — Default value: 3% [S1]. Snow — Default value: 0% [S1].",
		},
		{name: "two voltages asked: each variant's row answers", question: "topper sun ts-s3000 vdcmax 208v vs 240v",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1844, "Name: Topper Sun Energy Technology: TS-S3000 (208V) 208V [CEC 2010]; Vac (V): 208; Paco (W): 3000; Vdcmax (V): 450"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1845, "Name: Topper Sun Energy Technology: TS-S3000 (240V) 240V [CEC 2010]; Vac (V): 240; Paco (W): 3010; Vdcmax (V): 500")},
			want: "Name: Topper Sun Energy Technology: TS-S3000 (208V) 208V [CEC 2010]; Vdcmax (V): 450 [S1]. " +
				"Name: Topper Sun Energy Technology: TS-S3000 (240V) 240V [CEC 2010]; Vdcmax (V): 500 [S2]."},
		{name: "a number with a note in brackets is the value asked, though the note holds the question's words",
			question: "solaron 500 he Tamb Low - standard vs with the cold weather option (sandia list)", category: "technical_value", complexity: "complex",
			chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Parameters", 12, "Manufacturer: Advanced Energy; ID: Solaron 500 HE (3159502-XXXX); Source: CEC; Paco: 500000; Idcmax: 750; Tamb Low: -20 (-35 w/cold weather option); Tamb Max: 50"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 10, "Manufacturer: Advanced Energy; ID: Solaron 333-3159000-1XX; Source: CEC; Paco: 333000; Idcmax: 500; Tamb Low: -20; Tamb Max: 50")},
			want: "Manufacturer: Advanced Energy; ID: Solaron 500 HE (3159502-XXXX); Tamb Low: -20 (-35 w/cold weather option) [S1]."},
		{name: "two voltages of one model asked: the row of the commoner voltage scores lower and still answers",
			question: "power electronics fs1050pu paco at 300v and at 390v", category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1200, "Name: Power Electronics: FS1050PU 300V [CEC 2014]; Vac (V): 300; Paco (W): 1050000"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1201, "Name: Power Electronics: FS1050PU 390V [CEC 2014]; Vac (V): 390; Paco (W): 1200000"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1202, "Name: Power Electronics: FS0980PU 390V [CEC 2014]; Vac (V): 390; Paco (W): 980000")},
			want: "Name: Power Electronics: FS1050PU 300V [CEC 2014]; Paco (W): 1050000 [S1]. " +
				"Name: Power Electronics: FS1050PU 390V [CEC 2014]; Paco (W): 1200000 [S2]."},
		{name: "a model number run together is the row that writes it spaced apart, named in the quote",
			question: "solectria pvi15 208v paco, sandia list", category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1701, "Name: Solectria Renewables: PVI15kW-208 208V [CEC 2012]; Vac (V): 208; Paco (W): 15045"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 664, "Manufacturer: Solectria; ID: PVI 15 kW 208 V; Source: CEC; ac Voltage: 208; Vintage: 2007; Paco: 15240"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 667, "Manufacturer: Solectria; ID: PVI 150 kW 208 V; Source: CEC; ac Voltage: 208; Vintage: 2007; Paco: 150000")},
			want: "Manufacturer: Solectria; ID: PVI 15 kW 208 V; Paco: 15240 [S2]."},
		{name: "a rating the list has: its row",
			question: "photowatt pwx500 (47w) isco", category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 229, "Model: Photowatt PWX500; Vintage: 1998; Material: mc-Si; Isco: 3.107; Voco: 21.59"),
				sheetRow("SANDIA-MODULE-DB", "Data", 230, "Model: Photowatt PWX500 (42W); Vintage: 2000 (E); Material: mc-Si; Isco: 2.7; Voco: 21.3"),
				sheetRow("SANDIA-MODULE-DB", "Data", 231, "Model: Photowatt PWX500 (47W); Vintage: 2000 (E); Material: mc-Si; Isco: 3.1; Voco: 21.6")},
			want: "Model: Photowatt PWX500 (47W); Isco: 3.1 [S3]."},
		// A versus question is answered side by side in its own order.
		{name: "two model numbers compared: the row holding each whole, not the longer one for both", question: "magnetek pvi-3600-us vs pvi-3600-i-outd-us-f, both 240v - weight each",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Parameters", 344, "Manufacturer: MagneTek, S.p.A.; ID: PVI-3600-I-OUTD-US-F (240V); Source: CEC; ac Voltage: 240; Paco: 3600; Weight: 33.02"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 343, "Manufacturer: MagneTek, S.p.A.; ID: PVI-3600-I-OUTD-US-F (208V); Source: CEC; ac Voltage: 208; Paco: 3300; Weight: 33.02"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 346, "Manufacturer: MagneTek, S.p.A.; ID: PVI-3600-US (240V); Source: CEC; ac Voltage: 240; Paco: 3600; Weight: 19.05")},
			want: "Manufacturer: MagneTek, S.p.A.; ID: PVI-3600-US (240V); Weight: 19.05 [S3]. Manufacturer: MagneTek, S.p.A.; ID: PVI-3600-I-OUTD-US-F (240V); Weight: 33.02 [S1]."},
		{name: "two rows of one model told apart by a number the question names", question: "sharp ne-h120e1 - isco for the 2001 one vs the 2002 (E) one",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 322, "Model: Sharp NE-H120E1; Vintage: 2002 (E); Material: mc-Si; Isco: 5.3; Voco: 32.3"),
				sheetRow("SANDIA-MODULE-DB", "Data", 321, "Model: Sharp NE-H120E1; Vintage: 2001; Material: mc-Si; Isco: 5.085; Voco: 32.78")},
			want: "Model: Sharp NE-H120E1; Vintage: 2001; Isco: 5.085 [S2]. Model: Sharp NE-H120E1; Vintage: 2002 (E); Isco: 5.3 [S1]."},
		{name: "rows each holding one of two labels asked both answer", question: "module db legend: what are c4 / c5",
			category: "definition", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 48, "Heading: C4; Description: Coefficient relating Ix to effective irradiance, (dim)"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 49, "Heading: C5; Description: Coefficient relating Ix to effective irradiance, (dim)")},
			want: "Heading: C4; Description: Coefficient relating Ix to effective irradiance, (dim) [S1]. Heading: C5; Description: Coefficient relating Ix to effective irradiance, (dim) [S2]."},
		{name: "a model set aside shares no part with the model asked", question: "sgi 500xtm vdcmax (not the 500xt)",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1727, "Name: Solectria Renewables: SGI 500XT 480V [CEC 2013]; Vac (V): 480; Vdcmax (V): 600"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1728, "Name: Solectria Renewables: SGI 500XTM 380V [CEC 2015]; Vac (V): 380; Vdcmax (V): 1000")},
			want: "Name: Solectria Renewables: SGI 500XTM 380V [CEC 2015]; Vdcmax (V): 1000 [S2]."},
		{name: "a row named on one side of vs by what the other side's row lacks", question: "evergreen es-180-rl-t - isco for the 2008 one vs the 2008 (E) one",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 129, "Model: Evergreen ES-180-RL-T Module; Vintage: 2008 (E); Material: mc-Si; Isco: 7.78; Voco: 32.6"),
				sheetRow("SANDIA-MODULE-DB", "Data", 128, "Model: Evergreen ES-180-RL-T Module; Vintage: 2008; Material: mc-Si; Isco: 7.638; Voco: 32.55")},
			want: "Model: Evergreen ES-180-RL-T Module; Vintage: 2008 (E); Isco: 7.78 [S1]. Model: Evergreen ES-180-RL-T Module; Vintage: 2008; Isco: 7.638 [S2]."},
		{name: "one number is not both ends of a window asked", question: "delta ddp-260ab ac operating voltage window, min / max vac",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 530, "Name: Delta Electronics: DDP-260AB XX 240V [CEC 2013]; Vac (V): 240; Paco (W): 260; Vdcmax (V): 60")},
			want: generate.NotFoundText},
		{name: "a short model number, not read as a code, still names the row on the other side of vs", question: "first solar fs-45 c2 - the 2003 measured row vs the 2003 (E) one",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 139, "Model: First Solar FS-45; Vintage: 2003 (E); Material: CdTe; Isco: 0.9; C2: -1.25"),
				sheetRow("SANDIA-MODULE-DB", "Data", 138, "Model: First Solar FS-45; Vintage: 2003; Material: CdTe; Isco: 0.9; C2: -0.601")},
			want: "Model: First Solar FS-45; Vintage: 2003 (E); C2: -1.25 [S1]. Model: First Solar FS-45; Vintage: 2003; C2: -0.601 [S2]."},
		{name: "two lines of one model joined by and, each named by a word for a line", question: "evergreen es-180-rl-t voco in the measured 2008 entry and in the (E) one",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 129, "Model: Evergreen ES-180-RL-T Module; Vintage: 2008 (E); Material: mc-Si; Isco: 7.78; Voco: 32.6"),
				sheetRow("SANDIA-MODULE-DB", "Data", 128, "Model: Evergreen ES-180-RL-T Module; Vintage: 2008; Material: mc-Si; Isco: 7.638; Voco: 32.55")},
			want: "Model: Evergreen ES-180-RL-T Module; Vintage: 2008 (E); Voco: 32.6 [S1]. Model: Evergreen ES-180-RL-T Module; Vintage: 2008; Voco: 32.55 [S2]."},
		{name: "a line set aside names no row asked about", question: "kaco blue planet xp100u-h2 weight and unique id - the 208v one not h4",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Parameters", 333, "Manufacturer: Kaco New Energy GmbH; ID: Blue Planet XP100U-H4; Source: CEC; ac Voltage: 480; Vintage: 2009; Weight: 2425; Unique ID#: 457"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 332, "Manufacturer: Kaco New Energy GmbH; ID: Blue Planet XP100U-H2; Source: CEC; ac Voltage: 208; Vintage: 2010; Weight: 2646; Unique ID#: 485")},
			want: "Manufacturer: Kaco New Energy GmbH; ID: Blue Planet XP100U-H2; Weight: 2646; Unique ID#: 485 [S2]."},
		{name: "the rows of two voltages compared, not the row stating none", question: "shell sq70 - voco for the 6v one vs the 12v one",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 373, "Model: Shell SQ70 (6V); Vintage: 2002; Material: c-Si; Isco: 9.2; Voco: 10.7"),
				sheetRow("SANDIA-MODULE-DB", "Data", 372, "Model: Shell SQ70 (12V); Vintage: 2002; Material: c-Si; Isco: 4.6; Voco: 21.4"),
				sheetRow("SANDIA-MODULE-DB", "Data", 371, "Model: Shell SQ70; Vintage: 2002; Material: c-Si; Isco: 4.7; Voco: 21.3")},
			want: "Model: Shell SQ70 (6V); Voco: 10.7 [S1]. Model: Shell SQ70 (12V); Voco: 21.4 [S2]."},
		{name: "two vintages of one model set side by side by vs are both quoted", question: "bp585 voco - 2000 (E) row vs the 2002 (E) row",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 88, "Model: BP Solar BP585; Vintage: 2002 (E); Material: c-Si; Isco: 5; Voco: 22.1; Vmpo: 18"),
				sheetRow("SANDIA-MODULE-DB", "Data", 87, "Model: BP Solar BP585; Vintage: 2000 (E); Material: c-Si; Isco: 5; Voco: 22; Vmpo: 18")},
			want: "Model: BP Solar BP585; Vintage: 2000 (E); Voco: 22 [S2]. Model: BP Solar BP585; Vintage: 2002 (E); Voco: 22.1 [S1]."},
		{name: "a word said on both sides of vs names only the rows holding it", question: "sunergy elv - isco for the 2008 (E) one vs the 2009 (E) one",
			category: "technical_value", complexity: "complex", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 129, "Model: Sunergy ELV; Vintage: 2008 (E); Material: mc-Si; Isco: 7.78; Voco: 32.6"),
				sheetRow("SANDIA-MODULE-DB", "Data", 128, "Model: Sunergy ELV; Vintage: 2008; Material: mc-Si; Isco: 7.638; Voco: 32.55"),
				sheetRow("SANDIA-MODULE-DB", "Data", 130, "Model: Sunergy ELV; Vintage: 2009 (E); Material: mc-Si; Isco: 7.81; Voco: 32.7")},
			want: "Model: Sunergy ELV; Vintage: 2008 (E); Isco: 7.78 [S1]. Model: Sunergy ELV; Vintage: 2009 (E); Isco: 7.81 [S3]."},
		{
			name:     "spreadsheet row picked by model number and trimmed to the cells asked",
			question: "What is the Paco of SB7000TL-US-22-208V?", category: "technical_value",
			chunks: []store.Chunk{inverter240, inverter208},
			want:   "Manufacturer: SMA America; ID: SB7000TL-US-22-208V; Paco: 6650 [S2].",
		},
		{
			name:     "short spreadsheet row trimmed to its name and the cell asked",
			question: "What is the Paco of the ABB MICRO-0.25-I-OUTD-US-208?", category: "technical_value",
			chunks: []store.Chunk{inverter208, cecRow},
			want:   "Name: ABB: MICRO-0.25-I-OUTD-US-208 208V [CEC 2014]; Paco: 250 [S2].",
		},
		{
			name:     "not in the documents",
			question: "What is the warranty period of the inverter?", category: "technical_value",
			chunks: []store.Chunk{inverter240, inverter208, pvwattsLosses},
			want:   generate.NotFoundText,
		},
		{
			name:     "identifier the chunks do not hold",
			question: "What is the Paco of SB5000US?", category: "technical_value",
			chunks: []store.Chunk{inverter240, inverter208},
			want:   generate.NotFoundText,
		},
		{
			name:     "technical value without any number",
			question: "What is the minimum depth of the HDPE ducts?", category: "technical_value",
			chunks: []store.Chunk{{DocNumber: "X-1", Page: 1, Text: "HDPE ducts shall be encased in concrete at every road crossing."}},
			want:   generate.NotFoundText,
		},
		{
			name:     "each lettered name is answered, the second from the table's next page, quoted without the header its chunk lacks",
			question: "hub height ref-a vs ref-b in the iea bifi scenarios", category: "technical_value", complexity: "complex",
			chunks: []store.Chunk{ieaScenarios, ieaScenariosNext},
			want: "Scenario Scenario GCR* Albedo Hub | Configuration Ground | number | name | Height | surface: 1 Ref-A 0.4 0.2 1.5 m 1-Up portrait Horizontal [S1]. " +
				"7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait Horizontal [S2].",
		},
		{
			name:     "a lettered name no unit holds is not answered by another",
			question: "hub height ref-a vs ref-c", category: "technical_value", complexity: "complex",
			chunks: []store.Chunk{ieaScenarios, ieaScenariosNext},
			want:   generate.NotFoundText,
		},
		{
			name:     "a question about what is not so is answered by a sentence that denies",
			question: "When is an EIS not needed?", category: "general",
			chunks: []store.Chunk{nepaEIS},
			want:   "An EIS may not be needed if results of an EA indicate the project has no significant impacts [S1].",
		},
		{
			name:     "a question about what is not so is not answered by what is so",
			question: "When is an EIS not prepared?", category: "general",
			chunks: []store.Chunk{{DocNumber: "EPA-1", Page: 2, Text: "An EIS is prepared by the lead federal agency when a project may significantly affect the environment."}},
			want:   generate.NotFoundText,
		},
		{
			name:     "a sentence that says the opposite of what the question qualifies is no answer",
			question: "What is one of the least important open questions in computer science?", category: "general",
			chunks: []store.Chunk{{DocNumber: "CS-1", Page: 1, Text: "Whether P equals NP is one of the most important open questions in computer science."}},
			want:   generate.NotFoundText,
		},
		{
			name:     "no chunks",
			question: "What is the default soiling loss?", category: "technical_value",
			want: generate.NotFoundText,
		},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			complexity := tc.complexity
			if complexity == "" {
				complexity = "simple"
			}
			res, err := g.Generate(context.Background(), generate.Request{Question: tc.question, Category: tc.category, Complexity: complexity, Chunks: tc.chunks})
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tc.want {
				t.Errorf("answer\n got: %s\nwant: %s", res.Text, tc.want)
			}
			if res.NotFound != (tc.want == generate.NotFoundText) || res.Generator != "extractive" || res.FellBack {
				t.Errorf("result = %+v", res)
			}
			assertQuoted(t, res.Text, tc.chunks)
		})
	}
}

// citationRE matches a citation marker; the extractive generator writes one
// after every quote.
var citationRE = regexp.MustCompile(`\[S(\d+)\]`)

// assertQuoted checks the never-invent property: every token of every
// quote is a token of the chunk the quote cites. Only the citation markers
// and the punctuation joining quotes are the generator's own.
func assertQuoted(t *testing.T, answer string, chunks []store.Chunk) {
	t.Helper()
	if answer == generate.NotFoundText {
		return
	}
	locs := citationRE.FindAllStringSubmatchIndex(answer, -1)
	if len(locs) == 0 {
		t.Fatalf("answer cites nothing: %q", answer)
	}
	from := 0
	for _, loc := range locs {
		n, _ := strconv.Atoi(answer[loc[2]:loc[3]])
		if n < 1 || n > len(chunks) {
			t.Fatalf("citation [S%d] out of range 1..%d in %q", n, len(chunks), answer)
		}
		have := map[string]bool{}
		for _, tok := range analysis.Tokens(chunks[n-1].Text) {
			have[tok.Text] = true
		}
		for _, tok := range analysis.Tokens(answer[from:loc[0]]) {
			if !have[tok.Text] {
				t.Errorf("%q in the answer is not in the cited chunk S%d\nanswer: %s", tok.Text, n, answer)
			}
		}
		from = loc[1]
	}
	if rest := strings.Trim(answer[from:], ". "); rest != "" {
		t.Errorf("uncited text after the last citation: %q", rest)
	}
}

// TestExtractiveNeverInvents asks many questions made from the fixtures'
// own words, and checks the never-invent property on every answer.
func TestExtractiveNeverInvents(t *testing.T) {
	chunks := []store.Chunk{pvwattsLosses, trenchSpec, inverter240, inverter208, cecRow, injectedChunk}
	var questions []string
	for _, c := range chunks {
		words := strings.Fields(c.Text)
		for i := 0; i+4 <= len(words); i += 3 {
			questions = append(questions, "What is "+strings.Join(words[i:i+4], " ")+"?", "Compare "+strings.Join(words[i:i+2], " ")+" and "+words[i+3])
		}
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	answered := 0
	for _, q := range questions {
		for _, complexity := range []string{"simple", "complex"} {
			res, err := g.Generate(context.Background(), generate.Request{Question: q, Category: "general", Complexity: complexity, Chunks: chunks})
			if err != nil {
				t.Fatal(err)
			}
			if !res.NotFound {
				answered++
			}
			assertQuoted(t, res.Text, chunks)
		}
	}
	if answered < len(questions)/4 {
		t.Errorf("only %d of %d questions answered; the property was hardly exercised", answered, 2*len(questions))
	}
}

func TestExtractiveBadInput(t *testing.T) {
	long := strings.Repeat("The cable depth is 800 mm. ", 20000)
	tests := []struct {
		name     string
		question string
		chunks   []store.Chunk
	}{
		{name: "empty question", question: "", chunks: []store.Chunk{trenchSpec}},
		{name: "only stopwords", question: "what is the?", chunks: []store.Chunk{trenchSpec}},
		{name: "only punctuation", question: "?!…", chunks: []store.Chunk{trenchSpec}},
		{name: "empty chunk", question: "cable depth", chunks: []store.Chunk{{}}},
		{name: "invalid UTF-8", question: "cable \xff depth", chunks: []store.Chunk{{Page: 1, Text: "cable\xfe\xff depth is 800 mm.\n\xff"}}},
		{name: "control characters", question: "cable\x00depth", chunks: []store.Chunk{{Page: 1, Text: "\x00\x01cable depth\x07 is 800 mm."}}},
		{name: "very long chunk", question: "What is the cable depth?", chunks: []store.Chunk{{Page: 1, Text: long}}},
		{name: "pipes only", question: "What is the loss?", chunks: []store.Chunk{{Page: 1, Text: "|\n| | |\n|---|---|\n||"}}},
		{name: "row without fields", question: "Paco?", chunks: []store.Chunk{{Sheet: "S", Row: 2, Text: ";;;"}}},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := g.Generate(context.Background(), generate.Request{Question: tc.question, Chunks: tc.chunks})
			if err != nil {
				t.Fatal(err)
			}
			if res.Text == "" || res.NotFound != (res.Text == generate.NotFoundText) {
				t.Errorf("result = %+v", res)
			}
			assertQuoted(t, res.Text, tc.chunks)
		})
	}
}

func TestExtractiveHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := generate.NewExtractive(generate.ExtractiveOptions{}).Generate(ctx, generate.Request{Question: "q", Chunks: []store.Chunk{trenchSpec}})
	if err == nil {
		t.Fatal("want the context's error")
	}
}

func FuzzExtractive(f *testing.F) {
	f.Add("What is the minimum trench depth for DC cables?", trenchSpec.Text, "", 0, "complex")
	f.Add("What is the Paco of SB7000TL-US-22-208V?", inverter208.Text, "Parameters", 701, "simple")
	f.Add("Who? When?", "A. B. C. D.\n| x | y |\n1) z", "", 0, "simple")
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	f.Fuzz(func(t *testing.T, question, text, sheet string, row int, complexity string) {
		chunks := []store.Chunk{{Page: 1, Sheet: sheet, Row: row, Text: text}, trenchSpec}
		res, err := g.Generate(context.Background(), generate.Request{Question: question, Category: "technical_value", Complexity: complexity, Chunks: chunks})
		if err != nil {
			t.Fatal(err)
		}
		if res.NotFound != (res.Text == generate.NotFoundText) {
			t.Fatalf("NotFound = %v for %q", res.NotFound, res.Text)
		}
		assertQuoted(t, res.Text, chunks)
	})
}

func BenchmarkExtractive(b *testing.B) {
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	req := generate.Request{
		Question: "What is the minimum trench depth for DC cables?", Category: "technical_value", Complexity: "simple",
		Chunks: []store.Chunk{pvwattsLosses, trenchSpec, inverter240, inverter208, cecRow},
	}
	for b.Loop() {
		if _, err := g.Generate(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExtractiveReadsTheQuestion checks what the question analysis adds:
// the qualifier asked for, the kind of value wanted, context numbers that
// need not be repeated, and model names several rows share.
// The IEA study's scenario table as the PDF reader gives it: a header of
// two lines, a first row without cell marks, and the last rows on the next
// page with wrapped cells between them.
var (
	ieaScenarios = store.Chunk{ID: "iea/1/2", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 1, Index: 2, Section: "Scenarios",
		Text: "Scenarios\nScenario Scenario GCR* Albedo Hub | Configuration Ground\nnumber | name | Height | surface\n" +
			"1 Ref-A 0.4 0.2 1.5 m 1-Up portrait Horizontal\n2 | A1 | 0.25 0.2 1.5 m 1-Up portrait Horizontal\n" +
			"3 | A2 | 0.4 0.5 1.5 m 1-Up portrait Horizontal\n4 | A3 | 0.4 0.2 3.5 m 1-Up portrait Horizontal"}
	ieaScenariosNext = store.Chunk{ID: "iea/1/3", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 2, Index: 3, Section: "Scenarios",
		Text: "5 | A4 | 0.4 0.2 1.5 m 1-Up portrait 10%\ngrade* down to the East\n6 | A5 | 0.4 0.2 1.5 m 1-Up portrait 10%\n" +
			"grade* down to the SW\n7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait Horizontal\n* A GCR of 0.4 for the Trina Vertex module " +
			"(length = 2.384m) corresponds to a row-to-row spacing or pitch of 5.96m. For a GCR of 0.25 the pitch is 9.536m. For a " +
			"2-Up portrait system with a GCR of 0.4 the pitch is 2*5.96m = 11.92m."}
)

func TestExtractiveReadsTheQuestion(t *testing.T) {
	withRefB := scenarioTable
	withRefB.Text += "\n7 | Ref-B | 0.4 | 0.2 | 3.5 m | 2-Up portrait | Horizontal"
	dcOnly := store.Chunk{ID: "spec/1/1", DocID: "spec", DocNumber: "SPEC-1", Page: 3, Section: "3.4 Cable trenches",
		Text: "The minimum trench depth for DC cables is 800 mm. Cable trenches shall be backfilled with sand."}
	sizing := store.Chunk{ID: "nrel/1/16", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 7,
		Section: "3 Model Inputs", Text: "The default value of the new DC-to-AC ratio input is 1.1. For a 4 kW DC system, this would result in a 3.63 kW AC inverter rating."}
	voltage := store.Chunk{ID: "spec/1/2", DocID: "spec", DocNumber: "SPEC-1", Page: 4, Section: "3.5 DC cabling",
		Text: "DC cables shall be rated for a system voltage of 1500 V and laid in the cable trench."}
	thermal := store.Chunk{ID: "nrel/1/30", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 12,
		Section: "9 Thermal Model", Text: "The selection changes the assumed INOCT of a roof mount system. For a roof mount system, air flow is more " +
			"restricted than on an open rack. The estimate is for INOCT to be roughly 49 °C for 4 inch standoffs. For open rack systems, " +
			"45 °C INOCT is retained."}
	inputs := store.Chunk{ID: "nrel/1/12", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 6,
		Section: "Table 2. Input Parameters", Text: "Table 2. Input Parameters\nField | Units | Default Value\nSystem size | kW (DC) | 4\n" +
			"Tilt angle | degrees | Site Latitude\nAzimuth angle | degrees | 180° in northern hemi-\nsphere, 0° in southern hemisphere"}
	fuentes := store.Chunk{ID: "nrel/1/31", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 12,
		Section: "9 Thermal Model", Text: "The Fuentes paper discusses translation of the nominal operating cell temperature (NOCT) measured at " +
			"standard conditions (800 W/m2, 20°C ambient) to INOCT based on mounting configuration. For a roof mount system, air flow " +
			"around the modules more restricted than on an open rack, and the installed nominal operating temperature will be higher. " +
			"The estimate is for INOCT to be roughly 49 °C for 4 inch standoffs."}
	weather := store.Chunk{ID: "nrel/1/8", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 5,
		Section: "Weather data", Text: "PVWatts V5 reads TMY2 files from 239 sites. By default PVWatts V5 uses 1020 TMY3s."}
	defaults := store.Chunk{ID: "sandia-modules/1/7", DocID: "sandia-modules", DocNumber: "SANDIA-MODULE-DB", Sheet: "Defaults", Row: 7,
		Section: "Wind speed and delta T", Text: "Module Type: 22x Linear Concentrator; Mount: Tracker; a: -3.23; b: -0.13; deltaT [C]: 13"}
	table8 := store.Chunk{ID: "nrel/1/60", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 20,
		Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
		Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nHI Honolulu | 8.7 % | 10.9 % | 3.0 % | 3.4 % | 7.8 %\n" +
			"WY Cheyenne | 8.8 % | 9.2 % | 2.9 % | 3.4 % | 7.2 %"}
	table8Legend := store.Chunk{ID: "nrel/1/55", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 16,
		Section: "14 Comparison with Version 1 Results", Text: "The following cases were compared:\n1. Fixed: Fixed 20 degree tilt, south facing, standard module\n" +
			"2. Fixed+Premium: Fixed 20 degree tilt, south facing, premium module in PVWatts V5\n3. 2 Axis: Two axis tracking, standard module"}
	table8West := store.Chunk{ID: "nrel/1/61", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 20,
		Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
		Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nCO Boulder | 8.9 % | 10.2 % | 3.2 % | 3.9 % | 7.3 %\n" +
			"ME Portland | 10.1 % | 11.0 % | 4.4 % | 5.4 % | 8.1 %"}
	table8South := store.Chunk{ID: "nrel/1/62", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 20,
		Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
		Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nTX Abilene | 8.9 % | 10.6 % | 3.6 % | 4.1 % | 7.9 %\n" +
			"UT Salt Lake City | 9.4 % | 10.9 % | 3.6 % | 4.1 % | 7.8 %"}
	lossChange := store.Chunk{ID: "nrel/1/45", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual",
		Page: 14, Section: "11 System Losses", Text: "This suggests that the default PVWatts V5 system loss represents roughly a 7 % increase in " +
			"system performance relative to PVWatts V1 due solely to updated input assumptions."}
	systemLoss := store.Chunk{ID: "nrel/1/13", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 6,
		Section: "3 Model Inputs", Text: "Total system losses are specified as a percentage, with a default value of 14 %."}
	pitch := store.Chunk{ID: "iea/1/3", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 2, Section: "Scenarios",
		Text: "A GCR of 0.4 for the Trina Vertex module (length = 2.384m) corresponds to a row-to-row spacing or pitch of 5.96m. " +
			"For a GCR of 0.25 the pitch is 9.536m."}
	solectria := []store.Chunk{ // the voltage variants of one model
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1719, "Name: Solectria Renewables: PVI85kW-240 240V [CEC 2013]; Vac (V): 240; Idcmax (A): 299; Mppt_low (V): 300"),
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1720, "Name: Solectria Renewables: PVI85kW-480 480V [CEC 2013]; Vac (V): 480; Idcmax (A): 285; Mppt_low (V): 312"),
	}
	solfocus := []store.Chunk{
		sheetRow("SANDIA-MODULE-DB", "Data", 1193, "Model: SolFocus SF-1100S-CPV-28 (330); Vintage: 2010; Isco: 8.050570596"),
		sheetRow("SANDIA-MODULE-DB", "Data", 1192, "Model: SolFocus SF-1100S-CPV-28 (315); Vintage: 2010; Isco: 8.165578747")}
	gtib := []store.Chunk{
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1150, "Name: Princeton Power Systems: GTIB-480-100 (600 VDC) 480V [CEC 2010]; Vdco (V): 489.4402778"),
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1149, "Name: Princeton Power Systems: GTIB-480-100 (480 VDC) 480V [CEC 2010]; Vdco (V): 400.1566667")}
	tests := []struct {
		name, question, category string
		chunks                   []store.Chunk
		want                     string
	}{
		// The rule that a word of a qualifier is not the qualifier is
		// held by TestPartialQualifiers; read by words alone this
		// paragraph answers right with or without it.
		{name: "the estimate after a roof-mount sentence, not the NOCT test conditions", question: "inoct for roof mount in pvwatts",
			category: "technical_value", chunks: []store.Chunk{fuentes},
			want: "The estimate is for INOCT to be roughly 49 °C for 4 inch standoffs [S1]."},
		{name: "a quote of two sentences cites both", question: "unique id of the ES5300 208V",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/845", DocID: "sandia-inverters", Sheet: "Parameters", Row: 846,
				Text: "Manufacturer: Yes! Solar Inc.; ID: ES5300 (208V); Unique ID#: 413; Paco: 5000"}},
			want: "Manufacturer: Yes! [S1] Solar Inc.; ID: ES5300 (208V); Unique ID#: 413 [S1]."},
		{name: "a cell may state the number of the model's name", question: "paco hisel-k 1500 @ 240v",
			category: "technical_value", chunks: []store.Chunk{sheetRow("CEC-INVERTERS", "CEC_Inverters", 686, "Name: HiSEL Power: HiSEL-K 1500 (240V) 240V [CEC 2012]; Vac (V): 240; Paco (W): 1500; Pdco (W): 1562.234174")},
			want: "Name: HiSEL Power: HiSEL-K 1500 (240V) 240V [CEC 2012]; Paco (W): 1500 [S1]."},
		{name: "another series' model of the same short number is not the one asked", question: "fronius primo 5.0-1 @ 277v paco",
			category: "technical_value", chunks: []store.Chunk{sheetRow("CEC-INVERTERS", "CEC_Inverters", 460, "Name: Fronius USA, LLC: IG Plus 5.0-1 uni(277) 277V [CEC 2010]; Vac (V): 277; Paco (W): 5000")},
			want: generate.NotFoundText},
		{name: "the list's name names none of its columns", question: "fill factor of the shell solar st20 in the sandia module db",
			category: "technical_value", chunks: []store.Chunk{sheetRow("SANDIA-MODULE-DB", "Data", 470, "Model: Shell Solar ST20; Vintage: 2003; Module Area [m^2]: 0.245; Material: CIS; Series Cells: 36; Isco: 1.36; Voco: 22.9; "+
				"Impo: 1.18; Vmpo: 17.3; aIsc: 0.00002; aImp: -0.0003; C0: 0.9; C1: 0.1; BVoco: -0.082; mBVoc: 0; d(Tc): 3; fd: 1")},
			want: generate.NotFoundText},
		{name: "the row holding the model number whole, not rows sharing its parts", question: "pvi-6000-outd-us-z-a pnt 277v",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 66, "Name: ABB: PVI-6000-OUTD-US-Z (277V) 277V [CEC 2015]; Vac (V): 277; Paco (W): 6000; Pnt (W): 0.3"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1105, "Name: Power-One: PVI-6000-OUTD-S-US-Z-A (277V) 277V [CEC 2015]; Vac (V): 277; Paco (W): 6000; Pnt (W): 0.3"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 69, "Name: ABB: PVI-6000-OUTD-US-Z-A (277V) 277V [CEC 2015]; Vac (V): 277; Paco (W): 6000; Pnt (W): 0.3")},
			want: "Name: ABB: PVI-6000-OUTD-US-Z-A (277V) 277V [CEC 2015]; Pnt (W): 0.3 [S3]."},
		{name: "the rows of the model named are of other variants: a row of another model with the variant asked does not answer",
			question: "shell sq70 24v version voco in the module db", category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 372, "Model: Shell Solar SQ70 <12V>; Vintage: 2003 (E); Material: c-Si; Isco: 4.7; Voco: 21.4"),
				sheetRow("SANDIA-MODULE-DB", "Data", 373, "Model: Shell Solar SQ70 <6V>; Vintage: 2003 (E); Material: c-Si; Isco: 9.4; Voco: 10.7"),
				sheetRow("SANDIA-MODULE-DB", "Data", 209, "Model: Photowatt PW1000 (24V); Vintage: 2000; Material: mc-Si; Isco: 3.12; Voco: 43.16")},
			want: generate.NotFoundText},
		{name: "a label that names a column says what is asked, not which row", question: "darfon mig300 c3 coeff",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Legend", 12, "Heading: C3; Description: Empirical coefficient defining the variation of Pso with dc-voltage input (1/V)"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 300, "Name: Darfon Electronics: MIG300 (240V) 240V [CEC 2014]; Vac (V): 240; Paco (W): 300; C3 (1/V): -0.00027")},
			want: "Name: Darfon Electronics: MIG300 (240V) 240V [CEC 2014]; C3 (1/V): -0.00027 [S2]."},
		{name: "columns named by what the legend says they stand for", question: "sharp ne-165u1 - the two coefficients that tie module temperature to wind speed, irradiance and ambient, what are they",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 46, "Heading: a; Description: Coefficient relating module temperature to wind speed, irradiance, ambient temperature"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 47, "Heading: b; Description: Coefficient relating module temperature to wind speed, irradiance, ambient temperature"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 18, "Heading: Isco; Description: Isc at STC, (A)"),
				sheetRow("SANDIA-MODULE-DB", "Data", 318, "Model: Sharp NE-165U1; Vintage: 2004 (E); Module Area [m^2]: 1.301; Isco: 5.46; Voco: 43.1; d(Tc): 3; a: -3.537; b: -0.0721; C4: 0.9")},
			want: "Model: Sharp NE-165U1; a: -3.537; b: -0.0721 [S4]."},
		{name: "a model number spaced out, and another maker's row with its number", question: "kyocera pv 110 module area in the sandia database",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 209, "Model: Photowatt PW6-110; Vintage: 2000; Module Area [m^2]: 0.945; Material: mc-Si; Isco: 3.4"),
				sheetRow("SANDIA-MODULE-DB", "Data", 170, "Model: Kyocera Solar KC120-1; Vintage: 2000; Module Area [m^2]: 0.929; Material: mc-Si; Isco: 7.45"),
				sheetRow("SANDIA-MODULE-DB", "Data", 178, "Model: Kyocera Solar PV110; Vintage: 1999; Module Area [m^2]: 0.974; Material: mc-Si; Isco: 7.11")},
			want: "Model: Kyocera Solar PV110; Module Area [m^2]: 0.974 [S3]."},
		{name: "the maker named has no row among the passages: another maker's row with the number does not answer", question: "kyocera 110 w module area",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 209, "Model: Photowatt PW6-110; Vintage: 2000; Module Area [m^2]: 0.945; Material: mc-Si; Isco: 3.4"),
				sheetRow("SANDIA-MODULE-DB", "Data", 170, "Model: Kyocera Solar KC120-1; Vintage: 2000; Module Area [m^2]: 0.929; Material: mc-Si; Isco: 7.45")},
			want: generate.NotFoundText},
		{name: "a maker set aside names no rows to keep", question: "not the kyocera one, the photowatt 110 module area",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 209, "Model: Photowatt PW6-110; Vintage: 2000; Module Area [m^2]: 0.945; Material: mc-Si; Isco: 3.4"),
				sheetRow("SANDIA-MODULE-DB", "Data", 178, "Model: Kyocera Solar PV110; Vintage: 1999; Module Area [m^2]: 0.974; Material: mc-Si; Isco: 7.11")},
			want: "Model: Photowatt PW6-110; Module Area [m^2]: 0.945 [S1]."},
		{name: "a lookup read past the words that tell the job", question: "filling in the design tool config for the carport, what goes in vdcmax and idcmax for the samil solarriver5000tl-us 208v",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1267, "Name: Samil Power Co., Ltd.: SolarRiver5000TL-US (208V) 208V [CEC 2012]; Vac (V): 208; Paco (W): 5000; "+
					"Vdco (V): 400.8; Pso (W): 27.7; Vdcmax (V): 550; Idcmax (A): 28; Mppt_low (V): 150")},
			want: "Name: Samil Power Co., Ltd.: SolarRiver5000TL-US (208V) 208V [CEC 2012]; Vdcmax (V): 550; Idcmax (A): 28 [S1]."},
		{name: "the unit in brackets names no column", question: "power electronics fs0970pu Pnt in W? cec csv",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1037, "Name: Power Electronics: FS0970PU 390V [CEC 2014]; Vac (V): 390; Paco (W): 970000; "+
					"Pdco (W): 987839.9362; Vdco (V): 606; Pso (W): 637.3616852; Pnt (W): 491; Vdcmax (V): 820")},
			want: "Name: Power Electronics: FS0970PU 390V [CEC 2014]; Pnt (W): 491 [S1]."},
		{name: "a column named by its legend's last word", question: "sharp ne-165u1 total area including the frame, in the module db",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 14, "Heading: Area; Description: Total module area including the frame, (m2)"),
				sheetRow("SANDIA-MODULE-DB", "Data", 318, "Model: Sharp NE-165U1; Vintage: 2004 (E); Module Area [m^2]: 1.301; Isco: 5.46; Voco: 43.1; a: -3.537")},
			want: "Model: Sharp NE-165U1; Module Area [m^2]: 1.301 [S2]."},
		{name: "two legends of other columns that hold the words alike name neither", question: "sharp ne-165u1 coefficient relating current to effective irradiance",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 24, "Heading: C0; Description: Coefficient relating Imp to effective irradiance, (dim)"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 48, "Heading: C4; Description: Coefficient relating Ix to effective irradiance, (dim)"),
				sheetRow("SANDIA-MODULE-DB", "Data", 318, "Model: Sharp NE-165U1; Vintage: 2004 (E); Module Area [m^2]: 1.301; Material: mc-Si; "+
					"Series Cells: 72; Isco: 5.46; Voco: 43.1; Impo: 4.77; Vmpo: 34.6; C0: 0.989; C1: 0.011; C4: 0.9")},
			want: generate.NotFoundText},
		{name: "a weighted efficiency is not the weight", question: "cec weighted efficiency of the topper sun ts-s3000 at 240 v",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/788", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS",
				Sheet: "Parameters", Row: 788, Text: "Manufacturer: Topper Sun Energy Technology; ID: TS-S3000 (240V); Source: CEC; ac Voltage: 240; Weight: 15"}},
			want: generate.NotFoundText},
		{name: "a row of another voltage is not the variant asked", question: "satcon pvs-1000 mvt 480v weight",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/523", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS",
				Sheet: "Parameters", Row: 523, Text: "Manufacturer: Satcon Technology Corporation; ID: PVS-1000 MVT; Source: CEC; ac Voltage: 265; Weight: 12000"}},
			want: generate.NotFoundText},
		{name: "a column asked by name may hold words", question: "siemens solar sr90 (6v) - material?",
			category: "technical_value", chunks: []store.Chunk{sheetRow("SANDIA-MODULE-DB", "Data", 423, "Model: Siemens Solar SR90 (6V); Vintage: 1999 (E); Module Area [m^2]: 0.89; Material: c-Si; Series Cells: 12")},
			want: "Model: Siemens Solar SR90 (6V); Material: c-Si [S1]."},
		{name: "the cell that names the row asked about is quoted", question: "sunteams 5000 240v tamb low / tamb max",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/52", DocID: "sandia-inverters", Sheet: "Parameters", Row: 53,
				Text: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Source: CEC; Paco: 4850; Pdco: 5088.2; Vdco: 368; " +
					"Vdcmax: 500; Idcmax: 14.8; MPPT-Low: 110; MPPT-Hi: 450; Tamb Low: -4; Tamb Max: 131; Weight: 20"}},
			want: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Tamb Low: -4; Tamb Max: 131 [S1]."},
		{name: "a column is named by another word for the end of its range", question: "sunteams 5000 240v tamb low / high",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/52", DocID: "sandia-inverters", Sheet: "Parameters", Row: 53,
				Text: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Source: CEC; Paco: 4850; Pdco: 5088.2; Vdco: 368; " +
					"Vdcmax: 500; Idcmax: 14.8; MPPT-Low: 110; MPPT-Hi: 450; Tamb Low: -4; Tamb Max: 131; Weight: 20"}},
			want: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Tamb Low: -4; Tamb Max: 131 [S1]."},
		{name: "a column named whole leaves out its sibling named by their shared word", question: "sunteams 5000 240v tamb max",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/52", DocID: "sandia-inverters", Sheet: "Parameters", Row: 53,
				Text: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Source: CEC; Paco: 4850; Pdco: 5088.2; Vdco: 368; " +
					"Vdcmax: 500; Idcmax: 14.8; MPPT-Low: 110; MPPT-Hi: 450; Tamb Low: -4; Tamb Max: 131; Weight: 20"}},
			want: "Manufacturer: Beijing Kinglong New Energy; ID: Sunteams 5000 (240V); Tamb Max: 131 [S1]."},
		{name: "a long row without the column asked states nothing but its name", question: "spr-6500f 240v tamb maximum in the sandia inverter list",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/331", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS",
				Title: "Sandia/CEC grid-tied inverter parameters", Sheet: "Parameters", Row: 332,
				Text: "Manufacturer: SunPower Corp (Original Mfg - Fronius Int. GmbH); ID: SPR-6500f (240V); Source: CEC; ac Voltage: 240; " +
					"Vintage: 2008; Paco: 6500; Pdco: 6815.02; Vdco: 388.55; Pso: 33.49; Pnt: 0.76; Unique ID#: 333"}},
			want: generate.NotFoundText},
		{name: "a number in a row's name counts nothing", question: "how many mppt inputs dose the solis-20k-us have",
			category: "technical_value", chunks: []store.Chunk{sheetRow("CEC-INVERTERS", "CEC_Inverters", 975, "Name: Ningbo Ginlong Technologies: Solis-20K-US (480Vac) 480V [CEC 2015]; Vac (V): 480; Paco (W): 20000; "+
				"Pdco (W): 20534.55863; Vdco (V): 649.8297292; Pso (W): 128.5871835; C0 (1/W): -8.25E-07; C1 (1/V): -2.81E-05; "+
				"C2 (1/V): -1.26E-03; C3 (1/V): -2.30E-03; Pnt (W): 15; Vdcmax (V): 1000; Idcmax (A): 72; Mppt_low (V): 200; Mppt_high (V): 800"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 973, "Name: Ningbo Ginlong Technologies: Solis-2.5K-2G-US (208V) 208V [CEC 2014]; Vac (V): 208; Paco (W): 2490; Vdcmax (V): 600; "+
					"Idcmax (A): 20; Mppt_low (V): 100; Mppt_high (V): 500"),
				{ID: "nrel/1/30", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Page: 12, Section: "9 Inverter",
					Text: "The inverter model in PVWatts V5 uses a part-load efficiency curve and a nominal efficiency of 96 %. Inputs are the DC power and the rated AC power of the inverter."}},
			want: generate.NotFoundText},
		{name: "a legend row among the legend's notes", question: "vintage column in the sandia module db - year tested or year manufactured?",
			chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 13, "Heading: Vintage; Description: Year manufactured"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 1, "The values are calculated based on outdoor testing of one or more modules of each type, conducted using a dual-axis tracker at Sandia National Laboratories."),
				sheetRow("SANDIA-MODULE-DB", "Legend", 5, "All temperature coefficients are calculated based on module-level testing under stable clear sky conditions."),
				sheetRow("SANDIA-MODULE-DB", "Legend", 9, "However, temperature coefficients and all other coefficients are based on test results for similar modules from same manufactuer.")},
			want: "Heading: Vintage; Description: Year manufactured [S1]."},
		{name: "an identifier asked in the singular matches its plural", question: "how many tmy3 sites does v5 use by default",
			category: "technical_value", chunks: []store.Chunk{weather},
			want: "By default PVWatts V5 uses 1020 TMY3s [S1]."},
		{name: "a column named in one word is asked for in two", question: "defaults sheet a and delta T for the 22x linear concentrator",
			category: "technical_value", chunks: []store.Chunk{defaults},
			want: "Module Type: 22x Linear Concentrator; a: -3.23; deltaT [C]: 13 [S1]."},
		{name: "a model number that differs is another model", question: "suniva titan 250 voco",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-modules/1/453", DocID: "sandia-modules", Sheet: "Data", Row: 453,
				Text: "Model: Suniva Titan 230; Voco: 37.26"}},
			want: generate.NotFoundText},
		{name: "a value per year is the rate asked for", question: "long term degradation rate after LID",
			category: "technical_value", chunks: []store.Chunk{{ID: "nrel/1/40", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Page: 13,
				Section: "11 System Losses", Text: "After this initial period, the module power stabilizes and subsequently follows typical " +
					"long-term degradation over the lifetime of the installation (∼ 0.5 %/year). The default light-induced degradation " +
					"(LID) loss of 1.5 % is a typical value based on measurements of losses in different module types [13]."}},
			want: "After this initial period, the module power stabilizes and subsequently follows typical long-term degradation over " +
				"the lifetime of the installation (∼ 0.5 %/year) [S1]."},
		{name: "a row named by a word more of the question is the case asked", question: "b1 for ar glass/cell in the defaults tab",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "sandia-modules/3/18", DocID: "sandia-modules", Sheet: "Defaults", Row: 19, Section: "Angle of Incidence",
					Text: "Module type: Standard glass/cell; B0: 1; B1: -0.002438; B2: 0.0003103"},
				{ID: "sandia-modules/3/19", DocID: "sandia-modules", Sheet: "Defaults", Row: 20, Section: "Angle of Incidence",
					Text: "Module type: AR Glass/cell"}},
			want: generate.NotFoundText},
		{name: "a row the question sets aside is not the answer", question: "diehl platinum 100 cs-a 480 unique id# (not the cs-a he)",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "sandia-inverters/1/167", DocID: "sandia-inverters", Sheet: "Parameters", Row: 168,
					Text: "Manufacturer: Diehl Controls; ID: Platinum 100 CS-A HE (480); Vintage: 2010; B4: 2.11E-07; Unique ID#: 465"},
				{ID: "sandia-inverters/1/163", DocID: "sandia-inverters", Sheet: "Parameters", Row: 164,
					Text: "Manufacturer: Diehl Controls; ID: Platinum 100 CS-A (480); Vintage: 2010; B4: 2.11E-07; Unique ID#: 463"},
				{ID: "sandia-inverters/1/161", DocID: "sandia-inverters", Sheet: "Parameters", Row: 162,
					Text: "Manufacturer: Diehl Controls; ID: Platinum 100 CS-A (208); Vintage: 2010; B4: 2.11E-07; Unique ID#: 462"}},
			want: "Manufacturer: Diehl Controls; ID: Platinum 100 CS-A (480); Unique ID#: 463 [S2]."},
		{name: "a document set aside does not set aside another document's row that names it", question: "refusol 24 kw vdco in the sandia inverter sheet (not the cec csv)",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Parameters", 477, "Manufacturer: Refusol; ID: 24 kW; Source: CEC; ac Voltage: 480; Vdco: 720.578333333333; Pso: 42.86"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 501, "Name: Refusol: 24 kW 480V [CEC 2011]; Vac (V): 480; Vdco (V): 720.578333; Pso (W): 42.86")},
			want: "Manufacturer: Refusol; ID: 24 kW; Vdco: 720.578333333333 [S1]."},
		{name: "a column named for the dimension asked is quoted with the one named", question: "pvwatts v3 year + status",
			category: "status", chunks: []store.Chunk{versionHistory},
			want: "V3 — Date: 2009; Status: Defunct in 2012 [S1]."},
		{name: "a cell that names what is asked and states it beats the column of its dimension", question: "tbl 1: v3 went defunct in what yr",
			category: "technical_value", chunks: []store.Chunk{versionHistory},
			want: "V3 — Status: Defunct in 2012 [S1]."},
		{name: "two asks for a date: the column of the dimension and the cell that names what is asked", question: "pvwatts v3 - what year did it come out and when did it go defunct (table 1)?",
			category: "general", chunks: []store.Chunk{versionHistory},
			want: "V3 — Date: 2009; Status: Defunct in 2012 [S1]."},
		{name: "a column set aside is not quoted for being named", question: "bp sx3150 c2, not c3",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 108, "Model: BP Solar SX3150; Vintage: 2004 (E); Vmpo: 34.5; C2: -0.117; C3: -11.082")},
			want: "Model: BP Solar SX3150; C2: -0.117 [S1]."},
		{name: "what a coefficient relates is not the coefficient", question: "bp sx3150 coefficient relating vmp to effective irradiance",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 108, "Model: BP Solar SX3150; Vintage: 2004 (E); Vmpo: 34.5; C2: -0.117; C3: -11.082")},
			want: generate.NotFoundText},
		{name: "a maker's name cut short", question: "mitsu pv-mf180ud4 vmpo?",
			category: "general", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 196, "Model: Mitsubishi PV-MF180UD4; Vintage: 2006 (E); Module Area [m^2]: 1.382; Material: mc-Si; Voco: 30.4; Vmpo: 24.2")},
			want: "Model: Mitsubishi PV-MF180UD4; Vmpo: 24.2 [S1]."},
		{name: "the initials of a company's name", question: "ge pvia3000na1240 paco in the sandia sheet",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-INVERTERS", "Parameters", 260, "Manufacturer: General Electric Company; ID: PVIA3000NA1240 (240 Vac); Source: CEC; ac Voltage: 240; Paco: 3000")},
			want: "Manufacturer: General Electric Company; ID: PVIA3000NA1240 (240 Vac); Paco: 3000 [S1]."},
		{name: "a cell naming the case asked is quoted when the row's label does not name it", question: "what year did the soap web service version of v2 come out",
			category: "general", chunks: []store.Chunk{versionHistory},
			want: "SOAP — Description: A web service version of V2 using the SOAP protocol for monthly predictions; " +
				"Weather Data Options: Same as V2; Date: 2003 [S1]."},
		{name: "a row naming neither case of a set its table tells apart does not answer for one", question: "how many tmy2 sites did pvwatts v3 offer",
			category: "technical_value", chunks: []store.Chunk{versionHistory},
			want: generate.NotFoundText},
		{name: "words that spell out a header's acronym ask for its column, not another they share a word with",
			question: "What is the ground coverage ratio of scenario A1 in the IEA study?",
			category: "technical_value", chunks: []store.Chunk{scenarioTable},
			want: "2 — Scenario name: A1; GCR*: 0.25 [S1]."},
		{name: "a legend entry whose heading the question says beats one that shares a word", question: "whats the 'n' column in the sandia module db",
			category: "definition", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 21, "Heading: Ms; Description: Number of modules in series in a module-string; Column C: Additional heading for implementation at array level (not in current datasheet)"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 30, "Heading: n; Description: Cell diode factor (dim)")},
			want: "Heading: n; Description: Cell diode factor (dim) [S2]."},
		{name: "an article is no entry's heading", question: "what is a diode factor in the module db legend",
			category: "definition", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 41, "Heading: a; Description: Empirical coefficient for the upper limit of module temperature at low wind speeds"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 30, "Heading: n; Description: Cell diode factor (dim)")},
			want: "Heading: n; Description: Cell diode factor (dim) [S2]."},
		{name: "a pointer to more information says neither yes nor no", question: "asbestos neshap: do we notify epa on every renovation",
			category: "technical_value", chunks: []store.Chunk{{ID: "epa/1/20", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 6,
				Section: "ASBESTOS", Text: "For more information on the asbestos NESHAP for a renovation, go to www.epa.gov/asbestos/neshap.html. " +
					"You must notify EPA only if the amounts reach the thresholds."}},
			want: "You must notify EPA only if the amounts reach the thresholds [S1]."},
		{name: "how much asks for a number a sentence without one does not give", question: "How much funding per site does the EPA Brownfield Program provide?",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/30", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 8,
				Section: "OTHER CONSIDERATIONS", Text: "EPA’s Brownfield Program provides funding for the assessment, cleanup, and redevelopment " +
					"of brownfield sites, and leverages public and private investments to help in these efforts."}},
			want: generate.NotFoundText},
		{name: "the row named for the quantity asked", question: "gtib-480-100 600 vdc version vdco",
			category: "technical_value", chunks: gtib,
			want: "Name: Princeton Power Systems: GTIB-480-100 (600 VDC) 480V [CEC 2010]; Vdco (V): 489.4402778 [S1]."},
		{name: "a bare number beside a model named for its voltages is the voltage asked", question: "solectria pvi85kw on 277 - idcmax",
			category: "technical_value", chunks: solectria,
			want: generate.NotFoundText},
		{name: "the voltage variant asked by a bare number", question: "solectria pvi85kw on 480 - idcmax",
			category: "technical_value", chunks: solectria,
			want: "Name: Solectria Renewables: PVI85kW-480 480V [CEC 2013]; Idcmax (A): 285 [S2]."},
		{name: "a model number's last digits name the voltage asked", question: "outback power systems gvfx3524 (the 24v one) vdco",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1008, "Name: OutBack Power Systems: GVFX3524 120V [CEC 2014]; Vac (V): 120; Vdco (V): 24.041"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1010, "Name: OutBack Power Systems: GVFX3648 120V [CEC 2005]; Vac (V): 120; Vdco (V): 48.3")},
			want: "Name: OutBack Power Systems: GVFX3524 120V [CEC 2014]; Vdco (V): 24.041 [S1]."},
		{name: "a maker the sheet misspells", question: "mitsubishi pv-mf120ue4n model isco",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 184, "Model: Misubishi PV-MF120UE4N; Vintage: 2008 (E); Isco: 7.75")},
			want: "Model: Misubishi PV-MF120UE4N; Isco: 7.75 [S1]."},
		{name: "a sentence holding no word of the question is not its answer", question: "iea task 13 bifacial tracker simulation scenarios: dc power reported from which strings",
			category: "technical_value", chunks: []store.Chunk{{ID: "iea/1/2", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 2,
				Title: "IEA PVPS Task 13 bifacial tracker simulation", Section: "Scenarios",
				Text: "▪ Module: Trina Vertex 650 W (TSM-DEG21C.20)\n▪ Rows: 5 rows, each with 25 modules"}},
			want: generate.NotFoundText},
		{name: "what a thing is is said by the sentence that opens with it", question: "what is a brownfield per the epa construction guide",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/31", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 8,
				Title: "Federal Environmental Requirements for Construction", Section: "OTHER CONSIDERATIONS",
				Text: "EPA’s Brownfield Program provides funding for the assessment, cleanup, and redevelopment of brownfield sites. " +
					"Brownfields are abandoned, idled, or underused industrial and commercial facilities where expansion or redevelopment " +
					"is complicated by real or perceived environmental contamination."}},
			want: "Brownfields are abandoned, idled, or underused industrial and commercial facilities where expansion or redevelopment " +
				"is complicated by real or perceived environmental contamination [S1]."},
		{name: "what the asker does is not asked about", question: "if i flip the array type to fixed roof mount in v5, what inoct does it assume and for what standoff height",
			category: "technical_value", chunks: []store.Chunk{{ID: "nrel/1/30", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Page: 12,
				Title: "PVWatts Version 5 Manual", Section: "9 Thermal Model",
				Text: "The Fuentes paper discusses translation of the nominal operating cell temperature (NOCT) measured at standard conditions " +
					"(800 W/m2, 20° C ambient) to INOCT based on mounting configuration. For a roof mount system, air flow around the modules " +
					"more restricted than on an open rack, and the installed nominal operating temperature will be higher. The estimate is for " +
					"INOCT to be roughly 49 °C for 4 inch standoffs. For fixed open rack and tracking systems, the original PVWatts V1 " +
					"assumption of 45 °C INOCT is retained."}},
			want: "The estimate is for INOCT to be roughly 49 °C for 4 inch standoffs [S1]."},
		{name: "a word a document says otherwise", question: "where do we get msds's for the chemicals on site",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/15", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 4,
				Title: "Federal Environmental Requirements for Construction", Section: "HAZARDOUS CHEMICALS",
				Text: "EPCRA also requires that you maintain a material safety data sheet (MSDS) for all materials on your site that contain hazardous chemicals. " +
					"You can obtain an MSDS from the chemical supplier."}},
			want: "You can obtain an MSDS from the chemical supplier [S1]."},
		{name: "a bracketed number names the model's bin", question: "solfocus sf-1100s (345) isco", category: "technical_value",
			chunks: solfocus,
			want:   generate.NotFoundText},
		{name: "the bin asked is quoted", question: "solfocus sf-1100s (315) isco", category: "technical_value",
			chunks: solfocus,
			want:   "Model: SolFocus SF-1100S-CPV-28 (315); Isco: 8.165578747 [S2]."},
		{name: "a value the question sets aside is not the answer", question: "premium module eff range in the text (not the ~19% in table 3)",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "nrel/1/14", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 7,
					Section: "Table 3. Assumptions for different module types", Text: "Table 3. Assumptions for different module types\n" +
						"Module type | Efficiency | Cover type | Temperature coefficient\nStandard | ∼15 % | Glass | -0.47 %/°C\n" +
						"Premium | ∼19 % | Anti-reflective | -0.35 %/°C"},
				{ID: "nrel/1/13", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 6,
					Section: "3 Model Inputs", Text: "The “standard” option represents typical poly- or mono-crystalline silicon modules, with " +
						"efficiencies in the range of 14-17 %. The “premium” option is appropriate for modeling high efficiency (∼18-20 %) " +
						"monocrystalline silicon modules that have anti-reflective coatings and lower temperature coefficients."}},
			want: "The “premium” option is appropriate for modeling high efficiency (∼18-20 %) monocrystalline silicon modules that have " +
				"anti-reflective coatings and lower temperature coefficients [S2]."},
		{name: "a legend entry is read in words", question: "eg in the module db legend - which irradiance is that", category: "technical_value",
			chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Legend", 56, "Heading: Eg; Description: Global normal irradiance or Egni (W/m2)"),
				sheetRow("SANDIA-MODULE-DB", "Legend", 59, "Heading: Eb/Eg; Description: Beam to global irradiance ratio; default 0.9 per ASTM G 173")},
			want: "Heading: Eg; Description: Global normal irradiance or Egni (W/m2) [S1]."},
		{name: "two rows of a table joined by and", question: "day and month field ranges in the hourly input data", category: "technical_value",
			chunks: []store.Chunk{{ID: "nrel/1/17", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 8,
				Section: "Table 5. Hourly Input Data Fields", Text: "Table 5. Hourly Input Data Fields\nField | Units/Values\nYear | 1950-2050\n" +
					"Month | 1-12\nDay | 1-31\nHour | 0-23"}},
			want: "Month — Units/Values: 1-12 [S1]. Day — Units/Values: 1-31 [S1]."},
		{name: "a work the answer cites is quoted from the reference list", question: "which solar position algorithm does pvwatts use",
			category: "technical_value", chunks: []store.Chunk{
				manualPage(20, 8, "5 Sun Position", "At each hour, PVWatts calculates the sun position using the algorithm described in [6]."),
				manualPage(60, 18, "References", "[5] PVsyst SA. PVsyst Photovoltaic Software Version 6.1. 2014.\n"+
					"[6] Michalsky, J. (1988). The Astronomical Almanac's Algorithm for Approximate Solar Position\n(1950-2050). Solar Energy (40).\n"+
					"[7] Perez, R.; Ineichen, P. (1990). Modeling Daylight Availability. Solar Energy (44:5).")},
			want: "At each hour, PVWatts calculates the sun position using the algorithm described in [6] [S1]. " +
				"[6] Michalsky, J. (1988). [S2] The Astronomical Almanac's Algorithm for Approximate Solar Position (1950-2050). [S2] Solar Energy (40) [S2]."},
		{name: "the entry a sentence cites names the report asked for, across a page break", question: "the ~3% shading loss on 'unshaded' systems came from which nrel report? need the number",
			category: "technical_value", chunks: []store.Chunk{
				manualPage(40, 13, "11 System Losses",
					"Surveys of installed systems indicated that the average losses due to shading on systems described as “unshaded” was roughly 3 % [14]."),
				manualPage(61, 18, "References",
					"[13] Pingel, S. (2010). Potential Induced Degradation of Solar Cells and Panels.\n"+
						"[14] Deline, C.; Meydbray, J.; Donovan, M.; Forrest, J.; Photovoltaic Shading Testbed for Module-level Power Electronics."),
				manualPage(62, 19, "References",
					"NREL Technical Report NREL/TP-5200-54876, May 2012.\n[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays.")},
			want: "Surveys of installed systems indicated that the average losses due to shading on systems described as “unshaded” was roughly 3 % [14] [S1]. " +
				"[14] Deline, C.; Meydbray, J.; Donovan, M.; Forrest, J.; Photovoltaic Shading Testbed for Module-level Power Electronics [S2]. " +
				"NREL Technical Report NREL/TP-5200-54876, May 2012 [S3]."},
		{name: "a paper asked for is named by the sentence citing it, not the one that only says paper", question: "which paper is the fuentes thermal model from",
			category: "general", chunks: []store.Chunk{
				manualPage(30, 12, "9 Thermal Model",
					"PVWatts implements a thermal model to calculate the operating cell temperature using a heat transfer energy balance model developed by Fuentes [15]. "+
						"The Fuentes paper discusses translation of the nominal operating cell temperature (NOCT) to INOCT based on mounting configuration."),
				manualPage(62, 19, "References",
					"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. SAND85-0330.\n[16] California Energy Commission. (2013). CEC PV Calculator Version 4.0.")},
			want: "PVWatts implements a thermal model to calculate the operating cell temperature using a heat transfer energy balance model developed by Fuentes [15] [S1]. " +
				"[15] Fuentes, M. K. (1987). [S2] A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. [S2] SAND85-0330 [S2]."},
		{name: "an entry that gives no pages does not say them", question: "ref 15 fuentes 1987 thermal model report - page numbers",
			category: "general", chunks: []store.Chunk{
				manualPage(30, 12, "9 Thermal Model",
					"PVWatts implements a thermal model to calculate the operating cell temperature using a heat transfer energy balance model developed by Fuentes [15]."),
				manualPage(62, 19, "References",
					"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. SAND85-0330.\n[16] California Energy Commission. (2013). CEC PV Calculator Version 4.0.")},
			want: generate.NotFoundText},
		{name: "a reference entry counts nothing", question: "how many test arrays did fuentes use to validate the thermal model in SAND85-0330",
			category: "technical_value", chunks: []store.Chunk{
				manualPage(30, 12, "9 Thermal Model",
					"PVWatts implements a thermal model to calculate the operating cell temperature using a heat transfer energy balance model developed by Fuentes [15]."),
				manualPage(62, 19, "References",
					"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. SAND85-0330.\n[16] California Energy Commission. (2013). CEC PV Calculator Version 4.0.")},
			want: generate.NotFoundText},
		{name: "a reference named by its report number is answered by its entry", question: "fuentes 1987 thermal model report (SAND85-0330) - pdf link",
			category: "general", chunks: []store.Chunk{
				manualPage(62, 19, "References",
					"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays.\n"+
						"SAND85-0330. Albuquerque, NM: Sandia National Laboratories. Accessed September 3, 2013: http://prod.sandia.gov/1985/850330.pdf.\n"+
						"[16] California Energy Commission. (2013). “CEC PV Calculator Version 4.0.” Accessed September 3, 2013.")},
			want: "[15] Fuentes, M. K. (1987). [S1] A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. [S1] SAND85-0330. [S1] " +
				"Albuquerque, NM: Sandia National Laboratories. [S1] Accessed September 3, 2013: http://prod.sandia.gov/1985/850330.pdf [S1]."},
		{name: "a reference named by its first author and kind is answered by its entry", question: "deline shading testbed report - pdf link",
			category: "technical_value", chunks: []store.Chunk{
				manualPage(61, 18, "References",
					"[13] Pingel, S. (2010). Potential Induced Degradation of Solar Cells and Panels.\n"+
						"[14] Deline, C.; Meydbray, J.; Donovan, M.; Forrest, J.; Photovoltaic Shading Testbed for Module-level Power Electronics.\n"+
						"NREL Technical Report NREL/TP-5200-54876, May 2012. http://www.nrel.gov/docs/fy12osti/54876.pdf\n"+
						"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays.")},
			want: "[14] Deline, C.; Meydbray, J.; Donovan, M.; Forrest, J.; Photovoltaic Shading Testbed for Module-level Power Electronics. [S1] " +
				"NREL Technical Report NREL/TP-5200-54876, May 2012. http://www.nrel.gov/docs/fy12osti/54876.pdf [S1]."},
		{name: "a body that wrote a work is no author the question names", question: "nrel report - pdf link",
			category: "technical_value", chunks: []store.Chunk{
				manualPage(61, 18, "References",
					"[4] NREL. System Advisor Model (SAM). http://sam.nrel.gov. 2014.\n"+
						"[5] PVsyst SA. PVsyst Photovoltaic Software Version 6.1. http://www.pvsyst.com. 2014.")},
			want: generate.NotFoundText},
		{name: "a reference named by number is answered by its entry", question: "ref 19 in the pvwatts manual - which journal",
			category: "general", chunks: []store.Chunk{
				manualPage(10, 9, "8 Module Cover",
					"The correction uses a modified version of the physical model of transmittance through a module cover used in [19]."),
				manualPage(62, 19, "References",
					"[18] Menicucci, D. F. (1986). Photovoltaic Array Performance Simulation Models. Solar Cells (18).\n"+
						"[19] DeSoto, W.; Klein, S.; Beckman, W.; Improvement and Validation of a Model for Photovoltaic Array Performance. Solar Energy, vol.80, pp.78-88, 2006.")},
			want: "[19] DeSoto, W.; Klein, S.; Beckman, W.; Improvement and Validation of a Model for Photovoltaic Array Performance. [S2] Solar Energy, vol.80, pp.78-88, 2006 [S2]."},
		{name: "a work the reference list cites is answered by its entry, named by number or not", question: "which version of the cec pv calculator does the pvwatts v5 ref list cite",
			category: "general", chunks: []store.Chunk{
				manualPage(5, 4, "1 Introduction and History", "For reference, previous versions of the PVWatts calculations are described in [1]."),
				manualPage(62, 19, "References",
					"[15] Fuentes, M. K. (1987). A Simplified Thermal Model for Flat-Plate Photovoltaic Arrays. SAND85-0330.\n"+
						"[16] California Energy Commission. (2013). “CEC PV Calculator Version 4.0.” Accessed September 3, 2013.")},
			want: "[16] California Energy Commission. [S2] (2013). [S2] “CEC PV Calculator Version 4.0.” [S2] Accessed September 3, 2013 [S2]."},
		{name: "an entry that gives no report number does not answer for it", question: "report # of the tmy2 users manual pvwatts cites",
			category: "general", chunks: []store.Chunk{
				manualPage(61, 18, "References",
					"[1] Dobos, A.; PVWatts Version 1 Technical Reference. NREL/TP-6A20-60272. 2013.\n"+
						"[2] Marion, W.; Urban, K. (2012). User’s Manual for TMY2. Accessed September 3, 2013: http://rredc.nrel.gov/solar/pubs/tmy2/.")},
			want: generate.NotFoundText},
		{name: "the items of a list that hold what the sentence opening it lacks", question: "iea bifi 6-day short run option - which ones are the clear days",
			category: "general", chunks: []store.Chunk{ieaPage(2, 2, "Simulation Instructions",
				"▪ If the simulation model used takes too much time to run an entire year for each scenario, you have the option to just run the following 6 days:\n"+
					"▪ January 3, 2022 (clear day)\n▪ December 27, 2022 (cloudy day)\n▪ March 24, 2022 (clear day)\n▪ March 1, 2022 (cloudy day)\n"+
					"▪ June 15, 2022 (clear day)\n▪ June 24, 2022 (cloudy day)")},
			want: "▪ If the simulation model used takes too much time to run an entire year for each scenario, you have the option to just run the following 6 days [S1]. " +
				"▪ January 3, 2022 (clear day) [S1]. ▪ March 24, 2022 (clear day) [S1]. ▪ June 15, 2022 (clear day) [S1]."},
		{name: "examples asked are given after e.g.", question: "excavated soil w/ a hazardous substance - what examples does the guide give for the substance",
			category: "general", chunks: []store.Chunk{epaPage(5, 5, "HAZARDOUS SUBSTANCES",
				"If you excavate and spread soil that contains pollutants buried by a previous owner, you may be liable for disposal of a hazardous substance. "+
					"If the excavated soils contain a hazardous substance (e.g., pesticides or petroleum), you may be responsible under CERCLA as an operator, arranger, or transporter.")},
			want: "If the excavated soils contain a hazardous substance (e.g., pesticides or petroleum), you may be responsible under CERCLA as an operator, arranger, or transporter [S1]."},
		{name: "a word of the table's caption does not name its row", question: "ghi units in the hourly input data",
			category: "general", chunks: []store.Chunk{hourlyFields}, want: generate.NotFoundText},
		{name: "a word said for the caption and again for the row names the row", question: "hour field range in the hourly input data",
			category: "general", chunks: []store.Chunk{hourlyFields}, want: "Hour — Units/Values: 0-23 [S1]."},
		{name: "two values of different kinds joined by and: both are quoted", question: "torque tube diameter and max tracker rotation angle in the iea bifi sim",
			category: "technical_value", chunks: []store.Chunk{ieaPage(1, 2, "Simulation Instructions",
				"▪ Top of torque tube to bottom of module frame = 2 cm\n▪ Torque tube diameter = 15 cm. (round)\n▪ Maximum tracker rotation angle = 55 deg\n▪ Backtracking is enabled.")},
			want: "▪ Torque tube diameter = 15 cm [S1]. ▪ Maximum tracker rotation angle = 55 deg [S1]."},
		{name: "a definition asked is a gloss in brackets of all the question names", question: "friable asbestos definition",
			category: "definition", chunks: []store.Chunk{epaPage(5, 6, "ASBESTOS",
				"If friable asbestos is present at your construction site, you may be subject to requirements under CERCLA. "+
					"Asbestos also is a hazardous substance when it is in a form that can be reduced to dust by hand pressure (i.e., it is friable). "+
					"Asbestos waste is handled as universal waste (i.e., items such as batteries).")},
			want: "Asbestos also is a hazardous substance when it is in a form that can be reduced to dust by hand pressure (i.e., it is friable) [S1]."},
		{name: "a gloss of something else defines nothing asked", question: "hazardous waste definition",
			category: "definition", chunks: []store.Chunk{epaPage(4, 4, "SOLID AND HAZARDOUS WASTES",
				"These wastes are treated as universal waste (i.e., items such as batteries, thermostats, and obsolete pesticides). "+
					"Hazardous waste regulations also contain requirements for managing, treating, and disposing of hazardous wastes.")},
			want: "Hazardous waste regulations also contain requirements for managing, treating, and disposing of hazardous wastes [S1]."},
		{name: "another extent of the thing asked about is not the one asked", question: "trina vertex module width in the iea bifi sim",
			category: "technical_value", chunks: []store.Chunk{pitch}, want: generate.NotFoundText},
		{name: "a factor asked is not a length or a pitch", question: "bifaciality factor of the trina vertex in the iea bifi sim",
			category: "technical_value", chunks: []store.Chunk{pitch}, want: generate.NotFoundText},
		{name: "numbers each named by another quantity do not give the one asked", question: "trina vertex module efficiency in the iea bifi sim",
			category: "technical_value", chunks: []store.Chunk{pitch}, want: generate.NotFoundText},
		{name: "a number named by a quantity the question says answers, whatever the cue read first", question: "A2 (high albedo case) pitch between rows in the iea bifi study",
			category: "technical_value", chunks: []store.Chunk{ieaScenarios, ieaScenariosNext},
			want: "* A GCR of 0.4 for the Trina Vertex module (length = 2.384m) corresponds to a row-to-row spacing or pitch of 5.96m [S2]."},
		{name: "the sentence for the asked ground coverage ratio", question: "iea bifi pitch at gcr 0.25",
			category: "technical_value", chunks: []store.Chunk{pitch}, want: "For a GCR of 0.25 the pitch is 9.536m [S1]."},
		{name: "a yes or no question is answered by the sentence that says which", question: "is the total system loss just the sum of the individual losses",
			category: "technical_value", chunks: []store.Chunk{pvwattsLosses},
			want: "It is important to note that the total loss is not the sum of the individual losses [S1]."},
		{name: "the columns of the asked cases, not one that adds a case", question: "cheyenne wy fixed and 1-axis increase over v1",
			category: "technical_value", chunks: []store.Chunk{table8}, want: "WY Cheyenne — Fixed: 8.8 %; 1 Axis: 2.9 % [S1]."},
		{name: "a row whose label shares the state but not the city asked", question: "denver co fixed in table 8",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: generate.NotFoundText},
		{name: "a word of the question that clips a word of the row's label names it", question: "salt lake cty ut fixed+premium and 2-axis in table 8",
			category: "technical_value", chunks: []store.Chunk{table8South}, want: "UT Salt Lake City — Fixed: 9.4 %; Fixed+Premium: 10.9 %; 2 Axis: 7.8 % [S1]."},
		{name: "a word beside a column's name says which column, not which row", question: "table 8 cheyenne single axis",
			category: "technical_value", chunks: []store.Chunk{table8}, want: "WY Cheyenne — 1 Axis: 2.9 % [S1]."},
		{name: "a row whose label abbreviates the state asked", question: "cheyenne wyoming 2-axis in table 8",
			category: "technical_value", chunks: []store.Chunk{table8}, want: "WY Cheyenne — 2 Axis: 7.2 % [S1]."},
		{name: "a row whose city is asked in another state", question: "table 8 portland oregon fixed",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: generate.NotFoundText},
		{name: "a row whose city is asked in its state", question: "table 8 portland maine fixed",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: "ME Portland — Fixed: 10.1 % [S1]."},
		{name: "a state set aside does not name the place asked", question: "table 8 portland me (not the oregon one) fixed",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: "ME Portland — Fixed: 10.1 % [S1]."},
		{name: "the row of the state set aside is not the answer", question: "table 8 portland me (not the oregon one) fixed",
			category: "technical_value", chunks: []store.Chunk{table8West, {ID: "nrel/1/63", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641",
				Title: "PVWatts Version 5 Manual", Page: 20, Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
				Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nOR Portland | 11.6 % | 12.6 % | 5.6 % | 6.6 % | 9.9 %"}},
			want: "ME Portland — Fixed: 10.1 % [S1]."},
		{name: "a place asked in its state and another", question: "table 8 portland maine or oregon fixed",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: "ME Portland — Fixed: 10.1 % [S1]."},
		{name: "a place named by two rows' labels is neither row", question: "table 8 portland co fixed",
			category: "technical_value", chunks: []store.Chunk{table8West}, want: generate.NotFoundText},
		{name: "no column for the combination of cases asked", question: "table 8 honolulu 2-axis premium",
			category: "technical_value", chunks: []store.Chunk{table8}, want: generate.NotFoundText},
		{name: "a column whose legend names the case asked, beside a column of its sibling", question: "cheyenne fixed tilt standard module, % over v1",
			category: "technical_value", chunks: []store.Chunk{table8Legend, table8}, want: "WY Cheyenne — Fixed: 8.8 % [S2]."},
		{name: "a column whose legend names a sibling of the case asked", question: "cheyenne fixed tilt thin film module, % over v1",
			category: "technical_value", chunks: []store.Chunk{table8Legend, table8}, want: generate.NotFoundText},
		{name: "two places of one table in two passages, one named with its state", question: "2-axis numbers for cheyenne wy and boulder in the v1 comparison",
			category: "technical_value", chunks: []store.Chunk{table8, table8West}, want: "WY Cheyenne — 2 Axis: 7.2 % [S1]. CO Boulder — 2 Axis: 7.3 % [S2]."},
		{name: "a row computed for another setting than the one asked", question: "table 8 cheyenne 1-axis at gcr 0.3, % over v1",
			category: "technical_value", chunks: []store.Chunk{table8}, want: generate.NotFoundText},
		{name: "a row of another maker is not the model asked about", question: "kaco blueplanet 5.0 tl1 277v paco",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "cec/1/700", DocID: "cec", Sheet: "CEC_Inverters", Row: 700, Text: "Name: KACO new energy: blueplanet 5.0 TL1 240V [CEC 2019]; Vac (V): 240; Paco (W): 5000"},
				{ID: "cec/1/701", DocID: "cec", Sheet: "CEC_Inverters", Row: 701, Text: "Name: KACO new energy: blueplanet 5.0 TL1 208V [CEC 2019]; Vac (V): 208; Paco (W): 4600"},
				{ID: "cec/1/702", DocID: "cec", Sheet: "CEC_Inverters", Row: 702, Text: "Name: KACO new energy: blueplanet 3.0 TL1 240V [CEC 2019]; Vac (V): 240; Paco (W): 3000"},
				{ID: "cec/1/546", DocID: "cec", Sheet: "CEC_Inverters", Row: 546, Text: "Name: Fronius USA, LLC: IG Plus 5.0-1 uni(277) 277V [CEC 2010]; Vac (V): 277; Paco (W): 5000"},
			},
			want: generate.NotFoundText},
		{name: "a row holding the model number asked is not dropped for a word other rows share", question: "enerbridge emi_301rd micro - ac rating",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "cec/1/878", DocID: "cec", Sheet: "CEC_Inverters", Row: 878, Text: "Name: Ming Shen Energy Technology Co.: EnerBridge Emi_301RD 240V [CEC 2015]; Vac (V): 240; Paco (W): 289"},
				{ID: "cec/1/4", DocID: "cec", Sheet: "CEC_Inverters", Row: 4, Text: "Name: ABB: MICRO-0.25-I-OUTD-US-208 208V [CEC 2014]; Vac (V): 208; Paco (W): 250"},
				{ID: "cec/1/5", DocID: "cec", Sheet: "CEC_Inverters", Row: 5, Text: "Name: ABB: MICRO-0.25-I-OUTD-US-240 240V [CEC 2014]; Vac (V): 240; Paco (W): 250"},
				{ID: "cec/1/1067", DocID: "cec", Sheet: "CEC_Inverters", Row: 1067, Text: "Name: Power-One: MICRO-0.25-I-OUTD-US-208 208V [CEC 2012]; Vac (V): 208; Paco (W): 250"},
			},
			want: "Name: Ming Shen Energy Technology Co.: EnerBridge Emi_301RD 240V [CEC 2015]; Paco (W): 289 [S1]."},
		{name: "the row named by the model number, not one holding it inside another", question: "bp380 isco in the sandia module db",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "smd/1/4", DocID: "smd", DocNumber: "SANDIA-MODULE-DB", Sheet: "Data", Row: 4, Text: "Model: 32-BP380-Array; Vintage: 2004; Material: mc-Si; Isco: 9.869; Vmpo: 275.9"},
				{ID: "smd/1/73", DocID: "smd", DocNumber: "SANDIA-MODULE-DB", Sheet: "Data", Row: 73, Text: "Model: BP Solar BP380; Vintage: 2004; Material: mc-Si; Isco: 4.822; Vmpo: 17.34"},
			},
			want: "Model: BP Solar BP380; Isco: 4.822 [S2]."},
		{name: "a voltage the question states is the row's voltage column", question: "solectria pvi 2500, the 208 v one - night tare per the sandia list",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "sandia/1/1334", DocID: "sandia", DocNumber: "SANDIA-INVERTERS", Sheet: "Parameters", Row: 1334, Text: "Manufacturer: Solectria; ID: PVI 2500; Source: CEC; ac Voltage: 240; Vintage: 2005; Paco: 2500; Pnt: 0.2"},
				{ID: "sandia/1/1336", DocID: "sandia", DocNumber: "SANDIA-INVERTERS", Sheet: "Parameters", Row: 1336, Text: "Manufacturer: Solectria; ID: PVI 2500; Source: CEC; ac Voltage: 208; Vintage: 2005; Paco: 2500; Pnt: 0.1"},
			},
			want: "Manufacturer: Solectria; ID: PVI 2500; Pnt: 0.1 [S2]."},
		{name: "a voltage the question states is the last part of the model number", question: "photowatt pw6-230-24 (the 24v one not the 12v) - module area",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 224, "Model: Photowatt PW6-230-24; Vintage: 2003 (E); Module Area [m^2]: 1.866; Voco: 43.5"),
				sheetRow("SANDIA-MODULE-DB", "Data", 225, "Model: Photowatt PW6-230-12V; Vintage: 2003 (E); Module Area [m^2]: 1.866; Voco: 21.7")},
			want: "Model: Photowatt PW6-230-24; Module Area [m^2]: 1.866 [S1]."},
		{name: "words in brackets no passage says remark on the model", question: "xantrex sw5548 gti (the 120v grid tie unit) - night tare + mppt low",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "cec/1/1895", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1895, Text: "Name: Xantrex Technologies, Inc.: SW5548+GTI 120V [CEC 2005]; Vac (V): 120; Paco (W): 4627; Pnt (W): 34.1; Mppt_low (V): 44; Mppt_high (V): 48"},
				{ID: "cec/1/1894", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1894, Text: "Name: Xantrex Technologies, Inc.: SW4048+GTI 120V [CEC 2005]; Vac (V): 120; Paco (W): 3211.3; Pnt (W): 30; Mppt_low (V): 44; Mppt_high (V): 48"},
			},
			want: "Name: Xantrex Technologies, Inc.: SW5548+GTI 120V [CEC 2005]; Pnt (W): 34.1; Mppt_low (V): 44 [S1]."},
		{name: "a sentence that names no case is not the case its passage tells apart", question: "iea bifi pitch for 2-up at gcr 0.25",
			category: "technical_value", chunks: []store.Chunk{ieaPage(4, 2, "Scenarios",
				"6 | A5 | 0.4 0.2 1.5 m 1-Up portrait 10%\n"+
					"A GCR of 0.4 for the Trina Vertex module corresponds to a row-to-row spacing or pitch of 5.96m. For a GCR of 0.25 the pitch is 9.536m. "+
					"For a 2-Up portrait system with a GCR of 0.4 the pitch is 2*5.96m = 11.92m.")},
			want: generate.NotFoundText},
		{name: "rows of a table whose header is in another chunk are quoted whole", question: "What is the ground coverage ratio of scenario A1 in the IEA study?",
			category: "technical_value", chunks: []store.Chunk{ieaPage(3, 1, "Scenarios",
				"4 | A3 | 0.4 0.2 3.5 m 1-Up portrait Horizontal\n2 | A1 | 0.25 0.2 1.5 m 1-Up portrait Horizontal\n3 | A2 | 0.4 0.5 1.5 m 1-Up portrait Horizontal")},
			want: "2 | A1 | 0.25 0.2 1.5 m 1-Up portrait Horizontal [S1]."},
		{name: "a row that lost its cell marks stands under the header's two lines", question: "hub height for scenario A3",
			category: "technical_value", chunks: []store.Chunk{ieaScenarios, ieaScenariosNext},
			want: "Scenario Scenario GCR* Albedo Hub | Configuration Ground | number | name | Height | surface: 4 | A3 | 0.4 0.2 3.5 m 1-Up portrait Horizontal [S1]."},
		{name: "a row only the header matches is no row the question names", question: "iea bifi albedo for the snow scenario",
			category: "technical_value", chunks: []store.Chunk{ieaScenarios, ieaScenariosNext}, want: generate.NotFoundText},
		{name: "a lettered name is found as written or not at all", question: "hub height for the ref-c scenario",
			category: "technical_value", chunks: []store.Chunk{ieaScenarios, ieaScenariosNext}, want: generate.NotFoundText},
		{name: "every row with the asked quantity", question: "which iea bifi scenarios use the 3.5 m hub height",
			category: "technical_value", chunks: []store.Chunk{ieaScenarios, ieaScenariosNext},
			want: "Scenario Scenario GCR* Albedo Hub | Configuration Ground | number | name | Height | surface: 4 | A3 | 0.4 0.2 3.5 m 1-Up portrait Horizontal [S1]. " +
				"7 | Ref-B 0.4 | 0.2 3.5 m 2-Up portrait Horizontal [S2]."},
		{name: "every row a bare number picks out, in the table's order", question: "which scenario names have a gcr of 0.4, list them all",
			category: "technical_value", chunks: []store.Chunk{scenarioTable, scenarioNotes}, want: "1 — Scenario name: Ref-A; GCR*: 0.4 [S1]. 3 — Scenario name: A2; GCR*: 0.4 [S1]. " +
				"5 — Scenario name: A4; GCR*: 0.4 [S2]. 7 — Scenario name: Ref-B; GCR*: 0.4 [S2]."},
		{name: "every row with the asked percentage", question: "tbl 6 - which loss rows have a 0% default",
			category: "technical_value", chunks: []store.Chunk{pvwattsLosses}, want: "Snow — Default value: 0% [S1]. Age — Default value: 0% [S1]."},
		{name: "a bare number picks one row when the question asks for one", question: "iea bifi scenario at gcr 0.4 with a 0.5 albedo",
			category: "technical_value", chunks: []store.Chunk{scenarioTable, scenarioNotes}, want: "3 — Scenario name: A2; GCR*: 0.4; Albedo: 0.5 [S1]."},
		{name: "a row whose header names another extent", question: "iea bifi pitch for 2-up at gcr 0.25",
			category: "technical_value", chunks: []store.Chunk{ieaScenariosNext, ieaScenarios}, want: generate.NotFoundText},
		{name: "a row whose column the question's label names holds another number", question: "iea bifi albedo for the 2-up scenario at gcr 0.25",
			category: "technical_value", chunks: []store.Chunk{withRefB}, want: generate.NotFoundText},
		{name: "the row whose column the question's label names holds its number", question: "iea bifi albedo for the scenario at gcr 0.25",
			category: "technical_value", chunks: []store.Chunk{withRefB}, want: "2 — Scenario name: A1; GCR*: 0.25; Albedo: 0.2 [S1]."},
		{name: "a sentence listing what the question sets aside among others lists what it asks", question: "green building program elements besides energy use",
			category: "general", chunks: []store.Chunk{epaPage(30, 7, "Green Building",
				"Green or sustainable building is the practice of creating healthier and more resource-efficient methods for construction. "+
					"The elements of the green building program address energy use, water use, construction materials, waste reduction, and the indoor environment. "+
					"For more information on EPA’s green building program, go to www.epa.gov/greenbuilding/.")},
			want: "The elements of the green building program address energy use, water use, construction materials, waste reduction, and the indoor environment [S1]."},
		{name: "a list that holds what the question sets aside answers what else", question: "haz waste examples on a jobsite besides solvents + paint",
			category: "general", chunks: []store.Chunk{epaPage(31, 3, "SOLID AND HAZARDOUS WASTES",
				"Examples of materials at construction sites that may be classified as hazardous wastes include: spent cleaners (e.g., organic solvents), "+
					"paints (including lead-based paint), used oil, paint thinners. "+
					"The requirements for generators of hazardous wastes are based on the amount of hazardous wastes generated. "+
					"The RCRA regulations specify the time hazardous wastes can be stored at a site.")},
			want: "Examples of materials at construction sites that may be classified as hazardous wastes include: spent cleaners (e.g., organic solvents), " +
				"paints (including lead-based paint), used oil, paint thinners [S1]."},
		{name: "one side of a versus question is not its answer", question: "blueplanet 40.0 tl3 idcmax - M1 vs M3",
			category: "technical_value", chunks: []store.Chunk{blueplanetM1}, want: generate.NotFoundText},
		{name: "both sides of a versus question", question: "blueplanet 40.0 tl3 idcmax - M1 vs M3",
			category: "technical_value", chunks: []store.Chunk{blueplanetM1, blueplanetM3},
			want: "Name: KACO: blueplanet 40.0 TL3 M1 480V [CEC 2013]; Idcmax (A): 108 [S1]. Name: KACO: blueplanet 40.0 TL3 M3 480V [CEC 2013]; Idcmax (A): 36 [S2]."},
		{name: "the sides of a versus question are the model's two voltage variants", question: "topper sun ts-s3000 vdcmax 208v vs 240v",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1844, "Name: Topper Sun Energy Technology: TS-S3000 (208V) 208V [CEC 2010]; Vac (V): 208; Vdcmax (V): 450"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 788, "Manufacturer: Topper Sun Energy Technology; ID: TS-S3000 (208V); ac Voltage: 208; Vdcmax: 450"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1845, "Name: Topper Sun Energy Technology: TS-S3000 (240V) 240V [CEC 2010]; Vac (V): 240; Vdcmax (V): 500")},
			want: "Name: Topper Sun Energy Technology: TS-S3000 (208V) 208V [CEC 2010]; Vdcmax (V): 450 [S1]. " +
				"Name: Topper Sun Energy Technology: TS-S3000 (240V) 240V [CEC 2010]; Vdcmax (V): 500 [S3]."},
		{name: "a model named for the other side's voltage is no row of that voltage", question: "samil solarpond 240hf-us paco, 208v row vs 240v row",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1249, "Name: Samil Power: SolarPond 240HF-US (208V) 208V [CEC 2013]; Vac (V): 208; Paco (W): 235; Pdco (W): 245.5628649"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1250, "Name: Samil Power: SolarPond 240HF-US (240V) 240V [CEC 2013]; Vac (V): 240; Paco (W): 237.74; Pdco (W): 248.462583")},
			want: "Name: Samil Power: SolarPond 240HF-US (208V) 208V [CEC 2013]; Paco (W): 235 [S1]. " +
				"Name: Samil Power: SolarPond 240HF-US (240V) 240V [CEC 2013]; Paco (W): 237.74 [S2]."},
		{name: "a side named by a common voltage is the other half however rarer the first", question: "conext xc630-na mppt high 350v vs 300v",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1343, "Name: Schneider Electric Solar Inverters USA: Conext XC630-NA 350V [CEC 2014]; Vac (V): 350; Mppt_high (V): 850"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1344, "Name: Schneider Electric Solar Inverters USA: Conext XC630-NA 300V [CEC 2013]; Vac (V): 300; Mppt_high (V): 800"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1341, "Name: Schneider Electric Solar Inverters USA: Conext XC540-NA 300V [CEC 2014]; Vac (V): 300; Mppt_high (V): 800"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1346, "Name: Schneider Electric Solar Inverters USA: Conext XC680-NA 300V [CEC 2013]; Vac (V): 300; Mppt_high (V): 800"),
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 1040, "Name: Power Electronics: FS1050CU 300V [CEC 2014]; Vac (V): 300; Mppt_high (V): 820")},
			want: "Name: Schneider Electric Solar Inverters USA: Conext XC630-NA 350V [CEC 2014]; Mppt_high (V): 850 [S1]. " +
				"Name: Schneider Electric Solar Inverters USA: Conext XC630-NA 300V [CEC 2013]; Mppt_high (V): 800 [S2]."},
		{name: "an equation's number asked is said by the sentence that describes the equation", question: "pvwatts total poa = beam + sky diffuse + ground reflected, which eqn number",
			category: "technical_value", chunks: []store.Chunk{manualPage(21, 9, "7 Plane-of-Array Irradiance",
				"The plane-of-array (POA) beam, sky diffuse, and ground-reflected diffuse irradiance components are calculated using the Perez 1990 algorithm [7]. "+
					"The total POA incident on the module cover is the sum of the three components (Eqn. 2).")},
			want: "The total POA incident on the module cover is the sum of the three components (Eqn. 2) [S1]."},
		{name: "an equation's number is no answer from a formula read as a table row", question: "vf note ground side - which eq number expands vf x as 1/2 - 1/2 cos cos + sin sin",
			category: "technical_value", chunks: []store.Chunk{{ID: "vf/1/4", DocID: "vf", DocNumber: "PVLIB-NOTE-VF", Page: 3,
				Section: "Determining the average view factor from a module to the visible sky", Text: "1\nf | du\n= | x 1 2 1/2 | (8)\nf x 0 u"}},
			want: generate.NotFoundText},
		{name: "an equation's number is no answer from a sentence that does not describe it", question: "vf note eq number for the closed form avg vf to the ground",
			category: "technical_value", chunks: []store.Chunk{{ID: "vf/1/3", DocID: "vf", DocNumber: "PVLIB-NOTE-VF", Page: 3,
				Section: "Determining the average view factor from a module to the visible sky", Text: "Noting that the derivative is known, the integral in Eq. 7 is exact:"}},
			want: generate.NotFoundText},
		{name: "the sentence that names what is asked goes before a shorter one that only follows it", question: "nmfs website listed in the endangered species section",
			category: "general", chunks: []store.Chunk{epaPage(40, 7, "ENDANGERED SPECIES",
				"If your activities could impact these species or habitats, you may be required to develop mitigation strategies to minimize the impacts. "+
					"Prior to construction, you should consult with the local office of the U.S. Fish and Wildlife Service (http://endangered.fws.gov), "+
					"the National Marine Fisheries Service (www.nmfs.noaa.gov), as well as your local conservation agency, to determine if your project "+
					"could harm endangered or threatened species, and if so, what to do about it. "+
					"For information on the Endangered Species Act, go to http://endangered.fws.gov /policies/index.html.")},
			want: "Prior to construction, you should consult with the local office of the U.S. Fish and Wildlife Service (http://endangered.fws.gov), " +
				"the National Marine Fisheries Service (www.nmfs.noaa.gov), as well as your local conservation agency, to determine if your project " +
				"could harm endangered or threatened species, and if so, what to do about it [S1]."},
		{name: "a question of the document lists in its aside what else there is besides what the question sets aside", question: "c&d waste examples in the epa guide besides wood + sheet rock",
			category: "general", chunks: []store.Chunk{epaPage(41, 4, "SOLID AND HAZARDOUS WASTES",
				"■ Do you generate construction/demolition (C&D) wastes such as wood, roof material, insulation, plaster, or sheet rock at your site? "+
					"Most C&D wastes end up in either a municipal solid waste landfill or a landfill devoted exclusively to C&D wastes. "+
					"Municipal solid waste landfills are subject to EPA’s landfill criteria, while state and local governments regulate most of the C&D landfills. "+
					"Also, check with your local and state agencies for information on C&D landfills.")},
			want: "■ Do you generate construction/demolition (C&D) wastes such as wood, roof material, insulation, plaster, or sheet rock at your site? [S1]"},
		{name: "a question of the document defines by its gloss what the question asks defined", question: "how does the epa construction guide define haz waste",
			category: "definition", chunks: []store.Chunk{epaPage(45, 2, "SOLID AND HAZARDOUS WASTES",
				"■ Do you generate or handle hazardous wastes (i.e., waste that poses potential harm to human health and the environment)? "+
					"The RCRA regulations specify the time hazardous wastes can be stored at a site.")},
			want: "■ Do you generate or handle hazardous wastes (i.e., waste that poses potential harm to human health and the environment)? [S1]"},
		{name: "a question of the document answers by its aside, and by what it says follows for the case", question: "old fluorescent ballasts w/ pcbs - where in the ballast are the pcbs",
			category: "general", chunks: []store.Chunk{epaPage(42, 5, "PCB WASTES",
				"■ Do you generate polychorinated biphenol (PCB) wastes (e.g., fluorescent light ballasts containing PCBs in the potting material, "+
					"old transformers that contain PCBs) during your construction/demolition activity? If yes, you may have to meet requirements for "+
					"storage and disposal of PCB waste under the Toxics Substances Control Act (TSCA). For more information, go to www.epa.gov/opptintr/pcb/.")},
			want: "■ Do you generate polychorinated biphenol (PCB) wastes (e.g., fluorescent light ballasts containing PCBs in the potting material, " +
				"old transformers that contain PCBs) during your construction/demolition activity? [S1] If yes, you may have to meet requirements " +
				"for storage and disposal of PCB waste under the Toxics Substances Control Act (TSCA) [S1]."},
		{name: "an example of the case a question of the document describes does not answer for the statement after it", question: "lbp waste from a house remodel - how does epa classify it",
			category: "general", chunks: []store.Chunk{epaPage(43, 3, "SOLID AND HAZARDOUS WASTES",
				"■ Do you generate lead-based paint (LBP) wastes during the remodeling or rehabilitation of a residential building (e.g., a house or college dormitory)? "+
					"EPA considers this a household waste, which can be disposed of as municipal waste and managed according to state and local requirements.")},
			want: "EPA considers this a household waste, which can be disposed of as municipal waste and managed according to state and local requirements [S1]."},
		{name: "the word for the document the rows are in weighs as little as any word of where to look", question: "solar liberty slx 6500 paco @208 vs @240, cec list",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "cec/1/1566", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1566, Text: "Name: Solar Liberty: SLX 6500 (208V) 208V [CEC 2012]; Vac (V): 208; Paco (W): 6430; Pdco (W): 6794.0"},
				{ID: "cec/1/1567", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1567, Text: "Name: Solar Liberty: SLX 6500 (240V) 240V [CEC 2012]; Vac (V): 240; Paco (W): 6450; Pdco (W): 6773.1"},
				{ID: "cec/1/1560", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1560, Text: "Name: Solar Liberty: SLX 4000 (208V) 208V [CEC 2012]; Vac (V): 208; Paco (W): 3510; Pdco (W): 3684.8"},
				{ID: "cec/1/1568", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1568, Text: "Name: Solar Liberty: SLX 6500 (277V) 277V [CEC 2012]; Vac (V): 277; Paco (W): 6450; Pdco (W): 6742.7"},
				{ID: "cec/1/1561", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1561, Text: "Name: Solar Liberty: SLX 4000 (240V) 240V [CEC 2012]; Vac (V): 240; Paco (W): 4020; Pdco (W): 4215.8"},
			},
			want: "Name: Solar Liberty: SLX 6500 (208V) 208V [CEC 2012]; Paco (W): 6430 [S1]. Name: Solar Liberty: SLX 6500 (240V) 240V [CEC 2012]; Paco (W): 6450 [S2]."},
		{name: "a sentence that adds to what the question sets aside says what else", question: "env compliance assistance clearinghouse - besides links to compliance materials what else can users do on it",
			category: "general", chunks: []store.Chunk{epaPage(44, 8, "COMPLIANCE RESOURCES",
				"■ The National Environmental Compliance Assistance Clearinghouse\n"+
					"This Clearinghouse not only provides links to comprehensive compliance assistance materials, but also contains features "+
					"that allow users to interact with EPA and each other. The Clearinghouse can be accessed at www.epa.gov/clearinghouse.")},
			want: "This Clearinghouse not only provides links to comprehensive compliance assistance materials, but also contains features " +
				"that allow users to interact with EPA and each other [S1]."},
		{name: "a list's opening sentence says what its items are", question: "cloudy day in june for the short run option",
			category: "general", chunks: []store.Chunk{{ID: "iea/1/5", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 2, Index: 5, Section: "Scenarios",
				Text: "▪ Maximum tracker rotation angle = 55 deg\n▪ If the simulation model used takes too much time to run an entire year for each " +
					"scenario, you have the option to just run the following 6 days:\n▪ January 3, 2022 (clear day)\n▪ December 27, 2022 (cloudy day)\n" +
					"▪ June 15, 2022 (clear day)\n▪ June 21, 2022 (cloudy day)\nA cloudy day in June was chosen for its diffuse light."}},
			want: "▪ June 21, 2022 (cloudy day) [S1]."},
		{name: "whom to ask is the next sentence's", question: "who do we ask about permitting the used oil space heater in the site shop",
			category: "general", chunks: []store.Chunk{epaPage(20, 5, "Air",
				"■ Do you have a shop/garage space heater fueled with used oil? If so, you may be subject to air permitting requirements "+
					"depending on the rating of the heater. Contact your local air quality agency for additional information.")},
			want: "■ Do you have a shop/garage space heater fueled with used oil? [S1] If so, you may be subject to air permitting requirements " +
				"depending on the rating of the heater [S1]. Contact your local air quality agency for additional information [S1]."},
		{name: "a bound is not a default", question: "lid default for premium modules in pvwatts",
			category: "technical_value", chunks: []store.Chunk{{ID: "nrel/1/40", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual",
				Page: 13, Section: "Light-induced degradation", Text: "Some premium modules may experience lower LID losses due to their materials and " +
					"construction, while others may experience LID losses greater than 1.5 %."}},
			want: generate.NotFoundText},
		{name: "a change of a quantity is not its level", question: "What are the default system losses in PVWatts?",
			category: "technical_value", chunks: []store.Chunk{lossChange, systemLoss},
			want: "Total system losses are specified as a percentage, with a default value of 14 % [S2]."},
		{name: "a change answers a question about one", question: "how much does the default pvwatts v5 system loss increase performance over v1",
			category: "technical_value", chunks: []store.Chunk{lossChange},
			want: "This suggests that the default PVWatts V5 system loss represents roughly a 7 % increase in " +
				"system performance relative to PVWatts V1 due solely to updated input assumptions [S1]."},
		{name: "what the question asks to define is glossed where the sentence names it", question: "sec 404 - how does the epa guide define dredged material",
			category: "definition", chunks: []store.Chunk{epaPage(4, 2, "DREDGED AND FILL MATERIAL/WATERS OF THE UNITED STATES, INCLUDING WETLANDS",
				"■ Do you discharge dredged material (i.e., material that is dredged or excavated from waters of the United States) to waters of the United States? "+
					"If so, you need a permit under Section 404 of the CWA. Section 404 permits are issued by either the U.S. Army Corps of Engineers or, "+
					"for certain waters, a state with an approved Section 404 permitting program.")},
			want: "■ Do you discharge dredged material (i.e., material that is dredged or excavated from waters of the United States) to waters of the United States? [S1]"},
		{name: "a list of what else there is goes on in the next sentence", question: "Besides TMY2 and TMY3 files, which other weather file formats can PVWatts Version 5 read?",
			category: "general", chunks: []store.Chunk{manualPage(14, 7, "4 Solar Resource",
				"PVWatts can read solar resource data files from different sources and in different formats, including the National Solar Radiation "+
					"Database (NSRDB) 1961-1990 data (TMY2) and 1991-2010 update (TMY3), and EnergyPlus weather files. It also reads files in the SAM CSV "+
					"format [4], which is a generic format suitable for custom solar resource data sets. The PVWatts web application interacts with three "+
					"online databases to access solar resource data.")},
			want: "PVWatts can read solar resource data files from different sources and in different formats, including the National Solar Radiation " +
				"Database (NSRDB) 1961-1990 data (TMY2) and 1991-2010 update (TMY3), and EnergyPlus weather files [S1]. It also reads files in the SAM CSV " +
				"format [4], which is a generic format suitable for custom solar resource data sets [S1]."},
		{name: "a count of what the question says there is none of", question: "inoct for flush roof mount with no standoff",
			category: "technical_value", chunks: []store.Chunk{thermal}, want: generate.NotFoundText},
		{name: "the sibling qualifier is not an answer", question: "What is the minimum trench depth for AC cables?",
			category: "technical_value", chunks: []store.Chunk{dcOnly}, want: generate.NotFoundText},
		{name: "the asked qualifier is found beside its sibling", question: "min trench depth for ac cables",
			category: "technical_value", chunks: []store.Chunk{dcOnly, trenchSpec},
			want: "AC cables shall be laid at a minimum depth of 1000 mm below finished ground level [S2]."},
		{name: "a number that describes the system is not required", question: "What is the default soiling loss in PVWatts for the 4 kW system?",
			category: "technical_value", chunks: []store.Chunk{sizing, pvwattsLosses}, want: "Soiling — Default value: 2% [S2]."},
		{name: "a value of another kind does not answer", question: "What is the trench depth for DC cables?",
			category: "technical_value", chunks: []store.Chunk{voltage}, want: generate.NotFoundText},
		{name: "a cell the unit column types answers without a number", question: "tilt default in pvwatts",
			category: "technical_value", chunks: []store.Chunk{inputs},
			want: "Tilt angle (degrees) — Default Value: Site Latitude [S1]."},
		{name: "the case a sentence opens with frames the sentence after it", question: "inoct for roof mount",
			category: "technical_value", chunks: []store.Chunk{thermal},
			want: "The estimate is for INOCT to be roughly 49 °C for 4 inch standoffs [S1]."},
		{name: "a row quoted for its name alone states no value", question: "greenvolts gv-scp001 tamb max sandia inv list",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/270", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS",
				Sheet: "Parameters", Row: 271, Text: "Manufacturer: GreenVolts; ID: GV-SCP001; Source: CEC; ac Voltage: 208; Vintage: 2011; " +
					"Paco: 16000; Pdco: 16602.15576; Vdco: 812.497619; Pso: 99.3405085; Co: -9.740242596E-07; C1: 2.029274984E-05; " +
					"C2: 0.0004665673529; C3: -0.0004316049694; Pnt: 85; Unique ID#: 666"}},
			want: generate.NotFoundText},
		{name: "the parts of a model number apart in a row do not name it", question: "aeg protect pv.500 weight",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia-inverters/1/453", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS",
				Sheet: "Parameters", Row: 454, Text: "Manufacturer: PV Powered; ID: PVP2900; Source: CEC; ac Voltage: 208; Vintage: 2005; " +
					"Paco: 2900; Pdco: 3062.74237549426; Vdco: 255.378; Pso: 48.663651912264; Co: -1.3606593561964E-05; " +
					"C1: 9.99465895373736E-05; C2: 0.00345207643828709; C3: 0.000145811808913527; Pnt: 3; Vdcmax: 500; Idcmax: 15; " +
					"MPPT-Low: 205; MPPT-Hi: 500; Tamb Low: -20; Tamb Max: 40; Weight: 89; Unique ID#: 180"}},
			want: generate.NotFoundText},
		{name: "a term spelled out is found as the acronym a sentence writes", question: "what ground coverage ratio did older pvwatts versions effectively assume",
			category: "technical_value", chunks: []store.Chunk{{ID: "nrel/1/16", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Page: 7,
				Section: "3 Model Inputs", Text: "The ground coverage ratio (GCR) only applies to one axis tracking systems. A GCR of 0.5 means " +
					"that half of the total area is covered by modules. Typical one axis tracker systems have GCRs in the range of 0.3 to 0.6. " +
					"Previous versions of PVWatts effectively assumed a GCR of zero, which is impossible to achieve in practice."}},
			want: "Previous versions of PVWatts effectively assumed a GCR of zero, which is impossible to achieve in practice [S1]."},
		{name: "a choice between comparatives is not answered by a sentence that compares nothing", question: "do large quantity generators get more or fewer rcra requirements than small quantity generators",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/3", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 3, Section: "HAZARDOUS WASTES",
				Text: "The RCRA regulations specify the time hazardous wastes can be stored at a site. If the storage time is exceeded, a RCRA permit is required.\n\n" +
					"• Generators of hazardous wastes. The requirements for generators of hazardous wastes are based on the amount of hazardous wastes generated. " +
					"The RCRA regulations list quantities of hazardous wastes that determine whether a generator is large or small."}},
			want: generate.NotFoundText},
		{name: "the sentence after the answer that speaks of the other option of a choice is quoted too", question: "asbestos neshap: do we notify epa on every renovation or just on demo",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/6", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 6, Section: "AIR QUALITY",
				Text: "The asbestos NESHAP is a work place standard established under the CAA. It requires, among other things, that EPA be notified when " +
					"a facility is demolished. When a facility is renovated, EPA has to be notified only if the renovated facility contains the above " +
					"combined amount of RACM. For more information on the asbestos NESHAP, go to www.epa.gov/asbestos/neshap.html."}},
			want: "The asbestos NESHAP is a work place standard established under the CAA [S1]. It requires, among other things, that EPA be notified " +
				"when a facility is demolished [S1]. When a facility is renovated, EPA has to be notified only if the renovated facility contains the " +
				"above combined amount of RACM [S1]."},
		{name: "a table's footnote answers for the row named by the sentence that fits the row", question: "iea bifi - row pitch for scenario 7",
			category: "general", chunks: []store.Chunk{scenarioNotes}, want: "7 | Ref-B | 0.4 | 0.2 | 3.5 m | 2-Up portrait | Horizontal [S1]. " +
				"For a 2-Up portrait system with a GCR of 0.4 the pitch is 2*5.96m = 11.92m [S1]."},
		{name: "a footnote's sentence of another case or value does not answer for the row", question: "row pitch for scenario A4",
			category: "general", chunks: []store.Chunk{scenarioNotes}, want: "5 | A4 | 0.4 | 0.2 | 1.5 m | 1-Up portrait | Horizontal [S1]. " +
				"* A GCR of 0.4 for the Trina Vertex module (length = 2.384m) corresponds to a row-to-row spacing or pitch of 5.96m [S1]."},
		{name: "a row that holds what is asked answers itself, not its footnote", question: "scenario A4 ground surface",
			category: "general", chunks: []store.Chunk{scenarioNotes}, want: "5 — Scenario name: A4; Ground surface: Horizontal [S1]."},
		{name: "a plain word stands for the document's, and what a thing is supposed to do frames the question", question: "green bldg per the epa guide is supposed to cut the impact where",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/7", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 7, Section: "Green Building",
				Text: "As the environmental impact of buildings becomes more apparent, a new field called green building is arising to reduce the impact at the source. " +
					"For more information on EPA’s green building program, go to www.epa.gov/greenbuilding/. " +
					"EPA’s Pollution Prevention Resource Exchange Network runs a “topic hub” for residential construction, which includes green building and compliance issues."}},
			want: "As the environmental impact of buildings becomes more apparent, a new field called green building is arising to reduce the impact at the source [S1]."},
		{name: "columns the question names are of the kind it calls them", question: "powerlight pl-225 a and b temp coeffs",
			category: "general", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 237, "Model: PowerLight PL-225-QM-I; Vintage: 2004; Material: mc-Si; a: -3.54; b: -0.072; Mount: Rack")},
			want: "Model: PowerLight PL-225-QM-I; a: -3.54; b: -0.072 [S1]."},
		{name: "a named column whose unit is of another kind does not answer", question: "how many mppt inputs does the solis-20k-us have",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 2900, "Name: Ningbo Ginlong Technologies: Solis-20K-US (480Vac) 480V [CEC 2015]; Mppt_low (V): 200; Mppt_high (V): 800")},
			want: generate.NotFoundText},
		{name: "a row without the mark asked for is another row", question: "bp3220n voco from the (E) datasheet row, not the measured one",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 67, "Model: BP Solar BP3220N Module; Vintage: 2010; Material: c-Si; Voco: 36.76; A4: -2.58E-05")},
			want: generate.NotFoundText},
		{name: "the row with the mark asked for answers", question: "bp3220n voco from the (E) datasheet row, not the measured one",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("SANDIA-MODULE-DB", "Data", 67, "Model: BP Solar BP3220N Module; Vintage: 2010; Material: c-Si; Voco: 36.76; A4: -2.58E-05"),
				sheetRow("SANDIA-MODULE-DB", "Data", 68, "Model: BP Solar BP3220N Module; Vintage: 2010 (E); Material: c-Si; Voco: 36.8; A4: -2.58E-05")},
			want: "Model: BP Solar BP3220N Module; Vintage: 2010 (E); Voco: 36.8 [S2]."},
		{name: "items of a list holding the words asked answer together", question: "iea bifi 6 day option - which dates are the cloudy ones",
			category: "general", chunks: []store.Chunk{{ID: "iea/1/5", DocID: "iea", DocNumber: "IEA-PVPS-T13-BIFI", Page: 2, Section: "Simulation period",
				Text: "If the simulation model used takes too much time to run an entire year for each scenario, you have the option to just run the following 6 days:\n" +
					"▪ January 3, 2022 (clear day)\n▪ December 27, 2022 (cloudy day)\n▪ March 24, 2022 (clear day)\n▪ March 22, 2022 (cloudy day)\n" +
					"▪ June 15, 2022 (clear day)\n▪ June 21, 2022 (cloudy day)"}},
			want: "▪ December 27, 2022 (cloudy day) [S1]. ▪ March 22, 2022 (cloudy day) [S1]. ▪ June 21, 2022 (cloudy day) [S1]."},
		{name: "where to go is quoted with what it is for", question: "p2rx topic hub url for residential construction",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/9", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 7, Section: "Green building",
				Text: "For more information on EPA’s green building program, go to www.epa.gov/greenbuilding/. EPA’s Pollution Prevention Resource Exchange " +
					"Network runs a “topic hub” for residential construction, which includes green building and compliance issues. " +
					"Go to www.p2rx.org/P2InfoNexpert/construction.cfm."}},
			want: "EPA’s Pollution Prevention Resource Exchange Network runs a “topic hub” for residential construction, which includes green building " +
				"and compliance issues [S1]. Go to www.p2rx.org/P2InfoNexpert/construction.cfm [S1]."},
		{name: "where to go for what the question sets aside does not answer", question: "p2rx topic hub url for commercial construction (not residential)",
			category: "general", chunks: []store.Chunk{{ID: "epa/1/9", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: 7, Section: "Green building",
				Text: "For more information on EPA’s green building program, go to www.epa.gov/greenbuilding/. EPA’s Pollution Prevention Resource Exchange " +
					"Network runs a “topic hub” for residential construction, which includes green building and compliance issues. " +
					"Go to www.p2rx.org/P2InfoNexpert/construction.cfm."}},
			want: generate.NotFoundText},
		{name: "a shortened model name quotes every row it names", question: "paco SB7000TL-US-22",
			category: "technical_value", chunks: []store.Chunk{inverter240, inverter208},
			want: "Manufacturer: SMA America; ID: SB7000TL-US-22-240V; Paco: 7000 [S1]. Manufacturer: SMA America; ID: SB7000TL-US-22-208V; Paco: 6650 [S2]."},
		{name: "a why question is answered by the sentence that gives a reason", question: "Why did PVWatts Version 5 replace the DC-to-AC derate factor with a system loss percentage?",
			category: "general", chunks: []store.Chunk{
				manualPage(39, 13, "11 System Losses", "Total system losses are specified as a percentage, with a default value of 14 %. "+
					"This replaces the former DC-to-AC derate factor in PVWatts V1."),
				manualPage(40, 14, "11 System Losses", "Change from PVWatts V1 PVWatts V1 used a DC-to-AC derate factor with a default value of 0.77. "+
					"The decision to switch to a system loss percentage input was made to bring PVWatts in line with common practice in the industry.")},
			want: "The decision to switch to a system loss percentage input was made to bring PVWatts in line with common practice in the industry [S2]."},
		{name: "a reason that follows from the sentence before is quoted with it", question: "why were the shading and availability losses set to zero for both models",
			category: "general", chunks: []store.Chunk{manualPage(47, 16, "15 Comparison with Measured Data",
				"All of the systems considered were unshaded, and the periods during which the system was unavailable were removed from the comparison. "+
					"Consequently, the loss mechanisms for shading and availability were set to zero for both models.")},
			want: "All of the systems considered were unshaded, and the periods during which the system was unavailable were removed from the comparison [S1]. " +
				"Consequently, the loss mechanisms for shading and availability were set to zero for both models [S1]."},
		{name: "the rows whose cell is blank in the column the question says they lack", question: "tbl 6 - which loss rows only have a v1 derate and no v5 default value",
			category: "technical_value", chunks: []store.Chunk{pvwattsLosses},
			want: "AC Wiring — Default value: – [S1]. Inverter — Default value: – [S1]."},
		{name: "the row that lacks what the question names, not a sentence about it", question: "which pvwatts loss has no v1 derate",
			category: "technical_value", chunks: []store.Chunk{pvwattsLosses},
			want: "Light-induced degradation — Related V1 Derate: – [S1]."},
		{name: "a reference named in an aside is answered by its entry", question: "pvwatts v2 paper (ref 9) - who's on it besides marion and anderberg",
			category: "general", chunks: []store.Chunk{
				{ID: "nrel/1/8", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 5, Section: "Table 1. Version History",
					Text: "Table 1. Version History\nVersion | Description\nV2 | Modified to utilize a gridded 40 km monthly weather data.\n" +
						"SOAP | A web service version of V2 using the SOAP protocol for monthly predictions."},
				manualPage(61, 18, "References",
					"[8] Marion, W.; Anderberg, M. (2000). PVWATTS - An Online Performance Calculator for Grid-Connected PV Systems.\n"+
						"[9] Marion, W.; Anderberg, M.; George, R.; Gray-Hann, P.; Heimiller, D.; (2001) PVWATTS Version 2.")},
			want: "[9] Marion, W.; Anderberg, M.; George, R.; Gray-Hann, P.; Heimiller, D.; (2001) PVWATTS Version 2 [S2]."},
		{name: "a count of a unit is the one column in that unit", question: "sma sb5000us 240v - how many dc amps max",
			category: "technical_value", chunks: []store.Chunk{{ID: "cec/1/1300", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1300,
				Text: "Name: SMA America: SB5000US 240V [CEC 2010]; Vac (V): 240; Paco (W): 5000; Pdco (W): 5263.2; Vdco (V): 310; " +
					"Vdcmax (V): 500; Idcmax (A): 17.3; Mppt_low (V): 200; Mppt_high (V): 450"}},
			want: "Name: SMA America: SB5000US 240V [CEC 2010]; Idcmax (A): 17.3 [S1]."},
		{name: "a count of a unit that two columns share names neither", question: "sma sb5000us 240v - how many dc volts",
			category: "technical_value", chunks: []store.Chunk{{ID: "cec/1/1300", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1300,
				Text: "Name: SMA America: SB5000US 240V [CEC 2010]; Vac (V): 240; Paco (W): 5000; Pdco (W): 5263.2; Vdco (V): 310; " +
					"Vdcmax (V): 500; Idcmax (A): 17.3; Mppt_low (V): 200; Mppt_high (V): 450"}},
			want: generate.NotFoundText},
		{name: "the glossary's ac voltage is the sandia sheet's column", question: "sb5000us (240v) in the sandia sheet - ac voltage in its row",
			category: "technical_value", chunks: []store.Chunk{{ID: "sandia/1/500", DocID: "sandia", DocNumber: "SANDIA-INVERTERS", Sheet: "Parameters", Row: 500,
				Text: "Manufacturer: SMA America; ID: SB5000US (240V); Source: CEC; ac Voltage: 208; Vintage: 2010; Paco: 5000; Pdco: 5263"}},
			want: "Manufacturer: SMA America; ID: SB5000US (240V); ac Voltage: 208 [S1]."},
		{name: "words for the row and for what it holds are not asked about", question: "the sb5000us row in the cec csv - what paco does it actually carry",
			category: "technical_value", chunks: []store.Chunk{{ID: "cec/1/1300", DocID: "cec", DocNumber: "CEC-INVERTERS", Sheet: "CEC_Inverters", Row: 1300,
				Text: "Name: SMA America: SB5000US 240V [CEC 2010]; Vac (V): 240; Paco (W): 5000; Pdco (W): 5263.2"}},
			want: "Name: SMA America: SB5000US 240V [CEC 2010]; Paco (W): 5000 [S1]."},
		{name: "how a model is set up for a voltage is not asked about", question: "schneider conext tx 3800 na jumpered for 208: ac rating and dc current max",
			category: "technical_value", chunks: append([]store.Chunk{{ID: "sandia/1/558", DocID: "sandia", DocNumber: "SANDIA-INVERTERS", Sheet: "Parameters", Row: 558,
				Text: "Manufacturer: Schneider; ID: Conext TX 3800 NA (set to 208V); Source: CEC; ac Voltage: 208; Vintage: 2011; Paco: 3500; Idcmax: 19.5"}},
				sandiaRows("Schneider", "Conext TX %d NA (set to 240V)", 6)...),
			want: "Manufacturer: Schneider; ID: Conext TX 3800 NA (set to 208V); ac Voltage: 208; Paco: 3500; Idcmax: 19.5 [S1]."},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := askAnalysed(t, g, tc.question, tc.category, tc.chunks)
			if res.Text != tc.want {
				t.Errorf("answer\n got: %s\nwant: %s", res.Text, tc.want)
			}
			assertQuoted(t, res.Text, tc.chunks)
		})
	}
}

// TestExtractiveEvidence checks the features the calibrated confidence
// reads: what kind of unit answered, a value of the asked kind, a table
// row, a question word no candidate holds.
func TestExtractiveEvidence(t *testing.T) {
	table8 := store.Chunk{ID: "nrel/1/60", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 20,
		Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
		Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nHI Honolulu | 8.7 % | 10.9 % | 3.0 % | 3.4 % | 7.8 %\n" +
			"WY Cheyenne | 8.8 % | 9.2 % | 2.9 % | 3.4 % | 7.2 %"}
	epcra := store.Chunk{ID: "epa/A/7", DocID: "epa", Page: 4, Section: "SOLID AND HAZARDOUS WASTES",
		Text: "Each EPCRA hazardous chemical has an associated “reportable quantity.” If you spill or release more than this quantity at your construction site, you are required to report the spill."}
	lead := store.Chunk{ID: "epa/A/6", DocID: "epa", Page: 3, Section: "SOLID AND HAZARDOUS WASTES",
		Text: "Contractors must notify residents about lead before renovating pre-1978 housing; for information specific to remodeling activities, see the lead program."}
	tests := []struct {
		name, question, category string
		chunks                   []store.Chunk
		want                     map[string]float64
	}{
		{name: "a year answers a date question", question: "lead notification before renovating housing built before what year",
			category: "general", chunks: []store.Chunk{lead, pvwattsLosses},
			want: map[string]float64{"dims_asked": 1, "typed_value": 1, "structured": 0, "first_chunk": 1}},
		{name: "a year answers for the word year", question: "nepa year",
			category: "general", chunks: []store.Chunk{{ID: "epa/A/9", DocID: "epa", Page: 6, Section: "NEPA",
				Text: "If so, the National Environmental Policy Act of 1969 (NEPA), as amended, may affect the project."}, lead},
			want: map[string]float64{"reader_coverage": 1, "missing": 0, "typed_value": 1}},
		{name: "a table row with the asked unit", question: "What is the default soiling loss?",
			category: "technical_value", chunks: []store.Chunk{pvwattsLosses},
			want: map[string]float64{"dims_asked": 1, "typed_value": 1, "structured": 1, "label": 1, "no_number": 0}},
		{name: "a number asked for and none stated", question: "epcra reportable amount for a diesel spill",
			category: "technical_value", chunks: []store.Chunk{epcra, pvwattsLosses, trenchSpec},
			want: map[string]float64{"no_number": 1}},
		{name: "a number asked for and one stated", question: "how many tmy3 sites does v5 use",
			category: "technical_value", chunks: []store.Chunk{{ID: "nrel/1/8", DocID: "nrel", Page: 5, Text: "By default PVWatts V5 uses 1020 TMY3s."},
				pvwattsLosses, trenchSpec},
			want: map[string]float64{"no_number": 0}},
		{name: "passages stating the same value are one answer", question: "default soiling loss in pvwatts",
			category: "technical_value", chunks: []store.Chunk{
				{ID: "nrel/1/40", DocID: "nrel", Title: "PVWatts Version 5 Manual", Page: 13, Text: "The default soiling loss is 2 % in PVWatts."},
				{ID: "nrel/1/41", DocID: "nrel", Title: "PVWatts Version 5 Manual", Page: 14, Text: "By default PVWatts assumes a soiling loss of 2 %."}},
			want: map[string]float64{"margin": 1, "polar": 0}},
		{name: "rows giving one number, with a unit and without, are one answer", question: "IG Plus 3.0-1 uni 277V idcmax 2010 listing",
			category: "technical_value", chunks: []store.Chunk{
				sheetRow("CEC-INVERTERS", "CEC_Inverters", 533, "Name: Fronius USA, LLC: IG Plus 3.0-1 uni(277) 277V [CEC 2010]; Vac (V): 277; Paco (W): 3000; Pdco (W): 3116.251979; "+
					"Vdco (V): 329.0044921; Pso (W): 19.94789038; C0 (1/W): -2.80E-06; C1 (1/V): -1.59E-05; C2 (1/V): -2.29E-03; "+
					"C3 (1/V): -1.02E-02; Pnt (W): 0.94; Vdcmax (V): 600; Idcmax (A): 14; Mppt_low (V): 230; Mppt_high (V): 500"),
				sheetRow("SANDIA-INVERTERS", "Parameters", 177, "Manufacturer: Fronius USA, LLC; ID: IG Plus 3.0-1 uni(277); Source: CEC; ac Voltage: 277; Vintage: 2010; Paco: 3000; "+
					"Pdco: 3116.251979; Vdco: 329.0044921; Pso: 19.94789038; Co: -2.796298484E-06; C1: -1.588138647E-05; "+
					"C2: -0.002288674272; C3: -0.01016061382; Pnt: 0.94; Vdcmax: 600; Idcmax: 14; MPPT-Low: 230; MPPT-Hi: 500; "+
					"Tamb Low: -20; Tamb Max: 50; Weight: 55; Unique ID#: 539")},
			want: map[string]float64{"margin": 1}},
		{name: "a yes-or-no question", question: "does the 2-axis tracking in pvwatts account for any shading",
			category: "general", chunks: []store.Chunk{{ID: "nrel/1/23", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641",
				Title: "PVWatts Version 5 Manual", Page: 9, Section: "7 Plane-of-Array Irradiance",
				Text: "The two axis tracking algorithm assumes no shading. The one axis tracking algorithm can backtrack."},
				pvwattsLosses, trenchSpec},
			want: map[string]float64{"polar": 1}},
		{name: "a choice answered by a sentence naming one option", question: "direction of the visible sky arc from the slanted surface: clockwise or counterclockwise",
			category: "general", chunks: []store.Chunk{{ID: "vf/1/1", DocID: "vf", Page: 1,
				Text: "From a point at a distance x from the bottom edge, the visible sky is the arc clockwise from the ray defined by the slanted surface."}},
			want: map[string]float64{"polar": 1}},
		{name: "a choice answered by a sentence naming both options", question: "direction of the visible sky arc from the slanted surface: clockwise or counterclockwise",
			category: "general", chunks: []store.Chunk{{ID: "vf/1/1", DocID: "vf", Page: 1,
				Text: "The visible sky arc runs clockwise and the visible ground arc counterclockwise from the slanted surface."}},
			want: map[string]float64{"polar": 0}},
		{name: "a place names its row as a code does", question: "cheyenne fixed+premium increase v5 vs v1",
			category: "technical_value", chunks: []store.Chunk{table8, pvwattsLosses},
			want: map[string]float64{"structured": 1, "label": 1, "place": 1, "codes": 1, "codes_whole": 1}},
		{name: "a place in a case its table never tells apart", question: "cheyenne fixed roof mount increase v5 vs v1",
			category: "technical_value", chunks: []store.Chunk{table8, pvwattsLosses},
			want: map[string]float64{"structured": 1, "place": 0, "codes": 0}},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := askAnalysed(t, g, tc.question, tc.category, tc.chunks)
			if res.NotFound {
				t.Fatalf("not found; want an answer with features %v", tc.want)
			}
			for name, want := range tc.want {
				if got := res.Features[name]; got != want {
					t.Errorf("%s = %v, want %v (features %v)", name, got, want, res.Features)
				}
			}
		})
	}
}

// TestComplexAnswerJudgedByBestPart: a complex answer quotes its parts in
// reading order, and the sentence of context that comes first ("… a 7 %
// increase relative to PVWatts V1") is not what its confidence is judged
// by: the table row that answers is.
func TestComplexAnswerJudgedByBestPart(t *testing.T) {
	chunks := []store.Chunk{
		{ID: "nrel/1/50", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 14, Section: "11 System Losses",
			Text: "This suggests that the default PVWatts V5 system loss represents roughly a 7 % increase in system performance relative to PVWatts V1."},
		{ID: "nrel/1/61", DocID: "nrel", DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 20,
			Section: "Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
			Text: "Location | Fixed | Fixed+Premium | 1 Axis | Backtracking | 2 Axis\nCO Boulder | 8.9 % | 10.2 % | 3.2 % | 3.9 % | 7.3 %\n" +
				"ME Portland | 10.1 % | 11.0 % | 4.4 % | 5.4 % | 8.1 %"}}
	question := "boulder 2-axis increase v5 vs v1"
	qa := query.Analyse(question, query.Input{})
	res, err := generate.NewExtractive(generate.ExtractiveOptions{}).Generate(context.Background(), generate.Request{
		Question: qa.Text, Category: "general", Complexity: "complex", Expect: qa.Expect, Chunks: chunks})
	if err != nil {
		t.Fatal(err)
	}
	want := "This suggests that the default PVWatts V5 system loss represents roughly a 7 % increase in system performance relative to PVWatts V1 [S1]. " +
		"CO Boulder — 2 Axis: 7.3 % [S2]."
	if res.Text != want {
		t.Fatalf("answer\n got: %s\nwant: %s", res.Text, want)
	}
	if res.Features["structured"] != 1 || res.Features["parts"] != 1 {
		t.Errorf("features %v: want the row judged (structured 1) and parts 1", res.Features)
	}
}

// TestFurtherAskAnsweredApart: a question that joins a second ask on to a
// first ("…, and which …", "…? and the …") is answered by a unit for each,
// though the unit for the second states no value of the kind the first
// asks and scores low against the whole question.
func TestFurtherAskAnsweredApart(t *testing.T) {
	epa := func(page int, text string) store.Chunk {
		return store.Chunk{ID: fmt.Sprintf("epa/1/%d", page), DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Page: page, Text: text}
	}
	tests := []struct {
		name, question string
		chunks         []store.Chunk
		want           string
	}{
		{name: "a year, and a section by a clause of its own", question: "what year is NEPA from, and which NHPA section makes fed agencies protect historic properties",
			chunks: []store.Chunk{
				epa(7, "Section 106 of the National Historic Preservation Act (NHPA) requires federal agencies to protect historic properties through their activities and oversight."),
				epa(6, "If so, the National Environmental Policy Act of 1969 (NEPA), as amended, may affect the project.")},
			want: "Section 106 of the National Historic Preservation Act (NHPA) requires federal agencies to protect historic properties through their activities and oversight [S1]. " +
				"If so, the National Environmental Policy Act of 1969 (NEPA), as amended, may affect the project [S2]."},
		{name: "a year, and after the question mark a help line", question: "lead notice to residents is required before renovating housing built before what year? and the national lead info center number",
			chunks: []store.Chunk{epa(3, "Contractors are required to give residents a lead notice before renovating housing built before 1978. Persons who are involved in lead-abatement "+
				"projects have to be certified. For more information on EPA’s lead-based paint program, contact the National Lead Information Center at 800-424-LEAD (5323).")},
			want: "Contractors are required to give residents a lead notice before renovating housing built before 1978 [S1]. " +
				"For more information on EPA’s lead-based paint program, contact the National Lead Information Center at 800-424-LEAD (5323) [S1]."},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qa := query.Analyse(tc.question, query.Input{Technical: true})
			res, err := g.Generate(context.Background(), generate.Request{Question: qa.Text, Category: "technical_value",
				Complexity: string(classify.Classify(tc.question).Complexity), Expect: qa.Expect, Chunks: tc.chunks})
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tc.want {
				t.Errorf("answer\n got: %s\nwant: %s", res.Text, tc.want)
			}
			assertQuoted(t, res.Text, tc.chunks)
		})
	}
}

// TestCountOfAskedNeedNotBeSaid: "which two rays" asks which rays; the
// sentence that names them need not say "two".
func TestCountOfAskedNeedNotBeSaid(t *testing.T) {
	note := []store.Chunk{{ID: "vf/1/4", DocID: "vf", DocNumber: "PVLIB-NOTE-VF", Page: 4,
		Section: "Determining the average view factor from a module to the visible ground",
		Text: "From a point at a distance x from the bottom edge of the slant surface L, the visible ground is the arc counterclockwise " +
			"from the ray defined by the slanted surface to the ray defined from the point x to the bottom of the facing slanted surface. " +
			"The view factor to the ground is given by"}}
	want := "From a point at a distance x from the bottom edge of the slant surface L, the visible ground is the arc counterclockwise " +
		"from the ray defined by the slanted surface to the ray defined from the point x to the bottom of the facing slanted surface [S1]."
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, q := range []string{"which two rays bound the visible ground arc", "which 2 rays bound the visible ground arc"} {
		if got := askAnalysed(t, g, q, "general", note).Text; got != want {
			t.Errorf("%q\n got: %s\nwant: %s", q, got, want)
		}
	}
}

// TestSiblingCasesPaired: two sibling cases, each with its own words, are
// answered by the unit of each pair, not by one case with the other's
// words.
func TestSiblingCasesPaired(t *testing.T) {
	days := store.Chunk{DocNumber: "IEA-1", Page: 2, Text: "If a full year takes too long, you have the option to just run the following 6 days:\n" +
		"▪ March 24, 2022 (clear day)\n▪ March 22, 2022 (cloudy day)\n▪ June 15, 2022 (clear day)\n▪ June 21, 2022 (cloudy day)"}
	tests := []struct{ question, want string }{
		{"6 day short run: the cloudy day in march and the clear day in june", "▪ March 22, 2022 (cloudy day) [S1]. ▪ June 15, 2022 (clear day) [S1]."},
		{"6 day short run: the clear day in march and the cloudy day in june", "▪ March 24, 2022 (clear day) [S1]. ▪ June 21, 2022 (cloudy day) [S1]."},
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	for _, tc := range tests {
		if got := askAnalysed(t, g, tc.question, "general", []store.Chunk{days}).Text; got != tc.want {
			t.Errorf("%q\n got: %s\nwant: %s", tc.question, got, tc.want)
		}
	}
}

// TestMakerNamed: a row holding the model number the question names but
// none of the words before it ("delta si"), nor their initials, is another
// maker's model.
func TestMakerNamed(t *testing.T) {
	growatt := store.Chunk{ID: "sandia-inverters/1/300", DocID: "sandia-inverters", DocNumber: "SANDIA-INVERTERS", Title: "Sandia inverter list", Sheet: "Parameters", Row: 301,
		Text: "Manufacturer: Growatt New Energy; ID: GROWATT 3000-US (208V); Weight: 26.9"}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	tests := []struct{ question, want string }{
		{"delta si 3000-us weight, sandia inverter list", generate.NotFoundText},
		{"growatt 3000-us weight, sandia inverter list", "Manufacturer: Growatt New Energy; ID: GROWATT 3000-US (208V); Weight: 26.9 [S1]."},
		{"weight of the 3000-us", "Manufacturer: Growatt New Energy; ID: GROWATT 3000-US (208V); Weight: 26.9 [S1]."},
		{"weight of the inverter 3000-us, sandia inverter list", "Manufacturer: Growatt New Energy; ID: GROWATT 3000-US (208V); Weight: 26.9 [S1]."},
		// The maker's initials name it as its name does.
		{"gne 3000-us weight, sandia inverter list", "Manufacturer: Growatt New Energy; ID: GROWATT 3000-US (208V); Weight: 26.9 [S1]."},
		{"gn 3000-us weight, sandia inverter list", generate.NotFoundText},
	}
	for _, tc := range tests {
		if got := askAnalysed(t, g, tc.question, "technical_value", []store.Chunk{growatt}).Text; got != tc.want {
			t.Errorf("%q\n got: %s\nwant: %s", tc.question, got, tc.want)
		}
	}
}

// sandiaRows returns n rows of the Sandia inverter sheet for a maker's
// models, named by a pattern and numbered 2000, 2500, …: the other rows a
// lookup retrieves.
func sandiaRows(maker, model string, n int) []store.Chunk {
	out := make([]store.Chunk, n)
	for i := range out {
		number := 2000 + 500*i
		out[i] = store.Chunk{ID: fmt.Sprintf("sandia/1/%d", 900+i), DocID: "sandia", DocNumber: "SANDIA-INVERTERS", Sheet: "Parameters", Row: 900 + i,
			Text: fmt.Sprintf("Manufacturer: %s; ID: "+model+"; Source: CEC; ac Voltage: 240; Vintage: 2011; Paco: %d; Idcmax: 12; Tamb Low: -25; Tamb Max: 60",
				maker, number, number)}
	}
	return out
}

// askAnalysed asks g a simple question as the pipeline does: read by the
// query analysis first.
func askAnalysed(t *testing.T, g *generate.Extractive, question, category string, chunks []store.Chunk) generate.Result {
	t.Helper()
	qa := query.Analyse(question, query.Input{Technical: category == "technical_value"})
	res, err := g.Generate(context.Background(), generate.Request{Question: qa.Text, Category: category,
		Complexity: "simple", Expect: qa.Expect, Stray: qa.Stray, Chunks: chunks})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// keywordEmbedder embeds a text as the unit vector of how often it names
// each of its keywords, so that similarity follows the words chosen.
type keywordEmbedder []string

func (k keywordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, len(k)+1)
		v[len(k)] = 1 // every text shares a little
		var norm float64
		for j, w := range k {
			v[j] = float32(strings.Count(strings.ToLower(text), w))
		}
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(norm))
		}
		out[i] = v
	}
	return out, nil
}

// TestSenseReadsNoQuestionMark: the reader embeds the question without
// the mark that ends it, so that "…?" and "…" are read alike (the
// embedder here counts question marks as a word).
func TestSenseReadsNoQuestionMark(t *testing.T) {
	emb := keywordEmbedder{"?", "ac cables", "minimum depth"}
	g := generate.NewExtractive(generate.ExtractiveOptions{Queries: emb, Passages: emb})
	plain := askAnalysed(t, g, "min depth for ac cables", "technical_value", []store.Chunk{trenchSpec})
	marked := askAnalysed(t, g, "min depth for ac cables?", "technical_value", []store.Chunk{trenchSpec})
	if plain.NotFound || marked.NotFound {
		t.Fatalf("answers %q and %q; want both answered", plain.Text, marked.Text)
	}
	if p, m := plain.Features["sense"], marked.Features["sense"]; p != m {
		t.Errorf("sense %.4f with the question mark, %.4f without; want the same", m, p)
	}
}

func TestExtractiveSenseMargin(t *testing.T) {
	roadCrossing := store.Chunk{ID: "spec/1/9", DocID: "spec", DocNumber: "SPEC-1", Page: 9, Section: "3.9 Road crossings",
		Text: "Under roads, AC cables shall be laid at a depth of 1200 mm in ducts."}
	tests := []struct {
		name     string
		keywords keywordEmbedder
		want     float64
	}{
		// The question and the specification's AC sentence share "minimum
		// depth" and "ac cables"; the road crossing only "ac cables".
		{name: "the quote stands clear of the others", keywords: keywordEmbedder{"ac cables", "minimum depth"}, want: 1},
		// Both AC sentences say "cables" and "depth" alike.
		{name: "another quote is as similar", keywords: keywordEmbedder{"cables", "depth"}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := generate.NewExtractive(generate.ExtractiveOptions{Queries: tc.keywords, Passages: tc.keywords})
			res := askAnalysed(t, g, "min depth for ac cables", "technical_value", []store.Chunk{trenchSpec, roadCrossing})
			if res.NotFound || !strings.Contains(res.Text, "AC cables") {
				t.Fatalf("answer %q; want the AC sentence", res.Text)
			}
			if got := res.Features["sense_margin"]; math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("sense_margin = %v, want %v (features %v)", got, tc.want, res.Features)
			}
			if res.Features["sense"] <= 0 {
				t.Errorf("sense = %v, want the quote's similarity", res.Features["sense"])
			}
		})
	}
}

// TestSenseKeepsNamedLabel: the embedder finds the footnote closest to
// "which way does the 10% grade slope", but the question names scenario
// A4, and only its row says which way its ground slopes.
func TestSenseKeepsNamedLabel(t *testing.T) {
	scenarios := store.Chunk{ID: "iea/4/5", DocID: "iea", DocNumber: "IEA-1", Page: 2, Section: "Scenarios",
		Text: "5 | A4 | 0.4 | 0.2 | 1.5 m | 1-Up portrait | 10% grade* down to the East\n" +
			"6 | A5 | 0.4 | 0.2 | 1.5 m | 1-Up portrait | 10% grade* down to the SW\n" +
			"7 | Ref-B | 0.4 | 0.2 | 3.5 m | 2-Up portrait | Horizontal\n" +
			"**10% grade = slope angle of 5.71 deg from horizontal (atan(0.1))\n" +
			"▪ Module: Trina Vertex 650 W (TSM-DEG21C.20)."}
	sloped := keywordEmbedder{"grade", "slope"}
	g := generate.NewExtractive(generate.ExtractiveOptions{Queries: sloped, Passages: sloped})
	res := askAnalysed(t, g, "scenario A4 ground - which way does the 10% grade slope", "technical_value", []store.Chunk{scenarios})
	if !strings.Contains(res.Text, "A4") || !strings.Contains(res.Text, "East") {
		t.Errorf("answer %q; want scenario A4's row", res.Text)
	}
	// A unit is no label: "(m2)" says what the area is measured in, and
	// the sentence that says "W/m2" is not about the module asked for.
	module := store.Chunk{ID: "sandia/1/483", DocID: "sandia", DocNumber: "SANDIA-1", Sheet: "Data", Row: 484,
		Text: "Model: SunPower SunTile; Module Area [m^2]: 0.48; Series Cells: 22"}
	reference := store.Chunk{ID: "nrel/1/30", DocID: "nrel", DocNumber: "NREL-1", Page: 12,
		Text: "The reference cell temperature Tref is 25°C, and reference irradiance is 1000 W/m2."}
	squared := keywordEmbedder{"suntile", "series"}
	g = generate.NewExtractive(generate.ExtractiveOptions{Queries: squared, Passages: squared})
	res = askAnalysed(t, g, "sunpower suntile module area (m2) + series cells", "technical_value", []store.Chunk{reference, module})
	if !strings.Contains(res.Text, "SunTile") {
		t.Errorf("answer %q; want the SunTile row", res.Text)
	}
}

// TestAskedFormat: a question for a telephone number, a web address or a
// file name is answered by a unit that holds one, or not at all.
func TestAskedFormat(t *testing.T) {
	epa := store.Chunk{ID: "epa/1/7", DocID: "epa", DocNumber: "EPA-1", Page: 8, Section: "Compliance resources",
		Text: "The Compliance Assistance Center Web site (www.cicacenter.org) explains the major environmental laws for contractors. " +
			"For more information on hazardous waste, call the RCRA Hotline at 800-424-9346 between 9:00 a.m. and 5:00 p.m. " +
			"EPA’s Brownfield Program provides funding for the cleanup of brownfield sites. " +
			"For more information on the Brownfield Program, go to www.epa.gov/swerosps/bf/."}
	iea := store.Chunk{ID: "iea/1/3", DocID: "iea", DocNumber: "IEA-1", Page: 2, Section: "Results",
		Text: "An excel spreadsheet template is provided to collect the results for submission. " +
			"Meteo Data: PS3 file (Phase2_meteo_hourly_psm3format.csv)."}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	tests := []struct {
		question, want string
	}{
		{"phone number for the compliance assistance center", generate.NotFoundText},
		{"phone number for the rcra hotline", "800-424-9346"},
		{"web site of the compliance assistance center", "www.cicacenter.org"},
		{"file name of the meteo data", "Phase2_meteo_hourly_psm3format.csv"},
		{"brownfield program link", "www.epa.gov/swerosps/bf/"},
	}
	for _, tc := range tests {
		got := askAnalysed(t, g, tc.question, "general", []store.Chunk{epa, iea}).Text
		if tc.want == generate.NotFoundText && got != tc.want || !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.question, got, tc.want)
		}
	}
	// The word that asks for the form is said by a unit about what is
	// asked that holds it: "link" by the Brownfield Program's web address.
	if cov := askAnalysed(t, g, "brownfield program link", "general", []store.Chunk{epa}).Features["reader_coverage"]; cov < 0.99 {
		t.Errorf("reader coverage %.2f for the sentence holding the link; want 1", cov)
	}
}

// TestMeaningAskedInWords: "… means what" asks for words, even when the
// classifier takes the question for a technical value.
func TestMeaningAskedInWords(t *testing.T) {
	flag := func(row int, text string) store.Chunk {
		return store.Chunk{ID: "sandia/1/" + strconv.Itoa(row), DocID: "sandia", DocNumber: "SANDIA-MODULE-DB",
			Sheet: "Flags for data sources", Row: row, Text: text}
	}
	chunks := []store.Chunk{flag(6, "Code: 3; Description: Copied from measured module"),
		flag(7, "Code: 4; Description: Estimated from measured data"),
		{ID: "sandia/1/519", DocID: "sandia", DocNumber: "SANDIA-MODULE-DB", Sheet: "Data", Row: 519,
			Text: "Model: Yingli Solar YL220 Module; Vintage: 2008; Series Cells: 60; Data source: 1"}}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	got := askAnalysed(t, g, "data source flag 3 in the sandia module db means what", "technical_value", chunks).Text
	if want := "Code: 3; Description: Copied from measured module [S1]."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSeriesOfABareModelNumber: "conext tx 2800" names the TX series; the
// "Conext 2800 NA" row is another model of the same number.
func TestSeriesOfABareModelNumber(t *testing.T) {
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	conext := []store.Chunk{
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1331, "Name: Schneider: Conext 2800 NA (Set for 240 V) 240V [CEC 2011]; Vac (V): 240; Paco (W): 2800"),
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1334, "Name: Schneider: Conext TX 3300 NA (set to 240V) 240V [CEC 2011]; Vac (V): 240; Paco (W): 3300"),
		sheetRow("CEC-INVERTERS", "CEC_Inverters", 1332, "Name: Schneider: Conext TX 2800 NA (Set for 208 V) 208V [CEC 2011]; Vac (V): 208; Paco (W): 2650")}
	if got := askAnalysed(t, g, "conext tx 2800 paco at 240v", "technical_value", conext).Text; got != generate.NotFoundText {
		t.Errorf("conext tx 2800 at 240v: %q, want not found", got)
	}
	save := []store.Chunk{sheetRow("CEC-INVERTERS", "CEC_Inverters", 993, "Name: Open Energy: Solar Save 4600 208V [CEC 2005]; Vac (V): 208; Paco (W): 4600")}
	if got, want := askAnalysed(t, g, "open energy solar save 4600 paco", "technical_value", save).Text,
		"Name: Open Energy: Solar Save 4600 208V [CEC 2005]; Paco (W): 4600 [S1]."; got != want {
		t.Errorf("solar save 4600: %q, want %q", got, want)
	}
}

// TestWhatThingNamed: "what time zone are the timestamps in" is answered
// by a unit that names a time zone, not by the one that names the file.
func TestWhatThingNamed(t *testing.T) {
	meteo := store.Chunk{ID: "iea/4/6", DocID: "iea", DocNumber: "IEA-1", Page: 2, Section: "Modeling exercise",
		Text: "▪ Meteo Data: PS3 file (Phase2_meteo_hourly_psm3format.csv).\n▪ Location: Albuquerque, New Mexico USA (35.05°, -106.54°)."}
	zone := store.Chunk{ID: "iea/4/7", DocID: "iea", DocNumber: "IEA-1", Page: 3, Section: "Modeling exercise",
		Text: "All timestamps in the meteo file are in local standard time zone (UTC-7)."}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	q := "what time zone are the timestamps in the iea psm3 meteo file"
	if got := askAnalysed(t, g, q, "general", []store.Chunk{meteo}).Text; got != generate.NotFoundText {
		t.Errorf("without a time zone: %q, want not found", got)
	}
	if got := askAnalysed(t, g, q, "general", []store.Chunk{meteo, zone}).Text; !strings.Contains(got, "UTC-7") {
		t.Errorf("with a time zone: %q, want the sentence that names it", got)
	}
}

// TestWhatAnAbbreviationStandsFor: the sentence that spells the
// abbreviation out answers, not one that names it more often; the words
// that ask ("full name") are what it gives.
func TestWhatAnAbbreviationStandsFor(t *testing.T) {
	page := store.Chunk{ID: "epa/1/5", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Title: "Federal Environmental Requirements for Construction", Page: 6,
		Text: "If the combined amount of RACM in the facility is at least 260 linear feet of pipe, the National Emission Standard for Hazardous Air Pollutants " +
			"(NESHAP) for asbestos has to be met. The asbestos NESHAP is a work place standard established under the CAA. For more information on the " +
			"asbestos NESHAP, go to www.epa.gov/asbestos/neshap.html. If so, you may be subject to the requirements of either RCRA, the Comprehensive " +
			"Environmental Response, Compensation, and Liability Act (CERCLA), or the Oil Pollution Act."}
	hotline := store.Chunk{ID: "epa/1/3", DocID: "epa", DocNumber: "EPA-FEDREQ-CONSTR", Title: "Federal Environmental Requirements for Construction", Page: 4,
		Text: "For more information, call the RCRA Hotline weekdays at 800-424-9346 (TDD 800-553-7672) between 9:00 a.m. and 5:00 p.m. EST. " +
			"Metropolitan planning organizations are responsible for developing a transportation improvement program (TIP) that is consistent with a SIP."}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	tests := []struct{ question, want string }{
		{"what does neshap stand for (the asbestos one)", "National Emission Standard for Hazardous Air Pollutants"},
		{"cercla full name", "Comprehensive Environmental Response, Compensation, and Liability Act (CERCLA)"},
		{"what does neshap stand for, the asbestos work place one", "National Emission Standard for Hazardous Air Pollutants"},
		// Spelled out in lower case before the brackets.
		{"what does tip stand for, transportation planning", "transportation improvement program (TIP)"},
	}
	for _, tc := range tests {
		if got := askAnalysed(t, g, tc.question, "definition", []store.Chunk{page, hotline}).Text; !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q, want the sentence with %q", tc.question, got, tc.want)
		}
	}
}

// TestWhoWroteWhatAPageSays: "who wrote" asks the author of a document
// only when the question names the document; otherwise a sentence that
// says who wrote the thing answers.
func TestWhoWroteWhatAPageSays(t *testing.T) {
	title := store.Chunk{ID: "tp/1/0", DocID: "tp", DocNumber: "TP-7", Title: "Thermal Model Manual", Page: 1,
		Text: "Thermal Model Manual\n\nJane Q. Writer\n\nMarch 2015"}
	body := store.Chunk{ID: "tp/1/4", DocID: "tp", DocNumber: "TP-7", Title: "Thermal Model Manual", Page: 5, Index: 4,
		Text: "The heat balance model was written by Fuentes at Sandia National Laboratories in 1987."}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	ask := func(question string) string {
		qa := query.Analyse(question, query.Input{})
		res, err := g.Generate(context.Background(), generate.Request{Question: qa.Text, Category: "general", Complexity: "simple",
			Expect: qa.Expect, Chunks: []store.Chunk{body, title}, Imprint: []string{"tp/1/0"}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	}
	if got := ask("who wrote the thermal model manual"); !strings.Contains(got, "Jane Q. Writer") {
		t.Errorf("the manual's author: %q", got)
	}
	if got := ask("who wrote the heat balance model"); !strings.Contains(got, "Fuentes") {
		t.Errorf("the model's author: %q, want the sentence that names him", got)
	}
}

// TestTableHeaderFromTheChunkBefore: rows a page break cut from their
// header are read under it when the chunk before, which ends with the
// header, is given for it (Request.Before): the A5 row's 1.5 m is its hub
// height, no row pitch, and the table's footnote gives the pitch of a row
// like it. That chunk is never quoted.
func TestTableHeaderFromTheChunkBefore(t *testing.T) {
	if !generate.OpensWithRows(ieaScenariosNext) || generate.OpensWithRows(ieaScenarios) {
		t.Fatalf("OpensWithRows: page 2 %v, page 1 %v; want true, false",
			generate.OpensWithRows(ieaScenariosNext), generate.OpensWithRows(ieaScenarios))
	}
	g := generate.NewExtractive(generate.ExtractiveOptions{})
	ask := func(before []store.Chunk) string {
		res, err := g.Generate(context.Background(), generate.Request{Question: "iea a5 (the sw slope one) - row pitch", Category: "technical_value",
			Complexity: "simple", Chunks: []store.Chunk{ieaScenariosNext}, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	}
	if got := ask(nil); !strings.Contains(got, "1.5 m") {
		t.Fatalf("without the header: %q; want the A5 row, read as it stands", got)
	}
	got := ask([]store.Chunk{ieaScenarios})
	if !strings.Contains(got, "5.96m") || strings.Contains(got, "[S2]") {
		t.Errorf("with the header: %q; want the footnote's pitch, and only the given chunk cited", got)
	}
}
