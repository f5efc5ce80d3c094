package ingest

import (
	"strings"
	"testing"
)

// cellAt is one cell of a synthetic line: its words set 4 units apart from
// x on, 10 units high at top.
type cellAt struct {
	x    float64
	text string
}

func synthLine(kind lineKind, top float64, cells ...cellAt) docLine {
	var ws []word
	for _, c := range cells {
		x := c.x
		for _, f := range strings.Fields(c.text) {
			w := word{text: f, x0: x, x1: x + 6*float64(len(f)), top: top, bottom: top + 10}
			if strings.HasSuffix(f, "-") && f != "-" {
				w.text, w.hyphen = strings.TrimSuffix(f, "-"), true
			}
			ws = append(ws, w)
			x = w.x1 + 4
		}
	}
	return docLine{line: newLine(ws), page: 1, kind: kind}
}

func TestJoinWrappedRows(t *testing.T) {
	caption := synthLine(kindCaption, 0, cellAt{100, "Table 1. Versions"})
	header := synthLine(kindTableRow, 14, cellAt{100, "Version"}, cellAt{200, "Description"}, cellAt{400, "Date"})
	tests := []struct {
		name  string
		lines []docLine
		want  []string
	}{
		{name: "a wrapped row is one row, a hyphenated word whole",
			lines: []docLine{caption, header,
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{200, "Original calcu-"}, cellAt{400, "1998"}),
				synthLine(kindProse, 42, cellAt{200, "lator online"}),
				synthLine(kindTableRow, 56, cellAt{100, "V2"}, cellAt{200, "Gridded"}, cellAt{400, "2001"}),
				synthLine(kindProse, 90, cellAt{90, "Text after the table."})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "V1 | Original calculator online | 1998",
				"V2 | Gridded | 2001", "Text after the table."}},
		{name: "cells that run together are split at the header's columns",
			lines: []docLine{caption, header,
				// "with" ends 10 units before "1998": too close for a
				// cell boundary by the gap.
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{206, "Original online calculator with"}, cellAt{396, "1998"}),
				synthLine(kindProse, 42, cellAt{200, "weather data"})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "V1 | Original online calculator with weather data | 1998"}},
		{name: "a line across the columns ends the table there",
			lines: []docLine{caption, header,
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{200, "Original"}, cellAt{400, "1998"}),
				synthLine(kindProse, 42, cellAt{200, "calculator"}),
				synthLine(kindProse, 56, cellAt{100, "A note that runs across every column of the table."})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "V1 | Original calculator | 1998",
				"A note that runs across every column of the table."}},
		{name: "a table of one line per row is left as it is",
			lines: []docLine{caption, header,
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{200, "Original"}, cellAt{400, "1998"}),
				synthLine(kindTableRow, 42, cellAt{100, "V2"}, cellAt{200, "Gridded"}, cellAt{400, "2001"})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "V1 | Original | 1998", "V2 | Gridded | 2001"}},
		{name: "a word across a column's start leaves the table as it is",
			lines: []docLine{caption, header,
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{200, "Original"}, cellAt{400, "1998"}),
				synthLine(kindProse, 42, cellAt{380, "overlapping"})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "V1 | Original | 1998", "overlapping"}},
		{name: "a row that leaves a column empty keeps its lines",
			lines: []docLine{caption, header,
				synthLine(kindProse, 28, cellAt{100, "Advanced"}),
				synthLine(kindTableRow, 42, cellAt{100, "V1"}, cellAt{200, "Original"}, cellAt{400, "1998"}),
				synthLine(kindProse, 56, cellAt{200, "calculator"})},
			want: []string{"Table 1. Versions", "Version | Description | Date", "Advanced", "V1 | Original calculator | 1998"}},
		{name: "labels on two lines head columns the rows confirm, over a page break",
			lines: []docLine{
				synthLine(kindTableRow, 0, cellAt{100, "Scenario"}, cellAt{160, "Scenario"}, cellAt{220, "GCR"}, cellAt{300, "Ground"}),
				synthLine(kindTableRow, 14, cellAt{100, "number"}, cellAt{160, "name"}, cellAt{300, "surface"}),
				synthLine(kindTableRow, 28, cellAt{100, "1"}, cellAt{160, "Ref-A"}, cellAt{220, "0.4"}, cellAt{300, "Horizontal"}),
				synthLine(kindTableRow, 42, cellAt{100, "2"}, cellAt{160, "A1"}, cellAt{220, "0.25"}, cellAt{300, "10%"}),
				synthLine(kindProse, 56, cellAt{300, "grade"}),
				func() docLine {
					// "Ref-B-xy" ends 8 units before "0.4": one cell by the gaps.
					l := synthLine(kindTableRow, 0, cellAt{100, "3"}, cellAt{160, "Ref-B-xy"}, cellAt{216, "0.4"}, cellAt{300, "Horizontal"})
					l.page = 2
					return l
				}()},
			want: []string{"Scenario number | Scenario name | GCR | Ground surface", "1 | Ref-A | 0.4 | Horizontal",
				"2 | A1 | 0.25 | 10% grade", "3 | Ref-B-xy | 0.4 | Horizontal"}},
		{name: "no caption, no table to rebuild",
			lines: []docLine{synthLine(kindProse, 0, cellAt{100, "Some text."}), header,
				synthLine(kindTableRow, 28, cellAt{100, "V1"}, cellAt{200, "Original"}, cellAt{400, "1998"}),
				synthLine(kindProse, 42, cellAt{200, "calculator"})},
			want: []string{"Some text.", "Version | Description | Date", "V1 | Original | 1998", "calculator"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := joinWrappedRows(tt.lines)
			texts := make([]string, len(got))
			for i, l := range got {
				texts[i] = l.text(" | ")
			}
			if strings.Join(texts, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
