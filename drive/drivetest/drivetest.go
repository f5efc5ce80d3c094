// Package drivetest is a local stand-in for the Google Drive v3 REST API,
// enough of it for cew's Drive sync to be tested end to end with the
// official client: folders, shared drives, files.list with its query and
// pagination, metadata, downloads (with Range) and Google Docs exports,
// the Changes feed, a service-account token endpoint, and failures on
// demand (rate limits with Retry-After, a download cut half-way).
package drivetest

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// MIME types Drive uses for folders and its own formats.
const (
	FolderMIME = "application/vnd.google-apps.folder"
	DocMIME    = "application/vnd.google-apps.document"
	SheetMIME  = "application/vnd.google-apps.spreadsheet"
	SlidesMIME = "application/vnd.google-apps.presentation"
	DOCXMIME   = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	XLSXMIME   = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// File is one Drive item as the stand-in holds it.
type File struct {
	ID       string
	Name     string
	MimeType string
	Parent   string
	DriveID  string
	Trashed  bool
	Content  []byte
	// Exports holds a Google file's content per export MIME type.
	Exports  map[string][]byte
	Modified time.Time
	Version  int64
}

// change is one entry of the Changes feed.
type change struct {
	fileID  string
	driveID string
	time    time.Time
}

// Fault is a failure served instead of the next matching request.
type Fault struct {
	// Method is the API method it applies to ("files.list", "files.get",
	// "files.download", "files.export", "changes.list", …); "" = any.
	Method string
	Status int
	// Reason is the error reason ("userRateLimitExceeded",
	// "rateLimitExceeded", "backendError").
	Reason string
	// RetryAfter is the Retry-After header, "" for none.
	RetryAfter string
	// Message is the error message; "" names the reason.
	Message string
}

// Server is the stand-in. Its methods change Drive as users would, each
// change recorded in the Changes feed.
type Server struct {
	*httptest.Server

	maxPageSize int

	mu      sync.Mutex
	files   map[string]*File
	drives  map[string]string // shared drive id → name
	changes []change
	nextID  int
	now     time.Time
	faults  []Fault
	cuts    map[string]int // file id → bytes served before the connection drops
	calls   map[string]int
	bytes   int64

	key    *rsa.PrivateKey
	token  string
	tokens int
}

// New starts a stand-in. With auth, API requests need the access token its
// /token endpoint grants for a JWT signed by the key of ServiceAccountJSON.
func New(auth bool) *Server {
	s := &Server{
		files: map[string]*File{}, drives: map[string]string{}, cuts: map[string]int{}, calls: map[string]int{},
		now: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
	}
	if auth {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		s.key = key
		s.token = "ya29.stand-in-" + rand.Text()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", s.handleToken)
	mux.HandleFunc("GET /drive/v3/files", s.api("files.list", s.handleList))
	mux.HandleFunc("GET /drive/v3/files/{id}", s.api("files.get", s.handleGet))
	mux.HandleFunc("GET /drive/v3/files/{id}/export", s.api("files.export", s.handleExport))
	mux.HandleFunc("GET /drive/v3/drives/{id}", s.api("drives.get", s.handleDrive))
	mux.HandleFunc("GET /drive/v3/changes/startPageToken", s.api("changes.getStartPageToken", s.handleStartToken))
	mux.HandleFunc("GET /drive/v3/changes", s.api("changes.list", s.handleChanges))
	s.Server = httptest.NewServer(mux)
	return s
}

// Endpoint is the API base URL to give the client (option.WithEndpoint,
// CEW_DRIVE_API_URL).
func (s *Server) Endpoint() string { return s.URL + "/drive/v3/" }

// ServiceAccountJSON writes a service-account key file whose token_uri is
// this stand-in and returns its path. The key is made for this run.
func (s *Server) ServiceAccountJSON(dir string) (string, error) {
	if s.key == nil {
		return "", fmt.Errorf("drivetest: the stand-in was started without auth")
	}
	der, err := x509.MarshalPKCS8PrivateKey(s.key)
	if err != nil {
		return "", err
	}
	key := map[string]string{
		"type": "service_account", "project_id": "cew-test", "private_key_id": "k1",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": "cew-sync@cew-test.iam.gserviceaccount.com", "client_id": "1",
		"token_uri": s.URL + "/token",
	}
	data, err := json.Marshal(key)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "service-account.json")
	return p, os.WriteFile(p, data, 0o600)
}

// AccessToken is the token the stand-in grants (to check it never reaches
// logs).
func (s *Server) AccessToken() string { return s.token }

// SetTime sets the clock that stamps modifiedTime.
func (s *Server) SetTime(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = t.UTC()
}

// Tick advances the stand-in's clock.
func (s *Server) Tick(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(d)
}

func (s *Server) newID(prefix string) string {
	s.nextID++
	return fmt.Sprintf("%s%04d", prefix, s.nextID)
}

// record appends a change for f (under s.mu) and bumps its version.
func (s *Server) record(f *File) {
	f.Version++
	f.Modified = s.now
	s.changes = append(s.changes, change{fileID: f.ID, driveID: f.DriveID, time: s.now})
	s.now = s.now.Add(time.Second)
}

func (s *Server) driveOf(parent string) string {
	if _, ok := s.drives[parent]; ok {
		return parent
	}
	if p, ok := s.files[parent]; ok {
		return p.DriveID
	}
	return ""
}

// AddSharedDrive creates a shared drive and returns its id, which is also
// the id of its root folder.
func (s *Server) AddSharedDrive(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID("drive")
	s.drives[id] = name
	return id
}

// AddFolder creates a folder in parent (a folder or a shared drive; "" for
// the root of My Drive).
func (s *Server) AddFolder(parent, name string) string {
	return s.add(&File{Name: name, MimeType: FolderMIME, Parent: parent})
}

// AddFile uploads a file.
func (s *Server) AddFile(parent, name, mimeType string, content []byte) string {
	return s.add(&File{Name: name, MimeType: mimeType, Parent: parent, Content: content})
}

// AddGoogleFile creates a Google Doc, Sheet or Slides whose export as
// exportMIME is content.
func (s *Server) AddGoogleFile(parent, name, mimeType, exportMIME string, content []byte) string {
	return s.add(&File{Name: name, MimeType: mimeType, Parent: parent, Exports: map[string][]byte{exportMIME: content}})
}

func (s *Server) add(f *File) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	prefix := "file"
	if f.MimeType == FolderMIME {
		prefix = "folder"
	}
	f.ID = s.newID(prefix)
	f.DriveID = s.driveOf(f.Parent)
	s.files[f.ID] = f
	s.record(f)
	return f.ID
}

