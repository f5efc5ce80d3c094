package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/cewhq/cew/drive"
	"github.com/cewhq/cew/ingest"
	"github.com/cewhq/cew/store"
)

// driveArgPrefix marks a `cew ingest` argument that names a Drive folder
// or shared drive.
const driveArgPrefix = "drive:"

// splitIngestArgs separates drive:<id> arguments from local paths.
func splitIngestArgs(args []string) (folders []string, paths []string) {
	for _, a := range args {
		if id, ok := strings.CutPrefix(a, driveArgPrefix); ok {
			folders = append(folders, id)
			continue
		}
		paths = append(paths, a)
	}
	return folders, paths
}

// driveStateDir holds the Drive sync state beside the index.
func (a *app) driveStateDir() string {
	return filepath.Join(a.cfg.DataDir, "drive")
}

// newDriveSyncer wires the Drive client (credentials, endpoint) and the
// syncer, ingesting through the configured store.
func (a *app) newDriveSyncer(ctx context.Context, st store.Store) (*drive.Syncer, error) {
	client, err := drive.NewClient(ctx, drive.ClientOptions{
		Endpoint: a.cfg.DriveAPIURL, CredentialsFile: a.cfg.DriveCredentials, Logger: a.logger,
	})
	if err != nil {
		return nil, err
	}
	cfg, err := a.ingestConfig(st, nil)
	if err != nil {
		return nil, err
	}
	var in drive.Ingester = ingest.New(cfg)
	if w, ok := st.(drive.StoreWriter); ok {
		in = drive.WriteInBatches(w, cfg)
	}
	return drive.NewSyncer(drive.Options{
		Client: client, Ingester: in, Dir: a.driveStateDir(),
		MaxFileSize: int64(a.cfg.MaxFileMB) << 20, Logger: a.logger,
	})
}

// printDriveReport prints one root's sync the way printIngestReport prints
// local files.
func printDriveReport(a *app, rep drive.Report) {
	w := a.stdout
	how := "changes since the last sync"
	if rep.Full {
		how = "full listing"
	}
	fmt.Fprintf(w, "drive:%s %q (tenant %s): %s\n", rep.Root, rep.Name, rep.Tenant, how)
	for _, f := range rep.Files {
		switch f.Outcome {
		case string(ingest.Indexed):
			fmt.Fprintf(w, "  indexed    %s  (%s: %s)\n", f.Path, numberAndRevision(f.Number, f.Revision), extent(ingest.FileResult{Pages: f.Pages, Rows: f.Rows, Chunks: f.Chunks}))
			if len(f.Unreadable) > 0 {
				fmt.Fprintf(w, "             indexed with warnings: %d of %s unreadable (%s: no text, blank, scanned or damaged)\n",
					len(f.Unreadable), plural(f.Pages, "page"), pageList(f.Unreadable))
			}
		case string(ingest.Unchanged):
			fmt.Fprintf(w, "  unchanged  %s  (%s)\n", f.Path, numberAndRevision(f.Number, f.Revision))
		case drive.RegisterRead:
			fmt.Fprintf(w, "  register   %s  (%s)\n", f.Path, plural(f.Rows, "entry"))
		case drive.Deferred:
			fmt.Fprintf(w, "  deferred   %s: %v (tried again at the next sync)\n", f.Path, f.Err)
		case drive.Withdrawn:
			fmt.Fprintf(w, "  withdrawn  %s  (%s): %v\n", f.Path, numberAndRevision(f.Number, f.Revision), f.Err)
		default:
			fmt.Fprintf(w, "  %-10s %s: %v\n", f.Outcome, f.Path, f.Err)
		}
	}
	fmt.Fprintf(w, "%s seen: %d indexed, %d unchanged, %d skipped, %d failed, %d ignored, %d withdrawn, %d deferred; %s downloaded (%s), %s (%d retried) in %s\n",
		plural(rep.Seen, "file"), rep.Count(string(ingest.Indexed)), rep.Count(string(ingest.Unchanged)), rep.Count(drive.Skipped),
		rep.Count(string(ingest.Failed)), rep.Count(string(ingest.Ignored)), rep.Count(drive.Withdrawn), rep.Count(drive.Deferred),
		plural(rep.Downloaded, "file"), byteCountSI(rep.Bytes), plural(int(rep.Calls), "API call"), rep.Retries, rep.Duration.Round(time.Millisecond))
}

