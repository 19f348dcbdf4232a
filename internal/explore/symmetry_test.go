package explore

import (
	"errors"
	"fmt"
	"ladder/ioa/load"
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
	// ViewLit: an element literal in a view's event argument.
	"ev.yaml": `
interface: Ev
sorts:
  T: param
events:
  Hello: {t: T}
`,
	"viewlit.yaml": `
automaton: ViewLit
interface: ev.yaml
state:
  done: {sort: "Map[T, Bool]", init: "const(false)"}
actions:
  Hi:
    kind: output
    params: {t: T}
    eff: done[t] := true
view:
  Hi: Hello(T#1)
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
	// Owner: get(owner) is guarded by isNone(owner) or …, so every
	// permutation of T is allowed.
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
	// Owner2: Owner with the guard after the use: get(owner) is evaluated
	// first, with the default T#0 when owner is None, so T#0 is fixed.
	"owner2.yaml": `
automaton: Owner2
sorts:
  T: param
state:
  owner: {sort: "Option[T]", init: None}
  n:     {sort: "Map[T, Int]", init: const(0)}
actions:
  Take:
    kind: internal
    params: {t: T}
    pre: (get(owner) = t or isNone(owner)) and n[t] < 2
    eff: |
      owner := Some(t)
      n[t] := n[t] + 1
  Drop:
    kind: internal
    params: {t: T}
    pre: owner = Some(t)
    eff: owner := None
`,
	// Queue: processes queue up for a lock; every get, last and sequence
	// index is guarded (by a precondition, a definition, a range, an if of
	// the effect whose condition reads the pre-state although an earlier
	// statement assigns owner). bounded fails after 5 steps: a process is
	// granted the lock twice.
	"queue.yaml": `
automaton: Queue
sorts:
  T: param
  Ph: {enum: [Idle, Wait, Crit]}
state:
  pc:     {sort: "Map[T, Ph]", init: const(Idle)}
  queue:  {sort: "Seq[T]", init: "[]"}
  owner:  {sort: "Option[T]", init: None}
  grants: {sort: "Map[T, Int]", init: const(0)}
definitions:
  free: isNone(owner)
  holder:
    params: {x: T}
    sort: Bool
    body: isSome(owner) and get(owner) = x
actions:
  Request:
    kind: internal
    params: {t: T}
    pre: pc[t] = Idle and len(queue) < 3
    eff: |
      queue := append(queue, t)
      pc[t] := Wait
  Grant:
    kind: internal
    params: {k: "in 0..len(queue)"}
    pre: free and pc[queue[k]] = Wait
    eff: |
      owner := Some(queue[k])
      pc[queue[k]] := Crit
      grants[queue[k]] := grants[queue[k]] + 1
  Release:
    kind: internal
    pre: not free
    eff: |
      owner := None
      if isSome(owner) then pc[get(owner)] := Idle end
invariants:
  mutex: "forall t: T, u: T. holder(t) and holder(u) => t = u"
  ownerCrit: "isSome(owner) => pc[get(owner)] = Crit"
  lastQueued: |
    queue != [] => pc[last(queue)] != Idle or grants[queue[len(queue) - 1]] >= 1
  bounded: |
    forall i in 0..len(queue). grants[queue[i]] <= 1
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
	ss, err := CheckSymmetry(a, m.Inst, sorts, invs, true)
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
		{"owner2.yaml", "Owner2", "T=3", []string{"T"}, nil, true},
		{"queue.yaml", "Queue", "T=3", []string{"T"}, []string{"mutex", "ownerCrit", "lastQueued"}, true},
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
				// The represented count is the full search's, or refused
				// when the start states are not closed under the group.
				switch sy := res.Symmetry; {
				case c.symmetricStart && (sy.NotRepresented != "" || sy.Represented != int64(full)):
					t.Errorf("represented %d (%q), want the %d states of the full search", sy.Represented, sy.NotRepresented, full)
				case !c.symmetricStart && (sy.NotRepresented == "" || sy.Represented != 0):
					t.Errorf("represented %d (%q), want none: the start states are not closed", sy.Represented, sy.NotRepresented)
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
		{"viewlit.yaml", "ViewLit", "T", `viewlit.yaml:12:13: --symmetry T: T#1 singles out an element of T; a symmetric sort's elements may be named only in the initial state (init:, initially:)`},
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
	a = loadSym(t, "owner2.yaml", "Owner2")
	res, err := Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: []string{"T"}})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Symmetry
	if s == nil || len(s.Sorts) != 1 || strings.Join(s.Sorts[0].Fixed, ",") != "T#0" || s.Permutations != 2 ||
		s.Sorts[0].Why != "owner2.yaml:12:11: get(owner) can evaluate to the default value of T, which holds T#0" {
		t.Errorf("owner2: got %+v (why %q)", s, s.Sorts[0].Why)
	}
	// … unless it is guarded
	a = loadSym(t, "owner.yaml", "Owner")
	res, err = Explore(a, Config{Instance: bounds(t, "T=3"), Symmetry: []string{"T"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Symmetry; s == nil || len(s.Sorts) != 1 || len(s.Sorts[0].Fixed) != 0 || s.Permutations != 6 {
		t.Errorf("owner: got %+v", s)
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
	if sy := res.Symmetry; sy.Represented != int64(full) || sy.NotRepresented != "" || sy.RepresentedPerSecond <= 0 {
		t.Errorf("represented %d (%q, %.0f/s), want the %d states of the full search", sy.Represented, sy.NotRepresented, sy.RepresentedPerSecond, full)
	}
	dead, err := Explore(a, Config{Instance: bounds(t, inst), Symmetry: sorts, ReduceDead: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sy := dead.Symmetry; sy.Represented != 0 || !strings.Contains(sy.NotRepresented, "dead-register") {
		t.Errorf("with dead-register reduction: represented %d (%q), want none", sy.Represented, sy.NotRepresented)
	}
	if v := res.Symmetry.Sorts[2]; v.Sort != "V" || strings.Join(v.Fixed, ",") != "V#0" {
		t.Errorf("V: got %+v, want V#0 fixed", v)
	}
}

// TestSymmetryGuardedSearch checks the reduced search on Queue, whose
// guarded uses fix no element: the full group of T, one state per orbit,
// and the violation of bounded found at the depth of the full search on a
// real execution.
func TestSymmetryGuardedSearch(t *testing.T) {
	a := loadSym(t, "queue.yaml", "Queue")
	inst := "T=3"
	invs := []string{"mutex", "ownerCrit", "lastQueued"}
	full, orbs, covered := orbits(t, a, bounds(t, inst), []string{"T"}, invs)
	res, err := Explore(a, Config{Instance: bounds(t, inst), Invariants: invs, Symmetry: []string{"T"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Symmetry; s == nil || len(s.Sorts[0].Fixed) != 0 || s.Permutations != 6 {
		t.Fatalf("got %+v, want T with no fixed element", s)
	}
	if !res.Complete || res.Violation != nil || res.States != orbs || covered != full || 3*res.States > full {
		t.Errorf("complete=%v violation=%v: %d states, want the %d orbits of %d states (covering %d)",
			res.Complete, res.Violation != nil, res.States, orbs, full, covered)
	}
	plain, err := Explore(a, Config{Instance: bounds(t, inst), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Violation == nil || plain.Violation.Invariant != "bounded" {
		t.Fatalf("no violation of bounded without symmetry")
	}
	red, err := Explore(a, Config{Instance: bounds(t, inst), Symmetry: []string{"T"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if red.Violation == nil || red.Violation.Invariant != "bounded" || red.Violation.Len() != plain.Violation.Len() {
		t.Fatalf("with symmetry: %+v, want bounded violated after %d steps", red.Violation, plain.Violation.Len())
	}
	checkTrace(t, a, bounds(t, inst), red.Violation, "bounded")
	t.Logf("%d states, %d orbits; violation after %d steps", full, res.States, red.Violation.Len())
}

// guardAutomaton is an automaton for TestSymmetryGuards: %s are the
// action's parameters, precondition and effect and the invariant.
const guardAutomaton = `
automaton: G
sorts:
  T: param
state:
  o: {sort: "Option[T]", init: None}
  p: {sort: "Option[T]", init: None}
  s: {sort: "Seq[T]", init: "[]"}
  r: {sort: "Seq[T]", init: "[]"}
  m: {sort: "Map[T, Option[T]]", init: const(None)}
  c: {sort: "Map[T, Int]", init: const(0)}
  n: {sort: Int, init: 0}
  k: {sort: Nat, init: 0}
  nk: {sort: "Map[T, Nat]", init: const(0)}
definitions:
  has:
    params: {q: "Option[T]"}
    sort: Bool
    body: isSome(q)
  inS:
    params: {j: Int}
    sort: Bool
    body: 0 <= j and j < len(s)
  elem:
    params: {j: Int}
    sort: T
    body: s[j]
  lt:
    params: {j: Int}
    sort: Bool
    body: if j < len(s) then c[s[j]] = 0 else true
  lt2:
    params: {j: Int}
    sort: Bool
    body: lt(j)
actions:
  A:
    kind: internal
    params: {%s}
    pre: |
      %s
    eff: |
      %s
invariants:
  inv: |
    %s
`

// TestSymmetryGuards checks each rule of the guard analysis: a guarded
// use of get, last or a sequence index fixes no element, and its near
// misses still fix T#0.
func TestSymmetryGuards(t *testing.T) {
	for _, c := range []struct {
		name                  string
		params, pre, eff, inv string
		fixed                 string // "" or the use that fixes T#0
	}{
		// implication, conjunction, disjunction, if
		{"implies", "", "true", "skip", "isSome(o) => c[get(o)] = 0", ""},
		{"and", "", "true", "skip", "isSome(o) and c[get(o)] = 0", ""},
		{"not isNone and", "", "true", "skip", "not isNone(o) and c[get(o)] = 0", ""},
		{"isNone or", "", "true", "skip", "isNone(o) or c[get(o)] = 0", ""},
		{"not isSome or", "", "true", "skip", "not isSome(o) or c[get(o)] = 0", ""},
		{"if then", "", "true", "skip", "if isSome(o) then c[get(o)] = 0 else true", ""},
		{"if else", "", "true", "skip", "if isNone(o) then true else c[get(o)] = 0", ""},
		{"nested conjunct", "", "true", "skip", "(n = 0 and isSome(o)) and (n > 1 or c[get(o)] = 0)", ""},
		{"negated or", "", "true", "skip", "not (isNone(o) or n = 0) => c[get(o)] = 0", ""},
		{"unguarded", "", "true", "skip", "c[get(o)] = 0", "get(o)"},
		{"other option", "", "true", "skip", "isSome(p) => c[get(o)] = 0", "get(o)"},
		{"or", "", "true", "skip", "isSome(o) or c[get(o)] = 0", "get(o)"},
		{"guard after use", "", "true", "skip", "c[get(o)] = 0 and isSome(o)", "get(o)"},
		{"iff", "", "true", "skip", "isSome(o) <=> c[get(o)] = 0", "get(o)"},
		{"if then else", "", "true", "skip", "if isSome(o) then true else c[get(o)] = 0", "get(o)"},
		{"isSome under or", "", "true", "skip", "(isSome(o) or n = 0) => c[get(o)] = 0", "get(o)"},
		// bound variables, shadowing
		{"bound key", "", "true", "skip", "forall x: T. isSome(m[x]) => c[get(m[x])] = 0", ""},
		{"shadowed key", "", "true", "skip", "forall x: T. isSome(m[x]) => (forall x: T. c[get(m[x])] = 0)", "get(m[x])"},
		{"other key", "", "true", "skip", "forall x: T, y: T. isSome(m[x]) => c[get(m[y])] = 0", "get(m[y])"},
		// definitions
		{"definition guard", "", "true", "skip", "forall x: T. has(m[x]) => c[get(m[x])] = 0", ""},
		{"definition other arg", "", "true", "skip", "forall x: T, y: T. has(m[x]) => c[get(m[y])] = 0", "get(m[y])"},
		{"definition range", "", "true", "skip", "inS(n) => c[s[n]] = 0", ""},
		{"definition body", "", "true", "skip", "0 <= n and n < len(s) => c[elem(n)] = 0", "s[j]"},
		// a body read with its callers' facts: 0 <= j when the argument
		// is non-negative at every call
		{"call with range", "", "true", "skip", "forall i in 0..len(s). lt(i)", ""},
		{"call with literal", "", "true", "skip", "lt(0) and lt(2)", ""},
		{"call with i + 1", "", "true", "skip", "forall i in 0..len(s). lt(i + 1)", ""},
		{"call with len", "", "true", "skip", "lt(len(s)) or lt(len(r) * 2)", ""},
		{"call with fact", "", "true", "skip", "0 <= n => lt(n)", ""},
		{"call through a definition", "", "true", "skip", "forall i in 0..len(s). lt2(i)", ""},
		{"call without fact", "", "true", "skip", "lt(n)", "s[j]"},
		{"call with i - 1", "", "true", "skip", "forall i in 0..len(s). lt(i - 1)", "s[j]"},
		{"call with -1", "", "true", "skip", "lt(-1)", "s[j]"},
		{"call with i + n", "", "true", "skip", "forall i in 0..len(s). lt(i + n)", "s[j]"},
		{"one call without fact", "", "true", "skip", "lt(0) and lt(n)", "s[j]"},
		{"call through a definition without fact", "", "true", "skip", "lt2(n)", "s[j]"},
		{"call with Nat", "", "true", "skip", "lt(k)", ""},
		{"call with range parameter", "i: \"in 0..len(s)\"", "lt(i)", "skip", "true", ""},
		{"call with range parameter from n", "i: \"in n..len(s)\"", "lt(i)", "skip", "true", "s[j]"},
		// sequence indices and ranges
		{"range", "", "true", "skip", "forall i in 0..len(s). c[s[i]] = 0", ""},
		{"range from 1", "", "true", "skip", "forall i in 1..len(s). c[s[i]] = 0", ""},
		{"range from -1", "", "true", "skip", "forall i in -1..len(s). c[s[i]] = 0", "s[i]"},
		{"range of another sequence", "", "true", "skip", "forall i in 0..len(r). c[s[i]] = 0", "s[i]"},
		{"range then index - 1", "", "true", "skip", "forall i in 1..len(s). c[s[i - 1]] = 0", "s[i - 1]"},
		{"shadowed index", "", "true", "skip", "forall i in 0..len(s). (forall i in 0..5. c[s[i]] = 0)", "s[i]"},
		{"later binder", "", "true", "skip", "forall i in 0..len(s), j in 0..i. c[s[j]] = 0", "s[j]"},
		{"bounds", "", "true", "skip", "0 <= n and n < len(s) => c[s[n]] = 0", ""},
		{"bounds reversed", "", "true", "skip", "len(s) > n and n >= 0 => c[s[n]] = 0", ""},
		{"bounds negated", "", "true", "skip", "n < 0 or len(s) <= n or c[s[n]] = 0", ""},
		{"bounds + 1", "", "true", "skip", "0 <= n and n + 1 <= len(s) => c[s[n]] = 0", ""},
		{"no lower bound", "", "true", "skip", "n < len(s) => c[s[n]] = 0", "s[n]"},
		{"Nat is a lower bound", "", "true", "skip", "k < len(s) => c[s[k]] = 0", ""},
		{"Nat in a map is a lower bound", "", "true", "skip", "forall t: T. nk[t] < len(s) => c[s[nk[t]]] = 0", ""},
		{"Nat - 1 is no lower bound", "", "true", "skip", "k - 1 < len(s) => c[s[k - 1]] = 0", "s[k - 1]"},
		{"if bounds", "", "true", "skip", "if 0 <= n and n < len(s) then c[s[n]] = 0 else true", ""},
		{"literal index", "", "true", "skip", "len(s) > 1 => c[s[1]] = 0", ""},
		{"literal index too far", "", "true", "skip", "len(s) > 1 => c[s[2]] = 0", "s[2]"},
		{"last index", "", "true", "skip", "len(s) >= 1 => c[s[len(s) - 1]] = 0", ""},
		{"last index, empty", "", "true", "skip", "len(s) >= 0 => c[s[len(s) - 1]] = 0", "s[len(s) - 1]"},
		// last
		{"last nonempty", "", "true", "skip", "s != [] => c[last(s)] = 0", ""},
		{"last not empty", "", "true", "skip", "not (s = []) => c[last(s)] = 0", ""},
		{"last len > 0", "", "true", "skip", "len(s) > 0 => c[last(s)] = 0", ""},
		{"last len != 0", "", "true", "skip", "len(s) != 0 => c[last(s)] = 0", ""},
		{"last index bound", "", "true", "skip", "0 <= n and n < len(s) => c[last(s)] = 0", ""},
		{"last len >= 0", "", "true", "skip", "len(s) >= 0 => c[last(s)] = 0", "last(s)"},
		{"last other", "", "true", "skip", "r != [] => c[last(s)] = 0", "last(s)"},
		// actions: parameter ranges, precondition, effect
		{"pre guards eff", "", "isSome(o)", "c[get(o)] := 1", "true", ""},
		{"pre guards index of target", "", "isSome(o)", "c[get(o)] := c[get(o)] + 1", "true", ""},
		{"no pre", "", "true", "c[get(o)] := 1", "true", "get(o)"},
		{"pre conjuncts", "t: T", "isSome(o) and get(o) = t", "skip", "true", ""},
		{"pre conjunct checked later", "t: T, u: T", "not (isNone(o) or u = t) and c[get(o)] = 0", "skip", "true", "get(o)"},
		{"pre conjunct checked later, eff", "t: T, u: T", "not (isNone(o) or u = t)", "c[get(o)] := 0", "true", ""},
		{"range parameter", "i: \"in 0..len(s)\"", "true", "c[s[i]] := 1", "true", ""},
		{"range parameter in pre", "i: \"in 0..len(s)\"", "c[s[i]] = 0", "skip", "true", ""},
		{"range parameter from n", "i: \"in n..len(s)\"", "true", "c[s[i]] := 1", "true", "s[i]"},
		{"if in effect", "", "true", "if isSome(o) then c[get(o)] := 1 end", "true", ""},
		{"else in effect", "", "true", "if isSome(o) then skip else c[get(o)] := 1 end", "true", "get(o)"},
		{"elif in effect", "", "true", "if isNone(o) then skip elif n = 0 then c[get(o)] := 1 end", "true", ""},
		// the right-hand sides are read in the pre-state: o := None does
		// not make isSome(o) false for the statements after it
		{"assignment before", "", "isSome(o)", "o := None; c[get(o)] := 1", "true", ""},
		{"assignment in between", "", "true", "if isSome(o) then o := None; c[get(o)] := 1 end", "true", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := "guard.yaml"
			fixtures[file] = fmt.Sprintf(guardAutomaton, c.params, c.pre, c.eff, c.inv)
			a := loadFixture(t, file, "G")
			m, err := Machine(a, Config{Instance: bounds(t, "T=3")})
			if err != nil {
				t.Fatal(err)
			}
			// Where the caller does not check the Nat conditions before
			// evaluating, a Nat gives no lower bound.
			unchecked := map[string]string{"call with Nat": "s[j]", "Nat is a lower bound": "s[k]", "Nat in a map is a lower bound": "s[nk[t]]"}
			for _, natChecked := range []bool{true, false} {
				want, ok := unchecked[c.name]
				if natChecked || !ok {
					want = c.fixed
				}
				_, why, err := checkSymmetry(a, m.Inst, []string{"T"}, nil, natChecked)
				if err != nil {
					t.Fatal(err)
				}
				got := why["T"]
				switch {
				case want == "" && got != "":
					t.Errorf("Nat checked %v: T#0 fixed: %s", natChecked, got)
				case want != "" && !(strings.HasPrefix(got, file+":") && strings.Contains(got, ": "+want+" can evaluate to the default value of T")):
					t.Errorf("Nat checked %v: got %q, want T#0 fixed by %s", natChecked, got, want)
				}
			}
		})
	}
}

// TestSymmetryCallFacts checks the reduction on ReservationTMS2, whose
// memAt(n) and cntAt(n) index the reservation order with their parameter:
// every call passes a non-negative argument (a literal, i + 1, a range
// from 0), so no transaction is fixed, and the reduced search visits
// exactly the orbits of the full one.
func TestSymmetryCallFacts(t *testing.T) {
	set, errs := load.Files("../../specs/ReservationTMS2.yaml")
	if len(errs) > 0 {
		t.Fatalf("loading ReservationTMS2: %v", errs)
	}
	a := set.Automaton("ReservationTMS2")
	inst := "T=2,L=1,V=2"
	full, orbs, covered := orbits(t, a, bounds(t, inst), []string{"T"}, nil)
	res, err := Explore(a, Config{Instance: bounds(t, inst), Symmetry: []string{"T"}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Symmetry; s == nil || len(s.Sorts[0].Fixed) != 0 || s.Permutations != 2 {
		t.Fatalf("got %+v, want T with no fixed element", s)
	}
	if !res.Complete || res.States != orbs || covered != full || res.States >= full {
		t.Errorf("complete=%v: %d states, want the %d orbits of %d states (covering %d)", res.Complete, res.States, orbs, full, covered)
	}
	t.Logf("%d states, %d orbits", full, res.States)
}
