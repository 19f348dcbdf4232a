// This file implements the difference between two prover reports, which
// `ladder watch` prints after every save.

package driver

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"ladder/internal/report"
)

// Diff is what changed between two runs of the prover.
type Diff struct {
	// NewlyProved are obligations proved now that were not proved before
	// (failing or absent), by ID.
	NewlyProved []report.Obligation
	// NewlyFailing are obligations refuted or unknown now that were proved
	// or absent before, or whose failure changed (refuted ↔ unknown), by ID.
	NewlyFailing []report.Obligation
	// Removed are the IDs of obligations that no longer exist.
	Removed []string
	// Stale are theorems derived before and not any more; Derived are
	// theorems derived now and not before. Both by statement.
	Stale, Derived []report.Theorem
	// Edges are edges whose status changed, with their new status.
	Edges []report.Edge
}

// Empty reports whether nothing changed.
func (d *Diff) Empty() bool {
	return len(d.NewlyProved) == 0 && len(d.NewlyFailing) == 0 && len(d.Removed) == 0 &&
		len(d.Stale) == 0 && len(d.Derived) == 0 && len(d.Edges) == 0
}

// Compare returns what changed from old to new. A nil old is an empty
// report: everything in new is news.
func Compare(old, new *report.Prove) *Diff {
	if old == nil {
		old = &report.Prove{}
	}
	d := &Diff{}
	compare := func(o report.Obligation, b *report.Obligation) {
		switch {
		case report.Discharged(o.Verdict) && (b == nil || !report.Discharged(b.Verdict)):
			d.NewlyProved = append(d.NewlyProved, o)
		case !report.Discharged(o.Verdict) && (b == nil || b.Verdict != o.Verdict):
			d.NewlyFailing = append(d.NewlyFailing, o)
		}
	}
	// Two runs of one watcher mostly list the same obligations in the
	// same order: the common head and tail are paired by position. IDs
	// are unique in a report, so no ID of the rest is in either.
	olds, news := old.Obligations, new.Obligations
	for len(olds) > 0 && len(news) > 0 && olds[0].ID == news[0].ID {
		compare(news[0], &olds[0])
		olds, news = olds[1:], news[1:]
	}
	for len(olds) > 0 && len(news) > 0 && olds[len(olds)-1].ID == news[len(news)-1].ID {
		compare(news[len(news)-1], &olds[len(olds)-1])
		olds, news = olds[:len(olds)-1], news[:len(news)-1]
	}
	before := map[string]*report.Obligation{}
	for i := range olds {
		before[olds[i].ID] = &olds[i]
	}
	now := map[string]bool{}
	for _, o := range news {
		now[o.ID] = true
		compare(o, before[o.ID])
	}
	for _, o := range olds {
		if !now[o.ID] {
			d.Removed = append(d.Removed, o.ID)
		}
	}
	d.Stale, d.Derived = onlyIn(old.Theorems, new.Theorems), onlyIn(new.Theorems, old.Theorems)
	edges := map[string]string{}
	for _, e := range old.Edges {
		edges[e.Name] = e.Status
	}
	for _, e := range new.Edges {
		if s, ok := edges[e.Name]; !ok || s != e.Status {
			d.Edges = append(d.Edges, e)
		}
	}
	byID := func(os []report.Obligation) {
		sort.Slice(os, func(i, j int) bool { return os[i].ID < os[j].ID })
	}
	byStatement := func(ts []report.Theorem) {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Statement < ts[j].Statement })
	}
	byID(d.NewlyProved)
	byID(d.NewlyFailing)
	sort.Strings(d.Removed)
	byStatement(d.Stale)
	byStatement(d.Derived)
	sort.Slice(d.Edges, func(i, j int) bool { return d.Edges[i].Name < d.Edges[j].Name })
	return d
}

// WriteText prints the diff, one line per change, failing obligations with
// their counterexample or reason.
func (d *Diff) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, o := range d.NewlyProved {
		fmt.Fprintf(&b, "+ proved   %s\n", o.ID)
	}
	for _, o := range d.NewlyFailing {
		fmt.Fprintf(&b, "- %-8s %s", o.Verdict, o.ID)
		if o.Pos != "" {
			fmt.Fprintf(&b, " (%s)", o.Pos)
		}
		b.WriteByte('\n')
		detail := o.Reason
		if o.Counterexample != nil {
			detail = o.Counterexample.Text
		}
		for _, line := range strings.Split(strings.TrimRight(detail, "\n"), "\n") {
			if line != "" {
				fmt.Fprintf(&b, "      %s\n", line)
			}
		}
	}
	for _, id := range d.Removed {
		fmt.Fprintf(&b, "  removed  %s\n", id)
	}
	for _, e := range d.Edges {
		fmt.Fprintf(&b, "  edge %s (%s -> %s): %s\n", e.Name, e.Concrete, e.Abstract, e.Status)
	}
	for _, t := range d.Stale {
		fmt.Fprintf(&b, "- theorem  %s (stale)\n", t.Statement)
	}
	for _, t := range d.Derived {
		fmt.Fprintf(&b, "+ theorem  %s (%s: %s)\n", t.Statement, t.Rule, strings.Join(t.From, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// onlyIn returns the theorems of a whose statement none of b has. Two
// reports' theorems are sorted by statement (report.Prove.Sort), and are
// then compared side by side; otherwise through a set.
func onlyIn(a, b []report.Theorem) []report.Theorem {
	var out []report.Theorem
	byStatement := func(x, y report.Theorem) int { return strings.Compare(x.Statement, y.Statement) }
	if slices.IsSortedFunc(a, byStatement) && slices.IsSortedFunc(b, byStatement) {
		for len(a) > 0 {
			switch {
			case len(b) == 0 || a[0].Statement < b[0].Statement:
				out, a = append(out, a[0]), a[1:]
			case a[0].Statement == b[0].Statement:
				a = a[1:]
			default:
				b = b[1:]
			}
		}
		return out
	}
	in := map[string]bool{}
	for _, t := range b {
		in[t.Statement] = true
	}
	for _, t := range a {
		if !in[t.Statement] {
			out = append(out, t)
		}
	}
	return out
}
