package milvus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/milvus-io/milvus/client/v2/entity"
	"github.com/milvus-io/milvus/client/v2/index"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/analysis"
)

// LayoutVersion identifies the fields, function and indexes Migrate
// creates. It changes whenever they change; Open refuses any other value.
const LayoutVersion = 1

// Collection properties that record what a collection was made for.
const (
	propLayout   = "cew.layout"
	propAnalysis = "cew.analysis"
	propRole     = "cew.role"
	// propDenseIndex records the dense index type; collections made
	// before it was recorded have HNSW.
	propDenseIndex = "cew.dense_index"
)

// Dense index types Options.DenseIndex accepts.
const (
	// IndexHNSW is the default: approximate, fast at millions of chunks.
	IndexHNSW = "HNSW"
	// IndexFlat is exact brute-force search; it is what engines without
	// HNSW (Milvus Lite's embedded 2.5 engine) offer, and is fast enough
	// up to a few hundred thousand chunks per tenant.
	IndexFlat = "FLAT"
)

// ParseDenseIndex maps a setting to a dense index type; "" is IndexHNSW.
func ParseDenseIndex(s string) (string, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "", IndexHNSW:
		return IndexHNSW, nil
	case IndexFlat:
		return IndexFlat, nil
	}
	return "", fmt.Errorf("%w: dense index %q is not hnsw or flat", store.ErrInvalid, s)
}

// Field names of the chunks collection.
const (
	fPK          = "pk"
	fTenant      = "tenant"
	fChunkID     = "chunk_id"
	fDocID       = "doc_id"
	fDocNumber   = "doc_number"
	fTitle       = "title"
	fRevision    = "revision"
	fActive      = "active"
	fStaged      = "staged"
	fPage        = "page"
	fSection     = "section"
	fSheet       = "sheet"
	fRow         = "sheet_row"
	fDriveLink   = "drive_link"
	fContentHash = "content_hash"
	fChunkIndex  = "chunk_index"
	fText        = "text"
	fTerms       = "terms"
	fSparse      = "sparse"
	fHasVector   = "has_vector"
	fDense       = "dense"
)

// Field names of the register collection (besides fPK, fTenant, fDocID,
// fTitle, fRevision, fActive, fDriveLink, fContentHash).
const (
	fKind        = "kind"
	fNumber      = "number"
	fStatus      = "status"
	fDate        = "date"
	fFile        = "file"
	fEmbedModel  = "embed_model"
	fPages       = "pages"
	fRows        = "rows"
	fChunks      = "chunks"
	fIndexedAt   = "indexed_at"
	fGeneration  = "generation"
	fPlaceholder = "placeholder"
)

// Register row kinds.
const (
	kindDocument   = "document"
	kindGeneration = "generation"
)

// BM25 parameters, the embedded store's (store/embedded), so both rank
// alike.
const (
	bm25K1 = 0.9
	bm25B  = 0.4
)

// HNSW parameters of the dense index: Milvus's documented defaults for
// recall above 0.95 at ef ≥ 64.
const (
	hnswM              = 16
	hnswEfConstruction = 200
)

// VARCHAR limits (bytes). Milvus caps a VARCHAR at 65,535 bytes; values
// over a limit are refused at write time, never truncated.
var maxLen = map[string]int{
	fPK: 1024, fTenant: 256, fChunkID: 1024, fDocID: 512, fDocNumber: 512, fTitle: 2048,
	fRevision: 128, fSection: 2048, fSheet: 512, fDriveLink: 2048, fContentHash: 128,
	fText: 65535, fTerms: 65535, fKind: 16, fNumber: 512, fStatus: 256, fDate: 64,
	fFile: 4096, fEmbedModel: 256,
}

func varchar(name string) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(entity.FieldTypeVarChar).WithMaxLength(int64(maxLen[name]))
}

func scalar(name string, t entity.FieldType) *entity.Field {
	return entity.NewField().WithName(name).WithDataType(t)
}

