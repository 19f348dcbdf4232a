// This file implements the compiler from sort-checked expressions to
// closures over a frame. Compiling resolves every name to a slot, checks
// everything that can be checked before running (sizes, finite domains,
// constants), and picks specialised code by sort, so that running a closure
// does no lookups by name and no map accesses.

package eval

import (
	"errors"
	"fmt"
	"math"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// fn is a compiled expression.
type fn func(f *frame) Value

// frame is what compiled expressions run on.
type frame struct {
	state  []Value // the values of ObjVar identifiers (the current state)
	params []Value // the values of ObjParam identifiers, by Index
	locals []Value // bound variables, definition parameters and receiver states, by slot
	err    error   // the first run-time error
	ar     *arena  // scratch memory for new values, or nil for the heap
}

func (f *frame) fail(pos source.Pos, format string, args ...any) {
	if f.err == nil {
		f.err = &source.Error{Pos: pos, Code: source.ErrModel, Msg: fmt.Sprintf(format, args...)}
	}
}

// compiler compiles expressions for one instance. Constants are evaluated
// once per compiler.
type compiler struct {
	inst      *Instance
	consts    map[*expr.Object]Value
	busy      map[*expr.Object]bool // constants and definitions being compiled
	slots     map[*expr.Object]int  // bound objects and states in scope
	nlocals   int
	stateSlot int                  // -1: ObjVar reads frame.state; otherwise the slot of a receiver state
	nstate    int                  // the number of variables of frame.state, or -1 if unknown
	nparams   int                  // the number of action parameters in frame.params, or -1 if unknown
	folding   bool                 // compiling inside a closed expression that will be folded
	noFold    bool                 // plain code: no folding, no specialised closures (tests compare both ways)
	closed    map[expr.Expr]bool   // memo of isClosed
	closedDef map[*expr.Object]int // definitions: 1 closed, 2 not, 3 being checked
}

func newCompiler(inst *Instance) *compiler {
	if inst == nil {
		inst = &Instance{}
	}
	return &compiler{
		inst:      inst,
		consts:    make(map[*expr.Object]Value),
		busy:      make(map[*expr.Object]bool),
		slots:     make(map[*expr.Object]int),
		stateSlot: -1,
		nstate:    -1,
		nparams:   -1,
		closed:    make(map[expr.Expr]bool),
		closedDef: make(map[*expr.Object]int),
	}
}

// isClosed reports whether e mentions no state, parameter, free bound
// variable or named state, so that its value can be computed once.
func (c *compiler) isClosed(e expr.Expr) bool {
	if v, ok := c.closed[e]; ok {
		return v
	}
	bound := map[*expr.Object]bool{}
	ok := true
	expr.Inspect(e, func(x expr.Expr) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *expr.Let:
			bound[x.Var] = true
		case *expr.Quant:
			for _, b := range x.Binders {
				if b != nil {
					bound[b.Var] = true
				}
			}
		case *expr.Lambda:
			if x.Binder != nil {
				bound[x.Binder.Var] = true
			}
		case *expr.Call:
			if x.Recv != nil {
				ok = false
			}
		case *expr.Ident:
			if x.Obj == nil {
				return true
			}
			switch x.Obj.Kind {
			case expr.ObjVar, expr.ObjParam, expr.ObjState:
				ok = false
			case expr.ObjBound:
				ok = bound[x.Obj]
			case expr.ObjDef:
				ok = c.defClosed(x.Obj)
			}
		}
		return ok
	})
	c.closed[e] = ok
	return ok
}

// defClosed reports whether a definition's body mentions only its
// parameters and closed things.
func (c *compiler) defClosed(d *expr.Object) bool {
	switch c.closedDef[d] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	c.closedDef[d] = 3
	ok := d.Body != nil
	if ok {
		params := map[*expr.Object]bool{}
		for _, p := range d.Params {
			params[p] = true
		}
		bound := map[*expr.Object]bool{}
		expr.Inspect(d.Body, func(x expr.Expr) bool {
			if !ok {
				return false
			}
			switch x := x.(type) {
			case *expr.Let:
				bound[x.Var] = true
			case *expr.Quant:
				for _, b := range x.Binders {
					if b != nil {
						bound[b.Var] = true
					}
				}
			case *expr.Lambda:
				if x.Binder != nil {
					bound[x.Binder.Var] = true
				}
			case *expr.Call:
				if x.Recv != nil {
					ok = false
				}
			case *expr.Ident:
				if x.Obj == nil {
					return true
				}
				switch x.Obj.Kind {
				case expr.ObjVar, expr.ObjParam, expr.ObjState:
					ok = false
				case expr.ObjBound:
					ok = bound[x.Obj] || params[x.Obj]
				case expr.ObjDef:
					ok = c.defClosed(x.Obj)
				}
			}
			return ok
		})
	}
	if ok {
		c.closedDef[d] = 1
	} else {
		c.closedDef[d] = 2
	}
	return ok
}

// constValue returns the value of a closed expression compiled to body, and
// false if evaluating it fails (the failure is then left to run time).
func (c *compiler) constValue(body fn) (Value, bool) {
	f := &frame{locals: make([]Value, c.nlocals)}
	v := body(f)
	return v, f.err == nil
}

