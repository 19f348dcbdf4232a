package fast

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// TestRunnerAgrees is the differential test of the Runner against the
// reference semantics: on every reachable state of instances of the
// repository's automata (breadth first, at most maxStates states), the
// successors that a scratch-mode Runner computes from the state's decoded
// encoding, with their incremental encodings (Encode, EncodeOffs), equal,
// in order, the transitions that eval.Machine.Step allows for every
// parameter tuple that EachParams enumerates, with their canonical
// encodings; and Runner.Violated agrees with the compiled invariants.
// (Package eval checks the optimised code that both run against plain
// code, TestPlainAgrees.)
func TestRunnerAgrees(t *testing.T) {
	const maxStates = 20000
	for _, c := range []struct {
		file, automaton string
	}{
		{"../../../specs/TMS2.yaml", "TMS2"},
		{"../../../algorithms/NOrecAtomicCommitValidate.yaml", "NOrecAtomicCommitValidate"},
		{"../../../algorithms/TL2.yaml", "TL2"},
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
			m, err := eval.NewMachine(a, &eval.Instance{Sizes: map[string]int{"T": 2, "L": 1, "V": 2}})
			if err != nil {
				t.Fatal(err)
			}
			states, transitions := checkRunner(t, m, maxStates)
			t.Logf("%s at T=2,L=1,V=2: %d states, %d transitions compared", a.Name, states, transitions)
			if states < 100 || transitions < states {
				t.Errorf("only %d states and %d transitions compared", states, transitions)
			}
		})
	}
}

// checkRunner explores m breadth first from its start states, up to max
// states, comparing a Runner with the reference stepping; it returns the
// numbers of states and transitions compared.
func checkRunner(t *testing.T, m *eval.Machine, max int) (states, transitions int) {
	t.Helper()
	a := m.A
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	invs := make([]*eval.Func, len(a.Invariants))
	for k, inv := range a.Invariants {
		if invs[k], err = m.Compile(inv.Body); err != nil {
			t.Fatal(err)
		}
	}
	r := NewRunner(m)
	r.SetScratch(true)
	// the queue holds the reference (heap) states; seen their encodings
	seen := map[string]bool{}
	var queue []eval.State
	add := func(s eval.State) {
		key := m.AppendState(nil, s)
		if !seen[string(key)] && len(seen) < max {
			seen[string(key)] = true
			queue = append(queue, s)
		}
	}
	for _, s := range inits {
		add(s)
	}
	type succ struct {
		label string
		key   []byte
	}
	offs := make([]int, len(a.Vars)+1)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		states++
		key := m.AppendState(nil, s)

		// the Runner: decode into scratch memory, all successors at once
		r.Release()
		d, err := r.Decode(key)
		if err != nil {
			t.Fatalf("decoding %s: %v", s.Format(a), err)
		}
		if !d.Equal(s) {
			t.Fatalf("%s decodes as %s", s.Format(a), d.Format(a))
		}
		var fast []succ
		if err := r.Successors(d, func(act int, params []eval.Value, post eval.State) bool {
			enc := r.Encode(nil, post)
			canon := m.AppendState(nil, post)
			if !bytes.Equal(enc, canon) {
				t.Errorf("the incremental encoding of %s differs from the canonical one", post.Format(a))
			}
			if eo := r.EncodeOffs(nil, post, nil, offs); !bytes.Equal(eo, canon) || offs[len(a.Vars)] != len(canon) {
				t.Errorf("EncodeOffs of %s differs from the canonical encoding", post.Format(a))
			}
			fast = append(fast, succ{m.FormatAction(a.Actions[act], params) + " -> " + post.Format(a), enc})
			return true
		}); err != nil {
			t.Fatalf("successors of %s: %v", s.Format(a), err)
		}

		// the reference: Step for every parameter tuple of every action
		var ref []succ
		var next []eval.State
		for _, act := range a.Actions {
			err := m.EachParams(act, s, func(params []eval.Value) bool {
				post, ok, err := m.Step(act, s, append([]eval.Value(nil), params...))
				if err != nil {
					t.Fatalf("%s in %s: %v", m.FormatAction(act, params), s.Format(a), err)
				}
				if ok {
					ref = append(ref, succ{m.FormatAction(act, params) + " -> " + post.Format(a), m.AppendState(nil, post)})
					next = append(next, post)
				}
				return true
			})
			if err != nil {
				t.Fatalf("parameters of %s in %s: %v", act.Name, s.Format(a), err)
			}
		}
		same := len(fast) == len(ref)
		for i := 0; same && i < len(fast); i++ {
			same = fast[i].label == ref[i].label && bytes.Equal(fast[i].key, ref[i].key)
		}
		if !same {
			var fs, rs []string
			for _, x := range fast {
				fs = append(fs, x.label)
			}
			for _, x := range ref {
				rs = append(rs, x.label)
			}
			t.Fatalf("the successors of %s differ\nRunner:\n%s\nreference:\n%s", s.Format(a), strings.Join(fs, "\n"), strings.Join(rs, "\n"))
		}
		transitions += len(ref)

		// the invariants
		natName, err := r.Violated(s, []int{})
		if err != nil {
			t.Fatal(err)
		}
		if want, err := m.NatViolated(s); err != nil || natName != want {
			t.Fatalf("Nat conditions in %s: Runner %q, reference %q (%v)", s.Format(a), natName, want, err)
		}
		for k, inv := range invs {
			got, err := r.Violated(s, []int{k})
			if err != nil {
				t.Fatal(err)
			}
			v, err := inv.Eval(s, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := natName
			if want == "" && !v.Bool() {
				want = a.Invariants[k].Name
			}
			if got != want {
				t.Fatalf("invariant %s in %s: Runner %q, reference %q", a.Invariants[k].Name, s.Format(a), got, want)
			}
		}
		for _, post := range next {
			add(post)
		}
	}
	if states != len(seen) {
		panic(fmt.Sprintf("%d states visited, %d seen", states, len(seen)))
	}
	return states, transitions
}

