package logic

import (
	"errors"
	"fmt"
)

// Kind classifies a Term.
type Kind uint8

// The term kinds.
const (
	KindBad    Kind = iota // an ill-formed term; Err says why
	KindConst              // a free symbol (declared constant)
	KindVar                // a bound variable (of a quantifier or lambda)
	KindInt                // an integer literal
	KindBool               // true or false
	KindApp                // an operator applied to arguments
	KindForall             // (forall (vars) body)
	KindExists             // (exists (vars) body)
	KindLambda             // (lambda (vars) body): an array
)

// Op is the operator of a KindApp term.
type Op uint8

// The operators. Their meaning is SMT-LIB's.
const (
	OpNone       Op = iota
	OpNot           // (not a)
	OpAnd           // (and a b ...)
	OpOr            // (or a b ...)
	OpImplies       // (=> a b)
	OpEq            // (= a b); on Bool, equivalence
	OpDistinct      // (distinct a b ...)
	OpIte           // (ite c a b)
	OpAdd           // (+ a b ...)
	OpSub           // (- a b)
	OpNeg           // (- a)
	OpMul           // (* a b ...)
	OpDiv           // (div a b): Euclidean; unspecified when b = 0
	OpMod           // (mod a b): Euclidean; unspecified when b = 0
	OpLt            // (< a b)
	OpLe            // (<= a b)
	OpGt            // (> a b)
	OpGe            // (>= a b)
	OpSelect        // (select a i)
	OpStore         // (store a i v)
	OpConstArray    // ((as const (Array D R)) v)
	OpCtor          // a datatype constructor applied to its fields
	OpIs            // ((_ is C) x): the constructor tester
	OpField         // a datatype field selector applied to a value
)

var opNames = [...]string{
	OpNone: "?", OpNot: "not", OpAnd: "and", OpOr: "or", OpImplies: "=>", OpEq: "=",
	OpDistinct: "distinct", OpIte: "ite", OpAdd: "+", OpSub: "-", OpNeg: "-", OpMul: "*",
	OpDiv: "div", OpMod: "mod", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
	OpSelect: "select", OpStore: "store", OpConstArray: "const", OpCtor: "ctor",
	OpIs: "is", OpField: "field",
}

// String returns the operator's SMT-LIB name (or a descriptive word for
// the datatype operators, whose name is the Term's Name).
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// Term is an immutable sorted term. Build terms with the constructors of
// this package; the zero Term is not valid.
type Term struct {
	kind  Kind
	op    Op
	name  string // constant and variable names; constructor / field names of datatype ops
	sort  *Sort
	args  []*Term
	vars  []*Term   // binders: bound variables (KindVar)
	pats  [][]*Term // quantifier patterns
	ival  int64
	bval  bool
	dt    *Datatype // datatype ops
	ci    int       // constructor index of OpCtor, OpIs, OpField
	fi    int       // field index of OpField
	hash  uint64
	loose []*Term // the bound variables occurring free, sorted by name
	err   error
	// value reports isValue(t); hoists that a constant array over a
	// non-value occurs in t, so that the canonical text names one
	// (hoist.go); lambdas that a lambda occurs in t (HasLambda). All are
	// computed once, by finish.
	value, hoists, lambdas bool
}

// Kind returns the term's kind.
func (t *Term) Kind() Kind { return t.kind }

// Op returns the operator of an application (OpNone otherwise).
func (t *Term) Op() Op { return t.op }

// Name returns the name of a constant or variable, or the constructor or
// field name of a datatype operator application.
func (t *Term) Name() string { return t.name }

// Sort returns the term's sort.
func (t *Term) Sort() *Sort { return t.sort }

// NumArgs returns the number of arguments of an application.
func (t *Term) NumArgs() int { return len(t.args) }

// Arg returns argument i of an application; for binders, Arg(0) is the body.
func (t *Term) Arg(i int) *Term { return t.args[i] }

// Args returns a copy of the arguments.
func (t *Term) Args() []*Term { return append([]*Term(nil), t.args...) }

