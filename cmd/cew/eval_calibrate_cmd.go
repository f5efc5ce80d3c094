package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/pipeline"
	"github.com/cewhq/cew/pipeline/confidence"
	"github.com/cewhq/cew/pipeline/eval"
)

const defaultConfidenceModel = "pipeline/confidence/extractive.json"

func newEvalCalibrateCmd(a *app) *cobra.Command {
	var outcomesPath, out string
	var opts confidence.FitOptions
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Fit the extractive answers' confidence model on the tune split of domain outcomes",
		Long: `Fit the calibrated confidence (a logistic regression on the features the pipeline
records for each answer) on the answers of the tune split in an outcomes file written by
"cew eval domain --split tune --keep-unconfident --outcomes FILE", choose its thresholds
(refuse, medium, high) there, and write the model. Held-out outcomes in the file are
ignored: the model must never see them. Rebuild cew to use the new model, then measure
both splits with cew eval domain.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			outcomes, err := readDomainOutcomes(outcomesPath)
			if err != nil {
				return err
			}
			samples := eval.CalibrationSamples(outcomes, eval.SplitTune)
			opts.Directions = pipeline.FeatureDirections
			m, err := confidence.Fit("extractive", outcomesPath+" (tune split)", samples, opts)
			if err != nil {
				return err
			}
			data, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				return err
			}
			if err := os.WriteFile(out, append(data, '\n'), 0o644); err != nil {
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
	cmd.Flags().StringVar(&out, "out", defaultConfidenceModel, "where to write the model")
	cmd.Flags().Float64Var(&opts.L2, "l2", 0, "ridge penalty (default 1)")
	cmd.Flags().Float64Var(&opts.WrongCost, "wrong-cost", 0, "right answers one wrong answer is worth when choosing the refusal threshold (default 3)")
	_ = cmd.MarkFlagRequired("outcomes")
	return cmd
}

func readDomainOutcomes(path string) ([]eval.DomainOutcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []eval.DomainOutcome
	dec := json.NewDecoder(f)
	for dec.More() {
		var o eval.DomainOutcome
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, o)
	}
	return out, nil
}
