//go:build unix

package onnx_test

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchPassage is about 70 words of specification prose; passages repeat it
// one to four times, the length range of cew's chunks (≈ 100–450 tokens).
const benchPassage = "DC cables between the combiner boxes and the inverters shall be laid in trenches at a minimum depth of 800 mm below finished ground level, " +
	"on a 100 mm bed of sand, with warning tape 300 mm above the cables. Where a trench crosses an access road the cables shall be drawn through " +
	"ducts encased in concrete; AC cables shall keep a separation of at least 300 mm from DC cables along the whole route. "

// benchQuestions range from shorthand to a long question with a ticket
// number, as engineers type them.
var benchQuestions = []string{
	"What is the minimum trench depth for DC cables?",
	"temp coeff premium modules",
	"defualt sytem losses in pvwats?",
	"what is the Paco of the SB7000TL-US-22 inverter at 208 V",
	"GCR for 1-axis trackers",
	"INOCT thin film",
	"Which inverter efficiency weighting does the CEC library use, and how does it differ from the European efficiency? Ticket #4812, see table 6 of the spec",
	"status of the CEC inverter library",
}

// BenchmarkEmbedQuery reports p50 and p99 of embedding one question, the
// cost every answer with the local embedder pays once.
func BenchmarkEmbedQuery(b *testing.B) {
	e := open(b)
	b.ReportAllocs()
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := e.EmbedQueries(context.Background(), benchQuestions[i%len(benchQuestions):i%len(benchQuestions)+1]); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	at := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

func BenchmarkEmbedPassages64(b *testing.B) {
	e := open(b)
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = strings.Repeat(benchPassage, 1+i%4)
	}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := e.EmbedPassages(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(len(texts) * b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "passages/s")
	// CPU time per passage (every thread of the process, ONNX Runtime's
	// included) does not depend on what else the machine is running.
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/n, "cpu-ms/passage")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
