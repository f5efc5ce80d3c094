package ingest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

const (
	corpusPDF  = "../examples/corpus/pdf/"
	pvwatts    = corpusPDF + "NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf"
	epa        = corpusPDF + "EPA_Federal_Environmental_Requirements_for_Construction.pdf"
	iea        = corpusPDF + "IEA-PVPS-T13_BifiTracking_Simulation_Scenarios_v4.pdf"
	pvlibNote  = corpusPDF + "pvlib_note_average_view_factor_from_a_module.pdf"
	fixtureDir = "testdata/pdf/"
)

// Compiling PDFium takes seconds (minutes under the race detector), so the
// tests share one parser and keep the compiled module in a cache directory
// that later test runs reuse; wazero writes it atomically, so concurrent
// runs are safe.
var (
	sharedPDFOnce sync.Once
	sharedPDFInst *PDF
)

func testCacheDir() string { return filepath.Join(os.TempDir(), "cew-test-pdfium-cache") }

func sharedPDF(t testing.TB) *PDF {
	t.Helper()
	sharedPDFOnce.Do(func() { sharedPDFInst = NewPDF(testCacheDir(), nil) })
	return sharedPDFInst
}

// parsedCache keeps each file's parse result for the tests that only read it.
var (
	parsedMu    sync.Mutex
	parsedCache = map[string]Parsed{}
)

func mustParsePDF(t *testing.T, path string) Parsed {
	t.Helper()
	parsedMu.Lock()
	defer parsedMu.Unlock()
	if p, ok := parsedCache[path]; ok {
		return p
	}
	p, err := sharedPDF(t).Parse(context.Background(), path)
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	parsedCache[path] = p
	return p
}

