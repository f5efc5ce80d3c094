package pipeline

import (
	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/store"
)

// snippetRunes bounds a source's quote in the contract.
const snippetRunes = 300

// SourceFromHit converts a search hit to a Source with a short snippet.
func SourceFromHit(h store.Hit) answer.Source {
	c := h.Chunk
	return answer.Source{
		ChunkID:   c.ID,
		DocID:     c.DocID,
		DocName:   answer.DocName(c.DocNumber, c.Title),
		Revision:  c.Revision,
		Page:      c.Page,
		Section:   c.Section,
		Sheet:     c.Sheet,
		Row:       c.Row,
		DriveLink: c.DriveLink,
		Snippet:   answer.Snippet(c.Text, snippetRunes),
		Score:     round3(h.Score),
		DocNumber: c.DocNumber,
		Title:     c.Title,
		Text:      c.Text,
	}
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}