// Vars returns a copy of a binder's bound variables.
func (t *Term) Vars() []*Term { return append([]*Term(nil), t.vars...) }

// Body returns a binder's body, nil for other terms.
func (t *Term) Body() *Term {
	if t.kind == KindForall || t.kind == KindExists || t.kind == KindLambda {
		return t.args[0]
	}
	return nil
}

// Patterns returns a copy of a quantifier's patterns (multi-patterns).
func (t *Term) Patterns() [][]*Term {
	out := make([][]*Term, len(t.pats))
	for i, p := range t.pats {
		out[i] = append([]*Term(nil), p...)
	}
	return out
}

// Int64 returns the value of an integer literal.
func (t *Term) Int64() int64 { return t.ival }

// BoolValue returns the value of a Boolean literal.
func (t *Term) BoolValue() bool { return t.bval }

// Datatype returns the datatype of a constructor, tester or field application.
func (t *Term) Datatype() *Datatype { return t.dt }

// CtorIndex returns the constructor index of a constructor, tester or field application.
func (t *Term) CtorIndex() int { return t.ci }

// FieldIndex returns the field index of a field application.
func (t *Term) FieldIndex() int { return t.fi }

// Err returns the first error made while building t or any of its
// subterms, or nil if t is well formed.
func (t *Term) Err() error { return t.err }

// Hash returns the term's structural hash: equal terms have equal hashes.
func (t *Term) Hash() uint64 { return t.hash }

// IsClosed reports whether t has no free bound variables.
func (t *Term) IsClosed() bool { return len(t.loose) == 0 }

// IsTrue reports whether t is the literal true.
func (t *Term) IsTrue() bool { return t.kind == KindBool && t.bval }

// IsFalse reports whether t is the literal false.
func (t *Term) IsFalse() bool { return t.kind == KindBool && !t.bval }

// Equal reports whether a and b are structurally equal (bound variables are
// compared by name, so alpha-variants are not Equal).
func Equal(a, b *Term) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.hash != b.hash || a.kind != b.kind || a.op != b.op ||
		a.name != b.name || a.ival != b.ival || a.bval != b.bval || a.ci != b.ci || a.fi != b.fi ||
		len(a.args) != len(b.args) || len(a.vars) != len(b.vars) || len(a.pats) != len(b.pats) ||
		!Same(a.sort, b.sort) {
		return false
	}
	for i := range a.args {
		if !Equal(a.args[i], b.args[i]) {
			return false
		}
	}
	for i := range a.vars {
		if !Equal(a.vars[i], b.vars[i]) {
			return false
		}
	}
	for i := range a.pats {
		if len(a.pats[i]) != len(b.pats[i]) {
			return false
		}
		for j := range a.pats[i] {
			if !Equal(a.pats[i][j], b.pats[i][j]) {
				return false
			}
		}
	}
	return true
}

// finish computes t's hash and loose variables and propagates errors.
func finish(t *Term) *Term {
	h := uint64(fnvOffset)
	h = mix(h, uint64(t.kind)<<8|uint64(t.op))
	h = mixString(h, t.name)
	if t.sort != nil {
		h = mix(h, t.sort.hash)
	}
	h = mix(h, uint64(t.ival))
	if t.bval {
		h = mix(h, 1)
	}
	h = mix(h, uint64(t.ci)<<32|uint64(t.fi))
	for _, a := range t.args {
		h = mix(h, a.hash)
		if t.err == nil && a.err != nil {
			t.err = a.err
		}
	}
	for _, v := range t.vars {
		h = mix(h, v.hash)
	}
	for _, p := range t.pats {
		h = mix(h, uint64(len(p)))
		for _, x := range p {
			h = mix(h, x.hash)
			if t.err == nil && x.err != nil {
				t.err = x.err
			}
		}
	}
	t.hash = h
	t.value, t.hoists = valueAndHoists(t)
	t.lambdas = hasLambdas(t)
	// loose variables
	switch t.kind {
	case KindVar:
		t.loose = []*Term{t}
	case KindApp:
		t.loose = unionVars(t.args)
	case KindForall, KindExists, KindLambda:
		var all []*Term
		all = append(all, t.args...)
		for _, p := range t.pats {
			all = append(all, p...)
		}
		for _, v := range unionVars(all) {
			bound := false
			for _, b := range t.vars {
				if b.name == v.name {
					bound = true
					break
				}
			}
			if !bound {
				t.loose = append(t.loose, v)
			}
		}
	}
	return t
}

