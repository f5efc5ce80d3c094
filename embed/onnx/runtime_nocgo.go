//go:build !cgo

package onnx

import "fmt"

// openSession cannot load a shared library in a binary built without cgo:
// such a build runs on BM25 alone (see README, "Local embedder").
func openSession(libPath, _ string, _ int) (session, error) {
	return nil, fmt.Errorf("%w: this cew was built without cgo, so it cannot load %s (build with CGO_ENABLED=1)", ErrNotInstalled, libPath)
}
