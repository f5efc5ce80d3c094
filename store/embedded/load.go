package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// storedTenant is what the file holds for one tenant.
type storedTenant struct {
	generation uint64
	docs       []store.Document
	chunks     []store.Chunk
	terms      []storedTerms // parallel to chunks
	dict       []string      // term by dictionary id; "" for unused ids
}

// load reads the whole file and builds the in-memory indexes. A damaged
// file must give an error, not crash the process: bbolt trusts its pages,
// so panics (and faults on the memory map) while reading become ErrCorrupt.
func (s *Store) load() (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	stored := make(map[string]*storedTenant)
	if err := s.db.View(func(tx *bolt.Tx) error { return readFile(tx, stored) }); err != nil {
		return err
	}
	for tenant, st := range stored {
		ix, err := buildIndex(st, s.log.With("tenant", tenant))
		if err != nil {
			return fmt.Errorf("%w: tenant %q: %v", ErrCorrupt, tenant, err)
		}
		s.tenants[tenant] = ix
	}
	return nil
}

func readFile(tx *bolt.Tx, stored map[string]*storedTenant) error {
	if meta := tx.Bucket(bucketMeta); meta != nil {
		if v := meta.Get(keyFormat); v != nil {
			if len(v) != 8 {
				return fmt.Errorf("%w: format marker has %d bytes", ErrCorrupt, len(v))
			}
			if f := binary.BigEndian.Uint64(v); f != indexFormat {
				return fmt.Errorf("index format %d is not supported (this build reads format %d); re-ingest into a new data directory",
					f, indexFormat)
			}
		}
	}
	tenants := tx.Bucket(bucketTenants)
	if tenants == nil {
		return nil
	}
	return tenants.ForEachBucket(func(name []byte) error {
		tenant := string(name)
		st, err := readTenant(tenants.Bucket(name), tenant)
		if err != nil {
			return fmt.Errorf("%w: tenant %q: %v", ErrCorrupt, tenant, err)
		}
		stored[tenant] = st
		return nil
	})
}

