package guard

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/cewhq/cew/store"
)

// Passages in the style of the sample corpus: a trench specification, the
// PVWatts manual, an inverter spreadsheet row and the EPA construction
// requirements.
var (
	specChunk = store.Chunk{
		ID: "277-007-D-C-40327/03/4", DocID: "277-007-D-C-40327", DocNumber: "277-007-D-C-40327",
		Title: "Trenches crossing layout", Revision: "03", Page: 5, Section: "6.3 Cable trenches",
		Text: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level. " +
			"LV AC cables shall be laid at a minimum depth of 600 mm. A yellow warning tape shall be installed " +
			"300 mm above the cables. The trench bedding shall consist of 100 mm of sand free from stones. " +
			"Cables are typically pulled by hand. Cable joints shall not be placed under roads.",
	}
	lossChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/3", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 3,
		Text: "Total system losses are specified as a percentage, with a default value of 14 %. " +
			"This replaces the former DC-to-AC derate factor in PVWatts V1.",
	}
	ratioChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/9", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 5,
		Text: "The default value of the new DC-to-AC ratio input is 1.1. For a 4 kW DC system, this would " +
			"result in a 3.63 kW AC inverter rating.",
	}
	lidChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/31", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 14,
		Text: "The default light-induced degradation (LID) loss of 1.5 % is a typical value based on measurements " +
			"of losses in different module types.",
	}
	rowChunk = store.Chunk{
		ID: "CEC-INVERTERS/1/6", DocID: "CEC-INVERTERS", DocNumber: "CEC-INVERTERS", Title: "CEC inverter library",
		Revision: "1", Sheet: "CEC_Inverters", Row: 6,
		Text: "Name: ABB: MICRO-0.25-I-OUTD-US-240 240V [CEC 2014]; Vac (V): 240; Paco (W): 250; " +
			"Pdco (W): 259.5526973; Vdco (V): 39.98224603",
	}
	epaChunk = store.Chunk{
		ID: "EPA-FEDREQ-CONSTR/A/2", DocID: "EPA-FEDREQ-CONSTR", DocNumber: "EPA-FEDREQ-CONSTR",
		Title: "Federal Environmental Requirements for Construction", Revision: "A", Page: 2,
		Text: "Construction activities that disturb one or more acres of land must obtain coverage under an NPDES " +
			"permit for stormwater discharges. The permit requires a Stormwater Pollution Prevention Plan " +
			"that complies with the Construction General Permit.",
	}
	albedoChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/18", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 8,
		Text: "The albedo, or ground reflectance, is by default fixed at 0.2.",
	}
	gcrChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/8", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 4,
		Text: "The ground coverage ratio (GCR) only applies to one axis tracking systems. It is a measure of the " +
			"row spacing. The default value in PVWatts is 0.4.",
	}
	tableChunk = store.Chunk{
		ID: "NREL-TP-6A20-62641/1/30", DocID: "NREL-TP-6A20-62641", DocNumber: "NREL-TP-6A20-62641",
		Title: "PVWatts Version 5 Manual", Revision: "1", Page: 13, Section: "Table 6. System Losses",
		Text: "Category: Soiling; Default value: 2%. Category: Shading; Default value: 3%. " +
			"Category: Snow; Default value: 0%. Category: Mismatch; Default value: 2%.",
	}
)

// sources are numbered [S1]…[S9] in this order.
var sources = []store.Chunk{specChunk, lossChunk, ratioChunk, lidChunk, rowChunk, epaChunk, albedoChunk, gcrChunk, tableChunk}

