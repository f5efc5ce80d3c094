// Package ingest turns project files — PDF, XLSX, CSV, DOCX, Markdown and
// plain text — into citable chunks, identifies each file as a revision of a
// registered document, and writes new revisions to the store.
package ingest

import (
	"errors"
)

// Reasons a file is skipped. Each is wrapped with the file-specific detail;
// check with errors.Is.
var (
	ErrUnsupported = errors.New("unsupported file type")
	ErrEmptyFile   = errors.New("file is empty")
	ErrTooLarge    = errors.New("file is larger than the size limit")
	ErrEncrypted   = errors.New("file is encrypted or password-protected")
	ErrCorrupt     = errors.New("file is corrupt or unreadable")
	ErrNoText      = errors.New("no extractable text")
	ErrDuplicate   = errors.New("document number and revision already claimed by another file")
)

// Reasons a file is ignored (Outcome Ignored): not a project document.
var (
	ErrNotInRegister = errors.New("not in the register")
	ErrIgnoredByRule = errors.New("excluded by a .cewignore pattern")
	ErrStrayFile     = errors.New("a licence, read-me or provenance file, not a project document")
)

// Block is a run of extracted text at one location of a file. Parsers never
// put text from two pages, two sections or two spreadsheet rows in one Block,
// so the chunker can respect those boundaries.
type Block struct {
	// Page is 1-based, the number a PDF viewer shows; 0 for unpaged formats.
	Page int
	// Section is the nearest heading above the text ("4 Solar Resource",
	// "Table 2. Input Parameters"), or "" before the first heading.
	Section string
	// Sheet and Row locate a spreadsheet row; Row is the 1-based number a
	// spreadsheet program shows (header row = 1).
	Sheet string
	Row   int
	// Text is normalised: NFKC (ligatures unfolded), soft hyphens and control
	// characters removed, whitespace collapsed within lines; line breaks kept
	// where they separate table rows or paragraphs.
	Text string
}

// Parsed is everything a parser extracted from one file.
type Parsed struct {
	Blocks []Block
	// Pages is the physical page count (PDF) or 0.
	Pages int
	// Unreadable lists the pages (1-based) that could not be parsed or
	// yielded no text; the file was only partly read when it is not empty
	// while Blocks is not.
	Unreadable []int
	// Rows is the number of spreadsheet data rows turned into blocks, or 0.
	Rows int
}