// Update replaces a file's content (a new version of the same file; a
// Google file's export).
func (s *Server) Update(id string, content []byte) {
	s.mutate(id, func(f *File) {
		if f.Exports != nil {
			for k := range f.Exports {
				f.Exports[k] = content
			}
			return
		}
		f.Content = content
	})
}

// Rename renames a file or folder.
func (s *Server) Rename(id, name string) { s.mutate(id, func(f *File) { f.Name = name }) }

// Move moves a file or folder to another parent.
func (s *Server) Move(id, parent string) {
	s.mutate(id, func(f *File) { f.Parent = parent; f.DriveID = s.driveOf(parent) })
}

// Trash moves a file or folder to the bin; Untrash restores it.
func (s *Server) Trash(id string)   { s.mutate(id, func(f *File) { f.Trashed = true }) }
func (s *Server) Untrash(id string) { s.mutate(id, func(f *File) { f.Trashed = false }) }

// Delete removes a file for good.
func (s *Server) Delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[id]
	if !ok {
		return
	}
	delete(s.files, id)
	s.changes = append(s.changes, change{fileID: id, driveID: f.DriveID, time: s.now})
}

// Touch changes a file's metadata only (its version moves, not its
// content).
func (s *Server) Touch(id string) { s.mutate(id, func(*File) {}) }

func (s *Server) mutate(id string, fn func(*File)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[id]
	if !ok {
		panic("drivetest: no file " + id)
	}
	fn(f)
	s.record(f)
}

// File returns a copy of a file's metadata (its content left out).
func (s *Server) File(id string) File {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[id]
	if !ok {
		return File{}
	}
	c := *f
	c.Content, c.Exports = nil, nil
	return c
}

