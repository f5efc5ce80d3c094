package ingest

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseDOCXFixtures(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		want      []Block
		wantPages int
		wantErr   error
	}{
		{
			name: "title, headings, tab, page break, table with vertical merge, section break",
			file: "testdata/docx/headings.docx",
			want: []Block{
				{Page: 1, Section: "Trench Design Specification", Text: "Trench Design Specification\nIssued for construction. This paragraph sits under the title."},
				{Page: 1, Section: "1 General", Text: "1 General\nThe contractor shall excavate cable trenches to the depths given in Table 1. Tolerance applies."},
				{Page: 1, Section: "1.1 Scope", Text: "1.1 Scope\nWorks cover DC and AC cable trenches.\nText before the break."},
				{Page: 2, Section: "1.1 Scope", Text: "Text after the break."},
				{Page: 2, Section: "2 Trench dimensions", Text: "2 Trench dimensions\nCable | Depth (mm) | Width (mm)\nDC string | 800 | 400\nAC LV | 1000 | 600\nAC LV | 1100\nBackfill with sand."},
				{Page: 3, Section: "3 Testing", Text: "3 Testing\nInsulation resistance shall be tested."},
			},
			wantPages: 3,
		},
		{
			name: "localised style ids, rendered page breaks",
			file: "testdata/docx/localised.docx",
			want: []Block{
				{Page: 1, Section: "Allgemeines", Text: "Allgemeines\nSeite eins.\nVor dem Umbruch."},
				{Page: 2, Section: "Allgemeines", Text: "Seite zwei."},
				{Page: 2, Section: "Kabelgraben", Text: "Kabelgraben\nNoch Seite zwei"},
				{Page: 3, Section: "Kabelgraben", Text: "Seite drei."},
			},
			wantPages: 3,
		},
		{name: "encrypted", file: "testdata/docx/encrypted.docx", wantErr: ErrEncrypted},
		{name: "not a zip", file: "testdata/docx/notzip.docx", wantErr: ErrCorrupt},
		{name: "zip without document.xml", file: "testdata/docx/nodocument.docx", wantErr: ErrCorrupt},
		{name: "xlsx under a docx name", file: "testdata/sheet/merged.xlsx", wantErr: ErrCorrupt},
		{name: "missing", file: "testdata/docx/absent.docx", wantErr: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseDOCX(context.Background(), tt.file)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), filepath.Base(tt.file)) {
					t.Fatalf("error = %v, want %v naming the file", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Blocks, tt.want) {
				t.Errorf("blocks =\n%s\nwant\n%s", dumpBlocks(p.Blocks), dumpBlocks(tt.want))
			}
			if p.Pages != tt.wantPages || p.Rows != 0 {
				t.Errorf("Pages, Rows = %d, %d; want %d, 0", p.Pages, p.Rows, tt.wantPages)
			}
		})
	}
}

