package slack

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsBotOnly enforces the dependency rule: the adapter knows the
// bot and nothing behind it (pipeline, store, cache and their packages).
func TestImportsBotOnly(t *testing.T) {
	const module = "github.com/cewhq/cew/"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, module) && path != module+"bot" {
				t.Errorf("%s imports %s; adapters may import %sbot only", file, path, module)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no source files checked")
	}
}
