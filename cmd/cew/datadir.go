package main

import (
	"os"
	"path/filepath"
)

// dataDirName is the name of a project's data directory, found upwards
// from the working directory.
const dataDirName = ".cew"

// defaultDataDir is where cew keeps its index when CEW_DATA_DIR (or
// --data-dir) is not set, so every command finds the same index whatever
// folder it runs from:
//
//  1. the nearest .cew directory in cwd or above it, as git finds .git —
//     a project (the demo in a clone, say) keeps its index beside it;
//  2. otherwise the user's data directory: $XDG_DATA_HOME/cew when that is
//     an absolute path, else ~/.local/share/cew.
//
// Only when no home directory is known does it fall back to .cew in cwd.
func defaultDataDir(cwd string, getenv func(string) string) string {
	for dir := cwd; dir != ""; {
		candidate := filepath.Join(dir, dataDirName)
		if info, err := os.Stat(candidate); err == nil && info.IsDir() {
			return candidate
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if xdg := getenv("XDG_DATA_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "cew")
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "share", "cew")
	}
	return filepath.Join(cwd, dataDirName)
}

// workingDir is the working directory, or "" when it cannot be known (it
// was removed): the search upwards is then skipped.
func workingDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}
