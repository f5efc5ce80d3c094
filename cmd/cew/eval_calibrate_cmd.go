package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/eval"
)

const defaultConfidenceModel = "pipeline/confidence/extractive.json"

func newEvalCalibrateCmd(a *app) *cobra.Command {
	var outcomesPath, squadOutcomesPath, out string
	var squadShare, squadRefused float64
	var squadHoldPath string
	var opts confidence.FitOptions
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Fit the extractive answers' confidence model on the tune split of domain outcomes",
		Long: `Fit the calibrated confidence (a logistic regression on the features the pipeline
records for each answer) on the answers of the tune split in an outcomes file written by
"cew eval domain --split tune --keep-unconfident --outcomes FILE", choose its thresholds
(refuse, medium, high) there, and write the model. Held-out outcomes in the file are
ignored: the model must never see them. Rebuild cew to use the new model, then measure
both splits with cew eval domain.

With --squad-outcomes, the answers of a "cew eval qa --keep-unconfident --outcomes FILE"
run (SQuAD 2.0: general-knowledge paragraphs, thousands of answers, many wrong) help fit
the weights, weighing --squad-share times the domain answers together; the thresholds are
still chosen on the domain answers alone. Fit on some articles (cew eval qa --articles 1-4)
and measure on the others.

With --hold-refused, the refusal threshold chosen on the domain answers is raised, when it
must be, until the model refuses --refused-share of the unanswerable questions in a
"cew eval qa --keep-unconfident --outcomes FILE" run: the operating point holds on questions
the documents do not answer.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			outcomes, err := readDomainOutcomes(outcomesPath)
			if err != nil {
				return err
			}
			samples := eval.CalibrationSamples(outcomes, eval.SplitTune)
			data := outcomesPath + " (tune split)"
			if squadOutcomesPath != "" {
				if squadShare <= 0 {
					return fmt.Errorf("--squad-share must be above 0, not %g", squadShare)
				}
				qa, err := readJSONLines[eval.QAOutcome](squadOutcomesPath)
				if err != nil {
					return err
				}
				borrowed := eval.BorrowedSamples(qa, len(samples), squadShare)
				if len(borrowed) == 0 {
					return fmt.Errorf("%s: no answered question with confidence features (write it with cew eval qa --keep-unconfident --outcomes)", squadOutcomesPath)
				}
				samples = append(samples, borrowed...)
				data += fmt.Sprintf(" + %s (weight share %g)", squadOutcomesPath, squadShare)
			}
			opts.Directions = pipeline.FeatureDirections
			m, err := confidence.Fit("extractive", data, samples, opts)
			if err != nil {
				return err
			}
			if squadHoldPath != "" {
				qa, err := readJSONLines[eval.QAOutcome](squadHoldPath)
				if err != nil {
					return err
				}
				var answered []confidence.Features
				refused := 0
				for _, o := range qa {
					switch {
					case o.Answerable:
					case o.Status != answer.StatusAnswered:
						refused++
					case o.Features == nil:
						return fmt.Errorf("%s: an answered question without confidence features (write it with cew eval qa --keep-unconfident --outcomes)", squadHoldPath)
					default:
						answered = append(answered, o.Features)
					}
				}
				if m.HoldRefusal(answered, refused, squadRefused) {
					m.Fit.Data += fmt.Sprintf("; refusal raised to refuse %g of the unanswerable questions of %s", squadRefused, squadHoldPath)
				}
			}
			for _, n := range pipeline.EmbedderFeatures {
				if _, ok := m.Weights[n]; ok {
					m.Needs = append(m.Needs, n)
				}
			}
			js, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, append(js, '\n'), 0o644); err != nil {
				return fmt.Errorf("write %s: %w", out, err)
			}
			for _, line := range eval.CalibrationSummary(m, samples) {
				fmt.Fprintln(a.stdout, line)
			}
			fmt.Fprintf(a.stdout, "model written to %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&outcomesPath, "outcomes", "", "outcomes file of cew eval domain (required)")
	cmd.Flags().StringVar(&squadOutcomesPath, "squad-outcomes", "", "outcomes file of cew eval qa --keep-unconfident whose answers also fit the weights")
	cmd.Flags().Float64Var(&squadShare, "squad-share", 1, "total weight of the SQuAD answers against the domain answers'")
	cmd.Flags().StringVar(&out, "out", defaultConfidenceModel, "where to write the model")
	cmd.Flags().Float64Var(&opts.L2, "l2", 0, "ridge penalty (default 1)")
	cmd.Flags().Float64Var(&opts.HighPrecision, "high-precision", 0, "share of right answers \"high\" must keep out of fold (default 0.97)")
	cmd.Flags().Float64Var(&opts.MediumPrecision, "medium-precision", 0, "share of right answers \"medium\" must keep out of fold (default 0.80)")
	cmd.Flags().Float64Var(&opts.WrongCost, "wrong-cost", 0, "right answers one wrong answer is worth when choosing the refusal threshold (default 3)")
	cmd.Flags().StringVar(&squadHoldPath, "hold-refused", "", "outcomes file of cew eval qa --keep-unconfident (SQuAD 2.0) whose unanswerable questions the refusal threshold must refuse")
	cmd.Flags().Float64Var(&squadRefused, "refused-share", 0.60, "share of --hold-refused's unanswerable questions to refuse")
	_ = cmd.MarkFlagRequired("outcomes")
	return cmd
}

func readDomainOutcomes(path string) ([]eval.DomainOutcome, error) {
	return readJSONLines[eval.DomainOutcome](path)
}

// readJSONLines reads a file of JSON values, one after another.
func readJSONLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	dec := json.NewDecoder(f)
	for dec.More() {
		var o T
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, o)
	}
	return out, nil
}
