package slack

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cewhq/cew/answer"
	slackapi "github.com/slack-go/slack"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func source(n int) answer.Source {
	return answer.Source{
		DocID: fmt.Sprintf("277-007-D-C-%05d", n), DocName: fmt.Sprintf("277-007-D-C-%05d — Drawing %d", n, n),
		Revision: "02", Page: n, Section: "3.1 General", DriveLink: fmt.Sprintf("https://drive.google.com/file/d/doc%d/view", n),
		Snippet: "Cable ladders shall be hot-dip galvanised to ISO 1461 & supported every 1.5 m.", Score: 0.5,
	}
}

func renderCases() []struct {
	name string
	ans  answer.Answer
} {
	longParagraph := strings.Repeat("The trench backfill shall be compacted in layers of 300 mm to 95 % Proctor density [S1]. ", 30)
	long := answeredFixture("ans-long", "long")
	long.Answer = longParagraph + "\n\n" + longParagraph + "\n\n" + strings.Repeat("Earthing conductors are bare copper 70 mm² [S2]; ", 40)
	long.Sources = nil
	for i := 1; i <= 60; i++ {
		long.Sources = append(long.Sources, source(i))
	}

	related := answer.Answer{
		ID: "ans-nf", Status: answer.StatusNotFound, Reason: "LOW_RELEVANCE", Answer: answer.NotFoundText,
		Confidence: confidence("low", 0, "top score 0.12 below threshold 0.35"),
	}
	for i := 1; i <= 7; i++ {
		related.Related = append(related.Related, source(i))
	}
	related.Related[1].DriveLink = ""

	hostile := answeredFixture("ans-esc", "escape")
	hostile.Answer = "Call <!channel> and <!here> now & tell <@U0123ABC>: see <https://evil.example|the spec> [S1]. @channel @here"
	hostile.Sources[0].DocName = "<!channel> Trench <@U999> & Co <#C123|general>"
	hostile.Sources[0].Snippet = "Click <https://evil.example|here> or ping <!subteam^S123> <!everyone>"
	hostile.Sources[0].Section = "4 > 3 < 5"
	hostile.Sources[1].DriveLink = "javascript:alert(1)"
	hostile.Confidence.Reason = "<!channel> reason"

	status := statusFixture()
	second := status.Sources[0]
	second.DocName, second.DriveLink = "277-007-D-C-40328 — Trenches crossing layout, sheet 2", ""
	second.Snippet = "277-007-D-C-40328 — Trenches crossing layout, sheet 2 is at revision 01, status IFA, dated 2024-01-30"
	status.Sources = append(status.Sources, second)
	status.Confidence = confidence("medium", 0.6, "2 documents match; the closest are listed")

	return []struct {
		name string
		ans  answer.Answer
	}{
		{"answered", answeredFixture("ans-1", "What is the minimum trench depth for DC cables?")},
		{"not_found_related", related},
		{"not_found_plain", answer.Answer{ID: "ans-nf2", Status: answer.StatusNotFound, Reason: "NO_CHUNKS_FOUND", Answer: answer.NotFoundText}},
		{"blocked_validation", answer.Answer{ID: "ans-b", Status: answer.StatusBlocked, Reason: "TOO_LONG",
			Answer: "The question is too long (1450 characters); please keep it under 1000."}},
		{"blocked_rate_limited", answer.Answer{Status: answer.StatusBlocked, Reason: answer.ReasonRateLimited,
			Answer: "That is more questions than you can ask per 1m0s (10). Please wait 42 s and ask again."}},
		{"error", answer.Answer{ID: "ans-err", Status: answer.StatusError, Reason: "INTERNAL_ERROR",
			Answer: "Sorry, something went wrong while searching the documents. Please try again; if it keeps happening, quote reference ans-err."}},
		{"smalltalk_help", answer.Answer{ID: "ans-h", Status: answer.StatusSmalltalk, Intent: "help",
			Answer: "• @cew <question>: ask in a channel.\n• /cew status <document>: the latest revision."}},
		{"status", status},
		{"status_not_found", answer.Answer{ID: "ans-s0", Status: answer.StatusNotFound, Reason: "DOCUMENT_NOT_FOUND",
			Intent: answer.IntentDocumentStatus, Answer: `No document in the register matches "999-XYZ".`}},
		{"long", long},
		{"escaping", hostile},
	}
}

func TestRenderGolden(t *testing.T) {
	for _, tt := range renderCases() {
		t.Run(tt.name, func(t *testing.T) {
			blocks := Render(tt.ans)
			got := "// fallback text: " + FallbackText(tt.ans) + "\n" + blocksJSON(t, blocks)
			path := filepath.Join("testdata", "golden", tt.name+".json")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Render(%s) differs from %s (go test -update rewrites it):\n%s", tt.name, path, got)
			}
		})
	}
}

