package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/cewhq/cew/store"
)

// ChunkOptions sizes chunks in words. Chunks never cross a Block, so they
// never span two pages, two sections or two spreadsheet rows; within a block
// they are packed to about TargetWords, never more than MaxWords (unless a
// single sentence is longer), and consecutive chunks of one block share up to
// OverlapWords trailing words so a fact that straddles the cut stays whole in
// one of them.
type ChunkOptions struct {
	TargetWords  int
	MaxWords     int
	OverlapWords int
	// MaxBytes is a hard bound on a chunk's text whatever its words: text
	// without spaces (a 50 MB cell) is cut between characters. 0 means
	// DefaultMaxChunkBytes.
	MaxBytes int
}

// DefaultMaxChunkBytes bounds a chunk's text: 400 words of a table row
// with long values fit, a run of text without spaces is cut.
const DefaultMaxChunkBytes = 16 << 10

// DefaultChunkOptions keeps chunks in the 150–400 word band that retrieval
// and citation work best with: small enough that a citation points at one
// passage, large enough to carry a table with its caption.
var DefaultChunkOptions = ChunkOptions{TargetWords: 250, MaxWords: 400, OverlapWords: 40}

// unit is an indivisible piece of a block: a line (a table row stays whole)
// or, for long lines, a sentence.
type unit struct {
	text  string
	words int
	// header is the header line of the table a row belongs to ("Location
	// | Fixed | 1 Axis | …"); "" for the header itself and for prose.
	header string
}

// Chunk cuts a document's parsed blocks into store chunks carrying every
// citation field of the document.
func Chunk(doc store.Document, blocks []Block, opts ChunkOptions) []store.Chunk {
	if opts.MaxWords <= 0 {
		opts = DefaultChunkOptions
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxChunkBytes
	}
	var out []store.Chunk
	for _, b := range blocks {
		for _, text := range packUnits(capUnits(splitUnits(b.Text, opts.MaxWords), opts.MaxBytes), opts) {
			out = append(out, store.Chunk{
				ID:          store.ChunkID(doc.ID, doc.Revision, len(out)),
				Tenant:      doc.Tenant,
				DocID:       doc.ID,
				DocNumber:   doc.Number,
				Title:       doc.Title,
				Revision:    doc.Revision,
				Page:        b.Page,
				Section:     b.Section,
				Sheet:       b.Sheet,
				Row:         b.Row,
				DriveLink:   doc.DriveLink,
				ContentHash: hashText(text),
				Index:       len(out),
				Text:        text,
			})
		}
	}
	return out
}

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// tableCellSep joins the cells of a table row rebuilt from a PDF, a DOCX
// or a headerless spreadsheet ("Soiling | 2% | 0.95"); the chunker finds a
// table's rows by it.
const tableCellSep = " | "

// splitUnits breaks a block into lines, and lines longer than maxWords into
// sentences, and sentences longer than maxWords into word runs. A table row
// keeps the header line of its table: the first row of a run of rows, or
// of a row after prose whose number of cells differs from the table before
// (a row with as many cells continues it, past a wrapped cell, unless a
// "Table N" caption came between).
func splitUnits(text string, maxWords int) []unit {
	var (
		units  []unit
		header string
		inRows bool
	)
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		n := wordCount(line)
		if strings.Contains(line, tableCellSep) && n <= maxWords {
			u := unit{text: line, words: n}
			switch {
			case !inRows && (header == "" || cells(line) != cells(header)):
				header = line
			case line != header:
				u.header = header
			}
			inRows = true
			units = append(units, u)
			continue
		}
		inRows = false
		if isCaption(line) {
			header = "" // "Table 9. …": another table follows
		}
		if n <= maxWords {
			units = append(units, unit{text: line, words: n})
			continue
		}
		for _, s := range splitSentences(line) {
			if w := wordCount(s); w <= maxWords {
				units = append(units, unit{text: s, words: w})
				continue
			}
			words := strings.Fields(s)
			for len(words) > 0 {
				k := min(maxWords, len(words))
				units = append(units, unit{text: strings.Join(words[:k], " "), words: k})
				words = words[k:]
			}
		}
	}
	return units
}

