package store

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cewhq/cew/store/analysis"
)

// CheckSearch validates a request the way every backend must and returns
// its K (DefaultK for 0), its mode ("" is ModeHybrid) and its query vector
// normalised to unit length (nil when the request has none or is keyword
// only). Errors wrap ErrInvalid.
func CheckSearch(req SearchRequest) (int, Mode, []float32, error) {
	k := req.K
	switch {
	case k < 0:
		return 0, "", nil, fmt.Errorf("%w: K is %d", ErrInvalid, k)
	case k == 0:
		k = DefaultK
	}
	mode := req.Mode
	switch mode {
	case "":
		mode = ModeHybrid
	case ModeHybrid, ModeKeyword, ModeDense:
	default:
		return 0, "", nil, fmt.Errorf("%w: unknown mode %q", ErrInvalid, mode)
	}
	if mode == ModeDense && len(req.Vector) == 0 {
		return 0, "", nil, fmt.Errorf("%w: dense search needs a query vector", ErrInvalid)
	}
	if len(req.Vector) == 0 || mode == ModeKeyword {
		return k, mode, nil, nil
	}
	q, err := Normalised(req.Vector)
	if err != nil {
		return 0, "", nil, fmt.Errorf("%w: query vector: %v", ErrInvalid, err)
	}
	return k, mode, q, nil
}

// Normalised returns a unit-length copy of v. Zero and non-finite vectors
// are refused: cosine similarity is undefined for them.
func Normalised(v []float32) ([]float32, error) {
	var sum float64
	for _, f := range v {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, errors.New("vector has a non-finite value")
		}
		sum += float64(f) * float64(f)
	}
	if sum == 0 {
		return nil, errors.New("vector has zero length")
	}
	inv := 1 / math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = float32(float64(f) * inv)
	}
	return out, nil
}

// CompareDocuments is the order of Catalog.Documents: by number, then
// revision as document controllers read it; document id and the raw
// revision label break ties so the order is total.
func CompareDocuments(a, b Document) int {
	if c := strings.Compare(a.Number, b.Number); c != 0 {
		return c
	}
	if c := strings.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	if c := CompareRevisions(a.Revision, b.Revision); c != 0 {
		return c
	}
	return strings.Compare(a.Revision, b.Revision)
}

// CheckDocument validates a write the way every backend must: a document
// id, chunks with distinct ids that belong to the document's tenant, id
// and revision, and vectors of one dimension, each finite and non-zero. An
// empty revision is an unknown one (no register, none in the file name);
// it orders before every named revision. It returns the chunks' vectors
// normalised (nil where a chunk has none). Errors wrap ErrInvalid.
func CheckDocument(doc Document, chunks []Chunk) ([][]float32, error) {
	if doc.ID == "" {
		return nil, fmt.Errorf("%w: document id is empty", ErrInvalid)
	}
	vectors := make([][]float32, len(chunks))
	ids := make(map[string]bool, len(chunks))
	dim := 0
	for i := range chunks {
		c := &chunks[i]
		switch {
		case c.ID == "":
			return nil, fmt.Errorf("%w: chunk %d has no id", ErrInvalid, i)
		case ids[c.ID]:
			return nil, fmt.Errorf("%w: chunk id %q appears twice", ErrInvalid, c.ID)
		case c.Tenant != doc.Tenant || c.DocID != doc.ID || c.Revision != doc.Revision:
			return nil, fmt.Errorf("%w: chunk %q belongs to tenant %q, document %q, revision %q",
				ErrInvalid, c.ID, c.Tenant, c.DocID, c.Revision)
		}
		ids[c.ID] = true
		if len(c.Vector) == 0 {
			continue
		}
		if dim == 0 {
			dim = len(c.Vector)
		}
		if len(c.Vector) != dim {
			return nil, fmt.Errorf("%w: chunk %q has a %d-dimensional vector, others have %d",
				ErrInvalid, c.ID, len(c.Vector), dim)
		}
		v, err := Normalised(c.Vector)
		if err != nil {
			return nil, fmt.Errorf("%w: chunk %q: %v", ErrInvalid, c.ID, err)
		}
		vectors[i] = v
	}
	return vectors, nil
}

// CountWords adds to words the plain words (lower-case ASCII letters only:
// the words a speller may offer as a correction) and the model numbers
// (identifiers such as "kc158g", which a question may space or hyphenate
// differently) of one chunk's title, section, sheet and text, each counted
// once per chunk; seen is scratch space, cleared here. Backends
// implementing Lexicon count with it.
func CountWords(c *Chunk, seen map[string]bool, words map[string]int) {
	clear(seen)
	for _, f := range [...]string{c.Title, c.Section, c.Sheet, c.Text} {
		for _, t := range analysis.Tokens(f) {
			if seen[t.Text] {
				continue
			}
			if t.Kind == analysis.Word && plainWord(t.Text) || t.Kind == analysis.Identifier {
				seen[t.Text] = true
				words[t.Text]++
			}
		}
	}
}

func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return w != ""
}
