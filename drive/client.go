package drive

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v5"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
	gdrive "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

// Drive MIME types cew reads specially.
const (
	mimeFolder = "application/vnd.google-apps.folder"
	mimeDoc    = "application/vnd.google-apps.document"
	mimeSheet  = "application/vnd.google-apps.spreadsheet"
	mimeGoogle = "application/vnd.google-apps."
	mimeDOCX   = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	mimeXLSX   = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// fileFields is what the sync reads of a file: identity, place, content
// checksum and version, and the link citations open.
const fileFields = "id,name,mimeType,parents,trashed,md5Checksum,modifiedTime,version,webViewLink,size,driveId"

// pageSize is the most files.list and changes.list return per call.
const pageSize = 1000

// Defaults of ClientOptions.
const (
	DefaultAttempts    = 8
	DefaultCallTimeout = time.Minute
	// DefaultDownloadTimeout bounds one download request (a resumed
	// download makes another).
	DefaultDownloadTimeout = 10 * time.Minute
	// MaxRetryAfter caps a Retry-After wait; Drive asking for longer fails
	// this sync, and the next one resumes.
	MaxRetryAfter = 2 * time.Minute
)

// ErrNotFound is returned when a folder, shared drive or file does not
// exist or is not shared with cew's account.
var ErrNotFound = errors.New("drive: not found or not shared with cew's account")

// ClientOptions configures a Client. The zero value of each field means
// its default.
type ClientOptions struct {
	// Endpoint overrides the Drive v3 API base URL (CEW_DRIVE_API_URL).
	Endpoint string
	// CredentialsFile is a service-account (or workload identity
	// federation) JSON key, GOOGLE_APPLICATION_CREDENTIALS; "" uses
	// Application Default Credentials (the metadata server's workload
	// identity on GKE and Cloud Run).
	CredentialsFile string
	// HTTPClient, when set, is used as is: no credentials are looked up
	// (tests against a stand-in without auth).
	HTTPClient *http.Client
	Logger     *slog.Logger
	// Attempts per call, rate limits and server errors included.
	Attempts        int
	CallTimeout     time.Duration
	DownloadTimeout time.Duration
	// Sleep waits between attempts (a seam for tests); nil waits on a
	// timer, returning early with ctx's error.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client calls the Drive v3 API through the official client, retrying
// what Drive says to retry (403 userRateLimitExceeded or
// rateLimitExceeded, 429, 5xx, dropped connections) with exponential
// backoff or exactly the Retry-After Drive asks for.
type Client struct {
	svc  *gdrive.Service
	opts ClientOptions
	log  *slog.Logger

	calls     atomic.Int64
	downloads atomic.Int64
	bytes     atomic.Int64
	retries   atomic.Int64
}

// Scope is the only OAuth scope cew asks for: it reads, never writes.
const Scope = gdrive.DriveReadonlyScope

// NewClient builds a Client. Credentials are read once here; tokens are
// fetched and refreshed as calls need them.
func NewClient(ctx context.Context, opts ClientOptions) (*Client, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Attempts <= 0 {
		opts.Attempts = DefaultAttempts
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = DefaultCallTimeout
	}
	if opts.DownloadTimeout <= 0 {
		opts.DownloadTimeout = DefaultDownloadTimeout
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	c := &Client{opts: opts, log: opts.Logger}
	hc := opts.HTTPClient
	if hc == nil {
		ts, err := tokenSource(ctx, opts.CredentialsFile)
		if err != nil {
			return nil, err
		}
		base := http.DefaultTransport.(*http.Transport).Clone()
		hc = &http.Client{Transport: &oauth2.Transport{Source: ts, Base: base}}
	}
	counted := &http.Client{Transport: countingTransport{next: transportOf(hc), calls: &c.calls}, Timeout: hc.Timeout}
	clientOpts := []option.ClientOption{option.WithHTTPClient(counted)}
	if opts.Endpoint != "" {
		clientOpts = append(clientOpts, option.WithEndpoint(opts.Endpoint))
	}
	svc, err := gdrive.NewService(ctx, clientOpts...)
	if err != nil {
		return nil, fmt.Errorf("drive: client: %w", err)
	}
	c.svc = svc
	return c, nil
}

func transportOf(c *http.Client) http.RoundTripper {
	if c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}

// tokenSource reads the credentials: a JSON key file when one is named,
// else Application Default Credentials. Only service-account and external
// account (workload identity federation) keys are accepted: a key file is
// configuration, and other types could make cew call endpoints the key
// names.
func tokenSource(ctx context.Context, file string) (oauth2.TokenSource, error) {
	// Tokens are fetched long after ctx (a command's or a request's) ends.
	ctx = context.WithoutCancel(ctx)
	if file == "" {
		creds, err := google.FindDefaultCredentials(ctx, Scope)
		if err != nil {
			return nil, fmt.Errorf("drive: no Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or run with workload identity (%v)", err)
		}
		return creds.TokenSource, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("drive: GOOGLE_APPLICATION_CREDENTIALS: cannot read the key file: %v", unwrapPath(err))
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("drive: GOOGLE_APPLICATION_CREDENTIALS: %s is not a JSON key file", file)
	}
	var typ google.CredentialsType
	switch google.CredentialsType(head.Type) {
	case google.ServiceAccount:
		typ = google.ServiceAccount
	case google.ExternalAccount:
		typ = google.ExternalAccount
	default:
		return nil, fmt.Errorf("drive: GOOGLE_APPLICATION_CREDENTIALS: key type %q is not supported (service_account or external_account)", head.Type)
	}
	creds, err := google.CredentialsFromJSONWithType(ctx, data, typ, Scope)
	if err != nil {
		// The library's message names fields, never their values.
		return nil, fmt.Errorf("drive: GOOGLE_APPLICATION_CREDENTIALS: %s: %v", file, err)
	}
	return creds.TokenSource, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// countingTransport counts the requests sent to Drive (retries included).
type countingTransport struct {
	next  http.RoundTripper
	calls *atomic.Int64
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.calls.Add(1)
	return t.next.RoundTrip(r)
}

// Stats counts a Client's traffic since it was made.
type Stats struct {
	// Calls is the number of requests sent to the Drive API, retries and
	// downloads included.
	Calls int64
	// Downloads is the number of files downloaded or exported in full.
	Downloads int64
	// Bytes is the content downloaded or exported.
	Bytes int64
	// Retries is the number of calls repeated after a rate limit, a
	// server error or a dropped connection.
	Retries int64
}

// Stats returns the counts so far.
func (c *Client) Stats() Stats {
	return Stats{Calls: c.calls.Load(), Downloads: c.downloads.Load(), Bytes: c.bytes.Load(), Retries: c.retries.Load()}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// verdict is what a failed call means for the next attempt.
type verdict struct {
	retry bool
	wait  time.Duration // 0 = the backoff's next interval
	kind  string
}

// classify judges a failure as Drive's documentation says to: rate limits
// (403 with reason userRateLimitExceeded or rateLimitExceeded, and 429)
// and server errors are retried, honouring Retry-After; so are dropped
// connections. Everything else (404, 400, 401, other 403s) is final.
func classify(err error) verdict {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		wait := retryAfter(ge.Header)
		switch {
		case ge.Code == http.StatusTooManyRequests:
			return verdict{retry: true, wait: wait, kind: "rate_limited"}
		case ge.Code == http.StatusForbidden && hasReason(ge, "userRateLimitExceeded", "rateLimitExceeded"):
			return verdict{retry: true, wait: wait, kind: "rate_limited"}
		case ge.Code == http.StatusRequestTimeout || ge.Code >= 500:
			return verdict{retry: true, wait: wait, kind: "server"}
		}
		return verdict{kind: "api"}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// A call's own timeout is retried by the caller (see do); the
		// caller's context ending is not.
		return verdict{retry: true, kind: "timeout"}
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, errShortBody) {
		return verdict{retry: true, kind: "network"}
	}
	return verdict{kind: "other"}
}

func hasReason(ge *googleapi.Error, reasons ...string) bool {
	for _, item := range ge.Errors {
		for _, r := range reasons {
			if item.Reason == r {
				return true
			}
		}
	}
	return false
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date; 0
// when absent or unreadable.
func retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// do runs call until it succeeds, fails for good, the attempts run out or
// ctx ends. Each attempt gets its own timeout.
func (c *Client) do(ctx context.Context, method string, timeout time.Duration, call func(ctx context.Context) error) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval = time.Second, 32*time.Second
	var err error
	for attempt := 1; ; attempt++ {
		callCtx, cancel := context.WithTimeout(ctx, timeout)
		err = call(callCtx)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("drive: %s: %w", method, ctx.Err())
		}
		v := classify(err)
		if !v.retry || attempt >= c.opts.Attempts {
			break
		}
		wait := v.wait
		if wait == 0 {
			wait = b.NextBackOff()
		}
		if wait > MaxRetryAfter {
			return fmt.Errorf("drive: %s: Drive asks to wait %s, longer than %s; the next sync resumes: %w", method, wait, MaxRetryAfter, err)
		}
		c.retries.Add(1)
		c.log.Warn("drive call retried", "method", method, "attempt", attempt, "kind", v.kind, "wait", wait, "err", err)
		if err := c.opts.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("drive: %s: %w", method, err)
		}
	}
	return fmt.Errorf("drive: %s: %w", method, err)
}

// isNotFound reports a 404 from Drive.
func isNotFound(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && ge.Code == http.StatusNotFound
}

// Root is what a configured id names: a folder (in My Drive or in a shared
// drive) or a shared drive.
type Root struct {
	ID   string
	Name string
	// DriveID is the shared drive the root lives in (its own id for a
	// shared drive); "" for My Drive.
	DriveID     string
	SharedDrive bool
}

// Root looks up a folder or shared drive id.
func (c *Client) Root(ctx context.Context, id string) (Root, error) {
	var f *gdrive.File
	err := c.do(ctx, "files.get", c.opts.CallTimeout, func(ctx context.Context) error {
		var err error
		f, err = c.svc.Files.Get(id).SupportsAllDrives(true).Fields(fileFields).Context(ctx).Do()
		return err
	})
	switch {
	case err == nil && f.MimeType != mimeFolder:
		return Root{}, fmt.Errorf("drive: %s (%q) is a file, not a folder or shared drive", id, f.Name)
	case err == nil && f.Trashed:
		return Root{}, fmt.Errorf("drive: folder %s (%q) is in the bin", id, f.Name)
	case err == nil:
		return Root{ID: f.Id, Name: f.Name, DriveID: f.DriveId, SharedDrive: f.DriveId == f.Id && f.Id != ""}, nil
	case !isNotFound(err):
		return Root{}, err
	}
	var d *gdrive.Drive
	err = c.do(ctx, "drives.get", c.opts.CallTimeout, func(ctx context.Context) error {
		var err error
		d, err = c.svc.Drives.Get(id).Fields("id,name").Context(ctx).Do()
		return err
	})
	if isNotFound(err) {
		return Root{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Root{}, err
	}
	return Root{ID: d.Id, Name: d.Name, DriveID: d.Id, SharedDrive: true}, nil
}

// Children calls fn with every file and folder directly in folderID that
// is not in the bin, page by page. driveID is the shared drive the folder
// lives in ("" for My Drive).
func (c *Client) Children(ctx context.Context, folderID, driveID string, fn func(*gdrive.File) error) error {
	token := ""
	for {
		var page *gdrive.FileList
		err := c.do(ctx, "files.list", c.opts.CallTimeout, func(ctx context.Context) error {
			call := c.svc.Files.List().
				Q(fmt.Sprintf("'%s' in parents and trashed = false", folderID)).
				SupportsAllDrives(true).IncludeItemsFromAllDrives(true).
				PageSize(pageSize).Fields(googleapi.Field("nextPageToken,files(" + fileFields + ")")).Context(ctx)
			if driveID != "" {
				call = call.Corpora("drive").DriveId(driveID)
			}
			if token != "" {
				call = call.PageToken(token)
			}
			var err error
			page, err = call.Do()
			return err
		})
		if err != nil {
			return err
		}
		for _, f := range page.Files {
			if err := fn(f); err != nil {
				return err
			}
		}
		if page.NextPageToken == "" {
			return nil
		}
		token = page.NextPageToken
	}
}

// File reads one file's metadata.
func (c *Client) File(ctx context.Context, id string) (*gdrive.File, error) {
	var f *gdrive.File
	err := c.do(ctx, "files.get", c.opts.CallTimeout, func(ctx context.Context) error {
		var err error
		f, err = c.svc.Files.Get(id).SupportsAllDrives(true).Fields(fileFields).Context(ctx).Do()
		return err
	})
	if isNotFound(err) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return f, err
}

// StartPageToken is the Changes feed's position now: changes.list from it
// returns what changes afterwards. driveID scopes it to a shared drive.
func (c *Client) StartPageToken(ctx context.Context, driveID string) (string, error) {
	var tok *gdrive.StartPageToken
	err := c.do(ctx, "changes.getStartPageToken", c.opts.CallTimeout, func(ctx context.Context) error {
		call := c.svc.Changes.GetStartPageToken().SupportsAllDrives(true).Context(ctx)
		if driveID != "" {
			call = call.DriveId(driveID)
		}
		var err error
		tok, err = call.Do()
		return err
	})
	if err != nil {
		return "", err
	}
	return tok.StartPageToken, nil
}

// Changes calls fn with every change since token, page by page, and
// returns the token to start from next time.
func (c *Client) Changes(ctx context.Context, token, driveID string, fn func(*gdrive.Change) error) (string, error) {
	for {
		var page *gdrive.ChangeList
		err := c.do(ctx, "changes.list", c.opts.CallTimeout, func(ctx context.Context) error {
			call := c.svc.Changes.List(token).SupportsAllDrives(true).IncludeItemsFromAllDrives(true).
				IncludeRemoved(true).PageSize(pageSize).
				Fields(googleapi.Field("nextPageToken,newStartPageToken,changes(changeType,fileId,removed,file(" + fileFields + "))")).
				Context(ctx)
			if driveID != "" {
				call = call.DriveId(driveID)
			}
			var err error
			page, err = call.Do()
			return err
		})
		if err != nil {
			return "", err
		}
		for _, ch := range page.Changes {
			if err := fn(ch); err != nil {
				return "", err
			}
		}
		if page.NewStartPageToken != "" {
			return page.NewStartPageToken, nil
		}
		if page.NextPageToken == "" {
			return "", fmt.Errorf("drive: changes.list: a page with neither a next page nor a new start token")
		}
		token = page.NextPageToken
	}
}

// errShortBody is a download whose body ended before its length.
var errShortBody = errors.New("drive: download ended early")

// ErrTooLarge is a file over the size limit.
var ErrTooLarge = errors.New("drive: file too large")

// Download writes a file's content to dst: a binary file as stored, a
// Google Doc or Sheet exported as exportMIME. A download cut off half-way
// resumes where it stopped (an HTTP Range request) and the result is
// checked against Drive's MD5 checksum; an export, which Drive cannot
// resume, starts again. Content over limit bytes fails with ErrTooLarge.
func (c *Client) Download(ctx context.Context, f *gdrive.File, exportMIME string, dst *os.File, limit int64) (int64, error) {
	var (
		written int64
		sum     hash.Hash = md5.New()
	)
	restart := func() error {
		written, sum = 0, md5.New()
		if err := dst.Truncate(0); err != nil {
			return err
		}
		_, err := dst.Seek(0, io.SeekStart)
		return err
	}
	method := "files.download"
	if exportMIME != "" {
		method = "files.export"
	}
	err := c.do(ctx, method, c.opts.DownloadTimeout, func(ctx context.Context) error {
		var (
			resp *http.Response
			err  error
		)
		if exportMIME != "" {
			if written > 0 {
				if err := restart(); err != nil {
					return &permanent{err}
				}
			}
			resp, err = c.svc.Files.Export(f.Id, exportMIME).Context(ctx).Download()
		} else {
			call := c.svc.Files.Get(f.Id).SupportsAllDrives(true).Context(ctx)
			if written > 0 {
				call.Header().Set("Range", fmt.Sprintf("bytes=%d-", written))
			}
			resp, err = call.Download()
		}
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if written > 0 && resp.StatusCode != http.StatusPartialContent {
			// The range was not honoured: the body is the whole file.
			if err := restart(); err != nil {
				return &permanent{err}
			}
		}
		n, err := io.Copy(io.MultiWriter(dst, sum), io.LimitReader(resp.Body, limit-written+1))
		written += n
		c.bytes.Add(n)
		if written > limit {
			return &permanent{ErrTooLarge}
		}
		if err != nil {
			return err
		}
		if resp.ContentLength >= 0 && n < resp.ContentLength {
			return errShortBody
		}
		return nil
	})
	var p *permanent
	if errors.As(err, &p) {
		return written, fmt.Errorf("drive: %s %s: %w", method, f.Id, p.err)
	}
	if err != nil {
		return written, err
	}
	if f.Md5Checksum != "" && exportMIME == "" {
		if got := hex.EncodeToString(sum.Sum(nil)); got != f.Md5Checksum {
			return written, fmt.Errorf("drive: download %s: MD5 %s does not match Drive's %s", f.Id, got, f.Md5Checksum)
		}
	}
	c.downloads.Add(1)
	return written, nil
}

// permanent marks a failure no retry can mend.
type permanent struct{ err error }

func (p *permanent) Error() string { return p.err.Error() }
func (p *permanent) Unwrap() error { return p.err }
