// This file implements Runner, the per-goroutine context in which the
// explorer and the cross-checker run a Machine in bulk: all successors of
// a state in one call (Successors, which enumerates the parameters in
// place and checks each conjunct of the precondition as soon as the
// parameters it mentions are bound), invariants and final predicates
// (Violated, Final), and, in scratch mode, states decoded into and
// successors built in reusable memory (codec.go). It runs the Machine's
// compiled code (eval.Frame, eval.ActionCode); the reference semantics of
// a transition is eval.Machine.Step, which does not depend on this file,
// and TestRunnerAgrees checks that Successors computes exactly the
// transitions Step allows on the reachable states of the repository's
// automata.

package fast

import (
	"fmt"

	"ladder/ioa/eval"
)

// Runner runs a Machine. A Runner is not safe for concurrent use; make one
// per goroutine.
type Runner struct {
	m      *eval.Machine
	f      *eval.Frame    // for Successors
	g      *eval.Frame    // for Violated, which visit functions may call
	ar     *eval.Arena    // scratch memory, in scratch mode
	params [][]eval.Value // per action
	enums  []func(i int) bool
	pre    eval.State // the state Successors expands
	visit  func(act int, params []eval.Value, post eval.State) bool
	// the state last returned by Decode, its encoding and the offsets of
	// its variables' encodings in it, for Encode
	last    eval.State
	lastKey []byte
	offs    []int
}

// NewRunner returns a Runner for m.
func NewRunner(m *eval.Machine) *Runner {
	r := &Runner{m: m, f: m.NewFrame(), g: m.NewFrame()}
	n := len(m.A.Actions)
	r.params = make([][]eval.Value, n)
	r.enums = make([]func(int) bool, n)
	for i := range n {
		ac := m.Action(i)
		r.params[i] = make([]eval.Value, ac.Params())
		r.enums[i] = r.enumFn(i, ac)
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
		r.ar = eval.NewArena()
	} else {
		r.ar = nil
	}
	r.f.SetArena(r.ar)
	r.g.SetArena(r.ar)
}

// Release makes the memory of every value built since the last Release
// available again, in scratch mode; otherwise it does nothing.
func (r *Runner) Release() {
	if r.ar != nil {
		r.ar.Release()
	}
}

// Machine returns the machine r runs.
func (r *Runner) Machine() *eval.Machine { return r.m }

// enumFn returns the parameter enumeration of action act, whose code is
// ac.
func (r *Runner) enumFn(act int, ac *eval.ActionCode) func(i int) bool {
	f := r.f
	params := r.params[act]
	pcs := make([]*eval.ParamCode, len(params))
	for i := range pcs {
		pcs[i] = ac.Param(i)
	}
	n := len(r.m.A.Vars)
	var rec func(i int) bool
	try := func(i int) bool {
		if !pcs[i].Holds(f) {
			return true
		}
		return rec(i + 1)
	}
	rec = func(i int) bool {
		if f.Err() != nil {
			return false
		}
		if i == len(params) {
			post := eval.State(f.Alloc(n))
			copy(post, r.pre)
			ac.Apply(f, post)
			if f.Err() != nil {
				return false
			}
			return r.visit(act, params, post)
		}
		pc := pcs[i]
		if !pc.Ranged() {
			if want, ok := pc.Binding(f); ok {
				// the level's first conjunct is p = e: only e's value
				for _, v := range pc.Domain() {
					if v.Int() == want {
						params[i] = v
						if !try(i) {
							return false
						}
					}
				}
				return true
			}
			for _, v := range pc.Domain() {
				if !pc.Passes(f, v.Int()) {
					continue
				}
				params[i] = v
				if !try(i) {
					return false
				}
			}
			return true
		}
		lo, hi, ok := pc.Range(f)
		if !ok {
			return false
		}
		for k := lo; k < hi; k++ {
			params[i] = eval.Int(k)
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
func (r *Runner) Successors(s eval.State, visit func(act int, params []eval.Value, post eval.State) bool) (err error) {
	defer eval.RecoverInternal(&err)
	f := r.f
	f.Enter(s)
	r.pre, r.visit = s, visit
	defer func() { r.pre, r.visit = nil, nil }()
	for i := range r.params {
		f.SetParams(r.params[i])
		enabled := r.m.Action(i).Enabled0(f)
		if f.Err() != nil {
			return f.Err()
		}
		if !enabled {
			continue
		}
		if !r.enums[i](0) {
			break
		}
	}
	return f.Err()
}

// NatViolatedAfter returns the name of the first Nat condition (named
// eval.NatInvariant(v)) that post, a successor of pre, violates, or "".
// pre is known to meet them all: a variable whose value post shares with
// pre (the same scalar, or the same memory) is not checked again.
func (r *Runner) NatViolatedAfter(pre, post eval.State) string {
	return r.m.NatViolatedAfter(pre, post)
}

// Violated returns the name of the first condition that s violates, or ""
// if it satisfies them all: the implicit Nat conditions of the variables
// (named eval.NatInvariant(v)), then the invariants with the given indices
// in Automaton.Invariants (all when invs is nil).
func (r *Runner) Violated(s eval.State, invs []int) (name string, err error) {
	defer eval.RecoverInternal(&err)
	if name, err := r.m.NatViolated(s); name != "" || err != nil {
		return name, err
	}
	return r.firstFalse(s, invs, nil)
}

// firstFalse returns the name of the first invariant with the given
// indices (all when invs is nil) that s violates, or "". With pre not nil,
// an invariant that reads only variables whose values s shares with pre is
// taken to hold, as it does in pre.
func (r *Runner) firstFalse(s eval.State, invs []int, pre eval.State) (string, error) {
	f := r.g
	f.Enter(s)
	all := r.m.A.Invariants
	n := len(all)
	if invs != nil {
		n = len(invs)
	}
	for k := 0; k < n; k++ {
		i := k
		if invs != nil {
			i = invs[k]
			if i < 0 || i >= len(all) {
				return "", fmt.Errorf("no invariant #%d", i)
			}
		}
		if pre != nil {
			if reads := r.m.InvariantReads(i); reads != nil && eval.SharesVars(pre, s, reads) {
				continue
			}
		}
		ok := r.m.InvariantHolds(f, i)
		if f.Err() != nil {
			return "", f.Err()
		}
		if !ok {
			return all[i].Name, nil
		}
	}
	return "", nil
}

// Final reports whether s satisfies the automaton's `final:` predicates
// (true when it declares none).
func (r *Runner) Final(s eval.State) (ok bool, err error) {
	defer eval.RecoverInternal(&err)
	f := r.g
	f.Enter(s)
	ok = r.m.FinalHolds(f)
	if f.Err() != nil {
		return false, f.Err()
	}
	return ok, nil
}

// ViolatedAfter is Violated for post, a successor of pre, which is known
// to satisfy every condition: a condition that reads only variables whose
// value post shares with pre (eval.SharesVars) holds in post too, and is not
// evaluated again. The name returned is the one Violated returns.
func (r *Runner) ViolatedAfter(pre, post eval.State, invs []int) (name string, err error) {
	if len(pre) != len(post) {
		return r.Violated(post, invs)
	}
	defer eval.RecoverInternal(&err)
	if name := r.NatViolatedAfter(pre, post); name != "" {
		return name, nil
	}
	return r.firstFalse(post, invs, pre)
}
