package milvus

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/milvus-io/milvus/client/v2/entity"
	"github.com/milvus-io/milvus/client/v2/index"
	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
)

// hitFields are the chunk fields a search returns.
var hitFields = []string{
	fTenant, fChunkID, fDocID, fDocNumber, fTitle, fRevision, fPage, fSection, fSheet, fRow,
	fDriveLink, fContentHash, fChunkIndex, fText,
}

// metricType is the search parameter every request sends explicitly:
// Milvus Lite rejects the client's empty default.
const metricType = "metric_type"

// Search implements store.Searcher, in Milvus: BM25 on the sparse field,
// cosine on the dense field, or both fused by Milvus's RRF ranker, always
// filtered to the tenant and to active revisions (all written revisions
// with IncludeInactive). Scores, 0..1, higher is better:
//   - keyword: the BM25 score divided by the best hit's. Milvus does not
//     expose the term statistics the embedded store divides by (the
//     query's maximum attainable score), so the best hit scores 1; ratios
//     between hits, which is what the rerankers use, are the same;
//   - dense: max(0, cosine similarity);
//   - hybrid with a query vector: Milvus's RRF score, the sum of
//     1/(k+rank) over the keyword and dense lists (each cut at
//     max(K, store.DefaultK)), divided by its maximum 2/(k+1), as the
//     embedded store computes it;
//   - hybrid without a query vector: the keyword score.
//
// KeywordRank and DenseRank of hybrid hits come from the two lists
// searched on their own beside the hybrid search.
func (s *Store) Search(ctx context.Context, req store.SearchRequest) ([]store.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store/milvus: search: %w", err)
	}
	if req.Tenant == "" {
		return nil, fmt.Errorf("store/milvus: search: %w", store.ErrNoTenant)
	}
	k, mode, vector, err := store.CheckSearch(req)
	if err != nil {
		return nil, fmt.Errorf("store/milvus: search %s: %w", req.Tenant, err)
	}
	if err := s.use(); err != nil {
		return nil, fmt.Errorf("store/milvus: search %s: %w", req.Tenant, err)
	}
	defer s.mu.RUnlock()
	if vector != nil {
		switch {
		case s.dim == 0:
			return nil, fmt.Errorf("store/milvus: search %s: %w: collection %s has no dense field (created without an embedder; run `cew migrate --replace` with the embedder configured)",
				req.Tenant, store.ErrInvalid, s.chunks)
		case len(vector) != s.dim:
			return nil, fmt.Errorf("store/milvus: search %s: %w: query vector has %d dimensions, collection %s has %d",
				req.Tenant, store.ErrInvalid, len(vector), s.chunks, s.dim)
		}
	}
	filter, err := searchFilter(req)
	if err != nil {
		return nil, fmt.Errorf("store/milvus: search %s: %w", req.Tenant, err)
	}
	terms, nterms := queryTerms(req.Query)
	q := query{filter: filter, terms: terms, vector: vector}
	if nterms == 0 {
		q.terms = ""
	}
	var hits []store.Hit
	switch {
	case mode == store.ModeKeyword || (mode == store.ModeHybrid && vector == nil):
		hits, err = s.keyword(ctx, q, k)
	case mode == store.ModeDense:
		hits, err = s.dense(ctx, q, k)
	default:
		hits, err = s.hybrid(ctx, q, k)
	}
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// query is one search's filter and inputs.
type query struct {
	filter string
	terms  string    // encoded distinct query terms; "" when there are none
	vector []float32 // normalised; nil when there is none
}

