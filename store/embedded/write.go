package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// PutDocument implements store.Indexer. In one transaction it replaces the
// revision's chunks, stores the document (Chunks set to the number of
// chunks stored), re-runs store.MarkActive over every revision of the
// document and bumps the tenant's generation. Chunks must carry the
// document's tenant, id and revision; vectors must share the tenant's
// dimension and are stored normalised (the caller's slices are not
// modified).
func (s *Store) PutDocument(ctx context.Context, doc store.Document, chunks []store.Chunk) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store/embedded: put document: %w", err)
	}
	if doc.Tenant == "" {
		return fmt.Errorf("store/embedded: put document: %w", store.ErrNoTenant)
	}
	vectors, err := checkDocument(doc, chunks)
	if err != nil {
		return fmt.Errorf("store/embedded: put document %s %s/%s: %w", doc.Tenant, doc.ID, doc.Revision, err)
	}
	doc.Chunks = len(chunks)
	var an analyser
	analysedChunks := make([]analysed, len(chunks))
	for i := range chunks {
		if i%cancelCheck == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("store/embedded: put document: %w", err)
			}
		}
		analysedChunks[i] = an.analyse(&chunks[i])
	}

	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.closed {
		return fmt.Errorf("store/embedded: put document %s: %w", doc.Tenant, ErrClosed)
	}
	if s.readOnly {
		return fmt.Errorf("store/embedded: put document %s: %w", doc.Tenant, ErrReadOnly)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store/embedded: put document: %w", err)
	}
	// Only writers change the in-memory index and writeMu is held, so it can
	// be read here without mu.
	ix := s.tenants[doc.Tenant]
	if ix != nil && ix.dim > 0 {
		for _, v := range vectors {
			if v != nil && len(v) != ix.dim {
				return fmt.Errorf("store/embedded: put document %s %s/%s: %w: vectors have %d dimensions, the index has %d",
					doc.Tenant, doc.ID, doc.Revision, store.ErrInvalid, len(v), ix.dim)
			}
		}
	}
	var revs []store.Document
	var staleTerms map[uint32]struct{}
	if ix != nil {
		revs = ix.revisionsOf(doc.ID)
		staleTerms = ix.termsOf(revKey{doc.ID, doc.Revision})
	}
	i := revisionIndex(revs, doc.Revision)
	if i < 0 {
		revs = append(revs, doc)
	} else {
		revs[i] = doc
	}
	store.MarkActive(revs)
	generation := firstGeneration()
	if ix != nil {
		generation = ix.generation + 1
	}
	if s.db != nil {
		// A cancelled write returns from inside the transaction, which
		// rolls it back: the document is written whole or not at all.
		if err := s.db.Update(func(tx *bolt.Tx) error {
			return persist(ctx, tx, doc, chunks, analysedChunks, revs, generation)
		}); err != nil {
			return fmt.Errorf("store/embedded: put document %s %s/%s: %w", doc.Tenant, doc.ID, doc.Revision, err)
		}
	}

	s.publish(doc.Tenant, ix, func(ix *tenantIndex) {
		r := ix.revisionID(doc)
		ix.removeChunks(r, staleTerms)
		for _, d := range revs {
			ix.revisionID(d)
		}
		for i := range chunks {
			ix.add(r, chunks[i], analysedChunks[i], vectors[i])
		}
		ix.maybeCompact()
		ix.refreshNorms()
		ix.generation = generation
	})
	s.log.Debug("document indexed", "tenant", doc.Tenant, "doc_id", doc.ID, "revision", doc.Revision,
		"chunks", len(chunks), "generation", generation)
	return nil
}

// cancelCheck is how often (in chunks) a write checks for cancellation.
const cancelCheck = 256

// firstGeneration is where a tenant's counter starts in a new index: a
// random point rather than 1, so an index rebuilt from scratch (or another
// data directory swapped in) does not repeat the generations a shared
// answer cache still holds answers under.
func firstGeneration() uint64 {
	return 1<<32 + rand.Uint64N(1<<62)
}

// publish applies a committed write to the in-memory index under the lock
// searches take, creating the tenant's index on its first write.
func (s *Store) publish(tenant string, ix *tenantIndex, apply func(*tenantIndex)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ix == nil {
		ix = newTenantIndex()
		s.tenants[tenant] = ix
	}
	apply(ix)
}

func revisionIndex(revs []store.Document, revision string) int {
	for i := range revs {
		if revs[i].Revision == revision {
			return i
		}
	}
	return -1
}

