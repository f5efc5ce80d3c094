package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cewhq/cew/ingest/ingesttest"
)

// childEnv makes the test binary run cew itself (for the benchmarks that
// measure a whole process: its peak RSS, its exit after SIGTERM).
const childEnv = "CEW_BENCH_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signalContext()
		err := execute(ctx, os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.Args[1:])
		stop()
		if err != nil {
			if ee, ok := err.(exitError); ok {
				os.Exit(ee.code)
			}
			fmt.Fprintln(os.Stderr, "cew:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fullScale says whether the reliability benchmarks run at the probe's
// sizes (CEW_BENCH_FULL=1, `make bench-reliability`) or at a tenth, so
// `make bench` stays short.
func fullScale() bool { return os.Getenv("CEW_BENCH_FULL") == "1" }

func scaled(n int64) int64 {
	if fullScale() {
		return n
	}
	return max(n/10, 1)
}

// probeFile is one of the reliability probe's files.
type probeFile struct {
	name string
	make func(path string) error
}

func probeFiles() []probeFile {
	return []probeFile{
		{"wide.csv", func(p string) error { return ingesttest.WideCSV(p, scaled(50<<20)) }},
		{"single-cell.csv", func(p string) error { return ingesttest.SingleCellCSV(p, scaled(50<<20)) }},
		{"bomb.docx", func(p string) error { return ingesttest.DOCXBomb(p, scaled(250<<20)) }},
		{"bomb.xlsx", func(p string) error { return ingesttest.XLSXBomb(p, scaled(900<<20)) }},
		{"million-rows.xlsx", func(p string) error { return ingesttest.Sheet(p, int(scaled(1_000_000)), 3) }},
		{"pages.pdf", func(p string) error { return ingesttest.PagesPDF(p, int(scaled(100_000))) }},
		{"deep.docx", func(p string) error { return ingesttest.DeepDOCX(p, int(scaled(100_000))) }},
		// The largest files the default limits accept, indexed.
		{"50k-rows.xlsx", func(p string) error { return ingesttest.Sheet(p, int(scaled(50_000)), 3) }},
		{"4000-pages.pdf", func(p string) error { return ingesttest.PagesPDF(p, int(scaled(4000))) }},
	}
}

// childResult is what one cew child process did.
type childResult struct {
	peakRSSMB float64
	wall      time.Duration
	out       string
	exit      int
}

// runChild runs cew args as a child process with env added; stopAfter,
// when positive, sends SIGTERM that long after the start and the result's
// wall time is then the time from the signal to the exit.
func runChild(b *testing.B, env []string, stopAfter time.Duration, args ...string) childResult {
	b.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var signalled time.Time
	if stopAfter > 0 {
		timer := time.AfterFunc(stopAfter, func() {
			signalled = time.Now()
			_ = cmd.Process.Signal(syscall.SIGTERM)
		})
		defer timer.Stop()
	}
	err := cmd.Wait()
	end := time.Now()
	res := childResult{out: out.String(), wall: end.Sub(start)}
	if !signalled.IsZero() {
		res.wall = end.Sub(signalled)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		res.exit = ee.ExitCode()
	} else if err != nil {
		b.Fatal(err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.peakRSSMB = float64(ru.Maxrss) / 1024 // Linux reports KiB
	}
	return res
}

// BenchmarkIngestMemory ingests each probe file in its own cew process and
// reports its peak RSS against CEW_MAX_INGEST_MB (512) and how long it took;
// each file must be skipped with a limit or indexed, never take more.
//
//	make bench-reliability   # full size: CEW_BENCH_FULL=1 go test -run '^$' -bench IngestMemory -benchtime 1x ./cmd/cew
func BenchmarkIngestMemory(b *testing.B) {
	dir := b.TempDir()
	for _, pf := range probeFiles() {
		path := filepath.Join(dir, pf.name)
		if err := pf.make(path); err != nil {
			b.Fatal(err)
		}
		st, _ := os.Stat(path)
		b.Run(pf.name, func(b *testing.B) {
			var last childResult
			for b.Loop() {
				data := warmDataDir(b, dir)
				last = runChild(b, []string{"CEW_DATA_DIR=" + data, "CEW_EMBED=none", "CEW_MAX_INGEST_MB=512"}, 0, "ingest", path)
			}
			b.ReportMetric(last.peakRSSMB, "peak-RSS-MB")
			b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
			b.ReportMetric(last.wall.Seconds(), "s")
			b.Logf("%s (%.1f MB): exit %d, peak RSS %.0f MB, %.1f s: %s", pf.name, float64(st.Size())/(1<<20), last.exit,
				last.peakRSSMB, last.wall.Seconds(), outcomeLine(last.out))
			if last.peakRSSMB > 512 {
				b.Errorf("%s took %.0f MB, over the 512 MB budget", pf.name, last.peakRSSMB)
			}
		})
	}
}

// warmDataDir is a fresh data directory whose PDF engine is compiled
// already (as after any first ingest), so a measurement is of the file.
func warmDataDir(b *testing.B, scratch string) string {
	b.Helper()
	data := b.TempDir()
	tiny := filepath.Join(scratch, "warm-up.pdf")
	if _, err := os.Stat(tiny); err != nil {
		if err := ingesttest.PagesPDF(tiny, 1); err != nil {
			b.Fatal(err)
		}
	}
	if res := runChild(b, []string{"CEW_DATA_DIR=" + data, "CEW_EMBED=none", "CEW_TENANT=warm-up"}, 0, "ingest", tiny); res.exit != 0 {
		b.Fatalf("warm-up: %s", res.out)
	}
	return data
}

// outcomeLine is the line of cew ingest's report about the file.
func outcomeLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "indexed") || strings.HasPrefix(l, "skipped") {
			return l
		}
	}
	return strings.TrimSpace(out)
}

