package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		want    string
		wantErr error
	}{
		{"utf-8", []byte("Tiefe ≥ 800 mm"), "Tiefe ≥ 800 mm", nil},
		{"utf-8 bom", []byte("\xEF\xBB\xBFDepth"), "Depth", nil},
		{"utf-16le bom", []byte{0xFF, 0xFE, 'O', 0, 'K', 0, 0x65, 0x22}, "OK≥", nil},
		{"utf-16be bom", []byte{0xFE, 0xFF, 0, 'O', 0, 'K', 0x22, 0x65}, "OK≥", nil},
		{"windows-1252", []byte("Temp\xe9rature 90 \xb0C \x96 \x80 5"), "Température 90 °C – € 5", nil},
		{"bom then invalid utf-8", []byte("\xEF\xBB\xBFa\xffb"), "a\uFFFDb", nil},
		{"nul bytes", []byte("PK\x00\x03binary"), "", ErrCorrupt},
		{"utf-16 without bom", []byte{'O', 0, 'K', 0}, "", ErrCorrupt},
		{"empty", nil, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeText(tt.data)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("decodeText() error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("decodeText() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseTextFixtures(t *testing.T) {
	tests := []struct {
		name      string
		file      string
		markdown  bool
		want      []Block
		wantPages int
		wantErr   error
	}{
		{
			name: "headings, wrapped paragraphs, list, table lines, form feed",
			file: "testdata/text/notes.txt",
			want: []Block{
				{Page: 1, Section: "GENERAL REQUIREMENTS", Text: "GENERAL REQUIREMENTS\nThese notes apply to all cable trenches on site."},
				{Page: 1, Section: "4.2 Cable trenches", Text: "4.2 Cable trenches\nDC cables shall be laid at a minimum depth of 800 mm below finished ground level.\n" +
					"1. Excavate the trench.\n2. Lay the sand bed.\nCable | Depth\nDC | 800 mm"},
				{Page: 2, Section: "4.3 Backfill", Text: "4.3 Backfill\nBackfill in layers of 150 mm."},
			},
			wantPages: 2,
		},
		{
			name:      "windows-1252",
			file:      "testdata/text/cp1252.txt",
			want:      []Block{{Page: 1, Text: "Température de service : 90 °C – câble µ-blindé."}},
			wantPages: 1,
		},
		{
			name:      "utf-16le",
			file:      "testdata/text/utf16le.txt",
			want:      []Block{{Page: 1, Text: "Trench depth: 800 mm Width ≥ 400 mm"}},
			wantPages: 1,
		},
		{
			name:      "utf-16be",
			file:      "testdata/text/utf16be.txt",
			want:      []Block{{Page: 1, Text: "Trench depth: 800 mm Width ≥ 400 mm"}},
			wantPages: 1,
		},
		{
			name:     "markdown",
			file:     "testdata/text/spec.md",
			markdown: true,
			want: []Block{
				{Page: 1, Text: "title: Trench specification"},
				{Page: 1, Section: "1 General", Text: "1 General\nThe minimum depth is given in Table 1."},
				{Page: 1, Section: "Cable trenches", Text: "Cable trenches\n| Cable | Depth |\n| DC | 800 mm |\n# not a heading\nmake install\n- first item\n- second item"},
				{Page: 2, Section: "2 Backfill", Text: "2 Backfill\nUse sand sand."},
			},
			wantPages: 2,
		},
		{name: "binary", file: "testdata/text/binary.txt", wantErr: ErrCorrupt},
		{name: "missing", file: "testdata/text/absent.txt", wantErr: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := parseText
			if tt.markdown {
				parse = parseMarkdown
			}
			p, err := parse(context.Background(), tt.file)
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

// parseString writes s to a temporary file and parses it.
func parseString(t *testing.T, name, s string) (Parsed, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".md") {
		return parseMarkdown(context.Background(), path)
	}
	return parseText(context.Background(), path)
}

func TestParseTextCases(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		text    string
		want    []Block
		wantErr error
	}{
		{
			name: "sentence after a number is not a heading",
			file: "a.txt",
			text: "2 Trenches shall be backfilled.\n\n400 Amps continuous\n",
			want: []Block{{Page: 1, Text: "2 Trenches shall be backfilled.\n400 Amps continuous"}},
		},
		{
			name: "underlined heading",
			file: "a.txt",
			text: "Cable trenches\n==============\n\nDepth 800 mm.\n",
			want: []Block{{Page: 1, Section: "Cable trenches", Text: "Cable trenches\nDepth 800 mm."}},
		},
		{
			name: "form feeds, trailing one adds no page",
			file: "a.txt",
			text: "one\fTWO PAGE HEADING\ntext\f\fthree\f",
			want: []Block{{Page: 1, Text: "one"}, {Page: 2, Text: "TWO PAGE HEADING text"}, {Page: 4, Text: "three"}},
		},
		{
			name: "crlf line ends",
			file: "a.txt",
			text: "1.1 Scope\r\nLine one\r\nline two\r\n",
			want: []Block{{Page: 1, Section: "1.1 Scope", Text: "1.1 Scope\nLine one line two"}},
		},
		{
			name: "atx variants, hashtag and indented code are not headings",
			file: "a.md",
			text: "## Closed heading ##\n#hashtag text\n\n    # indented code\n\n###### Six\nbody\n",
			want: []Block{
				{Page: 1, Section: "Closed heading", Text: "Closed heading\n#hashtag text\n# indented code"},
				{Page: 1, Section: "Six", Text: "Six\nbody"},
			},
		},
		{
			name: "tilde fence with longer close, blockquote, reference link",
			file: "a.md",
			text: "~~~\nSection\n-------\n~~~~~\n\n> quoted [text][ref] here\n",
			want: []Block{{Page: 1, Text: "Section\n-------\nquoted text here"}},
		},
		{
			name: "thematic break is not a heading",
			file: "a.md",
			text: "para\n\n---\n\nnext\n",
			want: []Block{{Page: 1, Text: "para\nnext"}},
		},
		{name: "empty file", file: "a.txt", text: "", wantErr: ErrEmptyFile},
		{name: "whitespace only", file: "a.md", text: " \n\t\n\f\n", wantErr: ErrNoText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseString(t, tt.file, tt.text)
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

func TestHeadingDetection(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		numbered bool
		caps     bool
	}{
		{"numbered", "4.2 Cable trenches", true, false},
		{"numbered with dot", "1. Introduction", true, false},
		{"deep", "4.2.1.3 Joints", true, false},
		{"sentence", "2 Trenches shall be backfilled.", false, false},
		{"value", "400 Amps", false, false},
		{"lower-case word", "4.2 cable trenches", false, false},
		{"caps", "GENERAL REQUIREMENTS", false, true},
		{"caps with number", "APPENDIX A", false, true},
		{"short caps", "IFC", false, false},
		{"mixed", "General Requirements", false, false},
		{"long caps", strings.Repeat("WORD ", 9), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := numberedHeading(tt.line); got != tt.numbered {
				t.Errorf("numberedHeading(%q) = %v, want %v", tt.line, got, tt.numbered)
			}
			if got := capsHeading(tt.line); got != tt.caps {
				t.Errorf("capsHeading(%q) = %v, want %v", tt.line, got, tt.caps)
			}
		})
	}
}

func FuzzParseMarkdown(f *testing.F) {
	for _, s := range []string{"# a\n```\nx", "a\n===\n\f## b ##", "---\nx: y\n", "[a](b) ![c](d)", "\xff\xfe#\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.md")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := parseMarkdown(context.Background(), path)
		if err != nil {
			return
		}
		for _, b := range p.Blocks {
			if b.Page < 1 || b.Text == "" || strings.Contains(b.Section, "\n") {
				t.Fatalf("bad block %+v", b)
			}
		}
	})
}
