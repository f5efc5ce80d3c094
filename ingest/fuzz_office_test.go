package ingest

import (
	"archive/zip"
	"context"
	"io"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/cewhq/cew/ingest/ingesttest"
)

// fuzzLimits keep a fuzzed file small enough that each run is quick.
func fuzzContext() context.Context {
	lim := LimitsFor(4)
	lim.MaxPages = 10
	return withBudget(context.Background(), lim)
}

// checkParsed holds whatever any parser returns: text, valid UTF-8, within
// the limits, and pages and rows that are never negative.
func checkParsed(t *testing.T, p Parsed, lim Limits) {
	t.Helper()
	var total int64
	for _, b := range p.Blocks {
		if b.Text == "" || !utf8.ValidString(b.Text) || b.Page < 0 || b.Row < 0 {
			t.Fatalf("bad block %+v", b)
		}
		total += int64(len(b.Text))
	}
	if total > lim.MaxText || len(p.Blocks) > lim.MaxBlocks {
		t.Fatalf("%d bytes in %d blocks, past the limits", total, len(p.Blocks))
	}
}

// mainPart returns a package's part, for seeding the fuzzers with real
// documents.
func mainPart(t testing.TB, file, name string) string {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return ""
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				return ""
			}
			defer rc.Close()
			b, _ := io.ReadAll(io.LimitReader(rc, 1<<20))
			return string(b)
		}
	}
	return ""
}

// FuzzParseDOCX feeds the DOCX reader any main part: never a panic, and
// what it returns holds to checkParsed. Each run writes a package, so keep
// minimisation short: go test -fuzz FuzzParseDOCX -fuzzminimizetime 3s.
func FuzzParseDOCX(f *testing.F) {
	for _, seed := range []string{
		mainPart(f, "testdata/docx/headings.docx", "word/document.xml"),
		mainPart(f, "testdata/docx/localised.docx", "word/document.xml"),
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`,
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t><w:br w:type="page"/><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:sectPr><w:type w:val="nextPage"/></w:sectPr></w:body></w:document>`,
		`<w:document xmlns:w="x"><w:body><w:p>`,
	} {
		if seed != "" {
			f.Add(seed)
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		path := filepath.Join(t.TempDir(), "f.docx")
		if err := ingesttest.DOCX(path, body); err != nil {
			t.Fatal(err)
		}
		ctx := fuzzContext()
		p, err := parseDOCX(ctx, path)
		if err != nil {
			return
		}
		checkParsed(t, p, budgetFrom(ctx).lim)
	})
}

// FuzzParseXLSX feeds the XLSX reader any sheet and shared strings: never
// a panic, rows in order, and what it returns holds to checkParsed.
func FuzzParseXLSX(f *testing.F) {
	merged := mainPart(f, "testdata/sheet/merged.xlsx", "xl/worksheets/sheet1.xml")
	if merged != "" {
		f.Add(merged, mainPart(f, "testdata/sheet/merged.xlsx", "xl/sharedStrings.xml"))
	}
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	for _, seed := range [][2]string{
		{`<worksheet ` + ns + `><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Depth</t></is></c><c r="B1" t="inlineStr"><is><t>Cable</t></is></c></row><row r="2"><c r="A2"><v>800</v></c><c r="B2" t="s"><v>0</v></c></row></sheetData><mergeCells><mergeCell ref="A1:B1"/></mergeCells></worksheet>`,
			`<sst ` + ns + `><si><t>DC</t></si></sst>`},
		{`<worksheet ` + ns + `><sheetData><row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>`, ""},
		{`<worksheet ` + ns + `><sheetData/></worksheet>`, ""},
		{`<worksheet ` + ns + `><sheetData><row><c t="s"><v>99</v></c></row>`, `<sst ` + ns + `><si><t>`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, sheet, shared string) {
		path := filepath.Join(t.TempDir(), "f.xlsx")
		if err := ingesttest.XLSX(path, sheet, shared); err != nil {
			t.Fatal(err)
		}
		ctx := fuzzContext()
		p, err := parseXLSX(ctx, path)
		if err != nil {
			return
		}
		checkParsed(t, p, budgetFrom(ctx).lim)
		prev := 0
		for _, b := range p.Blocks {
			if b.Row <= prev {
				t.Fatalf("row %d after row %d", b.Row, prev)
			}
			prev = b.Row
		}
	})
}
