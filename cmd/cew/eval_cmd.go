package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline/eval"
	"github.com/cewhq/cew/pipeline/guard"
	"github.com/cewhq/cew/pipeline/rank"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// evalTenant is the tenant of the scratch index evaluations build.
const evalTenant = "eval"

func newEvalCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure retrieval, answering and grounding on public data sets",
		Long: `Evaluations build a scratch index in a temporary folder (your data directory is not
touched), write a JSON report (metric, value, n, data set, config) and print one line per
metric.`,
	}
	var reportDir string
	cmd.PersistentFlags().StringVar(&reportDir, "report-dir", "eval-reports", "folder for the JSON reports (<name>.json)")
	var report reportFunc = func(rep eval.Report, summary ...string) error {
		if summary == nil {
			summary = rep.Summary()
		}
		for _, line := range summary {
			fmt.Fprintln(a.stdout, line)
		}
		rep.GeneratedAt = time.Now().UTC()
		path := filepath.Join(reportDir, rep.Name+".json")
		if err := rep.Write(path); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "report written to %s (%d metrics)\n", path, len(rep.Metrics))
		return nil
	}
	cmd.AddCommand(newEvalRetrievalCmd(a, report), newEvalQACmd(a, report), newEvalGroundingCmd(a, report), newEvalCacheCmd(a, report),
		newEvalDomainCmd(a, report), newEvalCalibrateCmd(a))
	return cmd
}

// scratchDir makes a temporary folder that is removed when the command ends.
func (a *app) scratchDir() (string, error) {
	dir, err := os.MkdirTemp("", "cew-eval-*")
	if err != nil {
		return "", err
	}
	a.closers = append(a.closers, func() error { return os.RemoveAll(dir) })
	return dir, nil
}

// scratchStore opens an empty index of the configured kind: an embedded
// index in a scratch folder, or Milvus collections of its own.
func (a *app) scratchStore(ctx context.Context) (store.Store, error) {
	if a.cfg.Store == "milvus" {
		return a.scratchMilvus(ctx)
	}
	dir, err := a.scratchDir()
	if err != nil {
		return nil, err
	}
	st, err := embedded.Open(dir, embedded.Options{Logger: a.logger})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, st.Close)
	return st, nil
}

// squadIndex loads a SQuAD file and indexes its paragraphs for tenant in a
// scratch store.
func (a *app) squadIndex(ctx context.Context, path, tenant string) (eval.SQuAD, store.Store, error) {
	s, err := eval.LoadSQuAD(path)
	if err != nil {
		return s, nil, err
	}
	st, err := a.scratchStore(ctx)
	if err != nil {
		return s, nil, err
	}
	e, err := a.retrievalEmbedding()
	if err != nil {
		return s, nil, err
	}
	return s, st, eval.IngestSQuAD(ctx, st, tenant, s, e.passage)
}

// reportFunc prints a report's summary — one line per metric unless
// summary lines are given — and writes the report to the report folder.
type reportFunc func(rep eval.Report, summary ...string) error

func newEvalRetrievalCmd(a *app, report reportFunc) *cobra.Command {
	var beirDir, qrels, runPath string
	cmd := &cobra.Command{
		Use:   "retrieval --beir DIR",
		Short: "nDCG@10 and Recall@100 on a BEIR data set for BM25, dense, hybrid and reranked retrieval",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			b, err := eval.LoadBEIR(beirDir, qrels)
			if err != nil {
				return err
			}
			st, err := a.scratchStore(ctx)
			if err != nil {
				return err
			}
			e, err := a.retrievalEmbedding()
			if err != nil {
				return err
			}
			emb := e.query
			start := time.Now()
			if err := eval.IngestBEIR(ctx, st, evalTenant, b.Docs, e.passage); err != nil {
				return err
			}
			a.logger.Info("indexed corpus", "docs", len(b.Docs), "took", time.Since(start).Round(time.Millisecond))
			// Each query is embedded once for the dense, hybrid and reranked
			// systems.
			queryVectors := map[string][]float32{}
			search := func(mode store.Mode) func(context.Context, string) ([]store.Hit, error) {
				return func(ctx context.Context, q string) ([]store.Hit, error) {
					req := store.SearchRequest{Tenant: evalTenant, Query: q, Mode: mode, K: eval.RecallDepth}
					if emb != nil && mode != store.ModeKeyword {
						if queryVectors[q] == nil {
							vecs, err := emb.Embed(ctx, []string{q})
							if err != nil {
								return nil, err
							}
							queryVectors[q] = vecs[0]
						}
						req.Vector = queryVectors[q]
					}
					return st.Search(ctx, req)
				}
			}
			systems := []eval.System{{Name: "bm25", Search: search(store.ModeKeyword)}}
			base := search(store.ModeKeyword)
			if emb != nil {
				systems = append(systems, eval.System{Name: "dense", Search: search(store.ModeDense)}, eval.System{Name: "hybrid", Search: search(store.ModeHybrid)})
				base = search(store.ModeHybrid)
			}
			lexical := rank.NewLexical(rank.LexicalOptions{})
			systems = append(systems, eval.System{Name: "reranked", Search: func(ctx context.Context, q string) ([]store.Hit, error) {
				hits, err := base(ctx, q)
				if err != nil {
					return nil, err
				}
				return lexical.Rerank(ctx, q, hits)
			}})
			rep, runs, err := eval.Retrieval(ctx, b, systems, filepath.Base(filepath.Clean(beirDir)))
			if err != nil {
				return err
			}
			rep.Config["embed_model"] = e.model
			rep.Config["embedder"] = e.kind
			rep.Config["qrels"] = qrels
			rep.Config["bm25"] = "k1=0.9 b=0.4, title+text, Snowball English stemming"
			if runPath != "" {
				for name, run := range runs {
					if err := writeRun(runPath, name, run); err != nil {
						return err
					}
				}
			}
			return report(rep)
		},
	}
	cmd.Flags().StringVar(&beirDir, "beir", "", "BEIR data set folder (corpus.jsonl or corpus/*.jsonl, queries.jsonl, qrels/)")
	cmd.Flags().StringVar(&qrels, "qrels", "", "qrels file (default DIR/qrels/test.tsv, else train.tsv)")
	cmd.Flags().StringVar(&runPath, "run", "", "also write TREC run files (PATH gets a .<system> suffix per system)")
	_ = cmd.MarkFlagRequired("beir")
	return cmd
}

