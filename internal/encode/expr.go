// This file implements the Encoder, the environment of an expression and
// the dispatch on the kind of expression (Encoder.expr) with the cases that
// need no file of their own (literals, if-then-else, let). The other cases
// are in expr_names.go, expr_ops.go, expr_binders.go, expr_index.go and
// expr_calls.go. The reference evaluator (ioa/eval) and the explorer's
// engine on encodings (ioa/eval/fast) have the same layout: their expr.go
// are this file's twins.

package encode

import (
	"fmt"

	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa/expr"
)

// Encoder translates sort-checked expressions and automata into logic
// terms. It owns the datatypes it declares, the symbols it creates and the
// background facts about them (see Problem). An Encoder is not safe for
// concurrent use; use one per obligation or per worker.
type Encoder struct {
	dts      map[string]*logic.Datatype
	enums    map[*expr.Sort]*logic.Datatype // enumDatatype's answers: every enum constant asks
	declared map[string][]*expr.Sort        // enum and record sorts by name, in registration order
	elems    map[string]map[int]bool        // T#i constants used, by sort name
	consts   map[*expr.Object]Value         // declared constants: values or symbols
	busy     map[*expr.Object]bool          // definitions and constants being expanded
	facts    []fact                         // background facts about fresh symbols
	symbols  map[string]*logic.Term         // fresh symbols by name, to reject reuse
	usorts   map[string]*logic.Sort         // the uninterpreted sorts of parameter sorts, by name
	n        int                            // counter for fresh names
}

// usort returns the uninterpreted sort called name, made once per Encoder.
func (e *Encoder) usort(name string) *logic.Sort {
	s, ok := e.usorts[name]
	if !ok {
		s = logic.UninterpretedSort(name)
		e.usorts[name] = s
	}
	return s
}

// fact is a background fact about fresh symbols; it is asserted by Problem
// when the problem mentions one of them.
type fact struct {
	name  string
	about []string // the symbols it constrains
	term  *logic.Term
}

// New returns an empty Encoder.
func New() *Encoder {
	return &Encoder{
		dts:      map[string]*logic.Datatype{},
		enums:    map[*expr.Sort]*logic.Datatype{},
		declared: map[string][]*expr.Sort{},
		elems:    map[string]map[int]bool{},
		consts:   map[*expr.Object]Value{},
		busy:     map[*expr.Object]bool{},
		symbols:  map[string]*logic.Term{},
		usorts:   map[string]*logic.Sort{},
	}
}

// Env gives the meaning of the free names of an expression.
type Env struct {
	// State is the state that bare state variables (ObjVar) and
	// unqualified definitions read.
	State *State
	// Params are the values of the action parameters (ObjParam, by Index).
	Params []Value
	// States maps whole-state objects (ObjState: `c`, `a` in proof files)
	// to states.
	States map[*expr.Object]*State
	// Vars gives values to bound objects (ObjBound) free in the expression.
	Vars map[*expr.Object]Value
}

// with returns a copy of env with obj bound to v.
func (env *Env) with(obj *expr.Object, v Value) *Env {
	n := *env
	n.Vars = make(map[*expr.Object]Value, len(env.Vars)+1)
	for k, x := range env.Vars {
		n.Vars[k] = x
	}
	n.Vars[obj] = v
	return &n
}

func errAt(pos source.Pos, format string, args ...any) error {
	return &source.Error{Pos: pos, Code: source.ErrModel, Msg: fmt.Sprintf(format, args...)}
}

// Expr encodes the sort-checked expression x in env.
func (e *Encoder) Expr(x expr.Expr, env *Env) (Value, error) {
	if env == nil {
		env = &Env{}
	}
	v, err := e.expr(x, env)
	if err != nil {
		return Value{}, err
	}
	if err := v.err(); err != nil {
		return Value{}, errAt(x.Pos(), "internal encoding error: %v", err)
	}
	return v, nil
}

// Formula encodes the Bool expression x in env.
func (e *Encoder) Formula(x expr.Expr, env *Env) (*logic.Term, error) {
	if x == nil {
		return logic.True(), nil
	}
	if s := x.Sort(); s == nil || s.Kind != expr.KBool {
		return nil, errAt(x.Pos(), "not a formula: sort %s", x.Sort())
	}
	v, err := e.Expr(x, env)
	if err != nil {
		return nil, err
	}
	return v.leaf, nil
}

func (e *Encoder) expr(x expr.Expr, env *Env) (Value, error) {
	if x == nil {
		return Value{}, fmt.Errorf("missing expression")
	}
	s := x.Sort()
	if s.IsInvalid() {
		return Value{}, errAt(x.Pos(), "cannot encode an ill-sorted expression")
	}
	switch x := x.(type) {
	case *expr.IntLit:
		return leafValue(s, logic.IntVal(x.Value)), nil
	case *expr.BoolLit:
		return leafValue(s, logic.BoolVal(x.Value)), nil
	case *expr.ElemLit:
		return e.elemLit(x)
	case *expr.Ident:
		return e.ident(x, env)
	case *expr.Unary:
		return e.unary(x, env)
	case *expr.Binary:
		return e.binary(x, env)
	case *expr.Ite:
		return e.ite(x, env)
	case *expr.Let:
		return e.let(x, env)
	case *expr.Quant:
		return e.quant(x, env)
	case *expr.Lambda:
		return e.lambda(x, env)
	case *expr.Call:
		return e.call(x, env)
	case *expr.Index:
		return e.index(x, env)
	case *expr.Update:
		return e.update(x, env)
	case *expr.FieldSel:
		return e.fieldSel(x, env)
	case *expr.RecordUpdate:
		return e.recordUpdate(x, env)
	case *expr.RecordLit:
		return e.recordLit(x, env)
	case *expr.SetLit:
		return e.setLit(x, env)
	case *expr.SeqLit:
		return e.seqLit(x, env)
	case *expr.BadExpr:
		return Value{}, errAt(x.Pos(), "cannot encode a malformed expression")
	}
	return Value{}, errAt(x.Pos(), "cannot encode expression of type %T", x)
}

// ite encodes if-then-else as an ite on every part.
func (e *Encoder) ite(x *expr.Ite, env *Env) (Value, error) {
	s := x.Sort()
	c, err := e.expr(x.Cond, env)
	if err != nil {
		return Value{}, err
	}
	a, err := e.expr(x.Then, env)
	if err != nil {
		return Value{}, err
	}
	b, err := e.expr(x.Else, env)
	if err != nil {
		return Value{}, err
	}
	return ite(c.leaf, withSort(a, s), withSort(b, s)), nil
}

// let encodes `let x = v in body` with x bound to the encoding of v.
func (e *Encoder) let(x *expr.Let, env *Env) (Value, error) {
	v, err := e.expr(x.Value, env)
	if err != nil {
		return Value{}, err
	}
	if x.Var == nil {
		return Value{}, errAt(x.Pos(), "let without a variable")
	}
	return e.expr(x.Body, env.with(x.Var, v))
}

// withSort relabels v with sort s (Nat and Int values share a
// representation, as do values of Assignable sorts).
func withSort(v Value, s *expr.Sort) Value {
	if s == nil || v.sort == s {
		return v
	}
	if v.leaf != nil {
		return leafValue(s, v.leaf)
	}
	ps := partSorts(s)
	if len(ps) != len(v.parts) {
		return v
	}
	parts := make([]Value, len(v.parts))
	for i, p := range v.parts {
		parts[i] = withSort(p, ps[i])
	}
	return Value{sort: s, parts: parts}
}
