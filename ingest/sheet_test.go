package ingest

import (
	"archive/zip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

const corpusTables = "../examples/corpus/tables/"

// findBlock returns the first block of sheet whose text contains every one
// of parts.
func findBlock(t *testing.T, blocks []Block, sheet string, parts ...string) Block {
	t.Helper()
next:
	for _, b := range blocks {
		if b.Sheet != sheet {
			continue
		}
		for _, p := range parts {
			if !strings.Contains(b.Text, p) {
				continue next
			}
		}
		return b
	}
	t.Fatalf("no block in sheet %q contains %q", sheet, parts)
	return Block{}
}

// The row numbers below were read independently with Python (csv module and
// openpyxl), counting rows from 1 as a spreadsheet program does.
func TestParseCSVCorpus(t *testing.T) {
	p, err := parseCSV(context.Background(), corpusTables+"CEC_Inverters.csv")
	if err != nil {
		t.Fatal(err)
	}
	// 1,917 lines, three of them header rows.
	if p.Rows != 1914 || len(p.Blocks) != 1914 {
		t.Fatalf("Rows = %d, blocks = %d, want 1914", p.Rows, len(p.Blocks))
	}
	tests := []struct {
		name  string
		parts []string
		row   int
		text  string // the whole text, when set
	}{
		{
			name:  "first data row under three header rows",
			parts: []string{"Name: ABB: MICRO-0.25-I-OUTD-US-208 208V [CEC 2014];"},
			row:   4,
			text: "Name: ABB: MICRO-0.25-I-OUTD-US-208 208V [CEC 2014]; Vac (V): 208; Paco (W): 250; Pdco (W): 259.5220505; " +
				"Vdco (V): 40.24260317; Pso (W): 1.771614224; C0 (1/W): -2.48E-05; C1 (1/V): -9.01E-05; C2 (1/V): 6.69E-04; " +
				"C3 (1/V): -1.89E-02; Pnt (W): 0.02; Vdcmax (V): 65; Idcmax (A): 10; Mppt_low (V): 20; Mppt_high (V): 50",
		},
		{name: "SMA SB7000US 240V", parts: []string{"Name: SMA America: SB7000US 240V [CEC 2007];", "Paco (W): 7000;"}, row: 1486},
		{name: "last row", parts: []string{"Name: Zigor: SUNZET4-USA 240V [CEC 2011];", "Paco (W): 4030;"}, row: 1917},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := findBlock(t, p.Blocks, "CEC_Inverters", tt.parts...)
			if b.Row != tt.row {
				t.Errorf("row = %d, want %d", b.Row, tt.row)
			}
			if tt.text != "" && b.Text != tt.text {
				t.Errorf("text =\n%s\nwant\n%s", b.Text, tt.text)
			}
			if b.Page != 0 || b.Section != "" {
				t.Errorf("page/section = %d/%q, want none", b.Page, b.Section)
			}
		})
	}
	for _, b := range p.Blocks {
		if strings.Contains(b.Text, "inv_snl_") || strings.Contains(b.Text, "Units") {
			t.Fatalf("a header row was indexed as data: row %d %q", b.Row, b.Text)
		}
	}
}

