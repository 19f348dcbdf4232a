package eval

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

var machineFixtures = map[string]string{
	"ev.yaml": `
interface: EvI
sorts:
  T: param
events:
  Ev: {t: T, k: Int}
`,
	"swap.yaml": `
automaton: Swap
interface: ev.yaml
sorts:
  Phase: {enum: [A, B, C]}
constants:
  lim: {sort: Int, value: 2}
state:
  x: {sort: Int, init: 1}
  y: {sort: Int, init: lim}
  ph: {sort: Phase, init: A}
  s: {sort: "Seq[Int]", init: "[]"}
  f: Map[T, Bool]
  r: {sort: "Map[T, Option[Int]]", init: const(None)}
initially: "exists t: T. f[t]"
actions:
  Swap:
    kind: internal
    eff: |
      x := y
      y := x
  Branch:
    kind: output
    params: {t: T, k: "in 0..x + 1"}
    pre: f[t]
    eff: |
      if k = 0 then ph := A
      elif k = 1 then ph := B
      else ph := C end
      s := append(s, k)
      r[t] := Some(k)
invariants:
  ordered: x < y
view:
  Branch: Ev(t, k)
`,
	"lv.yaml": `
automaton: LV
interface: ev.yaml
sorts:
  Cell: {record: {owner: T, value: Int}}
  Key: {record: {t: T, b: Bool}}
  NCell: {record: {k: Nat}}
state:
  c: {sort: Cell, init: "Cell{owner: T#0, value: 0}"}
  cs: {sort: "Map[T, Cell]", init: "const(Cell{owner: T#0, value: 0})"}
  mm: {sort: "Map[T, Map[Bool, Int]]", init: const(const(0))}
  ns: {sort: "Seq[Option[NCell]]", init: "[Some(NCell{k: 1}), None]"}
  pk: {sort: "Map[Key, Option[Int]]", init: const(None)}
definitions:
  d1: dom(pk)
  d2: override(const(5), pk)
  d3: "{Key{t: T#0, b: true}} union dom(pk)"
  d4: "dom(pk) inter {Key{t: T#0, b: true}}"
  d5: "dom(pk) \\ {Key{t: T#1, b: true}}"
  d6: "{Key{t: T#1, b: true}} subset dom(pk)"
  d7: "{k: Key | k.b}"
actions:
  Set:
    kind: internal
    params: {t: T, b: Bool}
    eff: |
      c.value := c.value + 1
      cs[t].owner := t
      mm[t][b] := mm[t][b] + 1
      ns[0] := Some(NCell{k: 0 - 1})
      pk[Key{t: t, b: b}] := Some(1)
`,
	"bad.yaml": `
automaton: Bad
state:
  n: Int
actions:
  Tick:
    kind: internal
    eff: n := n + 1
`,
}

func loadMachineFixture(t *testing.T, file, name string) *ioa.Automaton {
	t.Helper()
	cfg := load.Config{ReadFile: func(p string) ([]byte, error) {
		if s, ok := machineFixtures[p]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no fixture %s", p)
	}}
	set, errs := cfg.Files(file)
	if len(errs) > 0 {
		t.Fatalf("loading %s: %v", file, errs)
	}
	return set.Automaton(name)
}

