package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestIdentityFromFileName(t *testing.T) {
	tests := []struct {
		name, file              string
		number, revision, title string
	}{
		{"rev with space", "277-007-D-C-40327 Rev 03 Trenches crossing layout.pdf", "277-007-D-C-40327", "03", "Trenches crossing layout"},
		{"rev glued to letter", "277-007-D-C-40327_RevB_Trench details.pdf", "277-007-D-C-40327", "B", "Trench details"},
		{"rev in parentheses", "ABC-123 (Rev C) Title.docx", "ABC-123", "C", "Title"},
		{"rev in brackets", "ABC-123 [Rev P01] Layout.pdf", "ABC-123", "P01", "Layout"},
		{"report number, no rev", "NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf", "NREL-TP-6A20-62641", "", "PVWatts Version5 Manual"},
		{"underscore R", "277-007-D-C-40327_R03_Trench.pdf", "277-007-D-C-40327", "03", "Trench"},
		{"underscore R, one digit", "ABC-123_R1_Trench.pdf", "ABC-123", "1", "Trench"},
		{"R with one digit in a title is not a revision", "ABC-123 Zone R1 cabling.pdf", "ABC-123", "", "Zone R1 cabling"},
		{"spaced R", "ABC-123 R12 Zone cabling.pdf", "ABC-123", "12", "Zone cabling"},
		{"rev dot", "277-007-D-C-40327 Rev.B Trench.pdf", "277-007-D-C-40327", "B", "Trench"},
		{"rev dash", "277-007-D-C-40327-rev-2-Trench.pdf", "277-007-D-C-40327", "2", "Trench"},
		{"revision word", "ABC-123 Revision 4 Foundations.pdf", "ABC-123", "4", "Foundations"},
		{"rev glued to digits", "ABC-123_Rev03_Piling.pdf", "ABC-123", "03", "Piling"},
		{"dashes around rev", "ABC-123 - Rev C - Trench layout.pdf", "ABC-123", "C", "Trench layout"},
		{"lower case", "277-007-d-c-40327 rev 03 trenches.pdf", "277-007-d-c-40327", "03", "trenches"},
		{"capital title words end the number", "277-007-D-C-40327_TRENCH_DETAILS.pdf", "277-007-D-C-40327", "", "TRENCH DETAILS"},
		{"letter codes between digits", "ABC-123-CIVIL-001 Drainage.pdf", "ABC-123-CIVIL-001", "", "Drainage"},
		{"version after the number", "XYZ-100_v2_Title.pdf", "XYZ-100", "2", "Title"},
		{"version at the end", "IEA-PVPS-T13_BifiTracking_Simulation_Scenarios_v4.pdf", "IEA-PVPS-T13", "4", "BifiTracking Simulation Scenarios"},
		{"dotted version", "ABC-123 Layout V2.1.pdf", "ABC-123", "2.1", "Layout"},
		{"version without a number", "Trench layout v3.docx", "Trench layout", "3", "Trench layout"},
		{"rev letter between dashes", "ABC-123-rev-B.pdf", "ABC-123", "B", ""},
		{"R and two digits", "ABC-123 R03 Layout.pdf", "ABC-123", "03", "Layout"},
		{"Version5 is a product version", "NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf", "NREL-TP-6A20-62641", "", "PVWatts Version5 Manual"},
		{"v and a word is not a version", "ABC-123 v slope.pdf", "ABC-123", "", "v slope"},
		{"number only", "ABC-123.docx", "ABC-123", "", ""},
		{"no number", "Inverters_2012.1.12.xlsx", "Inverters_2012.1.12", "", "Inverters 2012.1.12"},
		{"capitals without digit", "CEC_Inverters.csv", "CEC_Inverters", "", "CEC Inverters"},
		{"no number, with rev", "Trench layout Rev 03.pdf", "Trench layout", "03", "Trench layout"},
		{"review is not a revision", "Review notes.txt", "Review notes", "", "Review notes"},
		{"revised is not a revision", "ABC-123 Revised layout.pdf", "ABC-123", "", "Revised layout"},
		{"directory is ignored", "specs/ABC-123 (Rev C) Title.docx", "ABC-123", "C", "Title"},
		{"empty", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			number, revision, title := IdentityFromFileName(tt.file)
			if number != tt.number || revision != tt.revision || title != tt.title {
				t.Errorf("IdentityFromFileName(%q) = (%q, %q, %q), want (%q, %q, %q)",
					tt.file, number, revision, title, tt.number, tt.revision, tt.title)
			}
		})
	}
}

func TestIdentityRevisionsShareDocID(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"numbered", "277-007-D-C-40327 Rev 02 Trenches.pdf", "277-007-D-C-40327_RevB_Trenches.pdf"},
		{"unnumbered", "Trench layout Rev 02.pdf", "Trench layout Rev 03.pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			na, ra, _ := IdentityFromFileName(tt.a)
			nb, rb, _ := IdentityFromFileName(tt.b)
			if DocID(na) != DocID(nb) {
				t.Errorf("doc ids differ: %q vs %q", DocID(na), DocID(nb))
			}
			if ra == rb {
				t.Errorf("revisions should differ, both %q", ra)
			}
		})
	}
}

