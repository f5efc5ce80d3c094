package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfig loads any YAML file and any value of one setting: never a
// panic, a problem is reported one per line naming what it is about, and a
// secret given in the file never appears in the error.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range [][3]string{
		{"tenant: acme\nllm_model: gpt-x\nllm_base_url: http://localhost:11434/v1\n", "CEW_MAX_FILE_MB", "7"},
		{"store: milvus\n", "MILVUS_ADDRESS", ""},
		{"slack_tenants: T1=a/../b\n", "CEW_TENANT", ".."},
		{"redis_url: http://x\nmetrics_addr: nope\n", "CEW_ADDR", "0.0.0.0:8080"},
		{"- a list\n", "CEW_PROBE_INTERVAL", "-1s"},
		{"tenant: [1, 2]\ncache_ttl: {a: b}\n", "CEW_LOG_LEVEL", "loud"},
		{"\x00\xff: :", "CEW_EMBED", "onnx"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	const secret = "xoxb-FUZZ-SECRET-4242"
	names := map[string]bool{}
	for _, s := range settings {
		names[s.env] = true
	}
	f.Fuzz(func(t *testing.T, yaml, key, value string) {
		path := filepath.Join(t.TempDir(), "cew.yaml")
		body := yaml
		if !strings.Contains(yaml, secret) {
			body = "slack_bot_token: " + secret + "\n" + yaml
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"CEW_CONFIG": path}
		if names[key] {
			env[key] = value
		}
		_, err := LoadConfig(func(k string) string { return env[k] })
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, secret) && !strings.Contains(yaml, secret) {
			t.Fatalf("the token reached the error:\n%s", msg)
		}
		lines := strings.Split(msg, "\n")
		if lines[0] != "invalid configuration:" {
			t.Fatalf("first line %q", lines[0])
		}
		for _, l := range lines[1:] {
			if strings.TrimSpace(l) == "" {
				t.Fatalf("an empty problem line in:\n%s", msg)
			}
		}
	})
}
