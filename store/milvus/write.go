package milvus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/milvus-io/milvus/client/v2/entity"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
)

// Write batches: rows per upsert, and a byte budget that keeps one request
// well under gRPC's message limit whatever the chunk sizes.
const (
	batchRows  = 512
	batchBytes = 8 << 20
)

// PutDocument implements store.Indexer. Every write makes new rows: the
// revision's chunks are written staged (invisible to search) under keys
// unique to this write, then committed (visible, active when the
// revision is), then the document's other revisions are flipped
// (activated ones first), then the revision's rows of earlier writes are
// deleted, and the register rows are written last before the tenant's
// generation is bumped. Search therefore never sees part of a revision
// and never loses a document while it is rewritten; a write cut short
// leaves at worst an older complete revision served beside the new one,
// and since the register still holds the old state, ingesting again
// repeats the write and clears it.
func (s *Store) PutDocument(ctx context.Context, doc store.Document, chunks []store.Chunk) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store/milvus: put document: %w", err)
	}
	if doc.Tenant == "" {
		return fmt.Errorf("store/milvus: put document: %w", store.ErrNoTenant)
	}
	fail := func(op string, err error) error {
		return fmt.Errorf("store/milvus: put document %s %s/%s: %s: %w", doc.Tenant, doc.ID, doc.Revision, op, err)
	}
	if err := checkDocument(doc, chunks); err != nil {
		return fail("check", err)
	}
	doc.Chunks = len(chunks)
	if err := s.use(); err != nil {
		return fail("use", err)
	}
	defer s.mu.RUnlock()
	rows, err := s.chunkRows(chunks, newWriteToken())
	if err != nil {
		return fail("check", err)
	}

	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	before, err := s.revisions(ctx, doc.Tenant, doc.ID)
	if err != nil {
		return fail("read register", err)
	}
	after := slices.Clone(before)
	if i := slices.IndexFunc(after, func(d store.Document) bool { return d.Revision == doc.Revision }); i >= 0 {
		after[i] = doc
	} else {
		after = append(after, doc)
	}
	store.MarkActive(after)
	wasActive := map[string]bool{}
	for _, d := range before {
		wasActive[d.Revision] = d.Active
	}

	earlier, err := s.chunkPKs(ctx, doc.Tenant, doc.ID, doc.Revision)
	if err != nil {
		return fail("list chunks", err)
	}
	if err := s.upsertChunks(ctx, rows, false, true); err != nil {
		return fail("write chunks", err)
	}
	var newActive bool
	var activate, deactivate []string
	for _, d := range after {
		switch {
		case d.Revision == doc.Revision:
			newActive = d.Active
		case !wasActive[d.Revision] && d.Active:
			activate = append(activate, d.Revision)
		case wasActive[d.Revision] && !d.Active:
			deactivate = append(deactivate, d.Revision)
		}
	}
	if err := s.commitChunks(ctx, doc.Tenant, rows, newActive); err != nil {
		return fail("commit chunks", err)
	}
	for _, rev := range activate {
		if err := s.setActive(ctx, doc.Tenant, doc.ID, rev, true); err != nil {
			return fail("activate revision "+rev, err)
		}
	}
	for _, rev := range deactivate {
		if err := s.setActive(ctx, doc.Tenant, doc.ID, rev, false); err != nil {
			return fail("deactivate revision "+rev, err)
		}
	}
	if err := s.deleteChunks(ctx, earlier); err != nil {
		return fail("delete replaced chunks", err)
	}
	if err := s.putRegister(ctx, after); err != nil {
		return fail("write register", err)
	}
	if err := s.bumpGeneration(ctx, doc.Tenant); err != nil {
		return fail("bump generation", err)
	}
	return nil
}

