package embedded

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

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

// loadBatch is how many chunks are analysed in parallel before being added
// to the index; it bounds the memory the analysed terms take.
const loadBatch = 4096

func buildIndex(st *storedTenant) (*tenantIndex, error) {
	ix := newTenantIndex()
	ix.generation = st.generation
	for _, d := range st.docs {
		ix.revisionID(d)
	}
	workers := runtime.GOMAXPROCS(0)
	results := make([]analysed, loadBatch)
	for start := 0; start < len(st.chunks); start += loadBatch {
		batch := st.chunks[start:min(start+loadBatch, len(st.chunks))]
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				var an analyser
				for i := w; i < len(batch); i += workers {
					results[i] = an.analyse(&batch[i])
				}
			})
		}
		wg.Wait()
		for i := range batch {
			c := &batch[i]
			r, ok := ix.revByKey[revKey{c.DocID, c.Revision}]
			if !ok {
				return nil, fmt.Errorf("chunk %q belongs to no stored document revision", c.ID)
			}
			vec := c.Vector
			if len(vec) == 0 {
				vec = nil
			} else if ix.dim > 0 && len(vec) != ix.dim {
				return nil, fmt.Errorf("chunk %q has a %d-dimensional vector, others have %d", c.ID, len(vec), ix.dim)
			}
			ix.add(r, *c, results[i], vec)
			results[i] = analysed{}
		}
		clear(batch)
	}
	ix.refreshNorms()
	return ix, nil
}