// errorf returns a model error at pos.
func errorf(pos source.Pos, format string, args ...any) error {
	return &source.Error{Pos: pos, Code: source.ErrModel, Msg: fmt.Sprintf(format, args...)}
}

// slot allocates a fresh local slot.
func (c *compiler) slot() int {
	c.nlocals++
	return c.nlocals - 1
}

// bind gives obj a fresh slot and returns it with a function undoing the binding.
func (c *compiler) bind(obj *expr.Object) (int, func()) {
	s := c.slot()
	old, had := c.slots[obj]
	c.slots[obj] = s
	return s, func() {
		if had {
			c.slots[obj] = old
		} else {
			delete(c.slots, obj)
		}
	}
}

func konst(v Value) fn { return func(*frame) Value { return v } }

// sortOf returns e's sort, or an error if e was not sort-checked.
func sortOf(e expr.Expr) (*expr.Sort, error) {
	s := e.Sort()
	if s.IsInvalid() {
		return nil, errorf(e.Pos(), "expression has no sort (not sort-checked)")
	}
	return s, nil
}

// scalar reports whether values of s are single words.
func scalar(s *expr.Sort) bool {
	switch s.Kind {
	case expr.KBool, expr.KInt, expr.KNat, expr.KEnum, expr.KParam:
		return true
	}
	return false
}

// def returns the default value of s, or an error at pos.
func (c *compiler) def(pos source.Pos, s *expr.Sort) (Value, error) {
	v, err := c.inst.Default(s)
	if err != nil {
		return Value{}, errorf(pos, "%v", err)
	}
	return v, nil
}

// expr compiles e, folding closed expressions into constants.
func (c *compiler) expr(e expr.Expr) (fn, error) {
	if e == nil {
		return nil, errors.New("missing expression")
	}
	switch e.(type) {
	case *expr.IntLit, *expr.BoolLit, *expr.ElemLit:
	default:
		if !c.folding && !c.noFold && c.isClosed(e) {
			c.folding = true
			body, err := c.expr1(e)
			c.folding = false
			if err != nil {
				return nil, err
			}
			if v, ok := c.constValue(body); ok {
				return konst(v), nil
			}
			return body, nil
		}
	}
	return c.expr1(e)
}

// constOf returns the value of e if it is closed and evaluates without
// error.
func (c *compiler) constOf(e expr.Expr) (Value, bool) {
	switch e := e.(type) {
	case *expr.IntLit:
		return Int(e.Value), true
	case *expr.BoolLit:
		return Bool(e.Value), true
	}
	if c.folding || c.noFold || !c.isClosed(e) {
		return Value{}, false
	}
	c.folding = true
	body, err := c.expr1(e)
	c.folding = false
	if err != nil {
		return Value{}, false
	}
	return c.constValue(body)
}

// expr1 compiles e without folding it.
func (c *compiler) expr1(e expr.Expr) (fn, error) {
	switch e := e.(type) {
	case *expr.IntLit:
		return konst(Int(e.Value)), nil
	case *expr.BoolLit:
		return konst(Bool(e.Value)), nil
	case *expr.ElemLit:
		return c.elemLit(e)
	case *expr.Ident:
		return c.ident(e)
	case *expr.Unary:
		return c.unary(e)
	case *expr.Binary:
		return c.binary(e)
	case *expr.Ite:
		cond, err := c.expr(e.Cond)
		if err != nil {
			return nil, err
		}
		th, err := c.expr(e.Then)
		if err != nil {
			return nil, err
		}
		el, err := c.expr(e.Else)
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			if cond(f).n != 0 {
				return th(f)
			}
			return el(f)
		}, nil
	case *expr.Let:
		val, err := c.expr(e.Value)
		if err != nil {
			return nil, err
		}
		if e.Var == nil {
			return nil, errorf(e.Pos(), "let without a variable")
		}
		s, undo := c.bind(e.Var)
		body, err := c.expr(e.Body)
		undo()
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			f.locals[s] = val(f)
			return body(f)
		}, nil
	case *expr.Quant:
		return c.quant(e)
	case *expr.Lambda:
		return c.lambda(e)
	case *expr.Call:
		return c.call(e)
	case *expr.Index:
		return c.index(e)
	case *expr.Update:
		return c.update(e)
	case *expr.FieldSel:
		return c.fieldSel(e)
	case *expr.RecordUpdate:
		return c.recordUpdate(e)
	case *expr.RecordLit:
		return c.recordLit(e)
	case *expr.SetLit:
		return c.setLit(e)
	case *expr.SeqLit:
		elems := make([]fn, len(e.Elems))
		for i, x := range e.Elems {
			var err error
			if elems[i], err = c.expr(x); err != nil {
				return nil, err
			}
		}
		if len(elems) == 0 {
			return konst(Value{}), nil
		}
		return func(f *frame) Value {
			vs := f.mk(len(elems))
			for i, x := range elems {
				vs[i] = x(f)
			}
			return Value{vs: vs}
		}, nil
	case *expr.BadExpr:
		return nil, errorf(e.Pos(), "cannot evaluate a malformed expression")
	}
	return nil, errorf(e.Pos(), "cannot evaluate expression of type %T", e)
}

