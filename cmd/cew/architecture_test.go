package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/cewhq/cew/"

// TestDependencyRule enforces DESIGN.md's dependency rule on non-test code:
// adapters know the bot, the answer contract and their shared plumbing only;
// pipeline never imports bot or adapters; concrete backends are chosen in
// cmd/cew alone.
func TestDependencyRule(t *testing.T) {
	rules := []struct {
		name      string
		from      string // package path prefix the rule applies to
		forbidden []string
	}{
		{"adapters know bot only", "adapters/", []string{"pipeline", "store", "cache", "ingest"}},
		{"pipeline never imports bot or adapters", "pipeline", []string{"bot", "adapters", "cache"}},
		{"store is below everything", "store", []string{"pipeline", "bot", "adapters", "cache", "ingest"}},
		{"bot never picks backends", "bot", []string{"store/embedded", "cache/redis", "cache/memory", "adapters"}},
		{"ingest never picks backends", "ingest", []string{"store/embedded", "pipeline", "bot", "adapters"}},
		{"the outbox contract is below the adapters", "outbox", []string{"pipeline", "bot", "adapters", "cache", "store", "ingest"}},
		{"the Drive source ingests through interfaces", "drive", []string{"store/embedded", "store/milvus", "pipeline", "bot", "adapters", "cache"}},
		{"the answer contract is below everything", "answer", []string{"pipeline", "bot", "adapters", "cache", "store", "ingest", "prompts"}},
	}
	imports := moduleImports(t)
	if len(imports) == 0 {
		t.Fatal("no packages found")
	}
	t.Run("adapters import bot, answer, outbox and adapters/internal only", func(t *testing.T) {
		for pkg, deps := range imports {
			if !strings.HasPrefix(pkg, "adapters/") {
				continue
			}
			for _, dep := range deps {
				if dep != "bot" && dep != "answer" && dep != "outbox" && !strings.HasPrefix(dep, "adapters/internal/") {
					t.Errorf("%s imports %s", pkg, dep)
				}
			}
		}
	})
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			for pkg, deps := range imports {
				if !strings.HasPrefix(pkg, r.from) {
					continue
				}
				for _, dep := range deps {
					for _, f := range r.forbidden {
						if dep == f || strings.HasPrefix(dep, f+"/") {
							t.Errorf("%s imports %s", pkg, dep)
						}
					}
				}
			}
		})
	}
}

// moduleImports maps each package directory (relative to the module root)
// to the module packages its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "examples") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) {
				out[rel] = append(out[rel], strings.TrimPrefix(p, module))
			}
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
