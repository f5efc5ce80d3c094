package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/cewhq/cew/ingest"
)

func newIngestCmd(a *app) *cobra.Command {
	var acceptPartial bool
	cmd := &cobra.Command{
		Use:   "ingest PATH|drive:ID...",
		Short: "Index documents (PDF, XLSX, CSV, DOCX, Markdown, text) and their register",
		Long: `Index files and folders. A register.csv or register.xlsx in a folder names each
file's document number, title, revision, status, date and Drive link; without one the
identity is read from file names such as "277-007-D-C-40327 Rev 03 Trenches crossing layout.pdf".
A newer revision supersedes the older one; an unchanged file is skipped by its content hash.
Files that cannot be read are reported and skipped; the rest of the batch goes on.
A PDF with pages that could not be parsed or yielded no text (blank, scanned or
damaged) is indexed with the pages that read, and reported "indexed with warnings".

Without a register, licences, read-mes and provenance notes are skipped; a .cewignore
file (gitignore syntax) in the folder excludes more, or brings a file back with !name.
With a register, only the files it lists are indexed.

drive:<id> names a Google Drive folder or shared drive (subfolders included), synced
with the credentials of GOOGLE_APPLICATION_CREDENTIALS: the first run lists it, later
runs read Drive's Changes feed and download only what changed; Google Docs and Sheets
are exported as DOCX and XLSX; trashed and deleted files leave search. Drive and local
arguments mix.

The exit status is 1 when any file failed or was only partly read (unless
--accept-partial), 2 for a usage or set-up error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			folders, paths := splitIngestArgs(args)
			st, err := a.openStoreForWrite(cmd.Context())
			if err != nil {
				return err
			}
			failed := false
			if len(folders) > 0 {
				syncer, err := a.newDriveSyncer(cmd.Context(), st)
				if err != nil {
					return err
				}
				for _, id := range folders {
					rep, err := syncer.Sync(cmd.Context(), a.cfg.Tenant, id)
					printDriveReport(a, rep)
					if err != nil {
						return err
					}
					failed = failed || driveFailed(rep, acceptPartial)
				}
			}
			if len(paths) == 0 {
				if failed {
					return exitError{1}
				}
				return nil
			}
			// One bar counts files; while chunks are being embedded its
			// description counts them, since a large spreadsheet can take
			// minutes on a CPU.
			var bar *progressbar.ProgressBar
			newBar := func(total int) {
				if bar == nil {
					bar = progressbar.NewOptions(total,
						progressbar.OptionSetWriter(a.stderr),
						progressbar.OptionSetDescription("Indexing"),
						progressbar.OptionShowCount(),
						progressbar.OptionSetElapsedTime(true),
						progressbar.OptionClearOnFinish(),
					)
				}
			}
			progress := func(done, total int, res ingest.FileResult) {
				newBar(total)
				bar.ChangeMax(total)
				bar.Describe(filepath.Base(res.Path))
				_ = bar.Add(1)
			}
			embedProgress := func(done, total int) {
				newBar(-1)
				bar.Describe(fmt.Sprintf("embedding chunks %d/%d", done, total))
			}
			if !a.isTTY(a.stderr) {
				progress, embedProgress = nil, nil
			}
			in, err := a.newIngester(st, embedProgress)
			if err != nil {
				return err
			}
			defer a.boundIngestMemory()()
			a.pdf.OnFirstCompile(func(done bool, took time.Duration) {
				if !done {
					fmt.Fprintf(a.stderr, "Compiling the PDF engine (PDFium, once: later runs load it from %s)…\n", a.pdfCacheDir())
					return
				}
				fmt.Fprintf(a.stderr, "PDF engine ready in %s.\n", took.Round(100*time.Millisecond))
			})
			rep, err := in.Ingest(cmd.Context(), a.cfg.Tenant, paths, progress)
			if bar != nil {
				_ = bar.Finish()
			}
			printIngestReport(a, rep)
			if err != nil {
				return err
			}
			if failed || rep.Count(ingest.Failed) > 0 || (rep.Partial() > 0 && !acceptPartial) {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&acceptPartial, "accept-partial", false, "exit 0 when files were indexed with unreadable pages (they are still reported)")
	return cmd
}

func printIngestReport(a *app, rep ingest.Report) {
	w := a.stdout
	for _, f := range rep.Files {
		switch f.Outcome {
		case ingest.Indexed:
			fmt.Fprintf(w, "  indexed    %s  (%s: %s)\n", f.Path, numberAndRevision(f.Number, f.Revision), extent(f))
			if f.Partial() {
				fmt.Fprintf(w, "             indexed with warnings: %d of %s unreadable (%s: no text, blank, scanned or damaged)\n",
					len(f.Unreadable), plural(f.Pages, "page"), pageList(f.Unreadable))
			}
		case ingest.Unchanged:
			fmt.Fprintf(w, "  unchanged  %s  (%s)\n", f.Path, numberAndRevision(f.Number, f.Revision))
		case ingest.Failed:
			fmt.Fprintf(w, "  skipped    %s: %v\n", f.Path, f.Err)
		case ingest.Ignored:
			fmt.Fprintf(w, "  ignored    %s: %v\n", f.Path, f.Err)
		}
	}
	pages, rows, chunks := rep.Totals()
	indexed := fmt.Sprintf("%d indexed", rep.Count(ingest.Indexed))
	if n := rep.Partial(); n > 0 {
		unreadable := 0
		for _, f := range rep.Files {
			unreadable += len(f.Unreadable)
		}
		indexed += fmt.Sprintf(" (%d partly read: %s unreadable)", n, plural(unreadable, "page"))
	}
	fmt.Fprintf(w, "%s: %s, %d unchanged, %d skipped, %d ignored; %s, %s, %s in %s (tenant %s, index in %s)\n",
		plural(len(rep.Files), "file"), indexed, rep.Count(ingest.Unchanged), rep.Count(ingest.Failed), rep.Count(ingest.Ignored),
		plural(pages, "page"), plural(rows, "row"), plural(chunks, "chunk"), rep.Duration.Round(time.Millisecond), a.cfg.Tenant, a.indexLocation())
	switch e, err := a.retrievalEmbedding(); {
	case err != nil:
	case e.model != "":
		fmt.Fprintf(w, "embeddings: %s (%s)\n", e.model, e.kind)
	case a.cfg.Retrieval != retrievalHybrid:
		fmt.Fprintln(w, "embeddings: none, keyword retrieval (CEW_RETRIEVAL=bm25; the reader embeds what it needs when asked)")
	default:
		fmt.Fprintln(w, "embeddings: none, keyword search only (`make models` installs the local model)")
	}
}

// pageList writes page numbers with runs joined: "pages 1, 3–5, 9".
func pageList(pages []int) string {
	var parts []string
	for i := 0; i < len(pages); {
		j := i
		for j+1 < len(pages) && pages[j+1] == pages[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", pages[i], pages[j]))
		} else {
			parts = append(parts, fmt.Sprint(pages[i]))
		}
		i = j + 1
	}
	if len(pages) == 1 {
		return "page " + parts[0]
	}
	return "pages " + strings.Join(parts, ", ")
}

func extent(f ingest.FileResult) string {
	if f.Rows > 0 {
		return fmt.Sprintf("%s, %s", plural(f.Rows, "row"), plural(f.Chunks, "chunk"))
	}
	return fmt.Sprintf("%s, %s", plural(f.Pages, "page"), plural(f.Chunks, "chunk"))
}

// numberAndRevision is "ABC-123 rev 03", or "ABC-123, revision unknown"
// when neither a register nor the file name gave one.
func numberAndRevision(number, revision string) string {
	if revision == "" {
		return number + ", revision unknown"
	}
	return number + " rev " + revision
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// boundIngestMemory sets the Go runtime's soft memory limit to what the
// process holds now (the index, the embedder) plus CEW_MAX_INGEST_MB, so the
// garbage collector works to keep one file's ingestion inside its budget
// instead of letting the heap double. GOMEMLIMIT, when set, wins. The
// returned func restores the previous limit.
func (a *app) boundIngestMemory() (restore func()) {
	if a.getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	prev := debug.SetMemoryLimit(int64(ms.HeapInuse+ms.StackInuse) + int64(a.cfg.MaxIngestMB)<<20)
	return func() { debug.SetMemoryLimit(prev) }
}
