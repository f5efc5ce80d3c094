package pipeline

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/register"
)

// maxImprintLines is how many lines of a document's first chunk are read
// for the line that gives its own version or date.
const maxImprintLines = 12

// versionLine opens a line that names the document's version: "Version 4,
// August 3, 2023", "Rev. C", "Issue 2".
var versionLine = regexp.MustCompile(`(?i)^(?:version|rev\.?|revision|issue|edition)\s+[0-9a-z]`)

// datedLine finds a month and year, with or without a day: "September
// 2014", "August 3, 2023".
var datedLine = regexp.MustCompile(`(?i)\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+(?:\d{1,2},\s*)?(?:19|20)\d\d\b`)

// titlePageLine returns the line near the start of a paged document that
// states the document's own version or date, as its title page prints it,
// with the chunk it is in. The register records what the document control
// says; the page says what the copy indexed says, often more precisely
// ("2023-08" in the register, "Version 4, August 3, 2023" on the page). A
// document without such a line, a spreadsheet, a withdrawn document or a
// store that cannot read chunks by id gives none.
func (r *run) titlePageLine(ctx context.Context, tenant string, e register.Entry) (string, store.Chunk, bool) {
	reader, ok := r.p.cfg.Searcher.(store.ChunkReader)
	if !ok || !e.Active || e.Pages == 0 || e.Chunks == 0 {
		return "", store.Chunk{}, false
	}
	chunks, err := reader.Chunks(ctx, tenant, []string{store.ChunkID(e.DocID, e.Revision, 0)})
	if err != nil || len(chunks) == 0 {
		if err != nil {
			r.p.cfg.Logger.Warn("title page could not be read", "answer_id", r.ans.ID, "doc_id", e.DocID, "err", err)
		}
		return "", store.Chunk{}, false
	}
	n := 0
	for line := range strings.Lines(chunks[0].Text) {
		if n++; n > maxImprintLines {
			break
		}
		// A version or date line reads as an imprint's, not as a sentence
		// that mentions a date.
		line = strings.TrimSpace(line)
		if generate.ImprintLine(line) && (versionLine.MatchString(line) || datedLine.MatchString(line)) {
			return line, chunks[0], true
		}
	}
	return "", store.Chunk{}, false
}

// withTitlePage adds to a one-document status answer what the document's
// title page says of its version or date, cited to that page.
func (r *run) withTitlePage(ctx context.Context, tenant string, e register.Entry) {
	line, ch, ok := r.titlePageLine(ctx, tenant, e)
	if !ok {
		return
	}
	src := SourceFromHit(store.Hit{Chunk: ch})
	src.Snippet = line
	if src.DriveLink == "" {
		src.DriveLink = e.DriveLink
	}
	r.ans.Sources = append(r.ans.Sources, src)
	r.ans.Confidence.Reason += "; the document's first page quoted"
	r.ans.Answer += fmt.Sprintf("\nThe document's first page reads “%s”. [S%d]", line, len(r.ans.Sources))
}
