// This file implements the reference stepping of a Machine: start states,
// one transition at a time (Step, which checks its inputs), the
// enumeration of parameter tuples, predicates on states, and the events
// and notation of actions. The explorer's bulk interface, package fast's
// Runner, must compute the same transitions as Step.

package eval

import (
	"errors"
	"fmt"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// HasFinal reports whether the automaton declares its proper final states
// (Automaton.Final), so that a state without successors that is not
// final is a deadlock.
func (m *Machine) HasFinal() bool { return m.final != nil }

// InvariantIndex returns the index of the named invariant in
// Automaton.Invariants, or -1.
func (m *Machine) InvariantIndex(name string) int {
	for i, inv := range m.invs {
		if inv.name == name {
			return i
		}
	}
	return -1
}

// InvariantReads returns the state variables that invariant i (by index in
// Automaton.Invariants) reads, directly or through definitions, or nil
// when they are unknown (every variable).
func (m *Machine) InvariantReads(i int) []int { return m.invs[i].reads }

// NatViolated returns the name of the first implicit Nat condition that s
// violates (NatInvariant(v) for variable v), or "".
func (m *Machine) NatViolated(s State) (name string, err error) {
	defer RecoverInternal(&err)
	for i := range m.vars {
		vc := &m.vars[i]
		if vc.nat != nil && !vc.nat(s[i]) {
			return NatInvariant(vc.v.Name), nil
		}
	}
	return "", nil
}

// NatViolatedAfter returns the name of the first implicit Nat condition
// that post, a successor of pre, violates in a variable the step changed,
// or "" (pre satisfies them all, so the unchanged variables still do).
func (m *Machine) NatViolatedAfter(pre, post State) string {
	for i := range m.vars {
		vc := &m.vars[i]
		if vc.nat == nil || i < len(pre) && Same(pre[i], post[i]) {
			continue
		}
		if !vc.nat(post[i]) {
			return NatInvariant(vc.v.Name)
		}
	}
	return ""
}

// Init returns every start state: the product of the init values and, for
// variables without init, of every value of their sort, filtered by the
// initially predicates.
func (m *Machine) Init() (states []State, err error) {
	defer RecoverInternal(&err)
	f := &frame{locals: make([]Value, m.nlocals)}
	parts := make([][]Value, len(m.vars))
	total := int64(1)
	for i := range m.vars {
		vc := &m.vars[i]
		if vc.init != nil {
			v := vc.init(f)
			if f.err != nil {
				return nil, f.err
			}
			parts[i] = []Value{v}
		} else {
			parts[i] = vc.domain
		}
		total *= int64(len(parts[i]))
		if total > int64(m.Inst.EnumLimit()) {
			return nil, errorf(vc.v.Pos, "too many candidate start states (more than %d): give %s an init", m.Inst.EnumLimit(), vc.v.Name)
		}
	}
	product(parts, func(vs []Value) {
		if f.err != nil {
			return
		}
		s := State(append([]Value(nil), vs...))
		f.state = s
		for _, p := range m.initially {
			if p(f).n == 0 {
				return
			}
		}
		if f.err == nil {
			states = append(states, s)
		}
	})
	if f.err != nil {
		return nil, f.err
	}
	return states, nil
}

// codeOf returns the compiled action for act.
func (m *Machine) codeOf(act *ioa.Action) (*ActionCode, error) {
	for _, ac := range m.acts {
		if ac.act == act {
			return ac, nil
		}
	}
	if act == nil {
		return nil, errors.New("no action")
	}
	return nil, fmt.Errorf("action %s is not an action of %s", act.Name, m.A.Name)
}

// CheckState reports an error unless s is a well-formed state of the
// automaton in the instance.
func (m *Machine) CheckState(s State) error {
	if len(s) != len(m.A.Vars) {
		return fmt.Errorf("a state of %s has %d variables, not %d", m.A.Name, len(m.A.Vars), len(s))
	}
	for i, v := range m.A.Vars {
		if !m.Inst.Conforms(s[i], v.Sort) {
			return fmt.Errorf("the value of %s is not of sort %s in the instance", v.Name, v.Sort)
		}
	}
	return nil
}

// Step performs action act with the given parameter values in state s. ok
// is false when the action is not enabled: a parameter outside its range,
// or a false precondition.
func (m *Machine) Step(act *ioa.Action, s State, params []Value) (post State, ok bool, err error) {
	if err := m.CheckState(s); err != nil {
		return nil, false, err
	}
	return m.StepEvaluated(act, s, params)
}

// StepEvaluated is Step for a state s this package computed (by Init,
// Step, DecodeState, running the compiled code as a fast.Runner does, or
// by evaluating expressions of the automaton's state variables' sorts):
// such a state conforms to the instance by construction, so it is not
// checked again. Parameters are checked as Step checks them.
func (m *Machine) StepEvaluated(act *ioa.Action, s State, params []Value) (post State, ok bool, err error) {
	return m.StepEvaluatedWith(nil, act, s, params)
}

// StepScratch is memory that StepEvaluatedWith reuses from one call to the
// next: the frame's parameters and bound-variable slots, which nothing
// the step returns refers to. A StepScratch is for one goroutine.
//
// With an Arena, the post-state and the values the step builds live in
// it, and are valid until its next Release; without one they are
// allocated.
type StepScratch struct {
	Arena          *Arena
	f              frame
	params, locals []Value
}

// StepEvaluatedWith is StepEvaluated with its frame in sc (nil: allocated).
// The post-state is allocated anew, in sc's Arena if it has one.
func (m *Machine) StepEvaluatedWith(sc *StepScratch, act *ioa.Action, s State, params []Value) (post State, ok bool, err error) {
	defer RecoverInternal(&err)
	ac, err := m.codeOf(act)
	if err != nil {
		return nil, false, err
	}
	if len(s) != len(m.A.Vars) {
		return nil, false, fmt.Errorf("a state of %s has %d variables, not %d", m.A.Name, len(m.A.Vars), len(s))
	}
	if len(params) != len(ac.params) {
		return nil, false, fmt.Errorf("%s takes %d parameters, not %d", act.Name, len(ac.params), len(params))
	}
	var f *frame
	if sc == nil {
		f = &frame{state: s, params: make([]Value, len(params)), locals: make([]Value, m.nlocals)}
	} else {
		if cap(sc.params) < len(params) {
			sc.params = make([]Value, len(params))
		}
		if cap(sc.locals) < m.nlocals {
			sc.locals = make([]Value, m.nlocals)
		}
		sc.f = frame{state: s, params: sc.params[:len(params)], locals: sc.locals[:m.nlocals]}
		if sc.Arena != nil {
			sc.f.ar = &sc.Arena.ar
		}
		f = &sc.f
	}
	copy(f.params, params)
	holds := func(ps []fn) bool {
		for _, p := range ps {
			if p(f).n == 0 || f.err != nil {
				return false
			}
		}
		return true
	}
	if !holds(ac.pre0) {
		return nil, false, f.err
	}
	for i := range ac.params {
		pc := &ac.params[i]
		v := params[i]
		if pc.lo != nil {
			lo, hi := pc.lo(f).n, pc.hi(f).n
			if f.err != nil {
				return nil, false, f.err
			}
			if v.vs != nil || v.n < lo || v.n >= hi || (pc.nat && v.n < 0) {
				return nil, false, nil
			}
		} else if !m.Inst.Conforms(v, pc.sort) {
			return nil, false, fmt.Errorf("parameter %s of %s is not of sort %s", pc.name, act.Name, pc.sort)
		}
		if !pc.admits(f, v) || !holds(pc.pre) {
			return nil, false, f.err
		}
	}
	post = f.mk(len(s))
	copy(post, s)
	ac.eff(f, post)
	if f.err != nil {
		return nil, false, f.err
	}
	return post, true, nil
}

// EachParams calls fn with every tuple of parameter values of act in state
// s, enabled or not: parameters of finite sorts range over the instance's
// values, Int parameters over their ranges lo <= p < hi evaluated in s with
// the earlier parameters bound (Nat ones from 0). The slice passed to fn is
// reused; fn returns false to stop.
func (m *Machine) EachParams(act *ioa.Action, s State, fn func(params []Value) bool) (err error) {
	defer RecoverInternal(&err)
	ac, err := m.codeOf(act)
	if err != nil {
		return err
	}
	if err := m.CheckState(s); err != nil {
		return err
	}
	f := &frame{state: s, params: make([]Value, len(ac.params)), locals: make([]Value, m.nlocals)}
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(ac.params) {
			return fn(f.params)
		}
		pc := &ac.params[i]
		if pc.lo == nil {
			for _, v := range pc.values {
				f.params[i] = v
				if !rec(i + 1) {
					return false
				}
			}
			return true
		}
		lo, hi, ok := pc.rangeIn(f)
		if !ok {
			return false
		}
		for k := lo; k < hi; k++ {
			f.params[i] = Value{n: k}
			if !rec(i + 1) {
				return false
			}
		}
		return true
	}
	rec(0)
	return f.err
}

