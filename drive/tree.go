package drive

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"

	gdrive "google.golang.org/api/drive/v3"
	"google.golang.org/api/googleapi"
)

// full lists the whole tree. The Changes feed position is taken first, so
// whatever changes during the listing is read again next time.
func (r *run) full(ctx context.Context) error {
	c, st := r.s.opts.Client, r.st
	root, err := c.Root(ctx, st.Root)
	if err != nil {
		return err
	}
	st.Name, st.DriveID = root.Name, root.DriveID
	if st.Listing == "" {
		if st.Listing, err = c.StartPageToken(ctx, st.DriveID); err != nil {
			return err
		}
		if err := st.save(r.s.opts.Dir); err != nil {
			return err
		}
	}
	st.Folders = map[string]folderState{st.Root: {Name: root.Name}}
	if err := r.list(ctx, st.Root); err != nil {
		return err
	}
	// Whatever the state knows that the listing did not find has left.
	for id := range st.Files {
		if _, ok := r.cands[id]; !ok {
			r.gone[id] = "no longer in the synced folder (deleted, moved out, or no longer shared)"
		}
	}
	if st.Register != nil {
		if _, ok := r.cands[st.Register.FileID]; !ok {
			r.gone[st.Register.FileID] = "removed"
		}
	}
	if err := r.process(ctx); err != nil {
		return err
	}
	st.PageToken, st.Listing = st.Listing, ""
	return st.save(r.s.opts.Dir)
}