// TestPostFaithfulAnswers holds answers a careful writer could give from
// the sources: verbatim quotes as the extractive generator writes them,
// table rows, lists, and paraphrases as an instructed LLM writes them. All
// must pass with the default thresholds; the lowest support among them is
// what DefaultPostOptions keeps a margin below.
func TestPostFaithfulAnswers(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		cited  []int
	}{
		{name: "verbatim quote", cited: []int{1},
			answer: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level. [S1]"},
		{name: "extractive, two sources", cited: []int{1, 2},
			answer: "A yellow warning tape shall be installed 300 mm above the cables. [S1] Total system losses are specified as a percentage, with a default value of 14 %. [S2]"},
		{name: "restated value", cited: []int{1},
			answer: "The minimum depth for DC cables is 800 mm below finished ground level [S1]."},
		{name: "verb paraphrase", cited: []int{1}, answer: "LV AC cables require a minimum depth of 600 mm [S1]."},
		{name: "unit glued", cited: []int{1}, answer: "The trench bedding is 100mm of sand free from stones [S1]."},
		{name: "default loss", cited: []int{2}, answer: "PVWatts uses a default total system loss of 14 % [S2]."},
		{name: "ratio", cited: []int{3}, answer: "The default DC-to-AC ratio is 1.1 [S3]."},
		{name: "worked example", cited: []int{3},
			answer: "With the default ratio, a 4 kW DC system gets a 3.63 kW AC inverter rating [S3]."},
		{name: "acronym", cited: []int{4}, answer: "The default LID loss is 1.5 % [S4]."},
		{name: "document hedges itself", cited: []int{4}, answer: "A LID loss of 1.5 % is a typical value [S4]."},
		{name: "row with header units", cited: []int{5},
			answer: "The ABB MICRO-0.25-I-OUTD-US-240 has a Paco of 250 W and a Vac of 240 V [S5]."},
		{name: "row quoted", cited: []int{5}, answer: "Paco (W): 250; Vac (V): 240 [S5]."},
		{name: "whole row quoted", cited: []int{5},
			answer: "Name: ABB: MICRO-0.25-I-OUTD-US-240 240V [CEC 2014]; Vac (V): 240; Paco (W): 250; Pdco (W): 259.5526973; Vdco (V): 39.98224603 [S5]"},
		{name: "permit paraphrase", cited: []int{6},
			answer: "Construction that disturbs one acre or more of land needs NPDES permit coverage for stormwater discharges [S6]."},
		{name: "loose paraphrase", cited: []int{6},
			answer: "Stormwater discharges from construction sites disturbing at least one acre need NPDES permit coverage [S6]."},
		{name: "document states compliance", cited: []int{6},
			answer: "The Stormwater Pollution Prevention Plan complies with the Construction General Permit [S6]."},
		{name: "short value", cited: []int{7}, answer: "The default albedo is 0.2 [S7]."},
		{name: "two clauses", cited: []int{8},
			answer: "The GCR applies only to one-axis tracking systems, and its default is 0.4 [S8]."},
		{name: "list with lead-in", cited: []int{9},
			answer: "The default losses are:\n- Soiling: 2% [S9]\n- Shading: 3% [S9]\n- Snow: 0% [S9]"},
		{name: "negation quoted", cited: []int{1}, answer: "Cable joints shall not be placed under roads [S1]."},
		{name: "drawing named", cited: []int{1},
			answer: "Drawing 277-007-D-C-40327 requires DC cables at 800 mm depth and LV AC cables at 600 mm depth [S1]."},
		{name: "multiple sources in one sentence", cited: []int{7, 8},
			answer: "PVWatts defaults the albedo to 0.2 and the GCR to 0.4 [S7][S8]."},
		{name: "grouped citation", cited: []int{2, 9},
			answer: "The total default loss is 14 %, with soiling at 2% [S2, S9]."},
		{name: "not found", cited: []int{}, answer: NotFoundText},
		{name: "not found with spaces", cited: []int{}, answer: "  " + NotFoundText + "\n"},
		{name: "yes answer", cited: []int{1}, answer: "Yes [S1]."},
	}
	lowest := 1.0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(context.Background(), "What does the document say?", tt.answer, sources, PostOptions{})
			if !v.OK {
				t.Fatalf("Post rejected a faithful answer: %s %s\n%+v", v.Reason, v.Detail, v.Sentences)
			}
			if !reflect.DeepEqual(v.Cited, tt.cited) {
				t.Errorf("cited = %v, want %v", v.Cited, tt.cited)
			}
			if v.Support < 0 || v.Support > 1 {
				t.Errorf("support %v out of [0,1]", v.Support)
			}
			if len(v.Cited) > 0 {
				lowest = min(lowest, v.Support)
			}
		})
	}
	if margin := DefaultPostOptions().MinSupport; lowest < margin+0.05 {
		t.Errorf("lowest faithful support %.2f leaves less than 0.05 above MinSupport %.2f", lowest, margin)
	}
}

