package ingest_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/cewhq/cew/ingest"
)

// TestWhatAFolderIndexes: without a register, licences, read-mes and
// provenance notes are skipped; a .cewignore (gitignore syntax, nested ones
// for their folder) excludes files and folders and can bring a skipped
// file back; with a register only the files it lists are indexed.
func TestWhatAFolderIndexes(t *testing.T) {
	type want struct {
		outcome ingest.Outcome
		reason  error
	}
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]want
	}{
		{
			name: "stray files without a register",
			files: map[string]string{
				"PROVENANCE.md": "Where these files come from.", "tables/LICENSE.MATLAB_PV_LIB.txt": "BSD licence text",
				"README.md": "How to use this folder.", "NOTICE": "", "COPYING.txt": "GPL",
				"ABC-100 Trench specification.md": spec("800"), "Notice to proceed.md": "# Notice\n\nWork may start on 1 March.\n",
				"Changes_to_layout.md": "# Changes\n\nThe trench moved 2 m north.\n",
			},
			want: map[string]want{
				"PROVENANCE.md": {ingest.Ignored, ingest.ErrStrayFile}, "LICENSE.MATLAB_PV_LIB.txt": {ingest.Ignored, ingest.ErrStrayFile},
				"README.md": {ingest.Ignored, ingest.ErrStrayFile}, "COPYING.txt": {ingest.Ignored, ingest.ErrStrayFile},
				"ABC-100 Trench specification.md": {ingest.Indexed, nil}, "Notice to proceed.md": {ingest.Indexed, nil},
				"Changes_to_layout.md": {ingest.Indexed, nil},
			},
		},
		{
			name: ".cewignore",
			files: map[string]string{
				".cewignore":                      "# drafts are not issued\ndrafts/\n*.csv\n!README.md\n",
				"README.md":                       "# Site rules\n\nHard hats at all times.\n",
				"ABC-100 Trench specification.md": spec("800"),
				"drafts/ABC-100 Rev B Trench.md":  spec("900"),
				"schedule.csv":                    "Item,Qty\nCable,10\n",
				"sub/.cewignore":                  "old-*.md\n",
				"sub/old-notes.md":                "old",
				"sub/new-notes.md":                "# Notes\n\nNew notes.\n",
				"other/old-plan.md":               "# Plan\n\nThe old plan.\n",
			},
			want: map[string]want{
				"README.md": {ingest.Indexed, nil}, "ABC-100 Trench specification.md": {ingest.Indexed, nil},
				"drafts": {ingest.Ignored, ingest.ErrIgnoredByRule}, "schedule.csv": {ingest.Ignored, ingest.ErrIgnoredByRule},
				"old-notes.md": {ingest.Ignored, ingest.ErrIgnoredByRule}, "new-notes.md": {ingest.Indexed, nil},
				"other/old-plan.md": {ingest.Indexed, nil},
			},
		},
		{
			name: "a register lists what is indexed",
			files: map[string]string{
				"register.csv": "Document No,Rev,File\nABC-100,1,spec.md\nREAD-1,1,README.md\n",
				"spec.md":      spec("800"), "README.md": "# Read me\n\nListed, so indexed.\n", "notes.txt": "not listed",
			},
			want: map[string]want{
				"spec.md": {ingest.Indexed, nil}, "README.md": {ingest.Indexed, nil}, "notes.txt": {ingest.Ignored, ingest.ErrNotInRegister},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 0)
			for name, text := range tc.files {
				e.write(t, name, text)
			}
			rep := e.ingest(t, e.dir)
			if len(rep.Files) != len(tc.want) {
				t.Errorf("%d results, want %d: %+v", len(rep.Files), len(tc.want), rep.Files)
			}
			for suffix, w := range tc.want {
				f := result(t, rep, filepath.FromSlash(suffix))
				if f.Outcome != w.outcome || (w.reason != nil && !errors.Is(f.Err, w.reason)) {
					t.Errorf("%s: %s (%v), want %s (%v)", suffix, f.Outcome, f.Err, w.outcome, w.reason)
				}
			}
		})
	}
}
