package llmtest

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"testing"

	"github.com/cewhq/cew/store"
)

// Recording is one answer a real model wrote to one of cew's prompts,
// captured from a local model server (scripts/llm-server.sh), with the
// question and the sources the prompt gave it. Tests replay it through the
// scripted server, so what real models write — their refusals, citation
// styles, preambles and paraphrased numbers — is checked in CI without a
// model.
type Recording struct {
	// Name identifies the recording in test output.
	Name string `json:"name"`
	// Model is the model that wrote Answer, as served.
	Model string `json:"model"`
	// Question, Category and Complexity are what the prompt was rendered
	// from; Sources are its numbered sources, [S1] first.
	Question   string        `json:"question"`
	Category   string        `json:"category"`
	Complexity string        `json:"complexity"`
	Sources    []store.Chunk `json:"sources"`
	// Answer is the model's answer, verbatim.
	Answer string `json:"answer"`
	// Want is what cew must make of the answer.
	Want RecordedOutcome `json:"want"`
}

// RecordedOutcome is what the generator and the post-guard must make of a
// recorded answer.
type RecordedOutcome struct {
	// NotFound: the answer says, in some words, that the sources do not
	// answer; cew says the not-found sentence.
	NotFound bool `json:"not_found,omitempty"`
	// Text is the answer as the generator hands it to the post-guard
	// (when not NotFound).
	Text string `json:"text,omitempty"`
	// Reason is the post-guard's verdict on Text: "" when it passes, else
	// the reason code it refuses with.
	Reason string `json:"reason,omitempty"`
	// Why says what the recording is for.
	Why string `json:"why"`
}

// Response scripts the recorded answer, streamed a word at a time.
func (r Recording) Response() Response { return Answer(r.Answer) }

//go:embed recordings/*.jsonl
var recordings embed.FS

// Recordings returns every recorded answer, from recordings/*.jsonl (one
// file per model, one JSON object per line).
func Recordings(t testing.TB) []Recording {
	t.Helper()
	out, err := loadRecordings(recordings)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadRecordings(fsys fs.FS) ([]Recording, error) {
	files, err := fs.Glob(fsys, "recordings/*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	var out []Recording
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("llmtest: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for line := 1; sc.Scan(); line++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var r Recording
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				return nil, fmt.Errorf("llmtest: %s:%d: %w", path.Base(f), line, err)
			}
			if r.Name == "" || r.Question == "" || len(r.Sources) == 0 || r.Want.Why == "" {
				return nil, fmt.Errorf("llmtest: %s:%d: a recording needs a name, a question, sources and want.why", path.Base(f), line)
			}
			out = append(out, r)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("llmtest: %s: %w", path.Base(f), err)
		}
	}
	return out, nil
}