func (c *compiler) elemLit(e *expr.ElemLit) (fn, error) {
	n := 0
	if c.inst != nil {
		n = c.inst.Sizes[e.SortName]
	}
	if n <= 0 {
		return nil, errorf(e.Pos(), "no size for parameter sort %s (give %s=n)", e.SortName, e.SortName)
	}
	if e.Index < 0 || e.Index >= n {
		return nil, errorf(e.Pos(), "%s#%d does not exist in the instance %s=%d", e.SortName, e.Index, e.SortName, n)
	}
	return konst(Elem(e.Index)), nil
}

func (c *compiler) ident(e *expr.Ident) (fn, error) {
	obj := e.Obj
	if obj == nil {
		if e.Name == "None" {
			return konst(None()), nil
		}
		return nil, errorf(e.Pos(), "unresolved name %s", e.Name)
	}
	switch obj.Kind {
	case expr.ObjVar:
		return c.stateVar(e.Pos(), obj)
	case expr.ObjParam:
		i := obj.Index
		if i < 0 || (c.nparams >= 0 && i >= c.nparams) {
			return nil, errorf(e.Pos(), "no value for parameter %s", obj.Name)
		}
		if c.nparams < 0 {
			return func(f *frame) Value {
				if i >= len(f.params) {
					f.fail(e.Pos(), "no value for parameter %s", obj.Name)
					return Value{}
				}
				return f.params[i]
			}, nil
		}
		return func(f *frame) Value { return f.params[i] }, nil
	case expr.ObjBound, expr.ObjState:
		s, ok := c.slots[obj]
		if !ok {
			return nil, errorf(e.Pos(), "no value for %s", obj.Name)
		}
		return func(f *frame) Value { return f.locals[s] }, nil
	case expr.ObjConst:
		v, err := c.constant(e.Pos(), obj)
		if err != nil {
			return nil, err
		}
		return konst(v), nil
	case expr.ObjEnum:
		return konst(Enum(obj.Index)), nil
	case expr.ObjDef:
		return c.callDef(e.Pos(), obj, nil, nil)
	case expr.ObjBuiltin:
		if obj.Name == "None" {
			return konst(None()), nil
		}
		return nil, errorf(e.Pos(), "built-in %s used as a value", obj.Name)
	}
	return nil, errorf(e.Pos(), "%s is not a value", obj.Name)
}

// stateVar compiles a reference to a state variable of the current state.
func (c *compiler) stateVar(pos source.Pos, obj *expr.Object) (fn, error) {
	i := obj.Index
	if i < 0 {
		return nil, errorf(pos, "state variable %s has no index", obj.Name)
	}
	if c.stateSlot >= 0 {
		s := c.stateSlot
		return func(f *frame) Value {
			st := f.locals[s].vs
			if i >= len(st) {
				f.fail(pos, "the state has no variable %s", obj.Name)
				return Value{}
			}
			return st[i]
		}, nil
	}
	if c.nstate >= 0 && i >= c.nstate {
		return nil, errorf(pos, "no state in which to evaluate variable %s", obj.Name)
	}
	if c.nstate < 0 {
		return func(f *frame) Value {
			if i >= len(f.state) {
				f.fail(pos, "the state has no variable %s", obj.Name)
				return Value{}
			}
			return f.state[i]
		}, nil
	}
	return func(f *frame) Value { return f.state[i] }, nil
}

// constant returns the value of a constant.
func (c *compiler) constant(pos source.Pos, obj *expr.Object) (Value, error) {
	if v, ok := c.consts[obj]; ok {
		return v, nil
	}
	if obj.Sort.IsInvalid() {
		return Value{}, errorf(pos, "constant %s has no sort", obj.Name)
	}
	if v, ok := c.inst.Consts[obj.Name]; ok {
		if !c.inst.Conforms(v, obj.Sort) {
			return Value{}, errorf(pos, "the value given for constant %s is not of sort %s", obj.Name, obj.Sort)
		}
		c.consts[obj] = v
		return v, nil
	}
	if obj.Body == nil {
		if _, finite := c.inst.Card(obj.Sort); !finite {
			return Value{}, errorf(obj.Pos, "constant %s of sort %s has no value (give %s=n)", obj.Name, obj.Sort, obj.Name)
		}
		v, err := c.def(obj.Pos, obj.Sort)
		if err != nil {
			return Value{}, err
		}
		c.consts[obj] = v
		return v, nil
	}
	if c.busy[obj] {
		return Value{}, errorf(obj.Pos, "constant %s is defined in terms of itself", obj.Name)
	}
	c.busy[obj] = true
	defer delete(c.busy, obj)
	sub := &compiler{inst: c.inst, consts: c.consts, busy: c.busy, slots: make(map[*expr.Object]int), stateSlot: -1, nstate: 0, nparams: 0, closed: c.closed, closedDef: c.closedDef}
	body, err := sub.expr(obj.Body)
	if err != nil {
		return Value{}, err
	}
	f := &frame{locals: make([]Value, sub.nlocals)}
	v := body(f)
	if f.err != nil {
		return Value{}, f.err
	}
	c.consts[obj] = v
	return v, nil
}

func (c *compiler) unary(e *expr.Unary) (fn, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	switch e.Op {
	case expr.OpNot:
		return func(f *frame) Value { return Value{n: 1 - x(f).n} }, nil
	case expr.OpNeg:
		return func(f *frame) Value {
			a := x(f).n
			if a == math.MinInt64 {
				f.fail(pos, "integer overflow in -(%d)", a)
				return Value{}
			}
			return Value{n: -a}
		}, nil
	}
	return nil, errorf(pos, "unknown unary operator %s", e.Op)
}

