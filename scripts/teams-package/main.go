// Command teams-package builds the Teams app package (a zip of
// manifest.json and its two icons) from deploy/teams, filling in the
// bot's Microsoft App ID and the public host that serves cew:
//
//	go run ./scripts/teams-package -app-id <guid> -host cew.example.com -o bin/cew-teams.zip
package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	guid        = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	hostname    = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]+)?$`)
	placeholder = regexp.MustCompile(`\{\{[A-Z_]+\}\}`)
)

// icons and the size Teams requires of each.
var icons = map[string]int{"color.png": 192, "outline.png": 32}

func main() {
	dir := flag.String("dir", "deploy/teams", "folder with manifest.json, color.png and outline.png")
	appID := flag.String("app-id", os.Getenv("MICROSOFT_APP_ID"), "the Azure Bot's Microsoft App ID (a GUID)")
	host := flag.String("host", os.Getenv("CEW_PUBLIC_HOST"), "public host name that serves cew over HTTPS")
	out := flag.String("o", "bin/cew-teams.zip", "the package to write")
	manifestOut := flag.String("manifest", "", "also write the filled manifest.json here (for validation)")
	flag.Parse()
	if err := build(*dir, *appID, *host, *out, *manifestOut); err != nil {
		fmt.Fprintln(os.Stderr, "teams-package:", err)
		os.Exit(1)
	}
	fmt.Println("wrote", *out)
}

func build(dir, appID, host, out, manifestOut string) error {
	var problems []string
	if !guid.MatchString(appID) {
		problems = append(problems, "-app-id (MICROSOFT_APP_ID) must be the bot's Microsoft App ID, a GUID")
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "https://"), "/")
	if !hostname.MatchString(host) {
		problems = append(problems, "-host (CEW_PUBLIC_HOST) must be a host name such as cew.example.com")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	filled := strings.NewReplacer("{{MICROSOFT_APP_ID}}", appID, "{{CEW_PUBLIC_HOST}}", host).Replace(string(manifest))
	if left := placeholder.FindString(filled); left != "" {
		return fmt.Errorf("manifest.json: placeholder %s not filled", left)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, data []byte) error {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	if err := add("manifest.json", []byte(filled)); err != nil {
		return err
	}
	for _, name := range []string{"color.png", "outline.png"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if cfg.Width != icons[name] || cfg.Height != icons[name] {
			return fmt.Errorf("%s is %dx%d, Teams needs %dx%d", name, cfg.Width, cfg.Height, icons[name], icons[name])
		}
		if err := add(name, data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if manifestOut != "" {
		if err := os.WriteFile(manifestOut, []byte(filled), 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}
