// This file implements Machine, an automaton compiled for one instance:
// the compilation of its variables (init values, domains, the implicit Nat
// conditions, the byte codec), start predicates, actions (parameters,
// preconditions split by the last parameter they mention, effects, views),
// final predicates and invariants. Effects are compiled in effect.go; the
// reference stepping is step.go; code.go gives package fast's Runner the
// compiled code.

package eval

import (
	"errors"
	"fmt"
	"sync"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// Machine is an automaton compiled for one instance. It is immutable after
// NewMachine (Compile excepted, which locks) and safe for concurrent use;
// each goroutine runs it through its own Frame or fast.Runner.
type Machine struct {
	A    *ioa.Automaton // the automaton
	Inst *Instance      // the instance it was compiled for

	mu        sync.Mutex // guards c for Compile
	c         *compiler
	nlocals   int
	vars      []varCode
	initially []fn
	acts      []*ActionCode
	invs      []invCode
	final     []fn // nil: the automaton declares no final states
}

type varCode struct {
	v      *ioa.StateVar
	init   fn      // nil: any value of the sort
	domain []Value // the values of the sort when init is nil
	nat    func(Value) bool
	enc    encoder
	dec    decoder
}

type invCode struct {
	name string
	body fn
	// the state variables the body reads, directly or through definitions
	// (nil: unknown, every variable)
	reads []int
}

// ActionCode is a compiled action (code.go).
type ActionCode struct {
	index  int
	act    *ioa.Action
	params []ParamCode
	pre0   []fn // conjuncts of the precondition that mention no parameter
	eff    effFn
	event  string
	view   []fn
}

// ParamCode is a compiled action parameter (code.go).
type ParamCode struct {
	name   string
	pos    source.Pos // the action's, for errors
	inst   *Instance  // the instance of the range
	sort   *expr.Sort
	values []Value // the domain of a parameter of a finite sort
	lo, hi fn      // the range of an Int parameter, evaluated in the pre-state
	nat    bool    // a Nat parameter: negative values are skipped
	pre    []fn    // conjuncts of the precondition whose last parameter is this one
	// the leading conjuncts of its level compiled to tests, run before pre
	// (compile_guards.go): bit tests, or the only value to try
	masks []paramMask
	bind  fn
}

// effFn is a compiled effect: it evaluates in f (the pre-state) and writes
// the new values of the assigned variables into post.
type effFn func(f *frame, post []Value)

// NatInvariant returns the name under which the implicit condition `>= 0`
// of a Nat variable is reported: "<var>:Nat".
func NatInvariant(v string) string { return v + ":Nat" }

// NewMachine compiles automaton a for instance inst. Errors carry the
// position of what cannot be evaluated in the instance.
func NewMachine(a *ioa.Automaton, inst *Instance) (m *Machine, err error) {
	return newMachine(a, inst, false)
}

// newMachine is NewMachine, optionally with plain code (for tests).
func newMachine(a *ioa.Automaton, inst *Instance, plain bool) (m *Machine, err error) {
	defer RecoverInternal(&err)
	if a == nil {
		return nil, errors.New("no automaton")
	}
	if inst == nil {
		inst = &Instance{}
	}
	for name := range inst.Sizes {
		if inst.Sizes[name] < 1 {
			return nil, &source.Error{Code: source.ErrUsage, Msg: fmt.Sprintf("size of %s must be at least 1", name)}
		}
	}
	for _, s := range a.Sorts {
		if s != nil && s.Kind == expr.KParam {
			if _, err := inst.Size(s); err != nil {
				return nil, &source.Error{Pos: a.Pos, Code: source.ErrUsage, Msg: err.Error()}
			}
		}
	}
	m = &Machine{A: a, Inst: inst, c: newCompiler(inst)}
	c := m.c
	c.noFold = plain
	c.nstate = len(a.Vars)
	var errs source.ErrorList
	add := func(err error) {
		var se *source.Error
		var sl source.ErrorList
		switch {
		case errors.As(err, &sl):
			errs.Append(sl)
		case errors.As(err, &se):
			errs = append(errs, se)
		default:
			errs.Add(a.Pos, source.ErrModel, "%v", err)
		}
	}
	for i, v := range a.Vars {
		if v == nil || v.Sort.IsInvalid() {
			add(errorf(a.Pos, "state variable %d has no sort", i))
			continue
		}
		vc := varCode{v: v, nat: natCheck(v.Sort)}
		if err := inst.checkSizes(v.Sort); err != nil {
			add(errorf(v.Pos, "state variable %s: %v", v.Name, err))
			continue
		}
		vc.enc = m.encoder(v.Sort)
		vc.dec = m.decoder(v.Sort)
		if v.Init != nil {
			c.nstate = 0 // an init mentions no state variable
			vc.init, err = c.expr(v.Init)
			c.nstate = len(a.Vars)
			if err != nil {
				add(err)
			}
		} else if vc.domain, err = inst.Values(v.Sort); err != nil {
			add(errorf(v.Pos, "state variable %s has no init and %v", v.Name, err))
		}
		m.vars = append(m.vars, vc)
	}
	for _, p := range a.Initially {
		f, err := c.expr(p)
		if err != nil {
			add(err)
			continue
		}
		m.initially = append(m.initially, f)
	}
	for i, act := range a.Actions {
		ac, err := m.compileAction(i, act)
		if err != nil {
			add(err)
			continue
		}
		m.acts = append(m.acts, ac)
	}
	if a.Final != nil {
		m.final = []fn{}
		for _, x := range a.Final {
			f, err := c.expr(x)
			if err != nil {
				add(err)
				continue
			}
			m.final = append(m.final, f)
		}
	}
	for _, inv := range a.Invariants {
		f, err := c.expr(inv.Body)
		if err != nil {
			add(err)
			continue
		}
		m.invs = append(m.invs, invCode{name: inv.Name, body: f, reads: stateReads(inv.Body, len(a.Vars))})
	}
	if len(errs) > 0 {
		errs.RemoveMultiples()
		return nil, errs
	}
	m.nlocals = c.nlocals
	return m, nil
}

func (m *Machine) compileAction(index int, act *ioa.Action) (*ActionCode, error) {
	c := m.c
	c.nparams = len(act.Params)
	defer func() { c.nparams = -1 }()
	ac := &ActionCode{index: index, act: act, params: make([]ParamCode, len(act.Params))}
	for i, b := range act.Params {
		if b == nil || b.Var == nil {
			return nil, errorf(act.Pos, "action %s: malformed parameter", act.Name)
		}
		if b.Var.Index != i {
			return nil, errorf(b.P, "parameter %s has index %d, not %d", b.Var.Name, b.Var.Index, i)
		}
		pc := &ac.params[i]
		pc.name, pc.sort, pc.pos, pc.inst = b.Var.Name, b.Var.Sort, act.Pos, m.Inst
		if b.Lo != nil && b.Hi != nil {
			var err error
			if pc.lo, err = c.expr(b.Lo); err != nil {
				return nil, err
			}
			if pc.hi, err = c.expr(b.Hi); err != nil {
				return nil, err
			}
			pc.nat = b.Var.Sort != nil && b.Var.Sort.Kind == expr.KNat
			continue
		}
		if b.Var.Sort.IsInvalid() {
			return nil, errorf(b.P, "parameter %s has no sort", b.Var.Name)
		}
		if b.Var.Sort.IsNumeric() {
			return nil, errorf(b.P, "parameter %s of sort %s needs a range `%s in lo..hi`", b.Var.Name, b.Var.Sort, b.Var.Name)
		}
		vals, err := m.Inst.Values(b.Var.Sort)
		if err != nil {
			return nil, errorf(b.P, "parameter %s: %v", b.Var.Name, err)
		}
		pc.values = vals
	}
	if act.Pre != nil {
		cjs := make([][]expr.Expr, len(ac.params))
		for _, cj := range expr.Conjuncts(act.Pre, nil) {
			f, err := c.expr(cj)
			if err != nil {
				return nil, err
			}
			if last := expr.MaxParam(cj); last < 0 {
				ac.pre0 = append(ac.pre0, f)
			} else if last < len(ac.params) {
				ac.params[last].pre = append(ac.params[last].pre, f)
				cjs[last] = append(cjs[last], cj)
			} else {
				return nil, errorf(cj.Pos(), "precondition mentions parameter #%d of %d", last, len(ac.params))
			}
		}
		for i := range ac.params {
			pc := &ac.params[i]
			pc.pre = c.leadingTests(pc, i, cjs[i], pc.pre)
		}
	}
	if _, err := assigned(act.Eff); err != nil {
		return nil, err
	}
	eff, err := m.stmts(act.Eff)
	if err != nil {
		return nil, err
	}
	ac.eff = eff
	if v := act.View; v != nil && v.Event != nil {
		ac.event = v.Event.Name
		for _, x := range v.Args {
			f, err := c.expr(x)
			if err != nil {
				return nil, err
			}
			ac.view = append(ac.view, f)
		}
	}
	return ac, nil
}

// natCheck returns a function reporting whether every Nat inside a value of
// sort s is >= 0, or nil if s contains no Nat.
func natCheck(s *expr.Sort) func(Value) bool {
	switch s.Kind {
	case expr.KNat:
		return func(v Value) bool { return v.n >= 0 }
	case expr.KRecord:
		var subs []func(Value) bool
		var idx []int
		for i, f := range s.Fields {
			if c := natCheck(f.Sort); c != nil {
				subs = append(subs, c)
				idx = append(idx, i)
			}
		}
		if subs == nil {
			return nil
		}
		return func(v Value) bool {
			for j, c := range subs {
				if !c(v.vs[idx[j]]) {
					return false
				}
			}
			return true
		}
	case expr.KOption:
		c := natCheck(s.Elem)
		if c == nil {
			return nil
		}
		return func(v Value) bool { return v.n == 0 || c(v.vs[0]) }
	case expr.KSeq:
		c := natCheck(s.Elem)
		if c == nil {
			return nil
		}
		return func(v Value) bool {
			for _, x := range v.vs {
				if !c(x) {
					return false
				}
			}
			return true
		}
	case expr.KMap:
		c := natCheck(s.Elem)
		if c == nil {
			return nil
		}
		K := s.Key
		return func(v Value) bool {
			return teach(K, v, func(_, leaf Value) bool { return c(leaf) })
		}
	}
	return nil
}
