package explore

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/eval"
)

// symFixtures are automata for symmetry reduction. Lock is a test-and-set
// lock with a seeded bug: Check and Enter are two steps, so two processes
// can both see the lock free and both enter (mutex fails after 4 steps).
// It also logs entries in a bounded sequence, a set of (process, location)
// pairs and a map over an Option key, so that permutations act on every
// kind of value. Processes (T) and locations (L) are treated alike outside
// the initial state.
var symFixtures = map[string]string{
	"lock.yaml": `
automaton: Lock
sorts:
  T: param
  L: param
  Ph: {enum: [Idle, Ready, Crit]}
  TL: {record: {t: T, l: L}}
constants:
  l0: L
state:
  pc:    {sort: "Map[T, Ph]", init: const(Idle)}
  lock:  {sort: "Option[T]", init: None}
  at:    {sort: "Map[T, L]", init: const(l0)}
  log:   {sort: "Seq[T]", init: "[]"}
  pairs: {sort: "Set[TL]", init: "{}"}
  last:  {sort: "Map[Option[T], Bool]", init: const(false)}
actions:
  Check:
    kind: internal
    params: {t: T}
    pre: pc[t] = Idle and isNone(lock)
    eff: pc[t] := Ready
  Enter:
    kind: internal
    params: {t: T, l: L}
    pre: pc[t] = Ready
    eff: |
      pc[t] := Crit
      lock := Some(t)
      at[t] := l
      if len(log) < 2 then log := append(log, t) end
      pairs := pairs union {TL{t: t, l: l}}
      last := const(false)[Some(t) := true]
  Exit:
    kind: internal
    params: {t: T}
    pre: pc[t] = Crit
    eff: |
      pc[t] := Idle
      lock := None
invariants:
  mutex: "forall t: T, u: T. pc[t] = Crit and pc[u] = Crit => t = u"
  logShort: len(log) <= 2
  pairsOfCrit: "forall t: T. pc[t] = Crit => TL{t: t, l: at[t]} in pairs"
`,
	// Leader: the constant leader is used in a precondition.
	"leader.yaml": `
automaton: Leader
sorts:
  T: param
constants:
  leader: T
state:
  done: {sort: "Map[T, Bool]", init: const(false)}
actions:
  Go:
    kind: internal
    params: {t: T}
    pre: t = leader or done[leader]
    eff: done[t] := true
`,
	// Literal: an element literal in an invariant.
	"literal.yaml": `
automaton: Literal
sorts:
  T: param
state:
  done: {sort: "Map[T, Bool]", init: "const(false)[T#1 := true]"}
actions:
  Go:
    kind: internal
    params: {t: T}
    eff: done[t] := true
invariants:
  first: done[T#1]
`,
	// Owner: get(owner) is T#0 when owner is None, so T#0 is fixed (although
	// the guard makes it unobservable: the check is syntactic).
	"owner.yaml": `
automaton: Owner
sorts:
  T: param
state:
  owner: {sort: "Option[T]", init: None}
  n:     {sort: "Map[T, Int]", init: const(0)}
actions:
  Take:
    kind: internal
    params: {t: T}
    pre: (isNone(owner) or get(owner) = t) and n[t] < 2
    eff: |
      owner := Some(t)
      n[t] := n[t] + 1
  Drop:
    kind: internal
    params: {t: T}
    pre: owner = Some(t)
    eff: owner := None
invariants:
  bounded: "forall t: T. n[t] <= 2"
`,
}

func loadSym(t *testing.T, file, name string) *ioa.Automaton {
	t.Helper()
	for k, v := range symFixtures {
		fixtures[k] = v
	}
	return loadFixture(t, file, name)
}

