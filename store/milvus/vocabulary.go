package milvus

import (
	"context"
	"fmt"

	"github.com/milvus-io/milvus/client/v2/milvusclient"

	"github.com/cewhq/cew/store"
)

var _ store.Lexicon = (*Store)(nil)

// vocabulary is one tenant's word counts at one generation.
type vocabulary struct {
	generation uint64
	words      map[string]int
}

// Vocabulary implements store.Lexicon: the plain words of the tenant's
// active chunks with the number of chunks holding each, as the embedded
// store counts them. Milvus keeps no such list, so the chunks are read
// (text fields only) once per generation and kept in this process.
func (s *Store) Vocabulary(ctx context.Context, tenant string) (store.Vocabulary, error) {
	gen, err := s.Generation(ctx, tenant)
	if err != nil {
		return store.Vocabulary{}, err
	}
	s.vocabMu.Lock()
	defer s.vocabMu.Unlock()
	if v, ok := s.vocab[tenant]; ok && v.generation == gen {
		return store.Vocabulary{Generation: gen, Words: v.words}, nil
	}
	if err := s.use(); err != nil {
		return store.Vocabulary{}, fmt.Errorf("store/milvus: vocabulary %s: %w", tenant, err)
	}
	defer s.mu.RUnlock()
	words := map[string]int{}
	seen := map[string]bool{}
	filter := fTenant + " == " + literal(tenant) + " && " + fActive + " == true"
	err = s.queryAll(ctx, s.chunks, filter, []string{fTitle, fSection, fSheet, fText}, func(rs milvusclient.ResultSet) error {
		r := resultReader{rs: rs}
		for i := 0; i < rs.ResultCount; i++ {
			c := store.Chunk{Title: r.str(fTitle, i), Section: r.str(fSection, i), Sheet: r.str(fSheet, i), Text: r.str(fText, i)}
			store.CountWords(&c, seen, words)
		}
		return r.err
	})
	if err != nil {
		return store.Vocabulary{}, fmt.Errorf("store/milvus: vocabulary %s: %w", tenant, err)
	}
	if s.vocab == nil {
		s.vocab = map[string]vocabulary{}
	}
	s.vocab[tenant] = vocabulary{generation: gen, words: words}
	return store.Vocabulary{Generation: gen, Words: words}, nil
}