// TestRenderLimits checks Slack's limits and cew's rules on every case and
// every variation of a message.
func TestRenderLimits(t *testing.T) {
	for _, tt := range renderCases() {
		variants := map[string][]slackapi.Block{
			"render":  Render(tt.ans),
			"status":  RenderStatus(tt.ans),
			"private": render(tt.ans, renderOptions{shareValue: encodeShareRef(shareRef{AnswerID: tt.ans.ID, Question: "q"})}),
			"shared":  render(tt.ans, renderOptions{askedBy: testUser, question: "What <!channel> depth?"}),
		}
		for variant, blocks := range variants {
			t.Run(tt.name+"/"+variant, func(t *testing.T) {
				checkBlocks(t, blocks)
			})
		}
	}
}

func TestRenderContent(t *testing.T) {
	cases := map[string]answer.Answer{}
	for _, c := range renderCases() {
		cases[c.name] = c.ans
	}
	tests := []struct {
		name        string
		ans         answer.Answer
		want        []string
		notWant     []string
		wantButtons int // "Open in Drive" buttons
		feedback    bool
	}{
		{name: "answered", ans: cases["answered"], want: []string{"800 mm", "[S1] 277-007-D-C-40327", "Rev 03 · page 5 · section 4.2",
			"sheet DC cables, row 12", "Confidence: *high* (0.86)"}, wantButtons: 2, feedback: true},
		{name: "not found names why and where to look", ans: cases["not_found_related"],
			want:        []string{answer.NotFoundText, "closest passages are not relevant enough", "Closest documents:", "…and 2 more documents"},
			wantButtons: 4, feedback: true},
		{name: "not found without related", ans: cases["not_found_plain"], want: []string{answer.NotFoundText, "No passage"},
			notWant: []string{"Closest documents"}, feedback: true},
		{name: "blocked has no buttons", ans: cases["blocked_validation"], want: []string{"too long"}},
		{name: "rate limited has no buttons", ans: cases["blocked_rate_limited"], want: []string{"Please wait 42 s"}},
		{name: "error apologises with the reference", ans: cases["error"], want: []string{"quote reference ans-err"}},
		{name: "error without text still apologises", ans: answer.Answer{ID: "x-1", Status: answer.StatusError},
			want: []string{"Sorry", "x-1"}},
		{name: "status cards", ans: cases["status"], want: []string{"Document status: 2 matching documents", "status IFC", "status IFA"},
			wantButtons: 1},
		{name: "long answer keeps within limits", ans: cases["long"], want: []string{"…and 17 more sources"}, wantButtons: 43,
			feedback: true},
		{name: "hostile text is inert", ans: cases["escaping"],
			want: []string{"&lt;!channel&gt;", "&lt;!here&gt;", "&lt;@U0123ABC&gt;", "&lt;https://evil.example|the spec&gt;",
				"&lt;@U999&gt; &amp; Co", "&lt;!subteam^S123&gt;", "4 &gt; 3 &lt; 5"},
			wantButtons: 1, feedback: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks := Render(tt.ans)
			raw := blocksJSON(t, blocks)
			for _, w := range tt.want {
				if !strings.Contains(raw, w) {
					t.Errorf("lacks %q:\n%s", w, raw)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(raw, w) {
					t.Errorf("has %q", w)
				}
			}
			if n := strings.Count(raw, `"text": "Open in Drive"`); n != tt.wantButtons {
				t.Errorf("%d Drive buttons, want %d", n, tt.wantButtons)
			}
			if got := strings.Contains(raw, actionFeedbackUp); got != tt.feedback {
				t.Errorf("feedback buttons = %v, want %v", got, tt.feedback)
			}
			if tt.feedback && !strings.Contains(raw, `"value": "`+tt.ans.ID+`"`) {
				t.Errorf("feedback value is not the answer id %q", tt.ans.ID)
			}
		})
	}
}

// checkBlocks asserts Slack's limits and that nothing can mention, link or
// be parsed: every text object is within 3000 characters, non-empty and
// verbatim, and the only "<" is the asker's own mention on a shared answer.
func checkBlocks(t *testing.T, blocks []slackapi.Block) {
	t.Helper()
	if len(blocks) == 0 || len(blocks) > maxBlocks {
		t.Fatalf("%d blocks, want 1..%d", len(blocks), maxBlocks)
	}
	raw, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	// Round trip through slack-go, as Slack's own parser would read it.
	var back slackapi.Blocks
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatalf("blocks do not decode: %v", err)
	}
	again, _ := json.Marshal(back.BlockSet)
	var a, b any
	_ = json.Unmarshal(raw, &a)
	_ = json.Unmarshal(again, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("blocks change in a round trip:\n%s\n%s", raw, again)
	}

	actionIDs := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			if typ, _ := v["type"].(string); typ == "mrkdwn" || typ == "plain_text" {
				text, _ := v["text"].(string)
				if text == "" || textLen(text) > maxTextLen {
					t.Errorf("text object of %d characters", textLen(text))
				}
				if typ == "mrkdwn" && v["verbatim"] != true {
					t.Errorf("mrkdwn not verbatim: %q", text)
				}
				if strings.Contains(asked.ReplaceAllString(text, ""), "<") {
					t.Errorf("unescaped markup in %q", text)
				}
				if brokenEntity(text) {
					t.Errorf("broken entity in %q", text)
				}
			}
			if typ, _ := v["type"].(string); typ == "button" {
				label := v["text"].(map[string]any)["text"].(string)
				value, _ := v["value"].(string)
				if utf8.RuneCountInString(label) > maxButtonTextLen || len(value) > maxButtonValueLen {
					t.Errorf("button %q value of %d bytes", label, len(value))
				}
				if u, ok := v["url"].(string); ok && (!strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") || len(u) > maxURLLen) {
					t.Errorf("button links to %q", u)
				}
				id, _ := v["action_id"].(string)
				if actionIDs[id] {
					t.Errorf("duplicate action_id %q", id)
				}
				actionIDs[id] = true
			}
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(a)
}