// newWriteToken makes the keys of one write's rows unique, so they can
// sit beside the rows they replace until they are committed.
func newWriteToken() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// checkDocument validates a write (store.CheckDocument) and Milvus's
// limits on the values.
func checkDocument(doc store.Document, chunks []store.Chunk) error {
	if _, err := store.CheckDocument(doc, chunks); err != nil {
		return err
	}
	for _, f := range []struct{ name, v string }{{fTenant, doc.Tenant}, {fDocID, doc.ID}, {fRevision, doc.Revision}} {
		if err := checkKey(f.name, f.v); err != nil {
			return err
		}
	}
	for _, f := range []struct{ name, v string }{
		{fNumber, doc.Number}, {fTitle, doc.Title}, {fStatus, doc.Status}, {fDate, doc.Date},
		{fDriveLink, doc.DriveLink}, {fFile, doc.File}, {fContentHash, doc.ContentHash}, {fEmbedModel, doc.EmbedModel},
	} {
		if err := checkText(f.name, f.v); err != nil {
			return err
		}
	}
	for i := range chunks {
		c := &chunks[i]
		for _, f := range []struct{ name, v string }{
			{fChunkID, c.ID}, {fDocNumber, c.DocNumber}, {fTitle, c.Title}, {fSection, c.Section},
			{fSheet, c.Sheet}, {fDriveLink, c.DriveLink}, {fContentHash, c.ContentHash}, {fText, c.Text},
		} {
			if err := checkText(f.name, f.v); err != nil {
				return fmt.Errorf("chunk %q: %w", c.ID, err)
			}
		}
	}
	return nil
}

// chunkRow is one chunk as the chunks collection stores it.
type chunkRow struct {
	pk     string
	chunk  *store.Chunk
	terms  string
	vector []float32 // normalised; nil when the chunk has none
}

func (s *Store) chunkRows(chunks []store.Chunk, token string) ([]chunkRow, error) {
	rows := make([]chunkRow, len(chunks))
	for i := range chunks {
		c := &chunks[i]
		r := chunkRow{pk: pkOf(c.Tenant, c.ID) + "#" + token, chunk: c, terms: chunkTerms(c)}
		if err := checkText(fPK, r.pk); err != nil {
			return nil, err
		}
		if err := checkText(fTerms, r.terms); err != nil {
			return nil, fmt.Errorf("chunk %q: %w", c.ID, err)
		}
		if len(c.Vector) > 0 {
			if s.dim == 0 {
				return nil, fmt.Errorf("%w: chunk %q has a vector but collection %s has no dense field (created without an embedder; run `cew migrate --replace` with the embedder configured)",
					store.ErrInvalid, c.ID, s.chunks)
			}
			if len(c.Vector) != s.dim {
				return nil, fmt.Errorf("%w: chunk %q has a %d-dimensional vector, collection %s has %d dimensions",
					store.ErrInvalid, c.ID, len(c.Vector), s.chunks, s.dim)
			}
			v, err := store.Normalised(c.Vector)
			if err != nil {
				return nil, fmt.Errorf("%w: chunk %q: %v", store.ErrInvalid, c.ID, err)
			}
			r.vector = v
		}
		rows[i] = r
	}
	return rows, nil
}

// upsertChunks writes whole rows with the given flags in batches.
func (s *Store) upsertChunks(ctx context.Context, rows []chunkRow, active, staged bool) error {
	for start := 0; start < len(rows); {
		end, size := start, 0
		for end < len(rows) && end-start < batchRows && (end == start || size < batchBytes) {
			size += len(rows[end].chunk.Text) + len(rows[end].terms) + 4*s.dim + 512
			end++
		}
		if err := s.upsertBatch(ctx, rows[start:end], active, staged); err != nil {
			return err
		}
		start = end
	}
	return nil
}

