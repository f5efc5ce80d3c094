package bot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cewhq/cew/answer"
)

// AuditRecord is one line of the audit trail: an answer or a feedback.
type AuditRecord struct {
	Kind     string          `json:"kind"` // "answer" or "feedback"
	At       time.Time       `json:"at"`
	AnswerID string          `json:"answer_id"`
	Platform answer.Platform `json:"platform"`
	Tenant   string          `json:"tenant"`
	Channel  string          `json:"channel,omitempty"`
	Thread   string          `json:"thread,omitempty"`
	User     string          `json:"user,omitempty"`
	EventID  string          `json:"event_id,omitempty"`
	Question string          `json:"question,omitempty"`
	// A question longer than the audit keeps is cut; its full length in
	// bytes and SHA-256 (hex) say what it was.
	QuestionBytes  int           `json:"question_bytes,omitempty"`
	QuestionSHA256 string        `json:"question_sha256,omitempty"`
	Rewritten      string        `json:"standalone_question,omitempty"`
	Answer         string        `json:"answer,omitempty"`
	Status         answer.Status `json:"status,omitempty"`
	Reason         string        `json:"reason,omitempty"`
	Intent         string        `json:"intent,omitempty"`
	Sources        []string      `json:"sources,omitempty"` // chunk ids
	Cached         bool          `json:"cached,omitempty"`
	// Verdicts of the guards and how the answer was generated.
	PreGuard  string             `json:"pre_guard,omitempty"`
	PostGuard string             `json:"post_guard,omitempty"`
	Generator string             `json:"generator,omitempty"`
	Degraded  []string           `json:"degraded,omitempty"`
	TimingsMS map[string]float64 `json:"timings_ms,omitempty"`
	// Feedback fields.
	Vote    string `json:"vote,omitempty"` // "up" or "down"
	Comment string `json:"comment,omitempty"`
}

// AuditSink stores audit records.
type AuditSink interface {
	Record(ctx context.Context, r AuditRecord) error
}

// Audit file defaults.
const (
	// DefaultAuditMaxBytes rotates the audit file once it would grow past
	// this size.
	DefaultAuditMaxBytes = 64 << 20
	// DefaultAuditKeep is how many rotated files are kept (one a day at
	// the least: a month).
	DefaultAuditKeep = 31
)

// FileAuditOptions configures a FileAudit. Zero values are the defaults.
type FileAuditOptions struct {
	// MaxBytes starts a new file when a record would take the current one
	// past it.
	MaxBytes int64
	// Keep is how many rotated files are kept; older ones are deleted.
	Keep int
	// Now is the clock: a record on a new UTC day starts a new file.
	Now func() time.Time
}

// FileAudit appends JSON lines to a file; one write per record, under a
// mutex, so concurrent answers never interleave. The file is rotated by
// size and by day: audit.jsonl becomes audit-2026-08-21.jsonl (or
// audit-2026-08-21.1.jsonl, … for a second file that day).
type FileAudit struct {
	mu   sync.Mutex
	path string
	opts FileAuditOptions
	f    *os.File
	size int64
	day  string // UTC day of the records in f
}

// OpenFileAudit opens (creating) the audit file for appending.
func OpenFileAudit(path string, opts FileAuditOptions) (*FileAudit, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultAuditMaxBytes
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultAuditKeep
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("bot: audit: %w", err)
	}
	a := &FileAudit{path: path, opts: opts}
	if err := a.open(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *FileAudit) open() error {
	f, err := os.OpenFile(a.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("bot: audit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("bot: audit: %w", err)
	}
	a.f, a.size, a.day = f, st.Size(), day(a.opts.Now())
	if st.Size() > 0 {
		a.day = day(st.ModTime())
	}
	return nil
}

func day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Record appends r.
func (a *FileAudit) Record(_ context.Context, r AuditRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("bot: audit: %w", err)
	}
	line = append(line, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return fmt.Errorf("bot: audit: closed")
	}
	today := day(a.opts.Now())
	if a.size > 0 && (a.size+int64(len(line)) > a.opts.MaxBytes || today != a.day) {
		if err := a.rotate(); err != nil {
			return err
		}
		a.day = today
	}
	n, err := a.f.Write(line)
	a.size += int64(n)
	if err != nil {
		return fmt.Errorf("bot: audit: %w", err)
	}
	return nil
}

