// This file gives the bounded cross-checker (package crosscheck) the
// edge as PointChecker compiled it: the proof's expressions and state
// maps, which its search applies to every state it explores (the mapped
// abstract state, a start or totality witness, the relation a backward
// simulation's candidates are looked up by), and the conditions the edge
// assumes of a state, which it checks once per state it explores. Its
// search, its explanations and its verdicts thus evaluate one compiled
// form of the edge.

package simulation

import (
	"fmt"
	"slices"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Objects returns the proof's state objects (c, a, cpost, apre: those
// the proof has), in the order in which compiled expressions take their
// states as arguments.
func (pc *PointChecker) Objects() []*expr.Object { return pc.w.fast.objs }

// Func returns the compiled form of proof expression x over Objects and
// then extra, the form in which the rules evaluate x (with no extra).
// Evaluating the Func is safe for concurrent use; Func itself is not.
func (pc *PointChecker) Func(x expr.Expr, extra ...*expr.Object) (*eval.Func, error) {
	f := pc.w.fast
	if len(extra) == 0 {
		if fn := f.funcs[x]; fn != nil {
			return fn, nil
		}
	}
	for _, e := range f.extra[x] {
		if slices.Equal(e.objs, extra) {
			return e.fn, nil
		}
	}
	fn, err := eval.Compile(x, f.inst, slices.Concat(f.objs, extra)...)
	if err != nil {
		return nil, err
	}
	if len(extra) == 0 {
		f.funcs[x] = fn
	} else {
		f.extra[x] = append(f.extra[x], extraFunc{objs: slices.Clone(extra), fn: fn})
	}
	return fn, nil
}

// extraFunc is an expression compiled over the proof's state objects and
// then objs.
type extraFunc struct {
	objs []*expr.Object
	fn   *eval.Func
}

// StateMap is a state map as the rules apply it (conWorld.stateOf): per
// variable of its target, the compiled expression, or the variable of
// a state object that an entry `o.v` copies.
type StateMap struct {
	m     *ioa.StateMap
	plan  []entryPlan
	funcs []*eval.Func
	objs  []int // per variable, the index in Objects of the state an entry copies, or -1
}

// StateMap returns m compiled, or nil when m is nil. Applying it is safe
// for concurrent use.
func (pc *PointChecker) StateMap(m *ioa.StateMap) (*StateMap, error) {
	if m == nil {
		return nil, nil
	}
	f := pc.w.fast
	plan, err := f.mapPlan(m, m.Target.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", m.Pos, err)
	}
	sm := &StateMap{m: m, plan: plan}
	for i, pl := range plan {
		fn, err := pc.Func(pl.x)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m.Entries[i].Pos, err)
		}
		sm.funcs = append(sm.funcs, fn)
		sm.objs = append(sm.objs, slices.Index(f.objs, pl.obj))
	}
	return sm, nil
}

// Apply returns the state the map gives when the proof's state objects
// are bound to states (by their index in Objects; nil: unbound) and the
// parameters to params. args is scratch of the length of states, or nil.
func (sm *StateMap) Apply(states []eval.State, params []eval.Value, args []eval.Value) (eval.State, error) {
	args = args[:0]
	for _, s := range states {
		args = append(args, s.AsValue())
	}
	out := make(eval.State, len(sm.funcs))
	for i, fn := range sm.funcs {
		if o := sm.objs[i]; o >= 0 && o < len(states) {
			if s := states[o]; sm.plan[i].field < len(s) {
				out[i] = s[sm.plan[i].field]
				continue
			}
		}
		v, err := fn.Eval(nil, params, args...)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", sm.m.Entries[i].Pos, err)
		}
		out[i] = v
	}
	return out, nil
}

// Violated returns the name of the first condition that the edge's
// obligations assume of a state of auto (the concrete or the abstract
// automaton) that s violates, or "" when s satisfies them all: the
// implicit Nat conditions of its variables (named eval.NatInvariant(v)),
// then each invariant the proof assumes of auto, in the proof's order:
// its body, or, for an invariant assumed by transfer, P∘g (Transferred).
// These are the hypotheses that Eval takes as true of the states of a
// point; a caller that explores reachable states checks them here once
// per state.
func (pc *PointChecker) Violated(auto *ioa.Automaton, s eval.State) (string, error) {
	m, err := pc.w.machine(auto)
	if err != nil {
		return "", err
	}
	if name, err := m.NatViolated(s); name != "" || err != nil {
		return name, err
	}
	refs := pc.proof.AssumeConcrete
	if auto == pc.proof.Abstract {
		refs = pc.proof.AssumeAbstract
	}
	f := pc.w.fast
	for _, ref := range refs {
		var ok bool
		if !ref.Transferred() {
			if ok, err = f.invariant(ref.Inv.Body, s); err != nil {
				return "", fmt.Errorf("%s: %v", ref.Pos, err)
			}
		} else {
			fn, err := pc.transferred(ref, auto)
			if err != nil {
				return "", err
			}
			v, err := fn.EvalIn(f.ar, nil, nil, s.AsValue())
			if err != nil {
				return "", fmt.Errorf("%s: %v", ref.Pos, err)
			}
			ok = v.Bool()
		}
		if !ok {
			return ref.Name, nil
		}
	}
	return "", nil
}

// NatViolatedAfter returns the name of the first Nat condition (as
// Violated names it) that post, a successor of the state pre of auto,
// violates in a variable the step changed, or "".
func (pc *PointChecker) NatViolatedAfter(auto *ioa.Automaton, pre, post eval.State) (string, error) {
	m, err := pc.w.machine(auto)
	if err != nil {
		return "", err
	}
	return m.NatViolatedAfter(pre, post), nil
}

// transferred returns P∘g, the predicate the rules assume for the
// invariant ref assumed of auto by transfer, compiled over one state.
func (pc *PointChecker) transferred(ref *ioa.InvariantRef, auto *ioa.Automaton) (*eval.Func, error) {
	if fn := pc.transfers[ref]; fn != nil {
		return fn, nil
	}
	obj := &expr.Object{Kind: expr.ObjState, Name: "s", Sort: auto.StateSort}
	body, err := Transferred(ref, auto, obj)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ref.Pos, err)
	}
	fn, err := eval.Compile(body, pc.w.inst, obj)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ref.Pos, err)
	}
	if pc.transfers == nil {
		pc.transfers = map[*ioa.InvariantRef]*eval.Func{}
	}
	pc.transfers[ref] = fn
	return fn, nil
}
