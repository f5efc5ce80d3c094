package generate

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// A question about a document itself (guard.Expectation.Imprint: "who
// wrote the pvwatts v5 manual", "which epa office published the guide",
// "task no. on the title page") is answered from the document's title
// pages and back page, which the pipeline adds (Request.Imprint): what
// they say of the document ("Aron P. Dobos" under the title, "Prepared
// under Task No. SS13.5030", "Office of Enforcement and Compliance
// Assurance … EPA305-F-03-007") is said nowhere else, and the body's words
// match such a question only by chance ("EPA plans to publish emission
// standards").

// imprintWords say what a question asks of a document rather than what it
// is about: they frame the question, and the body uses them in other
// senses. bylineWords ask who wrote it, which the names under the title
// say; imprint lines of every kind answer the others ("on the back page",
// "who put out", "doc no").
var (
	bylineWords  = analysis.TermSet("author authors authored wrote written write writer")
	imprintWords = analysis.TermSet("publisher published publish put prepared issued title cover back front page doc document report number no")
)

// imprintAsks sort what a question may ask of a document into kinds: who
// wrote it, who published it, a number it carries, when it came out. A
// question of two kinds ("the author + the contract no on the cover",
// "who put out the guide + the doc no on the back page") is answered by
// their lines together.
var imprintAsks = func() map[string]int {
	asks := map[string]int{}
	for kind, words := range map[int]string{bylineAsk: "author authors authored wrote written writer",
		publisherAsk: "publisher published put issued office", numberAsk: "number no doc contract task", dateAsk: "date year"} {
		for w := range analysis.TermSet(words) {
			asks[w] = kind
		}
	}
	return asks
}()

// readImprint sets what a question about a document itself wants: the
// author is a person ("who wrote", "authors of"); anything else (a number,
// an office, a date) is what the imprint line says, with or without a
// number. The imprint words frame the question, and so do the words of
// the titles of the documents whose imprint pages were read (titles):
// "Federal Environmental Requirements for Construction" names the guide,
// whose first page repeats it; "office" says what is asked of it. A question that asks only who
// wrote something and names no document by two words of its title is read
// as any other (all are the titles of the documents of every passage): a
// page says who wrote it.
func (q *question) readImprint(titles, all []string) {
	named := analysis.TermSet(strings.Join(titles, " "))
	kinds := map[int]bool{}
	for _, t := range q.terms {
		if k := imprintAsks[t.term]; k > 0 {
			kinds[k] = true
		}
	}
	if (q.words["who"] || q.words["whom"]) && !kinds[bylineAsk] {
		kinds[publisherAsk] = true
	}
	if q.words["when"] {
		// "when was it published" asks for a date, not a publisher.
		kinds[dateAsk] = true
		if !q.words["who"] {
			delete(kinds, publisherAsk)
		}
	}
	byline := slices.ContainsFunc(q.terms, func(t qterm) bool { return bylineWords[t.term] })
	if byline && len(kinds) == 1 && namedTitleWords(*q, analysis.TermSet(strings.Join(all, " "))) < minTitleWords {
		// "who wrote the heat balance model" names no document: a page
		// says who wrote the model; the question is read as any other.
		return
	}
	q.imprint, q.byline = true, byline
	for i, t := range q.terms {
		if bylineWords[t.term] || imprintWords[t.term] || named[t.term] && !t.code {
			q.terms[i].frame = true
		}
	}
	switch {
	case len(kinds) > 1:
		q.byline, q.complex, q.want = false, true, anyAnswer
	case q.byline || q.words["who"] || q.words["whom"]:
		q.want = personAnswer
	case q.want != dateAnswer:
		q.want = anyAnswer
	}
	q.mustNumber, q.counts = false, false
}

// minTitleWords is how many words of a document's title a question that
// asks who wrote it must say to name it.
const minTitleWords = 2

// namedTitleWords counts the question's words that are words of the titles
// of the documents asked about (named), besides what it asks of them.
func namedTitleWords(q question, named map[string]bool) int {
	n := 0
	for _, t := range q.terms {
		if named[t.term] && !t.code && !bylineWords[t.term] && !imprintWords[t.term] {
			n++
		}
	}
	return n
}

// imprintCredit reports whether an imprint word of the question is what a
// unit of an imprint page says: the names under the title are the author;
// a line with an identifier ("EPA305-F-03-007") is the number a "doc no"
// asks for; a line naming an office, agency or laboratory is the
// publisher, and a line with a year says when it was published; a title page's lines are on the cover, a back page's on the
// back; and any imprint line is what the document's pages carry. toks are
// the unit's tokens, read once by the caller.
func imprintCredit(q question, u unit, toks []analysis.Token, t qterm) bool {
	if !q.imprint || !u.imprint {
		return false
	}
	switch {
	case bylineWords[t.term]:
		return u.byline
	case pageWords[t.term]:
		return u.back == backTerms[t.term]
	case genericNumber[t.term]:
		return slices.ContainsFunc(toks, func(t analysis.Token) bool { return t.Kind == analysis.Identifier })
	case imprintAsks[t.term] == publisherAsk && q.words["when"]:
		// "when was it published": the line with the date.
		return slices.ContainsFunc(toks, func(t analysis.Token) bool { return t.Kind == analysis.Number && isYear(t.Text) })
	case imprintAsks[t.term] == publisherAsk:
		return slices.ContainsFunc(toks, func(t analysis.Token) bool { return bodyWords[t.Term] })
	}
	return imprintWords[t.term]
}

// genericNumber are the words that ask for a document's number without
// saying which ("doc no"); "task no." asks for the line that says "Task".
var genericNumber = analysis.TermSet("number no num doc document")

