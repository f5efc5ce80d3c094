package ingest

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cewhq/cew/store/analysis"
	"github.com/klippa-app/go-pdfium"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
)

// PDF extracts text per physical page. It is safe for concurrent use and
// starts the PDFium runtime on first use (not at construction).
//
// PDFium runs as WebAssembly inside wazero, so the binary needs no cgo and no
// system library. Compiling the module takes about two seconds; with a cache
// directory the compiled code is kept on disk and later starts take tens of
// milliseconds.
type PDF struct {
	cacheDir string
	logger   *slog.Logger
	workers  int

	// inUse is held for reading by every Parse and for writing by Close,
	// so Close waits for parses in flight instead of failing them.
	inUse sync.RWMutex

	mu     sync.Mutex
	pool   pdfium.Pool
	cache  wazero.CompilationCache
	closed bool
	// onCompile hears when PDFium is compiled into an empty cache (the
	// first run) and when that is done; see OnFirstCompile.
	onCompile func(done bool, took time.Duration)
}

// OnFirstCompile sets fn to hear when PDFium is compiled into an empty
// compilation cache — the one slow start, before any PDF of a fresh data
// directory is read — (done false) and when it is ready (done true, with
// how long it took), so a command can say why it pauses. Call it before
// the first Parse.
func (p *PDF) OnFirstCompile(fn func(done bool, took time.Duration)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onCompile = fn
}

// errPDFClosed is returned by Parse after Close.
var errPDFClosed = errors.New("ingest: PDF parser is closed")

// maxPDFWorkers bounds the PDFium instances (each has its own WebAssembly
// memory, tens of megabytes once a large page has been loaded), and
// pdfMemoryLimitPages caps that memory at 1 GiB (64 KiB pages) so a hostile
// file fails to allocate instead of exhausting the host.
const (
	maxPDFWorkers       = 4
	pdfMemoryLimitPages = 16384
)

// NewPDF returns a PDF parser. cacheDir is where wazero keeps the compiled
// PDFium module between runs ("" compiles it in memory on every start).
func NewPDF(cacheDir string, logger *slog.Logger) *PDF {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &PDF{
		cacheDir: cacheDir,
		logger:   logger,
		workers:  max(1, min(runtime.GOMAXPROCS(0), maxPDFWorkers)),
	}
}

// Close waits for parses in flight and stops the PDFium runtime. Parse
// fails afterwards.
func (p *PDF) Close() error {
	p.inUse.Lock()
	defer p.inUse.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	var errs []error
	if p.pool != nil {
		if err := p.pool.Close(); err != nil {
			errs = append(errs, fmt.Errorf("ingest: close pdfium: %w", err))
		}
		p.pool = nil
	}
	if p.cache != nil {
		if err := p.cache.Close(context.Background()); err != nil {
			errs = append(errs, fmt.Errorf("ingest: close compilation cache: %w", err))
		}
		p.cache = nil
	}
	return errors.Join(errs...)
}

// start initialises the PDFium pool once. A failed start is not remembered,
// so a later call may succeed (a cache directory that became writable, say).
func (p *PDF) start() (pdfium.Pool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errPDFClosed
	}
	if p.pool != nil {
		return p.pool, nil
	}
	began := time.Now()
	notify := p.onCompile
	if !firstCompile(p.cacheDir) {
		notify = nil // compiled on an earlier run: it loads in a fraction of a second
	}
	rc := wazero.NewRuntimeConfig().WithMemoryLimitPages(pdfMemoryLimitPages)
	if p.cacheDir != "" {
		// The cache only saves start-up time, so a directory that cannot be
		// used is logged and PDFium is compiled in memory instead.
		if err := os.MkdirAll(p.cacheDir, 0o755); err != nil {
			p.logger.Warn("pdf compilation cache unavailable", "dir", p.cacheDir, "err", err)
		} else if c, err := wazero.NewCompilationCacheWithDir(p.cacheDir); err != nil {
			p.logger.Warn("pdf compilation cache unavailable", "dir", p.cacheDir, "err", err)
		} else {
			p.cache = c
			rc = rc.WithCompilationCache(c)
		}
	}
	if notify != nil {
		notify(false, 0)
	}
	out := &logWriter{logger: p.logger}
	pool, err := webassembly.Init(webassembly.Config{
		MinIdle:       1,
		MaxIdle:       p.workers,
		MaxTotal:      p.workers,
		ReuseWorkers:  true,
		RuntimeConfig: rc,
		// No directory is mounted: documents are handed over as bytes, so
		// the module needs no file system access.
		FSConfig: wazero.NewFSConfig(),
		Stdout:   out,
		Stderr:   out,
	})
	if err != nil {
		if p.cache != nil {
			_ = p.cache.Close(context.Background())
			p.cache = nil
		}
		return nil, fmt.Errorf("ingest: start pdfium: %w", err)
	}
	p.pool = pool
	if notify != nil {
		notify(true, time.Since(began))
	}
	p.logger.Debug("pdfium started", "took", time.Since(began), "cached", p.cache != nil, "workers", p.workers)
	return pool, nil
}

// firstCompile reports whether starting PDFium with the compilation cache
// in dir compiles it: the cache is missing or empty. Without a cache dir
// every start compiles, and none is the one-off first run.
func firstCompile(dir string) bool {
	if dir == "" {
		return false
	}
	entries, err := os.ReadDir(dir)
	return errors.Is(err, fs.ErrNotExist) || err == nil && len(entries) == 0
}

// logWriter sends PDFium's stdout and stderr to the logger at debug level
// instead of the user's terminal.
type logWriter struct{ logger *slog.Logger }

func (w *logWriter) Write(b []byte) (int, error) {
	if s := strings.TrimSpace(string(b)); s != "" {
		w.logger.Debug("pdfium output", "text", s)
	}
	return len(b), nil
}

// Parse extracts the text of every page of the PDF at path, split into
// Blocks at section headings.
func (p *PDF) Parse(ctx context.Context, path string) (Parsed, error) {
	name := filepath.Base(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	if len(data) == 0 {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, ErrEmptyFile)
	}
	// The header must sit in the first 1024 bytes (PDF 32000-1, 7.5.2);
	// checking it first keeps arbitrary files away from PDFium.
	if !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w: no PDF header", name, ErrCorrupt)
	}
	// PDFium rebuilds a damaged cross-reference table and then reads
	// whatever pages survived, so a cut-off download would be indexed
	// without its end, and with a wrong page count. The end-of-file marker
	// (PDF 32000-1, 7.5.5) tells a truncated file apart.
	if !bytes.Contains(data[max(0, len(data)-eofWindow):], []byte("%%EOF")) {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w: truncated (no %%%%EOF marker at the end)", name, ErrCorrupt)
	}
	if err := ctx.Err(); err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	p.inUse.RLock()
	defer p.inUse.RUnlock()
	pool, err := p.start()
	if err != nil {
		return Parsed{}, err
	}
	inst, err := pool.GetInstanceWithContext(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, ctx.Err())
		}
		return Parsed{}, fmt.Errorf("ingest: parse %s: pdfium instance: %w", name, err)
	}
	pages, err := extractPages(ctx, inst, data)
	if errors.Is(err, errPDFiumPanic) {
		// A worker that panicked may hold a broken heap; never reuse it.
		_ = inst.Kill()
	} else {
		_ = inst.Close()
	}
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	parsed, err := p.layout(pages)
	if err != nil {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
	}
	if len(parsed.Blocks) == 0 {
		return Parsed{}, fmt.Errorf("ingest: parse %s: %w (%d pages, possibly scanned images)", name, ErrNoText, parsed.Pages)
	}
	lim := budgetFrom(ctx)
	for _, b := range parsed.Blocks {
		if err := lim.block(b.Text); err != nil {
			return Parsed{}, fmt.Errorf("ingest: parse %s: %w", name, err)
		}
	}
	return parsed, nil
}

