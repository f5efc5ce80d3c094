package guard

import (
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// Labelled is a bare number a question puts right after a word that names
// it: the 0.25 of "pitch at gcr 0.25", the 250 of "suniva titan 250". The
// word says which number it is, so a passage that gives the same word
// another number ("a GCR of 0.4", "Titan 230") is about another case.
type Labelled struct {
	// Label is the index term of the naming word ("gcr", "titan").
	Label string
	// Num is the number as the question writes it.
	Num string
	// Text is the question's phrase, for messages ("gcr 0.25").
	Text string
	// Cases are the qualifiers the phrase names ("version 1" is V1), read
	// once: a passage naming them in another spelling is about the case
	// asked (see Contradicts).
	Cases []Qualifier `json:",omitempty"`
}

// referenceLabels name a place in a document, not a case of what is asked:
// "table 8" is where the question looked.
var referenceLabels = map[string]bool{
	"tabl": true, "figur": true, "fig": true, "page": true, "section": true, "sec": true,
	"eq": true, "eqn": true, "equat": true, "row": true, "column": true, "chapter": true,
	"appendix": true, "item": true, "step": true, "note": true, "ref": true, "refer": true,
	"ticket": true, "issu": true, "number": true, "no": true, "rev": true, "revis": true,
}

// LabelledNumbers returns the bare numbers of text that follow a content
// word directly ("gcr 0.25", "titan 250"). A number with a unit is a Value
// with a dimension and is compared as one; a number after a word that
// points into a document ("table 8") labels nothing.
func LabelledNumbers(text string) []Labelled {
	toks := analysis.Tokens(text)
	var out []Labelled
	for i := 1; i < len(toks); i++ {
		t, w := toks[i], toks[i-1]
		if t.Kind != analysis.Number || w.Kind != analysis.Word || analysis.IsStopword(w.Text) ||
			referenceLabels[w.Term] || strings.HasSuffix(t.Text, "%") {
			continue
		}
		if w.Start > 0 && text[w.Start-1] == '-' {
			continue // "ray-max 150": the number is of the name "Ray-Max"
		}
		if strings.TrimSpace(text[w.End:t.Start]) != "" {
			continue // "series cells, 1998 measured": a comma parts them
		}
		if i+1 < len(toks) && toks[i+1].Kind != analysis.Number {
			if _, ok := unitOf(text, toks[i+1]); ok {
				continue // "at 240 v": a value with a unit
			}
		}
		phrase := text[w.Start:t.End]
		out = append(out, Labelled{Label: w.Term, Num: t.Text, Text: phrase, Cases: Qualifiers(phrase)})
	}
	return out
}

// contradictsLabel reports the phrase of text that gives l's label another
// number, and none the same: "a GCR of 0.4" for "gcr 0.25". Between the
// label and its number only function words and signs may stand.
func contradictsLabel(text string, toks []analysis.Token, l Labelled) (string, bool) {
	stated := ""
	for i, t := range toks {
		if t.Kind == analysis.Number && equalNumbers(t.Text, l.Num) {
			return "", false
		}
		if stated != "" || t.Kind != analysis.Word || t.Term != l.Label {
			continue
		}
		for j := i + 1; j < len(toks) && j <= i+3; j++ {
			n := toks[j]
			if n.Kind == analysis.Number {
				if !equalNumbers(n.Text, l.Num) {
					stated = text[t.Start:n.End]
				}
				break
			}
			if n.Kind == analysis.Identifier {
				// "Primo 8.2-1" is the "primo 8.2" asked with a suffix;
				// "CL 18000NA" is not "cl 20000". A number after the
				// model number is not the label's ("Primo 8.2-1 @ 208").
				if lead, _ := leadingNumber(n.Text); lead != "" && !equalNumbers(lead, l.Num) {
					stated = text[t.Start:n.End]
				}
				break
			}
			if n.Kind == analysis.Word && !analysis.IsStopword(n.Text) && !numberingWords[n.Text] {
				// "Scenario number: 2" numbers the scenario as much as
				// "scenario 2" does.
				break
			}
		}
	}
	return stated, stated != ""
}

// numberingWords say that the number after them is the one of the word before
// them: "Scenario number: 2", "Site No. 4".
var numberingWords = map[string]bool{"number": true, "no": true, "nr": true, "num": true}

// equalNumbers compares two numbers as written ("0.40" = "0.4", "1,500" =
// "1500").
func equalNumbers(a, b string) bool { return canonicalNumber(a) == canonicalNumber(b) }
