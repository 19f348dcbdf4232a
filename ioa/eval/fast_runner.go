// This file implements Runner, the per-goroutine context in which the
// explorer and the cross-checker run a Machine in bulk: all successors of
// a state in one call (Successors, which enumerates the parameters in
// place and checks each conjunct of the precondition as soon as the
// parameters it mentions are bound), invariants and final predicates
// (Violated, Final), and, in scratch mode, states decoded into and
// successors built in reusable memory (fast_alloc.go, fast_codec.go). It
// is a fast path: the reference semantics of a transition is Machine.Step
// (step.go), which does not depend on this file, and TestFastPathsAgree
// checks that Successors computes exactly the transitions Step allows on
// the reachable states of the repository's automata.

package eval

import (
	"fmt"
)

// Runner runs a Machine. A Runner is not safe for concurrent use; make one
// per goroutine.
type Runner struct {
	m      *Machine
	f      frame     // for Successors
	g      frame     // for Violated, which visit functions may call
	params [][]Value // per action
	enums  []func(i int) bool
	visit  func(act int, params []Value, post State) bool
	d      dec
	// the state last returned by Decode, its encoding and the offsets of
	// its variables' encodings in it, for Encode
	last    State
	lastKey []byte
	offs    []int
}

// NewRunner returns a Runner for m.
func (m *Machine) NewRunner() *Runner {
	r := &Runner{m: m, f: frame{locals: make([]Value, m.nlocals)}, g: frame{locals: make([]Value, m.nlocals)}}
	r.params = make([][]Value, len(m.acts))
	r.enums = make([]func(int) bool, len(m.acts))
	for i, ac := range m.acts {
		r.params[i] = make([]Value, len(ac.params))
		r.enums[i] = r.enumFn(ac)
	}
	return r
}

// SetScratch switches scratch mode on or off. In scratch mode the values a
// Runner builds (post-states, decoded states, and everything computed on
// the way) live in memory that Release makes available again: they are
// valid only until the next Release. Without scratch mode they are ordinary
// garbage-collected values. The explorer uses scratch mode so that it does
// not allocate per transition.
func (r *Runner) SetScratch(on bool) {
	if on {
		r.f.ar = newArena()
	} else {
		r.f.ar = nil
	}
	r.g.ar = r.f.ar
}

// Release makes the memory of every value built since the last Release
// available again, in scratch mode; otherwise it does nothing.
func (r *Runner) Release() {
	if r.f.ar != nil {
		r.f.ar.reset()
	}
}

// Machine returns the machine r runs.
func (r *Runner) Machine() *Machine { return r.m }

// enumFn returns the parameter enumeration of action ac.
func (r *Runner) enumFn(ac *actionCode) func(i int) bool {
	f := &r.f
	n := len(r.m.A.Vars)
	var rec func(i int) bool
	try := func(i int) bool {
		for _, p := range ac.params[i].pre {
			if p(f).n == 0 {
				return true
			}
		}
		return rec(i + 1)
	}
	rec = func(i int) bool {
		if f.err != nil {
			return false
		}
		if i == len(ac.params) {
			post := State(f.mk(n))
			copy(post, f.state)
			ac.eff(f, post)
			if f.err != nil {
				return false
			}
			return r.visit(ac.index, f.params, post)
		}
		pc := &ac.params[i]
		if pc.lo == nil {
			if pc.bind != nil {
				// the level's first conjunct is p = e: only e's value
				want := pc.bind(f).n
				for _, v := range pc.values {
					if v.n == want {
						f.params[i] = v
						if !try(i) {
							return false
						}
					}
				}
				return true
			}
			for _, v := range pc.values {
				if !pc.passes(f, v.n) {
					continue
				}
				f.params[i] = v
				if !try(i) {
					return false
				}
			}
			return true
		}
		lo, hi := pc.lo(f).n, pc.hi(f).n
		if pc.nat && lo < 0 {
			lo = 0
		}
		if hi > lo && (hi-lo > int64(r.m.Inst.EnumLimit()) || hi-lo < 0) {
			f.fail(r.m.A.Actions[ac.index].Pos, "range of parameter %s is %d..%d, larger than the limit of %d values", pc.name, lo, hi, r.m.Inst.EnumLimit())
			return false
		}
		for k := lo; k < hi; k++ {
			f.params[i] = Value{n: k}
			if !try(i) {
				return false
			}
		}
		return true
	}
	return rec
}

