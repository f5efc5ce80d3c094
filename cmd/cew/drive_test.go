package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cewhq/cew/drive/drivetest"
)

func driveLink(id string) string {
	return "https://drive.google.com/file/d/" + id + "/view?usp=drivesdk"
}

// newDrive starts a fake Drive with a shared folder "Project"; it returns
// the server, the path of a service-account key for it and the folder's id.
func newDrive(t *testing.T) (srv *drivetest.Server, key, root string) {
	t.Helper()
	srv = drivetest.New(true)
	t.Cleanup(srv.Close)
	key, err := srv.ServiceAccountJSON(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return srv, key, srv.AddFolder("", "Project")
}

// TestIngestDriveAndLocal: `cew ingest drive:<id> <folder>` indexes both;
// a second run reads Drive's Changes feed and downloads nothing.
func TestIngestDriveAndLocal(t *testing.T) {
	srv, key, root := newDrive(t)
	id := srv.AddFile(root, "277-009-S-E-002 Rev 01 Earthing.md", "text/markdown",
		[]byte("# Earth grid\n\nThe earth grid conductor is 95 mm2 bare copper.\n"))
	srv.AddFile(root, "Photo.jpg", "image/jpeg", []byte("not a document"))
	local := t.TempDir()
	if err := os.WriteFile(filepath.Join(local, "LOC-1 Rev 2 Fencing.md"), []byte("# Fence\n\nThe perimeter fence is 2.4 m high.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"CEW_DATA_DIR": t.TempDir(), "CEW_EMBED": "none",
		"CEW_DRIVE_API_URL": srv.Endpoint(), "GOOGLE_APPLICATION_CREDENTIALS": key,
	}
	run := func(args ...string) (string, error) { return runWith(env)(context.Background(), args...) }
	out, err := run("ingest", "drive:"+root, local)
	if err != nil {
		t.Fatalf("ingest: %v\n%s", err, out)
	}
	for _, want := range []string{
		`drive:` + root + ` "Project" (tenant default): full listing`,
		"indexed    277-009-S-E-002 Rev 01 Earthing.md  (277-009-S-E-002 rev 01",
		"skipped    Photo.jpg: unsupported type: image/jpeg",
		"indexed    " + filepath.Join(local, "LOC-1 Rev 2 Fencing.md"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = run("search", "--json", "earth grid conductor")
	if err != nil || !strings.Contains(out, `"drive_link":"`+driveLink(id)+`"`) {
		t.Errorf("search: %v\n%s", err, out)
	}
	out, err = run("ingest", "drive:"+root)
	if err != nil || !strings.Contains(out, "changes since the last sync") || !strings.Contains(out, "0 files downloaded") {
		t.Errorf("second ingest: %v\n%s", err, out)
	}
	out, err = run("ingest", "drive:nosuchfolder")
	if err == nil || !strings.Contains(err.Error(), "not found or not shared") {
		t.Errorf("a folder not shared with cew: %v\n%s", err, out)
	}
	if strings.Contains(out, srv.AccessToken()) {
		t.Error("the access token reached the output")
	}
}

// TestServeSyncsDrive is the end-to-end case: `cew serve` with
// CEW_DRIVE_FOLDERS answers, in Slack, a question about a file that
// appeared in Drive after start-up, with its webViewLink on the "Open in
// Drive" button; the answer cache's generation moves with the sync.
func TestServeSyncsDrive(t *testing.T) {
	srv, key, root := newDrive(t)
	srv.AddFile(root, "277-007-D-C-40327 Rev 03 Trenches.md", "text/markdown",
		[]byte("# 4.2 Cable trenches\n\nThe minimum trench depth for DC cables is 800 mm from finished ground level.\n"))
	slack := newSlackRecorder(t)
	addr := freeAddr(t)
	dataDir := t.TempDir()
	env := map[string]string{
		"CEW_DATA_DIR": dataDir, "CEW_ADDR": addr, "SLACK_BOT_TOKEN": testBotToken, "CEW_EMBED": "none",
		"SLACK_SIGNING_SECRET": testSigningSecret, "CEW_SLACK_API_URL": slack.srv.GetAPIURL(), "CEW_LOG_LEVEL": "debug",
		"CEW_DRIVE_FOLDERS": "default:" + root, "CEW_DRIVE_SYNC_INTERVAL": "200ms",
		"CEW_DRIVE_API_URL": srv.Endpoint(), "GOOGLE_APPLICATION_CREDENTIALS": key,
	}
	base, stop := serveInBackground(t, addr, runWith(env))
	indexed := func(n int) func() bool {
		return func() bool {
			return metricValue(t, base, `cew_drive_files_total{outcome="indexed",tenant="default"}`) >= float64(n)
		}
	}
	waitFor(t, "the first Drive sync", indexed(1))
	if _, r := getReadiness(t, base); r.Checks["drive"] != "ok" {
		t.Errorf("readyz drive check %q", r.Checks["drive"])
	}

	events := 0
	ask := func(question string) {
		events++
		body := fmt.Sprintf(`{"token":"x","team_id":"T1","api_app_id":"A1","type":"event_callback","event_id":"EvD%03d","event_time":1700000000,
			"event":{"type":"app_mention","user":"U123","text":"<@UCEW> %s","ts":"1700000100.%06d","channel":"C1","event_ts":"1700000100.%06d"}}`, events, question, events, events)
		resp, err := http.DefaultClient.Do(signedEvent(t, base, []byte(body), testSigningSecret, 0))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	answered := func(phrase string) (string, bool) {
		for _, c := range slack.calls() {
			if strings.Contains(c.Get("blocks"), phrase) {
				return c.Get("blocks"), true
			}
		}
		return "", false
	}
	audit := func() []map[string]any { return auditRecords(t, filepath.Join(dataDir, "audit", "audit.jsonl")) }

	// A question asked twice is answered from the cache the second time.
	depth := "What is the minimum trench depth for DC cables?"
	ask(depth)
	waitFor(t, "the first answer", func() bool { return len(audit()) == 1 })
	ask(depth)
	waitFor(t, "the second answer", func() bool { return len(audit()) == 2 })
	if recs := audit(); recs[0]["cached"] == true || recs[1]["cached"] != true {
		t.Fatalf("cache before the new file: %v / %v", recs[0]["cached"], recs[1]["cached"])
	}

	// A file appears in Drive after start-up.
	added := time.Now()
	newID := srv.AddFile(root, "277-009-S-E-002 Rev 01 Earthing.md", "text/markdown",
		[]byte("# 6.1 Earth grid\n\nThe minimum size of the earth grid conductor is 95 mm2 bare copper.\n"))
	waitFor(t, "the sync of the new file", indexed(2))
	ask("What is the minimum size of the earth grid conductor?")
	waitFor(t, "the answer about the new file", func() bool { _, ok := answered("95 mm2"); return ok })
	t.Logf("a file added to Drive was answered %s later (sync interval %s)", time.Since(added).Round(time.Millisecond), env["CEW_DRIVE_SYNC_INTERVAL"])
	blocks, _ := answered("95 mm2")
	if !strings.Contains(blocks, driveLink(newID)) || !strings.Contains(blocks, "Open in Drive") {
		t.Errorf("the answer's button does not carry the file's webViewLink %s:\n%s", driveLink(newID), blocks)
	}

	// The index changed, so the cached answer is not served again.
	ask(depth)
	waitFor(t, "the answer after the sync", func() bool { return len(audit()) == 4 })
	if recs := audit(); recs[3]["cached"] == true {
		t.Errorf("an answer cached before the sync was served after it")
	}

	logs := stop()
	for _, secret := range []string{testBotToken, testSigningSecret, srv.AccessToken()} {
		if strings.Contains(logs, secret) {
			t.Errorf("a secret reached the logs")
		}
	}
}

// metricValue reads one sample from /metrics; 0 when absent.
func metricValue(t *testing.T, base, sample string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), sample+" "); ok {
			var f float64
			fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}

func auditRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["kind"] == "answer" {
			out = append(out, rec)
		}
	}
	return out
}