var asked = regexp.MustCompile(`^Asked by <@U061F7AUR> `)

// brokenEntity reports an "&" that does not start &amp;, &lt; or &gt;.
func brokenEntity(text string) bool {
	for i := strings.IndexByte(text, '&'); i >= 0; {
		rest := text[i:]
		if !strings.HasPrefix(rest, "&amp;") && !strings.HasPrefix(rest, "&lt;") && !strings.HasPrefix(rest, "&gt;") {
			return true
		}
		next := strings.IndexByte(rest[1:], '&')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return false
}

func TestSplitText(t *testing.T) {
	para := strings.Repeat("word ", 399) + "end." // 2000 characters
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string // nil: check invariants only
	}{
		{name: "short", text: "Depth is 800 mm.", limit: 100, want: []string{"Depth is 800 mm."}},
		{name: "exactly the limit", text: strings.Repeat("a", 100), limit: 100, want: []string{strings.Repeat("a", 100)}},
		{name: "paragraphs", text: para + "\n\n" + para, limit: 3000, want: []string{para, para}},
		{name: "sentences", text: "First sentence here. Second sentence here. Third one.", limit: 30,
			want: []string{"First sentence here.", "Second sentence here.", "Third one."}},
		{name: "one long word", text: strings.Repeat("x", 250), limit: 100},
		{name: "ampersands count escaped", text: strings.Repeat("a & b ", 200), limit: 100},
		{name: "emoji count twice", text: strings.Repeat("🔌 cable ", 300), limit: 100},
		{name: "angle brackets", text: strings.Repeat("<!channel> ", 100), limit: 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts := splitText(tt.text, tt.limit)
			if tt.want != nil && !reflect.DeepEqual(parts, tt.want) {
				t.Errorf("parts = %q\nwant %q", parts, tt.want)
			}
			for i, p := range parts {
				if n := escapedLen(p); n > tt.limit || p == "" {
					t.Errorf("part %d: %d escaped characters, limit %d", i, n, tt.limit)
				}
				if !utf8.ValidString(p) {
					t.Errorf("part %d is not valid UTF-8", i)
				}
			}
			squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
			if squash(strings.Join(parts, "")) != squash(tt.text) {
				t.Errorf("text lost or changed in splitting")
			}
		})
	}
}

func TestShareRefFitsButton(t *testing.T) {
	tests := []struct {
		name     string
		question string
	}{
		{name: "short", question: "What is the minimum trench depth?"},
		{name: "long multi-byte", question: strings.Repeat("Kabelgräben für Gleichstrom — Tiefe? ", 200)},
		{name: "quotes and escapes", question: strings.Repeat(`"\<>&`, 500)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := encodeShareRef(shareRef{AnswerID: "ans-1", Question: tt.question})
			if len(v) > maxButtonValueLen || v == "" {
				t.Fatalf("value of %d bytes", len(v))
			}
			ref, ok := decodeShareRef(v)
			if !ok || ref.AnswerID != "ans-1" || !strings.HasPrefix(tt.question, ref.Question) || !utf8.ValidString(ref.Question) {
				t.Errorf("decoded %+v", ref)
			}
		})
	}
}

func FuzzRenderLimits(f *testing.F) {
	f.Add("The depth is 800 mm [S1].", "<!channel> doc", "quote & <@U1>", 3)
	f.Add(strings.Repeat("ä<&> ", 2000), strings.Repeat("n", 4000), strings.Repeat("&", 3000), 70)
	f.Add("", "", "", 0)
	f.Fuzz(func(t *testing.T, text, name, snippet string, sources int) {
		if !utf8.ValidString(text) || !utf8.ValidString(name) || !utf8.ValidString(snippet) {
			t.Skip()
		}
		sources = min(max(sources, 0), 120)
		ans := answeredFixture("ans-f", "q")
		ans.Answer = text
		ans.Sources = nil
		for i := range sources {
			s := source(i + 1)
			s.DocName, s.Snippet = name, snippet
			ans.Sources = append(ans.Sources, s)
		}
		for _, st := range []answer.Status{answer.StatusAnswered, answer.StatusNotFound, answer.StatusBlocked} {
			ans.Status = st
			ans.Related = ans.Sources
			blocks := Render(ans)
			if len(blocks) == 0 && strings.TrimSpace(text) == "" && st == answer.StatusBlocked {
				continue // nothing to say
			}
			checkBlocks(t, blocks)
		}
	})
}
