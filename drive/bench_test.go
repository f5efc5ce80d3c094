package drive_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cewhq/cew/drive/drivetest"
	"github.com/cewhq/cew/store"
)

// benchFiles is the size of the synced folder in the benchmarks: 1,000
// files in 10 subfolders.
const (
	benchFiles   = 1000
	benchFolders = 10
)

// benchFolder fills the stand-in with benchFiles short specifications and
// returns the root and the file ids.
func benchFolder(srv *drivetest.Server) (string, []string) {
	root := srv.AddFolder("", "Project")
	var ids []string
	for i := range benchFolders {
		sub := srv.AddFolder(root, fmt.Sprintf("Area %02d", i))
		for j := range benchFiles / benchFolders {
			n := i*(benchFiles/benchFolders) + j
			ids = append(ids, srv.AddFile(sub, fmt.Sprintf("SPEC-%04d Rev 1 Item %d.md", n, n), "text/markdown",
				md(fmt.Sprintf("Item %d", n), fmt.Sprintf("Item %d of area %d is installed at a height of %d mm above finished ground level, with a clearance of %d mm.", n, i, 100+n, 50+j))))
		}
	}
	return root, ids
}

// BenchmarkFullSync1000 is the first sync of a 1,000-file folder into the
// embedded index a server follows (a fresh index and state each time).
func BenchmarkFullSync1000(b *testing.B) {
	var downloads, calls int64
	for range b.N {
		b.StopTimer()
		f := newFixture(b, fixtureOptions{follow: true})
		root, _ := benchFolder(f.srv)
		b.StartTimer()
		rep := f.sync(tenant, root)
		b.StopTimer()
		if rep.Count("indexed") != benchFiles {
			b.Fatalf("indexed %d of %d", rep.Count("indexed"), benchFiles)
		}
		downloads += int64(rep.Downloaded)
		calls += rep.Calls
	}
	b.ReportMetric(float64(downloads)/float64(b.N), "downloads/op")
	b.ReportMetric(float64(calls)/float64(b.N), "api-calls/op")
}

// BenchmarkIncrementalSync1000 is a sync of the same folder after 1 % of
// its files (10, one in each subfolder) changed in Drive: the Changes
// feed, 10 downloads, one write of the followed index. Each iteration
// ends with the changed content searchable.
func BenchmarkIncrementalSync1000(b *testing.B) {
	f := newFixture(b, fixtureOptions{follow: true})
	root, ids := benchFolder(f.srv)
	f.sync(tenant, root)
	var downloads, calls int64
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		for k := range benchFiles / 100 {
			id := ids[k*100+i%100]
			f.srv.Update(id, md("Changed", fmt.Sprintf("Revision %d of this item moves it to gridline Q%d.", i, k)))
		}
		b.StartTimer()
		rep := f.sync(tenant, root)
		b.StopTimer()
		if rep.Downloaded != benchFiles/100 || rep.Count("indexed") != benchFiles/100 {
			b.Fatalf("downloaded %d, indexed %d; want %d", rep.Downloaded, rep.Count("indexed"), benchFiles/100)
		}
		hits, err := f.st.Search(context.Background(), store.SearchRequest{Tenant: tenant, Query: fmt.Sprintf("revision %d gridline", i), Mode: store.ModeKeyword})
		if err != nil || len(hits) == 0 {
			b.Fatalf("the changed files are not searchable: %v", err)
		}
		downloads += int64(rep.Downloaded)
		calls += rep.Calls
	}
	b.ReportMetric(float64(downloads)/float64(b.N), "downloads/op")
	b.ReportMetric(float64(calls)/float64(b.N), "api-calls/op")
}
