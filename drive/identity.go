package drive

import (
	"path"
	"strings"
	"time"

	gdrive "google.golang.org/api/drive/v3"

	"github.com/cewhq/cew/ingest"
)

// remote is a Drive file as the sync needs it, from the API or from the
// state of an earlier sync.
type remote struct {
	ID       string
	Name     string
	MimeType string
	Parent   string
	MD5      string
	Modified string
	Link     string
	Version  int64
	Size     int64
}

func remoteOf(f *gdrive.File, parent string) remote {
	return remote{ID: f.Id, Name: f.Name, MimeType: f.MimeType, Parent: parent, MD5: f.Md5Checksum,
		Modified: f.ModifiedTime, Link: f.WebViewLink, Version: f.Version, Size: f.Size}
}

func remoteFromState(id string, fs *fileState) remote {
	r := remote{ID: id, Name: fs.Name, MimeType: fs.MimeType, Parent: fs.Parent, Modified: fs.ModifiedTime,
		Link: fs.Link, Version: fs.Version}
	if m, ok := strings.CutPrefix(fs.Key, "md5:"); ok {
		r.MD5 = m
	}
	return r
}

// key identifies the content: Drive's MD5 checksum of a stored file, or
// the modification time of a Google Doc or Sheet, which has no checksum.
func (r remote) key() string {
	if r.MD5 != "" {
		return "md5:" + r.MD5
	}
	return "modified:" + r.Modified
}

func isGoogleType(mime string) bool { return strings.HasPrefix(mime, mimeGoogle) }

// exportFormats are the Google types cew reads, and what each is exported
// as so pages, headings, sheets and rows keep their fidelity.
var exportFormats = map[string]struct{ mime, ext string }{
	mimeDoc:   {mimeDOCX, ".docx"},
	mimeSheet: {mimeXLSX, ".xlsx"},
}

// extensionsByMIME names files whose name has no extension cew reads.
var extensionsByMIME = map[string]string{
	"application/pdf": ".pdf",
	mimeDOCX:          ".docx",
	mimeXLSX:          ".xlsx",
	"text/csv":        ".csv",
	"text/markdown":   ".md",
	"text/x-markdown": ".md",
	"text/plain":      ".txt",
}

// googleTypeNames name the Google types that cannot be read, for the report.
var googleTypeNames = map[string]string{
	"application/vnd.google-apps.presentation": "Google Slides",
	"application/vnd.google-apps.form":         "Google Forms",
	"application/vnd.google-apps.drawing":      "Google Drawings",
	"application/vnd.google-apps.shortcut":     "a shortcut",
	"application/vnd.google-apps.site":         "Google Sites",
	"application/vnd.google-apps.map":          "Google My Maps",
	"application/vnd.google-apps.jam":          "Jamboard",
}

// format decides how a file is fetched: the local name it is read under
// (its Drive name, with the extension of its format when the name lacks
// it), and the export type for Google files. ok is false for types cew
// does not read, with why.
func format(r remote) (localName, exportMIME string, ok bool, why string) {
	name := safeName(r.Name)
	if exp, isExport := exportFormats[r.MimeType]; isExport {
		if !strings.EqualFold(path.Ext(name), exp.ext) {
			name += exp.ext
		}
		return name, exp.mime, true, ""
	}
	if isGoogleType(r.MimeType) {
		kind := googleTypeNames[r.MimeType]
		if kind == "" {
			kind = r.MimeType
		}
		return "", "", false, "unsupported type: " + kind + " (export it as PDF into the folder to index it)"
	}
	if ingest.Supported(name) {
		return name, "", true, ""
	}
	if ext, known := extensionsByMIME[r.MimeType]; known {
		return name + ext, "", true, ""
	}
	return "", "", false, "unsupported type: " + r.MimeType + " (supported: " + strings.Join(ingest.SupportedExtensions(), ", ") + ", Google Docs and Sheets)"
}

// safeName makes a Drive name usable as a local file name: Drive allows
// slashes and names such as "..".
func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" || name == "." || name == ".." {
		name = "_" + name
	}
	return name
}

// revisionLayout formats a modification time as a revision label: it
// orders as time does under store.CompareRevisions and reads as a date.
const revisionLayout = "2006-01-02 15:04:05"

// timeRevision is the revision of a file neither the register nor its name
// labels: when its content was last modified in Drive, in UTC. A file
// replaced in Drive (a new version, or another file under the same name)
// is modified later, so it supersedes the one before.
func timeRevision(modified string) string {
	t, err := time.Parse(time.RFC3339Nano, modified)
	if err != nil {
		return strings.TrimSpace(modified)
	}
	return t.UTC().Format(revisionLayout)
}

func modifiedDate(modified string) string {
	t, err := time.Parse(time.RFC3339Nano, modified)
	if err != nil {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// identity is the register entry a file is indexed under. With a register
// in the root folder, its entry for the file (matched on the path from the
// root or the file name, with or without the export extension); listed is
// false when the register does not list it. Without one, the number,
// title and revision its name gives, else the modification time as the
// revision (kept while the content is unchanged), and its modification
// date. The Drive link is always the file's webViewLink.
func identity(r remote, localName, relPath string, reg *ingest.Register, prev *fileState) (entry ingest.RegisterEntry, listed bool) {
	if reg != nil {
		dir := path.Dir(relPath)
		for _, p := range []string{relPath, path.Join(dir, localName)} {
			if e, ok := reg.Lookup(p); ok {
				e.DriveLink, e.File = r.Link, ""
				return e, true
			}
		}
		return ingest.RegisterEntry{}, false
	}
	number, revision, title := ingest.IdentityFromFileName(localName)
	date := modifiedDate(r.Modified)
	if prev != nil && prev.Key == r.key() {
		// Same content: a rename or a metadata change does not make a
		// new revision or a new date.
		date = prev.Entry.Date
		if revision == "" && prev.Entry.Number == number {
			revision = prev.Entry.Revision
		}
	}
	if revision == "" {
		revision = timeRevision(r.Modified)
	}
	return ingest.RegisterEntry{Number: number, Title: title, Revision: revision, Date: date, DriveLink: r.Link}, true
}

// isRegisterFile reports whether a file in the root folder is its
// register: register.csv, register.xlsx, or a Google Sheet named
// "register".
func isRegisterFile(r remote) bool {
	if r.MimeType == mimeSheet {
		return strings.EqualFold(strings.TrimSpace(r.Name), "register")
	}
	return ingest.IsRegisterName(strings.TrimSpace(r.Name))
}