func TestParseXLSXCorpus(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		sheet   string
		parts   []string
		row     int
		section string
	}{
		{"inverter SB7000US 240 V", "Inverters_2012.1.12.xlsx", "Parameters",
			[]string{"Manufacturer: SMA America;", "ID: SB7000US;", "ac Voltage: 240;", "Paco: 7000;"}, 618, ""},
		{"first inverter", "Inverters_2012.1.12.xlsx", "Parameters",
			[]string{"ID: ES 2200-US-240 (240 Vac);", "Pdco: 2191.825129;"}, 2, ""},
		{"module", "SandiaModuleDatabase_20120925.xlsx", "Data",
			[]string{"Model: 16-SanyoH552BA2-Array;", "Module Area [m^2]: 18.4;", "Material: HIT-Si;"}, 3, ""},
		{"legend definition under a late header", "SandiaModuleDatabase_20120925.xlsx", "Legend",
			[]string{"Heading: Isco; Description: Isc at STC, (A)"}, 18, ""},
		{"legend note above the header", "SandiaModuleDatabase_20120925.xlsx", "Legend",
			[]string{"All values notated by \"o\" are at Standard Test Conditions"}, 5, ""},
		{"flag codes below blank rows", "SandiaModuleDatabase_20120925.xlsx", "Flags for data sources",
			[]string{"Code: 1; Description: Measured at Sandia Labs"}, 4, ""},
		{"first of several titled tables", "SandiaModuleDatabase_20120925.xlsx", "Defaults",
			[]string{"Module Type: Glass/cell/glass;", "Mount: Open rack;"}, 4, "Wind speed and delta T"},
		{"later titled table", "SandiaModuleDatabase_20120925.xlsx", "Defaults",
			[]string{"Material: mc-Si;", "C0: 0.991;"}, 24, "C Coefficients and diode (median values)"},
	}
	parsed := map[string]Parsed{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := parsed[tt.file]
			if !ok {
				var err error
				if p, err = parseXLSX(context.Background(), corpusTables+tt.file); err != nil {
					t.Fatal(err)
				}
				parsed[tt.file] = p
			}
			b := findBlock(t, p.Blocks, tt.sheet, tt.parts...)
			if b.Row != tt.row || b.Section != tt.section {
				t.Errorf("row, section = %d, %q; want %d, %q", b.Row, b.Section, tt.row, tt.section)
			}
		})
	}
}

func TestParseXLSXCorpusSheets(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		rows  map[string]int // data rows per sheet
		total int
	}{
		{"inverters", "Inverters_2012.1.12.xlsx", map[string]int{"Parameters": 851}, 851},
		// Non-empty rows (openpyxl) less header and title rows. Data: 523
		// less the header. Legend: 57 less the header of the definitions
		// table. Flags: 6 less the header. Defaults: 21 less 4 titles and 4
		// headers.
		{"module database", "SandiaModuleDatabase_20120925.xlsx",
			map[string]int{"Data": 522, "Legend": 56, "Flags for data sources": 5, "Defaults": 13}, 596},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseXLSX(context.Background(), corpusTables+tt.file)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, b := range p.Blocks {
				got[b.Sheet]++
			}
			if !reflect.DeepEqual(got, tt.rows) || p.Rows != tt.total {
				t.Errorf("rows per sheet = %v (total %d), want %v (total %d)", got, p.Rows, tt.rows, tt.total)
			}
		})
	}
}