// pageText joins the text of all blocks of one page.
func pageText(p Parsed, page int) string {
	var parts []string
	for _, b := range p.Blocks {
		if b.Page == page {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// sections lists the distinct section names in order of first appearance.
func sections(p Parsed) []string {
	var out []string
	for _, b := range p.Blocks {
		if b.Section != "" && !slices.Contains(out, b.Section) {
			out = append(out, b.Section)
		}
	}
	return out
}

// blockWith returns the first block on page whose text contains s.
func blockWith(p Parsed, page int, s string) (Block, bool) {
	for _, b := range p.Blocks {
		if b.Page == page && strings.Contains(b.Text, s) {
			return b, true
		}
	}
	return Block{}, false
}

func TestPDFCorpusPages(t *testing.T) {
	tests := []struct {
		name  string
		path  string
		pages int
	}{
		{name: "PVWatts manual", path: pvwatts, pages: 20},
		{name: "EPA construction requirements", path: epa, pages: 8},
		{name: "IEA bifacial scenarios", path: iea, pages: 4},
		{name: "pvlib view factor note", path: pvlibNote, pages: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParsePDF(t, tt.path)
			if p.Pages != tt.pages {
				t.Errorf("Pages = %d, want %d", p.Pages, tt.pages)
			}
			prev := 0
			for _, b := range p.Blocks {
				if b.Page < 1 || b.Page > tt.pages {
					t.Fatalf("block on page %d, outside 1..%d", b.Page, tt.pages)
				}
				if b.Page < prev {
					t.Fatalf("block on page %d after page %d", b.Page, prev)
				}
				prev = b.Page
				if strings.TrimSpace(b.Text) == "" {
					t.Errorf("empty block on page %d", b.Page)
				}
				for _, r := range b.Text {
					if (r >= 0xFB00 && r <= 0xFB06) || r == 0xFFFE || r == 0x0002 || r == 0xFFFD || isPrivateUse(r) {
						t.Fatalf("page %d: unnormalised character %U in %q", b.Page, r, b.Text)
					}
				}
			}
		})
	}
}

// TestPDFPageFidelity checks that facts land on the physical page a viewer
// shows them on (verified against the PDFs with a viewer and pdftotext).
func TestPDFPageFidelity(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		page    int
		want    string
		section string
	}{
		{name: "default losses in the change list", path: pvwatts, page: 6,
			want: "Total system losses are specified as a percentage, with a default value of 14 %.", section: "2 Overview of Changes in Version 5"},
		{name: "system losses input row", path: pvwatts, page: 6, want: "System losses | % | 14", section: "Table 2. Input Parameters"},
		{name: "premium module temperature coefficient", path: pvwatts, page: 7,
			want: "Premium | ∼19 % | Anti-reflective | -0.35 %/°C", section: "Table 3. Assumptions for different module types"},
		{name: "temperature coefficient header", path: pvwatts, page: 7,
			want: "Module type | Efficiency | Cover type | Temperature coefficient", section: "Table 3. Assumptions for different module types"},
		{name: "a table row wrapped over lines is one row", path: pvwatts, page: 5,
			want:    "V1 | Original online calculator. | 239 TMY2 sites. Added 360 international sites in 2005. | 1998 | Retiring in 2014",
			section: "Table 1. Version History"},
		{name: "wrapped cells that ran together are told apart by the header's columns", path: pvwatts, page: 5,
			want: "V2 | Modified to utilize a gridded 40 km monthly weather data in the continental US. Hourly calculations were done " +
				"with the nearest TMY2 site, and then the monthly totals were scaled using the monthly gridded weather data. | " +
				"Monthly 40-km gridded irradiance & temperature (CSR) | 2001 | Retiring in 2014",
			section: "Table 1. Version History"},
		{name: "a wrapped input row", path: pvwatts, page: 6,
			want: "Array type | Fixed open rack, Fixed roof mount, 1-Axis, Backtracked 1-Axis, 2-Axis | Fixed open rack", section: "Table 2. Input Parameters"},
		{name: "a group label between rows stays", path: pvwatts, page: 6, want: "Advanced inputs\nDC/AC ratio | ratio | 1.1",
			section: "Table 2. Input Parameters"},
		{name: "losses table row", path: pvwatts, page: 13, want: "Soiling | 2 % | 0.95", section: "Table 6. System Losses"},
		{name: "losses table total", path: pvwatts, page: 13, want: "Total losses | 14 % (via Eqn. 9) | 0.77", section: "Table 6. System Losses"},
		{name: "default total loss sentence", path: pvwatts, page: 13,
			want: "The default total system loss is calculated to be 14 %.", section: "11 System Losses"},
		{name: "prose after a table returns to its section", path: pvwatts, page: 7,
			want: "The default value of the new DC-to-AC ratio input is 1.1.", section: "3 Model Inputs"},
		{name: "section carries over to the next page", path: pvwatts, page: 9,
			want: "For two axis tracking systems", section: "6 Tracking"},
		{name: "hyphenated word joined", path: pvwatts, page: 6,
			want: "derived from statistical analysis of data on inverters manufactured since 2010", section: "2 Overview of Changes in Version 5"},
		{name: "an acronym hyphenated at a line end is whole, as the document writes it elsewhere", path: epa, page: 4,
			want: "the Comprehensive Environmental Response, Compensation, and Liability Act (CERCLA), or the Oil Pollution Act", section: "SOLID AND HAZARDOUS WASTES"},
		{name: "a word hyphenated before a slash at a line end is whole", path: epa, page: 5,
			want: "old transformers that contain PCBs) during your construction/demolition activity?", section: "PCB WASTES"},
		{name: "degree sign", path: pvwatts, page: 12, want: "installed nominal operating cell temperature (INOCT) of the module is 45 °C.", section: "9 Thermal Model"},
		{name: "all-caps heading", path: epa, page: 2, want: "Does your construction activity disturb one or more acres of land?", section: "STORM WATER RUNOFF"},
		{name: "two-line heading", path: epa, page: 2, want: "you need a permit under Section 404 of the CWA",
			section: "DREDGED AND FILL MATERIAL/WATERS OF THE UNITED STATES, INCLUDING WETLANDS"},
		{name: "question heading", path: epa, page: 1, want: "Depending on the regulation, a violation can result in a civil penalty up to $27,500 per day",
			section: "What Do You Need to Consider?"},
		{name: "EPA section carries over", path: epa, page: 3, want: "Generators of hazardous wastes.", section: "SOLID AND HAZARDOUS WASTES"},
		{name: "scenario table", path: iea, page: 1, want: "Scenarios", section: "Scenarios"},
		{name: "scenario on the next page", path: iea, page: 2, want: "7 | Ref-B", section: "Scenarios"},
		{name: "a header of labels on two lines is one line", path: iea, page: 1,
			want: "Scenario number | Scenario name | GCR* | Albedo | Hub Height | Configuration | Ground surface\n" +
				"1 | Ref-A | 0.4 | 0.2 | 1.5 m | 1-Up portrait | Horizontal", section: "Scenarios"},
		{name: "a table goes on at the top of the next page, wrapped cells joined", path: iea, page: 2,
			want: "6 | A5 | 0.4 | 0.2 | 1.5 m | 1-Up portrait | 10% grade* down to the SW", section: "Scenarios"},
		{name: "figure caption", path: iea, page: 3, want: "Gap between modules along the row is 2 mm", section: "Figure 2. Field layout for 1P Trackers"},
		{name: "second title of the note", path: pvlibNote, page: 4, want: "the visible ground is the arc counterclockwise",
			section: "Determining the average view factor from a module to the visible ground"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustParsePDF(t, tt.path)
			b, ok := blockWith(p, tt.page, tt.want)
			if !ok {
				t.Fatalf("page %d has no %q; page text:\n%s", tt.page, tt.want, pageText(p, tt.page))
			}
			if b.Section != tt.section {
				t.Errorf("Section = %q, want %q", b.Section, tt.section)
			}
		})
	}
}