func TestPostRejects(t *testing.T) {
	tests := []struct {
		name       string
		question   string
		answer     string
		wantReason Reason
		wantDetail string
	}{
		{name: "uncited sentence", answer: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level.",
			wantReason: Uncited, wantDetail: "cites no source"},
		{name: "second sentence uncited",
			answer:     "DC cables are laid 800 mm deep [S1]. LV cables are laid 600 mm deep.",
			wantReason: Uncited, wantDetail: "sentence 2"},
		{name: "citation out of range", answer: "DC cables are laid 800 mm deep [S12].",
			wantReason: InvalidCitation, wantDetail: "[S12] is not one of the 9 sources"},
		{name: "citation zero", answer: "DC cables are laid 800 mm deep [S0].", wantReason: InvalidCitation},
		{name: "overflowing citation", answer: "DC cables are laid 800 mm deep [S99999999999999999999].",
			wantReason: InvalidCitation},
		{name: "typically", answer: "DC cables are typically laid at 800 mm [S2].", wantReason: Forbidden, wantDetail: `"typically"`},
		{name: "probably", answer: "The default loss is probably 14 % [S2].", wantReason: Forbidden},
		{name: "I think", answer: "I think the default albedo is 0.2 [S7].", wantReason: Forbidden},
		{name: "might", answer: "The GCR might be 0.4 by default [S8].", wantReason: Forbidden},
		{name: "may be", answer: "The trench bedding may be 100 mm of sand [S1].", wantReason: Forbidden},
		{name: "approximately", answer: "DC cables are laid approximately 800 mm deep [S1].", wantReason: Forbidden},
		{name: "in general", answer: "In general, the default loss is 14 % [S2].", wantReason: Forbidden},
		{name: "hedge quoted from another source does not count",
			answer: "Cables are typically pulled by hand [S2].", wantReason: Forbidden},
		{name: "complies", answer: "The trench design complies with the cable trench requirements [S1].",
			wantReason: Compliance, wantDetail: `"complies"`},
		{name: "meets the requirements", answer: "A depth of 800 mm meets the requirements for DC cables [S1].",
			wantReason: Compliance},
		{name: "approved", answer: "The 800 mm trench depth is approved for DC cables [S1].", wantReason: Compliance},
		{name: "certified", answer: "The ABB MICRO-0.25-I-OUTD-US-240 is certified with a Paco of 250 W [S5].",
			wantReason: Compliance},
		{name: "conforms", answer: "The bedding of 100 mm of sand conforms to the trench specification [S1].",
			wantReason: Compliance},
		{name: "wrong depth", answer: "DC cables shall be laid at a minimum depth of 900 mm below finished ground level [S1].",
			wantReason: UngroundedNumber, wantDetail: `"900 mm" does not appear in [S1]`},
		{name: "wrong unit", answer: "DC cables shall be laid at a minimum depth of 800 m [S1].",
			wantReason: UngroundedNumber},
		{name: "converted unit", answer: "DC cables shall be laid at a minimum depth of 0.8 m [S1].",
			wantReason: UngroundedNumber},
		{name: "number from an uncited source", answer: "The default system loss is 14 % [S1].",
			wantReason: UngroundedNumber},
		{name: "wrong model", answer: "The ABB MICRO-0.3-I-OUTD-US-240 has a Paco of 250 W [S5].",
			wantReason: UngroundedNumber, wantDetail: "MICRO-0.3-I-OUTD-US-240"},
		{name: "rounded value", answer: "The AC inverter rating for a 4 kW DC system is 3.6 kW [S3].",
			wantReason: UngroundedNumber},
		{name: "percent for a ratio", answer: "The default DC-to-AC ratio is 1.1 % [S3].", wantReason: UngroundedNumber},
		{name: "invented name", answer: "The trench bedding from Hanson Aggregates is 100 mm of sand [S1].",
			wantReason: Ungrounded, wantDetail: `"Hanson"`},
		{name: "invented name first", answer: "SMA cables shall be laid at a minimum depth of 800 mm below finished ground level [S1].",
			wantReason: Ungrounded, wantDetail: `the name "SMA"`},
		{name: "invented negation", answer: "Total system losses are not specified as a percentage [S2].",
			wantReason: Ungrounded, wantDetail: `says "not"`},
		{name: "unsupported statement", answer: "The trench must be backfilled with lean concrete and compacted in layers [S1].",
			wantReason: Ungrounded, wantDetail: "not in the cited source"},
		{name: "general knowledge", answer: "Bifacial modules gain energy from rear irradiance [S7].",
			wantReason: Ungrounded},
		{name: "spanish answer", question: "What is the minimum depth for DC cables?",
			answer: "Los cables de corriente continua se colocan a una profundidad mínima de 800 mm [S1].", wantReason: WrongLanguage},
		{name: "empty answer", answer: "  ", wantReason: NoSource},
		{name: "citations only", answer: "[S1][S2]", wantReason: NoSource},
		{name: "punctuation only", answer: "…", wantReason: Uncited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.question
			if q == "" {
				q = "What do the documents say?"
			}
			v := Post(context.Background(), q, tt.answer, sources, PostOptions{})
			if v.Reason != tt.wantReason || v.OK != (tt.wantReason == None) {
				t.Fatalf("Post = %v %s %q, want %s", v.OK, v.Reason, v.Detail, tt.wantReason)
			}
			if !strings.Contains(v.Detail, tt.wantDetail) {
				t.Errorf("detail = %q, want it to contain %q", v.Detail, tt.wantDetail)
			}
		})
	}
}

