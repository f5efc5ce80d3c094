package query

import (
	"strings"
	"unicode"

	"github.com/cewhq/cew/store/analysis"
)

// Spreadsheets of equipment name their columns by the parameter symbols of
// the PV models (Sandia, CEC/SAM): an engineer asks for the "max ac power"
// of an inverter, the sheet says "Paco". When a question names a model (a
// lookup in such a sheet), the parameter's description is replaced by its
// column name, so retrieval, the guards and the reader look for the column.
// Outside a model lookup the words stay: prose documents say "AC power"
// meaning something else.

// glossary maps descriptions to column names; longer descriptions are
// tried first.
var glossary = func() []glossaryEntry {
	spec := map[string][]string{
		"Paco": {"max ac power", "maximum ac power", "rated ac power", "ac power rating", "ac rating",
			"max ac output", "maximum ac output", "ac output power", "nameplate ac power"},
		"Pdco": {"max dc power", "maximum dc power", "dc power rating", "dc input power", "rated dc power"},
		"Vdco": {"nominal dc voltage", "rated dc voltage", "dc voltage at rated power"},
		"Pso":  {"self consumption", "self-consumption", "start-up power", "startup power", "power to start"},
		"Pnt":  {"night tare", "night-time tare", "nighttime loss", "night consumption", "tare loss"},
		"Vdcmax": {"max dc voltage", "maximum dc voltage", "max input voltage", "maximum input voltage",
			"max dc input voltage"},
		"Idcmax": {"max dc current", "maximum dc current", "max input current", "maximum input current",
			"max dc input current"},
		"Vac":          {"ac voltage", "grid voltage", "output voltage"},
		"Isco":         {"short circuit current", "short-circuit current"},
		"Voco":         {"open circuit voltage", "open-circuit voltage"},
		"Impo":         {"max power current", "maximum power current", "current at max power", "current at mpp"},
		"Vmpo":         {"max power voltage", "maximum power voltage", "voltage at max power", "voltage at mpp"},
		"aIsc":         {"temperature coefficient of isc", "isc temperature coefficient", "alpha isc", "temp coefficient of isc"},
		"aImp":         {"temperature coefficient of imp", "imp temperature coefficient", "alpha imp"},
		"BVoco":        {"temperature coefficient of voc", "voc temperature coefficient", "beta voc", "temp coefficient of voc"},
		"BVmpo":        {"temperature coefficient of vmp", "vmp temperature coefficient", "beta vmp", "temp coefficient of vmp"},
		"Series Cells": {"cells in series", "number of cells", "cell count"},
		"Module Area":  {"module area", "panel area"},
	}
	var out []glossaryEntry
	for column, phrases := range spec {
		for _, p := range phrases {
			var terms []string
			for _, t := range analysis.Tokens(p) {
				terms = append(terms, t.Term)
			}
			out = append(out, glossaryEntry{terms: terms, column: column})
		}
	}
	// Longest first; ties by column and phrase so the order is fixed.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && longer(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}()

type glossaryEntry struct {
	terms  []string
	column string
}

func longer(a, b glossaryEntry) bool {
	if len(a.terms) != len(b.terms) {
		return len(a.terms) > len(b.terms)
	}
	if a.column != b.column {
		return a.column < b.column
	}
	return strings.Join(a.terms, " ") < strings.Join(b.terms, " ")
}

// nameColumns replaces parameter descriptions by column names when text
// names a model, and returns the new text with the replacements.
func nameColumns(text string) (string, []Correction) {
	toks := analysis.Tokens(text)
	if !namesModel(toks) {
		return text, nil
	}
	var b strings.Builder
	var out []Correction
	last := 0
	for i := 0; i < len(toks); i++ {
		for _, g := range glossary {
			if !matchCue(toks[i:], g.terms) {
				continue
			}
			end := toks[i+len(g.terms)-1].End
			b.WriteString(text[last:toks[i].Start])
			b.WriteString(g.column)
			out = append(out, Correction{From: text[toks[i].Start:end], To: g.column})
			last = end
			i += len(g.terms) - 1
			break
		}
	}
	if out == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), out
}

// namesModel reports whether a question names a model or part number: an
// identifier of five or more letters and digits, with both.
func namesModel(toks []analysis.Token) bool {
	for _, t := range toks {
		if t.Kind != analysis.Identifier {
			continue
		}
		letters, digits := 0, 0
		for _, r := range t.Text {
			switch {
			case unicode.IsLetter(r):
				letters++
			case unicode.IsDigit(r):
				digits++
			}
		}
		if letters >= 2 && digits >= 1 && letters+digits >= 5 {
			return true
		}
	}
	return false
}