// ---- errors ----

func bad(s *Sort, format string, args ...any) *Term {
	if s == nil {
		s = boolSort
	}
	return finish(&Term{kind: KindBad, sort: s, err: fmt.Errorf(format, args...)})
}

// firstErr returns a bad term carrying the first error among ts, or nil.
func firstErr(s *Sort, ts ...*Term) *Term {
	for _, t := range ts {
		if t == nil {
			return bad(s, "nil term")
		}
		if t.err != nil {
			return finish(&Term{kind: KindBad, sort: s, err: t.err})
		}
	}
	return nil
}

// ErrNil is the error of a term built from a nil sort or term.
var ErrNil = errors.New("nil sort or term")

// ---- leaves ----

// Const returns the free symbol name of sort s.
func Const(name string, s *Sort) *Term {
	if s == nil {
		return bad(nil, "constant %s: %v", name, ErrNil)
	}
	if err := CheckName(name); err != nil {
		return bad(s, "constant: %v", err)
	}
	return finish(&Term{kind: KindConst, name: name, sort: s})
}

// Var returns the bound variable name of sort s, for use in a binder built
// with Forall, Exists or Lambda over the same variable.
func Var(name string, s *Sort) *Term {
	if s == nil {
		return bad(nil, "variable %s: %v", name, ErrNil)
	}
	if name == "" {
		return bad(s, "variable with an empty name")
	}
	return finish(&Term{kind: KindVar, name: name, sort: s})
}

// IntVal returns the integer literal v.
func IntVal(v int64) *Term { return finish(&Term{kind: KindInt, sort: intSort, ival: v}) }

// BoolVal returns the literal v.
func BoolVal(v bool) *Term {
	if v {
		return trueTerm
	}
	return falseTerm
}

// trueTerm and falseTerm are the two Boolean literals: terms are immutable,
// so every literal is one of them.
var trueTerm, falseTerm = finish(&Term{kind: KindBool, sort: boolSort, bval: true}), finish(&Term{kind: KindBool, sort: boolSort, bval: false})

// True returns the literal true.
func True() *Term { return BoolVal(true) }

// False returns the literal false.
func False() *Term { return BoolVal(false) }

func app(op Op, s *Sort, args ...*Term) *Term {
	return finish(&Term{kind: KindApp, op: op, sort: s, args: args})
}

func checkAll(op Op, want *Sort, res *Sort, args []*Term) *Term {
	if e := firstErr(res, args...); e != nil {
		return e
	}
	for _, a := range args {
		if !Same(a.sort, want) {
			return bad(res, "%s: argument of sort %s, want %s", op, a.sort, want)
		}
	}
	return nil
}

// ---- Boolean connectives ----

// Not returns (not x).
func Not(x *Term) *Term {
	if e := checkAll(OpNot, boolSort, boolSort, []*Term{x}); e != nil {
		return e
	}
	if x.kind == KindBool {
		return BoolVal(!x.bval)
	}
	if x.op == OpNot {
		return x.args[0]
	}
	return app(OpNot, boolSort, x)
}

// And returns the conjunction of xs (true when empty). Nested conjunctions
// are flattened, true operands dropped, and a false operand gives false.
func And(xs ...*Term) *Term { return junction(OpAnd, xs) }

// Or returns the disjunction of xs (false when empty), simplified like And.
func Or(xs ...*Term) *Term { return junction(OpOr, xs) }

