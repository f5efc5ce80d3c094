package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cewhq/cew/pipeline/eval"
)

// cli runs cew in-process with the given environment and stdin.
type cli struct {
	env map[string]string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	// No embedder unless a test asks for one: answers stay the same whether
	// or not the local model is installed on this machine.
	return &cli{env: map[string]string{"CEW_DATA_DIR": t.TempDir(), "CEW_TENANT": "acme", "CEW_EMBED": "none"}}
}

func (c *cli) run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := execute(context.Background(), strings.NewReader(stdin), &out, &errOut, func(k string) string { return c.env[k] }, args)
	var ee exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case err != nil:
		errOut.WriteString(err.Error())
		code = 2
	}
	return out.String(), errOut.String(), code
}

func writeDocs(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"277-007-D-C-40327 Rev 03 Trenches crossing layout.md": "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n\nAC cables are laid at a minimum depth of 1000 mm.\n",
		"277-007-D-C-40327 Rev 02 Trenches crossing layout.md": "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 700 mm from finished ground level.\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// contractKeys are the answer contract's fields (DESIGN.md plus the
// question fields); "related" appears only when there are related documents.
var contractKeys = []string{"id", "status", "reason", "answer", "intent", "sources", "confidence", "cached", "timings_ms", "question", "standalone_question"}

func TestAskJSONContract(t *testing.T) {
	c := newCLI(t)
	if out, errOut, code := c.run(t, "", "ingest", writeDocs(t)); code != 0 {
		t.Fatalf("ingest: %d\n%s%s", code, out, errOut)
	}
	questions := "What is the minimum trench depth for DC cables?\n\nWho won the 2018 world cup?\nhello\n"
	out, errOut, code := c.run(t, questions, "ask", "--json")
	if code != 1 { // one question is not found
		t.Fatalf("ask: exit %d, want 1\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines for 3 questions:\n%s", len(lines), out)
	}
	wantStatus := []string{"answered", "not_found", "smalltalk"}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not JSON: %v", i, err)
		}
		var keys []string
		for k := range m {
			if k != "related" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		want := slices.Clone(contractKeys)
		sort.Strings(want)
		if !slices.Equal(keys, want) {
			t.Errorf("line %d keys = %v, want %v", i, keys, want)
		}
		if m["status"] != wantStatus[i] {
			t.Errorf("line %d status = %v, want %s", i, m["status"], wantStatus[i])
		}
	}
	var first struct {
		Answer  string `json:"answer"`
		Sources []map[string]any
	}
	json.Unmarshal([]byte(lines[0]), &first)
	if !strings.Contains(first.Answer, "800 mm") || !strings.Contains(first.Answer, "[S1]") {
		t.Errorf("answer = %q; want the revision 03 value with a citation", first.Answer)
	}
	sourceKeys := []string{"doc_id", "doc_name", "revision", "page", "section", "sheet", "row", "drive_link", "snippet", "score"}
	for _, k := range sourceKeys {
		if _, ok := first.Sources[0][k]; !ok {
			t.Errorf("source lacks %q: %v", k, first.Sources[0])
		}
	}
	if len(first.Sources[0]) != len(sourceKeys) {
		t.Errorf("source has keys beyond the contract's %v: %v", sourceKeys, first.Sources[0])
	}
	if first.Sources[0]["revision"] != "03" {
		t.Errorf("cited revision %v, want 03 (02 is superseded)", first.Sources[0]["revision"])
	}
}

