// This file implements the compiler from sort-checked expressions to
// closures over a frame. Compiling resolves every name to a slot, checks
// everything that can be checked before running (sizes, finite domains,
// constants), and picks specialised code by sort, so that running a closure
// does no lookups by name and no map accesses.
//
// This file holds the compiler, the frame its closures run on, and the
// dispatch on the kind of expression (compiler.expr1) with the cases that
// need no file of their own (literals, if-then-else, let). The other cases
// are in expr_names.go, expr_ops.go, expr_binders.go, expr_index.go and
// expr_calls.go; the optimisations (folding, specialised closures) in
// expr_fold.go. The SMT encoding (internal/encode) and the explorer's
// engine on encodings (package fast) have the same layout: their expr.go
// are this file's twins.

package eval

import (
	"errors"
	"fmt"

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
		return c.ite(e)
	case *expr.Let:
		return c.let(e)
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
		return c.seqLit(e)
	case *expr.BadExpr:
		return nil, errorf(e.Pos(), "cannot evaluate a malformed expression")
	}
	return nil, errorf(e.Pos(), "cannot evaluate expression of type %T", e)
}

// ite compiles if-then-else, which evaluates only the branch taken.
func (c *compiler) ite(e *expr.Ite) (fn, error) {
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
}

// let compiles `let x = v in body` with x in a fresh slot.
func (c *compiler) let(e *expr.Let) (fn, error) {
	val, err := c.expr(e.Value)
	if err != nil {
		return nil, err
	}
	if e.Var == nil {
		return nil, errorf(e.Pos(), "let without a variable")
	}
	return c.letIn(e.Var, val, e.Body)
}

// letIn compiles body with obj bound to the value of val, computed first.
func (c *compiler) letIn(obj *expr.Object, val fn, bodyExpr expr.Expr) (fn, error) {
	s, undo := c.bind(obj)
	body, err := c.expr(bodyExpr)
	undo()
	if err != nil {
		return nil, err
	}
	return func(f *frame) Value {
		f.locals[s] = val(f)
		return body(f)
	}, nil
}
