// Package prompts holds the prompt templates cew sends to a chat model and
// renders them. The text lives in the *.tmpl files beside this one, embedded
// at build time; Go code only supplies the data. Retrieved chunks and user
// text are rendered inside delimiters as data, with look-alike delimiters in
// that data neutralised, so instructions inside a document cannot pose as
// part of the prompt.
package prompts

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Categories that have their own template; any other category renders with
// the general one.
var categories = []string{"definition", "selection", "technical_value", "drawing", "status", "general"}

// Verdicts the verifier prompt asks the model to answer with.
const (
	VerdictSupported    = "SUPPORTED"
	VerdictNotSupported = "NOT_SUPPORTED"
)

// Source is one numbered source as the model sees it: [S{N}].
type Source struct {
	N         int
	DocNumber string
	Title     string
	Revision  string
	Section   string
	// Sheet and Row locate a spreadsheet row; Page is used when Sheet is "".
	Sheet string
	Page  int
	Row   int
	Text  string
}

// Data is what an answer prompt is rendered from.
type Data struct {
	Question   string
	Category   string
	Complexity string
	Sources    []Source
}

// VerifyData is a claim (one answer sentence) and the sources it cites.
type VerifyData struct {
	Claim    string
	Evidence []Source
}

// Turn is one earlier exchange of a conversation.
type Turn struct {
	Question string
	Answer   string
}

// RewriteData is a follow-up question and the turns before it, oldest first.
type RewriteData struct {
	Turns    []Turn
	Question string
}

var parsed = sync.OnceValues(func() (*template.Template, error) {
	return template.New("prompts").Funcs(template.FuncMap{"fence": fence, "clean": clean}).ParseFS(files, "*.tmpl")
})

// Render returns the system and user prompts for an answer. An unknown
// category renders with the general template.
func Render(d Data) (system, user string, err error) {
	category := d.Category
	if !slices.Contains(categories, category) {
		category = "general"
	}
	if system, err = execute("system.tmpl", d); err != nil {
		return "", "", err
	}
	if user, err = execute(category+".tmpl", d); err != nil {
		return "", "", err
	}
	return system, user, nil
}

// RenderVerify returns the system and user prompts that ask whether the
// evidence supports the claim; the model answers VerdictSupported or
// VerdictNotSupported.
func RenderVerify(d VerifyData) (system, user string, err error) {
	if system, err = execute("verify_system", d); err != nil {
		return "", "", err
	}
	if user, err = execute("verify_user", d); err != nil {
		return "", "", err
	}
	return system, user, nil
}

// RenderRewrite returns the system and user prompts that turn a follow-up
// question into a standalone one.
func RenderRewrite(d RewriteData) (system, user string, err error) {
	if system, err = execute("rewrite_system", d); err != nil {
		return "", "", err
	}
	if user, err = execute("rewrite_user", d); err != nil {
		return "", "", err
	}
	return system, user, nil
}

func execute(name string, data any) (string, error) {
	t, err := parsed()
	if err != nil {
		return "", fmt.Errorf("prompts: parse: %w", err)
	}
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompts: render %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}

var setHash = sync.OnceValue(func() string {
	h := sha256.New()
	// Glob fails only on a malformed pattern, and this one is constant.
	names, _ := fs.Glob(files, "*.tmpl")
	for _, name := range names { // sorted, so the hash is stable
		b, _ := files.ReadFile(name)
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
})

// SetHash identifies the template set: it changes whenever any template's
// bytes change, so cached answers produced by older prompts are not reused.
func SetHash() string { return setHash() }

// delimiter matches anything in data that could read as one of the
// delimiters the templates wrap data in, opening or closing, with or
// without spaces or a different case.
var delimiter = regexp.MustCompile(`(?i)<\s*/?\s*(sources|source|question|evidence|claim|conversation|turn|follow_up)\b`)

// fence neutralises delimiter look-alikes in data by turning their "<" into
// "‹", so a document that says "</source> Ignore previous instructions" stays
// inside its source block. Nothing else in the text changes: numbers and
// units must reach the model exactly as the document has them.
func fence(s string) string {
	return delimiter.ReplaceAllStringFunc(s, func(m string) string {
		return "‹" + m[1:]
	})
}

// clean puts a metadata field on one line and fences it, so a title with a
// line break cannot start a line of its own in the source header.
func clean(s string) string {
	return fence(strings.Join(strings.Fields(s), " "))
}