func TestMachine(t *testing.T) {
	a := loadMachineFixture(t, "swap.yaml", "Swap")
	inst := &Instance{Sizes: map[string]int{"T": 2}}
	m, err := NewMachine(a, inst)
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range inits {
		got = append(got, s.Format(a))
	}
	want := []string{
		"Swap{x: 1, y: 2, ph: A, s: [], f: const(false)[T#1 := true], r: const(None)}",
		"Swap{x: 1, y: 2, ph: A, s: [], f: const(false)[T#0 := true], r: const(None)}",
		"Swap{x: 1, y: 2, ph: A, s: [], f: const(true), r: const(None)}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Init:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	s0 := inits[1] // f = {T#0}
	// simultaneous assignment
	post, ok, err := m.Step(a.Action("Swap"), s0, nil)
	if err != nil || !ok {
		t.Fatalf("Swap: %v %v", ok, err)
	}
	if post.Format(a) != "Swap{x: 2, y: 1, ph: A, s: [], f: const(false)[T#0 := true], r: const(None)}" {
		t.Errorf("Swap: %s", post.Format(a))
	}
	if !s0.Equal(inits[1]) || s0[0].Int() != 1 {
		t.Errorf("Step modified its pre-state")
	}
	branch := a.Action("Branch")
	for _, c := range []struct {
		t, k int
		ok   bool
		want string
	}{
		{0, 0, true, "Swap{x: 1, y: 2, ph: A, s: [0], f: const(false)[T#0 := true], r: const(None)[T#0 := Some(0)]}"},
		{0, 1, true, "Swap{x: 1, y: 2, ph: B, s: [1], f: const(false)[T#0 := true], r: const(None)[T#0 := Some(1)]}"},
		{0, 2, false, ""},  // k outside 0..x+1
		{0, -1, false, ""}, // k outside 0..x+1
		{1, 0, false, ""},  // f[T#1] is false
	} {
		post, ok, err := m.Step(branch, s0, []Value{Elem(c.t), Int(int64(c.k))})
		if err != nil || ok != c.ok {
			t.Errorf("Branch(T#%d, %d): ok=%v err=%v, want ok=%v", c.t, c.k, ok, err, c.ok)
			continue
		}
		if ok && post.Format(a) != c.want {
			t.Errorf("Branch(T#%d, %d) = %s, want %s", c.t, c.k, post.Format(a), c.want)
		}
	}
	// elif/else: from x = 2 (after Swap), k = 2 is in range and takes the else branch
	post, ok, _ = m.Step(branch, post0(t, m, a, s0), []Value{Elem(0), Int(2)})
	if !ok || Format(post[2], a.Vars[2].Sort) != "C" {
		t.Errorf("else branch: ok=%v ph=%s", ok, Format(post[2], a.Vars[2].Sort))
	}
	// successors: Swap, Branch(T#0, 0), Branch(T#0, 1)
	labels, _, err := successors(m, s0)
	if err != nil {
		t.Fatal(err)
	}
	var succ []string
	for _, l := range labels {
		succ = append(succ, l[:strings.Index(l, " -> ")])
	}
	if fmt.Sprint(succ) != "[Swap Branch(T#0, 0) Branch(T#0, 1)]" {
		t.Errorf("successors %v", succ)
	}
	// parameter tuples, enabled or not: t in T, k in 0..x+1 = 0..2
	var tuples []string
	if err := m.EachParams(branch, s0, func(ps []Value) bool {
		tuples = append(tuples, m.FormatAction(branch, ps))
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tuples) != "[Branch(T#0, 0) Branch(T#0, 1) Branch(T#1, 0) Branch(T#1, 1)]" {
		t.Errorf("EachParams: %v", tuples)
	}
	// views
	ev, err := m.FormatEvent(branch, []Value{Elem(1), Int(1)})
	if err != nil || ev != "Ev(T#1, 1)" {
		t.Errorf("event %q, %v", ev, err)
	}
	if ev, _ := m.FormatEvent(a.Action("Swap"), nil); ev != "" {
		t.Errorf("internal action has event %q", ev)
	}
	name, args, err := m.ViewEvent(branch, []Value{Elem(1), Int(5)})
	if err != nil || name != "Ev" || len(args) != 2 || args[0].Ord() != 1 || args[1].Int() != 5 {
		t.Errorf("ViewEvent: %s %v %v", name, args, err)
	}
	// invariants and Holds
	if name := violated(t, m, s0); name != "" {
		t.Errorf("start state violates %q", name)
	}
	swapped, _, _ := m.Step(a.Action("Swap"), s0, nil)
	if name := violated(t, m, swapped); name != "ordered" {
		t.Errorf("after Swap: violated %q, want ordered", name)
	}
	if h, err := m.Holds(a.Invariants[0].Body, swapped); h || err != nil {
		t.Errorf("Holds(ordered) after Swap = %v, %v", h, err)
	}
	// bad input: errors, not panics
	if _, _, err := m.Step(branch, s0, []Value{Elem(0)}); err == nil {
		t.Errorf("too few parameters: no error")
	}
	if _, _, err := m.Step(branch, s0, []Value{Elem(7), Int(0)}); err == nil {
		t.Errorf("parameter out of its sort: no error")
	}
	if _, _, err := m.Step(branch, s0[:3], []Value{Elem(0), Int(0)}); err == nil {
		t.Errorf("short state: no error")
	}
	bad := append(State(nil), s0...)
	bad[4] = Int(3)
	if _, _, err := m.Step(branch, bad, []Value{Elem(0), Int(0)}); err == nil {
		t.Errorf("malformed state: no error")
	}
	if _, _, err := m.Step(&ioa.Action{Name: "Other"}, s0, nil); err == nil {
		t.Errorf("foreign action: no error")
	}
}

func post0(t *testing.T, m *Machine, a *ioa.Automaton, s State) State {
	t.Helper()
	p, ok, err := m.Step(a.Action("Swap"), s, nil)
	if err != nil || !ok {
		t.Fatal(err)
	}
	return p
}

// TestLvalues checks assignments to record fields and nested entries, Nat
// conditions inside records, options and sequences, and set and map
// operations over record keys.
func TestLvalues(t *testing.T) {
	a := loadMachineFixture(t, "lv.yaml", "LV")
	m, err := NewMachine(a, &Instance{Sizes: map[string]int{"T": 2}})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil || len(inits) != 1 {
		t.Fatalf("Init: %d states, %v", len(inits), err)
	}
	if name := violated(t, m, inits[0]); name != "" {
		t.Errorf("start state violates %s", name)
	}
	post, ok, err := m.Step(a.Action("Set"), inits[0], []Value{Elem(1), Bool(true)})
	if err != nil || !ok {
		t.Fatalf("Set: %v %v", ok, err)
	}
	want := "LV{c: Cell{owner: T#0, value: 1}, " +
		"cs: const(Cell{owner: T#0, value: 0})[T#1 := Cell{owner: T#1, value: 0}], " +
		"mm: const(const(0))[T#1 := const(0)[true := 1]], " +
		"ns: [Some(NCell{k: -1}), None], " +
		"pk: const(None)[Key{t: T#1, b: true} := Some(1)]}"
	if got := post.Format(a); got != want {
		t.Errorf("Set(T#1, true):\n got %s\nwant %s", got, want)
	}
	if name := violated(t, m, post); name != "ns:Nat" {
		t.Errorf("after Set: violated %q, want ns:Nat", name)
	}
	defs := map[string]string{
		"d1": "{Key{t: T#1, b: true}}",
		"d2": "const(5)[Key{t: T#1, b: true} := 1]",
		"d3": "{Key{t: T#0, b: true}, Key{t: T#1, b: true}}",
		"d4": "{}",
		"d5": "{}",
		"d6": "true",
		"d7": "{Key{t: T#0, b: true}, Key{t: T#1, b: true}}",
	}
	for _, d := range a.Defs {
		f, err := m.Compile(d.Body)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.Eval(post, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := Format(v, f.Sort()); got != defs[d.Name] {
			t.Errorf("%s = %s, want %s", d.Name, got, defs[d.Name])
		}
	}
	// Compiling again on the same machine gives frames of the same size:
	// a Func's slots are free again once it is compiled.
	first := map[string]int{}
	for round := 0; round < 50; round++ {
		for _, d := range a.Defs {
			f, err := m.Compile(d.Body)
			if err != nil {
				t.Fatal(err)
			}
			if n, ok := first[d.Name]; !ok {
				first[d.Name] = f.nlocals
			} else if f.nlocals != n {
				t.Fatalf("round %d: %s compiled with %d locals, first with %d", round, d.Name, f.nlocals, n)
			}
			if v, err := f.Eval(post, nil); err != nil || Format(v, f.Sort()) != defs[d.Name] {
				t.Fatalf("round %d: %s = %s (%v), want %s", round, d.Name, Format(v, f.Sort()), err, defs[d.Name])
			}
		}
	}
}

func TestMachineErrors(t *testing.T) {
	a := loadMachineFixture(t, "bad.yaml", "Bad")
	if _, err := NewMachine(a, nil); err == nil || !strings.Contains(err.Error(), "no init") {
		t.Errorf("Int variable without init: got %v", err)
	}
	a = loadMachineFixture(t, "swap.yaml", "Swap")
	if _, err := NewMachine(a, &Instance{}); err == nil || !strings.Contains(err.Error(), "size") {
		t.Errorf("no size for T: got %v", err)
	}
	if _, err := NewMachine(a, &Instance{Sizes: map[string]int{"T": 0}}); err == nil {
		t.Errorf("T=0: no error")
	}
}

// TestAssignedTwice checks the one-assignment-per-path rule on hand-built
// effects (the loader rejects such files before they reach the evaluator).
func TestAssignedTwice(t *testing.T) {
	x := &expr.Object{Kind: expr.ObjVar, Name: "x", Sort: sInt, Index: 0}
	y := &expr.Object{Kind: expr.ObjVar, Name: "y", Sort: sInt, Index: 1}
	asg := func(o *expr.Object) expr.Stmt { return &expr.Assign{Target: ref(o), Value: n(1)} }
	ifs := func(th, el []expr.Stmt) expr.Stmt { return &expr.IfStmt{Cond: tt(), Then: th, Else: el} }
	for _, c := range []struct {
		name string
		eff  []expr.Stmt
		ok   bool
	}{
		{"distinct", []expr.Stmt{asg(x), asg(y)}, true},
		{"twice", []expr.Stmt{asg(x), asg(x)}, false},
		{"branches", []expr.Stmt{ifs([]expr.Stmt{asg(x)}, []expr.Stmt{asg(x)})}, true},
		{"branch-then-after", []expr.Stmt{ifs([]expr.Stmt{asg(x)}, nil), asg(x)}, false},
		{"else-then-after", []expr.Stmt{ifs(nil, []expr.Stmt{asg(y)}), asg(y)}, false},
		{"indexed", []expr.Stmt{&expr.Assign{Target: idx(seq(sInt), n(0)), Value: n(1)}}, false},
	} {
		_, err := assigned(c.eff)
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

// encodingAutomaton returns an automaton with one variable per sort, none
// with an init.
func encodingAutomaton(sorts ...*expr.Sort) *ioa.Automaton {
	a := &ioa.Automaton{Name: "Enc"}
	for i, s := range sorts {
		name := fmt.Sprintf("v%d", i)
		obj := &expr.Object{Kind: expr.ObjVar, Name: name, Sort: s, Index: i}
		a.Vars = append(a.Vars, &ioa.StateVar{Name: name, Sort: s, Obj: obj})
	}
	return a
}

// TestEncoding checks that decoding inverts encoding and that encoding is
// injective, on every value of finite sorts and on sample values of
// infinite ones.
func TestEncoding(t *testing.T) {
	inst := &Instance{Sizes: map[string]int{"T": 2, "L": 2, "V": 3, "S": 300}}
	finite := []*expr.Sort{
		sBool, sPhase, sT, sS, expr.OptionOf(sT), expr.OptionOf(sBool), expr.OptionOf(sS),
		expr.OptionOf(expr.OptionOf(sT)), sTL, expr.MapOf(sT, expr.OptionOf(sV)), expr.SetOf(sTL),
		expr.MapOf(expr.OptionOf(sT), sBool), expr.MapOf(sTL, sPhase), expr.MapOf(sT, expr.MapOf(sL, sBool)),
		expr.SetOf(sPhase),
	}
	for _, s := range finite {
		t.Run(s.String(), func(t *testing.T) {
			m, err := NewMachine(encodingAutomaton(s), inst)
			if err != nil {
				t.Fatal(err)
			}
			states, err := m.Init()
			if err != nil {
				t.Fatal(err)
			}
			card, _ := inst.Card(s)
			if int64(len(states)) != card {
				t.Fatalf("%d values, want %d", len(states), card)
			}
			seen := map[string]bool{}
			ar := NewArena()
			fr := m.NewFrame()
			fr.SetArena(ar)
			offs := make([]int, 2)
			for _, st := range states {
				key := m.AppendState(nil, st)
				if seen[string(key)] {
					t.Fatalf("two values encode as %x", key)
				}
				seen[string(key)] = true
				back, err := m.DecodeState(key)
				if err != nil || !back.Equal(st) {
					t.Fatalf("decode(encode(%s)) = %v, %v", Format(st[0], s), back, err)
				}
				ar.Release()
				back, err = m.DecodeIn(fr, key, offs)
				if err != nil || !back.Equal(st) {
					t.Fatalf("scratch decode of %s failed", Format(st[0], s))
				}
				if !inst.Conforms(back[0], s) {
					t.Fatalf("decoded %s does not conform", Format(st[0], s))
				}
				if offs[0] != 0 || offs[1] != len(key) {
					t.Fatalf("decoding %x: offsets %v", key, offs)
				}
			}
			// truncated and extended encodings are errors
			key := m.AppendState(nil, states[len(states)-1])
			if _, err := m.DecodeState(key[:len(key)-1]); err == nil {
				t.Errorf("truncated encoding decoded")
			}
			if _, err := m.DecodeState(append(key, 0)); err == nil {
				t.Errorf("extended encoding decoded")
			}
		})
	}
	// infinite sorts: sample values
	seqMap := expr.SeqOf(expr.MapOf(sL, sV))
	if _, err := NewMachine(encodingAutomaton(sInt, seqMap, expr.OptionOf(sInt), expr.SeqOf(sInt)), &Instance{Sizes: map[string]int{"L": 2, "V": 3}}); err == nil {
		t.Fatalf("variables of infinite sorts without init: no error")
	}
	m := &Machine{A: encodingAutomaton(sInt, seqMap, expr.OptionOf(sInt), expr.SeqOf(sInt)), Inst: &Instance{Sizes: map[string]int{"L": 2, "V": 3}}}
	for _, v := range m.A.Vars {
		m.vars = append(m.vars, varCode{v: v, enc: m.encoder(v.Sort), dec: m.decoder(v.Sort)})
	}
	mp, _ := m.Inst.Map(expr.MapOf(sL, sV), Elem(0), Entry{Elem(1), Elem(2)})
	seen := map[string]bool{}
	for _, x := range []int64{0, 1, -1, 300, math.MinInt64, math.MaxInt64} {
		for _, sq := range []Value{Seq(), Seq(mp), Seq(mp, mp)} {
			for _, o := range []Value{None(), Some(Int(x)), Some(Int(-x))} {
				st := State{Int(x), sq, o, Seq(Int(x), Int(1))}
				key := m.AppendState(nil, st)
				back, err := m.DecodeState(key)
				if err != nil || !back.Equal(st) {
					t.Fatalf("round trip of %v failed: %v", st, err)
				}
				seen[string(key)] = true
			}
		}
	}
	// 54 states, of which Some(x) and Some(-x) coincide for x = 0 and
	// x = MinInt64 (3 sequences each)
	if len(seen) != 6*3*3-6 {
		t.Errorf("%d distinct encodings, want %d", len(seen), 6*3*3-6)
	}
}

// TestPlainAgrees is the differential test of the compiler's
// optimisations (constant folding, specialised closures and compiled
// guards, expr_fold.go and compile_guards.go) against plain code: on every
// reachable state of instances of the repository's automata (breadth
// first, at most maxStates states), the transitions that StepEvaluated of
// the optimised machine allows for every parameter tuple EachParams
// enumerates equal, in order, those Step of a machine compiled to plain
// code allows, with the same post-states; the start states and the
// invariants agree too. (Package fast checks its Runner against Step.)
func TestPlainAgrees(t *testing.T) {
	const maxStates = 20000
	for _, c := range []struct {
		file, automaton string
	}{
		{"../../specs/TMS2.yaml", "TMS2"},
		{"../../algorithms/NOrecAtomicCommitValidate.yaml", "NOrecAtomicCommitValidate"},
		{"../../algorithms/TL2.yaml", "TL2"},
	} {
		t.Run(c.automaton, func(t *testing.T) {
			if _, err := os.Stat(c.file); err != nil {
				t.Skipf("no %s", c.file)
			}
			set, errs := load.Files(c.file)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			a := set.Automaton(c.automaton)
			if a == nil {
				t.Fatalf("no automaton %s in %s", c.automaton, c.file)
			}
			inst := &Instance{Sizes: map[string]int{"T": 2, "L": 1, "V": 2}}
			opt, err := newMachine(a, inst, false)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := newMachine(a, inst, true)
			if err != nil {
				t.Fatal(err)
			}
			states, transitions := comparePlain(t, opt, plain, maxStates)
			t.Logf("%s at T=2,L=1,V=2: %d states, %d transitions compared", a.Name, states, transitions)
			if states < 100 || transitions < states {
				t.Errorf("only %d states and %d transitions compared", states, transitions)
			}
		})
	}
}

// comparePlain explores plain breadth first from its start states, up to
// max states, comparing opt with it in every state; it returns the
// numbers of states and transitions compared.
func comparePlain(t *testing.T, opt, plain *Machine, max int) (states, transitions int) {
	t.Helper()
	a := plain.A
	initOpt, err := opt.Init()
	if err != nil {
		t.Fatal(err)
	}
	initPlain, err := plain.Init()
	if err != nil {
		t.Fatal(err)
	}
	if len(initOpt) != len(initPlain) {
		t.Fatalf("%d start states, plain code %d", len(initOpt), len(initPlain))
	}
	for i := range initOpt {
		if !initOpt[i].Equal(initPlain[i]) {
			t.Fatalf("start state %d is %s, plain code %s", i, initOpt[i].Format(a), initPlain[i].Format(a))
		}
	}
	seen := map[string]bool{}
	var queue []State
	add := func(s State) {
		key := plain.AppendState(nil, s)
		if !seen[string(key)] && len(seen) < max {
			seen[string(key)] = true
			queue = append(queue, s)
		}
	}
	for _, s := range initPlain {
		add(s)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		states++
		lo, _, err1 := successors(opt, s)
		lp, posts, err2 := successors(plain, s)
		if err1 != nil || err2 != nil {
			t.Fatalf("successors of %s: %v / plain code %v", s.Format(a), err1, err2)
		}
		if strings.Join(lo, "\n") != strings.Join(lp, "\n") {
			t.Fatalf("the successors of %s differ:\n%s\nplain code:\n%s", s.Format(a), strings.Join(lo, "\n"), strings.Join(lp, "\n"))
		}
		transitions += len(lp)
		if vo, vp := violated(t, opt, s), violated(t, plain, s); vo != vp {
			t.Fatalf("in %s the optimised code violates %q, plain code %q", s.Format(a), vo, vp)
		}
		for _, post := range posts {
			add(post)
		}
	}
	return states, transitions
}

func TestInstance(t *testing.T) {
	inst := testInst()
	for _, c := range []struct {
		s    *expr.Sort
		card int64
		ok   bool
	}{
		{sBool, 2, true}, {sPhase, 3, true}, {sT, 2, true}, {sS, 3, true},
		{expr.OptionOf(sT), 3, true}, {sTL, 4, true}, {expr.MapOf(sT, sV), 9, true},
		{expr.SetOf(sTL), 16, true}, {expr.MapOf(sTL, expr.OptionOf(sV)), 256, true},
		{sInt, 0, false}, {expr.SeqOf(sBool), 0, false}, {sCell, 0, false},
		{expr.MapOf(sInt, sBool), 0, false}, {&expr.Sort{Kind: expr.KParam, Name: "Unsized"}, 0, false},
	} {
		card, ok := inst.Card(c.s)
		if ok != c.ok || (ok && card != c.card) {
			t.Errorf("Card(%s) = %d, %v; want %d, %v", c.s, card, ok, c.card, c.ok)
		}
		vals, err := inst.Values(c.s)
		if (err == nil) != c.ok {
			t.Errorf("Values(%s): error %v", c.s, err)
		}
		if err == nil {
			if int64(len(vals)) != c.card {
				t.Errorf("Values(%s) has %d values, want %d", c.s, len(vals), c.card)
			}
			for i := range vals {
				if !inst.Conforms(vals[i], c.s) {
					t.Errorf("value %s of %s does not conform", Format(vals[i], c.s), c.s)
				}
				for j := 0; j < i; j++ {
					if Equal(vals[i], vals[j]) {
						t.Errorf("Values(%s) repeats %s", c.s, Format(vals[i], c.s))
					}
				}
			}
		}
	}
	// order: None first, records first-field major
	vals, _ := inst.Values(sTL)
	var got []string
	for _, v := range vals {
		got = append(got, Format(v, sTL))
	}
	if strings.Join(got, " ") != "TL{t: T#0, l: L#0} TL{t: T#0, l: L#1} TL{t: T#1, l: L#0} TL{t: T#1, l: L#1}" {
		t.Errorf("record order: %v", got)
	}
	// defaults
	for _, c := range []struct {
		s    *expr.Sort
		want string
	}{
		{sBool, "false"}, {sInt, "0"}, {sPhase, "Idle"}, {sT, "T#0"}, {sCell, "Cell{owner: T#0, value: 0}"},
		{expr.MapOf(sT, sV), "const(V#0)"}, {expr.SetOf(sL), "{}"}, {expr.SeqOf(sT), "[]"}, {expr.OptionOf(sT), "None"},
		{expr.MapOf(sTL, expr.SeqOf(sInt)), "const([])"},
	} {
		v, err := inst.Default(c.s)
		if err != nil || Format(v, c.s) != c.want {
			t.Errorf("Default(%s) = %s, %v; want %s", c.s, Format(v, c.s), err, c.want)
		}
	}
	// constructors for the prover
	ms := expr.MapOf(sTL, sV)
	m, err := inst.Map(ms, Elem(0), Entry{Record(Elem(1), Elem(0)), Elem(2)}, Entry{Record(Elem(0), Elem(1)), Elem(1)}, Entry{Record(Elem(0), Elem(1)), Elem(2)})
	if err != nil || Format(m, ms) != "const(V#0)[TL{t: T#0, l: L#1} := V#2][TL{t: T#1, l: L#0} := V#2]" {
		t.Errorf("Map = %s, %v", Format(m, ms), err)
	}
	if v, ok := inst.MapGet(ms, m, Record(Elem(1), Elem(0))); !ok || v.Ord() != 2 {
		t.Errorf("MapGet = %v, %v", v, ok)
	}
	if _, err := inst.Map(ms, Elem(5)); err == nil {
		t.Errorf("Map with an out-of-range default: no error")
	}
	if _, err := inst.Map(ms, Elem(0), Entry{Elem(0), Elem(0)}); err == nil {
		t.Errorf("Map with a malformed key: no error")
	}
	ss := expr.SetOf(expr.OptionOf(sT))
	set, err := inst.Set(ss, Some(Elem(1)), None())
	if err != nil || Format(set, ss) != "{None, Some(T#1)}" || !inst.Contains(ss, set, None()) || inst.Contains(ss, set, Some(Elem(0))) {
		t.Errorf("Set = %s, %v", Format(set, ss), err)
	}
	if _, err := inst.Set(expr.SetOf(sInt), Int(1)); err == nil {
		t.Errorf("Set[Int]: no error")
	}
}

// TestArena checks the arena's chunks: a request larger than a chunk, the
// capacity of what it hands out, and reuse after reset.
func TestArena(t *testing.T) {
	ar := newArena()
	big := ar.alloc(arenaChunk + 10)
	small := ar.alloc(3)
	if len(big) != arenaChunk+10 || len(small) != 3 || cap(small) != 3 {
		t.Errorf("arena: lengths %d %d cap %d", len(big), len(small), cap(small))
	}
	ar.reset()
	again := ar.alloc(5)
	again[0] = Int(1)
	if len(again) != 5 {
		t.Errorf("arena after reset")
	}
	if c := State(again).Clone(); &c[0] == &again[0] || !c.Equal(State(again)) {
		t.Errorf("Clone shares memory or differs")
	}
}

// TestArenaSteps checks that StepEvaluatedWith with an Arena, released
// between states, computes the post-states that allocating computes, over
// the states a few rounds of Swap's steps reach, the memory being reused
// (one chunk after many Release cycles). (Func.EvalIn is checked through
// the cross-checker's rules in scratch memory.)
func TestArenaSteps(t *testing.T) {
	a := loadMachineFixture(t, "swap.yaml", "Swap")
	m, err := NewMachine(a, &Instance{Sizes: map[string]int{"T": 2}})
	if err != nil {
		t.Fatal(err)
	}
	ar := NewArena()
	sc := &StepScratch{Arena: ar}
	states, _ := m.Init()
	steps, reused := 0, 0
	var last *Value
	for round := 0; round < 4 && len(states) > 0; round++ {
		var next []State
		for _, s := range states {
			ar.Release()
			first := true
			err := m.EachParams(a.Actions[1], s, func(params []Value) bool {
				ps := append([]Value(nil), params...)
				want, wok, werr := m.StepEvaluated(a.Actions[1], s, ps)
				got, gok, gerr := m.StepEvaluatedWith(sc, a.Actions[1], s, ps)
				if wok != gok || (werr == nil) != (gerr == nil) || wok && !want.Equal(got) {
					t.Fatalf("Branch%v from %s: arena %v %v %v, heap %v %v %v", ps, s.Format(a), got, gok, gerr, want, wok, werr)
				}
				if gok {
					if first {
						if last != nil && &got[0] == last {
							reused++ // where the last state's first post-state was
						}
						last, first = &got[0], false
					}
					next = append(next, want)
					steps++
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, act := range a.Actions {
				if act.Name != "Swap" {
					continue
				}
				want, _, _ := m.StepEvaluated(act, s, nil)
				got, _, err := m.StepEvaluatedWith(sc, act, s, nil)
				if err != nil || !want.Equal(got) {
					t.Fatalf("Swap from %s: arena %v (%v), heap %v", s.Format(a), got, err, want)
				}
			}
		}
		states = next
	}
	if steps == 0 || reused == 0 {
		t.Errorf("%d steps, %d post-states in reused memory", steps, reused)
	}
	if n := len(ar.ar.chunks); n != 1 {
		t.Errorf("the arena has %d chunks after Release cycles, want 1", n)
	}
}
