package embedded

import (
	"context"
	"fmt"

	"github.com/cewhq/cew/store"
)

var _ store.Lexicon = (*Store)(nil)

// vocabularyCache keeps one tenant's vocabulary for the generation it was
// counted at; a write moves the generation and the next call counts again.
type vocabularyCache struct {
	generation uint64
	words      map[string]int
}

// Vocabulary implements store.Lexicon: the plain words (letters only) of
// the tenant's active chunks — title, section, sheet and text — with the
// number of chunks holding each. It is counted once per generation.
func (s *Store) Vocabulary(ctx context.Context, tenant string) (store.Vocabulary, error) {
	if err := ctx.Err(); err != nil {
		return store.Vocabulary{}, fmt.Errorf("store/embedded: vocabulary: %w", err)
	}
	if tenant == "" {
		return store.Vocabulary{}, fmt.Errorf("store/embedded: vocabulary: %w", store.ErrNoTenant)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.Vocabulary{}, fmt.Errorf("store/embedded: vocabulary %s: %w", tenant, ErrClosed)
	}
	ix, ok := s.tenants[tenant]
	if !ok {
		return store.Vocabulary{Words: map[string]int{}}, nil
	}
	s.vocabMu.Lock()
	defer s.vocabMu.Unlock()
	if c, ok := s.vocab[tenant]; ok && c.generation == ix.generation {
		return store.Vocabulary{Generation: c.generation, Words: c.words}, nil
	}
	words := ix.countWords()
	if s.vocab == nil {
		s.vocab = map[string]vocabularyCache{}
	}
	s.vocab[tenant] = vocabularyCache{generation: ix.generation, words: words}
	return store.Vocabulary{Generation: ix.generation, Words: words}, nil
}

// countWords counts the plain words of the active revisions' chunks.
func (ix *tenantIndex) countWords() map[string]int {
	words := map[string]int{}
	seen := map[string]bool{}
	for slot, r := range ix.slotRev {
		if r < 0 || !ix.revs[r].doc.Active {
			continue
		}
		store.CountWords(&ix.chunks[slot], seen, words)
	}
	return words
}
