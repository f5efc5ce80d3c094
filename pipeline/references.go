package pipeline

import (
	"context"
	"slices"
	"strings"

	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/query"
	"github.com/cewhq/cew/store"
)

// maxReferenceChunks is how many chunks of reference lists a question that
// asks for a publication may add to the ranked ones.
const maxReferenceChunks = 2

// withReferences adds to the ranked chunks, for a question that asks for a
// publication (query.Analysis.Expect.Source), the chunks of a document's
// reference list that hold the entries the question names or the ranked
// chunks cite. "The ~3 % shading loss came from which NREL report" is
// answered by "… was roughly 3 % [14]" only together with entry [14], and
// a long reference list is chunked in parts the question's words seldom
// rank: entry [14] sits in the list's second chunk, among entries that
// share no word with the question. The entries are looked for among the
// retrieved candidates first, then by a keyword search within the
// document (at most maxReferenceChunks documents are searched). At most
// maxReferenceChunks chunks holding entries are added, after the ranked
// ones, each with the list's next chunk when the entry ends its chunk (a
// page break may cut it); a failed search adds nothing.
func (r *run) withReferences(ctx context.Context, tenant string, qa query.Analysis, ranked, hits []store.Hit) []store.Hit {
	if !qa.Expect.Source || len(ranked) == 0 {
		return ranked
	}
	var named []string
	for _, text := range append([]string{qa.Text}, qa.Stray...) {
		named = append(named, generate.NamedReferences(text)...)
	}
	var wants []entryWant
	for _, h := range ranked {
		if generate.ReferenceSection(h.Chunk.Section) {
			continue
		}
		for _, n := range append(slices.Clone(named), generate.Citations(h.Chunk.Text)...) {
			if w := (entryWant{h.Chunk.DocID, n}); !slices.Contains(wants, w) {
				wants = append(wants, w)
			}
		}
	}
	out := slices.Clip(ranked)
	have := func(doc, n string) bool {
		return slices.ContainsFunc(out, func(h store.Hit) bool { return h.Chunk.DocID == doc && generate.HoldsEntry(h.Chunk, n) })
	}
	// Each document's reference list is searched once, and at most
	// maxReferenceChunks documents are.
	searched := map[string][]store.Hit{}
	search := func(doc string) []store.Hit {
		found, ok := searched[doc]
		if !ok && len(searched) < maxReferenceChunks {
			found = r.searchReferences(ctx, tenant, doc, wants)
			searched[doc] = found
		}
		return found
	}
	added := 0
	for _, w := range wants {
		if added >= maxReferenceChunks {
			break
		}
		if have(w.doc, w.n) {
			continue
		}
		pool := hits
		i := slices.IndexFunc(pool, func(h store.Hit) bool { return h.Chunk.DocID == w.doc && generate.HoldsEntry(h.Chunk, w.n) })
		if i < 0 {
			pool = search(w.doc)
			i = slices.IndexFunc(pool, func(h store.Hit) bool { return generate.HoldsEntry(h.Chunk, w.n) })
			if i < 0 {
				continue
			}
		}
		ch := pool[i].Chunk
		out = append(out, pool[i])
		added++
		if !generate.EndsChunk(ch, w.n) {
			continue
		}
		// A page break may cut the entry: its end opens the list's next
		// chunk.
		next := func(h store.Hit) bool {
			return h.Chunk.DocID == ch.DocID && h.Chunk.Revision == ch.Revision && h.Chunk.Index == ch.Index+1 &&
				generate.ReferenceSection(h.Chunk.Section) && !slices.ContainsFunc(out, func(o store.Hit) bool { return o.Chunk.ID == h.Chunk.ID })
		}
		if j := slices.IndexFunc(pool, next); j >= 0 {
			out = append(out, pool[j])
		} else if found := search(w.doc); slices.ContainsFunc(found, next) {
			out = append(out, found[slices.IndexFunc(found, next)])
		}
	}
	return out
}

// entryWant is entry n of document doc's reference list.
type entryWant struct{ doc, n string }

// searchReferences searches one document by keywords for the numbers of
// the entries wanted from it, keeping the chunks of its reference lists.
func (r *run) searchReferences(ctx context.Context, tenant, doc string, wants []entryWant) []store.Hit {
	var nums []string
	for _, w := range wants {
		if w.doc == doc {
			nums = append(nums, w.n)
		}
	}
	hits, err := r.p.cfg.Searcher.Search(ctx, store.SearchRequest{
		Tenant: tenant, Query: "references " + strings.Join(nums, " "), Mode: store.ModeKeyword,
		K: store.DefaultK, DocIDs: []string{doc},
	})
	if err != nil {
		r.p.cfg.Logger.Warn("reference list search failed", "answer_id", r.ans.ID, "err", err)
		return nil
	}
	return slices.DeleteFunc(hits, func(h store.Hit) bool { return !generate.ReferenceSection(h.Chunk.Section) })
}