func junction(op Op, xs []*Term) *Term {
	if e := checkAll(op, boolSort, boolSort, xs); e != nil {
		return e
	}
	unit := op == OpAnd // the neutral element
	var out []*Term
	for _, x := range xs {
		if x.kind == KindBool {
			if x.bval == unit {
				continue
			}
			return BoolVal(!unit)
		}
		if x.op == op {
			out = append(out, x.args...)
			continue
		}
		out = append(out, x)
	}
	switch len(out) {
	case 0:
		return BoolVal(unit)
	case 1:
		return out[0]
	}
	return app(op, boolSort, out...)
}

// Implies returns (=> a b).
func Implies(a, b *Term) *Term {
	if e := checkAll(OpImplies, boolSort, boolSort, []*Term{a, b}); e != nil {
		return e
	}
	switch {
	case a.IsTrue():
		return b
	case a.IsFalse(), b.IsTrue():
		return True()
	case b.IsFalse():
		return Not(a)
	}
	return app(OpImplies, boolSort, a, b)
}

// Eq returns (= a b); structurally equal operands give true.
func Eq(a, b *Term) *Term {
	if e := firstErr(boolSort, a, b); e != nil {
		return e
	}
	if !Same(a.sort, b.sort) {
		return bad(boolSort, "=: operands of sorts %s and %s", a.sort, b.sort)
	}
	if Equal(a, b) {
		return True()
	}
	if a.kind == KindBool && b.kind == KindBool {
		return BoolVal(a.bval == b.bval)
	}
	if a.kind == KindInt && b.kind == KindInt {
		return BoolVal(a.ival == b.ival)
	}
	return app(OpEq, boolSort, a, b)
}

// Distinct returns (distinct xs...); fewer than two operands give true.
func Distinct(xs ...*Term) *Term {
	if e := firstErr(boolSort, xs...); e != nil {
		return e
	}
	if len(xs) < 2 {
		return True()
	}
	for _, x := range xs[1:] {
		if !Same(x.sort, xs[0].sort) {
			return bad(boolSort, "distinct: operands of sorts %s and %s", xs[0].sort, x.sort)
		}
	}
	return app(OpDistinct, boolSort, append([]*Term(nil), xs...)...)
}

// Ite returns (ite c a b).
func Ite(c, a, b *Term) *Term {
	var s *Sort
	if a != nil {
		s = a.sort
	}
	if e := firstErr(s, c, a, b); e != nil {
		return e
	}
	if !Same(c.sort, boolSort) {
		return bad(a.sort, "ite: condition of sort %s", c.sort)
	}
	if !Same(a.sort, b.sort) {
		return bad(a.sort, "ite: branches of sorts %s and %s", a.sort, b.sort)
	}
	switch {
	case c.IsTrue():
		return a
	case c.IsFalse():
		return b
	case Equal(a, b):
		return a
	}
	return app(OpIte, a.sort, c, a, b)
}

// ---- arithmetic ----

// Add returns (+ xs...); no operand gives 0 and one gives itself.
func Add(xs ...*Term) *Term {
	if e := checkAll(OpAdd, intSort, intSort, xs); e != nil {
		return e
	}
	switch len(xs) {
	case 0:
		return IntVal(0)
	case 1:
		return xs[0]
	}
	return app(OpAdd, intSort, append([]*Term(nil), xs...)...)
}

// Mul returns (* xs...); no operand gives 1 and one gives itself.
func Mul(xs ...*Term) *Term {
	if e := checkAll(OpMul, intSort, intSort, xs); e != nil {
		return e
	}
	switch len(xs) {
	case 0:
		return IntVal(1)
	case 1:
		return xs[0]
	}
	return app(OpMul, intSort, append([]*Term(nil), xs...)...)
}

func arith2(op Op, res *Sort, a, b *Term) *Term {
	if e := checkAll(op, intSort, res, []*Term{a, b}); e != nil {
		return e
	}
	return app(op, res, a, b)
}

// Sub returns (- a b).
func Sub(a, b *Term) *Term { return arith2(OpSub, intSort, a, b) }

// Neg returns (- a).
func Neg(a *Term) *Term {
	if e := checkAll(OpNeg, intSort, intSort, []*Term{a}); e != nil {
		return e
	}
	return app(OpNeg, intSort, a)
}