// layout runs the document-level pass. It must not panic on any input; if
// a file still finds a way, the file is reported corrupt and the batch, or
// the server, goes on.
func (p *PDF) layout(pages []pageLayout) (parsed Parsed, err error) {
	defer func() {
		if r := recover(); r != nil {
			p.logger.Error("pdf layout panicked", "panic", r, "stack", string(debug.Stack()))
			parsed, err = Parsed{}, fmt.Errorf("%w: layout failed: %v", ErrCorrupt, r)
		}
	}()
	return buildBlocks(pages), nil
}

// eofWindow is how far from the end of a file its %%EOF marker is looked
// for: some writers append a little padding after it.
const eofWindow = 2048

// errPDFiumPanic marks a panic inside the PDFium binding, turned into an
// error so bad input never takes the process down.
var errPDFiumPanic = errors.New("pdfium panicked")

// extractPages opens the document and lays out every page. Errors are
// wrapped with ErrEncrypted, ErrCorrupt or the context's error.
func extractPages(ctx context.Context, inst pdfium.Pdfium, data []byte) (pages []pageLayout, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = nil, fmt.Errorf("%w: %w: %v", ErrCorrupt, errPDFiumPanic, r)
		}
	}()
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		switch {
		case errors.Is(err, pdfiumerrors.ErrPassword):
			return nil, fmt.Errorf("%w: it needs a password to open", ErrEncrypted)
		case errors.Is(err, pdfiumerrors.ErrSecurity):
			return nil, fmt.Errorf("%w: unsupported security handler", ErrEncrypted)
		default:
			return nil, fmt.Errorf("%w: pdfium: %v", ErrCorrupt, err)
		}
	}
	defer func() {
		_, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	}()
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc.Document})
	if err != nil {
		return nil, fmt.Errorf("%w: page count: %v", ErrCorrupt, err)
	}
	if count.PageCount <= 0 {
		return nil, fmt.Errorf("%w: the document has no pages", ErrCorrupt)
	}
	lim := budgetFrom(ctx)
	if lim != nil && lim.lim.MaxPages > 0 && count.PageCount > lim.lim.MaxPages {
		return nil, fmt.Errorf("%w: %s pages, the limit is %s (CEW_MAX_INGEST_MB)", ErrLimit,
			withCommas(int64(count.PageCount)), withCommas(int64(lim.lim.MaxPages)))
	}
	pages = make([]pageLayout, 0, count.PageCount)
	words := 0
	for i := range count.PageCount {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pg, err := extractPage(inst, doc.Document, i)
		if err != nil {
			// A damaged page is reported (Parsed.Unreadable) and the
			// others are still read.
			pg = pageLayout{number: i + 1, failed: err}
		}
		// Every page's words are kept for the document-level pass:
		// bound them.
		for _, l := range pg.lines {
			for _, c := range l.cells {
				words += len(c)
			}
		}
		if lim != nil && lim.lim.MaxPDFWords > 0 && words > lim.lim.MaxPDFWords {
			return nil, fmt.Errorf("%w: more than %s words by page %d (CEW_MAX_INGEST_MB)", ErrLimit,
				withCommas(int64(lim.lim.MaxPDFWords)), i+1)
		}
		pages = append(pages, pg)
	}
	return pages, nil
}

// word is a run of characters between whitespace, in display coordinates:
// points, origin at the top-left corner of the page as a viewer shows it,
// y growing downwards.
type word struct {
	text                string
	x0, x1, top, bottom float64
	// first is the index of the word's first character on the text page.
	first int
	// hyphen marks a word hyphenated at the end of its line.
	hyphen bool
	// vertical marks rotated text, whose box runs down the page.
	vertical bool
}

func (w word) height() float64  { return w.bottom - w.top }
func (w word) centerY() float64 { return (w.top + w.bottom) / 2 }

// affine maps user space to display space.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

// Soft-hyphen markers PDFium puts where a word was hyphenated at a line
// end: U+0002 from FPDFText_GetUnicode, U+FFFE from FPDFText_GetText.
const (
	hyphenMarkUnicode = '\u0002'
	hyphenMarkText    = '\ufffe'
)

// pageToDeviceScale is the device resolution (units per point) used to read
// the page's display matrix: PDFium returns whole device units, so a finer
// grid keeps the matrix precise.
const pageToDeviceScale = 16

// extractPage reads the words of one page with their positions and lays
// them out into lines.
func extractPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, index int) (pageLayout, error) {
	pg, err := inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: index})
	if err != nil {
		return pageLayout{}, err
	}
	defer func() { _, _ = inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: pg.Page}) }()
	page := requests.Page{ByReference: &pg.Page}
	w, err := inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: page})
	if err != nil {
		return pageLayout{}, err
	}
	h, err := inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: page})
	if err != nil {
		return pageLayout{}, err
	}
	width, height := float64(w.PageWidth), float64(h.PageHeight)
	m, err := displayMatrix(inst, page, width, height)
	if err != nil {
		return pageLayout{}, err
	}
	tp, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return pageLayout{}, err
	}
	defer func() { _, _ = inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage}) }()
	words, err := pageWords(inst, tp.TextPage, m)
	if err != nil {
		return pageLayout{}, err
	}
	layout := layoutPage(index+1, width, height, words)
	if err := styleLines(inst, tp.TextPage, layout.lines); err != nil {
		return pageLayout{}, err
	}
	return layout, nil
}

// displayMatrix derives the user-space-to-display transform from three
// points, so page rotation and crop box offsets are handled by PDFium.
func displayMatrix(inst pdfium.Pdfium, page requests.Page, width, height float64) (affine, error) {
	sx, sy := int(math.Ceil(width*pageToDeviceScale)), int(math.Ceil(height*pageToDeviceScale))
	if sx <= 0 || sy <= 0 {
		return affine{}, fmt.Errorf("page size %.0fx%.0f", width, height)
	}
	const span = 1000.0
	pt := func(x, y float64) (float64, float64, error) {
		r, err := inst.FPDF_PageToDevice(&requests.FPDF_PageToDevice{Page: page, SizeX: sx, SizeY: sy, PageX: x, PageY: y})
		if err != nil {
			return 0, 0, err
		}
		return float64(r.DeviceX) / pageToDeviceScale, float64(r.DeviceY) / pageToDeviceScale, nil
	}
	ox, oy, err := pt(0, 0)
	if err != nil {
		return affine{}, err
	}
	xx, xy, err := pt(span, 0)
	if err != nil {
		return affine{}, err
	}
	yx, yy, err := pt(0, span)
	if err != nil {
		return affine{}, err
	}
	return affine{a: (xx - ox) / span, b: (xy - oy) / span, c: (yx - ox) / span, d: (yy - oy) / span, e: ox, f: oy}, nil
}