// WebViewLink is the link Drive gives a file.
func WebViewLink(f *File) string {
	switch f.MimeType {
	case DocMIME:
		return "https://docs.google.com/document/d/" + f.ID + "/edit?usp=drivesdk"
	case SheetMIME:
		return "https://docs.google.com/spreadsheets/d/" + f.ID + "/edit?usp=drivesdk"
	case FolderMIME:
		return "https://drive.google.com/drive/folders/" + f.ID
	}
	return "https://drive.google.com/file/d/" + f.ID + "/view?usp=drivesdk"
}

// Fail queues faults, served in order to the requests they match.
func (s *Server) Fail(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, faults...)
}

// CutDownload makes the next download of a file send its full length in
// the headers but only the first n bytes of its body, then drop the
// connection.
func (s *Server) CutDownload(id string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cuts[id] = n
}

// Calls returns how many requests each API method received (faults
// included), and "token" for token grants.
func (s *Server) Calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.calls))
	for k, v := range s.calls {
		out[k] = v
	}
	return out
}

// TotalCalls is the number of API requests (token grants excluded).
func (s *Server) TotalCalls() int {
	n := 0
	for k, v := range s.Calls() {
		if k != "token" {
			n += v
		}
	}
	return n
}

// BytesServed is the number of content bytes downloads and exports sent.
func (s *Server) BytesServed() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// ResetCounts zeroes Calls and BytesServed.
func (s *Server) ResetCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = map[string]int{}
	s.bytes = 0
}

// api wraps a handler: counts the call, checks the bearer token, serves a
// queued fault.
func (s *Server) api(name string, h func(w http.ResponseWriter, r *http.Request, method string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		method := name
		if method == "files.get" && r.URL.Query().Get("alt") == "media" {
			method = "files.download"
		}
		s.mu.Lock()
		s.calls[method]++
		var fault *Fault
		for i, f := range s.faults {
			if f.Method == "" || f.Method == method {
				fault = &f
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
				break
			}
		}
		token := s.token
		s.mu.Unlock()
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			writeError(w, http.StatusUnauthorized, "authError", "Request had invalid authentication credentials.")
			return
		}
		if fault != nil {
			if fault.RetryAfter != "" {
				w.Header().Set("Retry-After", fault.RetryAfter)
			}
			msg := fault.Message
			if msg == "" {
				msg = "Injected failure: " + fault.Reason
			}
			writeError(w, fault.Status, fault.Reason, msg)
			return
		}
		h(w, r, method)
	}
}

func writeError(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"code": code, "message": message,
		"errors": []map[string]string{{"domain": "global", "reason": reason, "message": message}},
	}})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(v)
}

// fileJSON is a file as the API returns it.
func fileJSON(f *File) map[string]any {
	m := map[string]any{
		"kind": "drive#file", "id": f.ID, "name": f.Name, "mimeType": f.MimeType,
		"trashed": f.Trashed, "modifiedTime": f.Modified.Format(time.RFC3339Nano),
		"version": strconv.FormatInt(f.Version, 10), "webViewLink": WebViewLink(f),
	}
	if f.Parent != "" {
		m["parents"] = []string{f.Parent}
	}
	if f.DriveID != "" {
		m["driveId"] = f.DriveID
	}
	if f.Content != nil && f.Exports == nil && f.MimeType != FolderMIME {
		sum := md5.Sum(f.Content)
		m["md5Checksum"] = hex.EncodeToString(sum[:])
		m["size"] = strconv.Itoa(len(f.Content))
	}
	return m
}

// trashed reports whether f is in the bin, itself or through a folder.
func (s *Server) trashed(f *File) bool {
	for range 100 {
		if f.Trashed {
			return true
		}
		p, ok := s.files[f.Parent]
		if !ok {
			return false
		}
		f = p
	}
	return false
}

var (
	inParents   = regexp.MustCompile(`^'([A-Za-z0-9_-]+)' in parents$`)
	trashedTerm = regexp.MustCompile(`^trashed ?= ?(true|false)$`)
)