// Div returns SMT-LIB's (div a b): unspecified when b is 0.
func Div(a, b *Term) *Term { return arith2(OpDiv, intSort, a, b) }

// Mod returns SMT-LIB's (mod a b): unspecified when b is 0.
func Mod(a, b *Term) *Term { return arith2(OpMod, intSort, a, b) }

// Lt returns (< a b).
func Lt(a, b *Term) *Term { return arith2(OpLt, boolSort, a, b) }

// Le returns (<= a b).
func Le(a, b *Term) *Term { return arith2(OpLe, boolSort, a, b) }

// Gt returns (> a b).
func Gt(a, b *Term) *Term { return arith2(OpGt, boolSort, a, b) }

// Ge returns (>= a b).
func Ge(a, b *Term) *Term { return arith2(OpGe, boolSort, a, b) }

// ---- arrays ----

// Select returns (select a i).
func Select(a, i *Term) *Term {
	if a == nil || a.sort == nil || a.sort.kind != SortArray {
		if e := firstErr(nil, a, i); e != nil {
			return e
		}
		return bad(nil, "select from a non-array of sort %s", a.sort)
	}
	if e := firstErr(a.sort.rng, a, i); e != nil {
		return e
	}
	if !Same(i.sort, a.sort.dom) {
		return bad(a.sort.rng, "select: index of sort %s, want %s", i.sort, a.sort.dom)
	}
	return app(OpSelect, a.sort.rng, a, i)
}

// Store returns (store a i v).
func Store(a, i, v *Term) *Term {
	if a == nil || a.sort == nil || a.sort.kind != SortArray {
		if e := firstErr(nil, a, i, v); e != nil {
			return e
		}
		return bad(nil, "store into a non-array of sort %s", a.sort)
	}
	if e := firstErr(a.sort, a, i, v); e != nil {
		return e
	}
	if !Same(i.sort, a.sort.dom) || !Same(v.sort, a.sort.rng) {
		return bad(a.sort, "store: index %s and value %s into %s", i.sort, v.sort, a.sort)
	}
	return app(OpStore, a.sort, a, i, v)
}

// ConstArray returns the array of sort (Array dom (sort v)) mapping every
// index to v.
func ConstArray(dom *Sort, v *Term) *Term {
	if dom == nil {
		return bad(nil, "const array: %v", ErrNil)
	}
	if e := firstErr(nil, v); e != nil {
		return e
	}
	return app(OpConstArray, ArraySort(dom, v.sort), v)
}

// ---- datatypes ----

// Ctor returns constructor ci of dt applied to args.
func Ctor(dt *Datatype, ci int, args ...*Term) *Term {
	if dt == nil || ci < 0 || ci >= len(dt.ctors) {
		return bad(nil, "constructor %d of a datatype that does not have it", ci)
	}
	s := DatatypeSort(dt)
	if e := firstErr(s, args...); e != nil {
		return e
	}
	c := dt.ctors[ci]
	if len(args) != len(c.Fields) {
		return bad(s, "%s: %d arguments, want %d", c.Name, len(args), len(c.Fields))
	}
	for i, a := range args {
		if !Same(a.sort, c.Fields[i].Sort) {
			return bad(s, "%s: argument %d of sort %s, want %s", c.Name, i, a.sort, c.Fields[i].Sort)
		}
	}
	t := &Term{kind: KindApp, op: OpCtor, name: c.Name, sort: s, args: append([]*Term(nil), args...), dt: dt, ci: ci}
	return finish(t)
}

func checkDT(what string, dt *Datatype, ci int, x *Term, res *Sort) *Term {
	if dt == nil || ci < 0 || ci >= len(dt.ctors) {
		return bad(res, "%s: constructor %d of a datatype that does not have it", what, ci)
	}
	if e := firstErr(res, x); e != nil {
		return e
	}
	if x.sort.kind != SortDatatype || x.sort.name != dt.name {
		return bad(res, "%s: operand of sort %s, want %s", what, x.sort, dt.name)
	}
	return nil
}