// searchFilter scopes a search: the tenant (the partition key, so Milvus
// searches only that tenant's partition), active revisions or every
// written one, and the requested documents.
func searchFilter(req store.SearchRequest) (string, error) {
	if err := checkKey(fTenant, req.Tenant); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(fTenant + " == " + literal(req.Tenant))
	if req.IncludeInactive {
		b.WriteString(" && " + fStaged + " == false")
	} else {
		b.WriteString(" && " + fActive + " == true")
	}
	if len(req.DocIDs) > 0 {
		b.WriteString(" && " + fDocID + " in [")
		for i, id := range req.DocIDs {
			if err := checkKey(fDocID, id); err != nil {
				return "", err
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(literal(id))
		}
		b.WriteString("]")
	}
	return b.String(), nil
}

// depth is how far each list of a hybrid search reaches, as in the
// embedded store.
func depth(k int) int { return max(k, store.DefaultK) }

// efFor is the HNSW search breadth: at least the number of hits wanted
// (Milvus requires it) and at least 64 for recall.
func efFor(limit int) int { return max(limit, 64) }

// ann is one list of a search: a field, its query, the filter and the
// metric, sent explicitly on every request (Milvus Lite rejects the
// client's empty default).
type ann struct {
	field  string
	limit  int
	vector entity.Vector
	filter string
	metric string
	param  index.AnnParam // nil for BM25
}

func (a ann) request() *milvusclient.AnnRequest {
	r := milvusclient.NewAnnRequest(a.field, a.limit, a.vector).WithFilter(a.filter).WithSearchParam(metricType, a.metric)
	if a.param != nil {
		r = r.WithAnnParam(a.param)
	}
	return r
}

func keywordANN(q query, limit int) ann {
	return ann{field: fSparse, limit: limit, vector: entity.Text(q.terms), filter: q.filter, metric: "BM25"}
}

func (s *Store) denseANN(q query, limit int) ann {
	a := ann{field: fDense, limit: limit, vector: entity.FloatVector(q.vector), filter: q.filter + " && " + fHasVector + " == true",
		metric: "COSINE"}
	if s.denseIndex == IndexHNSW {
		a.param = index.NewHNSWAnnParam(efFor(limit))
	}
	return a
}

// keyword runs BM25 search in Milvus.
func (s *Store) keyword(ctx context.Context, q query, k int) ([]store.Hit, error) {
	if q.terms == "" {
		return nil, nil
	}
	rs, err := s.search(ctx, "bm25 search", keywordANN(q, k), hitFields)
	if err != nil {
		return nil, err
	}
	hits, err := s.hits(rs, func(score float32) float64 { return math.Abs(float64(score)) })
	if err != nil {
		return nil, err
	}
	if len(hits) > 0 && hits[0].Score > 0 {
		top := hits[0].Score
		for i := range hits {
			hits[i].Score = min(1, hits[i].Score/top)
		}
	}
	for i := range hits {
		hits[i].KeywordRank = i + 1
	}
	return hits, nil
}

// dense runs cosine search in Milvus.
func (s *Store) dense(ctx context.Context, q query, k int) ([]store.Hit, error) {
	rs, err := s.search(ctx, "dense search", s.denseANN(q, k), hitFields)
	if err != nil {
		return nil, err
	}
	hits, err := s.hits(rs, func(score float32) float64 { return min(1, max(0, float64(score))) })
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].DenseRank = i + 1
	}
	return hits, nil
}