// guardsMachine compiles the fixture of package eval's compiled guards
// for T=2.
func guardsMachine(t *testing.T) *eval.Machine {
	t.Helper()
	set, errs := load.Files("../testdata/guards.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m, err := eval.NewMachine(set.Automaton("Guards"), &eval.Instance{Sizes: map[string]int{"T": 2}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGuardsAgree checks the Runner's use of the compiled guards
// (Binding, Passes) on the fixture that has each: the same successors as
// the reference stepping on every reachable state, and the same overflow
// from Later's first conjunct when x = 2, though its second one is false.
func TestGuardsAgree(t *testing.T) {
	m := guardsMachine(t)
	a := m.A
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(m)
	fast := func(s eval.State) ([]string, []eval.State, error) {
		var out []string
		var posts []eval.State
		err := r.Successors(s, func(act int, params []eval.Value, post eval.State) bool {
			out = append(out, m.FormatAction(a.Actions[act], params)+" -> "+post.Format(a))
			posts = append(posts, post)
			return true
		})
		return out, posts, err
	}
	ref := func(s eval.State) ([]string, error) {
		var out []string
		for _, act := range a.Actions {
			var serr error
			err := m.EachParams(act, s, func(params []eval.Value) bool {
				post, ok, err := m.Step(act, s, append([]eval.Value(nil), params...))
				if err != nil {
					serr = err
					return false
				}
				if ok {
					out = append(out, m.FormatAction(act, params)+" -> "+post.Format(a))
				}
				return true
			})
			if err == nil {
				err = serr
			}
			if err != nil {
				return out, err
			}
		}
		return out, nil
	}
	over := append(eval.State{}, inits[0]...)
	over[0] = eval.Record(eval.Enum(1), eval.Enum(1)) // pc = const(B)
	over[3] = eval.Int(2)
	if _, _, err1 := fast(over); err1 == nil || !strings.Contains(err1.Error(), "overflow") {
		t.Fatalf("Later at x = 2: %v, want an overflow", err1)
	} else if _, err2 := ref(over); err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors differ: %v / %v", err1, err2)
	}
	seen := map[string]bool{}
	queue := []eval.State{inits[0]}
	for len(queue) > 0 && len(seen) < 500 {
		s := queue[0]
		queue = queue[1:]
		got, posts, err1 := fast(s)
		want, err2 := ref(s)
		if (err1 == nil) != (err2 == nil) || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("successors differ in %s:\n%v %v\n%v %v", s.Format(a), got, err1, want, err2)
		}
		for _, post := range posts {
			if k := string(m.AppendState(nil, post)); !seen[k] {
				seen[k] = true
				queue = append(queue, post)
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d states reached", len(seen))
	}
}

// TestViolatedAfter checks that ViolatedAfter names the condition Violated
// names at every step from a state that satisfies them all, and that it
// skips the invariants whose variables the step leaves alone.
func TestViolatedAfter(t *testing.T) {
	m := guardsMachine(t)
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(m)
	seen := map[string]bool{}
	queue := []eval.State{inits[0]}
	names := map[string]int{}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		// Later overflows once x = 2 (TestGuardsAgree): the enumeration
		// stops there, after the other actions
		_ = r.Successors(s, func(act int, params []eval.Value, post eval.State) bool {
			want, err1 := r.Violated(post, nil)
			got, err2 := r.ViolatedAfter(s, post, nil)
			if err1 != nil || err2 != nil || got != want {
				t.Fatalf("%s from %v: ViolatedAfter %q (%v), Violated %q (%v)", m.A.Actions[act].Name, s, got, err2, want, err1)
			}
			names[want]++
			if k := string(m.AppendState(nil, post)); want == "" && !seen[k] {
				seen[k] = true
				queue = append(queue, append(eval.State{}, post...))
			}
			return true
		})
	}
	if names["small"] == 0 || names["someA"] == 0 || names[""] == 0 {
		t.Fatalf("steps per verdict %v: want steps to each", names)
	}
}

// natYAML has a Nat inside a record of a sequence, which a step can make
// negative.
const natYAML = `
automaton: N
sorts:
  Cell: {record: {k: Nat}}
state:
  ns: {sort: "Seq[Cell]", init: "[Cell{k: 0}]"}
  n:  {sort: Int, init: 0}
actions:
  Dec:
    kind: internal
    eff: "ns := [Cell{k: -1}]"
  Inc:
    kind: internal
    eff: n := n + 1
`

// TestNatViolatedAfter checks that NatViolatedAfter checks the variables a
// step changed, taking a variable the post-state shares with the
// pre-state as checked.
func TestNatViolatedAfter(t *testing.T) {
	a := loadInline(t, natYAML)
	m, err := eval.NewMachine(a, &eval.Instance{})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil || len(inits) != 1 {
		t.Fatalf("Init: %d states, %v", len(inits), err)
	}
	s := inits[0]
	dec, _, err := m.Step(a.Action("Dec"), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(m)
	if name, err := r.Violated(dec, nil); name != "ns:Nat" || err != nil {
		t.Errorf("after Dec: violated %q (%v), want ns:Nat", name, err)
	}
	if name := r.NatViolatedAfter(s, dec); name != "ns:Nat" {
		t.Errorf("NatViolatedAfter(start, Dec): %q, want ns:Nat", name)
	}
	if name := r.NatViolatedAfter(dec, dec); name != "" {
		t.Errorf("NatViolatedAfter(post, post) = %q: nothing changed", name)
	}
	inc, _, err := m.Step(a.Action("Inc"), dec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if name := r.NatViolatedAfter(dec, inc); name != "" {
		t.Errorf("NatViolatedAfter(dec, Inc) = %q: ns is shared", name)
	}
}
