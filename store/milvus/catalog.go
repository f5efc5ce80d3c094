package milvus

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/milvus-io/milvus/client/v2/column"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
)

var registerFields = []string{
	fTenant, fDocID, fNumber, fTitle, fRevision, fStatus, fDate, fDriveLink, fFile, fContentHash,
	fEmbedModel, fPages, fRows, fChunks, fIndexedAt, fActive,
}

// Documents implements store.Catalog.
func (s *Store) Documents(ctx context.Context, tenant string) ([]store.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/milvus: documents: %w", err)
	}
	if tenant == "" {
		return nil, fmt.Errorf("store/milvus: documents: %w", store.ErrNoTenant)
	}
	if err := checkKey(fTenant, tenant); err != nil {
		return nil, fmt.Errorf("store/milvus: documents: %w", err)
	}
	if err := s.use(); err != nil {
		return nil, fmt.Errorf("store/milvus: documents %s: %w", tenant, err)
	}
	defer s.mu.RUnlock()
	docs, err := s.readRegister(ctx, fTenant+" == "+literal(tenant)+" && "+fKind+" == "+literal(kindDocument))
	if err != nil {
		return nil, fmt.Errorf("store/milvus: documents %s: %w", tenant, err)
	}
	slices.SortFunc(docs, store.CompareDocuments)
	return docs, nil
}

// Chunks implements store.ChunkReader with one query on the chunk ids
// within the tenant's partition; rows still being written (staged) are not
// read.
func (s *Store) Chunks(ctx context.Context, tenant string, ids []string) ([]store.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/milvus: chunks: %w", err)
	}
	if tenant == "" {
		return nil, fmt.Errorf("store/milvus: chunks: %w", store.ErrNoTenant)
	}
	if err := checkKey(fTenant, tenant); err != nil {
		return nil, fmt.Errorf("store/milvus: chunks: %w", err)
	}
	if len(ids) == 0 {
		return []store.Chunk{}, nil
	}
	list := make([]string, len(ids))
	for i, id := range ids {
		if err := checkKey(fChunkID, id); err != nil {
			return nil, fmt.Errorf("store/milvus: chunks %s: %w", tenant, err)
		}
		list[i] = literal(id)
	}
	if err := s.use(); err != nil {
		return nil, fmt.Errorf("store/milvus: chunks %s: %w", tenant, err)
	}
	defer s.mu.RUnlock()
	filter := fTenant + " == " + literal(tenant) + " && " + fStaged + " == false && " +
		fChunkID + " in [" + strings.Join(list, ", ") + "]"
	found := make(map[string]store.Chunk, len(ids))
	err := s.queryAll(ctx, s.chunks, filter, hitFields, func(rs milvusclient.ResultSet) error {
		r := resultReader{rs: rs}
		for i := 0; i < rs.ResultCount; i++ {
			c := r.chunk(i)
			found[c.ID] = c
		}
		return r.err
	})
	if err != nil {
		return nil, fmt.Errorf("store/milvus: chunks %s: %w", tenant, err)
	}
	return store.InOrder(ids, found), nil
}

// revisions returns every stored revision of one document.
func (s *Store) revisions(ctx context.Context, tenant, docID string) ([]store.Document, error) {
	return s.readRegister(ctx, fTenant+" == "+literal(tenant)+" && "+fKind+" == "+literal(kindDocument)+
		" && "+fDocID+" == "+literal(docID))
}

func (s *Store) readRegister(ctx context.Context, filter string) ([]store.Document, error) {
	docs := []store.Document{}
	err := s.queryAll(ctx, s.register, filter, registerFields, func(rs milvusclient.ResultSet) error {
		r := resultReader{rs: rs}
		for i := 0; i < rs.ResultCount; i++ {
			docs = append(docs, store.Document{
				Tenant:      r.str(fTenant, i),
				ID:          r.str(fDocID, i),
				Number:      r.str(fNumber, i),
				Title:       r.str(fTitle, i),
				Revision:    r.str(fRevision, i),
				Status:      r.str(fStatus, i),
				Date:        r.str(fDate, i),
				DriveLink:   r.str(fDriveLink, i),
				File:        r.str(fFile, i),
				ContentHash: r.str(fContentHash, i),
				EmbedModel:  r.str(fEmbedModel, i),
				Pages:       int(r.int(fPages, i)),
				Rows:        int(r.int(fRows, i)),
				Chunks:      int(r.int(fChunks, i)),
				IndexedAt:   time.Unix(0, r.int(fIndexedAt, i)).UTC(),
				Active:      r.bool(fActive, i),
			})
		}
		return r.err
	})
	return docs, err
}

// Generation implements store.Catalog. A tenant with nothing indexed is at
// generation 0.
func (s *Store) Generation(ctx context.Context, tenant string) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("store/milvus: generation: %w", err)
	}
	if tenant == "" {
		return 0, fmt.Errorf("store/milvus: generation: %w", store.ErrNoTenant)
	}
	if err := s.use(); err != nil {
		return 0, fmt.Errorf("store/milvus: generation %s: %w", tenant, err)
	}
	defer s.mu.RUnlock()
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	rs, err := s.c.Query(cctx, milvusclient.NewQueryOption(s.register).
		WithIDs(column.NewColumnVarChar(fPK, []string{generationPK(tenant)})).
		WithOutputFields(fGeneration).WithConsistencyLevel(s.consistency))
	if err != nil {
		return 0, callError(cctx, "generation of "+tenant+" in", s.register, err)
	}
	if rs.ResultCount == 0 {
		return 0, nil
	}
	r := resultReader{rs: rs}
	g := r.int(fGeneration, 0)
	if r.err != nil {
		return 0, fmt.Errorf("store/milvus: generation %s: %w", tenant, r.err)
	}
	return uint64(g), nil
}

// resultReader reads typed values from a result set, keeping the first
// error.
type resultReader struct {
	rs  milvusclient.ResultSet
	err error
}

func (r *resultReader) column(name string) column.Column {
	c := r.rs.GetColumn(name)
	if c == nil && r.err == nil {
		r.err = fmt.Errorf("result has no %s column", name)
	}
	return c
}

func (r *resultReader) str(name string, i int) string {
	c := r.column(name)
	if c == nil {
		return ""
	}
	v, err := c.GetAsString(i)
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("%s: %w", name, err)
	}
	return v
}

func (r *resultReader) int(name string, i int) int64 {
	c := r.column(name)
	if c == nil {
		return 0
	}
	v, err := c.GetAsInt64(i)
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("%s: %w", name, err)
	}
	return v
}

func (r *resultReader) bool(name string, i int) bool {
	c := r.column(name)
	if c == nil {
		return false
	}
	v, err := c.GetAsBool(i)
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("%s: %w", name, err)
	}
	return v
}
