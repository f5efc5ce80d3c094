package pipeline

import (
	"context"
	"slices"
	"strconv"
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
// ones, and the list's next chunk when a wanted entry ends its chunk (a
// chunk boundary may cut it); a failed search adds nothing.
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
	// Each document's reference list is searched once, and at most
	// maxReferenceChunks documents are.
	searched := map[string][]store.Hit{}
	search := func(doc string) []store.Hit {
		found, ok := searched[doc]
		if !ok && len(searched) < maxReferenceChunks {
			var nums []string
			for _, w := range wants {
				if w.doc == doc {
					nums = append(nums, w.n)
				}
			}
			found = r.searchReferences(ctx, tenant, doc, nums)
			searched[doc] = found
		}
		return found
	}
	added := 0
	for _, w := range wants {
		holds := func(h store.Hit) bool { return h.Chunk.DocID == w.doc && generate.HoldsEntry(h.Chunk, w.n) }
		var ch store.Chunk
		switch i := slices.IndexFunc(out, holds); {
		case i >= 0:
			ch = out[i].Chunk
		case added >= maxReferenceChunks:
			continue
		default:
			found := hits
			j := slices.IndexFunc(found, holds)
			if j < 0 {
				found = search(w.doc)
				if j = slices.IndexFunc(found, holds); j < 0 {
					continue
				}
			}
			ch = found[j].Chunk
			out = append(out, found[j])
			added++
		}
		if !generate.EndsChunk(ch, w.n) {
			continue
		}
		// A chunk boundary may cut the entry: its end opens the list's
		// next chunk, which goes on with the entry after it.
		next := func(h store.Hit) bool {
			return h.Chunk.DocID == ch.DocID && h.Chunk.Revision == ch.Revision && h.Chunk.Index == ch.Index+1 &&
				generate.ReferenceSection(h.Chunk.Section)
		}
		if slices.ContainsFunc(out, next) {
			continue
		}
		if j := slices.IndexFunc(hits, next); j >= 0 {
			out = append(out, hits[j])
		} else if found := r.searchReferences(ctx, tenant, w.doc, []string{following(w.n)}); slices.ContainsFunc(found, next) {
			out = append(out, found[slices.IndexFunc(found, next)])
		}
	}
	return out
}

// entryWant is entry n of document doc's reference list.
type entryWant struct{ doc, n string }

// following is the number of the entry after entry n.
func following(n string) string {
	i, err := strconv.Atoi(n)
	if err != nil {
		return n
	}
	return strconv.Itoa(i + 1)
}

// searchReferences searches one document by keywords for entry numbers,
// keeping the chunks of its reference lists.
func (r *run) searchReferences(ctx context.Context, tenant, doc string, nums []string) []store.Hit {
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