// chunksSchema is the chunks collection: the chunk id, qualified by the
// tenant (ids are unique only within one) and by the write that made the
// row (see PutDocument), as primary key, the tenant as partition key
// (unless partitionKey is false: then an ordinary field that every filter
// names all the same), every citation field, the
// raw text, the analysed terms that Milvus's BM25 function turns into the
// sparse field, and the dense field when dim > 0.
//
// The BM25 input is cew's own analysis (store/analysis: stems, drawing
// numbers, model numbers, signed numbers, compound units), encoded so that
// Milvus's standard tokenizer keeps each term whole (see encodeTerms): the
// vocabulary is the embedded store's, and identifiers such as
// 277-007-D-C-40327 or %/°C match as they do there.
func chunksSchema(name string, dim int, partitionKey bool) *entity.Schema {
	s := entity.NewSchema().WithName(name).WithDescription("cew chunks").
		WithField(varchar(fPK).WithIsPrimaryKey(true)).
		WithField(varchar(fTenant).WithIsPartitionKey(partitionKey)).
		WithField(varchar(fChunkID)).
		WithField(varchar(fDocID)).
		WithField(varchar(fDocNumber)).
		WithField(varchar(fTitle)).
		WithField(varchar(fRevision)).
		WithField(scalar(fActive, entity.FieldTypeBool)).
		WithField(scalar(fStaged, entity.FieldTypeBool)).
		WithField(scalar(fPage, entity.FieldTypeInt64)).
		WithField(varchar(fSection)).
		WithField(varchar(fSheet)).
		WithField(scalar(fRow, entity.FieldTypeInt64)).
		WithField(varchar(fDriveLink)).
		WithField(varchar(fContentHash)).
		WithField(scalar(fChunkIndex, entity.FieldTypeInt64)).
		WithField(varchar(fText)).
		WithField(varchar(fTerms).WithEnableAnalyzer(true).WithAnalyzerParams(map[string]any{"tokenizer": "standard"})).
		WithField(scalar(fSparse, entity.FieldTypeSparseVector)).
		WithField(scalar(fHasVector, entity.FieldTypeBool)).
		WithFunction(entity.NewFunction().WithName("bm25").WithType(entity.FunctionTypeBM25).
			WithInputFields(fTerms).WithOutputFields(fSparse))
	if dim > 0 {
		s.WithField(scalar(fDense, entity.FieldTypeFloatVector).WithDim(int64(dim)))
	}
	return s
}

// registerSchema is the register collection: one row per document
// revision and one generation row per tenant. Milvus needs a vector field
// in every collection; the register's is a constant placeholder.
func registerSchema(name string, partitionKey bool) *entity.Schema {
	return entity.NewSchema().WithName(name).WithDescription("cew document register").
		WithField(varchar(fPK).WithIsPrimaryKey(true)).
		WithField(varchar(fTenant).WithIsPartitionKey(partitionKey)).
		WithField(varchar(fKind)).
		WithField(varchar(fDocID)).
		WithField(varchar(fNumber)).
		WithField(varchar(fTitle)).
		WithField(varchar(fRevision)).
		WithField(varchar(fStatus)).
		WithField(varchar(fDate)).
		WithField(varchar(fDriveLink)).
		WithField(varchar(fFile)).
		WithField(varchar(fContentHash)).
		WithField(varchar(fEmbedModel)).
		WithField(scalar(fPages, entity.FieldTypeInt64)).
		WithField(scalar(fRows, entity.FieldTypeInt64)).
		WithField(scalar(fChunks, entity.FieldTypeInt64)).
		WithField(scalar(fIndexedAt, entity.FieldTypeInt64)).
		WithField(scalar(fActive, entity.FieldTypeBool)).
		WithField(scalar(fGeneration, entity.FieldTypeInt64)).
		WithField(scalar(fPlaceholder, entity.FieldTypeFloatVector).WithDim(2))
}

