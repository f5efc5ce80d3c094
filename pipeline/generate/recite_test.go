package generate

import (
	"context"
	"testing"

	"github.com/cewhq/cew/store"
)

func TestRecite(t *testing.T) {
	chunks := []store.Chunk{
		{DocNumber: "NREL-TP-6A20-62641", Title: "PVWatts Version 5 Manual", Page: 14,
			Text: "Table 6. System Losses\nLoss mechanism | Default value\nSoiling | 2%\nShading | 3%"},
		{DocNumber: "277-007-D-C-40327", Title: "Trenches crossing layout", Page: 2,
			Text: "DC cables shall be laid in trenches with a minimum depth of 800 mm. AC cables shall be laid at a minimum depth of 1000 mm."},
	}
	const q = "What is the minimum trench depth for DC cables?"
	tests := []struct{ name, in, want string }{
		{name: "wrong source re-cited", in: "DC cables shall be laid at a minimum depth of 800 mm [S1].",
			want: "DC cables shall be laid at a minimum depth of 800 mm [S2]."},
		{name: "right source kept", in: "DC cables shall be laid at a minimum depth of 800 mm [S2].",
			want: "DC cables shall be laid at a minimum depth of 800 mm [S2]."},
		{name: "a value no source states stays wrong", in: "DC cables shall be laid at a minimum depth of 900 mm [S1].",
			want: "DC cables shall be laid at a minimum depth of 900 mm [S1]."},
		{name: "uncited stays uncited", in: "DC cables shall be laid at a minimum depth of 800 mm.",
			want: "DC cables shall be laid at a minimum depth of 800 mm."},
		{name: "only the failing sentence changes", in: "The default soiling loss is 2% [S1]. DC cables shall be laid at a minimum depth of 800 mm [S1].",
			want: "The default soiling loss is 2% [S1]. DC cables shall be laid at a minimum depth of 800 mm [S2]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recite(context.Background(), q, tt.in, chunks); got != tt.want {
				t.Errorf("recite(%q) =\n %q\nwant\n %q", tt.in, got, tt.want)
			}
		})
	}
}