func TestPostWithoutChunks(t *testing.T) {
	v := Post(context.Background(), "depth?", "DC cables are laid 800 mm deep [S1].", nil, PostOptions{})
	if v.OK || v.Reason != NoSource {
		t.Fatalf("Post without chunks = %+v, want NoSource", v)
	}
	v = Post(context.Background(), "depth?", NotFoundText, nil, PostOptions{})
	if !v.OK || len(v.Cited) != 0 {
		t.Fatalf("not-found without chunks = %+v, want OK with nothing cited", v)
	}
}

func TestPostCitedOrder(t *testing.T) {
	answer := "PVWatts defaults the GCR to 0.4 [S8]. The default albedo is 0.2 [S7][S8]. DC cables are laid 800 mm deep [S1][S7]."
	v := Post(context.Background(), "defaults?", answer, sources, PostOptions{})
	if !v.OK {
		t.Fatalf("Post rejected: %s %s", v.Reason, v.Detail)
	}
	if want := []int{8, 7, 1}; !reflect.DeepEqual(v.Cited, want) {
		t.Errorf("cited = %v, want %v", v.Cited, want)
	}
	if len(v.Sentences) != 3 || !reflect.DeepEqual(v.Sentences[1].Citations, []int{7, 8}) {
		t.Errorf("sentences = %+v", v.Sentences)
	}
}

// scriptedVerifier answers from a table and records how often it was asked.
type scriptedVerifier struct {
	supported bool
	err       error
	calls     int
}

func (s *scriptedVerifier) Supported(ctx context.Context, claim string, evidence []string) (bool, error) {
	s.calls++
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if len(evidence) == 0 || claim == "" {
		return false, errors.New("nothing to verify")
	}
	return s.supported, s.err
}