func TestParseSheetFixtures(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    []Block
		wantErr error
	}{
		{
			name: "merged, empty and duplicate headers, units, two tables, chart sheet",
			file: "testdata/sheet/merged.xlsx",
			want: []Block{
				{Sheet: "Trenches", Row: 6, Section: "Trench schedule", Text: "Cable: DC string; Trench Depth (mm): 800; Trench Width (mm): 400; Column D (kg): 12.5; Notes: Sand bed; Notes (column F): Warning tape"},
				{Sheet: "Trenches", Row: 7, Section: "Trench schedule", Text: "Cable: AC LV; Trench Depth (mm): 1000; Trench Width (mm): 600; Column D (kg): 20; Notes: Sand bed"},
				{Sheet: "Trenches", Row: 8, Section: "Trench schedule", Text: "Cable: AC LV; Trench Depth (mm): 1100; Trench Width (mm): 600; Column D (kg): 21; Notes (column F): Under road"},
				{Sheet: "Trenches", Row: 9, Section: "Trench schedule", Text: "Cable: MV; Trench Depth (mm): 1200; Trench Width (mm): 800; Column D (kg): 35.25; Notes: Concrete slab"},
				{Sheet: "Trenches", Row: 13, Section: "Earthing", Text: "Conductor: Main earth; Size: 95; Material: Copper"},
				{Sheet: "Trenches", Row: 14, Section: "Earthing", Text: "Conductor: Bond; Size: 16; Material: Copper"},
			},
		},
		{
			name: "windows-1252 csv with semicolons, a blank line and a two-line cell",
			file: "testdata/sheet/cp1252.csv",
			want: []Block{
				{Sheet: "cp1252", Row: 2, Text: "Kabel: NYY-J 5x16; Température (°C): 70; Querschnitt (mm²): 16; Bemerkung: Erdverlegung"},
				{Sheet: "cp1252", Row: 3, Text: "Kabel: NA2XS(F)2Y; Température (°C): 90; Querschnitt (mm²): 150; Bemerkung: Mittelspannung – 20 kV"},
				{Sheet: "cp1252", Row: 5, Text: "Kabel: H07RN-F; Température (°C): 60; Querschnitt (mm²): 2,5; Bemerkung: flexibel, zweite Zeile"},
				{Sheet: "cp1252", Row: 6, Text: "Kabel: ÖLFLEX; Température (°C): 80; Querschnitt (mm²): 1,5; Bemerkung: µ-Schirm"},
			},
		},
		{
			name: "utf-8 bom csv with a title, a bare quote and ragged rows",
			file: "testdata/sheet/bom.csv",
			want: []Block{
				{Sheet: "bom", Row: 3, Section: "Inverter list", Text: `Model: SB 5000"TL; Paco: 5000; Vdcmax: 600`},
				{Sheet: "bom", Row: 4, Section: "Inverter list", Text: "Model: SB 3000; Paco: 3000"},
				{Sheet: "bom", Row: 6, Section: "Inverter list", Text: "Model: STP 25000; Paco: 25000; Vdcmax: 1000; Column D: extra"},
			},
		},
		{name: "header without data", file: "testdata/sheet/headeronly.xlsx", wantErr: ErrNoText},
		{name: "encrypted", file: "testdata/sheet/encrypted.xlsx", wantErr: ErrEncrypted},
		{name: "truncated zip", file: "testdata/sheet/corrupt.xlsx", wantErr: ErrCorrupt},
		{name: "docx under an xlsx name", file: "testdata/docx/headings.docx", wantErr: ErrCorrupt},
		{name: "missing", file: "testdata/sheet/absent.csv", wantErr: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := parseXLSX
			if strings.HasSuffix(tt.file, ".csv") {
				parse = parseCSV
			}
			p, err := parse(context.Background(), tt.file)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), filepath.Base(tt.file)) {
					t.Errorf("error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.Blocks, tt.want) {
				t.Errorf("blocks =\n%s\nwant\n%s", dumpBlocks(p.Blocks), dumpBlocks(tt.want))
			}
			if p.Rows != len(tt.want) || p.Pages != 0 {
				t.Errorf("Rows, Pages = %d, %d; want %d, 0", p.Rows, p.Pages, len(tt.want))
			}
		})
	}
}

func dumpBlocks(bs []Block) string {
	var b strings.Builder
	for _, x := range bs {
		b.WriteString(strings.Join([]string{
			"page " + strconv.Itoa(x.Page), "sheet " + x.Sheet, "row " + strconv.Itoa(x.Row), "section " + x.Section, x.Text,
		}, " | "))
		b.WriteByte('\n')
	}
	return b.String()
}

// sliceRows is a rowSource over literal rows numbered from 1.
type sliceRows struct {
	rows [][]string
	i    int
}

func (s *sliceRows) next() (sheetRow, bool, error) {
	if s.i >= len(s.rows) {
		return sheetRow{}, false, nil
	}
	s.i++
	return sheetRow{num: s.i, cells: s.rows[s.i-1]}, true, nil
}

