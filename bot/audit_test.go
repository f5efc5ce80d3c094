package bot_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/answer"
	"github.com/cewhq/cew/bot"
)

// TestAuditCapsOversizedQuestions: a 900 KB question is kept as its first
// 2 KiB, its length and its hash, never whole.
func TestAuditCapsOversizedQuestions(t *testing.T) {
	tests := []struct {
		name      string
		question  string
		wantWhole bool
	}{
		{name: "an ordinary question", question: "What is the minimum trench depth for DC cables?", wantWhole: true},
		// "unknown" makes the scripted pipeline refuse rather than echo it.
		{name: "900 KB", question: "unknown " + strings.Repeat("é trench depth ", 900_000/16)},
		{name: "just over the cap, cut inside a rune", question: strings.Repeat("a", 2047) + "ééé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			if _, err := f.bot.Handle(context.Background(), query(tt.question)); err != nil {
				t.Fatal(err)
			}
			recs := readAudit(t, f.audit)
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			r := recs[0]
			if tt.wantWhole {
				if r.Question != tt.question || r.QuestionBytes != 0 || r.QuestionSHA256 != "" {
					t.Errorf("record = %q %d %q", r.Question, r.QuestionBytes, r.QuestionSHA256)
				}
				return
			}
			sum := sha256.Sum256([]byte(tt.question))
			if len(r.Question) > 2048+len("…") || !strings.HasPrefix(tt.question, strings.TrimSuffix(r.Question, "…")) {
				t.Errorf("stored question of %d bytes", len(r.Question))
			}
			if r.QuestionBytes != len(tt.question) || r.QuestionSHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("length %d hash %s, want %d %x", r.QuestionBytes, r.QuestionSHA256, len(tt.question), sum)
			}
			if st, _ := os.Stat(f.audit); st.Size() > 8<<10 {
				t.Errorf("audit file is %d bytes", st.Size())
			}
		})
	}
}

// TestAuditRotates: the file starts afresh past its size and on a new day;
// the rotated files keep every record until the oldest are dropped.
func TestAuditRotates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	now := time.Date(2026, 8, 21, 10, 0, 0, 0, time.UTC)
	a, err := bot.OpenFileAudit(path, bot.FileAuditOptions{MaxBytes: 1000, Keep: 3, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rec := func(i int) bot.AuditRecord {
		return bot.AuditRecord{Kind: "answer", At: now, AnswerID: "ans-" + strings.Repeat("x", 100), Platform: answer.PlatformCLI, Tenant: "acme", Question: string(rune('a' + i))}
	}
	// Day one: 4 records of ~200 bytes fit a 1000-byte file; the 5th and
	// 6th go to a second one.
	for i := range 6 {
		if err := a.Record(context.Background(), rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(24 * time.Hour) // day two: a new file whatever its size
	if err := a.Record(context.Background(), rec(6)); err != nil {
		t.Fatal(err)
	}
	files := auditFiles(t, dir)
	want := []string{"audit-2026-08-21.jsonl", "audit-2026-08-21.1.jsonl", "audit.jsonl"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("files = %v, want %v", files, want)
	}
	total := 0
	for _, name := range files {
		st, _ := os.Stat(filepath.Join(dir, name))
		if st.Size() > 1000 {
			t.Errorf("%s is %d bytes", name, st.Size())
		}
		total += len(readAudit(t, filepath.Join(dir, name)))
	}
	if total != 7 {
		t.Errorf("%d records across the files, want 7", total)
	}
	if got := readAudit(t, path); len(got) != 1 || got[0].Question != "g" {
		t.Errorf("current file = %+v", got)
	}
	// Four more days: only Keep rotated files stay.
	for d := range 4 {
		now = now.Add(24 * time.Hour)
		if err := a.Record(context.Background(), rec(7+d)); err != nil {
			t.Fatal(err)
		}
	}
	if files := auditFiles(t, dir); len(files) != 4 || files[len(files)-1] != "audit.jsonl" {
		t.Errorf("after a week: %v, want 3 rotated files and the current one", files)
	}
}

func auditFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	// Rotated files by day and number, the current file last.
	key := func(s string) string {
		if s == "audit.jsonl" {
			return "~"
		}
		stem, n, _ := strings.Cut(strings.TrimSuffix(s, ".jsonl"), ".")
		return fmt.Sprintf("%s.%03s", stem, n)
	}
	sort.Slice(names, func(i, j int) bool { return key(names[i]) < key(names[j]) })
	return names
}