func TestPostVerifier(t *testing.T) {
	// Support ≈ 0.83: in the ambiguous band of the default options.
	ambiguous := "A yellow warning tape goes 300 mm above the cables [S1]."
	// Support 1: never sent to the verifier.
	certain := "DC cables shall be laid at a minimum depth of 800 mm below finished ground level [S1]."
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	tests := []struct {
		name      string
		ctx       context.Context
		answer    string
		verifier  *scriptedVerifier
		wantOK    bool
		wantCalls int
		wantIn    string
	}{
		{name: "supported", ctx: context.Background(), answer: ambiguous,
			verifier: &scriptedVerifier{supported: true}, wantOK: true, wantCalls: 1},
		{name: "not supported", ctx: context.Background(), answer: ambiguous,
			verifier: &scriptedVerifier{}, wantCalls: 1, wantIn: "verifier found"},
		{name: "error fails closed", ctx: context.Background(), answer: ambiguous,
			verifier: &scriptedVerifier{supported: true, err: errors.New("503 from the LLM")}, wantCalls: 1, wantIn: "503"},
		{name: "cancelled fails closed", ctx: cancelled, answer: ambiguous,
			verifier: &scriptedVerifier{supported: true}, wantCalls: 1, wantIn: "context canceled"},
		{name: "clear support skips the verifier", ctx: context.Background(), answer: certain,
			verifier: &scriptedVerifier{}, wantOK: true},
		{name: "low support skips the verifier", ctx: context.Background(),
			answer:   "The trench must be backfilled with lean concrete and compacted in layers [S1].",
			verifier: &scriptedVerifier{supported: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(tt.ctx, "Where is the warning tape?", tt.answer, sources, PostOptions{Verifier: tt.verifier})
			if v.OK != tt.wantOK {
				t.Fatalf("OK = %v (%s %s), want %v", v.OK, v.Reason, v.Detail, tt.wantOK)
			}
			if !tt.wantOK && v.Reason != Ungrounded {
				t.Errorf("reason = %s, want %s", v.Reason, Ungrounded)
			}
			if tt.verifier.calls != tt.wantCalls {
				t.Errorf("verifier asked %d times, want %d", tt.verifier.calls, tt.wantCalls)
			}
			if !strings.Contains(v.Detail, tt.wantIn) {
				t.Errorf("detail = %q, want it to contain %q", v.Detail, tt.wantIn)
			}
		})
	}
}

func TestPostOptionsDefaults(t *testing.T) {
	answer := "A yellow warning tape goes 300 mm above the cables [S1]." // support ≈ 0.83
	tests := []struct {
		name   string
		opts   PostOptions
		wantOK bool
	}{
		{name: "zero value uses defaults", opts: PostOptions{}, wantOK: true},
		{name: "stricter threshold", opts: PostOptions{MinSupport: 0.9}, wantOK: false},
		{name: "negative disables", opts: PostOptions{MinSupport: -1}, wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := Post(context.Background(), "tape?", answer, sources, tt.opts); v.OK != tt.wantOK {
				t.Errorf("OK = %v (%s %s), want %v", v.OK, v.Reason, v.Detail, tt.wantOK)
			}
		})
	}
}

func BenchmarkPost(b *testing.B) {
	answer := "DC cables shall be laid at a minimum depth of 800 mm below finished ground level [S1]. " +
		"PVWatts uses a default total system loss of 14 % [S2]. The ABB MICRO-0.25-I-OUTD-US-240 has a Paco of 250 W [S5].\n" +
		"The default losses are:\n- Soiling: 2% [S9]\n- Shading: 3% [S9]"
	ctx := context.Background()
	for b.Loop() {
		Post(ctx, "What are the trench depth, default loss and Paco?", answer, sources, PostOptions{})
	}
}

// TestTriggersCoverPatterns keeps the trigger words in step with the
// patterns: every phrase a pattern matches must contain a trigger.
func TestTriggersCoverPatterns(t *testing.T) {
	tests := []struct {
		name     string
		triggers []string
		texts    []string
	}{
		{name: "hedges", triggers: hedgeTriggers, texts: []string{
			"I think", "I believe", "i guess", "I assume", "I suppose", "I would say", "I'm not sure", "not sure",
			"probably", "might", "may be", "maybe", "perhaps", "possibly", "presumably", "conceivably",
			"typically", "usually", "generally", "normally", "commonly", "often", "likely", "unlikely",
			"it seems", "seems to", "appears to be", "as far as I know", "to my knowledge", "in general",
			"in most cases", "could be", "roughly", "approximately", "about 800", "around 800", "more or less",
			"rule of thumb", "common practice", "best practice", "industry standard", "in practice"}},
		{name: "compliance", triggers: complianceTriggers, texts: []string{
			"complies", "compliant", "compliance", "conforms", "conformity", "meets the requirements",
			"satisfies the code", "fulfils all standards", "met local regulations", "approved", "approval",
			"certified", "certificate", "in accordance with", "up to code", "passed inspection", "is safe",
			"are legal", "is permissible"}},
	}
	pats := map[string][]*regexp.Regexp{"hedges": hedges, "compliance": complianceClaims}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, text := range tt.texts {
				if len(matching(pats[tt.name], tt.triggers, "x "+text+" y")) == 0 {
					t.Errorf("%q is not caught", text)
				}
			}
		})
	}
}

