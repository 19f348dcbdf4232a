package fast

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// flatCase is an automaton of the repository and an instance to compare
// Flat with the Runner on; covered says that Flat must compile it.
type flatCase struct {
	file    string
	inst    map[string]int
	covered bool
}

// flatCases are every automaton file of the repository (specifications,
// algorithms and the buggy fixtures), each at a small instance.
func flatCases(t *testing.T) []flatCase {
	t.Helper()
	var files []string
	for _, g := range []string{"../../../specs/*.yaml", "../../../algorithms/*.yaml", "../../../algorithms/testdata/*.yaml", "../../../docs/examples/mutex/*.yaml"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d automaton files", len(files))
	}
	var cs []flatCase
	for _, f := range files {
		inst := map[string]int{"T": 2, "L": 2, "V": 2, "P": 2}
		cs = append(cs, flatCase{file: f, inst: inst, covered: strings.HasSuffix(f, "/TMS2.yaml")})
	}
	return cs
}

// TestFlatAgrees is the differential test of Flat against the Runner: on
// the reachable states of every automaton of the repository that Flat
// compiles (breadth first, at most maxStates states per automaton), the
// successors Flat computes from a state's encoding equal, in order and with
// their actions, the encodings of the successors Runner.Successors
// computes, whenever Flat does not give up; and Flat.Holds agrees with
// Runner.Violated. TMS2 (the automaton of the SPIN comparison) must
// compile, and Flat must not give up on any of its states here.
func TestFlatAgrees(t *testing.T) {
	const maxStates = 30000
	compiled := 0
	done := map[string]bool{}
	for _, fc := range flatCases(t) {
		set, errs := load.Files(fc.file)
		if len(errs) > 0 {
			continue // a proof file, or a file that needs others
		}
		for _, a := range set.Automata {
			if done[a.Name] {
				continue
			}
			done[a.Name] = true
			name := filepath.Base(fc.file) + "/" + a.Name
			t.Run(name, func(t *testing.T) {
				inst := &eval.Instance{Sizes: map[string]int{}}
				for _, s := range a.Sorts {
					if n, ok := fc.inst[s.Name]; ok {
						inst.Sizes[s.Name] = n
					}
				}
				m, err := eval.NewMachine(a, inst)
				if err != nil {
					t.Skipf("not explorable at %v: %v", inst, err)
				}
				fl, err := NewFlat(m)
				if err != nil {
					if !errors.Is(err, errNotFlat) {
						t.Fatalf("NewFlat: %v (not a refusal)", err)
					}
					if fc.covered {
						t.Fatalf("NewFlat: %v", err)
					}
					t.Skipf("no flat machine: %v", err)
				}
				compiled++
				states, gaveUp, framed := compareFlatRows(t, m, fl, maxStates)
				t.Logf("%d states compared, Flat gave up on %d, %d steps checked by row", states, gaveUp, framed)
				if a.Name == "TMS2" && framed == 0 {
					t.Error("no step of TMS2 was checked by row (HoldsAfterRow)")
				}
				if fc.covered && gaveUp > 0 {
					t.Errorf("Flat gave up on %d states of %s", gaveUp, a.Name)
				}
				if states < 3 {
					t.Errorf("only %d states compared", states)
				}
			})
		}
	}
	if compiled < 2 {
		t.Errorf("Flat compiled only %d automata", compiled)
	}
}

// compareFlat explores m breadth first with a Runner and compares Flat on
// every state found; it returns the states compared and those on which
// Flat gave up.
func compareFlat(t *testing.T, m *eval.Machine, fl *Flat, max int) (states, gaveUp int) {
	states, gaveUp, _ = compareFlatRows(t, m, fl, max)
	return states, gaveUp
}

