package eval

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"ladder/ioa/load"
)

// TestFastPathsAgree is the differential test of the explorer's fast paths
// (fast_*.go and codec.go) against the reference semantics: on every
// reachable state of instances of the repository's automata (breadth
// first, at most maxStates states), the successors that a scratch-mode
// Runner of the optimised machine computes from the state's decoded
// encoding, with their incremental encodings, equal, in order, the
// transitions that Machine.Step of a machine compiled to plain code (no
// folding, no specialised closures) allows for every parameter tuple that
// EachParams enumerates, with their canonical encodings. The invariants
// are compared the same way: Runner.Violated against the plain code's
// compiled invariants; and Machine.StepEvaluated of the optimised machine
// against Step of the plain one on every parameter tuple.
func TestFastPathsAgree(t *testing.T) {
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
			states, transitions := checkFastPaths(t, a.Name, func() (*Machine, *Machine, error) {
				opt, err := NewMachine(a, inst)
				if err != nil {
					return nil, nil, err
				}
				plain, err := newMachine(a, inst, true)
				return opt, plain, err
			}, maxStates)
			t.Logf("%s at T=2,L=1,V=2: %d states, %d transitions compared", a.Name, states, transitions)
			if states < 100 || transitions < states {
				t.Errorf("only %d states and %d transitions compared", states, transitions)
			}
		})
	}
}

// checkFastPaths explores the machines that mk returns breadth first from
// the start states, up to max states, comparing the fast paths of the first
// (optimised) machine with the reference stepping of the second (plain)
// one; it returns the numbers of states and transitions compared.
func checkFastPaths(t *testing.T, name string, mk func() (opt, plain *Machine, err error), max int) (states, transitions int) {
	t.Helper()
	opt, plain, err := mk()
	if err != nil {
		t.Fatal(err)
	}
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
		t.Fatalf("%s: %d start states, plain code %d", name, len(initOpt), len(initPlain))
	}
	for i := range initOpt {
		if !initOpt[i].Equal(initPlain[i]) {
			t.Fatalf("%s: start state %d is %s, plain code %s", name, i, initOpt[i].Format(a), initPlain[i].Format(a))
		}
	}
	invs := make([]*Func, len(a.Invariants))
	for k, inv := range a.Invariants {
		if invs[k], err = plain.Compile(inv.Body); err != nil {
			t.Fatal(err)
		}
	}
	r := opt.NewRunner()
	r.SetScratch(true)
	// the queue holds the reference (heap) states; seen their encodings
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
	type succ struct {
		label string
		key   []byte
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		states++
		key := plain.AppendState(nil, s)

		// the fast path: decode into scratch memory, all successors at once
		r.Release()
		d, err := r.Decode(key)
		if err != nil {
			t.Fatalf("%s: decoding %s: %v", name, s.Format(a), err)
		}
		if !d.Equal(s) {
			t.Fatalf("%s: %s decodes as %s", name, s.Format(a), d.Format(a))
		}
		var fast []succ
		if err := r.Successors(d, func(act int, params []Value, post State) bool {
			enc := r.Encode(nil, post)
			if canon := opt.AppendState(nil, post); !bytes.Equal(enc, canon) {
				t.Errorf("%s: the incremental encoding of %s differs from the canonical one", name, post.Format(a))
			}
			fast = append(fast, succ{opt.FormatAction(a.Actions[act], params) + " -> " + post.Format(a), enc})
			return true
		}); err != nil {
			t.Fatalf("%s: successors of %s: %v", name, s.Format(a), err)
		}

		// the reference: Step for every parameter tuple of every action
		var ref []succ
		var next []State
		for _, act := range a.Actions {
			err := plain.EachParams(act, s, func(params []Value) bool {
				post, ok, err := plain.Step(act, s, append([]Value(nil), params...))
				if err != nil {
					t.Fatalf("%s: %s in %s: %v", name, plain.FormatAction(act, params), s.Format(a), err)
				}
				if ok {
					ref = append(ref, succ{plain.FormatAction(act, params) + " -> " + post.Format(a), plain.AppendState(nil, post)})
					next = append(next, post)
				}
				// StepEvaluated (no re-check of s) agrees with Step.
				epost, eok, err := opt.StepEvaluated(act, s, append([]Value(nil), params...))
				if err != nil || eok != ok || ok && !epost.Equal(post) {
					t.Fatalf("%s: %s in %s: StepEvaluated gives %v %v %v, Step %v %v", name, plain.FormatAction(act, params), s.Format(a), eok, epost, err, ok, post)
				}
				return true
			})
			if err != nil {
				t.Fatalf("%s: parameters of %s in %s: %v", name, act.Name, s.Format(a), err)
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
			t.Fatalf("%s: the successors of %s differ\nfast path:\n%s\nreference:\n%s", name, s.Format(a), strings.Join(fs, "\n"), strings.Join(rs, "\n"))
		}
		transitions += len(ref)

		// the invariants
		natName, err := r.Violated(s, []int{})
		if err != nil {
			t.Fatal(err)
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
				t.Fatalf("%s: invariant %s in %s: fast path %q, reference %q", name, a.Invariants[k].Name, s.Format(a), got, want)
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

// TestCloneInto checks that CloneInto copies like Clone while reusing the
// destination's memory, whatever shapes the two states have.
func TestCloneInto(t *testing.T) {
	seq := func(ns ...int64) Value {
		vs := make([]Value, len(ns))
		for i, n := range ns {
			vs[i] = Int(n)
		}
		return Value{vs: vs}
	}
	states := []State{
		{Int(1), seq(1, 2, 3), Value{vs: []Value{seq(4), seq()}}},
		{Int(2), seq(), Value{vs: []Value{seq(5, 6, 7, 8), seq(9)}}},
		{Int(3), seq(1), Value{}, Int(4)},
		{},
		{Int(5), seq(2, 3), Value{vs: []Value{seq(), seq(1, 1)}}},
	}
	var dst State
	for i, s := range states {
		want := s.Clone()
		dst = s.CloneInto(dst)
		if !dst.Equal(want) || len(dst) != len(want) {
			t.Fatalf("state %d: CloneInto gave %v, want %v", i, dst, want)
		}
		// the copy shares nothing with s
		if len(s) > 1 && len(s[1].vs) > 0 {
			s[1].vs[0] = Int(99)
			if dst[1].vs[0].Equal(Int(99)) {
				t.Fatalf("state %d: the copy shares memory with the original", i)
			}
		}
	}
}
