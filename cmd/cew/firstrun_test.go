package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAskExitStatus: 0 answered, 1 not found or blocked (also with --json,
// whose output stays the contract), 2 for usage and set-up errors.
func TestAskExitStatus(t *testing.T) {
	c := newCLI(t)
	if out, errOut, code := c.run(t, "", "ingest", writeDocs(t)); code != 0 {
		t.Fatalf("ingest: %d\n%s%s", code, out, errOut)
	}
	empty := newCLI(t)
	tests := []struct {
		name     string
		cli      *cli
		stdin    string
		args     []string
		want     int
		wantText string
	}{
		{"answered", c, "", []string{"ask", "What is the minimum trench depth for DC cables?"}, 0, "800 mm"},
		{"not found", c, "", []string{"ask", "Who won the 2018 world cup?"}, 1, "not found"},
		{"blocked", c, "", []string{"ask", "what\x01 is it"}, 1, "control characters"},
		{"greeting", c, "", []string{"ask", "hello"}, 0, "cew"},
		{"json answered", c, "", []string{"ask", "--json", "What is the minimum trench depth for DC cables?"}, 0, `"status":"answered"`},
		{"json not found", c, "", []string{"ask", "--json", "Who won the 2018 world cup?"}, 1, `"status":"not_found"`},
		{"batch with one not found", c, "What is the minimum trench depth for DC cables?\nWho won the 2018 world cup?\n", []string{"ask"}, 1, "800 mm"},
		{"batch all answered", c, "What is the minimum trench depth for DC cables?\nhello\n", []string{"ask"}, 0, "800 mm"},
		{"unknown flag", c, "", []string{"ask", "--no-such-flag", "q"}, 2, "unknown flag"},
		{"no documents indexed", empty, "", []string{"ask", "What is the minimum trench depth for DC cables?"}, 2, "no documents are indexed in " + empty.env["CEW_DATA_DIR"]},
		{"no documents indexed, search", empty, "", []string{"search", "trench"}, 2, "run cew ingest"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := tc.cli.run(t, tc.stdin, tc.args...)
			if code != tc.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.want, out, errOut)
			}
			if !strings.Contains(out+errOut, tc.wantText) {
				t.Errorf("output lacks %q:\n%s%s", tc.wantText, out, errOut)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	c := newCLI(t)
	flag, _, code := c.run(t, "", "--version")
	cmd, _, code2 := c.run(t, "", "version")
	if code != 0 || code2 != 0 || flag != cmd {
		t.Fatalf("--version (exit %d) %q and version (exit %d) %q differ", code, flag, code2, cmd)
	}
	for _, want := range []string{"cew ", "commit ", runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH} {
		if !strings.Contains(flag, want) {
			t.Errorf("version %q lacks %q", flag, want)
		}
	}
}

// TestSaidOnce: a refusal's reason and a failed file are each printed once.
func TestSaidOnce(t *testing.T) {
	c := newCLI(t)
	docs := writeDocs(t)
	if err := os.WriteFile(filepath.Join(docs, "broken.docx"), []byte("not a zip at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := c.run(t, "", "ingest", docs, filepath.Join(docs, "missing.pdf"))
	linesNaming := func(s, name string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, name) {
				n++
			}
		}
		return n
	}
	if n := linesNaming(out+errOut, "broken.docx"); n != 1 {
		t.Errorf("the unreadable file is named on %d lines:\n%s%s", n, out, errOut)
	}
	if n := linesNaming(out+errOut, "missing.pdf"); n != 1 {
		t.Errorf("the failed file is named %d times:\n%s%s", n, out, errOut)
	}
	for _, tc := range []struct{ question, said string }{
		{"what\x01 is it", "control characters"},
		{"Quelle est la profondeur minimale des tranchées pour les câbles?", "English only"},
		{"Who won the 2018 world cup?", "not found in the uploaded documents"},
	} {
		out, errOut, _ := c.run(t, "", "ask", tc.question)
		if n := strings.Count(out+errOut, tc.said); n != 1 {
			t.Errorf("%q: %q said %d times:\n%s%s", tc.question, tc.said, n, out, errOut)
		}
	}
}

// TestLongLineDoesNotEndTheBatch: a line over 1 MiB is refused with a
// reason and the questions after it are answered.
func TestLongLineDoesNotEndTheBatch(t *testing.T) {
	c := newCLI(t)
	c.run(t, "", "ingest", writeDocs(t))
	long := strings.Repeat("trench depth ", (maxLineBytes/13)+100)
	stdin := "What is the minimum trench depth for DC cables?\n" + long + "\nWhat is the minimum trench depth for DC cables?\n"

	out, errOut, code := c.run(t, stdin, "ask", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d answers for 3 lines (exit %d):\n%s", len(lines), code, errOut)
	}
	var second struct {
		Status, Reason, Answer string
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if second.Status != "blocked" || second.Reason != "TOO_LONG" || !strings.Contains(second.Answer, "Line 2") {
		t.Errorf("long line answered %+v, want blocked TOO_LONG naming line 2", second)
	}
	if !strings.Contains(lines[2], `"status":"answered"`) || code != 1 {
		t.Errorf("after the long line: exit %d, %s", code, lines[2])
	}

	out, errOut, code = c.run(t, "trench depth\n"+long+"\n800 mm\n", "search", "--json")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || code != 0 || !strings.Contains(lines[1], `"error"`) || !strings.Contains(lines[2], `"chunk_id"`) {
		t.Errorf("search: exit %d, %d lines:\n%.300s\n%s", code, len(lines), out, errOut)
	}
}

func TestSearchFlags(t *testing.T) {
	c := newCLI(t)
	c.run(t, "", "ingest", writeDocs(t))
	tests := []struct {
		name string
		args []string
		want int
		text string
	}{
		{"k of 0", []string{"search", "-k", "0", "trench"}, 2, "between 1 and 50"},
		{"k too large", []string{"search", "-k", "51", "trench"}, 2, "between 1 and 50"},
		{"k of 1", []string{"search", "-k", "1", "trench"}, 0, "1 hit"},
		{"unknown mode", []string{"search", "--mode", "fuzzy", "trench"}, 2, "hybrid, bm25 or dense"},
		{"dense without an embedder", []string{"search", "--mode", "dense", "trench"}, 2, "CEW_EMBED is none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := c.run(t, "", tc.args...)
			if code != tc.want || !strings.Contains(out+errOut, tc.text) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s%s", code, tc.want, tc.text, out, errOut)
			}
		})
	}
}

func TestSessionWithoutRedisSaysSo(t *testing.T) {
	c := newCLI(t)
	c.run(t, "", "ingest", writeDocs(t))
	_, errOut, _ := c.run(t, "", "ask", "--session", "site-visit", "What is the minimum trench depth for DC cables?")
	if !strings.Contains(errOut, "remembered only while this command runs") {
		t.Errorf("stderr %q does not say the session lasts only for this run", errOut)
	}
	c.env["CEW_REDIS_URL"] = "redis://127.0.0.1:1/0"
	_, errOut, _ = c.run(t, "", "ask", "--session", "site-visit", "hello")
	if strings.Contains(errOut, "remembered only") {
		t.Errorf("with Redis configured: %q", errOut)
	}
}

// TestEvalLimitKeepsFullReport: a run cut short by --limit writes its own
// report and leaves the full run's in place.
func TestEvalLimitKeepsFullReport(t *testing.T) {
	c := newCLI(t)
	squad := writeSquad(t)
	reports := t.TempDir()
	if out, errOut, code := c.run(t, "", "eval", "qa", "--squad", squad, "--report-dir", reports); code != 0 {
		t.Fatalf("eval qa: exit %d\n%s%s", code, out, errOut)
	}
	full := readFile(t, filepath.Join(reports, "qa.json"))
	if out, errOut, code := c.run(t, "", "eval", "qa", "--squad", squad, "--report-dir", reports, "--limit", "1"); code != 0 {
		t.Fatalf("eval qa --limit: exit %d\n%s%s", code, out, errOut)
	}
	if readFile(t, filepath.Join(reports, "qa.json")) != full {
		t.Error("eval qa --limit 1 overwrote the full run's qa.json")
	}
	if _, err := os.Stat(filepath.Join(reports, "qa-first1.json")); err != nil {
		t.Errorf("the limited run's report: %v", err)
	}
}

// skipUnderDataDir skips a test whose temporary folders sit below a .cew
// folder of this machine: the search upwards would find that one.
func skipUnderDataDir(t *testing.T, dir string) {
	t.Helper()
	if found := defaultDataDir(dir, func(string) string { return "" }); found != filepath.Join(dir, dataDirName) {
		t.Skipf("%s is below %s; the search upwards would find it", dir, found)
	}
}

func TestDefaultDataDir(t *testing.T) {
	root := t.TempDir()
	skipUnderDataDir(t, root)
	project := filepath.Join(root, "project")
	deep := filepath.Join(project, "docs", "specs")
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(project, ".cew"), deep, home, filepath.Join(root, "elsewhere", ".cew-not")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fileNamedCew := filepath.Join(root, "file-not-dir")
	os.MkdirAll(fileNamedCew, 0o755)
	os.WriteFile(filepath.Join(fileNamedCew, ".cew"), []byte("not a folder"), 0o644)
	tests := []struct {
		name, cwd string
		env       map[string]string
		want      string
	}{
		{"a .cew in the working directory", project, map[string]string{"HOME": home}, filepath.Join(project, ".cew")},
		{"a .cew above the working directory", deep, map[string]string{"HOME": home}, filepath.Join(project, ".cew")},
		{"no .cew: XDG_DATA_HOME", filepath.Join(root, "elsewhere"), map[string]string{"HOME": home, "XDG_DATA_HOME": filepath.Join(root, "xdg")}, filepath.Join(root, "xdg", "cew")},
		{"no .cew: ~/.local/share", filepath.Join(root, "elsewhere"), map[string]string{"HOME": home}, filepath.Join(home, ".local", "share", "cew")},
		{"a relative XDG_DATA_HOME is ignored", filepath.Join(root, "elsewhere"), map[string]string{"HOME": home, "XDG_DATA_HOME": "rel"}, filepath.Join(home, ".local", "share", "cew")},
		{"a file named .cew is not a data directory", fileNamedCew, map[string]string{"HOME": home}, filepath.Join(home, ".local", "share", "cew")},
		{"no home at all", filepath.Join(root, "elsewhere"), nil, filepath.Join(root, "elsewhere", ".cew")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := defaultDataDir(tc.cwd, func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("defaultDataDir = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestOneIndexFromAnyFolder: without CEW_DATA_DIR, an index built from one
// folder is the one asked from another (it used to be a new, empty .cew
// there, and every question was "not found").
func TestOneIndexFromAnyFolder(t *testing.T) {
	home := t.TempDir()
	c := &cli{env: map[string]string{"HOME": home, "CEW_TENANT": "acme", "CEW_EMBED": "none"}}
	docs := writeDocs(t)
	skipUnderDataDir(t, docs)
	t.Chdir(t.TempDir())
	out, errOut, code := c.run(t, "", "ingest", docs)
	if code != 0 || !strings.Contains(out, filepath.Join(home, ".local", "share", "cew")) {
		t.Fatalf("ingest: exit %d, the summary does not name the index folder:\n%s%s", code, out, errOut)
	}
	t.Chdir(t.TempDir())
	if out, errOut, code := c.run(t, "", "ask", "What is the minimum trench depth for DC cables?"); code != 0 || !strings.Contains(out, "800 mm") {
		t.Errorf("ask from another folder: exit %d\n%s%s", code, out, errOut)
	}
}

// TestUnknownRevisionShownAsUnknown: without a register or a revision in
// the file name, no "rev 0" anywhere; "_v4" is read as revision 4.
func TestUnknownRevisionShownAsUnknown(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ABC-100 Trench specification.md"), []byte("# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "Simulation_Scenarios_v4.md"), []byte("# Scenarios\n\nThe albedo of the ground is 0.2 in every scenario.\n"), 0o644)
	out, errOut, code := c.run(t, "", "ingest", dir)
	if code != 0 || !strings.Contains(out, "ABC-100, revision unknown") || !strings.Contains(out, "Simulation_Scenarios rev 4") {
		t.Errorf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	checks := []struct {
		args []string
		want string
	}{
		{[]string{"ask", "What is the minimum trench depth for DC cables?"}, "800 mm"},
		{[]string{"search", "trench depth"}, "ABC-100"},
		{[]string{"status", "ABC-100"}, "revision    unknown"},
		{[]string{"status"}, "ABC-100"},
	}
	for _, tc := range checks {
		out, errOut, _ := c.run(t, "", tc.args...)
		if !strings.Contains(out, tc.want) || strings.Contains(out, "rev 0") || strings.Contains(out, "rev —") || strings.Contains(out, "rev ,") {
			t.Errorf("cew %s:\n%s%s", strings.Join(tc.args, " "), out, errOut)
		}
	}
	out, _, _ = c.run(t, "", "ask", "--json", "What is the minimum trench depth for DC cables?")
	if !strings.Contains(out, `"revision":""`) {
		t.Errorf("ask --json: the source's revision is not empty:\n%s", out)
	}
}

// sharePDFCache points the data directory's PDFium compilation cache at
// the one the ingest tests use, so each test does not compile PDFium again.
func sharePDFCache(t *testing.T, dataDir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dataDir, "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(os.TempDir(), "cew-test-pdfium-cache")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, filepath.Join(dataDir, "cache", "pdfium")); err != nil {
		t.Fatal(err)
	}
}

// TestPartlyReadFileIsReported: a PDF with 2,000 flipped bytes is indexed
// with warnings naming its unreadable pages, counted in the summary, and
// the exit status is 1 unless --accept-partial.
func TestPartlyReadFileIsReported(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a 20-page PDF")
	}
	data, err := os.ReadFile("../../examples/corpus/pdf/NREL-TP-6A20-62641_PVWatts_Version5_Manual.pdf")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	for range 2000 {
		data[1024+r.IntN(len(data)-1024-2048)] ^= 0xff
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"partial file fails the run", nil, 1},
		{"--accept-partial", []string{"--accept-partial"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			sharePDFCache(t, c.env["CEW_DATA_DIR"])
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "PVWatts damaged.pdf"), data, 0o644)
			out, errOut, code := c.run(t, "", append([]string{"ingest", dir}, tc.args...)...)
			if code != tc.want {
				t.Errorf("exit %d, want %d", code, tc.want)
			}
			if !strings.Contains(out, "indexed with warnings: ") || !strings.Contains(out, "of 20 pages unreadable (pages ") ||
				!strings.Contains(out, "1 indexed (1 partly read: ") {
				t.Errorf("the report does not name the unreadable pages:\n%s%s", out, errOut)
			}
		})
	}
}

// TestBatchPrintsQuestions: questions read from a pipe are printed above
// their answers, in order; --json is unchanged.
func TestBatchPrintsQuestions(t *testing.T) {
	c := newCLI(t)
	c.run(t, "", "ingest", writeDocs(t))
	out, _, _ := c.run(t, "What is the minimum trench depth for DC cables?\nWho won the 2018 world cup?\n", "ask")
	first := strings.Index(out, "Q: What is the minimum trench depth for DC cables?")
	answer := strings.Index(out, "800 mm")
	second := strings.Index(out, "Q: Who won the 2018 world cup?")
	if first < 0 || answer < first || second < answer {
		t.Errorf("questions not printed above their answers:\n%s", out)
	}
	out, _, _ = c.run(t, "hello\n", "ask", "--json")
	if strings.Contains(out, "Q: ") {
		t.Errorf("--json output changed: %s", out)
	}
}