// hybrid runs Milvus's hybrid search with the RRF ranker and, beside it,
// the two lists on their own (primary keys only) to label each hit's
// ranks.
func (s *Store) hybrid(ctx context.Context, q query, k int) ([]store.Hit, error) {
	d := depth(k)
	reqs := []*milvusclient.AnnRequest{s.denseANN(q, d).request()}
	if q.terms != "" {
		reqs = append(reqs, keywordANN(q, d).request())
	}
	var (
		fused           milvusclient.ResultSet
		kwRanks, dRanks map[string]int
	)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		cctx, cancel := s.callContext(gctx)
		defer cancel()
		opt := milvusclient.NewHybridSearchOption(s.chunks, k, reqs...).
			WithReranker(milvusclient.NewRRFReranker().WithK(float64(s.opts.RRFK))).
			WithOutputFields(hitFields...).
			WithConsistencyLevel(s.consistency)
		res, err := s.c.HybridSearch(cctx, opt)
		if err != nil {
			return callError(cctx, "hybrid search", s.chunks, err)
		}
		if len(res) > 0 {
			fused = res[0]
		}
		return nil
	})
	g.Go(func() error {
		var err error
		dRanks, err = s.ranks(gctx, "dense search", s.denseANN(q, d))
		return err
	})
	if q.terms != "" {
		g.Go(func() error {
			var err error
			kwRanks, err = s.ranks(gctx, "bm25 search", keywordANN(q, d))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	maxRRF := 2 / float64(s.opts.RRFK+1)
	hits, err := s.hits(fused, func(score float32) float64 { return min(1, float64(score)/maxRRF) })
	if err != nil {
		return nil, err
	}
	for i := range hits {
		pk := pkOf(hits[i].Chunk.Tenant, hits[i].Chunk.ID)
		hits[i].KeywordRank, hits[i].DenseRank = kwRanks[pk], dRanks[pk]
	}
	return hits, nil
}

// search runs one list.
func (s *Store) search(ctx context.Context, op string, a ann, fields []string) (milvusclient.ResultSet, error) {
	cctx, cancel := s.callContext(ctx)
	defer cancel()
	opt := milvusclient.NewSearchOption(s.chunks, a.limit, []entity.Vector{a.vector}).
		WithANNSField(a.field).WithFilter(a.filter).WithSearchParam(metricType, a.metric).
		WithOutputFields(fields...).WithConsistencyLevel(s.consistency)
	if a.param != nil {
		opt = opt.WithAnnParam(a.param)
	}
	res, err := s.c.Search(cctx, opt)
	if err != nil {
		return milvusclient.ResultSet{}, callError(cctx, op, s.chunks, err)
	}
	if len(res) == 0 {
		return milvusclient.ResultSet{}, nil
	}
	if res[0].Err != nil {
		return milvusclient.ResultSet{}, callError(cctx, op, s.chunks, res[0].Err)
	}
	return res[0], nil
}

// ranks runs one list on its own and returns each primary key's 1-based
// rank in it, ordered as Search orders hits.
func (s *Store) ranks(ctx context.Context, op string, a ann) (map[string]int, error) {
	rs, err := s.search(ctx, op, a, []string{fTenant, fChunkID})
	if err != nil {
		return nil, err
	}
	hits, err := s.hits(rs, func(score float32) float64 { return math.Abs(float64(score)) })
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(hits))
	for i, h := range hits {
		out[pkOf(h.Chunk.Tenant, h.Chunk.ID)] = i + 1
	}
	return out, nil
}

// chunk reads row i's hitFields.
func (r *resultReader) chunk(i int) store.Chunk {
	return store.Chunk{Tenant: r.str(fTenant, i), ID: r.str(fChunkID, i), DocID: r.str(fDocID, i),
		DocNumber: r.str(fDocNumber, i), Title: r.str(fTitle, i), Revision: r.str(fRevision, i),
		Page: int(r.int(fPage, i)), Section: r.str(fSection, i), Sheet: r.str(fSheet, i), Row: int(r.int(fRow, i)),
		DriveLink: r.str(fDriveLink, i), ContentHash: r.str(fContentHash, i), Index: int(r.int(fChunkIndex, i)), Text: r.str(fText, i)}
}

// hits turns a result set into hits with the given score mapping, best
// first, ties broken by chunk id so results are deterministic.
func (s *Store) hits(rs milvusclient.ResultSet, score func(float32) float64) ([]store.Hit, error) {
	if rs.ResultCount == 0 {
		return nil, nil
	}
	r := resultReader{rs: rs}
	hits := make([]store.Hit, 0, rs.ResultCount)
	has := func(name string) bool { return rs.GetColumn(name) != nil }
	for i := 0; i < rs.ResultCount; i++ {
		c := store.Chunk{Tenant: r.str(fTenant, i), ID: r.str(fChunkID, i)}
		if has(fText) {
			c = r.chunk(i)
		}
		var sc float64
		if i < len(rs.Scores) {
			sc = score(rs.Scores[i])
		}
		if math.IsNaN(sc) {
			sc = 0
		}
		hits = append(hits, store.Hit{Chunk: c, Score: sc})
	}
	if r.err != nil {
		return nil, fmt.Errorf("store/milvus: search %s: %w", s.chunks, r.err)
	}
	// While a revision is rewritten its earlier rows may still be visible
	// beside the new ones for a moment: a chunk is listed once.
	seen := make(map[string]bool, len(hits))
	hits = slices.DeleteFunc(hits, func(h store.Hit) bool {
		dup := seen[h.Chunk.ID]
		seen[h.Chunk.ID] = true
		return dup
	})
	slices.SortStableFunc(hits, func(a, b store.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	return hits, nil
}