// orbits explores a without reduction and returns the number of states,
// the number of orbits of the reachable states under the group of sorts,
// and the sum of the orbits' sizes.
func orbits(t *testing.T, a *ioa.Automaton, inst *eval.Instance, sorts []string, invs []string) (states, orbs, covered int) {
	t.Helper()
	m, err := Machine(a, Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := CheckSymmetry(a, m.Inst, sorts, invs)
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.NewSymmetry(ss)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var buf []byte
	visit := &Visitor{State: func(id, depth int, s eval.State) error {
		var ties int
		buf, ties = g.AppendCanonical(buf[:0], s)
		if !seen[string(buf)] {
			seen[string(buf)] = true
			covered += g.Order() / ties
		}
		return nil
	}}
	res, err := Explore(a, Config{Instance: inst, Invariants: invs, Visitor: visit, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete {
		t.Fatalf("full search incomplete: %s %v", res.Limit, res.Violation != nil)
	}
	return res.States, len(seen), covered
}

// TestSymmetryCounts checks that the reduced search visits one state per
// orbit of the reachable states: as many as a full search finds orbits.
func TestSymmetryCounts(t *testing.T) {
	for _, c := range []struct {
		file, name, bounds string
		sorts, invs        []string
		symmetricStart     bool // the start states are closed under the group
	}{
		{"lock.yaml", "Lock", "T=3,L=2", []string{"T", "L"}, []string{"logShort", "pairsOfCrit"}, false},
		{"lock.yaml", "Lock", "T=3,L=1", []string{"T"}, []string{"logShort", "pairsOfCrit"}, true},
		{"lock.yaml", "Lock", "T=2,L=3", []string{"L"}, []string{"logShort"}, false},
		{"owner.yaml", "Owner", "T=3", []string{"T"}, nil, true},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%s/%s/w%d", c.name, c.bounds, strings.Join(c.sorts, ","), workers), func(t *testing.T) {
				a := loadSym(t, c.file, c.name)
				full, orbs, covered := orbits(t, a, bounds(t, c.bounds), c.sorts, c.invs)
				res, err := Explore(a, Config{Instance: bounds(t, c.bounds), Invariants: c.invs, Symmetry: c.sorts, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Complete || res.Violation != nil {
					t.Fatalf("reduced search: complete=%v violation=%v", res.Complete, res.Violation != nil)
				}
				if res.States != orbs {
					t.Errorf("reduced search found %d states, want the %d orbits of the %d reachable states", res.States, orbs, full)
				}
				if res.States >= full {
					t.Errorf("no reduction: %d states, %d without symmetry", res.States, full)
				}
				if c.symmetricStart && covered != full {
					t.Errorf("the orbits cover %d states, the full search found %d", covered, full)
				}
				t.Logf("%d states, %d with symmetry (%d permutations)", full, res.States, res.Symmetry.Permutations)
			})
		}
	}
}

// TestSymmetryViolation checks that the seeded bug of Lock is found with
// and without symmetry, after the same number of steps, and that the trace
// found through representatives is an execution of the automaton.
func TestSymmetryViolation(t *testing.T) {
	a := loadSym(t, "lock.yaml", "Lock")
	inst := "T=3,L=2"
	plain, err := Explore(a, Config{Instance: bounds(t, inst)})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Violation == nil || plain.Violation.Invariant != "mutex" {
		t.Fatalf("no violation of mutex without symmetry")
	}
	for _, workers := range []int{1, 2} {
		for _, sorts := range [][]string{{"T"}, {"L"}, {"T", "L"}, {"L", "T"}} {
			res, err := Explore(a, Config{Instance: bounds(t, inst), Symmetry: sorts, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			tr := res.Violation
			if tr == nil {
				t.Fatalf("%v: no violation with symmetry", sorts)
			}
			if tr.Len() != plain.Violation.Len() {
				t.Errorf("%v: trace of %d steps, %d without symmetry", sorts, tr.Len(), plain.Violation.Len())
			}
			if res.States > plain.States {
				t.Errorf("%v: %d states before the violation, %d without symmetry", sorts, res.States, plain.States)
			}
			checkTrace(t, a, bounds(t, inst), tr, "mutex")
		}
	}
}

// TestSymmetryRefused checks the errors for automata that single out an
// element, and that a constant used only in the initial state is accepted.
func TestSymmetryRefused(t *testing.T) {
	for _, c := range []struct {
		file, name, sorts, want string
	}{
		{"leader.yaml", "Leader", "T", `leader.yaml:13:14: --symmetry T: the constant leader is an element of T, used outside the initial state; a symmetric sort's elements may be named only in the initial state (init:, initially:)`},
		{"literal.yaml", "Literal", "T", `literal.yaml:13:15: --symmetry T: T#1 singles out an element of T; a symmetric sort's elements may be named only in the initial state (init:, initially:)`},
	} {
		a := loadSym(t, c.file, c.name)
		_, err := Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: strings.Split(c.sorts, ",")})
		var se *SymmetryError
		if !errors.As(err, &se) {
			t.Fatalf("%s: got %v, want a SymmetryError", c.name, err)
		}
		if err.Error() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, err, c.want)
		}
	}
	// the literal is fine when the invariant that names it is not checked
	a := loadSym(t, "literal.yaml", "Literal")
	if _, err := Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: []string{"T"}, Invariants: []string{}}); err != nil {
		t.Errorf("literal in an unchecked invariant: %v", err)
	}
	// not a parameter sort
	if _, err := Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: []string{"Q"}}); err == nil || !strings.Contains(err.Error(), "Q is not a parameter sort of Literal") {
		t.Errorf("unknown sort: %v", err)
	}
	// the default value of T fixes T#0
	a = loadSym(t, "owner.yaml", "Owner")
	res, err := Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: []string{"T"}})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Symmetry
	if s == nil || len(s.Sorts) != 1 || strings.Join(s.Sorts[0].Fixed, ",") != "T#0" || s.Permutations != 2 ||
		s.Sorts[0].Why != "owner.yaml:12:28: get(owner) can evaluate to the default value of T, which holds T#0" {
		t.Errorf("owner: got %+v (why %q)", s, s.Sorts[0].Why)
	}
}

// TestSymmetryTMS2 compares TMS2 with and without symmetry on a small
// instance: the same verdict, and one state per orbit.
func TestSymmetryTMS2(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip("no TMS2")
	}
	inst := "T=2,L=1,V=2"
	sorts := []string{"T", "L", "V"}
	full, orbs, _ := orbits(t, a, bounds(t, inst), sorts, nil)
	res, err := Explore(a, Config{Instance: bounds(t, inst), Symmetry: sorts, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete || res.Violation != nil || res.States != orbs || res.States >= full {
		t.Errorf("complete=%v violation=%v states=%d, want %d orbits of %d states", res.Complete, res.Violation != nil, res.States, orbs, full)
	}
	if v := res.Symmetry.Sorts[2]; v.Sort != "V" || strings.Join(v.Fixed, ",") != "V#0" {
		t.Errorf("V: got %+v, want V#0 fixed", v)
	}
}