// indexSpec builds an index definition the way Milvus's own clients send
// it: type and metric as keys, build parameters as one JSON object.
func indexSpec(indexType, metric string, params map[string]any) index.Index {
	b, _ := json.Marshal(params)
	return index.NewGenericIndex("", map[string]string{
		"index_type": indexType, "metric_type": metric, "params": string(b),
	})
}

type collectionSpec struct {
	name    string
	role    string
	schema  *entity.Schema
	indexes map[string]index.Index // field → index
	props   map[string]string
}

func (s *Store) specs(dim int) []collectionSpec {
	partitionKey := !s.opts.NoPartitionKey
	chunkIndexes := map[string]index.Index{
		fSparse: indexSpec("SPARSE_INVERTED_INDEX", "BM25", map[string]any{"bm25_k1": bm25K1, "bm25_b": bm25B}),
	}
	if dim > 0 {
		params := map[string]any{}
		if s.denseIndex == IndexHNSW {
			params = map[string]any{"M": hnswM, "efConstruction": hnswEfConstruction}
		}
		chunkIndexes[fDense] = indexSpec(s.denseIndex, "COSINE", params)
	}
	return []collectionSpec{
		{name: s.chunks, role: "chunks", schema: chunksSchema(s.chunks, dim, partitionKey), indexes: chunkIndexes,
			props: map[string]string{propDenseIndex: s.denseIndex}},
		{name: s.register, role: "register", schema: registerSchema(s.register, partitionKey),
			indexes: map[string]index.Index{fPlaceholder: indexSpec("FLAT", "L2", map[string]any{})}},
	}
}

// MigrateResult says what Migrate did.
type MigrateResult struct {
	Created  []string // collections created
	Existing []string // collections already at this layout
	Dropped  []string // collections dropped because replace was asked
}

// Migrate creates the chunks and register collections with their indexes
// and loads them. Collections already at this layout are left alone; one
// with another layout is ErrLayout. With replace, both collections are
// dropped and created anew whatever their layout: their contents are lost
// and the documents must be ingested again.
func Migrate(ctx context.Context, opts Options, replace bool) (MigrateResult, error) {
	opts.defaults()
	var res MigrateResult
	denseIndex, err := ParseDenseIndex(opts.DenseIndex)
	if err != nil {
		return res, fmt.Errorf("store/milvus: migrate: %w", err)
	}
	c, err := connect(ctx, opts)
	if err != nil {
		return res, err
	}
	defer func() { _ = c.Close(context.WithoutCancel(ctx)) }()
	s := &Store{c: c, opts: opts, chunks: opts.Collection, register: opts.Collection + "_register", denseIndex: denseIndex, log: opts.Logger}
	for _, spec := range s.specs(opts.Dim) {
		cctx, cancel := s.callContext(ctx)
		exists, err := c.HasCollection(cctx, milvusclient.NewHasCollectionOption(spec.name))
		cancel()
		if err != nil {
			return res, callError(ctx, "migrate", spec.name, err)
		}
		if exists && !replace {
			if err := s.checkOne(ctx, spec.name, spec.role, opts.Dim); err != nil {
				return res, err
			}
			res.Existing = append(res.Existing, spec.name)
			continue
		}
		if exists {
			cctx, cancel := s.callContext(ctx)
			err := c.DropCollection(cctx, milvusclient.NewDropCollectionOption(spec.name))
			cancel()
			if err != nil {
				return res, callError(ctx, "drop", spec.name, err)
			}
			res.Dropped = append(res.Dropped, spec.name)
			s.log.Warn("milvus collection dropped", "collection", spec.name)
		}
		if err := s.create(ctx, spec); err != nil {
			return res, err
		}
		res.Created = append(res.Created, spec.name)
		s.log.Info("milvus collection created", "collection", spec.name, "layout", LayoutVersion, "dense_dim", opts.Dim,
			"partition_key", !opts.NoPartitionKey, "dense_index", denseIndex)
	}
	if err := s.checkLayout(ctx); err != nil {
		return res, err
	}
	return res, s.load(ctx)
}

