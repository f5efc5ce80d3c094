package drive

import (
	"context"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// StoreWriter is a store that takes writes in batches: the embedded index
// as a server follows it, where each Write opens the file for writing and
// loads the result (store/embedded's Follower).
type StoreWriter interface {
	Write(ctx context.Context, fn func(w store.Store) error) error
}

// WriteInBatches is an Ingester that runs each step of a sync (a batch of
// files, a withdrawal) as one Write, so a batch of documents costs one
// reload of the index rather than one per document, and is answerable
// when the step returns. cfg is the ingestion configuration; its Store is
// replaced by the writer's.
func WriteInBatches(w StoreWriter, cfg ingest.Config) Ingester {
	return batchedIngester{w: w, cfg: cfg}
}

type batchedIngester struct {
	w   StoreWriter
	cfg ingest.Config
}

func (b batchedIngester) ingester(w store.Store) *ingest.Ingester {
	cfg := b.cfg
	cfg.Store = w
	return ingest.New(cfg)
}

func (b batchedIngester) IngestSources(ctx context.Context, tenant string, files []ingest.SourceFile, live func(string) bool, progress ingest.Progress) (ingest.Report, error) {
	var rep ingest.Report
	err := b.w.Write(ctx, func(w store.Store) error {
		var err error
		rep, err = b.ingester(w).IngestSources(ctx, tenant, files, live, progress)
		return err
	})
	return rep, err
}

func (b batchedIngester) Withdraw(ctx context.Context, tenant string, ws []ingest.Withdrawal) error {
	if len(ws) == 0 {
		return nil
	}
	return b.w.Write(ctx, func(w store.Store) error {
		return b.ingester(w).Withdraw(ctx, tenant, ws)
	})
}