func writeRun(path, system string, run map[string]eval.Ranking) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path + "." + system)
	if err != nil {
		return err
	}
	if err := eval.WriteTREC(f, "cew-"+system, run); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newEvalQACmd(a *app, report reportFunc) *cobra.Command {
	var squadPath, outcomesPath, oodCorpus string
	var limit int
	var keepUnconfident bool
	var articles string
	cmd := &cobra.Command{
		Use:   "qa --squad FILE",
		Short: "End-to-end answering on SQuAD 2.0: answered-and-correct, refusals, wrong answers, latency",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			s, st, err := a.squadIndex(ctx, squadPath, evalTenant)
			if err != nil {
				return err
			}
			asked := s
			if articles != "" {
				from, to, err := parseRange(articles)
				if err != nil {
					return fmt.Errorf("--articles: %w", err)
				}
				if asked, err = s.Articles(from, to); err != nil {
					return err
				}
			}
			a.keepUnconfident = keepUnconfident
			p, err := a.newPipeline(st)
			if err != nil {
				return err
			}
			rep, outcomes, err := eval.QA(ctx, asked, p, evalTenant, limit, time.Now)
			if err != nil {
				return err
			}
			rep.Config = a.pipelineConfigSummary()
			rep.Name = partialRunName(rep.Name, limit)
			if articles != "" {
				rep.Name += "-articles" + articles
				rep.Config["articles"] = articles
			}
			if keepUnconfident {
				rep.Name += "-keep-unconfident"
			}
			if outcomesPath != "" {
				if err := writeJSONLines(outcomesPath, outcomes); err != nil {
					return err
				}
			}
			if err := report(rep); err != nil || oodCorpus == "" {
				return err
			}
			// The same questions against documents that cannot answer them.
			const oodTenant = "eval-ood"
			in, err := a.newIngester(st, nil)
			if err != nil {
				return err
			}
			ingRep, err := in.Ingest(ctx, oodTenant, []string{oodCorpus}, nil)
			if err != nil {
				return err
			}
			if ingRep.Count(ingest.Indexed) == 0 {
				return fmt.Errorf("nothing indexed from %s", oodCorpus)
			}
			ood, err := eval.OutOfDomain(ctx, s.Questions(), p, oodTenant, oodCorpus)
			if err != nil {
				return err
			}
			for k, v := range rep.Config {
				ood.Config[k] = v
			}
			ood.Name = partialRunName(ood.Name, limit)
			return report(ood)
		},
	}
	cmd.Flags().StringVar(&squadPath, "squad", "", "SQuAD 2.0 JSON file")
	cmd.Flags().IntVar(&limit, "limit", 0, "stop after N questions (0 = all); the report is then <name>-first<N>.json, so a full run's report is kept")
	cmd.Flags().StringVar(&outcomesPath, "outcomes", "", "write every question's outcome as JSON lines")
	cmd.Flags().BoolVar(&keepUnconfident, "keep-unconfident", false,
		"show answers the calibrated confidence would refuse (at level low), to collect the samples cew eval calibrate --squad-outcomes fits on")
	cmd.Flags().StringVar(&articles, "articles", "", "ask only the questions of these articles, FROM-TO (1-based), against the index of all of them")
	cmd.Flags().StringVar(&oodCorpus, "ood-corpus", "", "also ask every question against this folder's documents, which cannot answer them, and report refusals")
	_ = cmd.MarkFlagRequired("squad")
	return cmd
}