// The kinds of imprintAsks.
const (
	bylineAsk = iota + 1
	publisherAsk
	numberAsk
	dateAsk
)

// bodyWords name organisations that publish documents.
var bodyWords = analysis.TermSet("office agency laboratory department center centre institute administration program division bureau")

// pageWords say which imprint page a question means: the back page, or
// the title page ("title", "cover", "front").
var (
	pageWords = analysis.TermSet("back title cover front")
	backTerms = analysis.TermSet("back")
)

// imprintChunks returns the indexes of the chunks the request names as
// imprint pages, their documents' titles, and the titles of the documents
// of every chunk.
func imprintChunks(req Request) (at map[int]bool, titles, all []string) {
	at = map[int]bool{}
	for i, c := range req.Chunks {
		if !slices.Contains(all, c.Title) {
			all = append(all, c.Title)
		}
		if slices.Contains(req.Imprint, c.ID) {
			at[i] = true
			if !slices.Contains(titles, c.Title) {
				titles = append(titles, c.Title)
			}
		}
	}
	return at, titles, all
}

// readImprintPages marks what a document says of itself on its imprint
// pages, for a question about the document: the lines of its title page
// (readTitlePage) and the last lines of its back page. split holds each
// chunk's units.
func readImprintPages(split [][]unit, chunks []store.Chunk, imprint map[int]bool) {
	last := map[string]int{} // each document's last imprint chunk
	for i, c := range chunks {
		if !imprint[i] {
			continue
		}
		if j, ok := last[c.DocID]; !ok || c.Index > chunks[j].Index {
			last[c.DocID] = i
		}
		readTitlePage(split[i], c)
	}
	for _, i := range last {
		us := split[i]
		if chunks[i].Index == 0 || len(us) == 0 || us[len(us)-1].imprint || us[len(us)-1].title {
			continue
		}
		// The back page's last lines: "United States Environmental
		// Protection Agency Office of Enforcement and Compliance Assurance
		// … EPA305-F-03-007 www.epa.gov", the last unit and the short
		// unpunctuated lines right before it.
		us[len(us)-1].imprint, us[len(us)-1].back = true, true
		for k := len(us) - 2; k >= 0 && ImprintLine(us[k].text); k-- {
			us[k].imprint, us[k].back = true, true
		}
	}
}

// ImprintLine reports whether a line reads as an imprint's rather than
// prose: short, and not ending a sentence ("September 2014", "Version 4,
// August 3, 2023").
func ImprintLine(line string) bool {
	line = strings.TrimSpace(line)
	return line != "" && len(analysis.Tokens(line)) <= maxImprintTokens && !strings.ContainsAny(line[len(line)-1:], ".!?:")
}

// readTitlePage reads a title page: a chunk among a document's first two
// whose first line is the document's title. Each short line under the
// title is framed by it: "September 2014" and "Prepared under Task No.
// SS13.5030" say so of the "PVWatts Version 5 Manual". The line right
// under the title, when it is a name ("Aron P. Dobos"), refers to it: it
// answers who wrote the document, quoted with the title. The title itself
// answers nothing about the document; it is marked to be dropped. A
// paragraph on the page says what it says of itself.
func readTitlePage(units []unit, c store.Chunk) {
	if len(units) < 2 || c.Index > 1 || units[0].kind != kindSentence || !sameTitle(units[0].text, c.Title) {
		return
	}
	title := units[0].text
	units[0].title = true
	for i := 1; i < len(units); i++ {
		u := &units[i]
		if len(analysis.Tokens(u.text)) > maxImprintTokens {
			continue
		}
		u.imprint = true
		if u.before == "" {
			u.before = title
		}
		if i == 1 && u.kind == kindSentence && nameLine(u.text) {
			u.prev, u.byline = title, true
		}
	}
}

// sameTitle reports whether a line is a document's title, whatever its
// case and spacing.
func sameTitle(line, title string) bool {
	return title != "" && strings.EqualFold(strings.Join(strings.Fields(line), " "), strings.Join(strings.Fields(title), " "))
}

// maxImprintTokens bounds the tokens of a title page's line that the title
// frames: "Prepared under Task No. SS13.5030", not a paragraph.
const maxImprintTokens = 12

// maxNameWords bounds the words of a line of authors.
const maxNameWords = 12

// nameLine reports whether a line is only names: capitalised words and
// initials ("Aron P. Dobos", "C. Deline, B. Marion and J. Smith"), two
// words at least, no number and no sentence.
func nameLine(line string) bool {
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' })
	if len(words) < 2 || len(words) > maxNameWords {
		return false
	}
	names := 0
	for _, w := range words {
		r := []rune(w)
		switch {
		case w == "and" || w == "&":
		case len(r) == 2 && unicode.IsUpper(r[0]) && r[1] == '.':
			// An initial.
		case unicode.IsUpper(r[0]) && !strings.ContainsFunc(string(r[1:]), func(r rune) bool { return !unicode.IsLower(r) && r != '-' && r != '\'' }):
			names++
		default:
			return false
		}
	}
	return names >= 1
}

// keepImprint keeps, for a question about a document itself, the lines
// its imprint pages say of it when any is a candidate. Who wrote a
// document is said by the names under its title and nothing else: a
// document without them does not say.
func keepImprint(q question, cands []candidate) []candidate {
	switch {
	case !q.imprint:
		return cands
	case q.byline:
		return slices.DeleteFunc(cands, func(c candidate) bool { return !c.byline })
	case slices.ContainsFunc(cands, func(c candidate) bool { return c.imprint }):
		return slices.DeleteFunc(cands, func(c candidate) bool { return !c.imprint })
	}
	return cands
}
