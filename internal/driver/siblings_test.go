package driver

import (
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/logic"
	"ladder/simulation"
)

func TestFamilyOf(t *testing.T) {
	for _, c := range []struct {
		ob   simulation.Obligation
		want string
	}{
		{simulation.Obligation{ID: "A › invariant p › Act", Group: "A › invariant p", Invariant: "automaton:A/invariant:p"}, "A › invariant p"},
		{simulation.Obligation{ID: "C→A › forward › Act › case 2 › relation(r)", Group: "C→A › forward", Edge: "C→A"}, "C→A › forward › relation(r)"},
		{simulation.Obligation{ID: "C→A › forward › Other › relation(r)", Group: "C→A › forward", Edge: "C→A"}, "C→A › forward › relation(r)"},
	} {
		if got := familyOf(&c.ob); got != c.want {
			t.Errorf("familyOf(%s) = %q, want %q", c.ob.ID, got, c.want)
		}
	}
}

func TestSiblingsHint(t *testing.T) {
	var s siblings
	ob := &simulation.Obligation{ID: "C→A › forward › X › relation(r)", Group: "C→A › forward", Edge: "C→A"}
	fam := familyOf(ob)
	if h := s.hint(ob); h != nil {
		t.Fatalf("hint with nothing known: %+v", h)
	}
	s.add(fam, kernel.SolverDefault, 0, 300)
	if h := s.hint(ob); h != nil {
		t.Fatalf("hint after one default proof: %+v", h)
	}
	s.add(fam, kernel.SolverDefault, 2, 900)
	s.add("another family", kernel.SolverDefault, 0, 5000)
	want := kernel.Attempt{Slice: 2, Solver: kernel.SolverDefault, RLimit: 900}
	if h := s.hint(ob); h == nil || *h != want {
		t.Fatalf("hint after two default proofs = %+v, want %+v", h, want)
	}
	s.add(fam, kernel.SolverDefault, 0, 400) // smaller: the hint stays
	if h := s.hint(ob); h == nil || *h != want {
		t.Fatalf("hint after a smaller proof = %+v, want %+v", h, want)
	}
	for range 3 {
		s.add(fam, kernel.SolverPlain, 0, 50)
	}
	if h := s.hint(ob); h != nil {
		t.Fatalf("hint when the plain solver proved as many: %+v", h)
	}
	s.reset()
	if h := s.hint(ob); h != nil {
		t.Fatalf("hint after reset: %+v", h)
	}
}

// TestSiblingsOrderChecks proves a family of obligations that Z3's plain
// solver cannot prove within a first limit of 1: the first two are proved
// by the default solver after the plain checks fail; the later ones begin
// with the default solver, so they use less than the same obligation
// proved on its own, with the same verdict.
func TestSiblingsOrderChecks(t *testing.T) {
	family := func(n int) *Input {
		in := &Input{}
		y := logic.Const("y", logic.IntSort())
		for i := range n {
			lo := logic.IntVal(int64(i))
			in.Obligations = append(in.Obligations, &simulation.Obligation{
				ID:        "A › invariant p › o" + string(rune('a'+i)),
				Group:     "A › invariant p",
				Invariant: "automaton:A/invariant:p",
				Problem: &logic.Problem{Assertions: []logic.Named{
					{Name: "hyp", Term: logic.And(logic.Gt(xc, lo), logic.Gt(y, xc))},
					{Name: "goal", Term: logic.Not(logic.Gt(y, logic.IntVal(0)))},
				}},
				Deps: []string{"automaton:A/state", "automaton:A/invariant:p"},
			})
		}
		return in
	}
	cfg := Config{NoCache: true, Jobs: 1, UnknownDir: t.TempDir(), Kernel: kernel.Config{FirstRLimit: 1}}
	const n = 5
	rep, _ := prove(t, cfg, family(n))
	for i, o := range rep.Obligations {
		if o.Verdict != "proved" {
			t.Fatalf("%s: %s", o.ID, o.Verdict)
		}
		alone := family(n)
		alone.Obligations = alone.Obligations[i : i+1]
		one, _ := prove(t, cfg, alone)
		a, b := one.Obligations[0].RLimitUsed, o.RLimitUsed
		switch {
		case one.Obligations[0].Verdict != "proved":
			t.Fatalf("%s alone: %s", o.ID, one.Obligations[0].Verdict)
		case i < 2 && b != a:
			t.Errorf("%s, before any hint, used %d; alone %d", o.ID, b, a)
		case i >= 2 && b >= a:
			t.Errorf("%s, after two default proofs of its family, used %d; alone %d", o.ID, b, a)
		}
	}
}