// Compile compiles an expression over the automaton's state (ObjVar
// identifiers), with the given free objects (see the function Compile).
func (m *Machine) Compile(e expr.Expr, free ...*expr.Object) (f *Func, err error) {
	defer RecoverInternal(&err)
	m.mu.Lock()
	defer m.mu.Unlock()
	// A Func evaluates in frames of its own, and no compiled code is kept
	// in the compiler: the slots this Func allocates are free again for
	// the next. Otherwise each Func's frame would hold the slots of every
	// Func compiled before it, and clearing it after each evaluation would
	// cost time linear in their number (ladder infer compiles thousands
	// of atoms on one machine).
	n := m.c.nlocals
	defer func() { m.c.nlocals = n }()
	return compileFunc(m.c, e, free)
}

// Holds evaluates predicate pred in state s.
func (m *Machine) Holds(pred expr.Expr, s State) (bool, error) {
	f, err := m.Compile(pred)
	if err != nil {
		return false, err
	}
	v, err := f.Eval(s, nil)
	return v.n != 0, err
}

// ViewEvent returns the event that action act with the given parameters
// shows through the view, and its arguments; the name is "" for an internal
// action.
func (m *Machine) ViewEvent(act *ioa.Action, params []Value) (event string, args []Value, err error) {
	defer RecoverInternal(&err)
	ac, err := m.codeOf(act)
	if err != nil {
		return "", nil, err
	}
	if ac.event == "" {
		return "", nil, nil
	}
	f := &frame{params: params, locals: make([]Value, m.nlocals)}
	for _, x := range ac.view {
		args = append(args, x(f))
	}
	if f.err != nil {
		return "", nil, f.err
	}
	return ac.event, args, nil
}