// BenchmarkIngestStop sends SIGTERM to cew ingest while it reads, chunks,
// embeds or writes a large file that is within its limits, and reports the
// time from the signal to the process's exit (target ≤ 2 s), and that the
// index holds none of the file.
//
//	CEW_BENCH_FULL=1 go test -run '^$' -bench IngestStop -benchtime 1x ./cmd/cew
func BenchmarkIngestStop(b *testing.B) {
	dir := b.TempDir()
	// The largest files the default limits accept.
	files := []probeFile{
		{"50k-rows.xlsx", func(p string) error { return ingesttest.Sheet(p, int(scaled(50_000)), 3) }},
		{"4000-pages.pdf", func(p string) error { return ingesttest.PagesPDF(p, int(scaled(4000))) }},
		{"50k-rows.csv", func(p string) error { return writeRowsCSV(p, int(scaled(50_000))) }},
	}
	for _, pf := range files {
		path := filepath.Join(dir, pf.name)
		if err := pf.make(path); err != nil {
			b.Fatal(err)
		}
		for _, after := range []time.Duration{500 * time.Millisecond, 2 * time.Second, 5 * time.Second} {
			b.Run(fmt.Sprintf("%s/after-%s", pf.name, after), func(b *testing.B) {
				var last childResult
				var data string
				for b.Loop() {
					data = warmDataDir(b, dir)
					last = runChild(b, []string{"CEW_DATA_DIR=" + data, "CEW_EMBED=none"}, after, "ingest", path)
				}
				if last.exit != 0 {
					b.ReportMetric(last.wall.Seconds(), "s-to-exit")
				}
				b.Logf("%s, SIGTERM after %s: exit %d within %.2f s: %s", pf.name, after, last.exit, last.wall.Seconds(), outcomeLine(last.out))
				if last.exit == 0 {
					b.Logf("%s finished before the signal", pf.name)
					return
				}
				if last.wall > 2*time.Second {
					b.Errorf("exit took %.1f s after SIGTERM", last.wall.Seconds())
				}
				status := runChild(b, []string{"CEW_DATA_DIR=" + data, "CEW_EMBED=none"}, 0, "status", "--json")
				if strings.Contains(status.out, `"number":"`+strings.TrimSuffix(pf.name, filepath.Ext(pf.name))) {
					b.Errorf("the stopped file is in the index:\n%s", status.out)
				}
			})
		}
	}
}

func writeRowsCSV(path string, rows int) error {
	var buf bytes.Buffer
	buf.WriteString("Cable,Circuit,Depth (mm),Remarks\n")
	for i := range rows {
		fmt.Fprintf(&buf, "DC cable %d,C-%d,%d,laid in sand with warning tape above\n", i, i%97, 600+i%400)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// signalContext is main's: SIGINT and SIGTERM cancel it.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