// compareFlatRows is compareFlat, and also returns the steps checked
// with a row parameter (HoldsAfterRow).
func compareFlatRows(t *testing.T, m *eval.Machine, fl *Flat, max int) (states, gaveUp, framedSteps int) {
	t.Helper()
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(m)
	fr := fl.NewRunner()
	seen := map[string]bool{}
	var queue [][]byte
	for _, s := range inits {
		k := m.AppendState(nil, s)
		if !seen[string(k)] {
			seen[string(k)] = true
			queue = append(queue, k)
		}
	}
	type succ struct {
		act int
		key string
	}
	for len(queue) > 0 && states < max {
		key := queue[0]
		queue = queue[1:]
		states++
		s, err := m.DecodeState(key)
		if err != nil {
			t.Fatal(err)
		}
		var want []succ
		rerr := r.Successors(s, func(act int, params []eval.Value, post eval.State) bool {
			want = append(want, succ{act, string(m.AppendState(nil, post))})
			return true
		})
		var got []succ
		var rowPs []int64 // RowParam of each of got
		ok := fr.Successors(key, func(act int, post []byte) bool {
			got = append(got, succ{act, string(post)})
			rowPs = append(rowPs, fr.RowParam(act))
			return true
		})
		if rerr != nil && ok {
			t.Fatalf("state %s: the Runner fails (%v), Flat does not give up", s.Format(m.A), rerr)
		}
		if !ok {
			gaveUp++
		} else if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("state %s:\nFlat   %s\nRunner %s", s.Format(m.A), describe(m, got), describe(m, want))
		}
		name, verr := r.Violated(s, nil)
		holds, hok := fr.Holds(key, nil)
		if hok && (verr != nil || holds != (name == "")) {
			t.Fatalf("state %s: Flat says holds=%v, the Runner %q (%v)", s.Format(m.A), holds, name, verr)
		}
		if name != "" || rerr != nil {
			continue // not expanded further, as the explorer would stop here
		}
		// s satisfies every condition: a successor's conditions after the
		// step (HoldsAfter, and HoldsAfterRow with the step's RowParam)
		// are its conditions (Holds)
		for i, w := range want {
			h1, ok1 := fr.Holds([]byte(w.key), nil)
			h2, ok2 := fr.HoldsAfter(w.act, []byte(w.key), nil)
			if ok1 && (!ok2 || h1 != h2) {
				t.Fatalf("state %s, step %s: Holds says %v, HoldsAfter %v (ok %v)", s.Format(m.A), m.A.Actions[w.act].Name, h1, h2, ok2)
			}
			if ok {
				h3, ok3 := fr.HoldsAfterRow(w.act, rowPs[i], []byte(w.key), nil)
				if ok1 && (!ok3 || h1 != h3) {
					t.Fatalf("state %s, step %s (row %d): Holds says %v, HoldsAfterRow %v (ok %v)", s.Format(m.A), m.A.Actions[w.act].Name, rowPs[i], h1, h3, ok3)
				}
				if rowPs[i] >= 0 {
					framedSteps++
				}
			}
		}
		for _, w := range want {
			if !seen[w.key] {
				seen[w.key] = true
				queue = append(queue, []byte(w.key))
			}
		}
	}
	return states, gaveUp, framedSteps
}

func describe[S any](m *eval.Machine, ss []S) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "\n  %v", s)
	}
	return b.String()
}

// TestFlatGivesUp checks the states and steps Flat leaves to the Runner:
// an integer too large for one byte in the state, a step that would write
// one, a negative Nat and a sequence too long.
func TestFlatGivesUp(t *testing.T) {
	a := loadInline(t, `
automaton: Counter
sorts:
  P: param
state:
  n:   {sort: Nat, init: 0}
  log: {sort: "Seq[Bool]", init: "[]"}
actions:
  Inc:
    kind: internal
    pre: n < 100
    eff: n := n + 1
  Dec:
    kind: internal
    pre: n = 0
    eff: n := n - 1
  Push:
    kind: internal
    pre: len(log) < 200
    eff: log := append(log, true)
invariants:
  small: n < 50
`)
	m, fl := flatMachine(t, a, map[string]int{"P": 1})
	fr := fl.NewRunner()
	key := func(n int64, logLen int) []byte {
		log := make([]eval.Value, logLen)
		for i := range log {
			log[i] = eval.Bool(true)
		}
		return m.AppendState(nil, eval.State{eval.Int(n), eval.Seq(log...)})
	}
	count := func(k []byte) (int, bool) {
		n := 0
		ok := fr.Successors(k, func(int, []byte) bool { n++; return true })
		return n, ok
	}
	if n, ok := count(key(5, 3)); !ok || n != 2 {
		t.Errorf("n=5: %d successors, ok %v; want 2, true", n, ok)
	}
	if _, ok := count(key(63, 0)); ok {
		t.Error("n=63: Inc writes 64, which needs two bytes, and Flat did not give up")
	}
	if _, ok := count(key(70, 0)); ok {
		t.Error("n=70 (two bytes in the state): Flat did not give up")
	}
	if _, ok := count(key(0, 0)); ok {
		t.Error("n=0: Dec writes a negative Nat, and Flat did not give up")
	}
	if _, ok := count(key(5, 127)); ok {
		t.Error("a sequence of 127: Push makes it 128 long, and Flat did not give up")
	}
	if h, ok := fr.Holds(key(5, 2), nil); !ok || !h {
		t.Errorf("Holds(n=5) = %v, %v", h, ok)
	}
	if h, ok := fr.Holds(key(55, 2), nil); !ok || h {
		t.Errorf("Holds(n=55) = %v, %v; want the invariant violated", h, ok)
	}
	if _, ok := fr.Holds(key(200, 2), nil); ok {
		t.Error("Holds(n=200): the state is outside the layout, and Flat answered")
	}
	if h, ok := fr.Holds(m.AppendState(nil, eval.State{eval.Int(-3), eval.Seq()}), nil); !ok || h {
		t.Errorf("Holds(n=-3) = %v, %v; want the Nat condition violated", h, ok)
	}
}