// tenantGeneration reads a tenant bucket's generation (0 when unset).
func tenantGeneration(tb *bolt.Bucket) (uint64, error) {
	v := tb.Get(keyGeneration)
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("generation has %d bytes", len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

func readTenant(tb *bolt.Bucket, tenant string) (*storedTenant, error) {
	st := new(storedTenant)
	var err error
	if st.generation, err = tenantGeneration(tb); err != nil {
		return nil, err
	}
	if docs := tb.Bucket(bucketDocs); docs != nil {
		err := docs.ForEach(func(k, v []byte) error {
			var d store.Document
			if err := json.Unmarshal(v, &d); err != nil {
				return fmt.Errorf("document %q: %v", k, err)
			}
			if d.Tenant != tenant || !bytes.Equal(k, docKey(d.ID, d.Revision)) {
				return fmt.Errorf("document %q is stored under the wrong key", k)
			}
			st.docs = append(st.docs, d)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if dict := tb.Bucket(bucketTerms); dict != nil {
		var err error
		if st.dict, err = readDictionary(dict); err != nil {
			return nil, err
		}
	}
	if chunks := tb.Bucket(bucketChunks); chunks != nil {
		err := chunks.ForEach(func(k, v []byte) error {
			c, t, err := decodeChunk(v)
			if err != nil {
				return fmt.Errorf("chunk %q: %v", k, err)
			}
			if c.Tenant != tenant || !bytes.HasPrefix(k, revisionPrefix(c.DocID, c.Revision)) {
				return fmt.Errorf("chunk %q is stored under the wrong key", k)
			}
			for _, r := range t.refs {
				if int(r.id) >= len(st.dict) || st.dict[r.id] == "" {
					return fmt.Errorf("chunk %q refers to term %d, which the dictionary lacks", k, r.id)
				}
			}
			st.chunks = append(st.chunks, c)
			st.terms = append(st.terms, t)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return st, nil
}

// readDictionary returns the terms of a term dictionary bucket indexed by
// id. Ids come from the bucket's sequence and are never reused, so the
// largest id is the number of terms.
func readDictionary(b *bolt.Bucket) ([]string, error) {
	type entry struct {
		term string
		id   uint64
	}
	var entries []entry
	var maxID uint64
	err := b.ForEach(func(k, v []byte) error {
		id, n := binary.Uvarint(v)
		if n <= 0 || n != len(v) || id == 0 {
			return fmt.Errorf("term %q has a malformed id", k)
		}
		entries = append(entries, entry{string(k), id})
		maxID = max(maxID, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if maxID > uint64(len(entries)) || maxID > b.Sequence() {
		return nil, fmt.Errorf("term dictionary ids run to %d for %d terms (sequence %d)", maxID, len(entries), b.Sequence())
	}
	dict := make([]string, maxID+1)
	for _, e := range entries {
		if dict[e.id] != "" {
			return nil, fmt.Errorf("terms %q and %q share id %d", dict[e.id], e.term, e.id)
		}
		dict[e.id] = e.term
	}
	return dict, nil
}

// spotChecks is how many chunks Open analyses again to confirm that the
// stored terms are what the analyser makes of their text today. A mismatch
// means the analyser changed without its version; Open then re-analyses
// every chunk rather than serve an index that disagrees with its queries.
const spotChecks = 32

// buildIndex builds a tenant's index from everything stored for it. It is
// the bulk counterpart of tenantIndex.add, shaped for Open's speed: chunks
// whose record holds terms from the current analyser are not analysed
// again (their dictionary ids become the in-memory term ids); any others
// are analysed in parallel and their terms resolved through a sharded
// dictionary; then every posting list is allocated at its final size from
// one slab before being filled in slot order.
func buildIndex(st *storedTenant, log *slog.Logger) (*tenantIndex, error) {
	ix := newTenantIndex()
	ix.generation = st.generation
	for _, d := range st.docs {
		ix.revisionID(d)
	}
	n := len(st.chunks)
	revs := make([]int32, n)
	for i := range st.chunks {
		c := &st.chunks[i]
		r, ok := ix.revByKey[revKey{c.DocID, c.Revision}]
		if !ok {
			return nil, fmt.Errorf("chunk %q belongs to no stored document revision", c.ID)
		}
		revs[i] = r
		if len(c.Vector) > 0 && ix.dim == 0 {
			ix.dim = len(c.Vector)
		}
		if len(c.Vector) > 0 && len(c.Vector) != ix.dim {
			return nil, fmt.Errorf("chunk %q has a %d-dimensional vector, others have %d", c.ID, len(c.Vector), ix.dim)
		}
	}

	refs := make([][]termRef, n)
	lengths := make([]uint32, n)
	var stale []int
	for i, t := range st.terms {
		if t.analysis != analysis.Version {
			stale = append(stale, i)
			continue
		}
		refs[i], lengths[i] = t.refs, t.length
	}
	if len(stale) < n && !storedTermsCurrent(st, refs, lengths) {
		log.Warn("stored terms differ from the analyser's; analysing every chunk again")
		stale = stale[:0]
		for i := range n {
			stale = append(stale, i)
		}
	}
	dict := st.dict
	if len(stale) > 0 {
		log.Info("analysing chunks", "chunks", len(stale))
		dict = analyseStale(st, stale, refs, lengths)
	}

	df := make([]uint32, len(dict))
	total := 0
	for _, rs := range refs {
		for _, r := range rs {
			df[r.id]++
		}
		total += len(rs)
	}
	slots := make([]uint32, total)
	tfs := make([]uint16, total)
	ix.postings = make([]postingList, len(df))
	off := 0
	for id, d := range df {
		end := off + int(d)
		// Full slice expressions: a later append must reallocate, not
		// spill into the neighbouring list.
		ix.postings[id] = postingList{slots: slots[off:off:end], tfs: tfs[off:off:end]}
		off = end
	}
	for i, rs := range refs {
		for _, r := range rs {
			p := &ix.postings[r.id]
			p.slots = append(p.slots, uint32(i))
			p.tfs = append(p.tfs, r.tf)
		}
		refs[i] = nil
	}
	ix.termIDs = make(map[string]uint32, len(dict))
	for id, term := range dict {
		if term != "" {
			ix.termIDs[term] = uint32(id)
		}
	}

	ix.chunks = st.chunks
	ix.slotRev = revs
	ix.lengths = lengths
	ix.norms = make([]float32, n)
	ix.hasVec = make([]bool, n)
	if ix.dim > 0 {
		ix.vectors = make([]float32, n*ix.dim)
	}
	for i := range ix.chunks {
		c := &ix.chunks[i]
		if len(c.Vector) > 0 {
			copy(ix.vectors[i*ix.dim:], c.Vector)
			ix.hasVec[i] = true
		}
		c.Vector = nil
		ix.revs[revs[i]].slots = append(ix.revs[revs[i]].slots, uint32(i))
		ix.totalLen += uint64(lengths[i])
	}
	ix.live = n
	ix.refreshNorms()
	return ix, nil
}

// storedTermsCurrent analyses a few chunks that have stored terms and
// reports whether the analyser still makes the same terms of them.
func storedTermsCurrent(st *storedTenant, refs [][]termRef, lengths []uint32) bool {
	var an analyser
	checked := 0
	for i := 0; i < len(refs) && checked < spotChecks; i++ {
		if st.terms[i].analysis != analysis.Version {
			continue
		}
		checked++
		fresh := an.analyse(&st.chunks[i])
		if fresh.length != lengths[i] || len(fresh.terms) != len(refs[i]) {
			return false
		}
		want := make(map[string]uint32, len(fresh.terms))
		for _, tc := range fresh.terms {
			want[tc.term] = min(tc.tf, math.MaxUint16)
		}
		for _, r := range refs[i] {
			if want[st.dict[r.id]] != uint32(r.tf) {
				return false
			}
		}
	}
	return true
}

// analyseStale analyses the chunks listed in stale in parallel, resolving
// their terms through a dictionary seeded with the stored one, and returns
// the dictionary extended with any new terms.
func analyseStale(st *storedTenant, stale []int, refs [][]termRef, lengths []uint32) []string {
	dict := newTermDict(st.dict)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var an analyser
			for j := w; j < len(stale); j += workers {
				i := stale[j]
				a := an.analyse(&st.chunks[i])
				rs := make([]termRef, len(a.terms))
				for k, tc := range a.terms {
					rs[k] = termRef{id: dict.id(tc.term), tf: uint16(min(tc.tf, math.MaxUint16))}
				}
				refs[i], lengths[i] = rs, a.length
			}
		})
	}
	wg.Wait()
	return dict.terms()
}

// termRef is one distinct term of a chunk, resolved to its id.
type termRef struct {
	id uint32
	tf uint16
}

// termDict assigns term ids from several goroutines at once. Sharding
// keeps them off each other's locks.
type termDict struct {
	seed   maphash.Seed
	next   atomic.Uint32
	shards [64]dictShard
}

type dictShard struct {
	mu  sync.Mutex
	ids map[string]uint32
	_   [40]byte // keep shards on separate cache lines
}

// newTermDict starts a dictionary holding the stored terms under their ids.
func newTermDict(stored []string) *termDict {
	d := &termDict{seed: maphash.MakeSeed()}
	for i := range d.shards {
		d.shards[i].ids = make(map[string]uint32)
	}
	for id, term := range stored {
		if term != "" {
			d.shard(term).ids[term] = uint32(id)
		}
	}
	d.next.Store(uint32(max(len(stored), 1)))
	return d
}

func (d *termDict) shard(term string) *dictShard {
	return &d.shards[maphash.String(d.seed, term)%uint64(len(d.shards))]
}

func (d *termDict) id(term string) uint32 {
	sh := d.shard(term)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	id, ok := sh.ids[term]
	if !ok {
		id = d.next.Add(1) - 1
		// Clone so the dictionary does not pin the chunk text.
		sh.ids[strings.Clone(term)] = id
	}
	return id
}

// terms returns every term indexed by id.
func (d *termDict) terms() []string {
	out := make([]string, d.next.Load())
	for i := range d.shards {
		for t, id := range d.shards[i].ids {
			out[id] = t
		}
	}
	return out
}