func (s *Store) upsertBatch(ctx context.Context, rows []chunkRow, active, staged bool) error {
	n := len(rows)
	str := func(f func(r chunkRow) string) []string {
		out := make([]string, n)
		for i, r := range rows {
			out[i] = f(r)
		}
		return out
	}
	num := func(f func(r chunkRow) int) []int64 {
		out := make([]int64, n)
		for i, r := range rows {
			out[i] = int64(f(r))
		}
		return out
	}
	flags := func(v bool) []bool {
		out := make([]bool, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	opt := milvusclient.NewColumnBasedInsertOption(s.chunks).
		WithVarcharColumn(fPK, str(func(r chunkRow) string { return r.pk })).
		WithVarcharColumn(fTenant, str(func(r chunkRow) string { return r.chunk.Tenant })).
		WithVarcharColumn(fChunkID, str(func(r chunkRow) string { return r.chunk.ID })).
		WithVarcharColumn(fDocID, str(func(r chunkRow) string { return r.chunk.DocID })).
		WithVarcharColumn(fDocNumber, str(func(r chunkRow) string { return r.chunk.DocNumber })).
		WithVarcharColumn(fTitle, str(func(r chunkRow) string { return r.chunk.Title })).
		WithVarcharColumn(fRevision, str(func(r chunkRow) string { return r.chunk.Revision })).
		WithBoolColumn(fActive, flags(active)).
		WithBoolColumn(fStaged, flags(staged)).
		WithInt64Column(fPage, num(func(r chunkRow) int { return r.chunk.Page })).
		WithVarcharColumn(fSection, str(func(r chunkRow) string { return r.chunk.Section })).
		WithVarcharColumn(fSheet, str(func(r chunkRow) string { return r.chunk.Sheet })).
		WithInt64Column(fRow, num(func(r chunkRow) int { return r.chunk.Row })).
		WithVarcharColumn(fDriveLink, str(func(r chunkRow) string { return r.chunk.DriveLink })).
		WithVarcharColumn(fContentHash, str(func(r chunkRow) string { return r.chunk.ContentHash })).
		WithInt64Column(fChunkIndex, num(func(r chunkRow) int { return r.chunk.Index })).
		WithVarcharColumn(fText, str(func(r chunkRow) string { return r.chunk.Text })).
		WithVarcharColumn(fTerms, str(func(r chunkRow) string { return r.terms }))
	if s.dim > 0 {
		has := make([]bool, n)
		vectors := make([][]float32, n)
		for i, r := range rows {
			has[i] = r.vector != nil
			vectors[i] = r.vector
			if r.vector == nil {
				// A chunk without an embedding still needs a value in the
				// dense field; has_vector keeps it out of dense search.
				vectors[i] = placeholderVector(s.dim)
			}
		}
		opt = opt.WithBoolColumn(fHasVector, has).WithFloatVectorColumn(fDense, s.dim, vectors)
	} else {
		opt = opt.WithBoolColumn(fHasVector, flags(false))
	}
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	if _, err := s.c.Upsert(cctx, opt); err != nil {
		return callError(cctx, "upsert", s.chunks, err)
	}
	return nil
}

// placeholderVector is a unit vector (cosine is defined for it) stored for
// chunks without an embedding.
func placeholderVector(dim int) []float32 {
	v := make([]float32, dim)
	v[0] = 1
	return v
}

// commitChunks makes a write's staged rows visible, active or not.
func (s *Store) commitChunks(ctx context.Context, tenant string, rows []chunkRow, active bool) error {
	if s.opts.NoPartialUpdate {
		return s.upsertChunks(ctx, rows, active, false)
	}
	pks := make([]string, len(rows))
	for i, r := range rows {
		pks[i] = r.pk
	}
	return s.setFlags(ctx, tenant, pks, active, false)
}

// setFlags updates only the active and staged flags of the given chunks
// (a partial upsert: text and vectors are not sent again).
func (s *Store) setFlags(ctx context.Context, tenant string, pks []string, active, staged bool) error {
	for start := 0; start < len(pks); start += 4 * batchRows {
		batch := pks[start:min(len(pks), start+4*batchRows)]
		tenants := make([]string, len(batch))
		actives := make([]bool, len(batch))
		stageds := make([]bool, len(batch))
		for i := range batch {
			tenants[i], actives[i], stageds[i] = tenant, active, staged
		}
		opt := milvusclient.NewColumnBasedInsertOption(s.chunks).
			WithVarcharColumn(fPK, batch).
			WithVarcharColumn(fTenant, tenants).
			WithBoolColumn(fActive, actives).
			WithBoolColumn(fStaged, stageds).
			WithPartialUpdate(true)
		cctx, cancel := s.callContext(ctx)
		_, err := s.c.Upsert(cctx, opt)
		cancel()
		if err != nil {
			return callError(ctx, "update flags in", s.chunks, err)
		}
	}
	return nil
}

// setActive flips the active flag of every chunk of one revision.
func (s *Store) setActive(ctx context.Context, tenant, docID, revision string, active bool) error {
	if s.opts.NoPartialUpdate {
		rows, err := s.revisionRows(ctx, tenant, docID, revision)
		if err != nil {
			return err
		}
		return s.upsertChunks(ctx, rows, active, false)
	}
	pks, err := s.chunkPKs(ctx, tenant, docID, revision)
	if err != nil {
		return err
	}
	return s.setFlags(ctx, tenant, pks, active, false)
}

// revisionRows reads one revision's rows back whole, to write them again
// where partial updates are not available. The terms are computed again
// from the chunk, as when it was written.
func (s *Store) revisionRows(ctx context.Context, tenant, docID, revision string) ([]chunkRow, error) {
	fields := append([]string{fPK, fHasVector}, hitFields...)
	if s.dim > 0 {
		fields = append(fields, fDense)
	}
	var rows []chunkRow
	err := s.queryAll(ctx, s.chunks, revisionFilter(tenant, docID, revision), fields, func(rs milvusclient.ResultSet) error {
		r := resultReader{rs: rs}
		dense := rs.GetColumn(fDense)
		for i := 0; i < rs.ResultCount; i++ {
			c := r.chunk(i)
			row := chunkRow{pk: r.str(fPK, i), chunk: &c, terms: chunkTerms(&c)}
			if dense != nil && r.bool(fHasVector, i) {
				v, err := dense.Get(i)
				if err != nil {
					return err
				}
				fv, ok := v.(entity.FloatVector)
				if !ok {
					return fmt.Errorf("%s is %T, not a float vector", fDense, v)
				}
				row.vector = fv
			}
			rows = append(rows, row)
		}
		return r.err
	})
	return rows, err
}

func (s *Store) deleteChunks(ctx context.Context, pks []string) error {
	for start := 0; start < len(pks); start += 4 * batchRows {
		batch := pks[start:min(len(pks), start+4*batchRows)]
		cctx, cancel := s.callContext(ctx)
		_, err := s.c.Delete(cctx, milvusclient.NewDeleteOption(s.chunks).WithStringIDs(fPK, batch))
		cancel()
		if err != nil {
			return callError(ctx, "delete from", s.chunks, err)
		}
	}
	return nil
}

// revisionFilter selects one revision's chunks, staged or not.
func revisionFilter(tenant, docID, revision string) string {
	return fTenant + " == " + literal(tenant) + " && " + fDocID + " == " + literal(docID) + " && " + fRevision + " == " + literal(revision)
}

// chunkPKs lists the primary keys of one revision's chunks.
func (s *Store) chunkPKs(ctx context.Context, tenant, docID, revision string) ([]string, error) {
	var pks []string
	err := s.queryAll(ctx, s.chunks, revisionFilter(tenant, docID, revision), []string{fPK}, func(rs milvusclient.ResultSet) error {
		col := rs.GetColumn(fPK)
		if col == nil {
			return fmt.Errorf("result has no %s column", fPK)
		}
		for i := 0; i < col.Len(); i++ {
			pk, err := col.GetAsString(i)
			if err != nil {
				return err
			}
			pks = append(pks, pk)
		}
		return nil
	})
	return pks, err
}

// queryIteratorBatch is the page size of queries that may match many rows.
const queryIteratorBatch = 1000

// queryAll runs a query that may match more rows than one Milvus query
// returns, page by page, with strong consistency.
func (s *Store) queryAll(ctx context.Context, collection, filter string, fields []string, each func(milvusclient.ResultSet) error) error {
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	it, err := s.c.QueryIterator(cctx, milvusclient.NewQueryIteratorOption(collection).
		WithFilter(filter).WithOutputFields(fields...).WithBatchSize(queryIteratorBatch).
		WithConsistencyLevel(entity.ClStrong))
	if err != nil {
		return callError(cctx, "query", collection, err)
	}
	for {
		rs, err := it.Next(cctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return callError(cctx, "query", collection, err)
		}
		if err := each(rs); err != nil {
			return fmt.Errorf("store/milvus: query %s: %w", collection, err)
		}
		if rs.ResultCount < queryIteratorBatch {
			return nil
		}
	}
}

// registerPK is the primary key of a document revision's register row.
func registerPK(tenant, docID, revision string) string {
	return pkOf(tenant, kindDocument+"/"+docID+"/"+revision)
}

// generationPK is the primary key of a tenant's generation row.
func generationPK(tenant string) string {
	return pkOf(tenant, kindGeneration)
}

// putRegister upserts register rows for document revisions.
func (s *Store) putRegister(ctx context.Context, docs []store.Document) error {
	n := len(docs)
	cols := map[string][]string{}
	strField := func(name string, f func(d store.Document) string) {
		out := make([]string, n)
		for i, d := range docs {
			out[i] = f(d)
		}
		cols[name] = out
	}
	strField(fPK, func(d store.Document) string { return registerPK(d.Tenant, d.ID, d.Revision) })
	strField(fTenant, func(d store.Document) string { return d.Tenant })
	strField(fKind, func(store.Document) string { return kindDocument })
	strField(fDocID, func(d store.Document) string { return d.ID })
	strField(fNumber, func(d store.Document) string { return d.Number })
	strField(fTitle, func(d store.Document) string { return d.Title })
	strField(fRevision, func(d store.Document) string { return d.Revision })
	strField(fStatus, func(d store.Document) string { return d.Status })
	strField(fDate, func(d store.Document) string { return d.Date })
	strField(fDriveLink, func(d store.Document) string { return d.DriveLink })
	strField(fFile, func(d store.Document) string { return d.File })
	strField(fContentHash, func(d store.Document) string { return d.ContentHash })
	strField(fEmbedModel, func(d store.Document) string { return d.EmbedModel })
	pages, rowsN, chunks, indexedAt, gens := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	active := make([]bool, n)
	placeholders := make([][]float32, n)
	for i, d := range docs {
		pages[i], rowsN[i], chunks[i] = int64(d.Pages), int64(d.Rows), int64(d.Chunks)
		indexedAt[i] = d.IndexedAt.UnixNano()
		active[i] = d.Active
		placeholders[i] = placeholderVector(2)
	}
	opt := milvusclient.NewColumnBasedInsertOption(s.register)
	for _, name := range []string{fPK, fTenant, fKind, fDocID, fNumber, fTitle, fRevision, fStatus, fDate, fDriveLink, fFile, fContentHash, fEmbedModel} {
		opt = opt.WithVarcharColumn(name, cols[name])
	}
	opt = opt.WithInt64Column(fPages, pages).WithInt64Column(fRows, rowsN).WithInt64Column(fChunks, chunks).
		WithInt64Column(fIndexedAt, indexedAt).WithBoolColumn(fActive, active).WithInt64Column(fGeneration, gens).
		WithFloatVectorColumn(fPlaceholder, 2, placeholders)
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	if _, err := s.c.Upsert(cctx, opt); err != nil {
		return callError(cctx, "upsert", s.register, err)
	}
	return nil
}

// bumpGeneration gives the tenant a new generation.
func (s *Store) bumpGeneration(ctx context.Context, tenant string) error {
	empty := []string{""}
	opt := milvusclient.NewColumnBasedInsertOption(s.register).
		WithVarcharColumn(fPK, []string{generationPK(tenant)}).
		WithVarcharColumn(fTenant, []string{tenant}).
		WithVarcharColumn(fKind, []string{kindGeneration})
	for _, name := range []string{fDocID, fNumber, fTitle, fRevision, fStatus, fDate, fDriveLink, fFile, fContentHash, fEmbedModel} {
		opt = opt.WithVarcharColumn(name, empty)
	}
	zero := []int64{0}
	opt = opt.WithInt64Column(fPages, zero).WithInt64Column(fRows, zero).WithInt64Column(fChunks, zero).
		WithInt64Column(fIndexedAt, zero).WithBoolColumn(fActive, []bool{false}).
		WithInt64Column(fGeneration, []int64{newGeneration()}).
		WithFloatVectorColumn(fPlaceholder, 2, [][]float32{placeholderVector(2)})
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	if _, err := s.c.Upsert(cctx, opt); err != nil {
		return callError(cctx, "upsert", s.register, err)
	}
	return nil
}