// writeDOCX builds a minimal package from document and styles XML bodies
// (styles may be empty) and returns its path.
func writeDOCX(t *testing.T, parts map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.docx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

const wDecl = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

func wordDocument(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wDecl + `><w:body>` + body + `</w:body></w:document>`
}

func wordStyles(styles string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><w:styles ` + wDecl + `>` + styles + `</w:styles>`
}

func para(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

func TestParseDOCXCases(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		styles  string
		extra   map[string]string
		want    []Block
		wantErr error
	}{
		{
			name: "custom style based on a heading, direct outline level",
			styles: `<w:style w:type="paragraph" w:styleId="H1"><w:name w:val="heading 1"/></w:style>` +
				`<w:style w:type="paragraph" w:styleId="ClauseTitle"><w:name w:val="Clause Title"/><w:basedOn w:val="H1"/></w:style>` +
				`<w:style w:type="paragraph" w:styleId="BodyText"><w:name w:val="Body Text"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>`,
			body: para("ClauseTitle", "5 Earthing") + para("BodyText", "Bond all frames.") +
				`<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>5.1 Conductors</w:t></w:r></w:p>` + para("", "Use 95 mm² copper."),
			want: []Block{
				{Page: 1, Section: "5 Earthing", Text: "5 Earthing\nBond all frames."},
				{Page: 1, Section: "5.1 Conductors", Text: "5.1 Conductors\nUse 95 mm² copper."},
			},
		},
		{
			name: "heading style id without styles.xml",
			body: para("Heading2", "Scope") + para("", "Text."),
			want: []Block{{Page: 1, Section: "Scope", Text: "Scope\nText."}},
		},
		{
			name: "tracked deletion, field code, fallback content and property changes are skipped",
			body: `<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:pPrChange><w:pPr><w:pStyle w:val="Normal"/></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Cables</w:t></w:r></w:p>` +
				`<w:p><w:r><w:t xml:space="preserve">Depth </w:t></w:r><w:del><w:r><w:delText>600</w:delText></w:r></w:del><w:ins><w:r><w:t>800</w:t></w:r></w:ins>` +
				`<w:r><w:t xml:space="preserve"> mm, see </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>REF _Ref1 \h</w:instrText></w:r>` +
				`<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Table 2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>` +
				`<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:t>.</w:t></mc:Choice><mc:Fallback><w:t>FALLBACK</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
			want: []Block{{Page: 1, Section: "Cables", Text: "Cables\nDepth 800 mm, see Table 2."}},
		},
		{
			name: "grid span, nested table, empty row, line break in a cell",
			body: `<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t>Trench</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Note</w:t></w:r></w:p></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p/></w:tc><w:tc><w:p/></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p><w:r><w:t>800</w:t><w:br/><w:t>mm</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>400</w:t></w:r></w:p></w:tc>` +
				`<w:tc><w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr>` +
				`<w:tr><w:tc><w:p><w:r><w:t>c</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p><w:r><w:t>after</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`,
			want: []Block{{Page: 1, Text: "Trench | Note\n800 mm | 400 | a | b; c after"}},
		},
		{
			name:   "page break before (style and direct), continuous section, trailing break",
			styles: `<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="heading 1"/><w:pPr><w:pageBreakBefore/></w:pPr></w:style>`,
			body: para("Chapter", "One") + para("", "first") +
				`<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/></w:sectPr></w:pPr><w:r><w:t>same page</w:t></w:r></w:p>` +
				para("Chapter", "Two") +
				`<w:p><w:pPr><w:pageBreakBefore w:val="0"/></w:pPr><w:r><w:t>not broken</w:t></w:r></w:p>` +
				`<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>broken</w:t><w:br w:type="page"/></w:r></w:p>` +
				`<w:sectPr><w:type w:val="continuous"/></w:sectPr>`,
			want: []Block{
				{Page: 1, Section: "One", Text: "One\nfirst\nsame page"},
				{Page: 2, Section: "Two", Text: "Two\nnot broken"},
				{Page: 3, Section: "Two", Text: "broken"},
			},
		},
		{
			name: "section properties replaced by a tracked change do not count",
			body: para("", "before") +
				`<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/><w:sectPrChange><w:sectPr><w:type w:val="nextPage"/></w:sectPr></w:sectPrChange></w:sectPr></w:pPr></w:p>` +
				para("", "after") + `<w:sectPr><w:type w:val="continuous"/></w:sectPr>`,
			want: []Block{{Page: 1, Text: "before\nafter"}},
		},
		{
			name: "text box paragraphs inside a paragraph",
			body: `<w:p><w:r><w:t xml:space="preserve">Outer </w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:pict></w:r><w:r><w:t>text</w:t></w:r></w:p>`,
			want: []Block{{Page: 1, Text: "boxed\nOuter text"}},
		},
		{
			name:  "main part found through the package relationships",
			extra: map[string]string{"_rels/.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/word/main.xml"/></Relationships>`},
			want:  []Block{{Page: 1, Text: "from main.xml"}},
		},
		{name: "no text", body: `<w:p/><w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl>`, wantErr: ErrNoText},
		{name: "malformed xml", body: `<w:p><w:r><w:t>unclosed</w:r>`, wantErr: ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := map[string]string{"word/document.xml": wordDocument(tt.body)}
			if tt.styles != "" {
				parts["word/styles.xml"] = wordStyles(tt.styles)
			}
			if tt.extra != nil {
				parts = map[string]string{"word/main.xml": wordDocument(para("", "from main.xml")), "word/document.xml": wordDocument(para("", "wrong part"))}
				for k, v := range tt.extra {
					parts[k] = v
				}
			}
			p, err := parseDOCX(context.Background(), writeDOCX(t, parts))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Blocks, tt.want) {
				t.Errorf("blocks =\n%s\nwant\n%s", dumpBlocks(p.Blocks), dumpBlocks(tt.want))
			}
		})
	}
}

func TestParseDOCXNotWordprocessing(t *testing.T) {
	path := writeDOCX(t, map[string]string{"word/document.xml": `<?xml version="1.0"?><html><body>x</body></html>`})
	if _, err := parseDOCX(context.Background(), path); !errors.Is(err, ErrCorrupt) {
		t.Errorf("error = %v, want ErrCorrupt", err)
	}
}
