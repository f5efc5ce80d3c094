//go:build nomilvus

package main

import (
	"context"
	"errors"

	"github.com/cewhq/cew/store"
)

// milvusBuilt says whether this binary can talk to Milvus. `make demo`
// builds without it (-tags nomilvus): the Milvus client costs minutes of
// compilation on a fresh machine and the demo uses the embedded index.
const milvusBuilt = false

var errNoMilvus = errors.New("this cew was built without Milvus support (-tags nomilvus, as `make demo` builds it); build it with `make build` to use CEW_STORE=milvus")

func (a *app) openMilvus(context.Context, bool) (store.Store, error) { return nil, errNoMilvus }

func (a *app) scratchMilvus(context.Context) (store.Store, error) { return nil, errNoMilvus }

func milvusPing(context.Context, store.Store) error { return nil }

func (a *app) runMigrate(context.Context, bool) error { return errNoMilvus }