func (c *compiler) binary(e *expr.Binary) (fn, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.expr(e.Y)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	switch e.Op {
	case expr.OpAnd:
		return func(f *frame) Value {
			if x(f).n == 0 {
				return Value{}
			}
			return y(f)
		}, nil
	case expr.OpOr:
		return func(f *frame) Value {
			if x(f).n != 0 {
				return Value{n: 1}
			}
			return y(f)
		}, nil
	case expr.OpImplies:
		return func(f *frame) Value {
			if x(f).n == 0 {
				return Value{n: 1}
			}
			return y(f)
		}, nil
	case expr.OpIff:
		return func(f *frame) Value { return Bool(x(f).n == y(f).n) }, nil
	case expr.OpEq, expr.OpNeq:
		xs, err := sortOf(e.X)
		if err != nil {
			return nil, err
		}
		if scalar(xs) {
			return c.compare(e, x, y), nil
		}
		neg := e.Op == expr.OpNeq
		return func(f *frame) Value { return Bool(Equal(x(f), y(f)) != neg) }, nil
	case expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
		return c.compare(e, x, y), nil
	case expr.OpAdd, expr.OpSub, expr.OpMul, expr.OpDiv, expr.OpMod:
		op := arith(e.Op)
		return func(f *frame) Value {
			r, ok := op(x(f).n, y(f).n)
			if !ok {
				f.fail(pos, "integer overflow in %s", e.Op)
			}
			return Value{n: r}
		}, nil
	case expr.OpIn, expr.OpNotIn:
		ys, err := sortOf(e.Y)
		if err != nil {
			return nil, err
		}
		if ys.Kind != expr.KSet {
			return nil, errorf(pos, "%s needs a set on its right, not %s", e.Op, ys)
		}
		if err := c.inst.checkSizes(ys); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		var want int64 = 1
		if e.Op == expr.OpNotIn {
			want = 0
		}
		K := ys.Elem
		if set, ok := c.constOf(e.Y); ok && atomicKey(K) && len(set.vs) <= 64 {
			var mask uint64
			for i, b := range set.vs {
				mask |= uint64(b.n) << i
			}
			if want == 0 {
				mask = ^mask
			}
			return func(f *frame) Value { return Value{n: int64(mask >> uint64(x(f).n) & 1)} }, nil
		}
		if atomicKey(K) {
			return func(f *frame) Value {
				s, k := y(f), x(f)
				return Bool(s.vs[k.n].n == want)
			}, nil
		}
		return func(f *frame) Value {
			s, k := y(f), x(f)
			return Bool(tget(K, s, k).n == want)
		}, nil
	case expr.OpSubset:
		return c.subset(e, x, y)
	case expr.OpUnion, expr.OpInter, expr.OpDiff:
		s, err := sortOf(e.X)
		if err != nil {
			return nil, err
		}
		if s.Kind != expr.KSet {
			return nil, errorf(pos, "%s needs sets, not %s", e.Op, s)
		}
		if err := c.inst.checkSizes(s); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		var leaf func(a, b Value) Value
		switch e.Op {
		case expr.OpUnion:
			leaf = func(a, b Value) Value { return Value{n: a.n | b.n} }
		case expr.OpInter:
			leaf = func(a, b Value) Value { return Value{n: a.n & b.n} }
		default:
			leaf = func(a, b Value) Value { return Value{n: a.n &^ b.n} }
		}
		K := s.Elem
		return func(f *frame) Value { return tzip(f, K, x(f), y(f), leaf) }, nil
	}
	return nil, errorf(pos, "unknown binary operator %s", e.Op)
}

// subset compiles `x subset y`: set inclusion, or agreement of a partial map
// (Map[K, Option[V]]) with a total map (Map[K, V]) or another partial map.
func (c *compiler) subset(e *expr.Binary, x, y fn) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	ys, err := sortOf(e.Y)
	if err != nil {
		return nil, err
	}
	if err := c.inst.checkSizes(xs); err != nil {
		return nil, errorf(e.Pos(), "%v", err)
	}
	switch {
	case xs.Kind == expr.KSet && ys.Kind == expr.KSet:
		K := xs.Elem
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || b.n != 0 }))
		}, nil
	case xs.Kind == expr.KMap && xs.Elem.Kind == expr.KOption && ys.Kind == expr.KMap && ys.Elem.Kind == expr.KOption:
		K := xs.Key
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || Equal(a, b) }))
		}, nil
	case xs.Kind == expr.KMap && xs.Elem.Kind == expr.KOption && ys.Kind == expr.KMap:
		K := xs.Key
		return func(f *frame) Value {
			return Bool(tall(K, x(f), y(f), func(a, b Value) bool { return a.n == 0 || Equal(a.vs[0], b) }))
		}, nil
	}
	return nil, errorf(e.Pos(), "subset needs two sets or a partial map and a map, not %s and %s", xs, ys)
}