func TestPDFLigaturesUnfolded(t *testing.T) {
	tests := []struct {
		name string
		path string
		page int
		want string
	}{
		{name: "ffi in the PVWatts manual", path: pvwatts, page: 7, want: "Temperature coefficient"},
		{name: "ff in the PVWatts manual", path: pvwatts, page: 7, want: "Assumptions for different module types"},
		{name: "fi glyph of a Type 1 font", path: fixtureDir + "layout.pdf", page: 1, want: "a warning tape is specified 300 mm above the cables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(mustParsePDF(t, tt.path), tt.page); !strings.Contains(got, tt.want) {
				t.Errorf("page %d lacks %q:\n%s", tt.page, tt.want, got)
			}
		})
	}
}

// TestPDFSections pins the complete list of sections found in the sample
// documents, so a heading rule that grows greedy (a table row, a list item,
// an emphasised sentence or a title-page line taken for a heading) fails.
func TestPDFSections(t *testing.T) {
	tests := []struct {
		name string
		path string
		want []string
	}{
		{name: "PVWatts manual", path: pvwatts, want: []string{
			"NOTICE", "Abstract", "1 Introduction and History", "Table 1. Version History",
			"2 Overview of Changes in Version 5", "3 Model Inputs", "Table 2. Input Parameters",
			"Table 3. Assumptions for different module types", "4 Solar Resource", "Table 4. Header Information",
			"Table 5. Hourly Input Data Fields", "5 Sun Position", "6 Tracking", "7 Plane-of-Array Irradiance",
			"8 Module Cover", "Figure 1. Diagram of two slab model",
			"Figure 2. Two slab model angular response compared with single slab model",
			"Figure 3. Two slab model angular response compared with single slab model - normalized",
			"9 Thermal Model", "10 Module Model", "11 System Losses", "Table 6. System Losses", "12 Inverter Model",
			"Figure 4. Inverter part-load efficiency curve", "Table 7. Hourly Calculated Outputs", "13 Model Outputs",
			"14 Comparison with Version 1 Results", "15 Comparison with Measured Data", "16 Summary",
			"Figure 5. Comparision of PVWatts V1 and V5 AC energy prediction vs measured",
			"Figure 6. Hourly PVWatts V1 and V5 predictions vs measured", "References",
			"Table 8. Comparison with PVWatts V1 for selected TMY2 locations",
		}},
		{name: "EPA construction requirements", path: epa, want: []string{
			"Federal Environmental Requirements for Construction", "What Do You Need to Consider?",
			"STORM WATER RUNOFF", "DREDGED AND FILL MATERIAL/WATERS OF THE UNITED STATES, INCLUDING WETLANDS",
			"SOLID AND HAZARDOUS WASTES", "SPILL REPORTING", "HAZARDOUS SUBSTANCES (Superfund Liability)",
			"PCB WASTES", "AIR QUALITY", "ASBESTOS", "NATIONAL ENVIRONMENTAL POLICY ACT (NEPA)",
			"THREATENED OR ENDANGERED SPECIES", "HISTORIC PROPERTIES", "OTHER CONSIDERATIONS", "COMPLIANCE RESOURCES",
		}},
		{name: "IEA bifacial scenarios", path: iea, want: []string{
			"PV Simulation Study of Bifacial Photovoltaic Systems on Single Axis Trackers", "Introduction", "Schedule",
			"Modeling Exercise Instructions", "Scenarios", "Figure 1. IP Tracker dimensions",
			"Figure 2. Field layout for 1P Trackers", "Figure 3. 2P Tracker dimensions", "Figure 4. Field layout for 2P Trackers",
		}},
		{name: "pvlib view factor note", path: pvlibNote, want: []string{
			"Determining the average view factor from a module to the visible sky",
			"Determining the average view factor from a module to the visible ground",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sections(mustParsePDF(t, tt.path))
			if !slices.Equal(got, tt.want) {
				t.Errorf("sections differ\ngot:  %q\nwant: %q", got, tt.want)
			}
		})
	}
}

