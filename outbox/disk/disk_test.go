package disk_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cewhq/cew/outbox"
	"github.com/cewhq/cew/outbox/disk"
	"github.com/cewhq/cew/outbox/outboxtest"
)

func TestConformance(t *testing.T) {
	outboxtest.Run(t, func(t *testing.T) (outbox.Queue, func() outbox.Queue) {
		path := filepath.Join(t.TempDir(), "outbox.db")
		db := open(t, path)
		return queue(t, db), func() outbox.Queue {
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			db = open(t, path)
			return queue(t, db)
		}
	})
}

func open(t *testing.T, path string) *disk.DB {
	t.Helper()
	db, err := disk.Open(path, disk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queue(t *testing.T, db *disk.DB) outbox.Queue {
	t.Helper()
	q, err := db.Queue("slack")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestSecondProcessRefused: the file is one process's; a second opener is
// told plainly instead of waiting forever.
func TestSecondProcessRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "outbox.db")
	open(t, path)
	_, err := disk.Open(path, disk.Options{LockTimeout: 50_000_000})
	if err == nil || !strings.Contains(err.Error(), "in use by another cew serve") {
		t.Fatalf("second open: %v", err)
	}
}
