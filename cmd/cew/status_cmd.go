package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/cewhq/cew/store/register"
)

func newStatusCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [QUERY]",
		Short: "Look up a document's revision and status in the register (no LLM)",
		Long: `Look up documents by number or title (fuzzy): number, title, current revision,
status, date, pages, chunks, when indexed, superseded revisions and Drive link.
Without a query, lists every document.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := a.openStore(cmd.Context())
			if err != nil {
				return err
			}
			query := strings.Join(args, " ")
			entries, err := register.Lookup(cmd.Context(), st, a.cfg.Tenant, query)
			if err != nil {
				return err
			}
			if asJSON {
				if entries == nil {
					entries = []register.Entry{}
				}
				return json.NewEncoder(a.stdout).Encode(map[string]any{"documents": entries})
			}
			switch {
			case len(entries) == 0 && query != "":
				fmt.Fprintf(a.stdout, "no document matches %q\n", query)
				return exitError{1}
			case len(entries) == 0:
				fmt.Fprintf(a.stdout, "no documents are indexed in %s for tenant %q; run cew ingest <folder>\n", a.indexLocation(), a.cfg.Tenant)
			case query == "":
				printStatusTable(a, entries)
			default:
				for _, e := range entries {
					printStatusCard(a, e)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printStatusTable(a *app, entries []register.Entry) {
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NUMBER\tREV\tSTATUS\tDATE\tPAGES/ROWS\tCHUNKS\tTITLE")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", e.Number, orDash(e.Revision), statusText(e), orDash(e.Date), size(e), e.Chunks, e.Title)
	}
	_ = tw.Flush()
}

func printStatusCard(a *app, e register.Entry) {
	w := a.stdout
	fmt.Fprintf(w, "%s — %s\n", e.Number, e.Title)
	fmt.Fprintf(w, "  revision    %s\n", orUnknown(e.Revision))
	fmt.Fprintf(w, "  status      %s\n", statusText(e))
	fmt.Fprintf(w, "  date        %s\n", orDash(e.Date))
	fmt.Fprintf(w, "  size        %s, %s\n", size(e), plural(e.Chunks, "chunk"))
	fmt.Fprintf(w, "  indexed at  %s\n", e.IndexedAt.Format(time.RFC3339))
	if len(e.Superseded) > 0 {
		var revs []string
		for _, r := range e.Superseded {
			revs = append(revs, fmt.Sprintf("%s (%s)", orUnknown(r.Revision), orDash(r.Status)))
		}
		fmt.Fprintf(w, "  superseded  %s\n", strings.Join(revs, ", "))
	}
	fmt.Fprintf(w, "  drive       %s\n", orDash(e.DriveLink))
}

// orUnknown shows a revision nobody named as unknown.
func orUnknown(revision string) string {
	if revision == "" {
		return "unknown"
	}
	return revision
}

func statusText(e register.Entry) string {
	s := orDash(e.Status)
	if !e.Active {
		s += " (not active)"
	}
	return s
}

func size(e register.Entry) string {
	if e.Rows > 0 {
		return plural(e.Rows, "row")
	}
	return plural(e.Pages, "page")
}
