package driver

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestUnitRecordsTallies checks that the theorems derived from the
// tallies of restored units (restoredUnit.tally) are those derived from
// every obligation's verdict, and the report assembled from their parts
// (restoredUnit.report) the one assembled from every job, with everything restored and after an edit
// that makes an invariant fail, and that a unit restored again for the
// same obligations is the same unit, with its tally.
func TestUnitRecordsTallies(t *testing.T) {
	dir := copyTestdata(t, "kinds")
	ctx := context.Background()
	p := newProver(t, 2)
	if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() {
		t.Fatalf("cold run: %v %+v", err, rep)
	}
	same := func(what string, in *Input) {
		t.Helper()
		byTally, whole := derive(in, in.decided, true), derive(in, in.decided, false)
		if !reflect.DeepEqual(byTally.Invariants, whole.Invariants) || !reflect.DeepEqual(byTally.Edges, whole.Edges) {
			t.Errorf("%s: by tallies %v %v; from every verdict %v %v", what, byTally.Invariants, byTally.Edges, whole.Invariants, whole.Edges)
		}
		var a, b []string
		for _, th := range byTally.Theorems {
			a = append(a, th.String())
		}
		for _, th := range whole.Theorems {
			b = append(b, th.String())
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s: theorems by tallies\n%s\nfrom every verdict\n%s", what, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
		// and the report: with the parts of the restored units, and
		// from every job
		whole2 := *in
		whole2.spans = nil
		byPart, fromJobs := assemble(in, in.decided, byTally), assemble(&whole2, in.decided, whole)
		if !reflect.DeepEqual(byPart, fromJobs) {
			t.Errorf("%s: report with the units' parts\n%s\nfrom every job\n%s", what, summary(byPart), summary(fromJobs))
		}
	}
	in := planRecorded(t, p, dir)
	if got := restoredCount(in); got != len(in.Obligations) {
		t.Fatalf("nothing changed: %d of %d obligations restored", got, len(in.Obligations))
	}
	if _, err := p.Prove(ctx, in); err != nil {
		t.Fatal(err)
	}
	same("everything restored", in)
	// Planned again from the same loaded set: the same units, whose
	// tallies are kept.
	var units []*restoredUnit
	for _, s := range in.spans {
		units = append(units, s.unit)
	}
	set, sums := loadSums(t, dir)
	first, errs := p.Plan(set, sums)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	again, errs := p.Plan(set, sums)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(first.spans) != len(again.spans) || len(first.spans) != len(units) {
		t.Fatalf("spans: %d, %d, %d", len(first.spans), len(again.spans), len(units))
	}
	for i := range first.spans {
		u, v := first.spans[i].unit, again.spans[i].unit
		if u == nil || u != v || u.tally() != v.tally() {
			t.Errorf("span %d: restored twice for the same obligations as two units (%p, %p)", i, u, v)
		}
	}
	// The invariant both the edge and the other invariants assume fails:
	// its automaton's unit is planned, the abstract automaton's restored.
	edit(t, filepath.Join(dir, "TicketLock.yaml"), "pc[p] != Idle => ticket[p] < next", "pc[p] != Idle => ticket[p] > next")
	in = planRecorded(t, p, dir)
	if n := restoredCount(in); n == 0 || n == len(in.Obligations) {
		t.Fatalf("after the edit %d of %d obligations restored", n, len(in.Obligations))
	}
	ed := p.compareItems(in) // what the edit changed, before the run records it
	rep, err := p.Prove(ctx, in)
	if err != nil || rep.OK() {
		t.Fatalf("the failing invariant was not found: %v %+v", err, rep.Summary)
	}
	same("an invariant failing", in)
	// What the edit affects, passing over the restored units it does not
	// touch, and looking at every obligation.
	whole := *in
	whole.spans = nil
	d := derive(in, in.decided, true)
	if got, want := ed.changes(in, d), ed.changes(&whole, d); !reflect.DeepEqual(got, want) || len(want.Obligations) == 0 {
		t.Errorf("changes with the restored units passed over %+v; looking at every obligation %+v", got, want)
	}
	ref, err := newProver(t, 2).Prove(ctx, loadRecorded(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if summary(rep) != summary(ref) {
		t.Errorf("with unit records the report is\n%s\nwithout\n%s", summary(rep), summary(ref))
	}
}

// TestForgetGroupsAgain checks that the records of the groups of a unit
// are forgotten whenever a unit record holds it, also after a run that
// recorded them again: a unit that fails and is then fixed is forgotten
// once more, though this prover forgot it before.
func TestForgetGroupsAgain(t *testing.T) {
	dir := copyTestdata(t, "kinds")
	ctx := context.Background()
	p := newProver(t, 2)
	held := func(what string, want bool) {
		t.Helper()
		rep, err := p.Prove(ctx, planRecorded(t, p, dir))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, o := range rep.Obligations {
			if strings.HasPrefix(o.ID, "TicketLock › invariant ") && len(p.cache.EdgesContaining(o.ID)) > 0 {
				n++
			}
		}
		if (n > 0) != want {
			t.Errorf("%s: %d obligations of TicketLock's invariants in the snapshot's groups; want them there: %v", what, n, want)
		}
	}
	held("cold", false)
	file := filepath.Join(dir, "TicketLock.yaml")
	edit(t, file, "pc[p] != Idle => ticket[p] < next", "pc[p] != Idle => ticket[p] > next")
	held("an invariant failing", true)
	edit(t, file, "pc[p] != Idle => ticket[p] > next", "pc[p] != Idle => ticket[p] < next")
	held("fixed again", false)
	held("nothing changed", false)
}