// TestPostNumberWords checks numbers written in words as strictly as
// numbers written in digits, in either direction.
func TestPostNumberWords(t *testing.T) {
	chunks := []store.Chunk{{
		ID: "277-007-D-C-40327/03/5", DocID: "277-007-D-C-40327", Page: 6,
		Text: "Each trench holds two DC circuits and 3 earthing conductors. The contractor shall install " +
			"twenty-five earth rods along the fence and two hundred and fifty metres of bare copper tape.",
	}}
	tests := []struct {
		name   string
		answer string
		want   Reason
	}{
		{name: "same word", answer: "Each trench holds two DC circuits [S1].", want: None},
		{name: "word for a digit", answer: "Each trench holds three earthing conductors [S1].", want: None},
		{name: "digit for a word", answer: "Each trench holds 2 DC circuits [S1].", want: None},
		{name: "hyphenated", answer: "The contractor shall install 25 earth rods along the fence [S1].", want: None},
		{name: "compound", answer: "The contractor shall install two hundred and fifty metres of bare copper tape [S1].", want: None},
		{name: "changed word", answer: "Each trench holds five DC circuits [S1].", want: UngroundedNumber},
		{name: "changed word for a digit", answer: "Each trench holds four earthing conductors [S1].", want: UngroundedNumber},
		{name: "changed compound", answer: "The contractor shall install twenty-six earth rods along the fence [S1].", want: UngroundedNumber},
		{name: "changed multiplier", answer: "The contractor shall install two thousand metres of bare copper tape [S1].", want: UngroundedNumber},
		{name: "lone one is a pronoun", answer: "Each trench holds two DC circuits, one per string [S1].", want: None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(context.Background(), "How many?", tt.answer, chunks, PostOptions{MinSupport: -1})
			if v.Reason != tt.want {
				t.Errorf("Post = %s %q, want %s", v.Reason, v.Detail, tt.want)
			}
		})
	}
}

// TestPostParaphrasedQuantities accepts the same value written another
// way, as models write it, under the default thresholds, and nothing else.
func TestPostParaphrasedQuantities(t *testing.T) {
	chunks := []store.Chunk{{
		ID: "277-007-D-C-40327/03/2", DocID: "277-007-D-C-40327", Page: 2,
		Text: "DC cables shall be laid with a minimum depth of 800 mm. The nominal inverter efficiency is 0.96. " +
			"The default total system loss is 14 %.",
	}}
	tests := []struct {
		name   string
		answer string
		want   Reason
	}{
		{name: "number and unit in words", answer: "DC cables shall be laid with a minimum depth of eight hundred millimetres [S1].", want: None},
		{name: "unit in words", answer: "DC cables shall be laid with a minimum depth of 800 millimetres [S1].", want: None},
		{name: "fraction as a percentage", answer: "The nominal inverter efficiency is 96 % [S1].", want: None},
		{name: "percentage glued", answer: "The default total system loss is 14% [S1].", want: None},
		{name: "another number in words", answer: "DC cables shall be laid with a minimum depth of nine hundred millimetres [S1].", want: UngroundedNumber},
		{name: "another percentage", answer: "The nominal inverter efficiency is 97 % [S1].", want: UngroundedNumber},
		{name: "converted unit", answer: "DC cables shall be laid with a minimum depth of 0.8 m [S1].", want: UngroundedNumber},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(context.Background(), "What is it?", tt.answer, chunks, DefaultPostOptions())
			if v.Reason != tt.want {
				t.Errorf("Post = %s %q, want %s", v.Reason, v.Detail, tt.want)
			}
		})
	}
}

