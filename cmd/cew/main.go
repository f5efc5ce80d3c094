// Command cew answers construction engineers' questions from the project's
// documents, with a citation for every statement. This is the composition
// root: configuration, wiring of backends, and the CLI.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/cewhq/cew/cache"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/outbox/disk"
	"github.com/cewhq/cew/pipeline/llm"
	"github.com/cewhq/cew/store"
	"github.com/cewhq/cew/store/embedded"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// exitError carries a process exit status without printing anything more.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := execute(ctx, os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.Args[1:])
	stop()
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "cew:", err)
		os.Exit(2)
	}
}

// app is what every subcommand shares: configuration, output streams and the
// backends, opened on first use and closed when the command ends.
type app struct {
	cfg    Config
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	logger *slog.Logger

	store   store.Store
	pdf     *ingest.PDF // the PDF parser of newIngester
	llmChat *llm.Chat
	embed   *embedding // resolved CEW_EMBED, see embedding()
	dense   *denseState
	// cache is the cache backend newBot opened (Redis or in-process); the
	// server's outbox shares Redis with it.
	cache cacheBackend
	// health tracks the cache backend for the bot; the readiness prober
	// feeds it too.
	health *cache.Health
	// outboxDB is the data directory's outbox file, opened by serve.
	outboxDB *disk.DB
	closers  []func() error
	// keepUnconfident shows answers the calibrated confidence would refuse
	// (cew eval domain --keep-unconfident, to collect samples for fitting).
	keepUnconfident bool
}

func (a *app) close() {
	if a.logger == nil {
		a.logger = slog.New(slog.DiscardHandler)
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i](); err != nil {
			a.logger.Warn("close", "err", err)
		}
	}
	a.closers = nil
}

// How a command holds the embedded index (see store/embedded's follow.go):
// readers load a snapshot and let go of the file, so any number of them —
// cew serve among them — run beside each other and beside one writer.
type storeMode int

const (
	// storeRead is a snapshot as of opening: ask, search, status.
	storeRead storeMode = iota
	// storeFollow is a snapshot that follows the file (cew serve): what
	// cew ingest adds while the server runs becomes answerable.
	storeFollow
	// storeWrite holds the file for writing (cew ingest) and creates the
	// Milvus collections when they do not exist yet.
	storeWrite
)

// Lock waits. A reader waits only for a writer, which may hold the file
// for minutes (an ingest), so it says so soon; a writer waits for readers
// that are loading the file and for another ingest's last writes.
const (
	readLockTimeout  = 2 * time.Second
	writeLockTimeout = 30 * time.Second
)

// openStore opens the configured index for reading. It never creates
// Milvus collections: that is `cew migrate`'s job (and `cew ingest`'s, see
// openStoreForWrite).
func (a *app) openStore(ctx context.Context) (store.Store, error) {
	return a.openStoreMode(ctx, storeRead)
}

// openStoreForWrite opens the configured index for ingestion, creating the
// Milvus collections first when they do not exist yet.
func (a *app) openStoreForWrite(ctx context.Context) (store.Store, error) {
	return a.openStoreMode(ctx, storeWrite)
}

func (a *app) openStoreMode(ctx context.Context, mode storeMode) (store.Store, error) {
	if a.store != nil {
		return a.store, nil
	}
	var (
		st  store.Store
		err error
	)
	switch a.cfg.Store {
	case "embedded":
		st, err = a.openEmbedded(mode)
	case "milvus":
		st, err = a.openMilvus(ctx, mode == storeWrite)
	default:
		err = fmt.Errorf("unknown store %q", a.cfg.Store)
	}
	if err != nil {
		return nil, err
	}
	a.store = st
	a.closers = append(a.closers, st.Close)
	return st, nil
}

func (a *app) openEmbedded(mode storeMode) (store.Store, error) {
	opts := embedded.Options{Logger: a.logger, LockTimeout: readLockTimeout}
	var (
		st  store.Store
		err error
	)
	switch mode {
	case storeWrite:
		opts.LockTimeout = writeLockTimeout
		st, err = embedded.Open(a.cfg.DataDir, opts)
		if errors.Is(err, embedded.ErrLocked) {
			err = fmt.Errorf("%w: another cew ingest is writing it; run this one when it has finished", err)
		}
	case storeFollow:
		st, err = embedded.OpenFollower(a.cfg.DataDir, opts)
	default:
		st, err = embedded.OpenSnapshot(a.cfg.DataDir, opts)
		if errors.Is(err, embedded.ErrLocked) {
			err = fmt.Errorf("%w: cew ingest is writing it; try again when it has finished", err)
		}
	}
	return st, err
}

// indexLocation names where the configured index lives, for messages.
func (a *app) indexLocation() string {
	if a.cfg.Store == "milvus" {
		return fmt.Sprintf("Milvus at %s (collection %s)", a.cfg.MilvusAddress, a.cfg.MilvusCollection)
	}
	if abs, err := filepath.Abs(a.cfg.DataDir); err == nil {
		return abs
	}
	return a.cfg.DataDir
}

