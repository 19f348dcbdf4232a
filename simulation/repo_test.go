package simulation

import (
	"ladder/internal/theorems"
	"sort"
	"strings"
	"testing"

	"ladder/internal/smt"
	"ladder/ioa/load"
)

// TestRepositoryProofs loads specs/ and the proofs of the TMS2 family
// (familyProofs), generates the obligations of every edge and decides them
// with Z3 in one process, without the driver (make prove proves the whole
// repository through it). It fails on load and
// generation errors, and on a refuted obligation of an edge listed in
// provedEdges (the edges known to be proved); it logs the verdicts of the
// others.
func TestRepositoryProofs(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	set, errs := load.Files(append([]string{"../specs"}, familyProofs...)...)
	if len(errs) > 0 {
		t.Fatalf("loading specs and proofs:\n%v", errs)
	}
	// The invariants of the family are the specs' (checked by their
	// tests); here they only supply verdicts for the assumptions.
	obls, edges, errs := Generate(&set.Hierarchy, Config{})
	if len(errs) > 0 {
		t.Fatalf("Generate:\n%v", errs)
	}
	vs := check(t, obls)
	byEdge := map[string][]string{}
	for _, o := range obls {
		v := vs[o.ID]
		line := o.ID + ": " + v.status.String()
		if v.err != nil {
			t.Errorf("%s: %v", o.ID, v.err)
		}
		if v.cex != nil {
			line += "\n" + v.cex.String()
		}
		byEdge[o.Edge] = append(byEdge[o.Edge], line)
		if o.Edge == "" && v.status != smt.Unsat {
			t.Logf("invariant obligation %s", line)
		}
	}
	for _, e := range edges {
		lines := byEdge[e.Name]
		sort.Strings(lines)
		failed := 0
		for _, l := range lines {
			if !strings.Contains(strings.SplitN(l, "\n", 2)[0], ": unsat") {
				failed++
			}
		}
		t.Logf("edge %s: %d obligations, %d not proved", e.Name, len(lines), failed)
		if failed > 0 {
			for _, l := range lines {
				if !strings.Contains(strings.SplitN(l, "\n", 2)[0], ": unsat") {
					t.Logf("  %s", l)
				}
			}
		}
		if provedEdges[e.Name] && failed > 0 {
			t.Errorf("edge %s: %d obligations not proved", e.Name, failed)
		}
	}
	d := derive(obls, edges, vs, nil)
	for _, e := range edges {
		t.Logf("edge %s: %s", e.Name, d.Edges[e.Name])
		if provedEdges[e.Name] && d.Edges[e.Name] != theorems.Proved {
			t.Errorf("edge %s is %s (its assumptions: %v)", e.Name, d.Edges[e.Name], e.Assumes)
		}
	}
	for _, th := range d.Theorems {
		if th.Kind == theorems.Implements {
			t.Logf("theorem %s: %s", th.Name, th.Provenance())
		}
	}
	if errs := CheckClaims(set.Proofs, d); len(errs) > 0 {
		t.Errorf("expected theorems not derived:\n%v", errs)
	}
	for _, want := range provedTheorems {
		if d.Theorem(want) == nil {
			t.Errorf("theorem %q not derived", want)
		}
	}
}

// familyProofs are the proof files of the TMS2 family.
var familyProofs = []string{
	"../proofs/TMS2-TxnOrdTMS2.yaml",
	"../proofs/TxnOrdTMS2-ReservationTMS2.yaml",
	"../proofs/TxnOrdTMS2WithFailures-TxnOrdTMS2.yaml",
	"../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml",
}

// provedTheorems are the expected theorems of the family.
var provedTheorems = []string{"TMS2 implements ReservationTMS2", "ReservationTMS2 implements TMS2"}

// provedEdges are the edges of proofs/ that Z3 proves completely.
var provedEdges = map[string]bool{
	"TMS2→TxnOrdTMS2":            true,
	"TxnOrdTMS2→ReservationTMS2": true,
}

var _ = smt.Sat
