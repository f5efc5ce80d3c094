package guard

import (
	"context"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cewhq/cew/store"
)

// fuzzChunks cuts text into at most four chunks at "|", each citable.
func fuzzChunks(text string) []store.Chunk {
	var chunks []store.Chunk
	for i, part := range strings.SplitN(text, "|", 4) {
		chunks = append(chunks, store.Chunk{DocID: "doc", Page: i + 1, Title: "fuzz", Text: part})
	}
	return chunks
}

func FuzzPost(f *testing.F) {
	f.Add("What is the minimum trench depth?", "DC cables are laid 800 mm deep [S1].", specChunk.Text)
	f.Add("Paco?", "Paco (W): 250; Vac (V): 240 [S1]", rowChunk.Text+"|"+lossChunk.Text)
	f.Add("defaults?", "The default losses are:\n- Soiling: 2% [S1]\n- Shading: 3% [S2, S1]", tableChunk.Text+"|"+tableChunk.Text)
	f.Add("q", NotFoundText, "")
	f.Add("q", "[S1][S2]. [S3", "a|b")
	f.Add("q", "x [S99999999999999999999] y [S0] [S-1] [S1,S2;S3]", "1|2|3")
	f.Add("¿Qué?", "Los cables se colocan a 800 mm [S1].", "800 mm")
	f.Add("q", "e.g. U.S. No. 5. [S1] . . ! ? [S1]", "No. 5")
	f.Add("q", "-0.35%/°C and 1,500 kWh/m² at 4 mm² [S1]", "-0.35 %/°C 1500 kWh/m2 4 mm2")
	f.Add("q", "\xff\xfe [S1] \x00", "\xff")
	f.Add("q", "It complies [S1]; it is typically approved [S2].", "complies|typically approved")
	f.Add("q", "- \n* \n1. \n[S1]\n:", "")
	f.Fuzz(func(t *testing.T, question, answer, chunkText string) {
		chunks := fuzzChunks(chunkText)
		v := Post(context.Background(), question, answer, chunks, PostOptions{})
		if v.OK != (v.Reason == None) {
			t.Fatalf("OK %v with reason %q", v.OK, v.Reason)
		}
		if !v.OK && v.Detail == "" {
			t.Fatalf("rejection %q without detail", v.Reason)
		}
		if math.IsNaN(v.Support) || v.Support < 0 || v.Support > 1 {
			t.Fatalf("support %v out of [0,1]", v.Support)
		}
		seen := map[int]bool{}
		for _, n := range v.Cited {
			if n < 1 || n > len(chunks) || seen[n] {
				t.Fatalf("cited %v: %d out of range or repeated", v.Cited, n)
			}
			seen[n] = true
		}
		for _, s := range v.Sentences {
			if math.IsNaN(s.Support) || s.Support < 0 || s.Support > 1 {
				t.Fatalf("sentence support %v out of [0,1]", s.Support)
			}
			if v.OK && len(s.Citations) == 0 {
				t.Fatalf("OK answer with uncited sentence %q", s.Text)
			}
		}
		if v.OK && len(v.Cited) == 0 && strings.TrimSpace(answer) != NotFoundText {
			t.Fatalf("OK answer %q cites nothing", answer)
		}
	})
}

func FuzzValidate(f *testing.F) {
	f.Add("<@U123|cew> What is the depth? <!here>", 0)
	f.Add("<at>cew</at>&nbsp;<p>depth&#7;</p>", 10)
	f.Add("<#C1|general> <https://x|y> <https://x> <!subteam^S1|@t>", 1000)
	f.Add("\xff\u202e", -5)
	f.Fuzz(func(t *testing.T, question string, maxChars int) {
		clean, reason, msg := Validate(question, ValidateOptions{MaxChars: maxChars})
		if reason != None {
			if msg == "" {
				t.Fatalf("reason %q without message", reason)
			}
			return
		}
		limit := maxChars
		if limit <= 0 {
			limit = DefaultMaxChars
		}
		if clean == "" || !utf8.ValidString(clean) || utf8.RuneCountInString(clean) > limit {
			t.Fatalf("accepted %q (limit %d)", clean, limit)
		}
	})
}

func FuzzPre(f *testing.F) {
	f.Add("What cable feeds Inverter 42 at 800 mm?", specChunk.Text, 0.5)
	f.Add("SB7000TL-US-22 Paco?", rowChunk.Text, 0.0)
	f.Add("", "", math.NaN())
	f.Fuzz(func(t *testing.T, question, chunkText string, score float64) {
		var hits []store.Hit
		for _, c := range fuzzChunks(chunkText) {
			hits = append(hits, store.Hit{Chunk: c, Score: score})
		}
		v := Pre(question, hits, PreOptions{})
		if v.OK != (v.Reason == None) {
			t.Fatalf("OK %v with reason %q", v.OK, v.Reason)
		}
		if math.IsNaN(v.Coverage) || v.Coverage < 0 || v.Coverage > 1 {
			t.Fatalf("coverage %v out of [0,1]", v.Coverage)
		}
	})
}
