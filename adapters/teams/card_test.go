package teams

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cewhq/cew/answer"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// cardFixtures are the answers every golden card is rendered from.
func cardFixtures() map[string]Card {
	long := answeredFixture("ans-long", "q")
	long.Answer = strings.Repeat("The cable schedule lists the conductor size for each circuit [S1]. ", 200)
	long.Sources = nil
	for i := range 12 {
		s := answeredFixture("x", "q").Sources[0]
		s.Page = i + 1
		s.Snippet = strings.Repeat("A long quoted passage from the specification. ", 40)
		long.Sources = append(long.Sources, s)
	}
	escaping := answeredFixture("ans-esc", "q")
	escaping.Answer = "See [the portal](https://evil.example/x) and **notify** <at>everyone</at> @channel [S1]."
	escaping.Sources[0].DocName = "[Click me](javascript:alert(1)) <at>General</at>"
	escaping.Sources[0].Snippet = "_italic_ ![img](https://evil.example/i.png) <script>x</script>"
	escaping.Sources[0].DriveLink = "javascript:alert(1)"
	notFound := answer.Answer{
		ID: "ans-nf", Status: answer.StatusNotFound, Reason: answer.ReasonNoKeywordMatch, Answer: answer.NotFoundText,
		Related: []answer.Source{
			{DocName: "277-007-D-C-40327 — Trenches crossing layout", DocNumber: "277-007-D-C-40327", Revision: "03", Page: 2, DriveLink: "https://drive.google.com/file/d/abc/view"},
			{DocName: "Cable schedule", Revision: "B", Sheet: "LV", Row: 14},
		},
		Confidence: answer.Confidence{Level: answer.LevelLow, Reason: "the key terms are not in the passages"},
	}
	return map[string]Card{
		"answered":          RenderCard(answeredFixture("ans-1", "What is the minimum trench depth for DC cables?")),
		"answered_long":     RenderCard(long),
		"escaping":          RenderCard(escaping),
		"not_found_related": RenderCard(notFound),
		"not_found_plain": RenderCard(answer.Answer{ID: "ans-nf2", Status: answer.StatusNotFound, Reason: "SOMETHING_NEW", Answer: answer.NotFoundText,
			Confidence: answer.Confidence{Level: answer.LevelLow, Reason: "the best passage scores 0.120, below the 0.350 needed"}}),
		"blocked_rate_limited": RenderCard(answer.Answer{Status: answer.StatusBlocked, Reason: answer.ReasonRateLimited,
			Answer: "That is more questions than you can ask per 1m0s (10). Please wait 42 s and ask again."}),
		"error":            RenderCard(answer.Answer{ID: "ans-err", Status: answer.StatusError}),
		"status":           RenderCard(statusFixture()),
		"status_not_found": RenderCard(answer.Answer{Status: answer.StatusNotFound, Intent: answer.IntentDocumentStatus, Reason: answer.ReasonDocNotFound, Answer: `No document in the register matches "unicorn".`}),
		"help":             HelpCard(),
		"welcome":          WelcomeCard(),
		"smalltalk": RenderCard(answer.Answer{Status: answer.StatusSmalltalk, Intent: "smalltalk",
			Answer: answer.CannedText(answer.CannedThanks, answer.PlatformTeams)}),
	}
}

func marshalCard(t testing.TB, c Card) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestCardGoldens(t *testing.T) {
	for name, card := range cardFixtures() {
		t.Run(name, func(t *testing.T) {
			got := marshalCard(t, card)
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("card differs from %s (go test -update to accept):\n%s", path, got)
			}
		})
	}
}

// cardSchema15 compiles the Adaptive Cards 1.5 schema with Teams'
// top-level msteams property allowed.
func cardSchema15(t testing.TB) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "schema", "adaptive-card-1.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	def := doc.(map[string]any)["definitions"].(map[string]any)["AdaptiveCard"].(map[string]any)
	def["properties"].(map[string]any)["msteams"] = map[string]any{
		"type": "object", "properties": map[string]any{"width": map[string]any{"enum": []any{"Full"}}},
		"additionalProperties": false,
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("adaptive-card-1.5.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("adaptive-card-1.5.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCardsValidateAgainstSchema(t *testing.T) {
	schema := cardSchema15(t)
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cards: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			inst, err := jsonschema.UnmarshalJSON(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Errorf("%s: %v", file, err)
			}
		})
	}
	t.Run("the schema can fail", func(t *testing.T) {
		bad := map[string]any{"type": "AdaptiveCard", "version": "1.5", "body": []any{map[string]any{"type": "TextBlock"}}, "unknown": 1}
		if err := schema.Validate(bad); err == nil {
			t.Error("an invalid card validated")
		}
	})
}

func TestCardLimits(t *testing.T) {
	for name, card := range cardFixtures() {
		t.Run(name, func(t *testing.T) {
			if n := cardSize(card); n > maxCardBytes {
				t.Errorf("card is %d bytes, over %d", n, maxCardBytes)
			}
		})
	}
	long := cardFixtures()["answered_long"]
	data := string(marshalCard(t, long))
	for i := 1; i <= 12; i++ {
		if !strings.Contains(data, "[S"+itoa(i)+"] ") {
			t.Errorf("citation [S%d] dropped to fit", i)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestDocumentTextCannotInject(t *testing.T) {
	card := cardFixtures()["escaping"]
	var walk func(e element)
	walk = func(e element) {
		if e.Type == "TextBlock" && (strings.Contains(e.Text, "evil") || strings.Contains(e.Text, "<at>")) {
			t.Errorf("document text in a Markdown TextBlock: %q", e.Text)
		}
		for _, a := range e.Actions {
			if a.URL != "" && !strings.HasPrefix(a.URL, "https://") {
				t.Errorf("non-web link on a button: %q", a.URL)
			}
		}
		for _, i := range e.Items {
			walk(i)
		}
	}
	for _, e := range card.Body {
		walk(e)
	}
	if strings.Contains(string(marshalCard(t, card)), `"msteams":{"entities"`) {
		t.Error("card carries mention entities")
	}
}