// handleList serves files.list for the queries the sync makes:
// "'<id>' in parents and trashed = false". Anything else is a 400, so a
// client that relied on more would fail here rather than in production.
func (s *Server) handleList(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	parent, wantTrashed := "", ""
	for _, term := range strings.Split(q.Get("q"), " and ") {
		term = strings.TrimSpace(term)
		if m := inParents.FindStringSubmatch(term); m != nil {
			parent = m[1]
		} else if m := trashedTerm.FindStringSubmatch(term); m != nil {
			wantTrashed = m[1]
		} else {
			writeError(w, http.StatusBadRequest, "invalid", "Invalid Value: unsupported query term "+strconv.Quote(term))
			return
		}
	}
	if parent == "" {
		writeError(w, http.StatusBadRequest, "invalid", "the stand-in needs a parent in q")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, shared := s.drives[parent]; shared || s.driveOf(parent) != "" {
		if q.Get("supportsAllDrives") != "true" || q.Get("includeItemsFromAllDrives") != "true" {
			// Drive answers without shared-drive items in this case.
			writeJSON(w, map[string]any{"kind": "drive#fileList", "files": []any{}})
			return
		}
	}
	var ids []string
	for id, f := range s.files {
		if f.Parent == parent && (wantTrashed == "" || strconv.FormatBool(s.trashed(f)) == wantTrashed) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	size := s.pageSize(q.Get("pageSize"))
	start, _ := strconv.Atoi(q.Get("pageToken"))
	end := min(start+size, len(ids))
	page := []any{}
	for _, id := range ids[min(start, len(ids)):end] {
		page = append(page, fileJSON(s.files[id]))
	}
	out := map[string]any{"kind": "drive#fileList", "files": page}
	if end < len(ids) {
		out["nextPageToken"] = strconv.Itoa(end)
	}
	writeJSON(w, out)
}

// SetMaxPageSize caps the files and changes one page returns, below what
// the client asks for, to exercise pagination.
func (s *Server) SetMaxPageSize(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxPageSize = n
}

// pageSize is the page a list returns: what was asked (Drive's default
// 100, at most 1000), capped by SetMaxPageSize. Called under s.mu.
func (s *Server) pageSize(asked string) int {
	size, _ := strconv.Atoi(asked)
	if size <= 0 || size > 1000 {
		size = 100
	}
	if s.maxPageSize > 0 && size > s.maxPageSize {
		size = s.maxPageSize
	}
	return size
}

func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (*File, bool) {
	id := r.PathValue("id")
	f, ok := s.files[id]
	if !ok || (f.DriveID != "" && r.URL.Query().Get("supportsAllDrives") != "true") {
		writeError(w, http.StatusNotFound, "notFound", "File not found: "+id+".")
		return nil, false
	}
	return f, true
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request, method string) {
	s.mu.Lock()
	f, ok := s.lookup(w, r)
	if !ok {
		s.mu.Unlock()
		return
	}
	if method != "files.download" {
		m := fileJSON(f)
		m["trashed"] = s.trashed(f)
		s.mu.Unlock()
		writeJSON(w, m)
		return
	}
	if f.Exports != nil || f.MimeType == FolderMIME {
		s.mu.Unlock()
		writeError(w, http.StatusForbidden, "fileNotDownloadable", "Only files with binary content can be downloaded. Use Export with Docs Editors files.")
		return
	}
	content := f.Content
	cut, isCut := s.cuts[f.ID]
	delete(s.cuts, f.ID)
	s.mu.Unlock()
	s.serveContent(w, r, content, cut, isCut)
}

// serveContent writes content, honouring "Range: bytes=N-"; a cut sends
// the headers for the whole body but only cut bytes of it.
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, content []byte, cut int, isCut bool) {
	start := 0
	if rg := r.Header.Get("Range"); rg != "" {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
		if err != nil || n < 0 || n > len(content) {
			writeError(w, http.StatusRequestedRangeNotSatisfiable, "requestedRangeNotSatisfiable", "bad range "+rg)
			return
		}
		start = n
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", n, len(content)-1, len(content)))
	}
	body := content[start:]
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if start > 0 {
		w.WriteHeader(http.StatusPartialContent)
	}
	if isCut && cut < len(body) {
		body = body[:cut]
	}
	n, _ := w.Write(body)
	s.mu.Lock()
	s.bytes += int64(n)
	s.mu.Unlock()
	if isCut {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
			}
		}
	}
}

