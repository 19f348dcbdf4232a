package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/load"
)

// fixtures are small automata whose state spaces are counted by hand.
var fixtures = map[string]string{
	// Counter: n goes 0, 1, 2, 3 and back to 0. 4 states, 4 transitions.
	// `small` is wrong: n = 2 is reached after exactly 2 steps.
	"counter.yaml": `
automaton: Counter
constants:
  max: {sort: Int, value: 3}
state:
  n: {sort: Nat, init: 0}
actions:
  Inc:
    kind: internal
    pre: n < max
    eff: n := n + 1
  Reset:
    kind: internal
    pre: n = max
    eff: n := 0
invariants:
  bounded: n <= max
  small: n < 2
`,
	// Grid: x, y in 0..3, plus Jump from (x, 0) to (3, 0). All 16 states are
	// reachable; IncX is enabled in 12, IncY in 12, Jump in 3 (x < 3, y = 0):
	// 27 transitions; only (3, 3) is deadlocked; the farthest state, (2, 3),
	// is 5 steps away. `notCorner` fails at (3, 2),
	// at distance 3 (Jump, IncY, IncY) although IncX thrice and IncY twice
	// also get there.
	"grid.yaml": `
automaton: Grid
state:
  x: {sort: Int, init: 0}
  y: {sort: Int, init: 0}
actions:
  IncX:
    kind: internal
    pre: x < 3
    eff: x := x + 1
  IncY:
    kind: internal
    pre: y < 3
    eff: y := y + 1
  Jump:
    kind: internal
    pre: y = 0 and x < 3
    eff: x := 3
invariants:
  inRange: 0 <= x and x <= 3 and 0 <= y and y <= 3
  notCorner: not (x = 3 and y = 2)
`,
	// Down: a Nat that an action decrements below 0 after one step.
	"down.yaml": `
automaton: Down
state:
  k: {sort: Nat, init: 0}
  m: {sort: "Map[Bool, Nat]", init: const(1)}
actions:
  Dec:
    kind: internal
    eff: k := k - 1
  DecM:
    kind: internal
    params: {b: Bool}
    pre: k = 0
    eff: m[b] := m[b] - 2
`,
	// Mutex over T: with T=3 there are 4 states (free, or held by one of
	// three) and 6 transitions (3 acquires, 3 releases).
	"mutex.yaml": `
automaton: Mutex
sorts:
  T: param
state:
  holder: Map[T, Bool]
initially: "forall t: T. not holder[t]"
actions:
  Acquire:
    kind: internal
    params: {t: T}
    pre: "forall u: T. not holder[u]"
    eff: holder[t] := true
  Release:
    kind: internal
    params: {t: T}
    pre: holder[t]
    eff: holder[t] := false
invariants:
  mutex: "forall t: T, u: T. holder[t] and holder[u] => t = u"
`,
	// Flags: a Map[T, Bool] without init or initially: every one of the
	// 2^|T| maps is a start state. Toggle(t) flips one entry: the states are
	// the same 2^|T| maps, with |T| * 2^|T| transitions.
	"flags.yaml": `
automaton: Flags
sorts:
  T: param
state:
  f: Map[T, Bool]
actions:
  Toggle:
    kind: internal
    params: {t: T}
    eff: f[t] := not f[t]
`,
	// Start: the start state itself violates `small`.
	"start.yaml": `
automaton: Start
state:
  n: {sort: Int, init: 5}
actions:
  Dec:
    kind: internal
    pre: n > 0
    eff: n := n - 1
invariants:
  small: n < 3
`,
	// Stateless: no variables; its one state loops.
	"stateless.yaml": `
automaton: Stateless
state: {}
actions:
  Loop:
    kind: internal
`,
	// Nothing: no start state satisfies initially.
	"nothing.yaml": `
automaton: Nothing
state:
  b: Bool
initially: b and not b
actions:
  Flip:
    kind: internal
    eff: b := not b
`,
	// Ranges: an Int parameter over a range that depends on the state. From
	// n, Set(k) goes to any k in 0..n+1 with k < 4: states 0..3, and from n
	// there are min(n+2, 4) transitions: 2+3+4+4 = 13.
	"ranges.yaml": `
automaton: Ranges
state:
  n: {sort: Int, init: 0}
actions:
  Set:
    kind: internal
    params: {k: "in 0..n + 2"}
    pre: k < 4
    eff: n := k
`,
}

