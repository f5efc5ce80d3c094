// Package store defines the document index cew answers from: documents with
// their revisions, the chunks cut from them, and hybrid (keyword + dense)
// search over the latest active revision of each document, scoped by tenant.
//
// Backends (store/embedded, and Milvus in production) implement Store and pass
// the conformance suite in store/storetest. Every score a backend returns is on
// one scale: 0..1, higher is better. Two capabilities are optional, found by
// type assertion: Lexicon (the vocabulary spelling correction checks
// against; the Milvus tests compare it with the embedded index's) and
// ChunkReader (chunks read by id; held by the conformance suite).
package store

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Sentinel errors shared by every backend; check them with errors.Is.
var (
	// ErrNoTenant is returned by any call that is not scoped to a tenant.
	ErrNoTenant = errors.New("store: tenant is required")
	// ErrNotFound is returned when a document or chunk does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrInvalid is returned for a malformed request (empty ids, chunks that
	// do not belong to the document being written, and the like).
	ErrInvalid = errors.New("store: invalid request")
)

// Document is one revision of one controlled document, as the register (or
// the file name) describes it, plus what indexing learned about it.
type Document struct {
	Tenant string `json:"tenant"`
	// ID identifies the document across revisions (derived from its number).
	ID     string `json:"doc_id"`
	Number string `json:"number"`
	Title  string `json:"title"`
	// Revision is the register's (or the file name's) revision label; ""
	// when neither names one, shown as unknown, never as a made-up "0".
	Revision string `json:"revision"`
	// Status is the register's status text ("IFC", "For approval", …).
	Status    string `json:"status"`
	Date      string `json:"date"`
	DriveLink string `json:"drive_link"`
	// File is the source path the revision was read from.
	File string `json:"file"`
	// ContentHash is the hex SHA-256 of the source file; an unchanged file is
	// not indexed again.
	ContentHash string `json:"content_hash"`
	// EmbedModel names the model that embedded the chunks ("" = none), so
	// configuring or changing the embedder re-indexes unchanged files.
	EmbedModel string    `json:"embed_model,omitempty"`
	Pages      int       `json:"pages"`
	Rows       int       `json:"rows"`
	Chunks     int       `json:"chunks"`
	IndexedAt  time.Time `json:"indexed_at"`
	// Active is true for the one revision of a document that search sees:
	// the latest revision whose status does not withdraw it.
	Active bool `json:"active"`
}

// Chunk is the retrievable unit: a passage of one page or section, or one
// spreadsheet row, with everything needed to cite it.
type Chunk struct {
	// ID is DocID/Revision/Index, so re-ingesting is idempotent.
	ID        string `json:"chunk_id"`
	Tenant    string `json:"tenant"`
	DocID     string `json:"doc_id"`
	DocNumber string `json:"doc_number"`
	Title     string `json:"title"`
	Revision  string `json:"revision"`
	// Page is 1-based (the number a PDF viewer shows); 0 when not paged.
	Page    int    `json:"page,omitempty"`
	Section string `json:"section,omitempty"`
	// Sheet and Row locate a spreadsheet row; Row is the 1-based number a
	// spreadsheet program shows (header row = 1).
	Sheet       string `json:"sheet,omitempty"`
	Row         int    `json:"row,omitempty"`
	DriveLink   string `json:"drive_link,omitempty"`
	ContentHash string `json:"content_hash"`
	Index       int    `json:"chunk_index"`
	Text        string `json:"text"`
	// Vector is the dense embedding; nil when no embedder is configured.
	Vector []float32 `json:"vector,omitempty"`
}

// ChunkID builds the canonical chunk id.
func ChunkID(docID, revision string, index int) string {
	return docID + "/" + revision + "/" + strconv.Itoa(index)
}

// Mode selects which retrievers a search uses.
type Mode string

const (
	// ModeHybrid fuses keyword and dense results by reciprocal rank fusion;
	// with no query vector it is keyword search alone.
	ModeHybrid Mode = "hybrid"
	// ModeKeyword is BM25 only.
	ModeKeyword Mode = "bm25"
	// ModeDense is vector similarity only (requires Vector).
	ModeDense Mode = "dense"
)

// SearchRequest is a tenant-scoped query.
type SearchRequest struct {
	Tenant string
	Query  string
	// Vector is the query embedding; leave nil for keyword search only.
	Vector []float32
	Mode   Mode
	// K is the number of hits wanted; 0 means DefaultK.
	K int
	// DocIDs restricts the search to these documents when non-empty.
	DocIDs []string
	// IncludeInactive also searches superseded and withdrawn revisions.
	IncludeInactive bool
}

// DefaultK is the number of candidates a search returns when K is 0.
const DefaultK = 50

// RRFK is the k of reciprocal rank fusion, 1/(k+rank), as in Cormack et al.
const RRFK = 60

// Hit is one search result.
type Hit struct {
	Chunk Chunk
	// Score is in [0,1], higher is better, comparable within one result list.
	Score float64
	// KeywordRank and DenseRank are the 1-based ranks in each retriever's
	// list (0 = not retrieved by it).
	KeywordRank int
	DenseRank   int
}

// Searcher runs queries.
type Searcher interface {
	Search(ctx context.Context, req SearchRequest) ([]Hit, error)
}

// Indexer writes documents. PutDocument stores one revision and its chunks,
// replacing any chunks already stored for the same document revision, and
// re-evaluates which revision of the document is active (see Latest).
type Indexer interface {
	PutDocument(ctx context.Context, doc Document, chunks []Chunk) error
}

// Catalog lists what is indexed.
type Catalog interface {
	// Documents returns every stored revision of every document of the
	// tenant, active or not, ordered by number then revision.
	Documents(ctx context.Context, tenant string) ([]Document, error)
	// Generation is a counter that changes whenever the tenant's index
	// changes; caches key on it.
	Generation(ctx context.Context, tenant string) (uint64, error)
}

// Vocabulary is the words and model numbers of a tenant's searchable
// chunks: each lower-case word or identifier with the number of chunks
// that hold it, as of one generation.
type Vocabulary struct {
	Generation uint64
	Words      map[string]int
}

// Lexicon is an optional capability of a Searcher, found by type
// assertion: the vocabulary that spelling correction checks question words
// against. A backend without it answers without spelling correction.
type Lexicon interface {
	Vocabulary(ctx context.Context, tenant string) (Vocabulary, error)
}

// ChunkReader is an optional capability of a Searcher, found by type
// assertion: chunks read by id rather than ranked, for the passages a
// question needs wherever they rank (a document's title page when it asks
// who wrote the document). A backend without it answers from what search
// returns.
type ChunkReader interface {
	// Chunks returns the tenant's stored chunks with these ids, in the order
	// asked, of any revision; an id that names no chunk is skipped.
	Chunks(ctx context.Context, tenant string, ids []string) ([]Chunk, error)
}

// InOrder lists the found chunks in the order of ids, each once, for a
// ChunkReader: an id found nowhere is skipped.
func InOrder(ids []string, found map[string]Chunk) []Chunk {
	out := make([]Chunk, 0, len(found))
	for _, id := range ids {
		if c, ok := found[id]; ok {
			out = append(out, c)
			delete(found, id)
		}
	}
	return out
}

// Store is what a backend implements.
type Store interface {
	Searcher
	Indexer
	Catalog
	Close() error
}