func (s *Store) create(ctx context.Context, spec collectionSpec) error {
	props := map[string]string{propLayout: strconv.Itoa(LayoutVersion), propAnalysis: strconv.Itoa(analysis.Version), propRole: spec.role}
	maps.Copy(props, spec.props)
	// The properties are also written into the description: the embedded
	// 2.5 engine of Milvus Lite drops collection properties (and cannot
	// alter them), but keeps the description.
	spec.schema.WithDescription(describeProps(spec.schema.Description, props))
	opt := milvusclient.NewCreateCollectionOption(spec.name, spec.schema).WithConsistencyLevel(entity.ClStrong)
	for k, v := range props {
		opt = opt.WithProperty(k, v)
	}
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	if err := s.c.CreateCollection(cctx, opt); err != nil {
		return callError(ctx, "create", spec.name, err)
	}
	for field, idx := range spec.indexes {
		task, err := s.c.CreateIndex(cctx, milvusclient.NewCreateIndexOption(spec.name, field, idx))
		if err != nil {
			return callError(ctx, "create index on "+field+" of", spec.name, err)
		}
		if err := task.Await(cctx); err != nil {
			return callError(ctx, "build index on "+field+" of", spec.name, err)
		}
	}
	return nil
}

// load loads both collections into memory (Milvus serves only loaded
// collections; a restarted server needs it again). Loading an already
// loaded collection is a no-op.
func (s *Store) load(ctx context.Context) error {
	for _, name := range []string{s.chunks, s.register} {
		cctx, cancel := s.callContext(ctx)
		task, err := s.c.LoadCollection(cctx, milvusclient.NewLoadCollectionOption(name))
		if err == nil {
			err = task.Await(cctx)
		}
		cancel()
		if err != nil {
			return callError(ctx, "load", name, err)
		}
	}
	return nil
}

// checkLayout checks both collections and sets s.dim from the chunks
// collection.
func (s *Store) checkLayout(ctx context.Context) error {
	missing := 0
	var first error
	for _, spec := range []struct{ name, role string }{{s.chunks, "chunks"}, {s.register, "register"}} {
		err := s.checkOne(ctx, spec.name, spec.role, s.opts.Dim)
		switch {
		case errors.Is(err, ErrNotMigrated):
			missing++
		case err != nil:
			return err
		}
		if first == nil {
			first = err
		}
	}
	switch missing {
	case 0:
		return nil
	case 2:
		return first
	}
	return fmt.Errorf("store/milvus: %s and %s: %w: one of the two collections is missing; run `cew migrate`", s.chunks, s.register, ErrLayout)
}

