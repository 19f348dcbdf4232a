// This file implements Machine, an automaton compiled for one instance, and
// Runner, the per-goroutine context that runs it: start states,
// preconditions, parameter enumeration, effects, invariants, the implicit
// Nat conditions and views.

package eval

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// Machine is an automaton compiled for one instance. It is immutable after
// NewMachine (Compile excepted, which locks) and safe for concurrent use;
// each goroutine runs it through its own Runner.
type Machine struct {
	A    *ioa.Automaton // the automaton
	Inst *Instance      // the instance it was compiled for

	mu        sync.Mutex // guards c for Compile
	c         *compiler
	nlocals   int
	vars      []varCode
	initially []fn
	acts      []*actionCode
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
}

// actionCode is a compiled action.
type actionCode struct {
	index  int
	act    *ioa.Action
	params []paramCode
	pre0   []fn // conjuncts of the precondition that mention no parameter
	eff    effFn
	event  string
	view   []fn
}

// paramCode is a compiled action parameter.
type paramCode struct {
	name   string
	sort   *expr.Sort
	values []Value // the domain of a parameter of a finite sort
	lo, hi fn      // the range of an Int parameter, evaluated in the pre-state
	nat    bool    // a Nat parameter: negative values are skipped
	pre    []fn    // conjuncts of the precondition whose last parameter is this one
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
	defer recoverInternal(&err)
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
		m.invs = append(m.invs, invCode{name: inv.Name, body: f})
	}
	if len(errs) > 0 {
		errs.RemoveMultiples()
		return nil, errs
	}
	m.nlocals = c.nlocals
	return m, nil
}

// conjuncts splits e at its top-level `and`s.
func conjuncts(e expr.Expr, out []expr.Expr) []expr.Expr {
	if b, ok := e.(*expr.Binary); ok && b.Op == expr.OpAnd {
		return conjuncts(b.Y, conjuncts(b.X, out))
	}
	return append(out, e)
}

