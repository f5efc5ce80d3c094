package embedded

import (
	"math"
	"strings"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// BM25 parameters: the Anserini defaults, which its BEIR regressions use.
const (
	bm25K1 = 0.9
	bm25B  = 0.4
)

// A tenant's slots are compacted once at least compactMinDead of them are
// holes left by replaced chunks and holes outnumber half the live slots;
// below that the holes cost a few bytes each and compaction is not worth a
// pass over every posting list.
const compactMinDead = 1024

type revKey struct{ docID, revision string }

// revision is one stored document revision and the slots of its chunks.
type revision struct {
	doc   store.Document
	slots []uint32
}

// postingList holds, for one term, the slots whose indexed text contains
// it and how often. Lists never hold dead slots: replacing chunks filters
// them out at once, so df is always len(slots).
type postingList struct {
	slots []uint32
	tfs   []uint16
}

// tenantIndex is one tenant's in-memory index. Chunks live in slots;
// per-slot data is kept in parallel slices so the scoring loops touch only
// what they need. Store.mu guards it.
type tenantIndex struct {
	generation uint64

	revs     []*revision
	revByKey map[revKey]int32

	chunks  []store.Chunk // Vector always nil; vectors live in vectors
	slotRev []int32       // revision of each slot; -1 for a hole
	lengths []uint32      // number of index terms of each slot
	norms   []float32     // k1·(1−b+b·len/avgdl), refreshed after every write
	dim     int           // vector dimension; 0 until a chunk brings a vector
	vectors []float32     // dim values per slot, normalised; zeros for none
	hasVec  []bool

	termIDs  map[string]uint32
	postings []postingList

	live, dead int
	totalLen   uint64
}

func newTenantIndex() *tenantIndex {
	return &tenantIndex{revByKey: make(map[revKey]int32), termIDs: make(map[string]uint32)}
}

// analysed is a chunk's index terms with their frequencies, computed
// outside the lock.
type analysed struct {
	terms  []termCount
	length uint32
}

type termCount struct {
	term string
	tf   uint32
}

// analyser reuses buffers across the chunks one goroutine analyses.
type analyser struct {
	buf    []string
	counts map[string]uint32
}

// analyse returns the index terms of the text a chunk is found by: title,
// section, sheet and body. Fields are analysed separately so no token spans
// two of them.
func (a *analyser) analyse(c *store.Chunk) analysed {
	if a.counts == nil {
		a.counts = make(map[string]uint32)
	}
	a.buf = a.buf[:0]
	for _, f := range [...]string{c.Title, c.Section, c.Sheet, c.Text} {
		a.buf = analysis.AppendTerms(a.buf, f)
	}
	clear(a.counts)
	for _, t := range a.buf {
		a.counts[t]++
	}
	out := analysed{terms: make([]termCount, 0, len(a.counts)), length: uint32(len(a.buf))}
	for t, n := range a.counts {
		out.terms = append(out.terms, termCount{term: t, tf: n})
	}
	return out
}

// revisionID returns the id of a revision, registering it if needed.
func (ix *tenantIndex) revisionID(doc store.Document) int32 {
	k := revKey{doc.ID, doc.Revision}
	if r, ok := ix.revByKey[k]; ok {
		ix.revs[r].doc = doc
		return r
	}
	r := int32(len(ix.revs))
	ix.revs = append(ix.revs, &revision{doc: doc})
	ix.revByKey[k] = r
	return r
}

// add appends a chunk to revision r. vec is normalised, or nil; its length
// was checked against ix.dim by the caller.
func (ix *tenantIndex) add(r int32, c store.Chunk, a analysed, vec []float32) {
	slot := uint32(len(ix.chunks))
	c.Vector = nil
	ix.chunks = append(ix.chunks, c)
	ix.slotRev = append(ix.slotRev, r)
	ix.lengths = append(ix.lengths, a.length)
	ix.norms = append(ix.norms, 0)
	ix.hasVec = append(ix.hasVec, vec != nil)
	if vec != nil && ix.dim == 0 {
		ix.dim = len(vec)
		// Slots stored before the first vector get zeros.
		ix.vectors = make([]float32, (len(ix.chunks)-1)*ix.dim)
	}
	if ix.dim > 0 {
		if vec != nil {
			ix.vectors = append(ix.vectors, vec...)
		} else {
			ix.vectors = append(ix.vectors, make([]float32, ix.dim)...)
		}
	}
	for _, tc := range a.terms {
		id, ok := ix.termIDs[tc.term]
		if !ok {
			id = uint32(len(ix.postings))
			ix.postings = append(ix.postings, postingList{})
			// Clone so the dictionary does not pin the chunk text the term
			// was sliced from.
			ix.termIDs[strings.Clone(tc.term)] = id
		}
		p := &ix.postings[id]
		p.slots = append(p.slots, slot)
		p.tfs = append(p.tfs, uint16(min(tc.tf, math.MaxUint16)))
	}
	ix.revs[r].slots = append(ix.revs[r].slots, slot)
	ix.live++
	ix.totalLen += uint64(a.length)
}

// termsOf returns the ids of the terms the chunks of a revision contain,
// found by analysing them again. It only reads the index, so a writer can
// call it before taking the lock that blocks searches.
func (ix *tenantIndex) termsOf(k revKey) map[uint32]struct{} {
	r, ok := ix.revByKey[k]
	if !ok {
		return nil
	}
	var an analyser
	ids := make(map[uint32]struct{})
	for _, s := range ix.revs[r].slots {
		for _, tc := range an.analyse(&ix.chunks[s]).terms {
			if id, ok := ix.termIDs[tc.term]; ok {
				ids[id] = struct{}{}
			}
		}
	}
	return ids
}

// removeChunks turns the slots of revision r into holes and removes them
// from the posting lists of their terms (from termsOf), so no stale chunk
// can score and document frequencies stay exact.
func (ix *tenantIndex) removeChunks(r int32, terms map[uint32]struct{}) {
	slots := ix.revs[r].slots
	if len(slots) == 0 {
		return
	}
	for _, s := range slots {
		ix.slotRev[s] = -1
	}
	for id := range terms {
		p := &ix.postings[id]
		n := 0
		for i, s := range p.slots {
			if ix.slotRev[s] >= 0 {
				p.slots[n], p.tfs[n] = s, p.tfs[i]
				n++
			}
		}
		p.slots, p.tfs = p.slots[:n], p.tfs[:n]
	}
	for _, s := range slots {
		ix.totalLen -= uint64(ix.lengths[s])
		ix.chunks[s] = store.Chunk{}
		ix.lengths[s] = 0
		ix.hasVec[s] = false
		if ix.dim > 0 {
			clear(ix.vectors[int(s)*ix.dim : int(s+1)*ix.dim])
		}
	}
	ix.live -= len(slots)
	ix.dead += len(slots)
	ix.revs[r].slots = nil
}

// maybeCompact closes the holes once they are worth a pass.
func (ix *tenantIndex) maybeCompact() {
	if ix.dead < compactMinDead || ix.dead*2 < ix.live {
		return
	}
	remap := make([]uint32, len(ix.chunks))
	n := 0
	for s := range ix.chunks {
		if ix.slotRev[s] < 0 {
			continue
		}
		remap[s] = uint32(n)
		ix.chunks[n] = ix.chunks[s]
		ix.slotRev[n] = ix.slotRev[s]
		ix.lengths[n] = ix.lengths[s]
		ix.hasVec[n] = ix.hasVec[s]
		if ix.dim > 0 {
			copy(ix.vectors[n*ix.dim:(n+1)*ix.dim], ix.vectors[s*ix.dim:(s+1)*ix.dim])
		}
		n++
	}
	clear(ix.chunks[n:])
	ix.chunks = ix.chunks[:n]
	ix.slotRev = ix.slotRev[:n]
	ix.lengths = ix.lengths[:n]
	ix.norms = ix.norms[:n]
	ix.hasVec = ix.hasVec[:n]
	ix.vectors = ix.vectors[:n*ix.dim]
	postings := make([]postingList, 0, len(ix.termIDs))
	for term, id := range ix.termIDs {
		p := ix.postings[id]
		if len(p.slots) == 0 {
			delete(ix.termIDs, term)
			continue
		}
		for i, s := range p.slots {
			p.slots[i] = remap[s]
		}
		ix.termIDs[term] = uint32(len(postings))
		postings = append(postings, p)
	}
	ix.postings = postings
	for _, rv := range ix.revs {
		for i, s := range rv.slots {
			rv.slots[i] = remap[s]
		}
	}
	ix.dead = 0
}

// refreshNorms recomputes the BM25 length normalisation of every slot,
// since the average length moves with every write.
func (ix *tenantIndex) refreshNorms() {
	if ix.live == 0 {
		return
	}
	avg := float64(ix.totalLen) / float64(ix.live)
	if avg == 0 {
		avg = 1
	}
	for s, l := range ix.lengths {
		ix.norms[s] = float32(bm25K1 * (1 - bm25B + bm25B*float64(l)/avg))
	}
}

// revisionsOf returns a copy of every stored revision of a document.
func (ix *tenantIndex) revisionsOf(docID string) []store.Document {
	var docs []store.Document
	for _, rv := range ix.revs {
		if rv.doc.ID == docID {
			docs = append(docs, rv.doc)
		}
	}
	return docs
}
