package generate_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/pipeline/generate"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/pipeline/llm/llmtest"
)

func TestVerifier(t *testing.T) {
	tests := []struct {
		name    string
		reply   llmtest.Response
		want    bool
		wantErr bool
	}{
		{name: "supported", reply: llmtest.Answer("SUPPORTED"), want: true},
		{name: "supported with period", reply: llmtest.Answer("Supported."), want: true},
		{name: "not supported", reply: llmtest.Answer("NOT_SUPPORTED"), want: false},
		{name: "anything else is unsupported", reply: llmtest.Answer("Yes, probably"), want: false},
		{name: "client error", reply: llmtest.Error(400, "bad request"), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Script(tc.reply)
			chat := llm.NewChat(llm.EndpointConfig{BaseURL: srv.URL, Model: "m", Timeout: 5 * time.Second,
				Retry: llm.RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: time.Millisecond, MaxTries: 1}})
			got, err := generate.NewVerifier(chat).Supported(context.Background(),
				"The minimum trench depth is 800 mm.", []string{"DC cables are laid at a minimum depth of 800 mm."})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("Supported = %v, want %v", got, tc.want)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			if !strings.Contains(reqs[0].User(), "800 mm") {
				t.Errorf("the prompt does not carry the claim and evidence: %q", reqs[0].User())
			}
		})
	}
}