// Is returns ((_ is C) x) for constructor ci of dt.
func Is(dt *Datatype, ci int, x *Term) *Term {
	if e := checkDT("is", dt, ci, x, boolSort); e != nil {
		return e
	}
	if x.op == OpCtor {
		return BoolVal(x.ci == ci)
	}
	return finish(&Term{kind: KindApp, op: OpIs, name: dt.ctors[ci].Name, sort: boolSort, args: []*Term{x}, dt: dt, ci: ci})
}

// Access returns field fi of constructor ci of dt applied to x. Applied to a
// value built by another constructor it is unspecified, as in SMT-LIB.
func Access(dt *Datatype, ci, fi int, x *Term) *Term {
	if dt == nil || ci < 0 || ci >= len(dt.ctors) || fi < 0 || fi >= len(dt.ctors[ci].Fields) {
		return bad(nil, "field %d.%d of a datatype that does not have it", ci, fi)
	}
	f := dt.ctors[ci].Fields[fi]
	if e := checkDT("field "+f.Name, dt, ci, x, f.Sort); e != nil {
		return e
	}
	if x.op == OpCtor && x.ci == ci {
		return x.args[fi]
	}
	return finish(&Term{kind: KindApp, op: OpField, name: f.Name, sort: f.Sort, args: []*Term{x}, dt: dt, ci: ci, fi: fi})
}

// ---- binders ----

func binder(kind Kind, vars []*Term, body *Term, pats [][]*Term) *Term {
	res := boolSort
	if kind == KindLambda && body != nil && len(vars) == 1 && vars[0] != nil {
		res = ArraySort(vars[0].sort, body.sort)
	}
	if e := firstErr(res, append(append([]*Term(nil), vars...), body)...); e != nil {
		return e
	}
	if len(vars) == 0 {
		return bad(res, "binder without variables")
	}
	seen := map[string]bool{}
	for _, v := range vars {
		if v.kind != KindVar {
			return bad(res, "binder over a non-variable %s", v.name)
		}
		if seen[v.name] {
			return bad(res, "binder binds %s twice", v.name)
		}
		seen[v.name] = true
	}
	if kind != KindLambda && !Same(body.sort, boolSort) {
		return bad(res, "quantifier body of sort %s", body.sort)
	}
	if kind == KindLambda && len(vars) != 1 {
		return bad(res, "lambda binds %d variables; only one is supported", len(vars))
	}
	for _, p := range pats {
		if len(p) == 0 {
			return bad(res, "empty pattern")
		}
		for _, x := range p {
			if x == nil {
				return bad(res, "nil pattern term")
			}
			if x.kind != KindApp {
				return bad(res, "pattern term must be an application")
			}
		}
		covered := unionVars(p)
		for _, v := range vars {
			found := false
			for _, c := range covered {
				if c.name == v.name {
					found = true
					break
				}
			}
			if !found {
				return bad(res, "pattern does not mention bound variable %s", v.name)
			}
		}
	}
	if kind != KindLambda && body.kind == KindBool {
		return body // (forall x. true) = true; the sorts are non-empty
	}
	var cp [][]*Term
	for _, p := range pats {
		cp = append(cp, append([]*Term(nil), p...))
	}
	return finish(&Term{kind: kind, sort: res, vars: append([]*Term(nil), vars...), args: []*Term{body}, pats: cp})
}

// Forall returns (forall (vars) body) with optional multi-patterns.
func Forall(vars []*Term, body *Term, patterns ...[]*Term) *Term {
	return binder(KindForall, vars, body, patterns)
}

// Exists returns (exists (vars) body) with optional multi-patterns.
func Exists(vars []*Term, body *Term, patterns ...[]*Term) *Term {
	return binder(KindExists, vars, body, patterns)
}

// Lambda returns (lambda ((v S)) body), the array of sort (Array S (sort body)).
func Lambda(v *Term, body *Term) *Term {
	return binder(KindLambda, []*Term{v}, body, nil)
}