func TestReadTable(t *testing.T) {
	type row = []string
	tests := []struct {
		name string
		rows [][]string
		want []Block
	}{
		{
			name: "no header: all rows are data, cells joined",
			rows: [][]string{{"1", "2"}, {"3", "4"}},
			want: []Block{{Row: 1, Text: "1 | 2"}, {Row: 2, Text: "3 | 4"}},
		},
		{
			name: "title and blank rows above the header",
			rows: [][]string{{"Cable schedule"}, {}, {"Cable", "Size"}, {"C1", "16"}},
			want: []Block{{Row: 4, Section: "Cable schedule", Text: "Cable: C1; Size: 16"}},
		},
		{
			name: "notes above the header are kept as text; the last one titles the table",
			rows: [][]string{{"Project: Solar farm", "", "Client: ACME"}, {"Issued for tender"}, {"Cable schedule"}, {}, {"Cable", "Size", "Note"}, {"C1", "16", "buried"}},
			want: []Block{
				{Row: 1, Text: "Project: Solar farm | Client: ACME"},
				{Row: 2, Text: "Issued for tender"},
				{Row: 6, Section: "Cable schedule", Text: "Cable: C1; Size: 16; Note: buried"},
			},
		},
		{
			name: "units row folded, placeholder row kept as data",
			rows: [][]string{{"Item", "Depth", "Width"}, {"", "mm", "mm"}, {"A", "n/a", "n/a"}, {"B", "800", "400"}, {"C", "900", "450"}},
			want: []Block{
				{Row: 3, Text: "Item: A; Depth (mm): n/a; Width (mm): n/a"},
				{Row: 4, Text: "Item: B; Depth (mm): 800; Width (mm): 400"},
				{Row: 5, Text: "Item: C; Depth (mm): 900; Width (mm): 450"},
			},
		},
		{
			name: "variable-name row consumed, sub-heading row folded",
			rows: [][]string{{"Name", "Trench", "Trench"}, {"[0]", "trench_depth", "trench_width"}, {"", "Depth", "Width"}, {"A", "800", "400"}, {"B", "900", "450"}},
			want: []Block{{Row: 4, Text: "Name: A; Trench Depth: 800; Trench Width: 400"}, {Row: 5, Text: "Name: B; Trench Depth: 900; Trench Width: 450"}},
		},
		{
			name: "text-only table: blank rows do not start new tables",
			rows: [][]string{{"Number", "Title", "Status"}, {"A-1", "Layout", "IFC"}, {}, {"Civil"}, {"A-2", "Details", "IFA"}},
			want: []Block{
				{Row: 2, Text: "Number: A-1; Title: Layout; Status: IFC"},
				{Row: 4, Text: "Number: Civil"},
				{Row: 5, Text: "Number: A-2; Title: Details; Status: IFA"},
			},
		},
		{
			name: "repeated header skipped",
			rows: [][]string{{"Cable", "Size"}, {"C1", "16"}, {"Cable", "Size"}, {"C2", "25"}},
			want: []Block{{Row: 2, Text: "Cable: C1; Size: 16"}, {Row: 4, Text: "Cable: C2; Size: 25"}},
		},
		{
			name: "empty and duplicate header cells",
			rows: [][]string{{"Cable", "", "Size", "size"}, {"C1", "x", "16", "25"}},
			want: []Block{{Row: 2, Text: "Cable: C1; Column B: x; Size: 16; size (column D): 25"}},
		},
		{
			name: "new table after a blank row repeats a header name",
			rows: [][]string{{"Type", "a"}, {"Glass", "1"}, {}, {"Type", "b", "c"}, {"Poly", "2", "3"}},
			want: []Block{{Row: 2, Text: "Type: Glass; a: 1"}, {Row: 5, Text: "Type: Poly; b: 2; c: 3"}},
		},
		{
			name: "multi-line cells flattened",
			rows: [][]string{{"Cable", "Note"}, {"C1", "line one\nline two"}},
			want: []Block{{Row: 2, Text: "Cable: C1; Note: line one line two"}},
		},
		{
			name: "blank rows only",
			rows: [][]string{{}, {"", " "}},
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readTable(context.Background(), "", &sliceRows{rows: tt.rows})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("blocks =\n%s\nwant\n%s", dumpBlocks(got), dumpBlocks(tt.want))
			}
		})
	}
}

