package pipeline

import (
	"context"
	"slices"

	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/store"
)

// maxTableHeads is how many chunks a question's passages may have read for
// their tables' headers.
const maxTableHeads = 4

// tableHeads returns, for the chunks that open with rows of a table cut
// from its header by a page or chunk break (generate.OpensWithRows), the
// chunk before each, which ends with the header, when it is not among the
// chunks already: "6 | A5 | 0.4 | 0.2 | 1.5 m | 1-Up portrait | 10% grade*
// down to the SW" at the top of page 2 is read under "Scenario number |
// Scenario name | GCR* | Albedo | Hub Height | …" from page 1, so the
// reader knows 1.5 m is the hub height and no row pitch. The chunks are
// read for the header alone (generate.Request.Before), never cited. A store
// that cannot read chunks by id (store.ChunkReader), or fails to, adds
// nothing: the rows are read without their header, as before.
func (r *run) tableHeads(ctx context.Context, tenant string, chunks []store.Chunk) []store.Chunk {
	reader, ok := r.p.cfg.Searcher.(store.ChunkReader)
	if !ok {
		return nil
	}
	var ids []string
	for _, c := range chunks {
		if len(ids) == maxTableHeads {
			break
		}
		if c.Index == 0 || !generate.OpensWithRows(c) {
			continue // the first chunk of a document has none before it
		}
		id := store.ChunkID(c.DocID, c.Revision, c.Index-1)
		held := slices.ContainsFunc(chunks, func(o store.Chunk) bool { return o.ID == id })
		if !held && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	out, err := reader.Chunks(ctx, tenant, ids)
	if err != nil {
		r.p.cfg.Logger.Warn("table headers could not be read", "answer_id", r.ans.ID, "err", err)
		return nil
	}
	return out
}
