package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/store"
)

// searchOutput is the `cew search --json` contract.
type searchOutput struct {
	Query string      `json:"query"`
	Hits  []searchHit `json:"hits"`
}

// searchHit is a source of the answer contract plus its chunk id.
type searchHit struct {
	ChunkID string `json:"chunk_id"`
	answer.Source
}

func newSearchCmd(a *app) *cobra.Command {
	var (
		asJSON bool
		k      int
		mode   string
		all    bool
	)
	cmd := &cobra.Command{
		Use:   `search ["query"]`,
		Short: "Search the index and print the best passages with their locations",
		Long: `Search the latest active revision of every document (hybrid BM25 + dense when an
embedder is configured). With --json and no query, reads one query per line from stdin
and prints one JSON object per line.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openStore(cmd.Context())
			if err != nil {
				return err
			}
			run := func(q string) error {
				out, err := a.search(cmd.Context(), st, q, store.Mode(mode), k, all)
				if err != nil {
					return err
				}
				if asJSON {
					return json.NewEncoder(a.stdout).Encode(out)
				}
				printSearch(a, out)
				return nil
			}
			if len(args) == 1 {
				return run(args[0])
			}
			return readQuestions(cmd.Context(), a, false, run)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVarP(&k, "k", "k", 5, "number of hits")
	cmd.Flags().StringVar(&mode, "mode", string(store.ModeHybrid), "hybrid, bm25 or dense")
	cmd.Flags().BoolVar(&all, "all-revisions", false, "also search superseded revisions")
	return cmd
}

func (a *app) search(ctx context.Context, st store.Store, q string, mode store.Mode, k int, all bool) (searchOutput, error) {
	req := store.SearchRequest{Tenant: a.cfg.Tenant, Query: q, Mode: mode, K: k, IncludeInactive: all}
	e, err := a.queryEmbedder(ctx, st)
	if err != nil {
		return searchOutput{}, err
	}
	if e != nil && mode != store.ModeKeyword {
		vecs, err := e.Embed(ctx, []string{q})
		if err != nil {
			a.logger.Warn("query embedding failed; keyword search only", "err", err)
		} else {
			req.Vector = vecs[0]
		}
	}
	hits, err := st.Search(ctx, req)
	if err != nil {
		return searchOutput{}, err
	}
	out := searchOutput{Query: q, Hits: make([]searchHit, 0, len(hits))}
	for _, h := range hits {
		out.Hits = append(out.Hits, searchHit{ChunkID: h.Chunk.ID, Source: pipeline.SourceFromHit(h)})
	}
	return out, nil
}

func printSearch(a *app, out searchOutput) {
	w := a.stdout
	fmt.Fprintf(w, "%q — %s\n", out.Query, plural(len(out.Hits), "hit"))
	for i, h := range out.Hits {
		fmt.Fprintf(w, "%2d. [%.3f] %s, rev %s, %s\n", i+1, h.Score, h.DocName, orDash(h.Revision), location(h.Source))
		fmt.Fprintf(w, "    %s\n", answer.Snippet(h.Snippet, 200))
	}
}

// location renders where a source sits: page and section, or sheet and row.
func location(s answer.Source) string {
	var parts []string
	if s.Sheet != "" {
		parts = append(parts, fmt.Sprintf("sheet %q row %d", s.Sheet, s.Row))
	} else if s.Page > 0 {
		parts = append(parts, fmt.Sprintf("page %d", s.Page))
	}
	if s.Section != "" {
		parts = append(parts, "section "+s.Section)
	}
	if len(parts) == 0 {
		return "register entry"
	}
	return strings.Join(parts, ", ")
}
