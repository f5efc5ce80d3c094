package drive

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// Folder is one synced root (a folder or a shared drive) and the tenant
// its documents belong to.
type Folder struct {
	Tenant string
	ID     string
}

// ParseFolders reads CEW_DRIVE_FOLDERS: "acme:<id>,globex:<id>", each
// entry a tenant and a folder or shared drive id; an entry without a
// tenant ("<id>") belongs to defaultTenant.
func ParseFolders(s, defaultTenant string) ([]Folder, error) {
	var out []Folder
	seen := map[Folder]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		tenant, id, ok := strings.Cut(part, ":")
		if !ok {
			tenant, id = defaultTenant, part
		}
		tenant, id = strings.TrimSpace(tenant), strings.TrimSpace(id)
		switch {
		case tenant == "" || strings.ContainsAny(tenant, " \t/"):
			return nil, fmt.Errorf("%q: %q is not a tenant name", part, tenant)
		case !validID(id):
			return nil, fmt.Errorf("%q: %q is not a Drive folder or shared drive id", part, id)
		}
		f := Folder{Tenant: tenant, ID: id}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// FolderStatus is the last sync of one folder, for readiness and logs.
type FolderStatus struct {
	Folder
	Name     string
	LastSync time.Time
	// LastOK is when a sync of it last finished; zero before the first.
	LastOK time.Time
	Err    error
}

// Loop syncs folders one after another, once at start and then every
// Interval, until its context ends. A failing folder is logged and tried
// again next round; it never stops the others or the server.
type Loop struct {
	Syncer   *Syncer
	Folders  []Folder
	Interval time.Duration
	Logger   *slog.Logger
	// OnSync, when set, hears of every sync (metrics).
	OnSync func(Folder, Report, error)

	mu     sync.Mutex
	status map[Folder]FolderStatus
}

// Run syncs until ctx ends.
func (l *Loop) Run(ctx context.Context) {
	log := l.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := time.NewTicker(l.Interval)
	defer t.Stop()
	for {
		for _, f := range l.Folders {
			if ctx.Err() != nil {
				return
			}
			rep, err := l.Syncer.Sync(ctx, f.Tenant, f.ID)
			l.record(f, rep, err)
			if l.OnSync != nil {
				l.OnSync(f, rep, err)
			}
			attrs := []any{"tenant", f.Tenant, "folder", f.ID, "name", rep.Name, "full", rep.Full,
				"seen", rep.Seen, "downloaded", rep.Downloaded, "indexed", rep.Count("indexed"),
				"withdrawn", rep.Count(Withdrawn), "failed", rep.Count("failed"), "deferred", rep.Count(Deferred),
				"api_calls", rep.Calls, "duration", rep.Duration.Round(time.Millisecond)}
			switch {
			case err != nil && ctx.Err() != nil:
				return
			case err != nil:
				log.Warn("drive sync failed; retrying next round", append(attrs, "err", err)...)
			case rep.Changed() || rep.Full:
				log.Info("drive sync", attrs...)
			default:
				log.Debug("drive sync", attrs...)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (l *Loop) record(f Folder, rep Report, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.status == nil {
		l.status = map[Folder]FolderStatus{}
	}
	s := l.status[f]
	s.Folder, s.Name, s.LastSync, s.Err = f, rep.Name, time.Now(), err
	if err == nil {
		s.LastOK = s.LastSync
	}
	l.status[f] = s
}

// Status returns the last sync of each folder, in configuration order;
// folders not synced yet have a zero LastSync.
func (l *Loop) Status() []FolderStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]FolderStatus, 0, len(l.Folders))
	for _, f := range l.Folders {
		s, ok := l.status[f]
		if !ok {
			s.Folder = f
		}
		out = append(out, s)
	}
	return out
}