// pageWords splits the page text into whitespace-separated runs and looks
// up the boxes of each run's first and last character only: a box for
// every character more than doubles the cost of a page.
func pageWords(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, m affine) ([]word, error) {
	n, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp})
	if err != nil {
		return nil, err
	}
	if n.Count <= 0 {
		return nil, nil
	}
	t, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp, StartIndex: 0, Count: n.Count})
	if err != nil {
		return nil, err
	}
	runes := []rune(t.Text)
	if len(runes) != n.Count {
		// GetText and the character list disagree (characters PDFium
		// cannot encode as UTF-16); read the list one by one instead.
		runes = make([]rune, n.Count)
		for i := range runes {
			u, err := inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: tp, Index: i})
			if err != nil {
				return nil, err
			}
			runes[i] = rune(u.Unicode)
		}
	}
	box := func(i int) (x0, top, x1, bottom float64, ok bool) {
		r, err := inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: tp, Index: i})
		if err != nil {
			return 0, 0, 0, 0, false
		}
		ax, ay := m.apply(float64(r.Rect.Left), float64(r.Rect.Top))
		bx, by := m.apply(float64(r.Rect.Right), float64(r.Rect.Bottom))
		return math.Min(ax, bx), math.Min(ay, by), math.Max(ax, bx), math.Max(ay, by), true
	}
	var words []word
	emit := func(start, end int, hyphen bool) {
		text := string(runes[start:end])
		if !hasVisibleText(text) {
			return
		}
		x0, top, x1, bottom, ok := box(start)
		if !ok {
			return
		}
		w := word{text: text, x0: x0, x1: x1, top: top, bottom: bottom, first: start, hyphen: hyphen}
		if end-1 > start {
			if lx0, ltop, lx1, lbottom, ok := box(end - 1); ok {
				if overlap(top, bottom, ltop, lbottom) < 0.5*math.Min(bottom-top, lbottom-ltop) && lx0 < x1 {
					// The run goes down rather than across: rotated
					// text, as in figure axes and turned table headers.
					w.vertical = true
				}
				w.x0, w.x1 = math.Min(x0, lx0), math.Max(x1, lx1)
				switch {
				case w.vertical:
					w.top, w.bottom = math.Min(top, ltop), math.Max(bottom, lbottom)
				case bottom-top > dropCapRatio*(lbottom-ltop):
					// A drop cap spans several lines; the word sits on
					// the line of its last character.
					w.top, w.bottom = ltop, lbottom
				}
				// Otherwise the first character's band stands, so a
				// trailing sub- or superscript does not widen the line.
			}
		}
		words = append(words, w)
	}
	start := -1
	for i, r := range runes {
		switch {
		case r == hyphenMarkText || r == hyphenMarkUnicode:
			// A hyphenated line end: PDFium may not put a line break
			// after it, so end the run here and remember to join.
			if start >= 0 {
				emit(start, i, true)
			}
			start = -1
		case unicode.IsSpace(r) || r == 0:
			if start >= 0 {
				emit(start, i, false)
			}
			start = -1
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		emit(start, len(runes), false)
	}
	return words, nil
}

// hasVisibleText reports whether s has a character worth indexing. Private
// use code points are glyphs of symbol fonts (equation pieces) with no
// standard meaning and are not counted.
func hasVisibleText(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && !unicode.IsControl(r) && !isPrivateUse(r) && r != utf8.RuneError {
			return true
		}
	}
	return false
}

func isPrivateUse(r rune) bool {
	return (r >= 0xE000 && r <= 0xF8FF) || r >= 0xF0000
}

func overlap(a0, a1, b0, b1 float64) float64 {
	return math.Max(0, math.Min(a1, b1)-math.Max(a0, b0))
}

// line is one visual line of text in reading order: a line of a paragraph,
// a heading, or a table row. Cells are runs of words separated by a gap too
// wide for a space between words.
type line struct {
	cells               [][]word
	top, bottom, x0, x1 float64
	// size is the median height of the line's word boxes, which stands in
	// for the font size (the nominal size PDFium reports ignores the text
	// matrix, so it is 1 in many generated files); the median keeps a
	// large bracket or a subscript from skewing it.
	size float64
	bold bool
	// vertical marks a line of rotated text (a figure axis label).
	vertical bool
	// column is 1 or 2 for a line of the left or right column of a
	// two-column stretch, 0 otherwise.
	column int
}

func (l *line) words() int {
	n := 0
	for _, c := range l.cells {
		n += len(c)
	}
	return n
}

// text joins the line's words: cells with sep, words within a cell with a
// space. A word hyphenated at a line end keeps a visible hyphen here;
// paragraph building joins it to the next line instead.
func (l *line) text(sep string) string {
	t, open := l.openText(sep)
	if open {
		t += "-"
	}
	return t
}

// openText is text without the hyphen of a hyphenated last word; open
// reports that the word continues on the next line.
func (l *line) openText(sep string) (t string, open bool) {
	var b strings.Builder
	for i, c := range l.cells {
		if i > 0 {
			b.WriteString(sep)
		}
		for j, w := range c {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.text)
			last := i == len(l.cells)-1 && j == len(c)-1
			if w.hyphen && !last {
				b.WriteByte('-')
			}
		}
	}
	lastCell := l.cells[len(l.cells)-1]
	return b.String(), lastCell[len(lastCell)-1].hyphen
}

// pageLayout is one page's lines in reading order.
type pageLayout struct {
	number        int
	width, height float64
	lines         []line
	// failed is why PDFium could not read the page; nil when it could.
	failed error
}

// Layout thresholds, as fractions of the line height (the loose box height,
// about 1.2 times the font size).
const (
	// lineOverlap is how much of the smaller of two boxes must overlap
	// vertically for them to share a line; sub- and superscripts overlap
	// more than half, the next line does not.
	lineOverlap = 0.5
	// cellGap is the horizontal gap that separates table cells (or a
	// section number from its title): justified text stretches word gaps
	// to about half the line height, table columns sit further apart.
	cellGap = 1.1
	// cellGapToWordGap is how many times wider than the line's usual word
	// gap (its lower quartile) a cell boundary must be.
	cellGapToWordGap = 2.5
	// minGapsForQuartile is how many word gaps a line needs before its
	// own spacing is trusted to judge a cell boundary.
	minGapsForQuartile = 4
	// dropCapRatio is how much taller than the rest of its word an initial
	// letter must be to count as a drop cap.
	dropCapRatio = 1.8
)

// layoutPage groups words into lines and orders the lines for reading.
func layoutPage(number int, width, height float64, words []word) pageLayout {
	page := pageLayout{number: number, width: width, height: height}
	var flat []word
	for _, w := range words {
		if w.vertical {
			page.lines = append(page.lines, newLine([]word{w}))
			continue
		}
		flat = append(flat, w)
	}
	slices.SortStableFunc(flat, func(a, b word) int {
		if c := cmp.Compare(a.centerY(), b.centerY()); c != 0 {
			return c
		}
		return cmp.Compare(a.x0, b.x0)
	})
	type band struct {
		top, bottom float64
		words       []word
	}
	var bands []*band
	for _, w := range flat {
		var best *band
		bestOv := 0.0
		// Words arrive sorted by centre, so only the last few bands can
		// still overlap this one.
		for i := len(bands) - 1; i >= 0 && i >= len(bands)-8; i-- {
			b := bands[i]
			ov := overlap(w.top, w.bottom, b.top, b.bottom) / math.Max(math.Min(w.height(), b.bottom-b.top), 0.01)
			if ov > bestOv {
				best, bestOv = b, ov
			}
		}
		if best == nil || bestOv < lineOverlap {
			bands = append(bands, &band{top: w.top, bottom: w.bottom, words: []word{w}})
			continue
		}
		best.words = append(best.words, w)
		if w.height() > best.bottom-best.top {
			best.top, best.bottom = w.top, w.bottom
		}
	}
	for _, b := range bands {
		page.lines = append(page.lines, newLine(b.words))
	}
	slices.SortStableFunc(page.lines, func(a, b line) int {
		return cmp.Compare(a.top+a.bottom, b.top+b.bottom)
	})
	page.lines = orderColumns(page.lines, width)
	return page
}