// rotate moves the current file aside under its day's name, starts a new
// one and deletes the oldest rotated files beyond Keep.
func (a *FileAudit) rotate() error {
	if err := a.f.Close(); err != nil {
		return fmt.Errorf("bot: audit: rotate: %w", err)
	}
	a.f = nil
	ext := filepath.Ext(a.path)
	stem := strings.TrimSuffix(a.path, ext)
	target := stem + "-" + a.day + ext
	for n := 1; ; n++ {
		if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
			break
		}
		target = fmt.Sprintf("%s-%s.%d%s", stem, a.day, n, ext)
	}
	if err := os.Rename(a.path, target); err != nil {
		return fmt.Errorf("bot: audit: rotate: %w", err)
	}
	if err := a.open(); err != nil {
		return err
	}
	old, _ := filepath.Glob(stem + "-*" + ext)
	// Names sort by day, then by number within a day, once the numbers
	// are compared as numbers.
	sort.Slice(old, func(i, j int) bool { return rotatedOrder(old[i]) < rotatedOrder(old[j]) })
	for len(old) > a.opts.Keep {
		_ = os.Remove(old[0])
		old = old[1:]
	}
	return nil
}

// rotatedOrder makes rotated names sortable: "audit-2026-08-21.3.jsonl"
// sorts after "audit-2026-08-21.jsonl" and before "….10.jsonl".
func rotatedOrder(name string) string {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	stem, suffix, _ := strings.Cut(filepath.Base(base), ".")
	n, _ := strconv.Atoi(suffix)
	return fmt.Sprintf("%s.%06d", stem, n)
}

// Close closes the file.
func (a *FileAudit) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}

// maxAuditQuestion caps how much of a question the audit trail keeps. A
// question the validator accepted is shorter (1000 characters by default);
// a longer one was blocked, and its length and hash identify it.
const maxAuditQuestion = 2048

// auditQuestion fills the record's question fields: the text when short,
// else its first maxAuditQuestion bytes with its full length and SHA-256.
func auditQuestion(rec *AuditRecord, text string) {
	if len(text) <= maxAuditQuestion {
		rec.Question = text
		return
	}
	cut := maxAuditQuestion
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(text))
	rec.Question, rec.QuestionBytes, rec.QuestionSHA256 = text[:cut]+"…", len(text), hex.EncodeToString(sum[:])
}

// record writes the answer's audit record and metrics. Audit failures are
// logged, never surfaced to the user.
func (b *Bot) record(ctx context.Context, q Query, ans answer.Answer, start time.Time) {
	b.cfg.Metrics.observe(q.Platform, ans)
	b.cfg.Logger.Info("answer",
		"answer_id", ans.ID, "event_id", q.EventID, "platform", q.Platform, "tenant", q.Tenant,
		"status", ans.Status, "reason", ans.Reason, "cached", ans.Cached,
		"latency_ms", ms(b.cfg.Now().Sub(start)))
	if b.cfg.Audit == nil {
		return
	}
	rec := AuditRecord{
		Kind: "answer", At: b.cfg.Now().UTC(), AnswerID: ans.ID, Platform: q.Platform, Tenant: q.Tenant,
		Channel: q.Channel, Thread: q.Thread, User: q.User, EventID: q.EventID,
		Answer: ans.Answer, Status: ans.Status, Reason: string(ans.Reason), Intent: ans.Intent,
		Sources: ans.Trace.CitedChunks, Cached: ans.Cached, PreGuard: ans.Trace.PreGuard, PostGuard: ans.Trace.PostGuard,
		Generator: ans.Trace.Generator, Degraded: ans.Trace.Degraded, TimingsMS: ans.TimingsMS,
	}
	auditQuestion(&rec, q.Text)
	if ans.StandaloneQuestion != q.Text && len(ans.StandaloneQuestion) <= maxAuditQuestion {
		rec.Rewritten = ans.StandaloneQuestion
	}
	if err := b.cfg.Audit.Record(context.WithoutCancel(ctx), rec); err != nil {
		b.cfg.Logger.Warn("audit record failed", "answer_id", ans.ID, "err", err)
	}
}

// Feedback is a 👍/👎 on an answer.
type Feedback struct {
	AnswerID string
	Platform answer.Platform
	Tenant   string
	Channel  string
	User     string
	// Up is true for 👍.
	Up      bool
	Comment string
}

// RecordFeedback attaches a vote to an answer id in the audit trail.
func (b *Bot) RecordFeedback(ctx context.Context, f Feedback) error {
	if f.AnswerID == "" {
		return fmt.Errorf("bot: feedback without an answer id")
	}
	vote := "down"
	if f.Up {
		vote = "up"
	}
	b.cfg.Metrics.feedback(f.Platform, vote)
	if b.cfg.Audit == nil {
		return nil
	}
	return b.cfg.Audit.Record(ctx, AuditRecord{
		Kind: "feedback", At: b.cfg.Now().UTC(), AnswerID: f.AnswerID, Platform: f.Platform, Tenant: f.Tenant,
		Channel: f.Channel, User: f.User, Vote: vote, Comment: f.Comment,
	})
}
