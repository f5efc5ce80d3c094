package onnx_test

import (
	"context"
	"strings"
	"testing"
)

// benchPassage is about 70 words of specification prose; passages repeat it
// one to four times, the length range of cew's chunks (≈ 100–450 tokens).
const benchPassage = "DC cables between the combiner boxes and the inverters shall be laid in trenches at a minimum depth of 800 mm below finished ground level, " +
	"on a 100 mm bed of sand, with warning tape 300 mm above the cables. Where a trench crosses an access road the cables shall be drawn through " +
	"ducts encased in concrete; AC cables shall keep a separation of at least 300 mm from DC cables along the whole route. "

func BenchmarkEmbedQuery(b *testing.B) {
	e := open(b)
	q := []string{"What is the minimum trench depth for DC cables?"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.EmbedQueries(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbedPassages64(b *testing.B) {
	e := open(b)
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = strings.Repeat(benchPassage, 1+i%4)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.EmbedPassages(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "passages/s")
}