// Two-column detection.
const (
	// gutterLo and gutterHi bound where a column gutter may lie, as
	// fractions of the page width.
	gutterLo = 0.3
	gutterHi = 0.7
	// A column is at least minColumnLines lines whose median length is
	// minColumnWords words, and singleCellShare of them have no wide gap:
	// the columns of a table are short or gapped and stay row by row.
	minColumnLines  = 5
	minColumnWords  = 6
	singleCellShare = 0.8
)

// orderColumns reorders two-column stretches of a page: where the gutter
// near the middle separates running text on both sides, the left column is
// read before the right one. Lines that cross the gutter (titles, full-width
// paragraphs, wide tables) keep their place between such stretches.
func orderColumns(lines []line, width float64) []line {
	m, ok := gutter(lines, width)
	if !ok {
		return lines
	}
	out := make([]line, 0, len(lines))
	var band []line
	for _, l := range lines {
		if l.vertical || crosses(l, m) {
			out = append(out, splitBand(band, m)...)
			band = nil
			out = append(out, l)
			continue
		}
		band = append(band, l)
	}
	return append(out, splitBand(band, m)...)
}

// gutter returns the centre of the widest vertical strip in the middle of
// the page that the fewest words cross.
func gutter(lines []line, width float64) (float64, bool) {
	lo, hi := int(gutterLo*width), int(gutterHi*width)
	if hi <= lo {
		return 0, false
	}
	cover := make([]int, hi-lo+1)
	for _, l := range lines {
		if l.vertical {
			continue
		}
		for _, c := range l.cells {
			for _, w := range c {
				for x := max(lo, int(math.Floor(w.x0))); x <= min(hi, int(math.Ceil(w.x1))); x++ {
					cover[x-lo]++
				}
			}
		}
	}
	least := slices.Min(cover)
	bestStart, bestLen := 0, 0
	for i := 0; i < len(cover); {
		if cover[i] != least {
			i++
			continue
		}
		j := i
		for j < len(cover) && cover[j] == least {
			j++
		}
		if j-i > bestLen {
			bestStart, bestLen = i, j-i
		}
		i = j
	}
	return float64(lo+bestStart) + float64(bestLen)/2, true
}

// crosses reports a line that runs across the gutter at m: a word spans
// it, or words on both sides are no further apart than words of one line.
func crosses(l line, m float64) bool {
	leftEnd, rightStart := math.Inf(-1), math.Inf(1)
	for _, c := range l.cells {
		for _, w := range c {
			switch {
			case w.x0 < m && w.x1 > m:
				return true
			case w.x1 <= m:
				leftEnd = math.Max(leftEnd, w.x1)
			default:
				rightStart = math.Min(rightStart, w.x0)
			}
		}
	}
	return rightStart-leftEnd <= cellGap*l.size
}

// splitBand reads a stretch of lines none of which crosses the gutter at m
// as two columns, when both sides hold running text; otherwise it returns
// the lines as they are.
func splitBand(band []line, m float64) []line {
	var left, right []line
	for _, l := range band {
		var lw, rw []word
		for _, c := range l.cells {
			for _, w := range c {
				if w.x1 <= m {
					lw = append(lw, w)
				} else {
					rw = append(rw, w)
				}
			}
		}
		if len(lw) > 0 {
			left = append(left, newLine(lw))
		}
		if len(rw) > 0 {
			right = append(right, newLine(rw))
		}
	}
	if !columnText(left) || !columnText(right) {
		return band
	}
	for i := range left {
		left[i].column = 1
	}
	for i := range right {
		right[i].column = 2
	}
	return append(left, right...)
}

func columnText(ls []line) bool {
	if len(ls) < minColumnLines {
		return false
	}
	words := make([]int, len(ls))
	single := 0
	for i, l := range ls {
		words[i] = l.words()
		if len(l.cells) == 1 {
			single++
		}
	}
	slices.Sort(words)
	return words[len(words)/2] >= minColumnWords && float64(single) >= singleCellShare*float64(len(ls))
}

// newLine orders a line's words left to right and splits them into cells.
func newLine(ws []word) line {
	slices.SortStableFunc(ws, func(a, b word) int { return cmp.Compare(a.x0, b.x0) })
	l := line{top: ws[0].top, bottom: ws[0].bottom, x0: ws[0].x0, x1: ws[0].x1}
	heights := make([]float64, len(ws))
	for i, w := range ws {
		heights[i] = w.height()
		l.top, l.bottom = math.Min(l.top, w.top), math.Max(l.bottom, w.bottom)
		l.x0, l.x1 = math.Min(l.x0, w.x0), math.Max(l.x1, w.x1)
	}
	slices.Sort(heights)
	l.size = heights[len(heights)/2]
	if len(ws) == 1 && ws[0].vertical {
		l.vertical = true
		l.size = ws[0].x1 - ws[0].x0
	}
	wide := cellGap * l.size
	if len(ws) > minGapsForQuartile {
		// Justified lines stretch every gap alike, so a cell boundary must
		// also stand out against the line's own word spacing.
		gaps := make([]float64, 0, len(ws)-1)
		for i := 1; i < len(ws); i++ {
			gaps = append(gaps, ws[i].x0-ws[i-1].x1)
		}
		slices.Sort(gaps)
		wide = math.Max(wide, cellGapToWordGap*gaps[len(gaps)/4])
	}
	cell := []word{ws[0]}
	for _, w := range ws[1:] {
		prev := cell[len(cell)-1]
		if w.x0-prev.x1 > wide {
			l.cells = append(l.cells, cell)
			cell = nil
		}
		cell = append(cell, w)
	}
	l.cells = append(l.cells, cell)
	return l
}

// maxStyledWords bounds the lines whose font style is looked up: only short
// lines can be headings, and each lookup is a call into PDFium.
const maxStyledWords = 16

// styleLines marks lines set entirely in a bold face.
func styleLines(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, lines []line) error {
	for i := range lines {
		l := &lines[i]
		if l.words() > maxStyledWords {
			continue
		}
		bold, letters := true, false
		for _, c := range l.cells {
			for _, w := range c {
				if !hasLetter(w.text) {
					continue
				}
				letters = true
				b, err := isBold(inst, tp, w.first)
				if err != nil {
					return err
				}
				if !b {
					bold = false
				}
			}
		}
		l.bold = bold && letters
	}
	return nil
}

// isBold reads the weight and name of a character's font. Embedded subsets
// often carry no weight, so the name ("ABCDEF+Calibri-Bold") counts too.
func isBold(inst pdfium.Pdfium, tp references.FPDF_TEXTPAGE, index int) (bool, error) {
	if fw, err := inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: tp, Index: index}); err == nil && fw.FontWeight >= 600 {
		return true, nil
	}
	fi, err := inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: tp, Index: index})
	if err != nil {
		// No font (a generated character): not bold, not an error.
		return false, nil
	}
	const forceBold = 1 << 18 // PDF 32000-1, Table 123
	if fi.Flags&forceBold != 0 {
		return true, nil
	}
	return boldFontName(fi.FontName), nil
}