func newEvalGroundingCmd(a *app, report reportFunc) *cobra.Command {
	var path string
	var limit int
	cmd := &cobra.Command{
		Use:   "grounding --halueval FILE",
		Short: "The post-guard alone on HaluEval QA: accuracy, precision, recall, F1 for hallucinated answers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := guard.DefaultPostOptions()
			g, err := eval.Grounding(cmd.Context(), path, opts, limit)
			if err != nil {
				return err
			}
			rep := eval.Report{Name: partialRunName("grounding", limit), Dataset: "halueval-qa", Config: g.Config}
			if rep.Config == nil {
				rep.Config = map[string]any{}
			}
			rep.Config["min_support"] = opts.MinSupport
			rep.Config["by_reason"] = g.ByReason
			n := g.Right + g.Hallucinated
			rep.Metrics = []eval.Metric{
				{Name: "accuracy", Value: g.Accuracy, N: n},
				{Name: "hallucinated/precision", Value: g.Precision, N: n},
				{Name: "hallucinated/recall", Value: g.Recall, N: g.Hallucinated},
				{Name: "hallucinated/f1", Value: g.F1, N: n},
			}
			return report(rep)
		},
	}
	cmd.Flags().StringVar(&path, "halueval", "", "HaluEval QA JSON-lines file")
	cmd.Flags().IntVar(&limit, "limit", 0, "stop after N samples (0 = all); the report is then grounding-first<N>.json")
	_ = cmd.MarkFlagRequired("halueval")
	return cmd
}

// partialRunName names the report of a run cut short by --limit, so it
// never overwrites the report of a full run.
func partialRunName(name string, limit int) string {
	if limit > 0 {
		return fmt.Sprintf("%s-first%d", name, limit)
	}
	return name
}

func writeJSONLines[T any](path string, items []T) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func newEvalCacheCmd(a *app, report reportFunc) *cobra.Command {
	var squadPath string
	cmd := &cobra.Command{
		Use:   "cache --squad FILE",
		Short: "Answer cache on a replay: every SQuAD 2.0 question asked twice through the bot",
		Long: `Index the SQuAD paragraphs, then ask every question twice through the bot with the
configured cache (in-process, or Redis with CEW_REDIS_URL). Reports the hit rate of each
pass and the latency of hits and misses.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			// A tenant of its own: a shared Redis may still hold answers of
			// an earlier run, whose scratch index had the same generations.
			tenant := evalTenant + "-" + rand.Text()
			s, st, err := a.squadIndex(ctx, squadPath, tenant)
			if err != nil {
				return err
			}
			// The bot's audit log goes to a scratch folder too.
			if a.cfg.DataDir, err = a.scratchDir(); err != nil {
				return err
			}
			b, err := a.newBot(ctx, st, nil, answer.PlatformCLI)
			if err != nil {
				return err
			}
			questions := s.Questions()
			rep := eval.Report{Name: "cache", Dataset: "squad2", Config: a.pipelineConfigSummary()}
			rep.Config["cache"] = "memory"
			if a.cfg.RedisURL != "" {
				rep.Config["cache"] = "redis"
			}
			var hitLat, missLat []float64
			for pass := 1; pass <= 2; pass++ {
				hits := 0
				for _, q := range questions {
					start := time.Now()
					ans, err := b.Handle(ctx, bot.Query{Platform: answer.PlatformCLI, Tenant: tenant, Text: q})
					took := float64(time.Since(start).Microseconds()) / 1000
					if err != nil {
						return err
					}
					if ans.Cached {
						hits++
						hitLat = append(hitLat, took)
					} else {
						missLat = append(missLat, took)
					}
				}
				rep.Metrics = append(rep.Metrics, eval.Metric{Name: fmt.Sprintf("pass%d/hit_rate", pass), Value: float64(hits) / float64(len(questions)), N: len(questions)})
			}
			rep.Metrics = append(rep.Metrics,
				eval.Metric{Name: "hit/latency_ms/p50", Value: eval.Percentile(hitLat, 0.5), N: len(hitLat)},
				eval.Metric{Name: "hit/latency_ms/p99", Value: eval.Percentile(hitLat, 0.99), N: len(hitLat)},
				eval.Metric{Name: "miss/latency_ms/p50", Value: eval.Percentile(missLat, 0.5), N: len(missLat)},
				eval.Metric{Name: "miss/latency_ms/p99", Value: eval.Percentile(missLat, 0.99), N: len(missLat)},
			)
			return report(rep)
		},
	}
	cmd.Flags().StringVar(&squadPath, "squad", "", "SQuAD 2.0 JSON file")
	_ = cmd.MarkFlagRequired("squad")
	return cmd
}

// parseRange reads "FROM-TO" (or "N", one) as two positive integers.
func parseRange(s string) (from, to int, err error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	from, err1 := strconv.Atoi(strings.TrimSpace(a))
	to, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || from < 1 || to < from {
		return 0, 0, fmt.Errorf("%q is not a range such as 1-4", s)
	}
	return from, to, nil
}
