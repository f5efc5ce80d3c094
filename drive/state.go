package drive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cewhq/cew/ingest"
)

// stateVersion is the layout of a state file; another version starts a
// full listing again (indexing stays idempotent).
const stateVersion = 1

// state is what one synced root remembers between syncs, in
// <dir>/<tenant>/<root id>.json: the Changes feed position, the folder
// tree, and per file what was last indexed from it. It is written after
// every batch, so a sync cut short resumes from the last batch instead of
// starting over, and files already indexed are not downloaded again.
type state struct {
	Version int    `json:"version"`
	Tenant  string `json:"tenant"`
	Root    string `json:"root"`
	Name    string `json:"name"`
	// DriveID scopes the Changes feed to the shared drive the root is in.
	DriveID string `json:"drive_id,omitempty"`
	// PageToken is the Changes feed position every change before which is
	// applied; "" until the first full listing completes.
	PageToken string `json:"page_token,omitempty"`
	// Listing is the feed position taken before a full listing that has
	// not finished; the next sync lists again and resumes from it.
	Listing string                 `json:"listing,omitempty"`
	Folders map[string]folderState `json:"folders"`
	Files   map[string]*fileState  `json:"files"`
	// Retry holds files whose last attempt failed for a reason that may
	// pass (network, rate limit); each sync tries them again.
	Retry map[string]string `json:"retry,omitempty"`
	// Register is the root's register file, when it has one.
	Register *registerState `json:"register,omitempty"`
}

// folderState is one folder of the tree below the root (the root
// included, with no parent).
type folderState struct {
	Name   string `json:"name"`
	Parent string `json:"parent,omitempty"`
}

// fileState is what the last sync did with one Drive file.
type fileState struct {
	Name     string `json:"name"`
	Parent   string `json:"parent"`
	MimeType string `json:"mime_type"`
	// Key identifies the content: Drive's MD5 checksum, or for Google
	// Docs and Sheets (which have none) their modifiedTime.
	Key          string `json:"key"`
	Version      int64  `json:"version,omitempty"`
	ModifiedTime string `json:"modified_time"`
	Link         string `json:"link"`
	// Entry is the identity the file was indexed under.
	Entry ingest.RegisterEntry `json:"entry"`
	// Outcome is the ingest outcome ("indexed", "unchanged", "failed",
	// "ignored") or "skipped" for a type cew does not read.
	Outcome string `json:"outcome"`
	Err     string `json:"error,omitempty"`
	// Conflict is the document and revision another live file holds,
	// when this one failed as a duplicate of it; it is tried again once
	// that file is gone.
	Conflict string `json:"conflict,omitempty"`
	// Revisions are the document revisions this file has supplied, most
	// recent last; they are withdrawn when the file leaves Drive.
	Revisions []docRevision `json:"revisions,omitempty"`
}

// docRevision names one indexed document revision.
type docRevision struct {
	DocID    string `json:"doc_id"`
	Revision string `json:"revision"`
}

func (r docRevision) key() string { return r.DocID + "\x00" + r.Revision }

// current is the revision the file supplies now, if any.
func (f *fileState) current() (docRevision, bool) {
	if f == nil || len(f.Revisions) == 0 || (f.Outcome != string(ingest.Indexed) && f.Outcome != string(ingest.Unchanged)) {
		return docRevision{}, false
	}
	return f.Revisions[len(f.Revisions)-1], true
}

// registerState is the root's register file and what it lists.
type registerState struct {
	FileID  string                 `json:"file_id"`
	Key     string                 `json:"key"`
	Entries []ingest.RegisterEntry `json:"entries"`
	Err     string                 `json:"error,omitempty"`
}

func newState(tenant, root string) *state {
	return &state{Version: stateVersion, Tenant: tenant, Root: root,
		Folders: map[string]folderState{}, Files: map[string]*fileState{}, Retry: map[string]string{}}
}

// statePath is where a root's state lives.
func statePath(dir, tenant, root string) string {
	return filepath.Join(dir, tenant, root+".json")
}

// loadState reads a root's state; a missing file, or one of another
// layout, is a fresh state.
func loadState(dir, tenant, root string) (*state, error) {
	data, err := os.ReadFile(statePath(dir, tenant, root))
	if errors.Is(err, fs.ErrNotExist) {
		return newState(tenant, root), nil
	}
	if err != nil {
		return nil, fmt.Errorf("drive: read sync state: %w", err)
	}
	st := newState(tenant, root)
	if err := json.Unmarshal(data, st); err != nil || st.Version != stateVersion || st.Root != root || st.Tenant != tenant {
		// A damaged or foreign state costs a full listing, nothing more:
		// files whose content is indexed already are found unchanged.
		return newState(tenant, root), nil
	}
	if st.Folders == nil {
		st.Folders = map[string]folderState{}
	}
	if st.Files == nil {
		st.Files = map[string]*fileState{}
	}
	if st.Retry == nil {
		st.Retry = map[string]string{}
	}
	return st, nil
}

// save writes the state atomically (a temporary file renamed over it), so
// a crash leaves the previous state or the new one, never half of one.
func (st *state) save(dir string) error {
	p := statePath(dir, st.Tenant, st.Root)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".state-*")
	if err != nil {
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("drive: save sync state: %w", err)
	}
	return nil
}

// inTree reports whether a folder is the root or below it.
func (st *state) inTree(folder string) bool {
	_, ok := st.Folders[folder]
	return ok
}

// path is a file's slash-separated path relative to the root.
func (st *state) path(parent, name string) string {
	p := name
	for i := 0; i < 1000 && parent != st.Root; i++ {
		f, ok := st.Folders[parent]
		if !ok {
			break
		}
		p = f.Name + "/" + p
		parent = f.Parent
	}
	return p
}

// dropFolder removes a folder and every folder below it from the tree.
func (st *state) dropFolder(id string) {
	delete(st.Folders, id)
	for changed := true; changed; {
		changed = false
		for fid, f := range st.Folders {
			if fid != st.Root && !st.inTree(f.Parent) {
				delete(st.Folders, fid)
				changed = true
			}
		}
	}
}