// boldFontName recognises bold faces by name, including TeX's "CMBX12"
// (Computer Modern bold extended) and abbreviations like "BlockT-Heav".
func boldFontName(name string) bool {
	if i := strings.IndexByte(name, '+'); i >= 0 {
		name = name[i+1:] // subset prefix
	}
	n := strings.ToLower(name)
	for _, s := range []string{"bold", "black", "heav", "demi", "semibd", "cmbx", "lmbx", ",bd", "-bd"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// lineKind is what a line is for block building.
type lineKind int

const (
	kindProse lineKind = iota
	kindTableRow
	kindHeading
	kindCaption
	// kindFurniture is a running header or footer: kept as text, never a
	// heading, never joined to a paragraph.
	kindFurniture
)

// docLine is a line with what the document-level pass learned about it.
type docLine struct {
	line
	page int
	kind lineKind
	// section is the heading text a heading or caption line opens.
	section string
	// lines is how many lines a heading spans; the following lines-1
	// lines are its continuation.
	lines int
}

// bodyStyle is the document's prevailing text style, against which
// headings stand out.
type bodyStyle struct {
	size float64
	bold bool
}

// Thresholds of the document-level pass.
const (
	// marginLines is how many lines at the top and bottom of a page are
	// looked at for page numbers and running headers and footers, and
	// marginZone how close to the page's top or bottom edge, as a fraction
	// of its height, a running header or footer sits.
	marginLines = 2
	marginZone  = 0.12
	// minRepeatPages is how many pages a margin line must recur on to be
	// taken for a running header or footer.
	minRepeatPages = 3
	// headingSize is how much larger than body text a line must be set to
	// stand out as a heading by size alone.
	headingSize = 1.15
	// sameSize bounds the size ratio of lines that share a style.
	sameSize = 1.1
	// paragraphGap is the largest gap between two lines of one paragraph,
	// as a fraction of the line height; more is a paragraph break.
	paragraphGap = 0.8
	// maxHeadingLines, maxHeadingWords and maxHeadingLineWords bound a
	// heading: longer runs are text set in a prominent face.
	maxHeadingLines     = 4
	maxHeadingWords     = 20
	maxHeadingLineWords = 12
	maxHeadingChars     = 150
	// maxSectionChars bounds a section name taken from a long caption.
	maxSectionChars = 100
	// minProseWords and minProseWidth make a line prose rather than a
	// table cell or a label: enough words, and most of the text width.
	minProseWords = 8
	minProseWidth = 0.6
)

var (
	pageNumberRE = regexp.MustCompile(`(?i)^(?:page|pg\.?|p\.)?[-–—]?(?:\d{1,4}|[ivx]{1,6})[-–—]?(?:(?:of|/)\d{1,4})?$`)
	captionRE    = regexp.MustCompile(`^(?:Table|TABLE|Figure|FIGURE|Fig\.|FIG\.|Exhibit|EXHIBIT|Chart|Diagram)\s+[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*[a-z]?(?:\s*[.:–—-])?(?:\s+(\S.*))?$`)
	numberedRE   = regexp.MustCompile(`^\d{1,2}(?:\.\d{1,2}){0,3}\.?\s+(\S.*)$`)
	sectionNoRE  = regexp.MustCompile(`^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z]\.(?:\d{1,2}\.?)*)$`)
	captionNoRE  = regexp.MustCompile(`^(?:Table|TABLE|Figure|FIGURE|Fig\.|FIG\.|Exhibit|EXHIBIT)\s+[A-Z]?\d{1,3}(?:[.\-]\d{1,3})*[.:]?$`)
)

// listMarkers open list items; a line starting with one is never a
// heading and always starts a new paragraph.
const listMarkers = "•▪■□◦●○‣⁃∙·–—-*➢➤►▶✓✔"

// buildBlocks turns laid-out pages into Blocks: one or more per page, split
// where a heading or caption opens a section.
func buildBlocks(pages []pageLayout) Parsed {
	lines := documentLines(pages)
	body := prevailingStyle(lines)
	markTables(lines)
	edges := proseEdges(lines)
	markHeadings(lines, body)
	markCaptions(lines)
	lines = joinWrappedRows(lines)
	return Parsed{Pages: len(pages), Blocks: assemble(lines, edges), Unreadable: unreadablePages(pages)}
}

// unreadablePages lists the pages PDFium could not read or that held no
// text: blank, scanned, or damaged (a corrupted content stream reads as an
// empty page).
func unreadablePages(pages []pageLayout) []int {
	var out []int
	for _, pg := range pages {
		if pg.failed != nil || len(pg.lines) == 0 {
			out = append(out, pg.number)
		}
	}
	return out
}

// documentLines flattens the pages, dropping page numbers and marking
// running headers and footers.
func documentLines(pages []pageLayout) []docLine {
	seen := map[string]int{}
	for _, pg := range pages {
		keys := map[string]bool{}
		for i, l := range pg.lines {
			if inMargin(i, len(pg.lines)) && inMarginZone(l, pg.height) {
				keys[marginKey(l.text(" "))] = true
			}
		}
		for k := range keys {
			seen[k]++
		}
	}
	var out []docLine
	for _, pg := range pages {
		for i, l := range pg.lines {
			mergeLabelCells(&l)
			d := docLine{line: l, page: pg.number}
			if inMargin(i, len(pg.lines)) {
				t := l.text(" ")
				if isPageNumber(t) {
					continue
				}
				if len(pages) >= minRepeatPages && inMarginZone(l, pg.height) && seen[marginKey(t)] >= minRepeatPages {
					d.kind = kindFurniture
				}
			}
			out = append(out, d)
		}
	}
	return out
}

func inMargin(i, n int) bool { return i < marginLines || i >= n-marginLines }

func inMarginZone(l line, height float64) bool {
	return l.bottom < marginZone*height || l.top > (1-marginZone)*height
}

// marginKey compares running headers and footers without their page
// numbers.
func marginKey(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) || unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
	return s
}

// isPageNumber matches "12", "- 12 -", "Page 12", "Page 12 of 40", "iv"
// and letter-spaced "P a g e 2".
func isPageNumber(s string) bool {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	return s != "" && pageNumberRE.MatchString(s)
}

// mergeLabelCells undoes a cell split between a section number or caption
// label and its title ("4" and "Solar Resource", "Table 2." and "Input
// Parameters"): typesetters leave a wide gap there, but it is one heading.
func mergeLabelCells(l *line) {
	if len(l.cells) != 2 {
		return
	}
	first := cellText(l.cells[0])
	if !sectionNoRE.MatchString(first) && !captionNoRE.MatchString(first) {
		return
	}
	if r, _ := utf8.DecodeRuneInString(l.cells[1][0].text); !unicode.IsLetter(r) {
		return
	}
	l.cells = [][]word{append(l.cells[0], l.cells[1]...)}
}

func cellText(c []word) string {
	parts := make([]string, len(c))
	for i, w := range c {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

// prevailingStyle finds the body text style: the size and weight that the
// most characters of running text are set in. Lines of symbols (equations,
// figure labels) are left out so they cannot outweigh the prose.
func prevailingStyle(lines []docLine) bodyStyle {
	sizes := map[float64]int{}
	for _, l := range lines {
		if t := l.text(" "); l.words() >= minProseWords && mostlyLetters(t) {
			sizes[math.Round(l.size*2)/2] += len(t)
		}
	}
	if len(sizes) == 0 {
		for _, l := range lines {
			sizes[math.Round(l.size*2)/2] += len(l.text(" "))
		}
	}
	var body bodyStyle
	best := 0
	for s, n := range sizes {
		if n > best || (n == best && s < body.size) {
			body.size, best = s, n
		}
	}
	bold, regular := 0, 0
	for _, l := range lines {
		// Long lines are not styled, so only short lines of body size
		// tell whether the body is set in bold.
		if l.words() > maxStyledWords || !similarSize(l.size, body.size) {
			continue
		}
		if l.bold {
			bold += len(l.text(" "))
		} else {
			regular += len(l.text(" "))
		}
	}
	body.bold = bold > regular
	return body
}

func similarSize(a, b float64) bool {
	if a <= 0 || b <= 0 {
		return false
	}
	return math.Max(a, b)/math.Min(a, b) <= sameSize
}

// markTables marks table rows: lines of three or more cells, and lines of
// two cells next to another multi-cell line (two cells alone can be a
// run-in heading and its text).
func markTables(lines []docLine) {
	multi := func(i int) bool {
		return i >= 0 && i < len(lines) && len(lines[i].cells) >= 2
	}
	for i := range lines {
		l := &lines[i]
		if l.kind != kindProse {
			continue
		}
		switch n := len(l.cells); {
		case n >= 3:
			l.kind = kindTableRow
		case n == 2 && ((multi(i-1) && lines[i-1].page == l.page) || (multi(i+1) && lines[i+1].page == l.page)):
			l.kind = kindTableRow
		}
	}
}

// style is a line's or heading's size, weight and case.
type style struct {
	size float64
	bold bool
	caps bool
}

// moreProminent reports whether a stands out from b: set clearly larger,
// bold against regular at about the same size, or in capitals against
// mixed case in the same face.
func moreProminent(a, b style) bool {
	switch {
	case a.size >= headingSize*b.size:
		return true
	case a.size*headingSize <= b.size:
		return false
	case a.bold != b.bold:
		return a.bold
	}
	return a.caps && !b.caps
}

func (l docLine) style() style {
	return style{size: l.size, bold: l.bold, caps: allCaps(l.text(" "))}
}

// allCaps reports text whose letters (at least four) are all capitals.
func allCaps(t string) bool {
	upper, letters := analysis.Capitals(t)
	return letters >= 4 && upper == letters
}

// headingRun is a candidate heading: up to maxHeadingLines consecutive
// lines in one prominent style, or a single body-style line shaped like a
// heading (numbered, all capitals, or a question).
type headingRun struct {
	start, end int
	text       string
	style      style
	// shaped is true for a body-style candidate, which needs stricter
	// surroundings to be accepted.
	shaped bool
	// long is true for a prominent run too long to be a heading: text
	// set in a display face, which counts as body text after a heading.
	long  bool
	valid bool
}

// markHeadings finds headings. A candidate is accepted when it is followed
// by text less prominent than itself, or by a less prominent accepted
// heading when it is itself bold or numbered: "3 Losses" directly above
// "3.1 Soiling" is a heading, while a title page's stack of big lines
// (title, author, date) is not taken for sections. A candidate whose text
// runs on into a next line starting in lower case is the emphasised start
// of a paragraph, not a heading.
func markHeadings(lines []docLine, body bodyStyle) {
	bodyStyle := style{size: body.size, bold: body.bold}
	runs := map[int]headingRun{}
	var starts []int
	for i := 0; i < len(lines); {
		r := candidateRun(lines, i, bodyStyle)
		if r.end > r.start {
			runs[i] = r
			starts = append(starts, i)
			i = r.end
			continue
		}
		i++
	}
	accepted := map[int]bool{}
	for k := len(starts) - 1; k >= 0; k-- {
		r := runs[starts[k]]
		if !r.valid {
			continue
		}
		next := r.end
		for next < len(lines) && lines[next].kind == kindFurniture {
			next++
		}
		if next >= len(lines) {
			continue
		}
		if n := lines[next]; n.kind == kindProse && continuesParagraph(lines[r.end-1], n) && startsLower(n.text(" ")) {
			continue
		}
		nr, nextIsRun := runs[next]
		switch {
		case r.shaped:
			n := lines[next]
			if nextIsRun || n.kind != kindProse || n.words() < 5 || moreProminent(n.style(), r.style) || !paragraphBreakBefore(lines, r.start) {
				continue
			}
		case nextIsRun && !nr.long:
			if !accepted[next] || !moreProminent(r.style, nr.style) || !(r.style.bold || sectionNumbered(r.text)) {
				continue
			}
		default:
			if !moreProminent(r.style, lines[next].style()) {
				continue
			}
		}
		accepted[r.start] = true
	}
	for start := range accepted {
		r := runs[start]
		lines[start].kind = kindHeading
		lines[start].section = r.text
		lines[start].lines = r.end - r.start
		for i := start + 1; i < r.end; i++ {
			lines[i].kind = kindHeading
		}
	}
}

// candidateRun returns the run of lines starting at i that could be a
// heading; end == start when line i starts none. A prominent run too long
// to be a heading is returned invalid so its lines are skipped whole.
func candidateRun(lines []docLine, i int, body style) headingRun {
	first := lines[i]
	r := headingRun{start: i, end: i, style: first.style()}
	if first.kind != kindProse || len(first.cells) != 1 || first.vertical || startsBullet(first.text(" ")) {
		return r
	}
	if i > 0 {
		// The second line of a bold paragraph or list item is not a
		// heading of its own.
		prev := lines[i-1]
		if prev.bold == first.bold && continuesParagraph(prev, first) && !endsSentence(prev.text(" ")) {
			return r
		}
	}
	if !moreProminent(first.style(), body) {
		// Body-style lines are candidates only by shape.
		t := strings.TrimSpace(first.text(" "))
		if headingShaped(t) && validHeading(t, 1, first.words()) {
			r.end, r.text, r.shaped, r.valid = i+1, t, true, true
		}
		return r
	}
	j := i + 1
	for j < len(lines) {
		n, prev := lines[j], lines[j-1]
		if n.page != first.page || n.kind != kindProse || len(n.cells) != 1 || startsBullet(n.text(" ")) ||
			n.bold != first.bold || !similarSize(n.size, first.size) ||
			n.top-prev.bottom > paragraphGap*math.Max(n.size, prev.size) {
			break
		}
		j++
	}
	r.end = j
	if j-i > maxHeadingLines {
		r.long = true
		return r
	}
	var p paragraph
	words, longest := 0, 0
	for k := i; k < j; k++ {
		p.add(lines[k])
		words += lines[k].words()
		longest = max(longest, lines[k].words())
	}
	r.text = strings.TrimSpace(p.String())
	r.style.caps = allCaps(r.text)
	r.valid = longest <= maxHeadingLineWords && !captionRE.MatchString(r.text) && validHeading(r.text, j-i, words)
	return r
}

// validHeading checks the text of a candidate: short, starting with a
// capital or a number, not ending like a sentence or clause, not a list
// item, not an equation, mostly letters.
func validHeading(t string, lines, words int) bool {
	if t == "" || words > maxHeadingWords || len(t) > maxHeadingChars || lines > maxHeadingLines {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsUpper(first) && !unicode.IsDigit(first) || startsBullet(t) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	if strings.ContainsRune(".,;!", last) || strings.ContainsAny(t, "=<>≤≥±∑∫√") {
		return false
	}
	return mostlyLetters(t)
}

// mostlyLetters reports text with at least twice as many letters as other
// visible characters.
func mostlyLetters(t string) bool {
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r):
			other++
		}
	}
	return letters >= 2*other && letters >= 2
}

// headingShaped recognises body-style headings by shape alone: a numbered
// title in title case ("3.2 Shading Losses"), a line in capitals ("GENERAL
// NOTES"), or a question ("What Do You Need to Consider?").
func headingShaped(t string) bool {
	words := strings.Fields(t)
	if len(words) == 0 || len(words) > 10 {
		return false
	}
	if m := numberedRE.FindStringSubmatch(t); m != nil {
		title := strings.Fields(m[1])
		if len(title) > 8 {
			return false
		}
		capital, long := 0, 0
		for _, w := range title {
			if strings.IndexFunc(w, unicode.IsLetter) < 0 {
				return false // a number or symbol: a table row or a list of values
			}
			if utf8.RuneCountInString(w) >= 4 {
				long++
				if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
					capital++
				}
			}
		}
		first, _ := utf8.DecodeRuneInString(m[1])
		return unicode.IsUpper(first) && capital*2 >= long
	}
	if strings.HasSuffix(t, "?") {
		return len(words) <= 10
	}
	return len(words) >= 2 && len(words) <= 8 && allCaps(t)
}