func TestParseXLSXHugeMerge(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	for _, c := range []struct {
		cell  string
		value any
	}{{"A1", "Schedule"}, {"A3", "Cable"}, {"B3", "Size"}, {"A4", "C1"}, {"B4", 16}} {
		if err := f.SetCellValue("Sheet1", c.cell, c.value); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.MergeCell("Sheet1", "A1", "B2"); err != nil {
		t.Fatal(err)
	}
	if err := f.MergeCell("Sheet1", "C3", "D4"); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(t.TempDir(), "small.xlsx")
	if err := f.SaveAs(small); err != nil {
		t.Fatal(err)
	}
	// Widen the ranges in the XML (excelize would materialise them): a
	// title merged over whole rows, and a range down to the last row.
	path := rewriteZip(t, small, strings.NewReplacer(`ref="A1:B2"`, `ref="A1:XFD2"`, `ref="C3:D4"`, `ref="C3:XFD1048576"`))
	p, err := parseXLSX(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{Sheet: "Sheet1", Row: 4, Section: "Schedule", Text: "Cable: C1; Size: 16"}}
	if !reflect.DeepEqual(p.Blocks, want) {
		t.Errorf("blocks =\n%s\nwant\n%s", dumpBlocks(p.Blocks), dumpBlocks(want))
	}
}

// rewriteZip copies a zip package, passing every part through r.
func rewriteZip(t *testing.T, src string, r *strings.Replacer) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dst := filepath.Join(t.TempDir(), "rewritten"+filepath.Ext(src))
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(r.Replace(string(data)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestParseCSVCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := parseCSV(ctx, corpusTables+"CEC_Inverters.csv"); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"unterminated\n", "x\n\n\ny", "Units,V\nName,1\n", ";;;\n\"a\"\"b\";c"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := parseCSV(context.Background(), path)
		if err != nil {
			return
		}
		prev := 0
		for _, b := range p.Blocks {
			if b.Row <= prev || b.Text == "" {
				t.Fatalf("bad block %+v after row %d", b, prev)
			}
			prev = b.Row
		}
	})
}

func TestColumnLetter(t *testing.T) {
	tests := []struct {
		name string
		i    int
		want string
	}{
		{"A", 0, "A"}, {"Z", 25, "Z"}, {"AA", 26, "AA"}, {"AZ", 51, "AZ"}, {"BA", 52, "BA"}, {"XFD", 16383, "XFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := columnLetter(tt.i); got != tt.want {
				t.Errorf("columnLetter(%d) = %q, want %q", tt.i, got, tt.want)
			}
		})
	}
}

func TestValueLike(t *testing.T) {
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"integer", "800", true},
		{"negative exponent", "-2.48E-05", true},
		{"thousands", "1,234.5", true},
		{"decimal comma", "2,5", true},
		{"percent", "14 %", true},
		{"currency", "$1,200", true},
		{"date", "15/03/2024", true},
		{"iso date", "2024-03-15", true},
		{"unit", "1/W", false},
		{"code", "6A20", false},
		{"word", "Paco", false},
		{"NaN word", "NaN", false},
		{"infinity", "Inf", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := valueLike(tt.s); got != tt.want {
				t.Errorf("valueLike(%q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}

func BenchmarkParseCEC(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		p, err := parseCSV(ctx, corpusTables+"CEC_Inverters.csv")
		if err != nil || p.Rows != 1914 {
			b.Fatalf("rows %d, err %v", p.Rows, err)
		}
	}
}

func BenchmarkParseXLSXInverters(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := parseXLSX(ctx, corpusTables+"Inverters_2012.1.12.xlsx"); err != nil {
			b.Fatal(err)
		}
	}
}