// TestPostDroppedNegation rejects answers that repeat a source's words
// without the negation among them, which say the opposite of the source
// while every word is supported.
func TestPostDroppedNegation(t *testing.T) {
	chunks := []store.Chunk{{
		ID: "277-007-D-C-40327/03/6", DocID: "277-007-D-C-40327", Page: 7,
		Text: "Cable joints shall not be placed under roads. Do not energise the cable before the insulation test. " +
			"DC cables are not buried under roads but are buried under verges. The depth shall be not less than 800 mm. " +
			"Earthing conductors cannot be shared between circuits. The warning tape isn't required in ducts.",
	}, {
		ID: "277-007-D-C-40327/03/7", DocID: "277-007-D-C-40327", Page: 8,
		Text: "LV cables shall not be laid in ducts. LV cables shall be laid in trenches.",
	}}
	tests := []struct {
		name       string
		answer     string
		want       Reason
		wantDetail string
	}{
		{name: "shall not", answer: "Cable joints shall be placed under roads [S1].", want: Ungrounded, wantDetail: `"not"`},
		{name: "do not", answer: "Energise the cable before the insulation test [S1].", want: Ungrounded, wantDetail: `"not"`},
		{name: "not with a contrast", answer: "DC cables are buried under roads [S1].", want: Ungrounded},
		{name: "not less than", answer: "The depth shall be less than 800 mm [S1].", want: Ungrounded},
		{name: "cannot", answer: "Earthing conductors can be shared between circuits [S1].", want: Ungrounded, wantDetail: `"cannot"`},
		{name: "contraction", answer: "The warning tape is required in ducts [S1].", want: Ungrounded, wantDetail: `"isn't"`},
		{name: "negation kept", answer: "Cable joints shall not be placed under roads [S1].", want: None},
		{name: "imperative kept", answer: "Do not energise the cable before the insulation test [S1].", want: None},
		{name: "the other half of a contrast", answer: "DC cables are buried under verges [S1].", want: None},
		{name: "prohibition in other words", answer: "Cable joints are prohibited under roads [S1].", want: None},
		{name: "the source also says it plainly", answer: "LV cables shall be laid in trenches [S2].", want: None},
		{name: "plain statement of another source", answer: "LV cables shall be laid in trenches [S1][S2].", want: None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(context.Background(), "Where?", tt.answer, chunks, PostOptions{MinSupport: -1})
			if v.Reason != tt.want {
				t.Fatalf("Post = %s %q, want %s", v.Reason, v.Detail, tt.want)
			}
			if !strings.Contains(v.Detail, tt.wantDetail) {
				t.Errorf("detail = %q, want it to contain %q", v.Detail, tt.wantDetail)
			}
		})
	}
}

// TestPostSwappedQualifier rejects answers that put the opposite qualifier
// where the cited source has one: a maximum for a minimum, above for below,
// AC for DC.
func TestPostSwappedQualifier(t *testing.T) {
	tests := []struct {
		name       string
		answer     string
		want       Reason
		wantDetail string
	}{
		{name: "maximum for minimum", answer: "DC cables shall be laid at a maximum depth of 800 mm below finished ground level [S1].",
			want: Ungrounded, wantDetail: `says "maximum" where the cited source says "minimum"`},
		{name: "above for below", answer: "DC cables shall be laid at a minimum depth of 800 mm above finished ground level [S1].",
			want: Ungrounded, wantDetail: `"above"`},
		{name: "below for above", answer: "A yellow warning tape shall be installed 300 mm below the cables [S1].", want: Ungrounded},
		{name: "AC for DC", answer: "For a 4 kW AC system, this would result in a 3.63 kW AC inverter rating [S3].", want: Ungrounded},
		{name: "as the source says", answer: "DC cables shall be laid at a minimum depth of 800 mm below finished ground level [S1].", want: None},
		{name: "both in the source", answer: "The warning tape is 300 mm above the cables, which are 800 mm below finished ground level [S1].", want: None},
		{name: "synonym", answer: "DC cables shall be laid at a min depth of 800 mm [S1].", want: None},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Post(context.Background(), "What depth?", tt.answer, sources, PostOptions{MinSupport: -1})
			if v.Reason != tt.want {
				t.Fatalf("Post = %s %q, want %s", v.Reason, v.Detail, tt.want)
			}
			if !strings.Contains(v.Detail, tt.wantDetail) {
				t.Errorf("detail = %q, want it to contain %q", v.Detail, tt.wantDetail)
			}
		})
	}
}