// checkDocument validates a write (store.CheckDocument, and no NUL in the
// ids, which separates the parts of the bbolt keys) and returns the chunks'
// vectors, normalised (nil where a chunk has none).
func checkDocument(doc store.Document, chunks []store.Chunk) ([][]float32, error) {
	if strings.ContainsRune(doc.ID, 0) || strings.ContainsRune(doc.Revision, 0) {
		return nil, fmt.Errorf("%w: document id or revision contains a NUL byte", store.ErrInvalid)
	}
	return store.CheckDocument(doc, chunks)
}

// Layout of the bbolt file:
//
//	meta/format                        = indexFormat (uint64, big-endian)
//	tenants/<tenant>/generation        = uint64, big-endian
//	tenants/<tenant>/docs/<id>\0<rev>  = store.Document as JSON
//	tenants/<tenant>/chunks/<id>\0<rev>\0<n> = chunk record (codec.go),
//	                                     n the chunk's position, big-endian uint32
//	tenants/<tenant>/terms/<term>      = term id (uvarint), from the bucket's
//	                                     sequence; ids are never reused
const indexFormat = 1

var (
	bucketMeta    = []byte("meta")
	bucketTenants = []byte("tenants")
	bucketDocs    = []byte("docs")
	bucketChunks  = []byte("chunks")
	bucketTerms   = []byte("terms")
	keyFormat     = []byte("format")
	keyGeneration = []byte("generation")
)

func revisionPrefix(docID, revision string) []byte {
	return []byte(docID + "\x00" + revision + "\x00")
}

func docKey(docID, revision string) []byte {
	return []byte(docID + "\x00" + revision)
}

// persist writes one PutDocument: it is the body of a single transaction.
// analysed holds the chunks' terms, stored with each chunk record as ids
// of the tenant's term dictionary.
func persist(ctx context.Context, tx *bolt.Tx, doc store.Document, chunks []store.Chunk, analysed []analysed, revs []store.Document, generation uint64) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if err := meta.Put(keyFormat, binary.BigEndian.AppendUint64(nil, indexFormat)); err != nil {
		return err
	}
	tenants, err := tx.CreateBucketIfNotExists(bucketTenants)
	if err != nil {
		return err
	}
	tb, err := tenants.CreateBucketIfNotExists([]byte(doc.Tenant))
	if err != nil {
		return err
	}
	docs, err := tb.CreateBucketIfNotExists(bucketDocs)
	if err != nil {
		return err
	}
	cb, err := tb.CreateBucketIfNotExists(bucketChunks)
	if err != nil {
		return err
	}
	dict, err := tb.CreateBucketIfNotExists(bucketTerms)
	if err != nil {
		return err
	}
	prefix := revisionPrefix(doc.ID, doc.Revision)
	var stale [][]byte
	cur := cb.Cursor()
	for k, _ := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = cur.Next() {
		stale = append(stale, append([]byte(nil), k...))
	}
	for _, k := range stale {
		if err := cb.Delete(k); err != nil {
			return err
		}
	}
	ids := make(map[string]uint32)
	for i := range chunks {
		if i%cancelCheck == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		st := storedTerms{analysis: analysis.Version, length: analysed[i].length,
			refs: make([]termRef, len(analysed[i].terms))}
		for j, tc := range analysed[i].terms {
			id, err := termID(dict, ids, tc.term)
			if err != nil {
				return err
			}
			st.refs[j] = termRef{id: id, tf: uint16(min(tc.tf, math.MaxUint16))}
		}
		key := binary.BigEndian.AppendUint32(append([]byte(nil), prefix...), uint32(i))
		if err := cb.Put(key, encodeChunk(&chunks[i], st)); err != nil {
			return err
		}
	}
	for _, d := range revs {
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := docs.Put(docKey(d.ID, d.Revision), b); err != nil {
			return err
		}
	}
	return tb.Put(keyGeneration, binary.BigEndian.AppendUint64(nil, generation))
}

// termID returns the dictionary id of a term, adding the term if it is new.
// seen caches the ids one transaction has looked up.
func termID(dict *bolt.Bucket, seen map[string]uint32, term string) (uint32, error) {
	if id, ok := seen[term]; ok {
		return id, nil
	}
	var id uint64
	if v := dict.Get([]byte(term)); v != nil {
		n := 0
		if id, n = binary.Uvarint(v); n <= 0 || id > math.MaxUint32 {
			return 0, fmt.Errorf("%w: term %q has a malformed id", ErrCorrupt, term)
		}
	} else {
		next, err := dict.NextSequence()
		if err != nil {
			return 0, err
		}
		if next > math.MaxUint32 {
			return 0, fmt.Errorf("term dictionary is full")
		}
		if err := dict.Put([]byte(term), binary.AppendUvarint(nil, next)); err != nil {
			return 0, err
		}
		id = next
	}
	seen[term] = uint32(id)
	return uint32(id), nil
}
