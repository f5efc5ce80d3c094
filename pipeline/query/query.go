// Package query reads a question once into what every later stage needs:
// the question as the reader and the guards should see it (stray ticket
// numbers and pointers removed, shorthand spelled out, misspellings
// corrected against the index's own vocabulary), the text keyword retrieval
// searches (with abbreviations expanded), and what kind of answer is wanted
// (a length, a percentage, an angle…) together with the contrasting
// qualifiers it names (AC rather than DC, premium rather than standard).
package query

import (
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// Analysis is a question read once.
type Analysis struct {
	// Question is the question as validated.
	Question string
	// Text is what the ranker, the reader and the guards read: Question
	// without stray references, with shorthand spelled out and spelling
	// corrected. It equals Question when nothing was changed.
	Text string
	// Search is what keyword retrieval searches: Subject and the
	// expansions.
	Search string
	// Subject is what passages are ranked by: Text, but for a question
	// about a document itself (Expect.Imprint) only the words that say
	// which document ("who wrote the pvwatts v5 manual" ranks by "pvwatts
	// v5 manual"). What is asked of it is said on pages search would not
	// rank, which the pipeline reads. A question that asks what an
	// abbreviation stands for is ranked without the words that ask it
	// (Expect.Expands: "cercla full name" ranks by "cercla").
	Subject string
	// Corrections are the words replaced, shorthand and misspellings.
	Corrections []Correction
	// Stray are the references removed ("#3", "(see table 6)").
	Stray []string
	// Expansions are spellings of the question's abbreviations (and
	// abbreviations of its spelled-out terms) that retrieval adds.
	Expansions []string
	// Expect is what kind of answer the question wants.
	Expect guard.Expectation
}

// Input is what Analyse reads besides the question.
type Input struct {
	// Technical is set when the classifier placed the question among
	// technical values (an answer needs a number).
	Technical bool
	// Expansions are the abbreviation spellings the classifier found.
	Expansions []string
	// Speller corrects misspellings; nil leaves spelling alone.
	Speller *Speller
}

// Analyse reads a validated question.
func Analyse(question string, in Input) Analysis {
	a := Analysis{Question: question, Expansions: in.Expansions}
	var model func(string) bool
	if in.Speller != nil {
		model = in.Speller.KnowsCode
	}
	text, settled := joinLines(question)
	text, courtesy := removeCourtesy(unshouted(unmarked(withoutListMarkers(text))))
	courtesy = append(settled, courtesy...)
	if t, scope := removeScope(text); len(scope) > 0 {
		// What the scope phrase held in ("according to the docs, can you
		// tell me …") is courtesy too.
		t, more := removeCourtesy(t)
		text, courtesy = t, append(append(courtesy, scope...), more...)
	}
	text, stray := removeStray(text, model)
	if strings.TrimSpace(text) == "" {
		// Nothing but a reference: keep the question as asked.
		text, stray = question, nil
	}
	a.Stray = append(courtesy, stray...)
	var known func(string) bool
	if in.Speller != nil {
		known = in.Speller.Knows
	}
	text, volts := spellVolts(text)
	text, short := expandShorthand(text, known)
	text, versions := shortVersions(text)
	short = append(short, versions...)
	short = append(volts, short...)
	text, sides := spellSides(text)
	short = append(short, sides...)
	text, codes := respellCodes(text, in.Speller)
	short = append(short, codes...)
	for _, c := range codes {
		if strings.Contains(c.From, " ") {
			// "pvi 15" is the CEC list's "PVI15kW" and the Sandia
			// list's "PVI 15 kW": retrieval looks for both spellings.
			a.Expansions = append(slices.Clip(a.Expansions), c.From)
		}
	}
	// "kyocera pv 110" stays spaced when the index writes "pv" as a word
	// more often than the model number "PV110" (see spacedCode); the
	// number is searched whole too.
	a.Expansions = append(slices.Clip(a.Expansions), spacedIndexCodes(text, in.Speller)...)
	text, fixed := correct(text, in.Speller, isShorthand)
	asTyped := text // before the glossary names columns
	text, named := nameColumns(text)
	a.Corrections = append(append(short, fixed...), named...)
	a.Text = text
	a.Expect = expectation(text, in.Technical)
	a.Expect.Names = properNames(text)
	// Only a quantity the asker named: a column the glossary put in
	// ("night tare" is Pnt) is named by the words it replaced.
	a.Expect.Unnamed = unnamedKind(asTyped, a.Expect.Cues, in.Speller)
	if a.Expect.Imprint && slices.ContainsFunc(stray, func(s string) bool { return citesWork(analysis.Tokens(s)) }) {
		// "michalsky paper (ref 6) - what yr was it published": the
		// reference set aside still says the work is one the document
		// cites.
		a.Expect.Imprint = false
	}

	a.Subject = text
	switch {
	case a.Expect.Imprint:
		a.Subject = withoutWords(text, imprintWords)
	case len(a.Expect.Expands) > 0:
		a.Subject = withoutWords(text, expansionWords)
	}
	search := []string{a.Subject}
	for _, e := range a.Expansions {
		search = append(search, e)
	}
	a.Search = strings.Join(search, " ")
	return a
}
