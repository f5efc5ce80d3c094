package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
)

// storedTenant is what the file holds for one tenant.
type storedTenant struct {
	generation uint64
	docs       []store.Document
	chunks     []store.Chunk
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
		ix, err := buildIndex(st)
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

func readTenant(tb *bolt.Bucket, tenant string) (*storedTenant, error) {
	st := new(storedTenant)
	if v := tb.Get(keyGeneration); v != nil {
		if len(v) != 8 {
			return nil, fmt.Errorf("generation has %d bytes", len(v))
		}
		st.generation = binary.BigEndian.Uint64(v)
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
	if chunks := tb.Bucket(bucketChunks); chunks != nil {
		err := chunks.ForEach(func(k, v []byte) error {
			c, err := decodeChunk(v)
			if err != nil {
				return fmt.Errorf("chunk %q: %v", k, err)
			}
			if c.Tenant != tenant || !bytes.HasPrefix(k, revisionPrefix(c.DocID, c.Revision)) {
				return fmt.Errorf("chunk %q is stored under the wrong key", k)
			}
			st.chunks = append(st.chunks, c)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return st, nil
}

// buildIndex builds a tenant's index from everything stored for it. It is
// the bulk counterpart of tenantIndex.add, shaped for Open's speed: chunks
// are analysed in parallel and their terms resolved to ids through a
// sharded dictionary, then every posting list is allocated at its final
// size from one slab before being filled in slot order.
func buildIndex(st *storedTenant) (*tenantIndex, error) {
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

	dict := newTermDict()
	refs := make([][]termRef, n)
	lengths := make([]uint32, n)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var an analyser
			for i := w; i < n; i += workers {
				a := an.analyse(&st.chunks[i])
				rs := make([]termRef, len(a.terms))
				for j, tc := range a.terms {
					rs[j] = termRef{id: dict.id(tc.term), tf: uint16(min(tc.tf, math.MaxUint16))}
				}
				refs[i], lengths[i] = rs, a.length
			}
		})
	}
	wg.Wait()

	df := make([]uint32, dict.size())
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
	ix.termIDs = dict.merged()

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
	shards [64]struct {
		mu  sync.Mutex
		ids map[string]uint32
		_   [40]byte // keep shards on separate cache lines
	}
}

func newTermDict() *termDict {
	d := &termDict{seed: maphash.MakeSeed()}
	for i := range d.shards {
		d.shards[i].ids = make(map[string]uint32)
	}
	return d
}

func (d *termDict) id(term string) uint32 {
	sh := &d.shards[maphash.String(d.seed, term)%uint64(len(d.shards))]
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

func (d *termDict) size() int { return int(d.next.Load()) }

func (d *termDict) merged() map[string]uint32 {
	m := make(map[string]uint32, d.size())
	for i := range d.shards {
		for t, id := range d.shards[i].ids {
			m[t] = id
		}
	}
	return m
}