// paragraphBreakBefore reports whether line i starts a new paragraph: first
// on its page, after a non-prose line, after a sentence end, or after extra
// vertical space.
func paragraphBreakBefore(lines []docLine, i int) bool {
	if i == 0 || lines[i-1].page != lines[i].page {
		return true
	}
	prev, cur := lines[i-1], lines[i]
	if prev.kind != kindProse {
		return true
	}
	return endsSentence(prev.text(" ")) || cur.top-prev.bottom > paragraphGap*math.Max(prev.size, cur.size)
}

func endsSentence(t string) bool {
	t = strings.TrimRight(t, " ”’\")]")
	last, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".!?:", last)
}

// markCaptions marks table and figure captions ("Table 2. Input
// Parameters"), unless the label is merely a reference that wrapped to
// the start of a line.
func markCaptions(lines []docLine) {
	for i := range lines {
		l := &lines[i]
		if l.kind != kindProse {
			continue
		}
		t := strings.TrimSpace(l.text(" "))
		m := captionRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		if m[1] != "" {
			r, _ := utf8.DecodeRuneInString(m[1])
			if !unicode.IsUpper(r) && !unicode.IsDigit(r) && !strings.ContainsRune("“\"'(", r) {
				continue
			}
		}
		if i > 0 && continuesParagraph(lines[i-1], *l) && !endsSentence(lines[i-1].text(" ")) {
			continue
		}
		l.kind = kindCaption
		l.section = captionSection(t, len(t)-len(m[1]))
	}
}