// FormatAction returns act(params) in the language's notation, e.g.
// "DoRead(T#0, L#1, 0)".
func (m *Machine) FormatAction(act *ioa.Action, params []Value) string {
	var b strings.Builder
	b.WriteString(act.Name)
	if len(act.Params) > 0 {
		b.WriteString("(")
		for i, p := range act.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			if i < len(params) && p != nil && p.Var != nil {
				b.WriteString(Format(params[i], paramSort(p)))
			} else {
				b.WriteString("?")
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

// FormatEvent returns the event of act(params) through the view, e.g.
// "ReadResp(T#0, V#1)", or "" for an internal action.
func (m *Machine) FormatEvent(act *ioa.Action, params []Value) (string, error) {
	name, args, err := m.ViewEvent(act, params)
	if err != nil || name == "" {
		return "", err
	}
	ac, _ := m.codeOf(act)
	var b strings.Builder
	b.WriteString(name)
	if len(args) > 0 {
		b.WriteString("(")
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			var s *expr.Sort
			if i < len(ac.act.View.Args) {
				s = ac.act.View.Args[i].Sort()
			}
			b.WriteString(Format(a, s))
		}
		b.WriteString(")")
	}
	return b.String(), nil
}

// paramSort returns the sort of an action parameter (Int for a range binder
// without one).
func paramSort(b *expr.Binder) *expr.Sort {
	if b.Var.Sort != nil {
		return b.Var.Sort
	}
	return expr.IntSort
}

// Init returns the start states of a in instance inst (see Machine.Init).
func Init(a *ioa.Automaton, inst *Instance) ([]State, error) {
	m, err := NewMachine(a, inst)
	if err != nil {
		return nil, err
	}
	return m.Init()
}

// Step performs act(params) in state s of a in instance inst (see
// Machine.Step). It compiles the automaton at each call: use a Machine to
// take many steps.
func Step(a *ioa.Automaton, inst *Instance, act *ioa.Action, s State, params []Value) (State, bool, error) {
	m, err := NewMachine(a, inst)
	if err != nil {
		return nil, false, err
	}
	return m.Step(act, s, params)
}