func (s *Server) handleExport(w http.ResponseWriter, r *http.Request, _ string) {
	s.mu.Lock()
	f, ok := s.lookup(w, r)
	if !ok {
		s.mu.Unlock()
		return
	}
	content, ok := f.Exports[r.URL.Query().Get("mimeType")]
	if !ok {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, "badRequest", "The requested conversion is not supported.")
		return
	}
	cut, isCut := s.cuts[f.ID]
	delete(s.cuts, f.ID)
	s.mu.Unlock()
	r.Header.Del("Range") // exports are never partial
	s.serveContent(w, r, content, cut, isCut)
}

func (s *Server) handleDrive(w http.ResponseWriter, r *http.Request, _ string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := r.PathValue("id")
	name, ok := s.drives[id]
	if !ok {
		writeError(w, http.StatusNotFound, "notFound", "Shared drive not found: "+id)
		return
	}
	writeJSON(w, map[string]any{"kind": "drive#drive", "id": id, "name": name})
}

func (s *Server) handleStartToken(w http.ResponseWriter, _ *http.Request, _ string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, map[string]any{"kind": "drive#startPageToken", "startPageToken": strconv.Itoa(len(s.changes) + 1)})
}

// handleChanges serves changes.list. Tokens are positions in the feed (1 =
// before the first change). Each change carries the file as it is now, as
// Drive's does; a file deleted for good is "removed". With driveId, only
// that shared drive's changes; without, My Drive's, and shared drives'
// too when includeItemsFromAllDrives is set.
func (s *Server) handleChanges(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	pos, err := strconv.Atoi(q.Get("pageToken"))
	if err != nil || pos < 1 {
		writeError(w, http.StatusBadRequest, "invalid", "Invalid Value: pageToken")
		return
	}
	size := s.pageSize(q.Get("pageSize"))
	driveID := q.Get("driveId")
	allDrives := q.Get("includeItemsFromAllDrives") == "true" && q.Get("supportsAllDrives") == "true"
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []any
	i := pos - 1
	for ; i < len(s.changes) && len(out) < size; i++ {
		c := s.changes[i]
		switch {
		case driveID != "" && c.driveID != driveID:
			continue
		case driveID == "" && c.driveID != "" && !allDrives:
			continue
		}
		entry := map[string]any{"kind": "drive#change", "changeType": "file", "fileId": c.fileID, "time": c.time.Format(time.RFC3339Nano)}
		if f, ok := s.files[c.fileID]; ok {
			m := fileJSON(f)
			m["trashed"] = s.trashed(f)
			entry["file"], entry["removed"] = m, false
		} else {
			entry["removed"] = true
		}
		out = append(out, entry)
	}
	resp := map[string]any{"kind": "drive#changeList", "changes": out}
	if i < len(s.changes) {
		resp["nextPageToken"] = strconv.Itoa(i + 1)
	} else {
		resp["newStartPageToken"] = strconv.Itoa(len(s.changes) + 1)
	}
	if out == nil {
		resp["changes"] = []any{}
	}
	writeJSON(w, resp)
}

// handleToken grants an access token for a JWT-bearer assertion signed
// with the service account's key (RFC 7523), as Google's token endpoint
// does.
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.calls["token"]++
	s.mu.Unlock()
	if s.key == nil {
		http.Error(w, "no auth", http.StatusNotFound)
		return
	}
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
		writeTokenError(w, "unsupported_grant_type")
		return
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(r.PostForm.Get("assertion"), claims, func(*jwt.Token) (any, error) { return &s.key.PublicKey, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(s.URL+"/token"), jwt.WithExpirationRequired())
	if err != nil || claims["iss"] != "cew-sync@cew-test.iam.gserviceaccount.com" || !strings.Contains(fmt.Sprint(claims["scope"]), "drive") {
		writeTokenError(w, "invalid_grant")
		return
	}
	s.mu.Lock()
	s.tokens++
	s.mu.Unlock()
	writeJSON(w, map[string]any{"access_token": s.token, "token_type": "Bearer", "expires_in": 3600})
}

func writeTokenError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}