// captionSection names a section after a caption: the label and the first
// sentence of its title, at most maxSectionChars long.
func captionSection(t string, titleAt int) string {
	if len(t) > maxSectionChars {
		if k := strings.Index(t[titleAt:], ". "); k >= 0 {
			t = t[:titleAt+k]
		}
	}
	if len(t) > maxSectionChars {
		cut := strings.LastIndexByte(t[:maxSectionChars], ' ')
		if cut <= titleAt {
			cut = maxSectionChars
			for !utf8.RuneStart(t[cut]) {
				cut--
			}
		}
		t = t[:cut]
	}
	return strings.TrimRight(t, " .:")
}

// continuesParagraph reports whether cur can be the next line of the
// paragraph prev belongs to, judged by geometry alone: same page and
// column, similar size, ordinary line spacing, and no list marker.
func continuesParagraph(prev, cur docLine) bool {
	if prev.page != cur.page || prev.kind != kindProse && prev.kind != kindCaption {
		return false
	}
	if math.Max(prev.size, cur.size) > 1.25*math.Min(prev.size, cur.size) {
		return false
	}
	if cur.top-prev.bottom > paragraphGap*math.Max(prev.size, cur.size) || cur.x0 >= prev.x1 || cur.x1 <= prev.x0 {
		return false
	}
	return !startsListItem(cur.text(" "))
}

var listItemRE = regexp.MustCompile(`^(?:\(?[0-9]{1,2}[.)]|\(?[a-zA-Z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}\.)\s`)

// startsListItem reports a bullet or an enumerator ("1.", "a)", "(iv)").
func startsListItem(t string) bool {
	return startsBullet(t) || listItemRE.MatchString(t)
}

func startsBullet(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return strings.ContainsRune(listMarkers, r)
}

func startsLower(t string) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsLower(r)
}

// sectionNumbered reports a heading that opens with a section number.
func sectionNumbered(t string) bool {
	return numberedRE.MatchString(t)
}

// blockBuilder accumulates the text of the current block and paragraph.
type blockBuilder struct {
	blocks []Block
	page   int
	// section is the heading in force; caption, when set, names the
	// current block instead until prose resumes.
	section, caption string
	// bodyX0 is the left edge of the last full prose line outside a
	// caption: prose resumes after a table where a line starts there (or
	// at the page's left margin) again, not at a wrapped table cell.
	bodyX0 float64
	parts  []string
	// para is the paragraph being joined.
	para paragraph
}

// paragraph joins lines into running text.
type paragraph struct {
	b    strings.Builder
	n    int
	last docLine
	// compounds are the hyphenated words found within lines of the
	// document, lower-cased: "grid-connected" split at a line end keeps
	// its hyphen because the document spells it so elsewhere. words are
	// the other words found within lines: "CER-" "CLA" at a line end is
	// CERCLA, which the document writes whole elsewhere, though "CLA"
	// opens with a capital (see keepHyphen).
	compounds, words map[string]bool
}

// add appends a line. A word hyphenated at the end of the previous line is
// joined to this line's first word; the hyphen is kept where it is likely
// a real one (see keepHyphen). A URL broken after a slash is joined too.
func (p *paragraph) add(l docLine) {
	t, _ := l.openText(" ")
	if p.n > 0 {
		prevWord := lastWord(p.last)
		switch {
		case prevWord.hyphen:
			next := l.cells[0][0].text
			rest := strings.TrimRight(next, ".,;:)")
			switch {
			case p.compounds[strings.ToLower(prevWord.text+"-"+rest)]:
				p.b.WriteByte('-')
			case p.words[strings.ToLower(strings.TrimLeft(prevWord.text, wordQuotes)+rest)]:
			case keepHyphen(prevWord.text, next):
				p.b.WriteByte('-')
			}
		case strings.HasSuffix(prevWord.text, "/") && strings.Contains(prevWord.text, "."):
		default:
			p.b.WriteByte(' ')
		}
	}
	p.b.WriteString(t)
	p.n++
	p.last = l
}

// String is the paragraph's text; a trailing hyphenated word keeps its
// hyphen, since its continuation is not in this paragraph.
func (p *paragraph) String() string {
	if p.n > 0 && lastWord(p.last).hyphen {
		return p.b.String() + "-"
	}
	return p.b.String()
}

func (p *paragraph) reset() {
	p.b.Reset()
	p.n = 0
}

func lastWord(l docLine) word {
	c := l.cells[len(l.cells)-1]
	return c[len(c)-1]
}

// keepHyphen decides whether a hyphen PDFium reported at a line end is a
// real one. PDFium marks every hyphen at a line end as a soft hyphen, but
// compounds ("row-to-row"), codes and numbers ("DE-AC36", "303-275") and
// URLs keep theirs.
func keepHyphen(before, after string) bool {
	r, _ := utf8.DecodeRuneInString(after)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsAny(after, "-/") ||
		strings.ContainsAny(before, "/.@") || strings.IndexFunc(before, unicode.IsDigit) >= 0
}