func (m *Machine) compileAction(index int, act *ioa.Action) (*actionCode, error) {
	c := m.c
	c.nparams = len(act.Params)
	defer func() { c.nparams = -1 }()
	ac := &actionCode{index: index, act: act, params: make([]paramCode, len(act.Params))}
	for i, b := range act.Params {
		if b == nil || b.Var == nil {
			return nil, errorf(act.Pos, "action %s: malformed parameter", act.Name)
		}
		if b.Var.Index != i {
			return nil, errorf(b.P, "parameter %s has index %d, not %d", b.Var.Name, b.Var.Index, i)
		}
		pc := &ac.params[i]
		pc.name, pc.sort = b.Var.Name, b.Var.Sort
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
		for _, cj := range conjuncts(act.Pre, nil) {
			f, err := c.expr(cj)
			if err != nil {
				return nil, err
			}
			if last := maxParam(cj); last < 0 {
				ac.pre0 = append(ac.pre0, f)
			} else if last < len(ac.params) {
				ac.params[last].pre = append(ac.params[last].pre, f)
			} else {
				return nil, errorf(cj.Pos(), "precondition mentions parameter #%d of %d", last, len(ac.params))
			}
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

// maxParam returns the largest Index of an action parameter that e
// mentions, or -1.
func maxParam(e expr.Expr) int {
	last := -1
	walk(e, func(x expr.Expr) {
		if id, ok := x.(*expr.Ident); ok && id.Obj != nil && id.Obj.Kind == expr.ObjParam && id.Obj.Index > last {
			last = id.Obj.Index
		}
	})
	return last
}

// walk calls fn for e and every expression below it (not into definition
// bodies).
func walk(e expr.Expr, fn func(expr.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	binders := func(bs ...*expr.Binder) {
		for _, b := range bs {
			if b != nil {
				walk(b.Lo, fn)
				walk(b.Hi, fn)
			}
		}
	}
	switch e := e.(type) {
	case *expr.Unary:
		walk(e.X, fn)
	case *expr.Binary:
		walk(e.X, fn)
		walk(e.Y, fn)
	case *expr.Ite:
		walk(e.Cond, fn)
		walk(e.Then, fn)
		walk(e.Else, fn)
	case *expr.Let:
		walk(e.Value, fn)
		walk(e.Body, fn)
	case *expr.Quant:
		binders(e.Binders...)
		walk(e.Body, fn)
	case *expr.Lambda:
		binders(e.Binder)
		walk(e.Body, fn)
	case *expr.Call:
		if e.Recv != nil {
			walk(e.Recv, fn)
		}
		for _, a := range e.Args {
			walk(a, fn)
		}
	case *expr.Index:
		walk(e.X, fn)
		walk(e.Index, fn)
	case *expr.Update:
		walk(e.X, fn)
		walk(e.Index, fn)
		walk(e.Value, fn)
	case *expr.FieldSel:
		walk(e.X, fn)
	case *expr.RecordUpdate:
		walk(e.X, fn)
		for _, f := range e.Fields {
			if f != nil {
				walk(f.Value, fn)
			}
		}
	case *expr.RecordLit:
		for _, f := range e.Fields {
			if f != nil {
				walk(f.Value, fn)
			}
		}
	case *expr.SetLit:
		for _, x := range e.Elems {
			walk(x, fn)
		}
	case *expr.SeqLit:
		for _, x := range e.Elems {
			walk(x, fn)
		}
	}
}

// targetVar returns the state variable an lvalue assigns.
func targetVar(t expr.Expr) (*expr.Object, error) {
	for {
		switch x := t.(type) {
		case *expr.Ident:
			if x.Obj == nil || x.Obj.Kind != expr.ObjVar {
				return nil, errorf(x.Pos(), "%s is not a state variable", x.Name)
			}
			return x.Obj, nil
		case *expr.Index:
			t = x.X
		case *expr.FieldSel:
			t = x.X
		default:
			if t == nil {
				return nil, errors.New("missing assignment target")
			}
			return nil, errorf(t.Pos(), "cannot assign to this expression")
		}
	}
}

// assigned returns the variables that some path through ss assigns, and an
// error if a path assigns one twice.
func assigned(ss []expr.Stmt) (map[*expr.Object]bool, error) {
	out := make(map[*expr.Object]bool)
	for _, s := range ss {
		var these map[*expr.Object]bool
		switch s := s.(type) {
		case *expr.Assign:
			v, err := targetVar(s.Target)
			if err != nil {
				return nil, err
			}
			these = map[*expr.Object]bool{v: true}
		case *expr.IfStmt:
			th, err := assigned(s.Then)
			if err != nil {
				return nil, err
			}
			el, err := assigned(s.Else)
			if err != nil {
				return nil, err
			}
			for v := range el {
				th[v] = true
			}
			these = th
		default:
			return nil, fmt.Errorf("unknown statement %T", s)
		}
		for v := range these {
			if out[v] {
				return nil, errorf(s.Pos(), "%s is assigned twice on one path of the effect (write x := x[i := a][j := b])", v.Name)
			}
			out[v] = true
		}
	}
	return out, nil
}

// stmts compiles an effect.
func (m *Machine) stmts(ss []expr.Stmt) (effFn, error) {
	var fns []effFn
	for _, s := range ss {
		switch s := s.(type) {
		case *expr.Assign:
			val, err := m.c.expr(s.Value)
			if err != nil {
				return nil, err
			}
			idx, newVal, err := m.lvalue(s.Target, val)
			if err != nil {
				return nil, err
			}
			if idx >= len(m.A.Vars) {
				return nil, errorf(s.Pos(), "assignment to unknown variable #%d", idx)
			}
			fns = append(fns, func(f *frame, post []Value) { post[idx] = newVal(f) })
		case *expr.IfStmt:
			cond, err := m.c.expr(s.Cond)
			if err != nil {
				return nil, err
			}
			th, err := m.stmts(s.Then)
			if err != nil {
				return nil, err
			}
			el, err := m.stmts(s.Else)
			if err != nil {
				return nil, err
			}
			fns = append(fns, func(f *frame, post []Value) {
				if cond(f).n != 0 {
					th(f, post)
				} else {
					el(f, post)
				}
			})
		default:
			return nil, fmt.Errorf("unknown statement %T", s)
		}
	}
	switch len(fns) {
	case 0:
		return func(*frame, []Value) {}, nil
	case 1:
		return fns[0], nil
	}
	return func(f *frame, post []Value) {
		for _, s := range fns {
			s(f, post)
		}
	}, nil
}

// lvalue compiles the assignment target := val into the index of the
// variable assigned and its new value, both computed in the pre-state.
func (m *Machine) lvalue(target expr.Expr, val fn) (int, fn, error) {
	c := m.c
	switch t := target.(type) {
	case *expr.Ident:
		if t.Obj == nil || t.Obj.Kind != expr.ObjVar {
			return 0, nil, errorf(t.Pos(), "%s is not a state variable", t.Name)
		}
		return t.Obj.Index, val, nil
	case *expr.Index:
		xs, err := sortOf(t.X)
		if err != nil {
			return 0, nil, err
		}
		x, err := c.expr(t.X)
		if err != nil {
			return 0, nil, err
		}
		i, err := c.expr(t.Index)
		if err != nil {
			return 0, nil, err
		}
		nx, err := c.updateFn(t.Pos(), xs, t.X, t.Index, x, i, val)
		if err != nil {
			return 0, nil, err
		}
		return m.lvalue(t.X, nx)
	case *expr.FieldSel:
		xs, err := sortOf(t.X)
		if err != nil {
			return 0, nil, err
		}
		k, err := fieldIndex(t.Pos(), xs, t.Name)
		if err != nil {
			return 0, nil, err
		}
		x, err := c.expr(t.X)
		if err != nil {
			return 0, nil, err
		}
		n := len(xs.Fields)
		nx := func(f *frame) Value {
			r := x(f)
			vs := f.mk(n)
			copy(vs, r.vs)
			vs[k] = val(f)
			return Value{vs: vs}
		}
		return m.lvalue(t.X, nx)
	}
	if target == nil {
		return 0, nil, errors.New("missing assignment target")
	}
	return 0, nil, errorf(target.Pos(), "cannot assign to this expression")
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

// Decode returns the state whose encoding (Machine.AppendState) is key; in
// scratch mode it lives in scratch memory.
func (r *Runner) Decode(key []byte) (s State, err error) {
	defer recoverInternal(&err)
	if r.offs == nil {
		r.offs = make([]int, len(r.m.vars)+1)
	}
	r.d = dec{b: key, f: &r.g, offs: r.offs}
	r.last, r.lastKey = nil, nil
	s, err = r.m.decodeWith(&r.d)
	if err == nil {
		r.last, r.lastKey = s, key
	}
	return s, err
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
			for _, v := range pc.values {
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
		if hi > lo && (hi-lo > int64(r.m.Inst.maxEnum()) || hi-lo < 0) {
			f.fail(r.m.A.Actions[ac.index].Pos, "range of parameter %s is %d..%d, larger than the limit of %d values", pc.name, lo, hi, r.m.Inst.maxEnum())
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
	defer recoverInternal(&err)
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

// Violated returns the name of the first condition that s violates, or ""
// if it satisfies them all: the implicit Nat conditions of the variables
// (named NatInvariant(v)), then the invariants with the given indices in
// Automaton.Invariants (all when invs is nil).
func (r *Runner) Violated(s State, invs []int) (name string, err error) {
	defer recoverInternal(&err)
	for i := range r.m.vars {
		vc := &r.m.vars[i]
		if vc.nat != nil && !vc.nat(s[i]) {
			return NatInvariant(vc.v.Name), nil
		}
	}
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

// HasFinal reports whether the automaton declares its proper final states
// (Automaton.Final), so that a state without successors that is not
// final is a deadlock.
func (m *Machine) HasFinal() bool { return m.final != nil }

// Final reports whether s satisfies the automaton's `final:` predicates
// (true when it declares none).
func (r *Runner) Final(s State) (ok bool, err error) {
	defer recoverInternal(&err)
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

// Init returns every start state: the product of the init values and, for
// variables without init, of every value of their sort, filtered by the
// initially predicates.
func (m *Machine) Init() (states []State, err error) {
	defer recoverInternal(&err)
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
		if total > int64(m.Inst.maxEnum()) {
			return nil, errorf(vc.v.Pos, "too many candidate start states (more than %d): give %s an init", m.Inst.maxEnum(), vc.v.Name)
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

// actionCode returns the compiled action for act.
func (m *Machine) actionCode(act *ioa.Action) (*actionCode, error) {
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
	defer recoverInternal(&err)
	ac, err := m.actionCode(act)
	if err != nil {
		return nil, false, err
	}
	if err := m.CheckState(s); err != nil {
		return nil, false, err
	}
	if len(params) != len(ac.params) {
		return nil, false, fmt.Errorf("%s takes %d parameters, not %d", act.Name, len(ac.params), len(params))
	}
	f := &frame{state: s, params: make([]Value, len(params)), locals: make([]Value, m.nlocals)}
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
		if !holds(pc.pre) {
			return nil, false, f.err
		}
	}
	post = make(State, len(s))
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
	defer recoverInternal(&err)
	ac, err := m.actionCode(act)
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
		lo, hi := pc.lo(f).n, pc.hi(f).n
		if f.err != nil {
			return false
		}
		if pc.nat && lo < 0 {
			lo = 0
		}
		if hi > lo && (hi-lo > int64(m.Inst.maxEnum()) || hi-lo < 0) {
			f.fail(act.Pos, "range of parameter %s is %d..%d, larger than the limit of %d values", pc.name, lo, hi, m.Inst.maxEnum())
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
	defer recoverInternal(&err)
	m.mu.Lock()
	defer m.mu.Unlock()
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
	defer recoverInternal(&err)
	ac, err := m.actionCode(act)
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
	ac, _ := m.actionCode(act)
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