// requireDocuments fails when the tenant has nothing indexed: an empty index
// is a set-up problem to name (where cew looked, and what to run), not a
// question the documents cannot answer.
func (a *app) requireDocuments(ctx context.Context, st store.Catalog) error {
	docs, err := st.Documents(ctx, a.cfg.Tenant)
	if err != nil {
		return err
	}
	if len(docs) > 0 {
		return nil
	}
	return fmt.Errorf("no documents are indexed in %s for tenant %q; run cew ingest <folder>", a.indexLocation(), a.cfg.Tenant)
}

func (a *app) isTTY(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newLogger(cfg Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// execute runs one command line and closes whatever it opened, whether the
// command succeeded or not.
func execute(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, args []string) error {
	root, a := newRootCmd(stdin, stdout, stderr, getenv)
	defer a.close()
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) (*cobra.Command, *app) {
	a := &app{getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	var tenantFlag, dataDirFlag string
	root := &cobra.Command{
		Use:   "cew",
		Short: "Answers questions from your project documents, citing every statement",
		Long: `cew answers construction engineers' questions only from the project's documents —
drawings, specifications, manuals, registers, spreadsheets — and cites every statement
down to document, revision, page (or sheet and row) and section. When the documents do
not ground an answer it says: "` + "This information was not found in the uploaded documents." + `"

Configuration comes from environment variables, optionally from a YAML file named by
CEW_CONFIG (keys: the variable names in lower case without CEW_):

` + settingsHelp(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := LoadConfig(getenv)
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("tenant") {
				// The flag is held to the same rule as CEW_TENANT.
				if err := checkTenant(tenantFlag); err != nil {
					return fmt.Errorf("--tenant: %w", err)
				}
				cfg.Tenant = tenantFlag
			}
			if dataDirFlag != "" {
				cfg.DataDir = dataDirFlag
			}
			if cfg.DataDir == "" {
				cfg.DataDir = defaultDataDir(workingDir(), getenv)
			}
			// One-shot commands keep the terminal for results: below warn,
			// logs only when asked for.
			if getenv("CEW_LOG_LEVEL") == "" && cmd.Name() != "serve" {
				cfg.LogLevel = "warn"
			}
			a.cfg = cfg
			a.logger = newLogger(cfg, stderr)
			return nil
		},
	}
	root.SetVersionTemplate(versionLine() + "\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().StringVar(&tenantFlag, "tenant", "", "tenant to work in (default $CEW_TENANT)")
	root.PersistentFlags().StringVar(&dataDirFlag, "data-dir", "", "data directory (default $CEW_DATA_DIR)")
	root.AddCommand(
		newIngestCmd(a),
		newSearchCmd(a),
		newStatusCmd(a),
		newAskCmd(a),
		newEvalCmd(a),
		newServeCmd(a),
		newMigrateCmd(a),
		newVersionCmd(a),
	)
	return root, a
}

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version (as cew --version does)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(a.stdout, versionLine())
			return nil
		},
	}
}

// versionLine names the build: the version given at link time, the commit
// the Go toolchain stamped (with "+modified" for a dirty tree), the Go
// version and platform, and the stores compiled in.
func versionLine() string {
	commit, modified := "unknown", false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value[:min(len(s.Value), 12)]
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified {
		commit += "+modified"
	}
	stores := "embedded, milvus"
	if !milvusBuilt {
		stores = "embedded"
	}
	return fmt.Sprintf("cew %s (commit %s, %s, %s/%s; stores: %s)", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH, stores)
}

// pdfCacheDir keeps PDFium's compiled WebAssembly between runs so only the
// first ingest pays for compiling it.
func (a *app) pdfCacheDir() string {
	return filepath.Join(a.cfg.DataDir, "cache", "pdfium")
}

// newIngester wires ingestion with the configured embedder; embedProgress,
// when not nil, follows the embedding of chunks.
func (a *app) newIngester(st store.Store, embedProgress func(done, total int)) (*ingest.Ingester, error) {
	cfg, err := a.ingestConfig(st, embedProgress)
	if err != nil {
		return nil, err
	}
	return ingest.New(cfg), nil
}

// ingestConfig is the configuration newIngester builds an Ingester with.
func (a *app) ingestConfig(st store.Store, embedProgress func(done, total int)) (ingest.Config, error) {
	e, err := a.retrievalEmbedding()
	if err != nil {
		return ingest.Config{}, err
	}
	pdf := ingest.NewPDF(a.pdfCacheDir(), a.logger)
	a.pdf = pdf
	a.closers = append(a.closers, pdf.Close)
	return ingest.Config{
		Store:         st,
		Embedder:      e.passage,
		EmbedModel:    e.model,
		EmbedProgress: embedProgress,
		PDF:           pdf,
		Logger:        a.logger,
		MaxFileSize:   int64(a.cfg.MaxFileMB) << 20,
		Limits:        ingest.LimitsFor(a.cfg.MaxIngestMB),
	}, nil
}

// plural formats a count with its noun.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
