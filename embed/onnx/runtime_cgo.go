//go:build cgo

package onnx

import (
	"context"
	"errors"
	"fmt"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// env is ONNX Runtime's process-wide environment: once loaded, the library
// stays loaded from that one path for the life of the process (it cannot be
// unloaded safely while sessions may exist). A load that failed may be
// retried, from any path.
var env struct {
	mu      sync.Mutex
	libPath string
}

func initEnvironment(libPath string) error {
	env.mu.Lock()
	defer env.mu.Unlock()
	if env.libPath != "" {
		if env.libPath != libPath {
			return fmt.Errorf("embed/onnx: ONNX Runtime is already loaded from %s; cannot load %s too", env.libPath, libPath)
		}
		return nil
	}
	ort.SetSharedLibraryPath(libPath)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		// A library that cannot be loaded (wrong architecture, missing
		// libstdc++, not a library) is as good as absent: say so, and let
		// the caller run on BM25.
		return fmt.Errorf("%w: cannot load ONNX Runtime from %s: %v", ErrNotInstalled, libPath, err)
	}
	env.libPath = libPath
	return nil
}

type ortSession struct {
	s        *ort.DynamicAdvancedSession
	hidden   int
	typeIDs  bool
	inputIDs []string
}

func openSession(libPath, modelPath string, threads int) (session, error) {
	if err := initEnvironment(libPath); err != nil {
		return nil, err
	}
	inputs, outputs, err := ort.GetInputOutputInfo(modelPath)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is damaged (%v); run `make models` again", ErrNotInstalled, modelPath, err)
	}
	s := &ortSession{}
	for _, in := range inputs {
		switch in.Name {
		case "input_ids", "attention_mask":
		case "token_type_ids":
			s.typeIDs = true
		default:
			return nil, fmt.Errorf("embed/onnx: %s has an unexpected input %q", modelPath, in.Name)
		}
	}
	s.inputIDs = []string{"input_ids", "attention_mask"}
	if s.typeIDs {
		s.inputIDs = append(s.inputIDs, "token_type_ids")
	}
	if len(outputs) == 0 || len(outputs[0].Dimensions) != 3 || outputs[0].Dimensions[2] <= 0 {
		return nil, fmt.Errorf("embed/onnx: %s: first output is not a batch×tokens×dim hidden state", modelPath)
	}
	s.hidden = int(outputs[0].Dimensions[2])

	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("embed/onnx: session options: %w", err)
	}
	defer so.Destroy()
	for _, set := range []func() error{
		func() error { return so.SetIntraOpNumThreads(threads) },
		func() error { return so.SetInterOpNumThreads(1) },
		func() error { return so.SetExecutionMode(ort.ExecutionModeSequential) },
		// Idle threads sleep instead of spinning: the machine is shared
		// with the rest of cew and often with other services.
		func() error { return so.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
	} {
		if err := set(); err != nil {
			return nil, fmt.Errorf("embed/onnx: session options: %w", err)
		}
	}
	s.s, err = ort.NewDynamicAdvancedSession(modelPath, s.inputIDs, []string{outputs[0].Name}, so)
	if err != nil {
		return nil, fmt.Errorf("embed/onnx: load %s: %w", modelPath, err)
	}
	return s, nil
}

func (s *ortSession) dim() int { return s.hidden }

func (s *ortSession) close() error {
	if err := s.s.Destroy(); err != nil {
		return fmt.Errorf("embed/onnx: close: %w", err)
	}
	return nil
}

func (s *ortSession) run(ctx context.Context, ids, mask, typeIDs []int64, batch, seqLen int) (hidden []float32, err error) {
	shape := ort.NewShape(int64(batch), int64(seqLen))
	var values []ort.Value
	defer func() {
		for _, v := range values {
			err = errors.Join(err, v.Destroy())
		}
	}()
	for _, data := range [][]int64{ids, mask, typeIDs}[:len(s.inputIDs)] {
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, fmt.Errorf("embed/onnx: input tensor: %w", err)
		}
		values = append(values, t)
	}
	opts, err := ort.NewRunOptions()
	if err != nil {
		return nil, fmt.Errorf("embed/onnx: run options: %w", err)
	}
	defer opts.Destroy()
	// A cancelled context stops the run inside ONNX Runtime rather than
	// after the batch.
	stop := context.AfterFunc(ctx, func() { _ = opts.Terminate() })
	defer stop()
	outputs := []ort.Value{nil}
	if err := s.s.RunWithOptions(values, outputs, opts); err != nil {
		return nil, fmt.Errorf("embed/onnx: run: %w", err)
	}
	values = append(values, outputs[0])
	t, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("embed/onnx: model output is %T, not float32", outputs[0])
	}
	// The tensor's memory belongs to ONNX Runtime and is freed below.
	return append([]float32(nil), t.GetData()...), nil
}
