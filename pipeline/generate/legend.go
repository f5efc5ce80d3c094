package generate

import (
	"strings"

	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/store/analysis"
)

// A spreadsheet may come with a legend sheet that says, row by row, what
// each of its columns stands for. When such rows are retrieved with a data
// row, a question may name a column by the legend's words rather than by
// the column's name (see legendFields).

// Legend fields: the names a legend sheet gives its column names and their
// descriptions ("Heading: a; Description: Coefficient relating module
// temperature to …").
var (
	legendNameFields = map[string]bool{"heading": true, "column": true, "field": true, "parameter": true, "symbol": true}
	legendDescFields = map[string]bool{"description": true, "definition": true, "meaning": true}
)

// sheetLegends returns, by document and then by column name (folded by
// legendKey), what a legend sheet among the passages says each column of
// the document's spreadsheets stands for: a record whose fields are a
// column's name and its description.
func sheetLegends(units []unit) map[string]map[string]string {
	var out map[string]map[string]string
	for _, u := range units {
		if u.kind != kindRecord || len(u.fields) < 2 {
			continue
		}
		var name, desc string
		for _, f := range u.fields {
			k, v, ok := strings.Cut(f, ":")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
			switch {
			case !ok || v == "":
			case legendNameFields[k] && name == "":
				name = v
			case legendDescFields[k] && desc == "":
				desc = v
			}
		}
		if name == "" || desc == "" {
			continue
		}
		if out == nil {
			out = map[string]map[string]string{}
		}
		if out[u.docID] == nil {
			out[u.docID] = map[string]string{}
		}
		out[u.docID][legendKey(name)] = desc
	}
	return out
}

// legendKey folds a column name as a legend and its sheet may write it
// apart: without its bracketed unit, the Greek letter of a coefficient in
// Latin as the analyser spells it ("βVoco" is "BVoco"), and without
// separators ("Series_Cells" is "Series Cells").
func legendKey(name string) string {
	var b strings.Builder
	for _, t := range analysis.Tokens(bareName(name)) {
		b.WriteString(t.Text)
	}
	return guard.Compact(b.String())
}

// fieldLegend returns what a legend says the column of a record's field
// stands for: by the column's whole name, else by its last word ("Module
// Area [m^2]" is the legend's "Area"); "" when it says nothing of it.
func fieldLegend(legend map[string]string, field string) string {
	name, _, _ := strings.Cut(field, ":")
	if d, ok := legend[legendKey(name)]; ok {
		return d
	}
	words := strings.Fields(bareName(name))
	if len(words) < 2 {
		return ""
	}
	return legend[legendKey(words[len(words)-1])]
}

// Legend matching: a column is named by its legend when the question holds
// at least minLegendTerms of the legend's words that the row does not, and
// they weigh at least legendShare of all such words of the question (that
// some passage holds).
const (
	minLegendTerms = 3
	legendShare    = 0.5
)

// legendFields returns the fields of a record that a question names by
// their legend (see sheetLegends) rather than by their names, and the
// question terms that name them: "the two coefficients that tie module
// temp to wind speed, irradiance and ambient" are a and b, whose legend is
// "Coefficient relating module temperature to wind speed, irradiance,
// ambient temperature". Only the words the row does not hold count
// (matched is the credit the row gives each term); the fields whose legend
// holds most of them answer, all of them when they share one legend ("C0"
// and "C1"), none when two legends hold as much.
func legendFields(q question, fields []string, legend map[string]string, matched []float64) ([]string, []int) {
	open := func(i int) bool {
		t := q.terms[i]
		return matched[i] == 0 && !t.code && !t.exact && !t.frame && !t.unseen && !analysis.IsStopword(t.term)
	}
	// rest is the weight of the question's words the row does not hold
	// and another passage does: a word none holds ("tie") is no legend's.
	var rest float64
	for i, t := range q.terms {
		if open(i) {
			rest += t.weight
		}
	}
	var (
		best    float64
		bestOf  string
		out     []string
		covered []int
		tied    bool
	)
	for _, f := range fields {
		name, _, _ := strings.Cut(f, ":")
		desc := fieldLegend(legend, f)
		if desc == "" || q.excluded[strings.ToLower(strings.TrimSpace(name))] {
			// "the dimensionless one, not c3": C3 shares C2's legend
			// but for its unit, and is set aside.
			continue
		}
		terms := analysis.TermSet(desc)
		var w float64
		var in []int
		for i, t := range q.terms {
			if open(i) && terms[t.term] {
				w += t.weight
				in = append(in, i)
			}
		}
		switch {
		case len(in) < minLegendTerms || w < legendShare*rest || w < best:
		case w > best:
			best, bestOf, out, covered, tied = w, desc, []string{f}, in, false
		case desc == bestOf:
			out = append(out, f)
		default:
			tied = true
		}
	}
	if tied {
		return nil, nil
	}
	return out, covered
}
