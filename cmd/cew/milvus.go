//go:build !nomilvus

package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/milvus"
)

// milvusBuilt says whether this binary can talk to Milvus (see
// milvus_off.go for the build without it).
const milvusBuilt = true

func (a *app) milvusOptions() milvus.Options {
	return milvus.Options{
		Address: a.cfg.MilvusAddress, Token: a.cfg.MilvusToken, Username: a.cfg.MilvusUser, Password: a.cfg.MilvusPassword,
		Database: a.cfg.MilvusDatabase, Collection: a.cfg.MilvusCollection, Consistency: a.cfg.MilvusConsistency,
		Timeout: a.cfg.MilvusTimeout, RRFK: a.cfg.MilvusRRFK, Logger: a.logger,
		NoPartitionKey: !a.cfg.MilvusPartitionKey, DenseIndex: a.cfg.MilvusDenseIndex, NoPartialUpdate: !a.cfg.MilvusPartialUpdate,
	}
}

// openMilvus opens the Milvus store; with migrate (cew ingest) it first
// creates the collections when they do not exist.
func (a *app) openMilvus(ctx context.Context, migrate bool) (store.Store, error) {
	opts := a.milvusOptions()
	st, err := milvus.Open(ctx, opts)
	if migrate && errors.Is(err, milvus.ErrNotMigrated) {
		if _, err := a.migrateMilvus(ctx, false); err != nil {
			return nil, err
		}
		st, err = milvus.Open(ctx, opts)
	}
	if err != nil {
		return nil, err
	}
	e, err := a.retrievalEmbedding()
	if err != nil {
		_ = st.Close()
		return nil, err
	}
	if e.query != nil && st.Dim() == 0 {
		_ = st.Close()
		return nil, fmt.Errorf("store/milvus: collection %s has no dense field but the embedder %s is configured: run `cew migrate --replace` and ingest again (or set CEW_EMBED=none)", opts.Collection, e.model)
	}
	return st, nil
}

// migrateMilvus creates (or with replace, recreates) the collections, with
// a dense field as wide as the configured embedder's vectors.
func (a *app) migrateMilvus(ctx context.Context, replace bool) (milvus.MigrateResult, error) {
	opts := a.milvusOptions()
	dim, err := a.embedderDim(ctx)
	if err != nil {
		return milvus.MigrateResult{}, err
	}
	opts.Dim = dim
	return milvus.Migrate(ctx, opts, replace)
}

// scratchMilvus creates collections of their own for an evaluation and
// drops them when the command ends.
func (a *app) scratchMilvus(ctx context.Context) (store.Store, error) {
	opts := a.milvusOptions()
	opts.Collection = fmt.Sprintf("%s_eval_%s", opts.Collection, newScratchSuffix())
	dim, err := a.embedderDim(ctx)
	if err != nil {
		return nil, err
	}
	opts.Dim = dim
	if _, err := milvus.Migrate(ctx, opts, false); err != nil {
		return nil, err
	}
	a.closers = append(a.closers, func() error { return milvus.Drop(context.WithoutCancel(ctx), opts) })
	st, err := milvus.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, st.Close)
	return st, nil
}

// milvusPing is the readiness check of the Milvus store; nil for any
// other store.
func milvusPing(ctx context.Context, st store.Store) error {
	m, ok := st.(*milvus.Store)
	if !ok {
		return nil
	}
	return m.Ping(ctx)
}

// runMigrate is `cew migrate` for CEW_STORE=milvus.
func (a *app) runMigrate(ctx context.Context, replace bool) error {
	res, err := a.migrateMilvus(ctx, replace)
	if err != nil {
		return err
	}
	for _, name := range res.Dropped {
		fmt.Fprintf(a.stdout, "  dropped   %s\n", name)
	}
	for _, name := range res.Created {
		fmt.Fprintf(a.stdout, "  created   %s\n", name)
	}
	for _, name := range res.Existing {
		fmt.Fprintf(a.stdout, "  current   %s\n", name)
	}
	fmt.Fprintf(a.stdout, "milvus at %s: layout version %d\n", a.cfg.MilvusAddress, milvus.LayoutVersion)
	return nil
}
