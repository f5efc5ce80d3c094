package main

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy", "teams")
	tests := []struct {
		name, appID, host string
		wantErr           string
	}{
		{"filled", "11111111-2222-3333-4444-555555555555", "https://cew.example.com/", ""},
		{"not a guid", "my-bot", "cew.example.com", "GUID"},
		{"no host", "11111111-2222-3333-4444-555555555555", "", "host name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "app.zip")
			err := build(dir, tt.appID, tt.host, out, "")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			zr, err := zip.OpenReader(out)
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			names := map[string]string{}
			for _, f := range zr.File {
				rc, _ := f.Open()
				data, _ := io.ReadAll(rc)
				rc.Close()
				names[f.Name] = string(data)
			}
			if len(names) != 3 || names["color.png"] == "" || names["outline.png"] == "" {
				t.Errorf("package holds %d files", len(names))
			}
			m := names["manifest.json"]
			if strings.Contains(m, "{{") || !strings.Contains(m, `"botId": "11111111-2222-3333-4444-555555555555"`) ||
				!strings.Contains(m, "https://cew.example.com/privacy") {
				t.Errorf("manifest not filled:\n%s", m)
			}
		})
	}
}