// checkOne describes one collection and compares it with what this
// version creates.
func (s *Store) checkOne(ctx context.Context, name, role string, wantDim int) error {
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	exists, err := s.c.HasCollection(cctx, milvusclient.NewHasCollectionOption(name))
	if err != nil {
		return callError(ctx, "describe", name, err)
	}
	if !exists {
		return fmt.Errorf("store/milvus: collection %s: %w; run `cew migrate` (or `cew ingest`, which creates it)", name, ErrNotMigrated)
	}
	coll, err := s.c.DescribeCollection(cctx, milvusclient.NewDescribeCollectionOption(name))
	if err != nil {
		return callError(ctx, "describe", name, err)
	}
	replace := "; run `cew migrate --replace` (drops the collections) and ingest the documents again"
	if coll.Properties[propRole] == "" && coll.Schema != nil {
		coll.Properties = propsOf(coll.Schema.Description)
	}
	if got := coll.Properties[propRole]; got != role {
		return fmt.Errorf("store/milvus: collection %s: %w: it is not a cew %s collection (role %q)%s", name, ErrLayout, role, got, replace)
	}
	if got := coll.Properties[propLayout]; got != strconv.Itoa(LayoutVersion) {
		return fmt.Errorf("store/milvus: collection %s: %w: layout version %q, this cew needs %d%s", name, ErrLayout, got, LayoutVersion, replace)
	}
	if got := coll.Properties[propAnalysis]; got != strconv.Itoa(analysis.Version) {
		return fmt.Errorf("store/milvus: collection %s: %w: terms analysed with version %q, this cew analyses with %d%s", name, ErrLayout, got, analysis.Version, replace)
	}
	for _, f := range coll.Schema.Fields {
		if f.Name == fTenant && f.IsPartitionKey == s.opts.NoPartitionKey {
			return fmt.Errorf("store/milvus: collection %s: %w: %s, CEW_MILVUS_PARTITION_KEY is %t%s",
				name, ErrLayout, tenantLayout(f.IsPartitionKey), !s.opts.NoPartitionKey, replace)
		}
	}
	if role != "chunks" {
		return nil
	}
	got := coll.Properties[propDenseIndex]
	if got == "" {
		got = IndexHNSW
	}
	dim := 0
	for _, f := range coll.Schema.Fields {
		if f.Name == fDense {
			d, err := f.GetDim()
			if err != nil {
				return fmt.Errorf("store/milvus: collection %s: %w: dense field: %v%s", name, ErrLayout, err, replace)
			}
			dim = int(d)
		}
	}
	if wantDim > 0 && dim != wantDim {
		have := "no dense field"
		if dim > 0 {
			have = fmt.Sprintf("a %d-dimensional dense field", dim)
		}
		return fmt.Errorf("store/milvus: collection %s: %w: it has %s, the configured embedder gives %d dimensions%s", name, ErrLayout, have, wantDim, replace)
	}
	if dim > 0 && got != s.denseIndex {
		return fmt.Errorf("store/milvus: collection %s: %w: its dense index is %s, CEW_MILVUS_DENSE_INDEX is %s%s",
			name, ErrLayout, got, s.denseIndex, replace)
	}
	s.dim = dim
	return nil
}

// describeProps appends the properties to a description, in brackets:
// "cew chunks [cew.analysis=3 cew.layout=1 cew.role=chunks]".
func describeProps(desc string, props map[string]string) string {
	keys := slices.Sorted(maps.Keys(props))
	pairs := make([]string, len(keys))
	for i, k := range keys {
		pairs[i] = k + "=" + props[k]
	}
	return desc + " [" + strings.Join(pairs, " ") + "]"
}

// propsOf reads the properties describeProps wrote; nil when there are
// none.
func propsOf(desc string) map[string]string {
	open, end := strings.LastIndex(desc, "["), strings.LastIndex(desc, "]")
	if open < 0 || end < open {
		return nil
	}
	props := map[string]string{}
	for _, pair := range strings.Fields(desc[open+1 : end]) {
		if k, v, ok := strings.Cut(pair, "="); ok {
			props[k] = v
		}
	}
	return props
}

func tenantLayout(partitionKey bool) string {
	if partitionKey {
		return "the tenant is its partition key"
	}
	return "the tenant is an ordinary field, not the partition key"
}

// Drop removes both collections and everything in them. Missing
// collections are not an error.
func Drop(ctx context.Context, opts Options) error {
	opts.defaults()
	c, err := connect(ctx, opts)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close(context.WithoutCancel(ctx)) }()
	for _, name := range []string{opts.Collection, opts.Collection + "_register"} {
		cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		exists, err := c.HasCollection(cctx, milvusclient.NewHasCollectionOption(name))
		if err == nil && exists {
			err = c.DropCollection(cctx, milvusclient.NewDropCollectionOption(name))
		}
		cancel()
		if err != nil {
			return callError(ctx, "drop", name, err)
		}
	}
	return nil
}
