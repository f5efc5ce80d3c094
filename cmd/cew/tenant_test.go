package main

import (
	"strings"
	"testing"
)

// TestTenantValidatedEverywhere: a tenant name is held to one rule whether
// it comes from CEW_TENANT, --tenant or a tenant map.
func TestTenantValidatedEverywhere(t *testing.T) {
	docs := writeDocs(t)
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string // "" = accepted
	}{
		{name: "flag with a path", args: []string{"--tenant", "a/../b", "ingest", docs}, wantErr: "--tenant"},
		{name: "environment with a path", env: map[string]string{"CEW_TENANT": "a/../b"}, args: []string{"ingest", docs}, wantErr: "CEW_TENANT"},
		{name: "flag of dots", args: []string{"--tenant", "..", "status"}, wantErr: "--tenant"},
		{name: "flag with a backslash", args: []string{"--tenant", `a\b`, "status"}, wantErr: "--tenant"},
		{name: "flag with a newline", args: []string{"--tenant", "a\nb", "status"}, wantErr: "--tenant"},
		{name: "flag set empty", args: []string{"--tenant=", "status"}, wantErr: "--tenant"},
		{name: "flag too long", args: []string{"--tenant", strings.Repeat("t", 129), "status"}, wantErr: "--tenant"},
		{name: "tenant map with a path", env: map[string]string{"CEW_SLACK_TENANTS": "T1=../x"}, args: []string{"status"}, wantErr: "CEW_SLACK_TENANTS"},
		{name: "a plain name by flag", args: []string{"--tenant", "beta-2.site_A", "ingest", docs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			for k, v := range tt.env {
				c.env[k] = v
			}
			_, stderr, code := c.run(t, "", tt.args...)
			if tt.wantErr == "" {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				return
			}
			if code != 2 || !strings.Contains(stderr, tt.wantErr) || !strings.Contains(stderr, "not a valid tenant name") {
				t.Errorf("exit %d, stderr %q; want 2 naming %s", code, stderr, tt.wantErr)
			}
		})
	}
}
