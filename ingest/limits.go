package ingest

import (
	"context"
	"errors"
	"fmt"
)

// ErrLimit: a file would cost more memory or time to read than ingestion
// allows (Limits); it is skipped with the limit it crossed.
var ErrLimit = errors.New("over an ingest limit")

// DefaultMaxIngestMB is the memory one file may take to ingest, from which
// Limits are derived (CEW_MAX_INGEST_MB).
const DefaultMaxIngestMB = 512

// Limits bound what reading one file may cost, so a zip bomb, a 50 MB CSV
// line or a million-row sheet is refused with a reason instead of taking
// gigabytes. They are derived from a memory budget (LimitsFor) and checked
// as the file is read, before the text is kept.
type Limits struct {
	// MaxText is the extracted text one file may yield, in bytes.
	MaxText int64
	// MaxBlocks is how many rows, paragraphs or page sections one file may
	// yield (each becomes at least one chunk).
	MaxBlocks int
	// MaxColumns is how many cells one spreadsheet row may have (Excel's
	// own limit is 16,384).
	MaxColumns int
	// MaxCells is how many spreadsheet cells (filled or not) one file may
	// have read.
	MaxCells int64
	// MaxLine is the longest line of a CSV or text file, in bytes.
	MaxLine int
	// MaxPages is how many pages of a PDF are read.
	MaxPages int
	// MaxPDFWords is how many words a PDF's pages may hold (their layout is
	// kept until the document-level pass).
	MaxPDFWords int
	// MaxExpand is how much a DOCX or XLSX package may expand to when
	// unzipped, in bytes (a zip bomb's ratio is in the thousands).
	MaxExpand int64
}

// LimitsFor derives the limits from a memory budget in MB, with the
// margins measured by BenchmarkIngestMemory (cmd/cew): a row or paragraph
// costs about 3.5 KB of peak memory by the time its chunk is analysed and
// written, whatever its size; a CSV line of n bytes about 40 times n as
// fields.
func LimitsFor(budgetMB int) Limits {
	if budgetMB <= 0 {
		budgetMB = DefaultMaxIngestMB
	}
	mb := int64(budgetMB) << 20
	return Limits{
		MaxText:     mb / 8,
		MaxBlocks:   budgetMB * 100,
		MaxColumns:  16_384,
		MaxCells:    int64(budgetMB) * 4096,
		MaxLine:     int(max(mb/512, 64<<10)),
		MaxPages:    budgetMB * 8,
		MaxPDFWords: budgetMB * 2000,
		MaxExpand:   mb / 4,
	}
}

// budget counts what one file has yielded against its Limits. A nil
// budget counts nothing (parsers called outside an Ingester).
type budget struct {
	lim    Limits
	text   int64
	blocks int
	cells  int64
}

type budgetKey struct{}

// withBudget gives the parsers under ctx a fresh budget for one file.
func withBudget(ctx context.Context, lim Limits) context.Context {
	return context.WithValue(ctx, budgetKey{}, &budget{lim: lim})
}

func budgetFrom(ctx context.Context) *budget {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	return b
}

// block accounts for one block of text about to be kept.
func (b *budget) block(text string) error {
	if b == nil {
		return nil
	}
	b.text += int64(len(text))
	b.blocks++
	switch {
	case b.lim.MaxText > 0 && b.text > b.lim.MaxText:
		return fmt.Errorf("%w: more than %s of text (CEW_MAX_INGEST_MB)", ErrLimit, byteSize(b.lim.MaxText))
	case b.lim.MaxBlocks > 0 && b.blocks > b.lim.MaxBlocks:
		return fmt.Errorf("%w: more than %s rows or paragraphs (CEW_MAX_INGEST_MB)", ErrLimit, withCommas(int64(b.lim.MaxBlocks)))
	}
	return nil
}

// row accounts for a spreadsheet row of cols cells.
func (b *budget) row(num, cols int) error {
	if b == nil {
		return nil
	}
	b.cells += int64(cols)
	switch {
	case b.lim.MaxColumns > 0 && cols > b.lim.MaxColumns:
		return fmt.Errorf("%w: row %d has %s columns, the limit is %s", ErrLimit, num, withCommas(int64(cols)), withCommas(int64(b.lim.MaxColumns)))
	case b.lim.MaxCells > 0 && b.cells > b.lim.MaxCells:
		return fmt.Errorf("%w: more than %s cells (CEW_MAX_INGEST_MB)", ErrLimit, withCommas(b.lim.MaxCells))
	}
	return nil
}

// withCommas formats 25000000 as "25,000,000".
func withCommas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