// Successors calls visit for every transition enabled in s: the action's
// index in Automaton.Actions, its parameter values and the post-state, in
// the order of the actions and, within one, of the parameter values. The
// params slice is reused after visit returns; copy it to keep it. visit
// returns false to stop. The error reports run-time failures (overflow,
// ranges over the limit).
func (r *Runner) Successors(s State, visit func(act int, params []Value, post State) bool) (err error) {
	defer RecoverInternal(&err)
	f := &r.f
	f.state, f.err = s, nil
	r.visit = visit
	defer func() { r.visit = nil }()
	for i, ac := range r.m.acts {
		f.params = r.params[i]
		enabled := true
		for _, p := range ac.pre0 {
			if p(f).n == 0 {
				enabled = false
				break
			}
		}
		if f.err != nil {
			return f.err
		}
		if !enabled {
			continue
		}
		if !r.enums[i](0) {
			break
		}
	}
	return f.err
}

// NatViolatedAfter returns the name of the first Nat condition (named
// NatInvariant(v)) that post, a successor of pre, violates, or "". pre is
// known to meet them all: a variable whose value post shares with pre
// (the same scalar, or the same memory) is not checked again.
func (r *Runner) NatViolatedAfter(pre, post State) string {
	for i := range r.m.vars {
		vc := &r.m.vars[i]
		if vc.nat == nil || i < len(pre) && same(pre[i], post[i]) {
			continue
		}
		if !vc.nat(post[i]) {
			return NatInvariant(vc.v.Name)
		}
	}
	return ""
}

// Violated returns the name of the first condition that s violates, or ""
// if it satisfies them all: the implicit Nat conditions of the variables
// (named NatInvariant(v)), then the invariants with the given indices in
// Automaton.Invariants (all when invs is nil).
func (r *Runner) Violated(s State, invs []int) (name string, err error) {
	defer RecoverInternal(&err)
	for i := range r.m.vars {
		vc := &r.m.vars[i]
		if vc.nat != nil && !vc.nat(s[i]) {
			return NatInvariant(vc.v.Name), nil
		}
	}
	return r.firstFalse(s, invs, nil)
}

// firstFalse returns the name of the first invariant with the given
// indices (all when invs is nil) that s violates, or "". With pre not nil,
// an invariant that reads only variables whose values s shares with pre is
// taken to hold, as it does in pre.
func (r *Runner) firstFalse(s State, invs []int, pre State) (string, error) {
	f := &r.g
	f.state, f.err, f.params = s, nil, nil
	n := len(r.m.invs)
	if invs != nil {
		n = len(invs)
	}
	for k := 0; k < n; k++ {
		i := k
		if invs != nil {
			i = invs[k]
			if i < 0 || i >= len(r.m.invs) {
				return "", fmt.Errorf("no invariant #%d", i)
			}
		}
		ic := &r.m.invs[i]
		if pre != nil && ic.reads != nil && SharesVars(pre, s, ic.reads) {
			continue
		}
		ok := ic.body(f).n != 0
		if f.err != nil {
			return "", f.err
		}
		if !ok {
			return ic.name, nil
		}
	}
	return "", nil
}

// Final reports whether s satisfies the automaton's `final:` predicates
// (true when it declares none).
func (r *Runner) Final(s State) (ok bool, err error) {
	defer RecoverInternal(&err)
	f := &r.g
	f.state, f.err, f.params = s, nil, nil
	for _, p := range r.m.final {
		ok := p(f).n != 0
		if f.err != nil {
			return false, f.err
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// ViolatedAfter is Violated for post, a successor of pre, which is known
// to satisfy every condition: a condition that reads only variables whose
// value post shares with pre (SharesVars) holds in post too, and is not
// evaluated again. The name returned is the one Violated returns.
func (r *Runner) ViolatedAfter(pre, post State, invs []int) (name string, err error) {
	if len(pre) != len(post) {
		return r.Violated(post, invs)
	}
	defer RecoverInternal(&err)
	if name := r.NatViolatedAfter(pre, post); name != "" {
		return name, nil
	}
	return r.firstFalse(post, invs, pre)
}

// SharesVars reports whether t holds s's values of the variables vars in
// the same memory: values are never changed in place, so those variables
// are then equal, and a successor computed from s shares the memory of
// every variable its step leaves alone. (Equal values in different memory
// are reported as not shared.)
func SharesVars(s, t State, vars []int) bool {
	for _, v := range vars {
		if v < 0 || v >= len(s) || v >= len(t) || !same(s[v], t[v]) {
			return false
		}
	}
	return true
}