func loadFixture(t testing.TB, file, name string) *ioa.Automaton {
	t.Helper()
	cfg := load.Config{ReadFile: func(p string) ([]byte, error) {
		if s, ok := fixtures[p]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no fixture %s", p)
	}}
	set, errs := cfg.Files(file)
	if len(errs) > 0 {
		t.Fatalf("loading %s: %v", file, errs)
	}
	a := set.Automaton(name)
	if a == nil {
		t.Fatalf("no automaton %s in %s", name, file)
	}
	return a
}

func bounds(t testing.TB, s string) *eval.Instance {
	t.Helper()
	inst, err := ParseBounds(s)
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestStateCounts(t *testing.T) {
	for _, c := range []struct {
		file, name, bounds string
		invariants         []string
		states             int
		transitions        int64
		deadlocks          int
		depth              int
		inits              int
	}{
		{"counter.yaml", "Counter", "", []string{"bounded"}, 4, 4, 0, 3, 1},
		{"grid.yaml", "Grid", "", []string{"inRange"}, 16, 27, 1, 5, 1},
		{"mutex.yaml", "Mutex", "T=3", nil, 4, 6, 0, 1, 1},
		{"mutex.yaml", "Mutex", "T=1", nil, 2, 2, 0, 1, 1},
		{"flags.yaml", "Flags", "T=3", nil, 8, 24, 0, 0, 8},
		{"flags.yaml", "Flags", "T=5", nil, 32, 160, 0, 0, 32},
		{"ranges.yaml", "Ranges", "", nil, 4, 13, 0, 3, 1},
		{"stateless.yaml", "Stateless", "", nil, 1, 1, 0, 0, 1},
		{"nothing.yaml", "Nothing", "", nil, 0, 0, 0, 0, 0},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%s/w%d", c.name, c.bounds, workers), func(t *testing.T) {
				a := loadFixture(t, c.file, c.name)
				res, err := Explore(a, Config{Instance: bounds(t, c.bounds), Invariants: c.invariants, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if res.Violation != nil {
					t.Fatalf("unexpected violation of %s", res.Violation.Invariant)
				}
				if !res.Complete || res.States != c.states || res.Transitions != c.transitions ||
					res.Deadlocks != c.deadlocks || res.MaxDepth != c.depth || res.InitialStates != c.inits {
					t.Errorf("got complete=%v states=%d transitions=%d deadlocks=%d depth=%d inits=%d; want %d %d %d %d %d",
						res.Complete, res.States, res.Transitions, res.Deadlocks, res.MaxDepth, res.InitialStates,
						c.states, c.transitions, c.deadlocks, c.depth, c.inits)
				}
			})
		}
	}
}

// checkTrace replays a trace with Machine.Step and checks that each step is
// a transition of the automaton and that the last state violates name.
func checkTrace(t *testing.T, a *ioa.Automaton, inst *eval.Instance, tr *Trace, name string) {
	t.Helper()
	m, err := Machine(a, Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range inits {
		found = found || s.Equal(tr.Steps[0].State)
	}
	if !found {
		t.Fatalf("trace does not start in a start state")
	}
	for i := 1; i < len(tr.Steps); i++ {
		st := tr.Steps[i]
		post, ok, err := m.Step(st.Act, tr.Steps[i-1].State, st.Params)
		if err != nil || !ok || !post.Equal(st.State) {
			t.Fatalf("step %d (%s) is not a transition: ok=%v err=%v", i, st.Action, ok, err)
		}
	}
	if tr.Invariant != name {
		t.Errorf("trace violates %q, want %q", tr.Invariant, name)
	}
	r := fast.NewRunner(m)
	last := tr.Steps[len(tr.Steps)-1].State
	if got, err := r.Violated(last, nil); err != nil || got == "" {
		t.Errorf("the last state violates nothing (%v)", err)
	}
}

func TestShortestCounterexample(t *testing.T) {
	for _, c := range []struct {
		file, name, bounds, invariant string
		length                        int
		actions                       []string
	}{
		{"counter.yaml", "Counter", "", "small", 2, []string{"Inc", "Inc"}},
		{"grid.yaml", "Grid", "", "notCorner", 3, []string{"Jump", "IncY", "IncY"}},
		{"down.yaml", "Down", "", "k:Nat", 1, []string{"Dec"}},
		{"start.yaml", "Start", "", "small", 0, nil},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/w%d", c.name, workers), func(t *testing.T) {
				a := loadFixture(t, c.file, c.name)
				inst := bounds(t, c.bounds)
				res, err := Explore(a, Config{Instance: inst, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				tr := res.Violation
				if tr == nil {
					t.Fatalf("no violation found")
				}
				if res.Complete {
					t.Errorf("a result with a violation is complete")
				}
				if tr.Len() != c.length {
					t.Errorf("trace has %d steps, want %d", tr.Len(), c.length)
				}
				var acts []string
				for _, st := range tr.Steps[1:] {
					acts = append(acts, st.Act.Name)
				}
				if strings.Join(acts, " ") != strings.Join(c.actions, " ") {
					t.Errorf("trace actions %v, want %v", acts, c.actions)
				}
				checkTrace(t, a, inst, tr, c.invariant)
			})
		}
	}
}

