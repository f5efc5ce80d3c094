package register_test

import (
	"context"
	"testing"
	"time"

	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/register"
)

// catalog is a fixed list of documents.
type catalog []store.Document

func (c catalog) Documents(context.Context, string) ([]store.Document, error) { return c, nil }
func (c catalog) Generation(context.Context, string) (uint64, error)          { return 1, nil }

func TestLookup(t *testing.T) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	docs := catalog{
		{ID: "277-007-d-c-40327", Number: "277-007-D-C-40327", Title: "Trenches crossing layout", Revision: "02", Status: "Superseded", IndexedAt: at},
		{ID: "277-007-d-c-40327", Number: "277-007-D-C-40327", Title: "Trenches crossing layout", Revision: "03", Status: "IFC", Active: true, DriveLink: "https://drive.google.com/x", IndexedAt: at},
		{ID: "nrel-tp-6a20-62641", Number: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Revision: "1", Active: true},
		{ID: "cec-inverters", Number: "CEC-INVERTERS", Title: "CEC inverter library", Revision: "1", Active: true},
	}
	tests := []struct {
		name  string
		query string
		want  []string // numbers, best first
	}{
		{"exact number", "277-007-D-C-40327", []string{"277-007-D-C-40327"}},
		{"number without separators", "277007DC40327", []string{"277-007-D-C-40327"}},
		{"number fragment", "40327", []string{"277-007-D-C-40327"}},
		{"title words", "pvwatts manual", []string{"NREL-TP-6A20-62641"}},
		{"title with a typo", "trenchs crosing layout", []string{"277-007-D-C-40327"}},
		{"no match", "concrete mix design", nil},
		{"another version of a title", "PVWatts Version 1 manual", nil},
		{"another number beside title words", "pvwatts manual NREL/TP-6A20-60272", nil},
		{"digits of a code in the number", "pvwatts manual, tp 6a 20", []string{"NREL-TP-6A20-62641"}},
		{"title words and the revision asked", "trenches crossing layout rev 4", []string{"277-007-D-C-40327"}},
		{"an ordinal is no number of the name", "the 2nd trenches crossing layout", []string{"277-007-D-C-40327"}},
		{"everything", "", []string{"277-007-D-C-40327", "CEC-INVERTERS", "NREL-TP-6A20-62641"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := register.Lookup(context.Background(), docs, "acme", tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < len(tc.want) || (tc.want == nil && len(got) != 0) {
				t.Fatalf("got %d entries %+v, want %v", len(got), got, tc.want)
			}
			for i, n := range tc.want {
				if got[i].Number != n {
					t.Errorf("entry %d = %s, want %s", i, got[i].Number, n)
				}
			}
		})
	}
	t.Run("current revision and superseded ones", func(t *testing.T) {
		got, _ := register.Lookup(context.Background(), docs, "acme", "277-007-D-C-40327")
		e := got[0]
		if e.Revision != "03" || e.Status != "IFC" || !e.Active || e.DriveLink == "" || len(e.Superseded) != 1 || e.Superseded[0].Revision != "02" {
			t.Errorf("entry = %+v", e)
		}
	})
}
