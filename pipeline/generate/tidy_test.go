package generate

import (
	"testing"

	"github.com/cewhq/cew/store"
)

// tidySources returns n sources, the first from the PVWatts manual.
func tidySources(n int) []store.Chunk {
	out := make([]store.Chunk, n)
	for i := range out {
		out[i] = store.Chunk{DocNumber: "DOC-" + string(rune('A'+i)), Title: "Other document", Text: "text"}
	}
	if n > 0 {
		out[0] = store.Chunk{DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Section: "4.1 Module Type", Page: 7, Text: "text"}
	}
	return out
}

func TestTidyAnswer(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sources  int
		want     string
		notFound bool
	}{
		{name: "already tidy", in: "The default soiling loss is 2% [S1].", sources: 3, want: "The default soiling loss is 2% [S1]."},
		{name: "bare numbers cite sources", in: "The default soiling loss is 2% [1]. The total is 14 % [1, 2].", sources: 2,
			want: "The default soiling loss is 2% [S1]. The total is 14 % [S1][S2]."},
		{name: "bare number beyond the sources is a reference", in: "The loss is 1.5 % [13].", sources: 5, want: "The loss is 1.5 % [13]."},
		{name: "reference beside a real citation stays", in: "The LID loss of 1.5 % is typical [13] [S1].", sources: 5, want: "The LID loss of 1.5 % is typical [13] [S1]."},
		{name: "parenthesised", in: "The default soiling loss is 2% (S1).", sources: 1, want: "The default soiling loss is 2% [S1]."},
		{name: "source word", in: "The default soiling loss is 2% [Source 1]. Shading is 3% (Source 2).", sources: 2,
			want: "The default soiling loss is 2% [S1]. Shading is 3% [S2]."},
		{name: "list in one group", in: "The total loss is 14 % [S1, S2].", sources: 2, want: "The total loss is 14 % [S1][S2]."},
		{name: "range", in: "The total loss is 14 % [S1-S3].", sources: 3, want: "The total loss is 14 % [S1][S2][S3]."},
		{name: "range beyond the sources", in: "The total loss is 14 % [S1-S9].", sources: 3, want: "The total loss is 14 % [S1-S9]."},
		{name: "equation numbers stay", in: "The loss follows Eqn. (9) [S1].", sources: 2, want: "The loss follows Eqn. (9) [S1]."},
		{name: "lead-in", in: "Based on the provided sources, the default soiling loss is 2% [S1].", sources: 1, want: "The default soiling loss is 2% [S1]."},
		{name: "lead-in with a citation", in: "According to [S2], the default soiling loss is 2%.", sources: 2, want: "The default soiling loss is 2% [S2]."},
		{name: "answer label", in: "Answer: The default soiling loss is 2% [S1].", sources: 1, want: "The default soiling loss is 2% [S1]."},
		{name: "markdown", in: "## Answer\n- **Soiling**: 2% [S1]\n- **Shading**: 3% [S1]", sources: 1, want: "- Soiling: 2% [S1]\n- Shading: 3% [S1]"},
		{name: "attribution clause", in: "The temperature coefficient of premium modules is -0.35 %/°C, as stated in Table 3 of the NREL-TP-6A20-62641 — PVWatts Version 5 Manual [S1].", sources: 1,
			want: "The temperature coefficient of premium modules is -0.35 %/°C [S1]."},
		{name: "attribution to the citation itself", in: "The GCR for 1-axis trackers is 0.4, as stated in [S1].", sources: 1,
			want: "The GCR for 1-axis trackers is 0.4 [S1]."},
		{name: "attribution around the citation", in: "The reference efficiency is 0.9637, as specified in the [S1] document on page 7, section 4.1 Module Type.", sources: 1,
			want: "The reference efficiency is 0.9637 [S1]."},
		{name: "text after the citation that is a claim stays", in: "The depth is 800 mm, as stated in [S1] for DC cables.", sources: 1,
			want: "The depth is 800 mm, as stated in [S1] for DC cables."},
		{name: "attribution with a qualifier stays", in: "The minimum depth is 800 mm, as stated in section 4.1 for DC cables [S1].", sources: 1,
			want: "The minimum depth is 800 mm, as stated in section 4.1 for DC cables [S1]."},
		{name: "attribution naming another document stays", in: "The coefficient is -0.35 %/°C, as stated in the PVsyst manual [S1].", sources: 1,
			want: "The coefficient is -0.35 %/°C, as stated in the PVsyst manual [S1]."},
		{name: "not-found sentence with a citation", in: "This information was not found in the uploaded documents. [S1]", sources: 1, want: NotFoundText, notFound: true},
		{name: "own refusal", in: "The provided sources do not specify the default shading loss in PVsyst.", sources: 3, want: NotFoundText, notFound: true},
		{name: "refusal after a claim", in: "The DC depth is 800 mm [S1].\nThe sources do not mention the AC depth.", sources: 1, want: NotFoundText, notFound: true},
		{name: "title-case refusal", in: "Not Found in Uploaded Documents", sources: 2, want: NotFoundText, notFound: true},
		{name: "not mentioned", in: "The default tilt for two-axis trackers is not mentioned in the sources.", sources: 2, want: NotFoundText, notFound: true},
		{name: "a document's own negation is no refusal", in: "The total loss is not the sum of the individual losses [S1].", sources: 1,
			want: "The total loss is not the sum of the individual losses [S1]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notFound := tidyAnswer(tt.in, tidySources(tt.sources))
			if got != tt.want || notFound != tt.notFound {
				t.Errorf("tidyAnswer(%q) =\n %q, %v\nwant\n %q, %v", tt.in, got, notFound, tt.want, tt.notFound)
			}
		})
	}
}