func (b *blockBuilder) flushParagraph() {
	if b.para.n == 0 {
		return
	}
	b.parts = append(b.parts, b.para.String())
	b.para.reset()
}

func (b *blockBuilder) flushBlock() {
	b.flushParagraph()
	text := normaliseText(cleanPDFText(strings.Join(b.parts, "\n")))
	b.parts = b.parts[:0]
	if !hasVisibleText(text) {
		return
	}
	section := b.section
	if b.caption != "" {
		section = b.caption
	}
	section = strings.TrimRight(normaliseText(cleanPDFText(section)), " :")
	b.blocks = append(b.blocks, Block{Page: b.page, Section: section, Text: text})
}

// addProse adds a prose line, joining it to the open paragraph when it
// continues it.
func (b *blockBuilder) addProse(l docLine, edges pageEdges) {
	if b.para.n == 0 || !continuesParagraph(b.para.last, l) || paragraphEnds(b.para.last, l, edges.right(b.para.last)) {
		b.flushParagraph()
	}
	b.para.add(l)
}

// paragraphEnds reports a paragraph break that geometry alone does not
// show. A line that left room for the next line's first word was ended on
// purpose: it closes its paragraph (or is a line of an address, a label, a
// table row). This holds for ragged-right text as well as justified. After
// a sentence end, an indented line starts a new paragraph too. A
// hyphenated line end always continues.
func paragraphEnds(prev, cur docLine, rightEdge float64) bool {
	if lastWord(prev).hyphen {
		return false
	}
	size := math.Max(prev.size, cur.size)
	next := cur.cells[0][0]
	room := rightEdge - prev.x1 - wordSpace*size
	if next.x1-next.x0 < room-fitSlack*size && !danglingWord(prev.text(" ")) {
		return true
	}
	return endsSentence(prev.text(" ")) && cur.x0 > prev.x0+paragraphIndent*size
}

// danglingWord reports a line ending in a word that cannot end a phrase
// ("Tools for the"), so the text goes on however short the line is.
func danglingWord(t string) bool {
	i := strings.LastIndexByte(t, ' ')
	return danglingWords[strings.ToLower(t[i+1:])]
}

var danglingWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "for": true, "to": true, "in": true, "on": true,
	"and": true, "or": true, "with": true, "by": true, "at": true, "from": true, "as": true,
	"that": true, "which": true, "is": true, "are": true, "be": true,
}

// In line heights: a first-line indent; the space between two words; and
// the margin by which a word must fit in the room left on a line before
// the line counts as ended on purpose.
const (
	paragraphIndent = 0.8
	wordSpace       = 0.3
	fitSlack        = 0.5
)

// assemble walks the classified lines in reading order and cuts Blocks.
func assemble(lines []docLine, edges pageEdges) []Block {
	b := &blockBuilder{}
	b.para.compounds, b.para.words = vocabulary(lines)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.page != b.page {
			b.flushBlock()
			b.page = l.page
		}
		switch l.kind {
		case kindHeading:
			b.flushBlock()
			b.section, b.caption = l.section, ""
			b.parts = append(b.parts, l.section)
			i += max(l.lines, 1) - 1
		case kindCaption:
			b.flushBlock()
			b.caption = l.section
			b.addProse(l, edges)
		case kindTableRow:
			b.flushParagraph()
			b.parts = append(b.parts, l.text(tableCellSep))
		case kindFurniture:
			b.flushParagraph()
			b.parts = append(b.parts, l.text(" "))
		default:
			aligned := math.Abs(l.x0-b.bodyX0) <= alignSlack*l.size || math.Abs(l.x0-edges.left(l.page)) <= alignSlack*l.size
			if b.caption != "" && !(b.para.n > 0 && continuesParagraph(b.para.last, l)) && edges.prose(l) && aligned {
				// Body text after a table or figure belongs to the
				// section around it again, not to the caption.
				b.flushBlock()
				b.caption = ""
			}
			if b.caption == "" && edges.prose(l) {
				b.bodyX0 = l.x0
			}
			b.addProse(l, edges)
		}
	}
	b.flushBlock()
	return b.blocks
}

// wordQuotes are the marks a word is trimmed of before it is looked up in
// the document's vocabulary.
const wordQuotes = ".,;:()[]“”\"'"

// vocabulary collects the words written within lines, lower-cased: the
// hyphenated ones (compounds) and the others (words).
func vocabulary(lines []docLine) (compounds, words map[string]bool) {
	compounds, words = map[string]bool{}, map[string]bool{}
	for _, l := range lines {
		for _, c := range l.cells {
			for _, w := range c {
				if w.hyphen {
					continue
				}
				text := strings.ToLower(strings.Trim(w.text, wordQuotes))
				if strings.Contains(text, "-") {
					compounds[text] = true
				} else {
					words[text] = true
				}
			}
		}
	}
	return compounds, words
}

// pageEdges holds the extent of each page's prose lines.
type pageEdges map[int][]docLine

func proseEdges(lines []docLine) pageEdges {
	e := pageEdges{}
	for _, l := range lines {
		if l.kind == kindProse && l.words() >= minProseWords {
			e[l.page] = append(e[l.page], l)
		}
	}
	return e
}

// right is the right edge of the text l belongs to: the furthest right
// that nearby full lines starting where l starts (give or take an indent)
// reach. An indented abstract or a narrow column thus has its own edge.
func (e pageEdges) right(l docLine) float64 {
	r := l.x1
	for _, p := range e[l.page] {
		if p.column == l.column && math.Abs(p.x0-l.x0) <= alignSlack*l.size && math.Abs(p.top-l.top) <= nearLines*l.size {
			r = math.Max(r, p.x1)
		}
	}
	return r
}

// alignSlack, in line heights, is how far apart two lines' left edges may
// be for them to count as aligned (a first-line indent is within it), and
// nearLines how far above or below a line others still tell its right edge.
const (
	alignSlack = 2.0
	nearLines  = 8.0
)

// left is the leftmost start of a full line on the page.
func (e pageEdges) left(page int) float64 {
	x := math.Inf(1)
	for _, p := range e[page] {
		x = math.Min(x, p.x0)
	}
	if math.IsInf(x, 1) {
		return 0
	}
	return x
}

// prose reports whether l looks like running text: enough words, spanning
// most of the widest text on its page.
func (e pageEdges) prose(l docLine) bool {
	if l.words() < minProseWords {
		return false
	}
	widest := 0.0
	for _, p := range e[l.page] {
		widest = math.Max(widest, p.x1-p.x0)
	}
	return l.x1-l.x0 >= minProseWidth*widest
}

// cleanPDFText repairs what PDF fonts commonly get wrong before the shared
// normalisation: the degree sign set as a ring operator ("45 ◦C"), and
// private-use glyphs of symbol fonts, which have no meaning outside the
// font.
func cleanPDFText(s string) string {
	s = degreeUnitRE.ReplaceAllString(s, "°$1")
	s = degreeNumberRE.ReplaceAllString(s, "$1°")
	return strings.Map(func(r rune) rune {
		if isPrivateUse(r) {
			return -1
		}
		return r
	}, s)
}

var (
	degreeUnitRE   = regexp.MustCompile(`[◦∘]\s?([CFK])\b`)
	degreeNumberRE = regexp.MustCompile(`(\d)\s?[◦∘]`)
)
