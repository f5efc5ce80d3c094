package ingest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// IgnoreFileName is the file, in a folder given to cew ingest or any folder
// below it, whose gitignore-syntax patterns name files not to index. As in
// git, a file's patterns apply to its folder and below, later patterns win,
// and "!name" indexes a file the earlier patterns (or the default list of
// stray files) would skip.
const IgnoreFileName = ".cewignore"

// strayNames are files that travel with a corpus but are not project
// documents: licences, read-mes, provenance notes, change logs. Without a
// register they are skipped when a folder is ingested. A name counts when
// its stem (the name less its extension) is the word, or, for the words
// that allow it, starts with the word and ".", "_" or "-" (LICENSE.MIT,
// README_first); "Notice to proceed.pdf" and "Changes_to_layout.pdf" are
// documents.
var strayNames = []struct {
	word     string
	prefixed bool
}{
	{"readme", true}, {"license", true}, {"licence", true}, {"copying", true}, {"provenance", true},
	{"changelog", true}, {"thirdpartynotices", true}, {"third-party-notices", true}, {"third_party_notices", true},
	{"notice", false}, {"changes", false}, {"authors", false}, {"contributors", false}, {"contributing", false},
	{"code_of_conduct", false},
}

// isStrayName reports whether a file name is on the default skip list.
func isStrayName(name string) bool {
	name = strings.ToLower(name)
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	for _, s := range strayNames {
		if stem == s.word || name == s.word {
			return true
		}
		if s.prefixed && strings.HasPrefix(name, s.word) && len(name) > len(s.word) && strings.ContainsRune("._-", rune(name[len(s.word)])) {
			return true
		}
	}
	return false
}

// ignoreRules are the .cewignore patterns met so far in one folder walk,
// each with the folder it came from (its domain).
type ignoreRules struct {
	root     string
	patterns []gitignore.Pattern
	sources  []string // the .cewignore each pattern came from, for messages
}

// load reads dir's .cewignore, if any. A file that cannot be read fails
// the folder: skipping its patterns would index what the user excluded.
func (r *ignoreRules) load(dir string) error {
	path := filepath.Join(dir, IgnoreFileName)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	domain := r.components(dir)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r.patterns = append(r.patterns, gitignore.ParsePattern(line, domain))
		r.sources = append(r.sources, path)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	return nil
}

// components splits path, relative to the walk's root, into its folder
// names as gitignore patterns match them.
func (r *ignoreRules) components(path string) []string {
	rel, err := filepath.Rel(r.root, path)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}

// match applies the patterns to path, the last matching one deciding as in
// git: it returns Exclude or Include with the .cewignore that said so, or
// NoMatch.
func (r *ignoreRules) match(path string, isDir bool) (gitignore.MatchResult, string) {
	parts := r.components(path)
	for i := len(r.patterns) - 1; i >= 0; i-- {
		if m := r.patterns[i].Match(parts, isDir); m != gitignore.NoMatch {
			return m, r.sources[i]
		}
	}
	return gitignore.NoMatch, ""
}
