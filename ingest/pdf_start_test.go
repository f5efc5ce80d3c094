package ingest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFirstCompile(t *testing.T) {
	dir := t.TempDir()
	filled := filepath.Join(dir, "filled")
	os.MkdirAll(filepath.Join(filled, "wazero-v1"), 0o755)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	tests := []struct {
		name, dir string
		want      bool
	}{
		{"no cache folder yet", filepath.Join(dir, "missing"), true},
		{"an empty cache folder", empty, true},
		{"compiled on an earlier run", filled, false},
		{"no cache at all: every start compiles, none is the first", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := firstCompile(tc.dir); got != tc.want {
				t.Errorf("firstCompile(%q) = %v, want %v", tc.dir, got, tc.want)
			}
		})
	}
}