// arith returns the integer operation of op, which reports false on overflow.
func arith(op expr.Op) func(a, b int64) (int64, bool) {
	switch op {
	case expr.OpAdd:
		return func(a, b int64) (int64, bool) {
			r := a + b
			return r, (r > a) == (b > 0)
		}
	case expr.OpSub:
		return func(a, b int64) (int64, bool) {
			r := a - b
			return r, (r < a) == (b > 0)
		}
	case expr.OpMul:
		return func(a, b int64) (int64, bool) {
			if a == 0 || b == 0 {
				return 0, true
			}
			r := a * b
			if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
				return r, false
			}
			return r, true
		}
	case expr.OpDiv:
		return func(a, b int64) (int64, bool) {
			q, _, ok := divmod(a, b)
			return q, ok
		}
	}
	return func(a, b int64) (int64, bool) {
		_, r, ok := divmod(a, b)
		return r, ok
	}
}

// divmod returns the Euclidean quotient and remainder of a by b
// (0 <= r < |b|), with a div 0 = 0 and a mod 0 = a, as in SMT-LIB. It reports
// false when the quotient overflows.
func divmod(a, b int64) (q, r int64, ok bool) {
	if b == 0 {
		return 0, a, true
	}
	if a == math.MinInt64 && b == -1 {
		return 0, 0, false
	}
	q, r = a/b, a%b
	if r < 0 {
		if b > 0 {
			q, r = q-1, r+b
		} else {
			q, r = q+1, r-b
		}
	}
	return q, r, true
}

// binder is a compiled binder: a finite domain or an integer range.
type binder struct {
	slot   int
	values []Value // the domain of a sort binder
	lo, hi fn      // a range binder
	pos    source.Pos
}

// binders compiles a list of binders; the returned undo removes their names.
func (c *compiler) binders(bs []*expr.Binder) ([]binder, func(), error) {
	var undos []func()
	undo := func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
	out := make([]binder, len(bs))
	for i, b := range bs {
		if b == nil || b.Var == nil {
			undo()
			return nil, nil, errors.New("malformed binder")
		}
		out[i].pos = b.P
		if b.Lo != nil || b.Hi != nil {
			if b.Lo == nil || b.Hi == nil {
				undo()
				return nil, nil, errorf(b.P, "malformed range binder %s", b.Var.Name)
			}
			var err error
			if out[i].lo, err = c.expr(b.Lo); err == nil {
				out[i].hi, err = c.expr(b.Hi)
			}
			if err != nil {
				undo()
				return nil, nil, err
			}
		} else {
			if b.Var.Sort.IsInvalid() {
				undo()
				return nil, nil, errorf(b.P, "binder %s has no sort", b.Var.Name)
			}
			vals, err := c.inst.Values(b.Var.Sort)
			if err != nil {
				undo()
				return nil, nil, errorf(b.P, "cannot range %s over %s: %v (use a range binder `%s in lo..hi` for integers)", b.Var.Name, b.Var.Sort, err, b.Var.Name)
			}
			out[i].values = vals
		}
		s, u := c.bind(b.Var)
		out[i].slot = s
		undos = append(undos, u)
	}
	return out, undo, nil
}

// eachFn returns a function that evaluates body with the binders bound to
// every combination of values, in order, and reports false as soon as body
// gives stop (or an error occurs), true if it never does.
func (c *compiler) eachFn(bs []binder, body fn, stop int64) func(f *frame) bool {
	maxEnum := int64(c.inst.maxEnum())
	var rec func(f *frame, i int) bool
	rec = func(f *frame, i int) bool {
		if i == len(bs) {
			return body(f).n != stop && f.err == nil
		}
		b := &bs[i]
		if b.values != nil || b.lo == nil {
			for _, v := range b.values {
				f.locals[b.slot] = v
				if !rec(f, i+1) {
					return false
				}
			}
			return true
		}
		lo, hi := b.lo(f).n, b.hi(f).n
		if hi > lo && (hi-lo > maxEnum || hi-lo < 0) {
			f.fail(b.pos, "range %d..%d is larger than the limit of %d values", lo, hi, maxEnum)
			return false
		}
		for k := lo; k < hi; k++ {
			f.locals[b.slot] = Value{n: k}
			if !rec(f, i+1) {
				return false
			}
		}
		return true
	}
	if len(bs) == 1 && bs[0].lo == nil {
		slot, values := bs[0].slot, bs[0].values
		return func(f *frame) bool {
			for _, v := range values {
				f.locals[slot] = v
				if body(f).n == stop || f.err != nil {
					return false
				}
			}
			return true
		}
	}
	return func(f *frame) bool { return rec(f, 0) }
}

func (c *compiler) quant(e *expr.Quant) (fn, error) {
	bs, undo, err := c.binders(e.Binders)
	if err != nil {
		return nil, err
	}
	body, err := c.expr(e.Body)
	undo()
	if err != nil {
		return nil, err
	}
	if e.Forall {
		each := c.eachFn(bs, body, 0)
		return func(f *frame) Value { return Bool(each(f) && f.err == nil) }, nil
	}
	each := c.eachFn(bs, body, 1)
	return func(f *frame) Value { return Bool(!each(f) && f.err == nil) }, nil
}