// list adds a folder's subtree to the state's folders and its files to the
// candidates.
func (r *run) list(ctx context.Context, folder string) error {
	queue := []string{folder}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		err := r.s.opts.Client.Children(ctx, id, r.st.DriveID, func(f *gdrive.File) error {
			if f.MimeType == mimeFolder {
				if !r.st.inTree(f.Id) {
					queue = append(queue, f.Id)
				}
				r.st.Folders[f.Id] = folderState{Name: f.Name, Parent: id}
				return nil
			}
			r.cands[f.Id] = remoteOf(f, id)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// incremental applies the Changes feed since the last sync.
func (r *run) incremental(ctx context.Context) error {
	c, st := r.s.opts.Client, r.st
	var changes []*gdrive.Change
	next, err := c.Changes(ctx, st.PageToken, st.DriveID, func(ch *gdrive.Change) error {
		if ch.ChangeType == "" || ch.ChangeType == "file" {
			changes = append(changes, ch)
		}
		return nil
	})
	if expiredPosition(err) {
		// Drive no longer knows the stored position: list the folder
		// again (files already indexed are found unchanged).
		st.PageToken = ""
		if serr := st.save(r.s.opts.Dir); serr != nil {
			return serr
		}
		return fmt.Errorf("drive: the Changes feed position expired; the next sync lists the folder again: %w", err)
	}
	if err != nil {
		return err
	}
	for _, ch := range changes {
		if ch.FileId != st.Root {
			continue
		}
		if ch.Removed || ch.File == nil || ch.File.Trashed {
			return r.rootGone(ctx, ch)
		}
		st.Name = ch.File.Name
	}
	added := r.applyFolders(changes)
	for _, id := range added {
		if err := r.list(ctx, id); err != nil {
			return err
		}
	}
	for _, ch := range changes {
		f := ch.File
		if ch.FileId == st.Root || (f != nil && f.MimeType == mimeFolder) || st.inTree(ch.FileId) {
			continue
		}
		_, known := st.Files[ch.FileId]
		known = known || (st.Register != nil && st.Register.FileID == ch.FileId)
		switch parent := r.parentInTree(f); {
		case ch.Removed || f == nil:
			if known {
				r.gone[ch.FileId] = "deleted from Drive or no longer shared"
			}
		case f.Trashed:
			if known {
				r.gone[ch.FileId] = "trashed in Drive"
			}
		case parent == "":
			if known {
				r.gone[ch.FileId] = "moved out of the synced folder"
			}
		default:
			r.cands[ch.FileId] = remoteOf(f, parent)
			delete(r.gone, ch.FileId)
		}
	}
	// Files of folders that left the tree leave with them.
	for id, fs := range st.Files {
		if _, cand := r.cands[id]; !cand && !st.inTree(fs.Parent) {
			if _, g := r.gone[id]; !g {
				r.gone[id] = "its folder was trashed, deleted or moved out of the synced folder"
			}
		}
	}
	if err := r.retries(ctx); err != nil {
		return err
	}
	if err := r.process(ctx); err != nil {
		return err
	}
	st.PageToken = next
	return st.save(r.s.opts.Dir)
}

// expiredPosition reports Drive refusing a stored page token.
func expiredPosition(err error) bool {
	var ge *googleapi.Error
	return errors.As(err, &ge) && (ge.Code == http.StatusGone || ge.Code == http.StatusNotFound ||
		(ge.Code == http.StatusBadRequest && strings.Contains(strings.ToLower(ge.Message), "pagetoken")))
}

// rootGone withdraws everything when the synced folder itself is trashed
// or deleted, and forgets the state: the next sync starts over (and fails
// until the folder is back).
func (r *run) rootGone(ctx context.Context, ch *gdrive.Change) error {
	why := "the synced folder was deleted or is no longer shared"
	if ch.File != nil && ch.File.Trashed {
		why = "the synced folder was trashed"
	}
	for id := range r.st.Files {
		r.gone[id] = why
	}
	if err := r.withdrawGone(ctx); err != nil {
		return err
	}
	fresh := newState(r.st.Tenant, r.st.Root)
	fresh.Name = r.st.Name
	*r.st = *fresh
	return r.st.save(r.s.opts.Dir)
}

// parentInTree is the first of a file's parents that is in the synced
// tree, or "".
func (r *run) parentInTree(f *gdrive.File) string {
	if f == nil {
		return ""
	}
	for _, p := range f.Parents {
		if r.st.inTree(p) {
			return p
		}
	}
	return ""
}

// applyFolders applies folder changes to the tree until it settles (a
// folder may come before its new parent in the feed) and returns the
// folders that joined it, whose contents must be listed: a folder moved
// in brings files the feed does not mention.
func (r *run) applyFolders(changes []*gdrive.Change) []string {
	st := r.st
	joined := map[string]bool{}
	for pass := 0; pass <= len(changes); pass++ {
		moved := false
		for _, ch := range changes {
			f := ch.File
			if ch.FileId == st.Root {
				continue
			}
			isFolder := (f != nil && f.MimeType == mimeFolder) || (f == nil && st.inTree(ch.FileId))
			if !isFolder {
				continue
			}
			parent := r.parentInTree(f)
			in := !ch.Removed && f != nil && !f.Trashed && parent != ""
			switch {
			case in && !st.inTree(ch.FileId):
				st.Folders[ch.FileId] = folderState{Name: f.Name, Parent: parent}
				joined[ch.FileId], moved = true, true
			case in:
				cur := st.Folders[ch.FileId]
				if cur.Name != f.Name || cur.Parent != parent {
					st.Folders[ch.FileId] = folderState{Name: f.Name, Parent: parent}
					moved = true
				}
			case st.inTree(ch.FileId):
				st.dropFolder(ch.FileId)
				delete(joined, ch.FileId)
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	out := make([]string, 0, len(joined))
	for id := range joined {
		if st.inTree(id) && !joined[st.Folders[id].Parent] {
			out = append(out, id) // listing it lists the joined folders below
		}
	}
	sort.Strings(out)
	return out
}

// retries looks again at files whose last download failed for a passing
// reason, and at duplicates whose rival file has gone.
func (r *run) retries(ctx context.Context) error {
	st := r.st
	ids := slices.Sorted(maps.Keys(st.Retry))
	for _, id := range ids {
		if _, ok := r.cands[id]; ok {
			continue
		}
		if _, ok := r.gone[id]; ok {
			continue
		}
		f, err := r.s.opts.Client.File(ctx, id)
		switch {
		case errors.Is(err, ErrNotFound):
			delete(st.Retry, id)
			if _, known := st.Files[id]; known {
				r.gone[id] = "deleted from Drive or no longer shared"
			}
			continue
		case err != nil:
			return err
		}
		parent := r.parentInTree(f)
		if f.Trashed || parent == "" {
			delete(st.Retry, id)
			if _, known := st.Files[id]; known {
				r.gone[id] = "trashed in Drive or moved out of the synced folder"
			}
			continue
		}
		r.cands[id] = remoteOf(f, parent)
	}
	for id, fs := range st.Files {
		if fs.Conflict == "" {
			continue
		}
		if _, ok := r.cands[id]; ok {
			continue
		}
		if _, ok := r.gone[id]; !ok && !r.live(fs.Conflict) {
			r.cands[id] = remoteFromState(id, fs)
		}
	}
	return nil
}

// live reports whether the file a revision was indexed from still exists:
// a Drive file this sync or another root's knows and is not removing, or a
// local file on disk.
func (r *run) live(source string) bool {
	id, ok := strings.CutPrefix(source, sourcePrefix)
	if !ok {
		_, err := os.Stat(source)
		return !errors.Is(err, os.ErrNotExist)
	}
	if _, g := r.gone[id]; g {
		return false
	}
	_, known := r.st.Files[id]
	_, cand := r.cands[id]
	return known || cand || r.others[id]
}
