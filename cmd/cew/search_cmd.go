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
	// Error says why a query was not run (a line too long to read).
	Error string `json:"error,omitempty"`
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
and prints one JSON object per line; a line over 1 MiB is reported and skipped (with
--json, an object with no hits and an "error").

-k takes 1 to ` + fmt.Sprint(maxSearchK) + `. --mode dense needs an embedder (CEW_EMBED, see cew --help) and
documents indexed with it.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if k < 1 || k > maxSearchK {
				return fmt.Errorf("-k %d: the number of hits must be between 1 and %d", k, maxSearchK)
			}
			m := store.Mode(mode)
			switch m {
			case store.ModeHybrid, store.ModeKeyword, store.ModeDense:
			default:
				return fmt.Errorf("--mode %q: use hybrid, bm25 or dense", mode)
			}
			st, err := a.openStore(cmd.Context())
			if err != nil {
				return err
			}
			if err := a.requireDocuments(cmd.Context(), st); err != nil {
				return err
			}
			if m == store.ModeDense {
				if why := a.denseUnavailable(cmd.Context(), st); why != "" {
					return fmt.Errorf("--mode dense: %s", why)
				}
			}
			run := func(line inputLine) error {
				if line.TooLong {
					msg := fmt.Sprintf("line %d is %s long, over the %s a line may have; not searched", line.Number, byteCount(line.Bytes), byteCount(maxLineBytes))
					fmt.Fprintln(a.stderr, "cew: "+msg)
					if asJSON {
						return json.NewEncoder(a.stdout).Encode(searchOutput{Query: answer.Snippet(line.Text, 80), Hits: []searchHit{}, Error: msg})
					}
					return nil
				}
				out, err := a.search(cmd.Context(), st, line.Text, m, k, all)
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
				return run(inputLine{Number: 1, Text: args[0]})
			}
			return readQuestions(cmd.Context(), a, false, run)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVarP(&k, "k", "k", 5, fmt.Sprintf("number of hits (1 to %d)", maxSearchK))
	cmd.Flags().StringVar(&mode, "mode", string(store.ModeHybrid), "hybrid, bm25 or dense")
	cmd.Flags().BoolVar(&all, "all-revisions", false, "also search superseded revisions")
	return cmd
}

// maxSearchK bounds -k: more passages than a person reads, and the depth
// the pipeline itself retrieves.
const maxSearchK = store.DefaultK

// denseUnavailable says why dense search cannot run, naming the setting to
// change, or "" when it can.
func (a *app) denseUnavailable(ctx context.Context, st store.Store) string {
	e, err := a.embedding()
	if err != nil {
		return err.Error()
	}
	switch {
	case e.kind == embedNone && a.cfg.Embed == embedNone:
		return "no embedder: CEW_EMBED is none; set CEW_EMBED=local (after make models) or CEW_EMBED=http with CEW_EMBED_MODEL"
	case e.kind == embedNone:
		return fmt.Sprintf("no embedder: CEW_EMBED=auto found no local model in CEW_MODELS_DIR (%s) and CEW_EMBED_MODEL is unset; run make models, or set CEW_EMBED_MODEL and CEW_EMBED_BASE_URL", a.cfg.ModelsDir)
	}
	qe, err := a.queryEmbedder(ctx, st)
	if err != nil {
		return err.Error()
	}
	if qe == nil {
		return fmt.Sprintf("the documents were embedded with another model than %s; run cew ingest again to embed them with it", e.model)
	}
	docs, err := st.Documents(ctx, a.cfg.Tenant)
	if err != nil {
		return err.Error()
	}
	for _, d := range docs {
		if d.Active && d.EmbedModel != "" {
			return ""
		}
	}
	return fmt.Sprintf("the documents were indexed without embeddings; run cew ingest again with %s configured", e.model)
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
		fmt.Fprintf(w, "%2d. [%.3f] %s\n", i+1, h.Score, sourceLine(h.Source))
		fmt.Fprintf(w, "    %s\n", answer.Snippet(h.Snippet, 200))
	}
}

// sourceLine names a source for a terminal: document, revision (left out
// when unknown: no register and none in the file name) and location.
func sourceLine(s answer.Source) string {
	parts := []string{s.DocName}
	if s.Revision != "" {
		parts = append(parts, "rev "+s.Revision)
	}
	return strings.Join(append(parts, location(s)), ", ")
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