// isCaption reports whether a line opens with "Table" and a number.
func isCaption(line string) bool {
	rest, ok := strings.CutPrefix(line, "Table ")
	return ok && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

func cells(row string) int { return strings.Count(row, tableCellSep) + 1 }

// withHeader puts a table's header line before a chunk that starts inside
// the table without it, so each chunk of a long table says what its
// columns are.
func withHeader(us []unit) []unit {
	h := us[0].header
	if h == "" {
		return us
	}
	for _, u := range us {
		if u.text == h {
			return us
		}
	}
	return append([]unit{{text: h, words: wordCount(h)}}, us...)
}

// packUnits greedily fills chunks up to the target, then starts the next one
// with the trailing units of the previous chunk that fit in the overlap.
func packUnits(units []unit, opts ChunkOptions) []string {
	var (
		chunks []string
		cur    []unit
		words  int
		fresh  int // units in cur that no earlier chunk holds
	)
	flush := func() {
		if fresh == 0 {
			return
		}
		chunks = append(chunks, joinUnits(withHeader(cur)))
		// Carry the tail into the next chunk as overlap, never the whole
		// chunk (that would repeat it).
		var keep []unit
		kept := 0
		for i := len(cur) - 1; i > 0; i-- {
			if kept+cur[i].words > opts.OverlapWords {
				break
			}
			kept += cur[i].words
			keep = append([]unit{cur[i]}, keep...)
		}
		cur, words, fresh = keep, kept, 0
	}
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxChunkBytes
	}
	bytesOf := func(us []unit) int {
		n := 0
		for _, u := range us {
			n += len(u.text) + 1
		}
		return n
	}
	for _, u := range units {
		over := func() bool { return words+u.words > opts.MaxWords || bytesOf(cur)+len(u.text) > maxBytes }
		if over() || (words >= opts.TargetWords && fresh > 0) {
			flush()
			if over() {
				cur, words = nil, 0
			}
		}
		cur = append(cur, u)
		words += u.words
		fresh++
	}
	flush()
	return chunks
}

// capUnits cuts units longer than maxBytes: between words where there
// are words, else between characters.
func capUnits(units []unit, maxBytes int) []unit {
	var out []unit
	for _, u := range units {
		if len(u.text) <= maxBytes {
			out = append(out, u)
			continue
		}
		var cur []string
		size := 0
		emit := func() {
			if len(cur) > 0 {
				out = append(out, unit{text: strings.Join(cur, " "), words: len(cur)})
				cur, size = nil, 0
			}
		}
		for _, w := range strings.Fields(u.text) {
			for len(w) > maxBytes {
				emit()
				cut := maxBytes
				for cut > 0 && !utf8.RuneStart(w[cut]) {
					cut--
				}
				if cut == 0 {
					cut = maxBytes
				}
				out = append(out, unit{text: w[:cut], words: 1})
				w = w[cut:]
			}
			if size+len(w)+1 > maxBytes {
				emit()
			}
			cur = append(cur, w)
			size += len(w) + 1
		}
		emit()
	}
	return out
}

func joinUnits(us []unit) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = u.text
	}
	return strings.Join(parts, "\n")
}

func wordCount(s string) int { return len(strings.Fields(s)) }

// splitSentences cuts at ". ", "? " and "! " followed by an upper-case letter
// or digit, which keeps decimals ("0.35"), abbreviations before lower-case
// words ("approx. 5") and identifiers intact.
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(s); i++ {
		c := s[i]
		if (c == '.' || c == '?' || c == '!') && s[i+1] == ' ' {
			next := s[i+2]
			if (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9') || next == '(' || next == '"' {
				out = append(out, strings.TrimSpace(s[start:i+1]))
				start = i + 2
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
