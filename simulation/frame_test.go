package simulation

import (
	"slices"
	"testing"

	"ladder/ioa"
	"ladder/ioa/load"
)

// TestClauseReads checks what relation clauses of DSTM→ReservationTMS2
// read: state fields of c and a, and the variables of the definitions
// called on c.
func TestClauseReads(t *testing.T) {
	var pr *ioa.Proof
	for _, p := range loadRepository(t).Hierarchy.Proofs {
		if p.Name == "DSTM-ReservationTMS2" {
			pr = p
		}
	}
	if pr == nil {
		t.Fatal("no proof DSTM-ReservationTMS2")
	}
	names := func(a *ioa.Automaton, is []int) []string {
		var out []string
		for _, i := range is {
			out = append(out, a.Vars[i].Name)
		}
		slices.Sort(out)
		return out
	}
	want := map[string][2][]string{
		// len(a.order) = c.nres
		"len": {{"nres"}, {"order"}},
		// c.pendingRes(x) reads rpos, pc and status
		"rs": {{"pc", "rpos", "status"}, {"rs"}},
		"rd": {{"rs"}, {"rdSet"}},
	}
	seen := 0
	for _, cl := range pr.Relation {
		w, ok := want[cl.Name]
		if !ok {
			continue
		}
		seen++
		r := readsOf(cl.Body, pr.C, pr.A)
		if !r.ok {
			t.Errorf("%s: reads not known", cl.Name)
			continue
		}
		if got := names(pr.Concrete, r.c); !slices.Equal(got, w[0]) {
			t.Errorf("%s reads c.%v, want c.%v", cl.Name, got, w[0])
		}
		if got := names(pr.Abstract, r.a); !slices.Equal(got, w[1]) {
			t.Errorf("%s reads a.%v, want a.%v", cl.Name, got, w[1])
		}
	}
	if seen != len(want) {
		t.Fatalf("found %d of the %d clauses", seen, len(want))
	}
}

// loadRepository loads the repository's specs/, algorithms/ and proofs/.
func loadRepository(t *testing.T) *load.Set {
	t.Helper()
	set, errs := load.Files("../specs", "../algorithms", "../proofs")
	if len(errs) > 0 {
		t.Fatalf("loading the repository:\n%v", errs)
	}
	return set
}
