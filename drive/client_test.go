package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"testing"
	"time"

	"google.golang.org/api/googleapi"
)

func TestClassify(t *testing.T) {
	rate := func(code int, reason, retryAfter string) error {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &googleapi.Error{Code: code, Header: h, Errors: []googleapi.ErrorItem{{Reason: reason}}}
	}
	cases := []struct {
		name  string
		err   error
		retry bool
		wait  time.Duration
	}{
		{"429 with Retry-After", rate(429, "rateLimitExceeded", "7"), true, 7 * time.Second},
		{"403 user rate limit", rate(403, "userRateLimitExceeded", ""), true, 0},
		{"403 rate limit, wrapped", fmt.Errorf("call: %w", rate(403, "rateLimitExceeded", "2")), true, 2 * time.Second},
		{"403 permission", rate(403, "insufficientFilePermissions", ""), false, 0},
		{"403 daily limit", rate(403, "dailyLimitExceeded", ""), false, 0},
		{"404", rate(404, "notFound", ""), false, 0},
		{"400", rate(400, "invalid", ""), false, 0},
		{"500", rate(500, "backendError", ""), true, 0},
		{"503 with a date", rate(503, "backendError", "Mon, 02 Jan 2006 15:04:05 GMT"), true, 0},
		{"a dropped connection", &url.Error{Op: "Get", URL: "https://x", Err: io.ErrUnexpectedEOF}, true, 0},
		{"a short body", errShortBody, true, 0},
		{"too large", &permanent{ErrTooLarge}, false, 0},
		{"something else", errors.New("boom"), false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := classify(c.err)
			if v.retry != c.retry || v.wait != c.wait {
				t.Errorf("classify = %+v, want retry %v wait %s", v, c.retry, c.wait)
			}
		})
	}
}

// TestRetryGivesUp: attempts are bounded, and a Retry-After beyond the cap
// ends the call at once.
func TestRetryGivesUp(t *testing.T) {
	var waits []time.Duration
	c := &Client{opts: ClientOptions{Attempts: 3, CallTimeout: time.Second, Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}}
	c.log = discard()
	calls := 0
	err := c.do(context.Background(), "files.list", time.Second, func(context.Context) error {
		calls++
		return &googleapi.Error{Code: 503}
	})
	if err == nil || calls != 3 || len(waits) != 2 {
		t.Errorf("err %v after %d calls and %d waits, want 3 calls", err, calls, len(waits))
	}
	calls = 0
	err = c.do(context.Background(), "files.list", time.Second, func(context.Context) error {
		calls++
		return &googleapi.Error{Code: 429, Header: http.Header{"Retry-After": {"3600"}}}
	})
	if err == nil || calls != 1 {
		t.Errorf("a Retry-After of an hour: err %v after %d calls", err, calls)
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		name, file, mime, local, export string
		ok                              bool
	}{
		{"pdf", "Layout.pdf", "application/pdf", "Layout.pdf", "", true},
		{"pdf without extension", "Layout", "application/pdf", "Layout.pdf", "", true},
		{"google doc", "Spec", mimeDoc, "Spec.docx", mimeDOCX, true},
		{"google sheet named .xlsx", "Schedule.xlsx", mimeSheet, "Schedule.xlsx", mimeXLSX, true},
		{"slides", "Deck", "application/vnd.google-apps.presentation", "", "", false},
		{"image", "photo.jpg", "image/jpeg", "", "", false},
		{"slash in the name", "A/B.md", "text/markdown", "A_B.md", "", true},
		{"dot dot", "..", "text/plain", "_...txt", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			local, export, ok, why := format(remote{Name: c.file, MimeType: c.mime})
			if local != c.local || export != c.export || ok != c.ok || (!ok && why == "") {
				t.Errorf("format = %q, %q, %v, %q", local, export, ok, why)
			}
		})
	}
}

func TestTimeRevision(t *testing.T) {
	a, b := timeRevision("2025-03-01T09:00:05.123Z"), timeRevision("2025-03-01T10:00:00+01:00")
	if a != "2025-03-01 09:00:05" || b != "2025-03-01 09:00:00" {
		t.Errorf("revisions %q, %q", a, b)
	}
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