// lambda compiles `lambda x: S. body` into a table over S: a map, or a set
// when the lambda's sort is Set[S] (a set comprehension).
func (c *compiler) lambda(e *expr.Lambda) (fn, error) {
	b := e.Binder
	if b == nil || b.Var == nil {
		return nil, errorf(e.Pos(), "malformed lambda")
	}
	if b.Lo != nil || b.Hi != nil {
		return nil, errorf(e.Pos(), "a lambda cannot bind an integer range")
	}
	K := b.Var.Sort
	if K.IsInvalid() || !keyable(K) {
		return nil, errorf(e.Pos(), "cannot tabulate a function over %s in an explored instance", K)
	}
	return c.tabulate(e.Pos(), b.Var, K, e.Body)
}

// tabulate compiles the table over K whose leaf at key x is body (with
// variable bound to x).
func (c *compiler) tabulate(pos source.Pos, variable *expr.Object, K *expr.Sort, bodyExpr expr.Expr) (fn, error) {
	keys, err := c.inst.Values(K)
	if err != nil {
		return nil, errorf(pos, "%v", err)
	}
	s, undo := c.bind(variable)
	body, err := c.expr(bodyExpr)
	undo()
	if err != nil {
		return nil, err
	}
	inst := c.inst
	return func(f *frame) Value {
		leaves := f.mk(len(keys))
		for i, k := range keys {
			f.locals[s] = k
			leaves[i] = body(f)
		}
		if atomicKey(K) {
			return Value{vs: leaves}
		}
		return inst.tbuild(f, K, leaves)
	}, nil
}

func (c *compiler) index(e *expr.Index) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	i, err := c.expr(e.Index)
	if err != nil {
		return nil, err
	}
	switch xs.Kind {
	case expr.KMap:
		if err := c.inst.checkSizes(xs); err != nil {
			return nil, errorf(e.Pos(), "%v", err)
		}
		K := xs.Key
		if atomicKey(K) {
			return c.indexAtomic(e, x, i), nil
		}
		return func(f *frame) Value { return tget(K, x(f), i(f)) }, nil
	case expr.KSeq:
		d, err := c.def(e.Pos(), xs.Elem)
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			s, k := x(f), i(f).n
			if k < 0 || k >= int64(len(s.vs)) {
				return d
			}
			return s.vs[k]
		}, nil
	}
	return nil, errorf(e.Pos(), "cannot index a value of sort %s", xs)
}

// varRead reports whether e reads a variable of frame.state, and its index.
func (c *compiler) varRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjVar || c.stateSlot >= 0 || c.nstate < 0 {
		return 0, false
	}
	return id.Obj.Index, id.Obj.Index >= 0 && id.Obj.Index < c.nstate
}

// paramRead reports whether e reads an action parameter, and its index.
func (c *compiler) paramRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjParam || c.nparams < 0 {
		return 0, false
	}
	return id.Obj.Index, id.Obj.Index >= 0 && id.Obj.Index < c.nparams
}

// slotRead reports whether e reads a bound variable, and its slot.
func (c *compiler) slotRead(e expr.Expr) (int, bool) {
	id, ok := e.(*expr.Ident)
	if !ok || c.noFold || id.Obj == nil || id.Obj.Kind != expr.ObjBound {
		return 0, false
	}
	s, ok := c.slots[id.Obj]
	return s, ok
}

// getter reads a scalar: it is the fast form of a compiled expression of a
// scalar sort for the shapes that comparisons meet most.
type getter struct {
	kind int // one of the g constants
	k    int64
	v, i int // variable index; parameter index or slot
	x    fn
}

const (
	gConst    = iota // k
	gVarParam        // state[v][params[i]]
	gVarSlot         // state[v][locals[i]]
	gParam           // params[i]
	gSlot            // locals[i]
	gOther           // x(f).n
)

// getterOf returns the getter of scalar expression e compiled to x.
func (c *compiler) getterOf(e expr.Expr, x fn) getter {
	if k, ok := c.constOf(e); ok {
		return getter{kind: gConst, k: k.n}
	}
	if ix, ok := e.(*expr.Index); ok {
		if xs := ix.X.Sort(); !xs.IsInvalid() && xs.Kind == expr.KMap && atomicKey(xs.Key) {
			if vi, ok := c.varRead(ix.X); ok {
				if pi, ok := c.paramRead(ix.Index); ok {
					return getter{kind: gVarParam, v: vi, i: pi}
				}
				if s, ok := c.slotRead(ix.Index); ok {
					return getter{kind: gVarSlot, v: vi, i: s}
				}
			}
		}
	}
	if pi, ok := c.paramRead(e); ok {
		return getter{kind: gParam, i: pi}
	}
	if s, ok := c.slotRead(e); ok {
		return getter{kind: gSlot, i: s}
	}
	return getter{kind: gOther, x: x}
}

// fn returns the getter as a function.
func (g getter) fn() func(f *frame) int64 {
	v, i, k, x := g.v, g.i, g.k, g.x
	switch g.kind {
	case gConst:
		return func(*frame) int64 { return k }
	case gVarParam:
		return func(f *frame) int64 { return f.state[v].vs[f.params[i].n].n }
	case gVarSlot:
		return func(f *frame) int64 { return f.state[v].vs[f.locals[i].n].n }
	case gParam:
		return func(f *frame) int64 { return f.params[i].n }
	case gSlot:
		return func(f *frame) int64 { return f.locals[i].n }
	}
	return func(f *frame) int64 { return x(f).n }
}

