package pipeline

import (
	"context"
	"slices"

	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
)

// maxImprintDocuments is how many documents' imprint pages a question
// about a document itself may add.
const maxImprintDocuments = 2

// withImprint adds to the ranked chunks, for a question about a document
// itself (query.Analysis.Expect.Imprint: who wrote or published it, its
// publication or task number), the document's first two chunks and its
// last: the title page, the page after it (a report's "Prepared under Task
// No." and contract) and the back page (a leaflet's publisher and
// publication number). Search seldom ranks them, for they share their
// words with every page of the document. The documents are those of the
// best-ranked passages that come from paged documents (a spreadsheet has no
// title page), at most maxImprintDocuments of them, and the chunks come
// after the ranked ones. It returns the chunks and the ids of the imprint
// pages among them, for the reader. A store that cannot read chunks by id
// (store.ChunkReader), or fails to, adds nothing.
func (r *run) withImprint(ctx context.Context, tenant string, qa query.Analysis, ranked []store.Hit) ([]store.Hit, []string) {
	reader, ok := r.p.cfg.Searcher.(store.ChunkReader)
	if !qa.Expect.Imprint || !ok || len(ranked) == 0 {
		return ranked, nil
	}
	docs, err := r.p.cfg.Catalog.Documents(ctx, tenant)
	if err != nil {
		r.p.cfg.Logger.Warn("document list failed; no imprint pages read", "answer_id", r.ans.ID, "err", err)
		return ranked, nil
	}
	var ids, imprint []string
	seen := map[string]bool{}
	for _, h := range ranked {
		if len(seen) == maxImprintDocuments {
			break
		}
		key := h.Chunk.DocID + "/" + h.Chunk.Revision
		if seen[key] {
			continue
		}
		i := slices.IndexFunc(docs, func(d store.Document) bool {
			return d.ID == h.Chunk.DocID && d.Revision == h.Chunk.Revision && d.Pages > 0
		})
		if i < 0 {
			continue
		}
		seen[key] = true
		for _, n := range []int{0, 1, docs[i].Chunks - 1} {
			id := store.ChunkID(h.Chunk.DocID, h.Chunk.Revision, n)
			if n < 0 || slices.Contains(imprint, id) {
				continue
			}
			imprint = append(imprint, id)
			if !slices.ContainsFunc(ranked, func(h store.Hit) bool { return h.Chunk.ID == id }) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return ranked, imprint
	}
	chunks, err := reader.Chunks(ctx, tenant, ids)
	if err != nil {
		r.p.cfg.Logger.Warn("imprint pages could not be read", "answer_id", r.ans.ID, "err", err)
		return ranked, nil
	}
	out := slices.Clip(ranked)
	for _, c := range chunks {
		out = append(out, store.Hit{Chunk: c})
	}
	return out, imprint
}