// TestPDFLayoutFixture checks reading order and structure on a synthetic
// file (see testdata/pdf/README.md): a section number set apart from its
// title, a table with a row that starts with a number, a two-column page
// whose content stream interleaves the columns line by line, page numbers,
// a running footer, and a page shown rotated by 90 degrees.
func TestPDFLayoutFixture(t *testing.T) {
	const footer = "Project Sunfield - Cable Trench Specification"
	tests := []struct {
		name string
		want Block
	}{
		{name: "title", want: Block{Page: 1, Section: "Cable Trench Specification", Text: "Cable Trench Specification"}},
		{name: "section number apart from its title, ligature, hyphenation", want: Block{Page: 1, Section: "1 General", Text: "1 General\n" +
			"This specification covers the excavation, bedding and backfill of trenches for low voltage DC and AC cables on the solar farm. " +
			"The minimum cover to DC cables shall be 800 mm from finished ground level, and a warning tape is specified 300 mm above the cables. " +
			"All excavation work shall follow the approved method statement."}},
		{name: "table rows, one starting with a number", want: Block{Page: 1, Section: "Table 1. Minimum cover by cable type", Text: "Table 1. Minimum cover by cable type\n" +
			"Cable type | Cover (mm) | Tape (mm)\nDC string cable | 800 | 300\nAC LV cable | 900 | 300\n1 | 0.5 | 0.3\nEarthing conductor | 600 | -"}},
		{name: "prose after the table, footer kept, page number dropped", want: Block{Page: 1, Section: "1 General",
			Text: "Backfill shall be placed in layers not exceeding 150 mm and compacted to 95 % of the maximum dry density.\n" + footer}},
		{name: "two columns read one after the other", want: Block{Page: 2, Section: "2 Site Preparation", Text: "2 Site Preparation\n" +
			"Topsoil shall be stripped to a depth of 150 mm over the whole cable route and stockpiled on the high side of the trench away from drainage lines and access roads. " +
			"Stockpiles shall not exceed two metres in height and shall be protected from erosion until the topsoil is spread again.\n" +
			"Surface water shall be kept out of open trenches at all times by temporary bunds and pumps sized for the expected inflow. " +
			"Water pumped from trenches shall pass a sediment trap before it leaves the site and no water shall be discharged into the stormwater system without permission.\n" +
			"Both columns above describe work that comes before any trench excavation on the site.\n" + footer}},
		{name: "rotated page", want: Block{Page: 3, Section: "3 Drainage Schedule", Text: "3 Drainage Schedule\n" +
			"Cross drains shall be laid at every low point of the cable route with a fall of at least 1 in 100. " +
			"The contractor shall record the invert level of every drain on the as-built drawings."}},
		{name: "body-style numbered heading", want: Block{Page: 3, Section: "3.1 Outfall Details", Text: "3.1 Outfall Details\n" +
			"Each outfall shall have a rock apron of at least 1.5 m by 1.0 m to prevent scour.\n" + footer}},
	}
	p := mustParsePDF(t, fixtureDir+"layout.pdf")
	if p.Pages != 3 {
		t.Errorf("Pages = %d, want 3", p.Pages)
	}
	if len(p.Blocks) != len(tests) {
		t.Fatalf("got %d blocks, want %d: %#v", len(p.Blocks), len(tests), p.Blocks)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p.Blocks[i] != tt.want {
				t.Errorf("block %d:\ngot  %#v\nwant %#v", i, p.Blocks[i], tt.want)
			}
		})
	}
}

func TestPDFErrors(t *testing.T) {
	tests := []struct {
		name string
		path string
		want error
	}{
		{name: "corrupt object graph", path: fixtureDir + "corrupt.pdf", want: ErrCorrupt},
		{name: "truncated download", path: fixtureDir + "truncated.pdf", want: ErrCorrupt},
		{name: "zero bytes", path: fixtureDir + "empty.pdf", want: ErrEmptyFile},
		{name: "password protected", path: fixtureDir + "encrypted.pdf", want: ErrEncrypted},
		{name: "text file named .pdf", path: fixtureDir + "notpdf.pdf", want: ErrCorrupt},
		{name: "scanned image only", path: fixtureDir + "scanned.pdf", want: ErrNoText},
		{name: "missing file", path: fixtureDir + "does-not-exist.pdf", want: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := sharedPDF(t).Parse(context.Background(), tt.path)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse error = %v, want %v", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "ingest: parse "+filepath.Base(tt.path)) {
				t.Errorf("error %q does not name the package and file", err)
			}
			if len(p.Blocks) != 0 {
				t.Errorf("got %d blocks with an error", len(p.Blocks))
			}
		})
	}
}

