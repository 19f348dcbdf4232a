package explore

import (
	"fmt"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// reducedKeys explores a without reduction and returns the set of the
// reduced encodings (with symmetry, the canonical reduced encodings) of
// the states it reaches, and their number.
func reducedKeys(t *testing.T, a *ioa.Automaton, inst *eval.Instance, sorts []string) (map[string]bool, int) {
	t.Helper()
	m, err := Machine(a, Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	d, err := m.NewDead(ioa.DeadRegisters(a))
	if err != nil {
		t.Fatal(err)
	}
	key := func(s eval.State) string { return string(d.AppendState(nil, s)) }
	if len(sorts) > 0 {
		ss, err := CheckSymmetry(a, m.Inst, sorts, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		g, err := m.NewSymmetry(ss)
		if err != nil {
			t.Fatal(err)
		}
		g = g.WithDead(d)
		key = func(s eval.State) string { b, _ := g.AppendCanonical(nil, s); return string(b) }
	}
	keys := map[string]bool{}
	mismatch := 0
	res, err := Explore(a, Config{Instance: inst, Visitor: &Visitor{State: func(_, _ int, s eval.State) error {
		keys[key(s)] = true
		// the reduced encoding is the encoding of the reduced state
		if string(m.AppendState(nil, d.Reduce(s))) != string(d.AppendState(nil, s)) {
			mismatch++
		}
		return nil
	}}})
	if mismatch > 0 {
		t.Errorf("%d states whose reduced encoding is not the encoding of Reduce", mismatch)
	}
	if err != nil || !res.Complete {
		t.Fatalf("plain search: %v, %+v", err, res)
	}
	return keys, res.States
}

// TestDeadReductionExact checks that the reduced search stores exactly the
// reductions of the states that the plain search reaches, with and
// without symmetry, on the repository's automata: every stored state
// stands for a reachable one, and every reachable one is represented.
func TestDeadReductionExact(t *testing.T) {
	set, errs := load.Files("../../specs", "../../algorithms")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		name, bounds string
		sym          []string
	}{
		{"TMS2", "T=2,L=1,V=2", nil},
		{"TMS2", "T=2,L=2,V=2", []string{"T", "L"}},
		{"ReservationTMS2", "T=2,L=1,V=2", []string{"T"}},
		{"NOrec", "T=2,L=1,V=2", nil},
		{"TL2", "T=2,L=1,V=2", []string{"T"}},
		{"NOrecPaperPseudocode", "T=2,L=1,V=2", nil},
		{"DSTM", "T=2,L=1,V=2", []string{"T"}},
	} {
		t.Run(fmt.Sprintf("%s/%s/%s", c.name, c.bounds, strings.Join(c.sym, "")), func(t *testing.T) {
			a := set.Automaton(c.name)
			if a == nil {
				t.Fatalf("no automaton %s", c.name)
			}
			if c.name == "TMS2" && c.bounds == "T=2,L=2,V=2" && testing.Short() {
				t.Skip("1.5 M states")
			}
			want, plain := reducedKeys(t, a, bounds(t, c.bounds), c.sym)
			x, err := newExplorer(a, Config{Instance: bounds(t, c.bounds), ReduceDead: true, Symmetry: c.sym, Workers: 2, batch: 97})
			if err != nil {
				t.Fatal(err)
			}
			if err := x.run(); err != nil {
				t.Fatal(err)
			}
			if !x.res.Complete || len(x.res.Dead) == 0 {
				t.Fatalf("reduced search: complete %v, registers %v", x.res.Complete, x.res.Dead)
			}
			got := map[string]bool{}
			for i := 0; i < x.st.Len(); i++ {
				got[string(x.st.Key(i))] = true
			}
			if len(got) != x.st.Len() {
				t.Errorf("the store holds %d distinct keys for %d states", len(got), x.st.Len())
			}
			missing, extra := 0, 0
			for k := range want {
				if !got[k] {
					missing++
				}
			}
			for k := range got {
				if !want[k] {
					extra++
				}
			}
			if missing > 0 || extra > 0 {
				t.Errorf("reduced search: %d states; reductions of the %d reachable states: %d; %d of these missing, %d stored states not among them",
					len(got), plain, len(want), missing, extra)
			}
			if len(got) >= plain {
				t.Errorf("no reduction: %d states, %d without", len(got), plain)
			}
			t.Logf("%d states, %d without the reduction", len(got), plain)
		})
	}
}

// lateFixture: Start writes r[t] := 5 and moves to Mid; Go moves to Done,
// where the invariant `late` reads r[t]. No action reads r, so only the
// invariant keeps r live at Mid and Done: an analysis that ignored it would
// reset r at Mid and the search would miss the violation after 2 steps.
const lateFixture = `
automaton: Late
sorts:
  T: param
  Pc: {enum: [Idle, Mid, Done]}
state:
  pc: {sort: "Map[T, Pc]", init: const(Idle)}
  r:  {sort: "Map[T, Int]", init: const(0)}
  w:  {sort: "Map[T, Int]", init: const(0)}
actions:
  Start:
    kind: internal
    params: {t: T}
    pre: pc[t] = Idle
    eff: |
      r[t] := 5
      w[t] := 7
      pc[t] := Mid
  Go:
    kind: internal
    params: {t: T}
    pre: pc[t] = Mid
    eff: pc[t] := Done
invariants:
  late: |
    forall t: T. pc[t] = Done => r[t] < 5
`

func TestDeadViolation(t *testing.T) {
	cfg := load.Config{ReadFile: func(string) ([]byte, error) { return []byte(lateFixture), nil }}
	set, errs := cfg.Files("late.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := set.Automaton("Late")
	for _, sym := range [][]string{nil, {"T"}} {
		plain, err := Explore(a, Config{Instance: bounds(t, "T=2"), Symmetry: sym})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Explore(a, Config{Instance: bounds(t, "T=2"), Symmetry: sym, ReduceDead: true})
		if err != nil {
			t.Fatal(err)
		}
		// w is written and never read: dead everywhere, so the reduction
		// applies; r is live at Mid and Done through the invariant
		if len(res.Dead) != 2 || res.Dead[0].Var != "r" || strings.Join(res.Dead[0].DeadAt, ",") != "Idle" ||
			res.Dead[1].Var != "w" || len(res.Dead[1].DeadAt) != 3 {
			t.Fatalf("registers: %+v", res.Dead)
		}
		if plain.Violation == nil || res.Violation == nil {
			t.Fatalf("symmetry %v: violation without reduction %v, with %v", sym, plain.Violation != nil, res.Violation != nil)
		}
		if res.Violation.Invariant != "late" || res.Violation.Len() != plain.Violation.Len() {
			t.Errorf("symmetry %v: %s after %d steps; without reduction %s after %d", sym,
				res.Violation.Invariant, res.Violation.Len(), plain.Violation.Invariant, plain.Violation.Len())
		}
		// the trace is a real execution, replayed without the reduction:
		// it shows w[t] = 7 for the process that started, which the
		// reduced states hold as the default 0
		var text strings.Builder
		if err := res.Violation.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "w[T#0] = 7") {
			t.Errorf("symmetry %v: the trace does not show the written value:\n%s", sym, text.String())
		}
	}
}

func TestDeadWithVisitor(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip()
	}
	_, err := Explore(a, Config{Instance: bounds(t, "T=1,L=1,V=2"), ReduceDead: true, Visitor: &Visitor{}})
	if err == nil || !strings.Contains(err.Error(), "visitor") {
		t.Errorf("got %v, want the visitor refused", err)
	}
}
