//go:build unix

package drive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockRoot takes an exclusive lock on a root's sync state for the length
// of a sync, so a `cew ingest drive:<id>` and a server syncing the same
// folder never interleave their state. The lock dies with the process.
func lockRoot(dir, tenant, root string) (unlock func(), err error) {
	p := statePath(dir, tenant, root) + ".lock"
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("drive: lock sync state: %w", err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("drive: lock sync state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s for tenant %s", ErrBusy, root, tenant)
		}
		return nil, fmt.Errorf("drive: lock sync state: %w", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