// TestFlatRefuses checks that NewFlat names what it cannot compile.
func TestFlatRefuses(t *testing.T) {
	a := loadInline(t, `
automaton: Bag
sorts:
  P: param
state:
  s: {sort: "Seq[Seq[P]]", init: "[]"}
actions:
  A:
    kind: internal
    eff: s := append(s, [])
`)
	m, err := eval.NewMachine(a, &eval.Instance{Sizes: map[string]int{"P": 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewFlat(m)
	if !errors.Is(err, errNotFlat) || !strings.Contains(err.Error(), "state variable s") {
		t.Errorf("NewFlat = %v, want a refusal naming s", err)
	}
}

// flatMachine compiles a for the instance with the given sizes, and its
// Flat.
func flatMachine(t *testing.T, a *ioa.Automaton, sizes map[string]int) (*eval.Machine, *Flat) {
	t.Helper()
	m, err := eval.NewMachine(a, &eval.Instance{Sizes: sizes})
	if err != nil {
		t.Fatal(err)
	}
	fl, err := NewFlat(m)
	if err != nil {
		t.Fatal(err)
	}
	return m, fl
}

// loadInline loads one automaton from YAML text.
func loadInline(t *testing.T, text string) *ioa.Automaton {
	t.Helper()
	file := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := load.Files(file)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(set.Automata) != 1 {
		t.Fatalf("%d automata", len(set.Automata))
	}
	return set.Automata[0]
}

// kitchenYAML uses most of the language that Flat compiles: sequences
// (append, an update and a read outside the sequence, last of the empty
// one, literals), records (literals, fields, with), enumerations, Options,
// sets (literals, union, \, inter, comprehensions, in), nested maps,
// override, dom, lambda, let, quantifiers over sorts and ranges,
// definitions with parameters, integer arithmetic with negative values,
// div, mod, abs, min, max, even and odd, and effects with if.
const kitchenYAML = `
automaton: Kitchen
sorts:
  T: param
  Mode: {enum: [Off, Low, High]}
  Cell: {record: {owner: T, value: Int}}
definitions:
  busy:
    params: {t: T}
    sort: Bool
    body: mode[t] != Off
  others:
    params: {t: T}
    sort: "Set[T]"
    body: "{u: T | u != t and busy(u)}"
state:
  n:    {sort: Int, init: 0}
  log:  {sort: "Seq[Bool]", init: "[]"}
  mode: {sort: "Map[T, Mode]", init: const(Off)}
  cell: {sort: "Map[T, Cell]", init: "const(Cell{owner: T#0, value: 0})"}
  prev: {sort: "Map[T, Option[Mode]]", init: const(None)}
  seen: {sort: "Set[T]", init: "{}"}
  grid: {sort: "Map[T, Map[Mode, Bool]]", init: const(const(false))}
actions:
  Push:
    kind: internal
    pre: len(log) < 3
    eff: log := append(log, odd(n))
  Poke:
    kind: internal
    params: {k: "in 0..len(log) + 1"}
    pre: n >= -2
    eff: |
      log[k] := not log[k]
      n := n - 1
  Turn:
    kind: internal
    params: {t: T, m: Mode}
    pre: mode[t] != m and n mod 2 = 0 and n div 2 <= 1
    eff: |
      prev[t] := Some(mode[t])
      mode[t] := m
      grid[t][m] := not grid[t][m]
      seen := seen union {t}
      if m = High then
        n := n + 1
      else
        cell[t] := cell[t] with {value := abs(cell[t].value - 1)}
      end
  Share:
    kind: internal
    params: {t: T, u: T}
    pre: "t != u and busy(t) and not (u in others(t)) and exists v: T. v = u"
    eff: |
      cell[u] := Cell{owner: t, value: min(cell[t].value, 2)}
      seen := seen \ {u}
      mode := override(mode, lambda v: T. if v in seen inter dom(prev) then Some(Off) else None)
  Reset:
    kind: internal
    pre: len(log) = 3 and max(n, 0) = 0
    eff: |
      log := [true, false]
      n := n + 2
invariants:
  values: "forall t: T. cell[t].value >= 0"
  logRead: "forall i in 0..len(log). log[i] = [true, false, true][i] or log[i] != [true, false, true][i]"
  lastRead: "last(log) = (if len(log) = 0 then false else log[len(log) - 1])"
  outside: 'log[len(log)] = false and seen \ seen = {}'
  range: "let m = n * 2 in m >= -6 and m <= 8 and n div 3 <= 1"
  prevDom: "forall t: T. t in dom(prev) <=> isSome(prev[t])"
`

// TestFlatLanguage compares Flat with the Runner on Kitchen, whose states
// and steps all have the flat layout: Flat must agree on every state and
// give up on none.
func TestFlatLanguage(t *testing.T) {
	a := loadInline(t, kitchenYAML)
	m, fl := flatMachine(t, a, map[string]int{"T": 2})
	states, gaveUp := compareFlat(t, m, fl, 20000)
	t.Logf("%d states compared", states)
	if states < 1000 || gaveUp > 0 {
		t.Errorf("%d states compared, Flat gave up on %d", states, gaveUp)
	}
}

// actionIndex returns the index of a's action called name.
func actionIndex(t *testing.T, a *ioa.Automaton, name string) int {
	t.Helper()
	for i, ac := range a.Actions {
		if ac.Name == name {
			return i
		}
	}
	t.Fatalf("no action %s", name)
	return -1
}

// TestFlatHoldsAfter checks what HoldsAfter evaluates after a step: the
// invariants that read a variable the action assigns, on any branch of its
// effect, and the Nat conditions of those variables, and nothing else. Its
// contract is that the pre-state satisfied every condition; here it is
// given states that do not, to show which conditions it leaves alone.
func TestFlatHoldsAfter(t *testing.T) {
	a := loadInline(t, `
automaton: Frame
state:
  x: {sort: Int, init: 0}
  y: {sort: Int, init: 0}
  z: {sort: Nat, init: 0}
actions:
  IncX:
    kind: internal
    eff: x := x + 1
  IncY:
    kind: internal
    eff: y := y + 1
  Branch:
    kind: internal
    eff: |
      if y > 0 then z := z + 1 else x := 0 end
invariants:
  smallX: {body: x < 3}
  smallY: {body: y < 3}
`)
	m, err := eval.NewMachine(a, &eval.Instance{Sizes: map[string]int{}})
	if err != nil {
		t.Fatal(err)
	}
	fl, err := NewFlat(m)
	if err != nil {
		t.Fatal(err)
	}
	fr := fl.NewRunner()
	key := func(x, y, z int64) []byte {
		return m.AppendState(nil, eval.State{eval.Int(x), eval.Int(y), eval.Int(z)})
	}
	act := func(name string) int { return actionIndex(t, a, name) }
	cases := []struct {
		act     string
		x, y, z int64
		want    bool
	}{
		{"IncX", 3, 0, 0, false},    // IncX assigns x: smallX is evaluated
		{"IncX", 0, 5, 0, true},     // smallY reads nothing IncX assigns
		{"IncY", 0, 3, 0, false},    // IncY assigns y: smallY is evaluated
		{"IncY", 9, 0, 0, true},     // smallX is left alone
		{"Branch", 3, 0, 0, false},  // the else branch assigns x
		{"Branch", 0, 0, -1, false}, // the then branch assigns the Nat z
		{"IncX", 0, 0, -1, true},    // IncX assigns no Nat
	}
	for _, c := range cases {
		got, ok := fr.HoldsAfter(act(c.act), key(c.x, c.y, c.z), nil)
		if !ok || got != c.want {
			t.Errorf("HoldsAfter(%s, x=%d y=%d z=%d) = %v (ok %v), want %v", c.act, c.x, c.y, c.z, got, ok, c.want)
		}
		if full, ok := fr.Holds(key(c.x, c.y, c.z), nil); !ok || full != (c.x < 3 && c.y < 3 && c.z >= 0) {
			t.Errorf("Holds(x=%d y=%d z=%d) = %v (ok %v)", c.x, c.y, c.z, full, ok)
		}
	}
}

// TestFlatHoldsAfterRow checks the row frame (rows.go): after
// a step that assigns tables at the row of its parameter t only, an
// invariant `forall x: T. B` that reads them at row x only is evaluated
// at row t alone; one that reads a table elsewhere, or a variable the
// step assigns whole, is evaluated at every row. As in
// TestFlatHoldsAfter, the states given break the contract (a pre-state
// where everything held) to show what is evaluated.
func TestFlatHoldsAfterRow(t *testing.T) {
	a := loadInline(t, `
automaton: Rows
sorts:
  T: param
state:
  c: {sort: "Map[T, Int]", init: const(0)}
  d: {sort: "Map[T, Int]", init: const(0)}
  g: {sort: Int, init: 0}
actions:
  Inc:
    kind: internal
    params: {t: T}
    eff: c[t] := c[t] + 1
  IncAll:
    kind: internal
    params: {t: T}
    eff: |
      c[t] := c[t] + 1
      g := g + 1
  IncTwo:
    kind: internal
    params: {t: T, u: T}
    eff: |
      c[t] := c[t] + 1
      d[u] := d[u] + 1
invariants:
  own:   {body: "forall x: T. c[x] < 3"}
  other: {body: "forall x: T. c[x] <= c[T#0] + 5"}
  glob:  {body: "forall x: T. c[x] <= g + 5"}
`)
	m, err := eval.NewMachine(a, &eval.Instance{Sizes: map[string]int{"T": 2}})
	if err != nil {
		t.Fatal(err)
	}
	fl, err := NewFlat(m)
	if err != nil {
		t.Fatal(err)
	}
	act := func(name string) int { return actionIndex(t, a, name) }
	// the analysis
	framed := func(action string) []bool { return fl.acts[act(action)].rowFramed }
	if got := fmt.Sprint(fl.acts[act("Inc")].rowParam, framed("Inc")); got != "0 [true false true]" {
		t.Errorf("Inc: row parameter and framed invariants %s, want 0 [true false true]", got)
	}
	if got := fmt.Sprint(fl.acts[act("IncAll")].rowParam, framed("IncAll")); got != "0 [true false false]" {
		t.Errorf("IncAll: %s, want 0 [true false false]", got)
	}
	if p := fl.acts[act("IncTwo")].rowParam; p != -1 {
		t.Errorf("IncTwo assigns rows of two parameters: row parameter %d, want -1", p)
	}
	// the evaluation: c = [c0, c1], d = [0, 0], g = 0
	fr := fl.NewRunner()
	key := func(c0, c1 int64) []byte {
		return m.AppendState(nil, eval.State{eval.Record(eval.Int(c0), eval.Int(c1)), eval.Record(eval.Int(0), eval.Int(0)), eval.Int(0)})
	}
	own := []int{0}
	cases := []struct {
		act    string
		p      int64
		c0, c1 int64
		want   bool
	}{
		{"Inc", 0, 1, 7, true},     // row 1 is left alone: own holds at row 0
		{"Inc", 0, 3, 0, false},    // own fails at row 0
		{"Inc", 1, 3, 0, true},     // ... which a step at row 1 leaves alone
		{"Inc", -1, 1, 7, false},   // no row: every row is evaluated
		{"IncAll", 0, 1, 7, true},  // own is framed for IncAll too
		{"IncTwo", 0, 1, 7, false}, // no row parameter: every row
	}
	for _, c := range cases {
		got, ok := fr.HoldsAfterRow(act(c.act), c.p, key(c.c0, c.c1), own)
		if !ok || got != c.want {
			t.Errorf("HoldsAfterRow(%s, %d, c=[%d %d]) = %v (ok %v), want %v", c.act, c.p, c.c0, c.c1, got, ok, c.want)
		}
	}
	// glob reads g, which IncAll assigns: every row is evaluated
	if got, ok := fr.HoldsAfterRow(act("IncAll"), 0, key(0, 6), []int{2}); !ok || got {
		t.Errorf("HoldsAfterRow(IncAll, 0, c=[0 6]) of glob = %v (ok %v), want false", got, ok)
	}
	if got, ok := fr.HoldsAfterRow(act("Inc"), 0, key(0, 6), []int{2}); !ok || !got {
		t.Errorf("HoldsAfterRow(Inc, 0, c=[0 6]) of glob = %v (ok %v), want true", got, ok)
	}
}