// countdownContext reports cancellation after its Err has been asked a
// number of times, so a test can cancel in the middle of a document
// without timing.
type countdownContext struct {
	context.Context
	mu   sync.Mutex
	left int
}

func (c *countdownContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

func TestPDFCancellation(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
	}{
		{name: "cancelled before the start", ctx: cancelled},
		{name: "cancelled between pages", ctx: &countdownContext{Context: context.Background(), left: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := sharedPDF(t).Parse(tt.ctx, pvwatts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Parse error = %v, want context.Canceled", err)
			}
			if len(p.Blocks) != 0 {
				t.Errorf("got %d blocks after cancellation", len(p.Blocks))
			}
		})
	}
}

func TestPDFConcurrentParse(t *testing.T) {
	files := []string{iea, fixtureDir + "layout.pdf", epa, pvlibNote}
	want := make([]Parsed, len(files))
	for i, f := range files {
		want[i] = mustParsePDF(t, f)
	}
	const rounds = 2
	got := make([]Parsed, len(files)*rounds)
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			got[i], errs[i] = sharedPDF(t).Parse(context.Background(), files[i%len(files)])
		})
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("%s: %v", files[i%len(files)], errs[i])
		}
		if !slices.Equal(got[i].Blocks, want[i%len(files)].Blocks) {
			t.Errorf("%s: concurrent parse differs from a sequential one", files[i%len(files)])
		}
	}
}

func TestPDFCompilationCacheAndClose(t *testing.T) {
	dir := testCacheDir()
	for _, run := range []string{"first", "second"} {
		t.Run(run, func(t *testing.T) {
			p := NewPDF(dir, nil)
			got, err := p.Parse(context.Background(), fixtureDir+"layout.pdf")
			if err != nil {
				t.Fatal(err)
			}
			if got.Pages != 3 {
				t.Errorf("Pages = %d, want 3", got.Pages)
			}
			if err := p.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			if err := p.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			if _, err := p.Parse(context.Background(), fixtureDir+"layout.pdf"); !errors.Is(err, errPDFClosed) {
				t.Errorf("Parse after Close = %v, want errPDFClosed", err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) == 0 {
				t.Errorf("compilation cache %s is empty (%v)", dir, err)
			}
		})
	}
}

func TestKeepHyphen(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          bool
	}{
		{name: "hyphenated word", before: "manufac", after: "tured", want: false},
		{name: "compound continuing with a hyphen", before: "row", after: "to-row", want: true},
		{name: "contract number", before: "DE", after: "AC36", want: true},
		{name: "telephone number", before: "303", after: "275", want: true},
		{name: "URL path", before: "www.epa.gov/epaoswer/non", after: "hw/debris", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keepHyphen(tt.before, tt.after); got != tt.want {
				t.Errorf("keepHyphen(%q, %q) = %v, want %v", tt.before, tt.after, got, tt.want)
			}
		})
	}
}