func TestSearchAndStatusJSON(t *testing.T) {
	c := newCLI(t)
	c.run(t, "", "ingest", writeDocs(t))
	out, _, code := c.run(t, "trench depth\n800 mm\n", "search", "--json", "-k", "2")
	if code != 0 {
		t.Fatalf("search exit %d", code)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var res struct {
			Query string           `json:"query"`
			Hits  []map[string]any `json:"hits"`
		}
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		if res.Query == "" || len(res.Hits) == 0 || res.Hits[0]["chunk_id"] == nil {
			t.Errorf("search line %d = %s", n, sc.Text())
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d lines for 2 queries", n)
	}

	out, _, code = c.run(t, "", "status", "--json", "40327")
	var st struct {
		Documents []struct {
			Number     string           `json:"number"`
			Revision   string           `json:"revision"`
			Superseded []map[string]any `json:"superseded"`
			IndexedAt  string           `json:"indexed_at"`
		} `json:"documents"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("status --json: %v %d %s", err, code, out)
	}
	if len(st.Documents) != 1 || st.Documents[0].Revision != "03" || len(st.Documents[0].Superseded) != 1 || st.Documents[0].IndexedAt == "" {
		t.Errorf("status = %+v", st)
	}
	if out, _, code := c.run(t, "", "status", "concrete mix design"); code != 1 || !strings.Contains(out, "no document matches") {
		t.Errorf("unknown document: exit %d, %q", code, out)
	}
}

func TestIngestExitStatus(t *testing.T) {
	c := newCLI(t)
	docs := writeDocs(t)
	out, _, code := c.run(t, "", "ingest", docs, filepath.Join(docs, "missing.pdf"))
	if code != 1 {
		t.Errorf("a missing file: exit %d, want 1", code)
	}
	if !strings.Contains(out, "missing.pdf") || !strings.Contains(out, "indexed") {
		t.Errorf("report does not name the missing file and the good ones:\n%s", out)
	}
	if _, _, code := c.run(t, "", "ingest", docs); code != 0 {
		t.Errorf("re-ingest of unchanged files: exit %d", code)
	}
}

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	yamlPath := filepath.Join(dir, "cew.yaml")
	os.WriteFile(yamlPath, []byte("tenant: from-file\nllm_model: gpt-x\nllm_base_url: http://localhost:11434/v1\nmax_file_mb: 5\n"), 0o644)
	emptyValues := filepath.Join(dir, "empty.yaml")
	os.WriteFile(emptyValues, []byte("llm_model:\nredis_url:\ntenant: acme\n"), 0o644)
	badYAML := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badYAML, []byte("tenant: x\nno_such_key: 1\n"), 0o644)
	tests := []struct {
		name     string
		env      map[string]string
		check    func(t *testing.T, c Config)
		problems []string
	}{
		{name: "defaults", env: nil, check: func(t *testing.T, c Config) {
			if c.DataDir != "" || c.Tenant != "default" || c.Store != "embedded" || c.MaxQuestionChars != 1000 || c.Addr != "127.0.0.1:8080" {
				t.Errorf("defaults = %+v", c)
			}
		}},
		{name: "file, then environment wins", env: map[string]string{"CEW_CONFIG": yamlPath, "CEW_MAX_FILE_MB": "7"}, check: func(t *testing.T, c Config) {
			if c.Tenant != "from-file" || c.LLMModel != "gpt-x" || c.MaxFileMB != 7 {
				t.Errorf("config = %+v", c)
			}
		}},
		{name: "YAML keys without a value stay unset", env: map[string]string{"CEW_CONFIG": emptyValues}, check: func(t *testing.T, c Config) {
			if c.LLMModel != "" || c.RedisURL != "" || c.Tenant != "acme" {
				t.Errorf("config = %+v", c)
			}
		}},
		{name: "every problem on its own line", env: map[string]string{
			"CEW_STORE": "mongo", "CEW_MAX_FILE_MB": "-3", "CEW_LLM_BASE_URL": "ftp://x", "CEW_LOG_LEVEL": "loud", "CEW_CACHE_TTL": "soon",
			"CEW_REDIS_URL": "http://x", "CEW_SLACK_TENANTS": "T1",
		}, problems: []string{"CEW_STORE", "CEW_MAX_FILE_MB", "CEW_LLM_BASE_URL", "CEW_LLM_MODEL", "CEW_LOG_LEVEL", "CEW_CACHE_TTL", "CEW_REDIS_URL", "CEW_SLACK_TENANTS"}},
		{name: "OpenAI model without a key", env: map[string]string{"CEW_LLM_MODEL": "gpt-4o"}, problems: []string{"OPENAI_API_KEY"}},
		{name: "unknown embedder", env: map[string]string{"CEW_EMBED": "onnx"}, problems: []string{"CEW_EMBED"}},
		{name: "semantic threshold above 1", env: map[string]string{"CEW_SEMANTIC_THRESHOLD": "1.5"}, problems: []string{"CEW_SEMANTIC_THRESHOLD"}},
		{name: "local embedder with endpoint settings", env: map[string]string{"CEW_EMBED": "local", "CEW_EMBED_MODEL": "x"}, problems: []string{"CEW_EMBED=local"}},
		{name: "http embedder without an endpoint", env: map[string]string{"CEW_EMBED": "http"}, problems: []string{"CEW_EMBED=http"}},
		{name: "embedder defaults", env: nil, check: func(t *testing.T, c Config) {
			if c.Embed != "auto" || c.ModelsDir == "" || c.EmbedThreads != 2 {
				t.Errorf("embedder defaults = %q %q %d", c.Embed, c.ModelsDir, c.EmbedThreads)
			}
		}},
		{name: "Milvus capabilities default to a 2.6 server", env: map[string]string{"CEW_STORE": "milvus", "MILVUS_ADDRESS": "127.0.0.1:19530"},
			check: func(t *testing.T, c Config) {
				if !c.MilvusPartitionKey || c.MilvusDenseIndex != "hnsw" || !c.MilvusPartialUpdate {
					t.Errorf("milvus capabilities = %v %q %v", c.MilvusPartitionKey, c.MilvusDenseIndex, c.MilvusPartialUpdate)
				}
			}},
		{name: "Milvus engine without partition key, HNSW or partial update", env: map[string]string{"CEW_STORE": "milvus", "MILVUS_ADDRESS": "127.0.0.1:19530",
			"CEW_MILVUS_PARTITION_KEY": "false", "CEW_MILVUS_DENSE_INDEX": "FLAT", "CEW_MILVUS_PARTIAL_UPDATE": "false"},
			check: func(t *testing.T, c Config) {
				if c.MilvusPartitionKey || c.MilvusDenseIndex != "FLAT" || c.MilvusPartialUpdate {
					t.Errorf("milvus capabilities = %v %q %v", c.MilvusPartitionKey, c.MilvusDenseIndex, c.MilvusPartialUpdate)
				}
			}},
		{name: "unknown Milvus dense index", env: map[string]string{"CEW_STORE": "milvus", "MILVUS_ADDRESS": "127.0.0.1:19530", "CEW_MILVUS_DENSE_INDEX": "ivf"},
			problems: []string{"CEW_MILVUS_DENSE_INDEX"}},
		{name: "unknown YAML key", env: map[string]string{"CEW_CONFIG": badYAML}, problems: []string{"no_such_key"}},
		{name: "missing YAML file", env: map[string]string{"CEW_CONFIG": filepath.Join(dir, "nope.yaml")}, problems: []string{"CEW_CONFIG"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := LoadConfig(func(k string) string { return tc.env[k] })
			if len(tc.problems) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				tc.check(t, c)
				return
			}
			if err == nil {
				t.Fatal("invalid configuration accepted")
			}
			lines := strings.Split(err.Error(), "\n")
			for _, p := range tc.problems {
				found := false
				for _, l := range lines[1:] {
					found = found || strings.Contains(l, p)
				}
				if !found {
					t.Errorf("no line names %s:\n%s", p, err)
				}
			}
		})
	}
}

func TestSecretsStayOutOfLogs(t *testing.T) {
	c, err := LoadConfig(func(k string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-secret-1", "SLACK_BOT_TOKEN": "xoxb-secret-2", "CEW_REDIS_URL": "redis://:pw-secret-3@h:6379/0"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	newLogger(c, &buf).Info("config", "config", c)
	for _, s := range []string{"sk-secret-1", "xoxb-secret-2", "pw-secret-3"} {
		if strings.Contains(buf.String(), s) {
			t.Errorf("secret %s logged: %s", s, buf.String())
		}
	}
}

func TestHelp(t *testing.T) {
	c := newCLI(t)
	for _, args := range [][]string{{"--help"}, {"ingest", "--help"}, {"search", "--help"}, {"status", "--help"}, {"ask", "--help"}, {"serve", "--help"}, {"eval", "--help"}, {"eval", "qa", "--help"}, {"eval", "domain", "--help"}} {
		out, _, code := c.run(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

// TestEvalCacheLeavesDataDir: the cache evaluation runs in scratch folders
// (its audit log included) and reports both passes.
func TestEvalCacheLeavesDataDir(t *testing.T) {
	c := newCLI(t)
	squad := writeSquad(t)
	reports := t.TempDir()
	out, errOut, code := c.run(t, "", "eval", "cache", "--squad", squad, "--report-dir", reports)
	if code != 0 {
		t.Fatalf("eval cache: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "pass2/hit_rate = 1 ") {
		t.Errorf("second pass is not all hits:\n%s", out)
	}
	if entries, _ := os.ReadDir(c.env["CEW_DATA_DIR"]); len(entries) != 0 {
		t.Errorf("the evaluation wrote into the data directory: %v", entries)
	}
}

// TestEvalDomain runs the domain evaluation on a small corpus and dev set:
// a report with every split's metrics, one outcome line per question with
// the pipeline's trace, and clear errors for a bad split or file.
func TestEvalDomain(t *testing.T) {
	c := newCLI(t)
	corpus := t.TempDir()
	os.WriteFile(filepath.Join(corpus, "register.csv"), []byte("number,title,revision,status,file\nINV-LIST,Inverter list,1,Approved,inverters.csv\n"), 0o644)
	os.WriteFile(filepath.Join(corpus, "inverters.csv"), []byte("Name,Vac,Paco\nACME SB7000TL-US-22-208V,208,6007\nACME SB7000TL-US-22-240V,240,7000\n"), 0o644)
	questions := filepath.Join(t.TempDir(), "questions.jsonl")
	os.WriteFile(questions, []byte(`{"id":"a1","split":"tune","question":"What is the Paco of the ACME SB7000TL-US-22-240V?","answerable":true,"gold":[{"doc":"INV-LIST","sheet":"inverters","row":3}],"values":[["7000"]],"tags":["table-lookup"]}
{"id":"u1","split":"heldout","question":"Who won the 2018 football world cup?","answerable":false,"tags":["other-doc"]}
`), 0o644)
	reports := t.TempDir()
	outcomes := filepath.Join(t.TempDir(), "outcomes.jsonl")
	out, errOut, code := c.run(t, "", "eval", "domain", "--corpus", corpus, "--questions", questions, "--report-dir", reports, "--outcomes", outcomes)
	if code != 0 {
		t.Fatalf("eval domain: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"tune", "heldout", "all", "reliability", "domain.json"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	rep := readReport(t, filepath.Join(reports, "domain.json"))
	names := map[string]int{}
	for _, m := range rep.Metrics {
		names[m.Name] = m.N
	}
	for name, n := range map[string]int{"tune/answerable/right": 1, "heldout/unanswerable/refused": 1, "all/answerable/right": 1, "all/unanswerable/refused": 1, "all/tag/table-lookup/answerable/right": 1} {
		if got, ok := names[name]; !ok || got != n {
			t.Errorf("metric %s: n=%d (present %v), want n=%d", name, got, ok, n)
		}
	}
	lines := strings.Split(strings.TrimSpace(readFile(t, outcomes)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d outcome lines, want 2", len(lines))
	}
	for _, line := range lines {
		var o map[string]any
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		trace, _ := o["trace"].(map[string]any)
		if v := o["verdict"]; (v != "right" && v != "wrong" && v != "refused") || trace["Generator"] == nil {
			t.Errorf("outcome without a verdict or the trace: %s", line)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(c.env["CEW_DATA_DIR"])); len(entries) > 1 {
		t.Errorf("the evaluation wrote an index into the data directory: %v", entries)
	}

	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown split", []string{"--split", "test"}, "split"},
		{"missing questions file", []string{"--questions", filepath.Join(t.TempDir(), "none.jsonl")}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"eval", "domain", "--corpus", corpus, "--questions", questions, "--report-dir", reports}, tc.args...)
			_, errOut, code := c.run(t, "", args...)
			if code == 0 || !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want a failure naming %q", code, errOut, tc.wantErr)
			}
		})
	}
}

// readReport reads the JSON report an evaluation wrote.
func readReport(t *testing.T, path string) eval.Report {
	t.Helper()
	var rep eval.Report
	if err := json.Unmarshal([]byte(readFile(t, path)), &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rep
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// writeSquad writes a two-question SQuAD 2.0 file: one answerable, one not.
func writeSquad(t *testing.T) string {
	t.Helper()
	squad := filepath.Join(t.TempDir(), "squad.json")
	err := os.WriteFile(squad, []byte(`{"data": [{"title": "Trenches", "paragraphs": [{"context": "The minimum trench depth for DC cables is 800 mm from finished ground level.",
		"qas": [{"id": "q1", "question": "What is the minimum trench depth for DC cables?", "answers": [{"text": "800 mm"}]},
		        {"id": "q2", "question": "Who won the 2018 world cup?", "is_impossible": true, "answers": []}]}]}]}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return squad
}

func TestParseRange(t *testing.T) {
	tests := []struct {
		in       string
		from, to int
		ok       bool
	}{
		{"1-4", 1, 4, true}, {"5-8", 5, 8, true}, {"3", 3, 3, true}, {" 2 - 6 ", 2, 6, true},
		{"4-1", 0, 0, false}, {"0-3", 0, 0, false}, {"a-b", 0, 0, false}, {"", 0, 0, false}, {"1-", 0, 0, false},
	}
	for _, tc := range tests {
		from, to, err := parseRange(tc.in)
		if (err == nil) != tc.ok || from != tc.from || to != tc.to {
			t.Errorf("parseRange(%q) = %d, %d, %v", tc.in, from, to, err)
		}
	}
}
