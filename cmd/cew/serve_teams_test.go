package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/adapters/teams/teamstest"
)

// TestServeTeams runs `cew serve` with Teams configured against a local
// Bot Framework stand-in: a personal message is answered from the indexed
// documents as an Adaptive Card through the connector, and a request
// without a valid token is refused.
func TestServeTeams(t *testing.T) {
	const appID = "11111111-2222-3333-4444-555555555555"
	ms, err := teamstest.New(appID, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer ms.Close()
	docs := t.TempDir()
	spec := "# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n"
	if err := os.WriteFile(filepath.Join(docs, "277-007-D-C-40327 Rev 03 Trenches crossing layout.md"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_ADDR": addr, "MICROSOFT_APP_ID": appID, "MICROSOFT_APP_PASSWORD": "teamstest-password",
		"CEW_TEAMS_OPENID_METADATA_URL": ms.MetadataURL(), "CEW_TEAMS_TOKEN_URL": ms.TokenURL(),
	}
	run := runWith(env)
	if out, err := run(context.Background(), "ingest", docs); err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	base, stop := serveInBackground(t, addr, run)
	activity := `{"type":"message","id":"act-1","serviceUrl":"` + ms.ServiceURL() + `","channelId":"msteams",
		"from":{"id":"29:user","aadObjectId":"aad-1"},"recipient":{"id":"28:` + appID + `"},
		"conversation":{"id":"a:personal","conversationType":"personal"},"channelData":{"tenant":{"id":"t1"}},
		"text":"What is the minimum trench depth for DC cables?"}`
	post := func(authorization string) int {
		req, _ := http.NewRequest(http.MethodPost, base+"/api/messages", strings.NewReader(activity))
		req.Header.Set("Content-Type", "application/json")
		if authorization != "" {
			req.Header.Set("Authorization", authorization)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post(""); code != http.StatusUnauthorized {
		t.Errorf("no token: status %d, want 401", code)
	}
	auth, err := ms.Authorization(ms.ServiceURL())
	if err != nil {
		t.Fatal(err)
	}
	if code := post(auth); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	var reply teamstest.Received
	waitFor(t, "the reply", func() bool {
		for _, r := range ms.Received() {
			if strings.HasSuffix(r.Path, "/activities/act-1") {
				reply = r
				return true
			}
		}
		return false
	})
	body := string(reply.Body)
	for _, want := range []string{"800 mm", "application/vnd.microsoft.card.adaptive", "277-007-D-C-40327", `"version":"1.5"`} {
		if !strings.Contains(body, want) {
			t.Errorf("reply lacks %q: %s", want, body)
		}
	}
	if reply.Authorization != "Bearer teamstest-bot-token" {
		t.Errorf("reply authorization %q", reply.Authorization)
	}
	logs := stop()
	if strings.Contains(logs, "teamstest-password") || strings.Contains(logs, "teamstest-bot-token") {
		t.Error("a secret reached the logs")
	}
}

// serveInBackground starts `cew serve` on addr, waits for /healthz, and
// returns its base URL and a stop func that shuts it down gracefully and
// returns its logs.
func serveInBackground(t *testing.T, addr string, run func(ctx context.Context, args ...string) (string, error)) (string, func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	var logs string
	go func() {
		var err error
		logs, err = run(ctx, "serve")
		served <- err
	}()
	base := "http://" + addr
	waitFor(t, "the server", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return base, func() string {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Fatalf("serve: %v\n%s", err, logs)
			}
		case <-time.After(40 * time.Second):
			t.Fatal("serve did not shut down")
		}
		return logs
	}
}
