package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/pipeline/eval"
)

// Defaults of `cew eval domain`, relative to the repository root.
const (
	defaultDomainQuestions = "eval/domain/questions.jsonl"
	defaultDomainCorpus    = "examples/corpus"
)

func newEvalDomainCmd(a *app, report reportFunc) *cobra.Command {
	var questionsPath, corpus, split, outcomesPath string
	var keepUnconfident bool
	cmd := &cobra.Command{
		Use:   "domain",
		Short: "End-to-end answering on the domain dev set: right, wrong and refused, wrong answers per confidence level, reliability",
		Long: `Index the sample corpus in a scratch folder, ask every question of the domain dev set
(eval/domain/questions.jsonl; see eval/domain/README.md) through the whole pipeline as
"cew ask" does, and score it. An answerable question is right when it is answered, cites
one of its gold pages or rows and states every required value; refused when not answered;
wrong otherwise. An unanswerable question must be refused. Every metric is reported for
the tune split, the held-out split and both, and per tag; the held-out split is for
measuring only, never for tuning.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			qPath, err := findInRepo(questionsPath, defaultDomainQuestions)
			if err != nil {
				return err
			}
			corpusDir, err := findInRepo(corpus, defaultDomainCorpus)
			if err != nil {
				return err
			}
			all, err := eval.LoadDomainQuestions(qPath)
			if err != nil {
				return err
			}
			qs, err := eval.SelectSplit(all, split)
			if err != nil {
				return err
			}
			if len(qs) == 0 {
				return fmt.Errorf("%w: %s in %s", eval.ErrNoQuestions, split, qPath)
			}
			st, err := a.scratchStore(ctx)
			if err != nil {
				return err
			}
			start := time.Now()
			in, err := a.newIngester(st, nil)
			if err != nil {
				return err
			}
			ingRep, err := in.Ingest(ctx, evalTenant, []string{corpusDir}, nil)
			if err != nil {
				return err
			}
			if n := ingRep.Count(ingest.Failed); n > 0 || ingRep.Count(ingest.Indexed) == 0 {
				return fmt.Errorf("indexing %s: %d files indexed, %d failed", corpusDir, ingRep.Count(ingest.Indexed), n)
			}
			a.logger.Info("indexed corpus", "corpus", corpusDir, "took", time.Since(start).Round(time.Millisecond))
			a.keepUnconfident = keepUnconfident
			p, err := a.newPipeline(st)
			if err != nil {
				return err
			}
			outcomes, err := eval.AskDomain(ctx, qs, p, evalTenant, time.Now)
			if err != nil {
				return err
			}
			rep := eval.DomainReport(outcomes, "domain dev set vs "+corpusDir)
			for k, v := range a.pipelineConfigSummary() {
				rep.Config[k] = v
			}
			rep.Config["questions"] = qPath
			rep.Config["split"] = split
			if outcomesPath != "" {
				if err := writeJSONLines(outcomesPath, outcomes); err != nil {
					return err
				}
			}
			return report(rep, eval.DomainSummary(outcomes)...)
		},
	}
	cmd.Flags().StringVar(&questionsPath, "questions", "", "dev set file (default "+defaultDomainQuestions+" under the repository root or the current folder)")
	cmd.Flags().StringVar(&corpus, "corpus", "", "folder of documents the questions are about (default "+defaultDomainCorpus+")")
	cmd.Flags().StringVar(&split, "split", eval.SplitAll, "questions to ask: tune, heldout or all")
	cmd.Flags().StringVar(&outcomesPath, "outcomes", "", "write every question's outcome, with the pipeline's trace, as JSON lines")
	cmd.Flags().BoolVar(&keepUnconfident, "keep-unconfident", false,
		"show answers the calibrated confidence would refuse (at level low), to collect the samples cew eval calibrate fits on")
	return cmd
}

// findInRepo returns path when given; otherwise def relative to the
// current folder or, failing that, to the repository root above it (the
// first parent holding go.mod).
func findInRepo(path, def string) (string, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", err
		}
		return path, nil
	}
	if _, err := os.Stat(def); err == nil {
		return def, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, def)
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%s: not in the current folder or the repository root %s", def, dir)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New(def + ": not found in the current folder and no repository root above it; give the path")
		}
		dir = parent
	}
}