// TestNatInside checks the Nat condition of a Nat inside a map: DecM(b)
// makes m[b] = -1 after one step, and the explorer names the variable.
func TestNatInside(t *testing.T) {
	a := loadFixture(t, "down.yaml", "Down")
	// Dec comes first in declaration order, so exclude it by selecting
	// nothing: the Nat conditions are still checked, and the first
	// violating state found is Dec's (k = 0 is fine; k = -1 is not).
	res, err := Explore(a, Config{Invariants: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation == nil || res.Violation.Invariant != "k:Nat" && res.Violation.Invariant != "m:Nat" {
		t.Fatalf("got %+v, want a Nat violation", res.Violation)
	}
	m, _ := Machine(a, Config{})
	inits, _ := m.Init()
	post, ok, err := m.Step(a.Action("DecM"), inits[0], []eval.Value{eval.Bool(true)})
	if err != nil || !ok {
		t.Fatalf("DecM(true): %v %v", ok, err)
	}
	if name, _ := fast.NewRunner(m).Violated(post, nil); name != "m:Nat" {
		t.Errorf("after DecM(true): violated %q, want m:Nat", name)
	}
}

// TestAgainstNaiveSearch compares the explorer with a naive search written
// with the reference API only (Machine.Step over every parameter value, and
// printed states as keys) on TMS2 and the fixtures.
func TestAgainstNaiveSearch(t *testing.T) {
	type tc struct {
		a      *ioa.Automaton
		bounds string
	}
	cases := []tc{
		{loadFixture(t, "mutex.yaml", "Mutex"), "T=2"},
		{loadFixture(t, "grid.yaml", "Grid"), ""},
		{loadFixture(t, "flags.yaml", "Flags"), "T=2"},
	}
	if tms2 := loadTMS2(t); tms2 != nil {
		cases = append(cases, tc{tms2, "T=1,L=1,V=1"}, tc{tms2, "T=1,L=2,V=2"})
	}
	for _, c := range cases {
		t.Run(c.a.Name+"/"+c.bounds, func(t *testing.T) {
			inst := bounds(t, c.bounds)
			res, err := Explore(c.a, Config{Instance: inst, Invariants: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			states, trans := naiveSearch(t, c.a, inst)
			if res.States != states || res.Transitions != trans {
				t.Errorf("explorer: %d states, %d transitions; naive search: %d, %d", res.States, res.Transitions, states, trans)
			}
		})
	}
}

func loadTMS2(t testing.TB) *ioa.Automaton {
	if _, err := os.Stat("../../specs/TMS2.yaml"); err != nil {
		t.Logf("no specs/TMS2.yaml: %v", err)
		return nil
	}
	set, errs := load.Files("../../specs/TMS2.yaml")
	if len(errs) > 0 {
		t.Fatalf("loading TMS2: %v", errs)
	}
	return set.Automaton("TMS2")
}

// naiveSearch counts reachable states and transitions using Machine.Step
// on every combination of parameter values (Int parameters from -1 to 6).
func naiveSearch(t *testing.T, a *ioa.Automaton, inst *eval.Instance) (int, int64) {
	t.Helper()
	m, err := Machine(a, Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var queue []eval.State
	for _, s := range inits {
		if k := s.Format(a); !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	}
	var trans int64
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, act := range a.Actions {
			var domains [][]eval.Value
			for _, p := range act.Params {
				if p.Lo != nil {
					var ints []eval.Value
					for k := int64(-1); k <= 6; k++ {
						ints = append(ints, eval.Int(k))
					}
					domains = append(domains, ints)
					continue
				}
				vals, err := m.Inst.Values(p.Var.Sort)
				if err != nil {
					t.Fatal(err)
				}
				domains = append(domains, vals)
			}
			eachTuple(domains, func(ps []eval.Value) {
				post, ok, err := m.Step(act, s, ps)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					return
				}
				trans++
				if k := post.Format(a); !seen[k] {
					seen[k] = true
					queue = append(queue, post)
				}
			})
		}
	}
	return len(seen), trans
}

func eachTuple(domains [][]eval.Value, fn func([]eval.Value)) {
	cur := make([]eval.Value, len(domains))
	var rec func(i int)
	rec = func(i int) {
		if i == len(domains) {
			fn(append([]eval.Value(nil), cur...))
			return
		}
		for _, v := range domains[i] {
			cur[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// TestVisitor checks that the visitor sees every state once and every
// transition, consistently with the result, and the same sequence with one
// or several workers.
func TestVisitor(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip("no TMS2")
	}
	inst := bounds(t, "T=2,L=1,V=1")
	run := func(workers, batch, maxStates int) (*Result, []string) {
		var log []string
		var states, trans int
		seen := map[int]bool{}
		v := &Visitor{
			State: func(id, depth int, s eval.State) error {
				if seen[id] {
					return fmt.Errorf("state %d visited twice", id)
				}
				seen[id] = true
				states++
				log = append(log, fmt.Sprintf("s%d@%d %s", id, depth, s.Format(a)))
				return nil
			},
			Transition: func(tr *Transition) error {
				if !seen[tr.From] || !seen[tr.To] {
					return fmt.Errorf("transition %d -> %d before its states", tr.From, tr.To)
				}
				trans++
				log = append(log, fmt.Sprintf("t%d-%s-%d %v", tr.From, tr.Action.Name, tr.To, tr.New))
				return nil
			},
		}
		res, err := Explore(a, Config{Instance: inst, Visitor: v, Workers: workers, MaxStates: maxStates, batch: batch})
		if err != nil {
			t.Fatal(err)
		}
		if states != res.States || int64(trans) != res.Transitions {
			t.Errorf("workers %d, batch %d, max %d: visitor saw %d states, %d transitions; result says %d, %d", workers, batch, maxStates, states, trans, res.States, res.Transitions)
		}
		return res, log
	}
	// Small batches make a level many batches, each expanded while the
	// one before it is merged; a state limit stops the search inside a
	// batch with the next one under way.
	for _, c := range []struct{ workers, batch, maxStates int }{{4, 0, 0}, {3, 5, 0}, {2, 64, 0}, {3, 5, 700}, {2, 7, 1001}} {
		r1, log1 := run(1, 0, c.maxStates)
		rw, logw := run(c.workers, c.batch, c.maxStates)
		if r1.States != rw.States || r1.Transitions != rw.Transitions || r1.MaxDepth != rw.MaxDepth || r1.Complete != rw.Complete {
			t.Errorf("%+v: 1 worker and %d differ: %+v vs %+v", c, c.workers, r1, rw)
		}
		if strings.Join(log1, "\n") != strings.Join(logw, "\n") {
			t.Errorf("%+v: the visitor sequences differ between 1 worker and %d", c, c.workers)
		}
		if c.maxStates > 0 && (rw.Complete || rw.States != c.maxStates) {
			t.Errorf("%+v: the state limit did not stop the search: %+v", c, rw)
		}
	}
	// a visitor error stops the search and is returned
	stop := fmt.Errorf("enough")
	_, err := Explore(a, Config{Instance: inst, Visitor: &Visitor{State: func(id, depth int, s eval.State) error {
		if id == 10 {
			return stop
		}
		return nil
	}}})
	if err != stop {
		t.Errorf("visitor error: got %v", err)
	}
}

func TestLimits(t *testing.T) {
	a := loadFixture(t, "grid.yaml", "Grid")
	res, err := Explore(a, Config{MaxStates: 5, Invariants: []string{"inRange"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.States != 5 || !strings.Contains(res.Limit, "state limit") {
		t.Errorf("MaxStates 5: complete=%v states=%d limit=%q", res.Complete, res.States, res.Limit)
	}
	res, err = Explore(a, Config{MaxDepth: 2, Invariants: []string{"inRange"}})
	if err != nil {
		t.Fatal(err)
	}
	// depth <= 2 from (0,0): (0,0) (1,0) (0,1) (3,0) (2,0) (1,1) (0,2) (3,1)
	if res.Complete || res.States != 8 || res.MaxDepth != 2 {
		t.Errorf("MaxDepth 2: complete=%v states=%d depth=%d", res.Complete, res.States, res.MaxDepth)
	}
	if _, err := Explore(a, Config{Invariants: []string{"nosuch"}}); err == nil {
		t.Errorf("unknown invariant: no error")
	}
}

// TestProgress checks that the progress callback runs on a long search.
func TestProgress(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip("no TMS2")
	}
	var last Progress
	calls := 0
	start := time.Now()
	res, err := Explore(a, Config{Instance: bounds(t, "T=2,L=2,V=2"), MaxStates: 400000, Progress: func(p Progress) {
		calls++
		if p.States < last.States || p.Transitions < last.Transitions {
			t.Errorf("progress went backwards: %+v after %+v", p, last)
		}
		last = p
	}})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 2*time.Second && calls == 0 {
		t.Errorf("no progress call in %v", time.Since(start))
	}
	if last.States > res.States {
		t.Errorf("progress reported %d states, more than the %d found", last.States, res.States)
	}
}

func TestParseBounds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]int
		err  bool
	}{
		{"T=2,L=2,V=2", map[string]int{"T": 2, "L": 2, "V": 2}, false},
		{" T = 3 , max=10 ", map[string]int{"T": 3, "max": 10}, false},
		{"", map[string]int{}, false},
		{"T=2,T=3", nil, true},
		{"T", nil, true},
		{"T=x", nil, true},
		{"=2", nil, true},
		{"T-1=2", nil, true},
		{"T=2,", nil, true},
	} {
		inst, err := ParseBounds(c.in)
		if c.err {
			if err == nil {
				t.Errorf("ParseBounds(%q): no error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseBounds(%q): %v", c.in, err)
			continue
		}
		if fmt.Sprint(inst.Sizes) != fmt.Sprint(c.want) {
			t.Errorf("ParseBounds(%q) = %v, want %v", c.in, inst.Sizes, c.want)
		}
	}
}

// TestBoundConstants checks bounds naming constants and bad bounds.
func TestBoundConstants(t *testing.T) {
	a := loadFixture(t, "counter.yaml", "Counter")
	res, err := Explore(a, Config{Instance: bounds(t, "max=6"), Invariants: []string{"bounded"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.States != 7 || res.Instance != "max=6" {
		t.Errorf("max=6: %d states, instance %q; want 7, max=6", res.States, res.Instance)
	}
	for _, b := range []string{"nosuch=2", "T=0"} {
		if _, err := Explore(loadFixture(t, "mutex.yaml", "Mutex"), Config{Instance: bounds(t, b)}); err == nil {
			t.Errorf("bounds %s: no error", b)
		}
	}
	if _, err := Explore(loadFixture(t, "mutex.yaml", "Mutex"), Config{}); err == nil || !strings.Contains(err.Error(), "size") {
		t.Errorf("no size for T: got %v", err)
	}
}

func TestRun(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip("no TMS2")
	}
	inst := bounds(t, "T=2,L=2,V=2")
	for _, seed := range []uint64{1, 2, 3} {
		tr, err := Run(a, Config{Instance: inst}, 40, seed)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Len() > 40 || (tr.Len() < 40 && !tr.Deadlock && tr.Invariant == "") {
			t.Errorf("seed %d: %d steps, deadlock=%v", seed, tr.Len(), tr.Deadlock)
		}
		checkRun(t, a, inst, tr)
		again, err := Run(a, Config{Instance: inst}, 40, seed)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(stepNames(again)) != fmt.Sprint(stepNames(tr)) {
			t.Errorf("seed %d does not reproduce its run", seed)
		}
	}
	// Counter is never deadlocked; Grid is, at (3, 3).
	tr, err := Run(loadFixture(t, "grid.yaml", "Grid"), Config{Invariants: []string{"inRange"}}, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Deadlock || tr.Steps[len(tr.Steps)-1].Vars[0].Value != "3" {
		t.Errorf("Grid run did not end deadlocked at x = 3: %+v", tr.Steps[len(tr.Steps)-1].Vars)
	}
	tr, err = Run(loadFixture(t, "nothing.yaml", "Nothing"), Config{}, 10, 7)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if tr.Len() != 0 || !tr.Deadlock || tr.WriteText(&b) != nil || !strings.Contains(b.String(), "no start state") {
		t.Errorf("Run without start states: %+v, %q", tr, b.String())
	}
	tr, err = Run(loadFixture(t, "counter.yaml", "Counter"), Config{}, 100, 7)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Invariant != "small" || tr.Len() != 2 {
		t.Errorf("Counter run: violated %q after %d steps, want small after 2", tr.Invariant, tr.Len())
	}
}

func stepNames(tr *Trace) []string {
	var out []string
	for _, s := range tr.Steps {
		out = append(out, s.Action)
	}
	return out
}

func checkRun(t *testing.T, a *ioa.Automaton, inst *eval.Instance, tr *Trace) {
	t.Helper()
	m, err := Machine(a, Config{Instance: inst})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(tr.Steps); i++ {
		st := tr.Steps[i]
		post, ok, err := m.Step(st.Act, tr.Steps[i-1].State, st.Params)
		if err != nil || !ok || !post.Equal(st.State) {
			t.Fatalf("step %d (%s) is not a transition", i, st.Action)
		}
	}
}

func TestOutput(t *testing.T) {
	a := loadFixture(t, "grid.yaml", "Grid")
	res, err := Explore(a, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"VIOLATION of notCorner after 3 steps",
		"  0: start state\n       x = 0\n       y = 0\n",
		"  1: Jump\n       x = 3\n",
		"  2: IncY\n       y = 1\n",
		"  3: IncY\n       y = 2\n",
		"The last state violates notCorner.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		States    int `json:"states"`
		Violation struct {
			Invariant string `json:"invariant"`
			Steps     []struct {
				Action  string   `json:"action"`
				Changed []string `json:"changed"`
				Vars    []Var    `json:"vars"`
			} `json:"steps"`
		} `json:"violation"`
	}
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Violation.Invariant != "notCorner" || len(back.Violation.Steps) != 4 ||
		back.Violation.Steps[1].Action != "Jump" || fmt.Sprint(back.Violation.Steps[1].Changed) != "[x]" ||
		back.Violation.Steps[3].Vars[1].Value != "2" {
		t.Errorf("JSON: %s", js)
	}
}

// TestTraceArgs checks that actions print with their arguments and events.
func TestTraceArgs(t *testing.T) {
	a := loadTMS2(t)
	if a == nil {
		t.Skip("no TMS2")
	}
	tr, err := Run(a, Config{Instance: bounds(t, "T=1,L=1,V=1")}, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	// from the start state only BeginInv(T#0) is enabled, then BeginResp(T#0)
	if tr.Steps[1].Action != "BeginInv(T#0)" || tr.Steps[1].Event != "BeginInv(T#0)" {
		t.Errorf("step 1: %q [%q]", tr.Steps[1].Action, tr.Steps[1].Event)
	}
	if fmt.Sprint(tr.Steps[1].Changed) != "[pc]" {
		t.Errorf("step 1 changed %v, want [pc] (beginIdx stays 0)", tr.Steps[1].Changed)
	}
}

// countersFixture: five counters up to 3; `oneFull` fails first after 6
// steps, when two counters reach 3, among the successors of the 101
// states of depth 5: a level the parallel search expands with workers
// (levelParallel), whose new states it checks decoded from their keys.
const countersFixture = `
automaton: Counters
sorts:
  T: param
state:
  c: {sort: "Map[T, Nat]", init: const(0)}
actions:
  Inc:
    kind: internal
    params: {t: T}
    pre: c[t] < 3
    eff: c[t] := c[t] + 1
invariants:
  oneFull: "forall t: T, u: T. c[t] = 3 and c[u] = 3 => t = u"
`

// TestParallelViolation checks that a violation among the new states of
// a parallel level is found, after as many steps as the sequential search
// takes, with and without symmetry reduction.
func TestParallelViolation(t *testing.T) {
	fixtures["counters.yaml"] = countersFixture
	a := loadFixture(t, "counters.yaml", "Counters")
	for _, sym := range [][]string{nil, {"T"}} {
		seq, err := Explore(a, Config{Instance: bounds(t, "T=5"), Symmetry: sym, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		par, err := Explore(a, Config{Instance: bounds(t, "T=5"), Symmetry: sym, Workers: 2, batch: 16})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []*Result{seq, par} {
			if r.Violation == nil || r.Violation.Invariant != "oneFull" || r.Violation.Len() != 6 {
				t.Fatalf("symmetry %v, %d workers: violation %+v, want oneFull after 6 steps", sym, r.Workers, r.Violation)
			}
		}
	}
}