func FuzzIdentityFromFileName(f *testing.F) {
	for _, s := range []string{"277-007-D-C-40327 Rev 03 Trenches.pdf", "(Rev", "_R", "a-", "-.-_", "Rev.", "ABC-123 [rev ]", "\xff\xfe.pdf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		number, _, _ := IdentityFromFileName(name)
		switch strings.TrimSpace(filepath.Base(name)) {
		case "", ".", "/":
		default:
			if number == "" {
				t.Errorf("IdentityFromFileName(%q) returned an empty number", name)
			}
		}
		if strings.ContainsAny(DocID(number), "/\\ ") {
			t.Errorf("DocID(%q) = %q holds a separator", number, DocID(number))
		}
	})
}

func TestDocID(t *testing.T) {
	tests := []struct {
		name, number, want string
	}{
		{"lower-cased", "277-007-D-C-40327", "277-007-d-c-40327"},
		{"spaces", "  ABC 123  A ", "abc-123-a"},
		{"path separators", `ABC/123\4`, "abc-123-4"},
		{"unicode", "ÄBC-1", "äbc-1"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DocID(tt.number); got != tt.want {
				t.Errorf("DocID(%q) = %q, want %q", tt.number, got, tt.want)
			}
		})
	}
}

func TestLoadRegister(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		path    string
		want    []RegisterEntry
		wantErr error
		errHas  string
	}{
		{
			name: "csv with aliases and extra columns",
			path: "testdata/register/register.csv",
			want: []RegisterEntry{
				{Number: "277-007-D-C-40327", Title: "Trenches, crossing layout", Revision: "03", Status: "IFC", Date: "15/03/2024",
					DriveLink: "https://drive.google.com/file/d/abc123/view", File: "277-007-D-C-40327 Rev 03 Trenches crossing layout.pdf"},
				{Number: "ABC-123", Title: "Trench specification", Revision: "C", Status: "Superseded", Date: "2023-11-02",
					File: "specs/ABC-123 (Rev C) Title.docx"},
				{Number: "XYZ-9", Title: "Not yet uploaded", Revision: "A", Status: "Planned"},
			},
		},
		{
			name: "xlsx with title rows, hyperlink and date format",
			path: "testdata/register/register.xlsx",
			want: []RegisterEntry{
				{Number: "277-007-D-C-40327", Title: "Trenches crossing layout", Revision: "03", Status: "IFC", Date: "15/3/2024",
					DriveLink: "https://drive.google.com/file/d/abc123/view", File: "277-007-D-C-40327 Rev 03 Trenches crossing layout.pdf"},
				{Number: "277-007-D-C-40328", Title: "Trench details", Revision: "B", Status: "For approval", Date: "2024-03-15",
					DriveLink: "https://drive.google.com/file/d/def456/view", File: "277-007-D-C-40328_RevB_Trench details.pdf"},
			},
		},
		{
			name: "semicolon csv, windows path",
			path: write("semi.csv", "DOCUMENT_NO;Rev;File Name\nA-1;2;specs\\a.pdf\n"),
			want: []RegisterEntry{{Number: "A-1", Revision: "2", File: "specs/a.pdf"}},
		},
		{
			name: "title beats description",
			path: write("title.csv", "Description,Number,Title,File\nlong text,A-1,Short title,a.pdf\n"),
			want: []RegisterEntry{{Number: "A-1", Title: "Short title", File: "a.pdf"}},
		},
		{name: "missing file column", path: "testdata/register/nofile.csv", wantErr: ErrRegisterColumns, errHas: "no file column"},
		{name: "missing number column", path: write("nonumber.csv", "Title,File\nT,a.pdf\n"), wantErr: ErrRegisterColumns, errHas: "no document number column"},
		{name: "header only", path: write("empty.csv", "Doc No,File\n"), wantErr: ErrNoText},
		{name: "empty file", path: write("zero.csv", ""), wantErr: ErrEmptyFile},
		{name: "unsupported", path: write("register.txt", "x"), wantErr: ErrUnsupported},
		{name: "encrypted workbook", path: "testdata/sheet/encrypted.xlsx", wantErr: ErrEncrypted},
		{name: "corrupt workbook", path: "testdata/sheet/corrupt.xlsx", wantErr: ErrCorrupt},
		{name: "missing file", path: filepath.Join(dir, "absent.csv"), wantErr: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadRegister(tt.path)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("LoadRegister() error = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.errHas) {
					t.Errorf("error %q does not say %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadRegister() error = %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("LoadRegister() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestSniffDelimiter(t *testing.T) {
	tests := []struct {
		name, text string
		want       rune
	}{
		{"comma", "a,b,c\n1,2,3", ','},
		{"semicolon", "a;b;c\n1,5;2;3", ';'},
		{"tab", "a\tb\tc\n", '\t'},
		{"quoted commas do not count", "\"a,b,c\";d;e\n", ';'},
		{"leading blank lines", "\n\n a;b\n", ';'},
		{"title line without delimiters", "Cable list\nName;Size;Note\nC1;2,5;x\n", ';'},
		{"empty", "", ','},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffDelimiter(tt.text); got != tt.want {
				t.Errorf("sniffDelimiter(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestCheckNotOLE(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "legacy.docx")
	if err := os.WriteFile(legacy, append([]byte(oleMagic), make([]byte, 512)...), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want error
	}{
		{"encrypted docx", "testdata/docx/encrypted.docx", ErrEncrypted},
		{"encrypted xlsx", "testdata/sheet/encrypted.xlsx", ErrEncrypted},
		{"legacy binary", legacy, ErrUnsupported},
		{"zip", "testdata/docx/headings.docx", nil},
		{"short text", "testdata/docx/notzip.docx", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkNotOLE(tt.path); !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("checkNotOLE() = %v, want %v", err, tt.want)
			}
		})
	}
}
