package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/spf13/cobra"
)

func newMigrateCmd(a *app) *cobra.Command {
	var replace bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Create the Milvus collections and indexes (CEW_STORE=milvus)",
		Long: `Create the chunks and register collections in Milvus with their indexes (BM25 on
the analysed text, HNSW cosine on a dense field as wide as the configured embedder's
vectors) and load them. Collections already at this version's layout are left alone; one
with another layout (a different embedder dimension, an older cew) is refused with this
message until --replace drops both collections and creates them anew: the documents must
then be ingested again. cew ingest runs this itself when the collections do not exist;
no other command creates anything. The embedded index needs no migration.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.cfg.Store != "milvus" {
				fmt.Fprintf(a.stdout, "CEW_STORE=%s needs no migration\n", a.cfg.Store)
				return nil
			}
			return a.runMigrate(cmd.Context(), replace)
		},
	}
	cmd.Flags().BoolVar(&replace, "replace", false, "drop the collections and create them anew (everything indexed is lost)")
	return cmd
}

// embedderDim is the dimension of the configured embedder's vectors, 0
// without one; it embeds one short text to find out.
func (a *app) embedderDim(ctx context.Context) (int, error) {
	e, err := a.retrievalEmbedding()
	if err != nil {
		return 0, err
	}
	if e.passage == nil {
		return 0, nil
	}
	vecs, err := e.passage.Embed(ctx, []string{"dimension probe"})
	if err != nil {
		return 0, fmt.Errorf("embedder %s: %w (its dimension sizes the Milvus dense field)", e.model, err)
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return 0, fmt.Errorf("embedder %s returned no vector for a probe text", e.model)
	}
	return len(vecs[0]), nil
}

// newScratchSuffix names scratch collections apart from every other run's.
func newScratchSuffix() string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
