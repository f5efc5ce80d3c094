package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cewhq/cew/answer"
)

// AuditRecord is one line of the audit trail: an answer or a feedback.
type AuditRecord struct {
	Kind      string          `json:"kind"` // "answer" or "feedback"
	At        time.Time       `json:"at"`
	AnswerID  string          `json:"answer_id"`
	Platform  answer.Platform `json:"platform"`
	Tenant    string          `json:"tenant"`
	Channel   string          `json:"channel,omitempty"`
	Thread    string          `json:"thread,omitempty"`
	User      string          `json:"user,omitempty"`
	EventID   string          `json:"event_id,omitempty"`
	Question  string          `json:"question,omitempty"`
	Rewritten string          `json:"standalone_question,omitempty"`
	Answer    string          `json:"answer,omitempty"`
	Status    answer.Status   `json:"status,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Intent    string          `json:"intent,omitempty"`
	Sources   []string        `json:"sources,omitempty"` // chunk ids
	Cached    bool            `json:"cached,omitempty"`
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

// FileAudit appends JSON lines to a file; one write per record, under a
// mutex, so concurrent answers never interleave.
type FileAudit struct {
	mu sync.Mutex
	f  *os.File
}

// OpenFileAudit opens (creating) the audit file for appending.
func OpenFileAudit(path string) (*FileAudit, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("bot: audit: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("bot: audit: %w", err)
	}
	return &FileAudit{f: f}, nil
}

// Record appends r.
func (a *FileAudit) Record(_ context.Context, r AuditRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("bot: audit: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("bot: audit: %w", err)
	}
	return nil
}

// Close closes the file.
func (a *FileAudit) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.f.Close()
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
		Question: q.Text, Answer: ans.Answer, Status: ans.Status, Reason: string(ans.Reason), Intent: ans.Intent,
		Sources: ans.Trace.CitedChunks, Cached: ans.Cached, PreGuard: ans.Trace.PreGuard, PostGuard: ans.Trace.PostGuard,
		Generator: ans.Trace.Generator, Degraded: ans.Trace.Degraded, TimingsMS: ans.TimingsMS,
	}
	if ans.StandaloneQuestion != q.Text {
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