// byteCountSI formats a size: "1.2 MB", "900 kB", "12 bytes".
func byteCountSI(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%d kB", n/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// driveFailed reports whether a sync left files that failed (or, unless
// partial files are accepted, were only partly read), so the exit status
// says so as it does for local files.
func driveFailed(rep drive.Report, acceptPartial bool) bool {
	if rep.Count(string(ingest.Failed)) > 0 || rep.Count(drive.Deferred) > 0 {
		return true
	}
	for _, f := range rep.Files {
		if f.Outcome == string(ingest.Indexed) && len(f.Unreadable) > 0 && !acceptPartial {
			return true
		}
	}
	return false
}

// driveSync is the background sync of CEW_DRIVE_FOLDERS in cew serve.
type driveSync struct {
	loop *drive.Loop
	done chan struct{}
}

// startDriveSync starts syncing CEW_DRIVE_FOLDERS every
// CEW_DRIVE_SYNC_INTERVAL through the server's own store, so what it
// indexes is answerable at once and the answer cache's generation moves.
// It returns nil when no folder is configured.
func (a *app) startDriveSync(ctx context.Context, st store.Store, reg prometheus.Registerer) (*driveSync, error) {
	folders, err := drive.ParseFolders(a.cfg.DriveFolders, a.cfg.Tenant)
	if err != nil || len(folders) == 0 {
		return nil, err
	}
	syncer, err := a.newDriveSyncer(ctx, st)
	if err != nil {
		return nil, err
	}
	syncs := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cew_drive_syncs_total", Help: "Drive folder syncs by tenant and result (ok, error).",
	}, []string{"tenant", "result"})
	files := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cew_drive_files_total", Help: "Drive files by tenant and outcome (indexed, unchanged, skipped, failed, ignored, withdrawn, deferred).",
	}, []string{"tenant", "outcome"})
	calls := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "cew_drive_api_calls_total", Help: "Requests sent to the Drive API, retries included, by tenant.",
	}, []string{"tenant"})
	lastOK := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "cew_drive_last_sync_timestamp_seconds", Help: "When each Drive folder last synced without error.",
	}, []string{"tenant", "folder"})
	for _, c := range []prometheus.Collector{syncs, files, calls, lastOK} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	loop := &drive.Loop{
		Syncer: syncer, Folders: folders, Interval: a.cfg.DriveSyncInterval, Logger: a.logger,
		OnSync: func(f drive.Folder, rep drive.Report, err error) {
			result := "ok"
			if err != nil {
				result = "error"
			} else {
				lastOK.WithLabelValues(f.Tenant, f.ID).SetToCurrentTime()
			}
			syncs.WithLabelValues(f.Tenant, result).Inc()
			calls.WithLabelValues(f.Tenant).Add(float64(rep.Calls))
			for _, r := range rep.Files {
				files.WithLabelValues(f.Tenant, r.Outcome).Inc()
			}
		},
	}
	ds := &driveSync{loop: loop, done: make(chan struct{})}
	go func() {
		defer close(ds.done)
		loop.Run(ctx)
	}()
	a.logger.Info("drive sync started", "folders", len(folders), "interval", a.cfg.DriveSyncInterval)
	return ds, nil
}

// wait blocks until the sync loop has stopped (its context ended), so the
// store it writes to is closed only after.
func (d *driveSync) wait() {
	if d != nil {
		<-d.done
	}
}

// readiness reports the Drive sync for /readyz: a folder whose last sync
// failed degrades the replica (answers still come from what is indexed);
// it never makes it unavailable.
func (d *driveSync) readiness() (string, bool) {
	if d == nil {
		return "not configured", true
	}
	var failing, pending []string
	for _, s := range d.loop.Status() {
		switch {
		case s.LastSync.IsZero():
			pending = append(pending, s.Tenant+":"+s.ID)
		case s.Err != nil:
			failing = append(failing, s.Tenant+":"+s.ID)
		}
	}
	switch {
	case len(failing) > 0:
		return "error: " + strings.Join(failing, ","), false
	case len(pending) > 0:
		return "first sync in progress", true
	}
	return "ok", true
}