func TestIsPageNumber(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "bare number", in: "12", want: true},
		{name: "dashes", in: "- 12 -", want: true},
		{name: "page of pages", in: "Page 3 of 20", want: true},
		{name: "letter-spaced", in: "P a g e 2", want: true},
		{name: "roman", in: "iv", want: true},
		{name: "table row", in: "1 0.5 0.3", want: false},
		{name: "sentence", in: "See page 4 for details", want: false},
		{name: "decimal", in: "0.95", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isPageNumber(tt.in); got != tt.want {
				t.Errorf("isPageNumber(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestHeadingShape(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{name: "numbered title", in: "3.2 Shading Losses", want: true},
		{name: "numbered with period", in: "1. Introduction", want: true},
		{name: "capitals", in: "GENERAL NOTES", want: true},
		{name: "question", in: "What Do You Need to Consider?", want: true},
		{name: "table row of numbers", in: "1 0.5 0.3", want: false},
		{name: "numbered list item", in: "2. Option to specify a DC-to-AC nameplate sizing ratio", want: false},
		{name: "numbered values", in: "4 Standard 0.96 fixed", want: false},
		{name: "one capital word", in: "NOTES", want: false},
		{name: "plain sentence", in: "The trench shall be backfilled", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := headingShaped(tt.in) && validHeading(tt.in, 1, len(strings.Fields(tt.in)))
			if got != tt.want {
				t.Errorf("heading shape of %q = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestCaptionSection(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "table", in: "Table 2. Input Parameters", want: "Table 2. Input Parameters"},
		{name: "colon", in: "Figure 3: Trench section A-A", want: "Figure 3: Trench section A-A"},
		{name: "long caption keeps its first sentence",
			in:   "Figure 2. Field layout for 1P Trackers. Front and rear irradiance is calculated for green modules. Gap between modules along the row",
			want: "Figure 2. Field layout for 1P Trackers"},
		{name: "reference, not a caption", in: "Table 3 lists the module types", want: ""},
		{name: "lower-case word after the number", in: "Figure 2 and Figure 4 shows these in green", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := []docLine{{line: line{cells: [][]word{wordsOf(tt.in)}, size: 10, x1: 400}, page: 1}}
			markCaptions(lines)
			if lines[0].section != tt.want {
				t.Errorf("caption section of %q = %q, want %q", tt.in, lines[0].section, tt.want)
			}
		})
	}
}

func wordsOf(s string) []word {
	var ws []word
	for i, f := range strings.Fields(s) {
		ws = append(ws, word{text: f, x0: float64(i * 30), x1: float64(i*30 + 25), top: 0, bottom: 10})
	}
	return ws
}

func TestCleanPDFText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "ring operator before C", in: "-0.47 %/◦C", want: "-0.47 %/°C"},
		{name: "ring operator with space", in: "45 ◦C", want: "45 °C"},
		{name: "after a number", in: "180◦ in northern", want: "180° in northern"},
		{name: "private use glyphs dropped", in: "cos(\uf061 + \uf062)", want: "cos( + )"},
		{name: "bullet left alone", in: "◦ item", want: "◦ item"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cleanPDFText(tt.in); got != tt.want {
				t.Errorf("cleanPDFText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBoldFontName(t *testing.T) {
	tests := []struct {
		name string
		font string
		want bool
	}{
		{name: "subset bold", font: "AAAAAC+Calibri-Bold", want: true},
		{name: "TeX bold extended", font: "EUNOPF+CMBX12", want: true},
		{name: "abbreviated heavy", font: "LMNHKD+BlockT-Heav", want: true},
		{name: "demi", font: "LMNIAD+NewsGotT-Demi", want: true},
		{name: "regular", font: "BCDFEE+Calibri", want: false},
		{name: "TeX roman", font: "CAEVEO+CMR10", want: false},
		{name: "medium", font: "LNDOMP+NewsGotT-Medi", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := boldFontName(tt.font); got != tt.want {
				t.Errorf("boldFontName(%q) = %v, want %v", tt.font, got, tt.want)
			}
		})
	}
}

// FuzzPDFParse feeds damaged documents to PDFium: whatever the bytes, Parse
// returns blocks or an error, never a panic.
func FuzzPDFParse(f *testing.F) {
	for _, name := range []string{"layout.pdf", "corrupt.pdf", "truncated.pdf", "scanned.pdf"} {
		data, err := os.ReadFile(fixtureDir + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	layout, err := os.ReadFile(fixtureDir + "layout.pdf")
	if err != nil {
		f.Fatal(err)
	}
	for _, at := range []int{20, len(layout) / 3, len(layout) / 2, len(layout) - 40} {
		damaged := slices.Clone(layout)
		copy(damaged[at:], "\x00\xff garbage )>> endobj")
		f.Add(damaged)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.pdf")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := sharedPDF(t).Parse(context.Background(), path)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNoText) && !errors.Is(err, ErrEmptyFile) && !errors.Is(err, ErrEncrypted) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		for _, b := range p.Blocks {
			if b.Page < 1 || b.Page > p.Pages {
				t.Fatalf("block on page %d of %d", b.Page, p.Pages)
			}
		}
	})
}

func BenchmarkPDFParse(b *testing.B) {
	p := sharedPDF(b)
	ctx := context.Background()
	// The first parse starts PDFium; it is start-up, not parsing.
	if _, err := p.Parse(ctx, pvwatts); err != nil {
		b.Fatal(err)
	}
	pages := 0
	for b.Loop() {
		got, err := p.Parse(ctx, pvwatts)
		if err != nil {
			b.Fatal(err)
		}
		pages += got.Pages
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(pages), "ms/page")
}