// compare compiles a comparison of scalars: =, != (of any scalar sort) and
// <, <=, >, >= (of integers), fusing the common shapes var[p] = constant
// into single closures.
func (c *compiler) compare(e *expr.Binary, x, y fn) fn {
	gx, gy := c.getterOf(e.X, x), c.getterOf(e.Y, y)
	if gx.kind == gConst && gy.kind != gConst {
		// put the constant on the right: a op k
		gx, gy = gy, gx
		switch e.Op {
		case expr.OpLt:
			return c.compareOp(expr.OpGt, gx, gy)
		case expr.OpLe:
			return c.compareOp(expr.OpGe, gx, gy)
		case expr.OpGt:
			return c.compareOp(expr.OpLt, gx, gy)
		case expr.OpGe:
			return c.compareOp(expr.OpLe, gx, gy)
		}
	}
	return c.compareOp(e.Op, gx, gy)
}

func (c *compiler) compareOp(op expr.Op, gx, gy getter) fn {
	if gy.kind == gConst && (op == expr.OpEq || op == expr.OpNeq) {
		v, i, k := gx.v, gx.i, gy.k
		var want int64 = 1
		if op == expr.OpNeq {
			want = 0
		}
		switch gx.kind {
		case gVarParam:
			if want == 1 {
				return func(f *frame) Value { return Bool(f.state[v].vs[f.params[i].n].n == k) }
			}
			return func(f *frame) Value { return Bool(f.state[v].vs[f.params[i].n].n != k) }
		case gVarSlot:
			if want == 1 {
				return func(f *frame) Value { return Bool(f.state[v].vs[f.locals[i].n].n == k) }
			}
			return func(f *frame) Value { return Bool(f.state[v].vs[f.locals[i].n].n != k) }
		}
		a := gx.fn()
		if want == 1 {
			return func(f *frame) Value { return Bool(a(f) == k) }
		}
		return func(f *frame) Value { return Bool(a(f) != k) }
	}
	a, b := gx.fn(), gy.fn()
	switch op {
	case expr.OpEq:
		return func(f *frame) Value { return Bool(a(f) == b(f)) }
	case expr.OpNeq:
		return func(f *frame) Value { return Bool(a(f) != b(f)) }
	case expr.OpLt:
		return func(f *frame) Value { return Bool(a(f) < b(f)) }
	case expr.OpLe:
		return func(f *frame) Value { return Bool(a(f) <= b(f)) }
	case expr.OpGt:
		return func(f *frame) Value { return Bool(a(f) > b(f)) }
	}
	return func(f *frame) Value { return Bool(a(f) >= b(f)) }
}

// indexAtomic compiles x[i] for a map with an atomic key, specialised for
// the common shapes var[param], var[bound] and x[constant].
func (c *compiler) indexAtomic(e *expr.Index, x, i fn) fn {
	if vi, ok := c.varRead(e.X); ok {
		if pi, ok := c.paramRead(e.Index); ok {
			return func(f *frame) Value { return f.state[vi].vs[f.params[pi].n] }
		}
		if s, ok := c.slotRead(e.Index); ok {
			return func(f *frame) Value { return f.state[vi].vs[f.locals[s].n] }
		}
		return func(f *frame) Value { return f.state[vi].vs[i(f).n] }
	}
	if pi, ok := c.paramRead(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[f.params[pi].n] }
	}
	if s, ok := c.slotRead(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[f.locals[s].n] }
	}
	if k, ok := c.constOf(e.Index); ok {
		return func(f *frame) Value { return x(f).vs[k.n] }
	}
	return func(f *frame) Value { return x(f).vs[i(f).n] }
}

func (c *compiler) update(e *expr.Update) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	i, err := c.expr(e.Index)
	if err != nil {
		return nil, err
	}
	v, err := c.expr(e.Value)
	if err != nil {
		return nil, err
	}
	return c.updateFn(e.Pos(), xs, e.X, e.Index, x, i, v)
}

// updateFn returns the closure for x[i := v] with x of sort xs; xe and ie
// are the expressions of x and i, for specialised code.
func (c *compiler) updateFn(pos source.Pos, xs *expr.Sort, xe, ie expr.Expr, x, i, v fn) (fn, error) {
	switch xs.Kind {
	case expr.KMap:
		if err := c.inst.checkSizes(xs); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		K := xs.Key
		vi, okv := c.varRead(xe)
		pi, okp := c.paramRead(ie)
		if atomicKey(K) && okv && okp {
			return func(f *frame) Value {
				m := f.state[vi]
				vs := f.mk(len(m.vs))
				copy(vs, m.vs)
				vs[f.params[pi].n] = v(f)
				return Value{vs: vs}
			}, nil
		}
		if atomicKey(K) {
			return func(f *frame) Value {
				m, k, val := x(f), i(f).n, v(f)
				vs := f.mk(len(m.vs))
				copy(vs, m.vs)
				vs[k] = val
				return Value{vs: vs}
			}, nil
		}
		return func(f *frame) Value { return tset(f, K, x(f), i(f), v(f)) }, nil
	case expr.KSeq:
		return func(f *frame) Value {
			s, k, val := x(f), i(f).n, v(f)
			if k < 0 || k >= int64(len(s.vs)) {
				return s
			}
			vs := f.mk(len(s.vs))
			copy(vs, s.vs)
			vs[k] = val
			return Value{vs: vs}
		}, nil
	}
	return nil, errorf(pos, "cannot update a value of sort %s", xs)
}

// fieldIndex returns the index of the named field of record sort s.
func fieldIndex(pos source.Pos, s *expr.Sort, name string) (int, error) {
	if s.Kind != expr.KRecord {
		return 0, errorf(pos, "%s is not a record, it has no field %s", s, name)
	}
	i := s.FieldIndex(name)
	if i < 0 {
		return 0, errorf(pos, "%s has no field %s", s, name)
	}
	return i, nil
}

func (c *compiler) fieldSel(e *expr.FieldSel) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	k, err := fieldIndex(e.Pos(), xs, e.Name)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	return func(f *frame) Value {
		r := x(f)
		if k >= len(r.vs) {
			f.fail(pos, "the value has no field %s", e.Name)
			return Value{}
		}
		return r.vs[k]
	}, nil
}

// fieldInits compiles record field initialisers against record sort s.
func (c *compiler) fieldInits(s *expr.Sort, fs []*expr.FieldInit) ([]int, []fn, error) {
	idx := make([]int, len(fs))
	vals := make([]fn, len(fs))
	for j, fi := range fs {
		if fi == nil {
			return nil, nil, errors.New("malformed field initialiser")
		}
		k, err := fieldIndex(fi.P, s, fi.Name)
		if err != nil {
			return nil, nil, err
		}
		idx[j] = k
		if vals[j], err = c.expr(fi.Value); err != nil {
			return nil, nil, err
		}
	}
	return idx, vals, nil
}

func (c *compiler) recordUpdate(e *expr.RecordUpdate) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	idx, vals, err := c.fieldInits(xs, e.Fields)
	if err != nil {
		return nil, err
	}
	n := len(xs.Fields)
	return func(f *frame) Value {
		r := x(f)
		vs := f.mk(n)
		copy(vs, r.vs)
		for j, k := range idx {
			vs[k] = vals[j](f)
		}
		return Value{vs: vs}
	}, nil
}

func (c *compiler) recordLit(e *expr.RecordLit) (fn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	idx, vals, err := c.fieldInits(s, e.Fields)
	if err != nil {
		return nil, err
	}
	given := make([]bool, len(s.Fields))
	for _, k := range idx {
		given[k] = true
	}
	for k, g := range given {
		if !g {
			return nil, errorf(e.Pos(), "record %s lacks field %s", s.Name, s.Fields[k].Name)
		}
	}
	n := len(s.Fields)
	return func(f *frame) Value {
		vs := f.mk(n)
		for j, k := range idx {
			vs[k] = vals[j](f)
		}
		return Value{vs: vs}
	}, nil
}

func (c *compiler) setLit(e *expr.SetLit) (fn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	if s.Kind != expr.KSet {
		return nil, errorf(e.Pos(), "set literal of sort %s", s)
	}
	empty, err := c.def(e.Pos(), s)
	if err != nil {
		return nil, err
	}
	elems := make([]fn, len(e.Elems))
	for i, x := range e.Elems {
		if elems[i], err = c.expr(x); err != nil {
			return nil, err
		}
	}
	if len(elems) == 0 {
		return konst(empty), nil
	}
	K := s.Elem
	if atomicKey(K) {
		return func(f *frame) Value {
			vs := f.mkZero(len(empty.vs))
			for _, x := range elems {
				vs[x(f).n] = Value{n: 1}
			}
			return Value{vs: vs}
		}, nil
	}
	return func(f *frame) Value {
		t := empty
		for _, x := range elems {
			t = tset(f, K, t, x(f), Value{n: 1})
		}
		return t
	}, nil
}

// callDef compiles a use of definition obj with compiled arguments; recv, if
// not nil, gives the state its body reads its variables from.
func (c *compiler) callDef(pos source.Pos, obj *expr.Object, recv fn, args []fn) (fn, error) {
	if obj.Body == nil {
		return nil, errorf(pos, "definition %s has no body", obj.Name)
	}
	if len(args) != len(obj.Params) {
		return nil, errorf(pos, "%s takes %d arguments, not %d", obj.Name, len(obj.Params), len(args))
	}
	if c.busy[obj] {
		return nil, errorf(pos, "definition %s calls itself", obj.Name)
	}
	c.busy[obj] = true
	defer delete(c.busy, obj)
	slots := make([]int, len(args))
	for i, p := range obj.Params {
		var undo func()
		slots[i], undo = c.bind(p)
		defer undo()
	}
	savedState, savedN := c.stateSlot, c.nstate
	recvSlot := -1
	if recv != nil {
		recvSlot = c.slot()
		c.stateSlot = recvSlot
	}
	body, err := c.expr(obj.Body)
	c.stateSlot, c.nstate = savedState, savedN
	if err != nil {
		return nil, err
	}
	switch {
	case recv == nil && len(args) == 0:
		return body, nil
	case recv == nil && len(args) == 1:
		a0, s0 := args[0], slots[0]
		return func(f *frame) Value {
			f.locals[s0] = a0(f)
			return body(f)
		}, nil
	}
	return func(f *frame) Value {
		if recv != nil {
			f.locals[recvSlot] = recv(f)
		}
		for i, a := range args {
			f.locals[slots[i]] = a(f)
		}
		return body(f)
	}, nil
}
