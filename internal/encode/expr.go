package encode

import (
	"fmt"
	"strconv"

	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// Encoder translates sort-checked expressions and automata into logic
// terms. It owns the datatypes it declares, the symbols it creates and the
// background facts about them (see Problem). An Encoder is not safe for
// concurrent use; use one per obligation or per worker.
type Encoder struct {
	dts      map[string]*logic.Datatype
	declared map[string][]*expr.Sort // enum and record sorts by name, in registration order
	elems    map[string]map[int]bool // T#i constants used, by sort name
	consts   map[*expr.Object]Value  // declared constants: values or symbols
	busy     map[*expr.Object]bool   // definitions and constants being expanded
	facts    []fact                  // background facts about fresh symbols
	symbols  map[string]*logic.Term  // fresh symbols by name, to reject reuse
	n        int                     // counter for fresh names
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
		declared: map[string][]*expr.Sort{},
		elems:    map[string]map[int]bool{},
		consts:   map[*expr.Object]Value{},
		busy:     map[*expr.Object]bool{},
		symbols:  map[string]*logic.Term{},
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
		if x.Index < 0 {
			return Value{}, errAt(x.Pos(), "negative element index")
		}
		return leafValue(s, e.elem(x.SortName, x.Index)), nil
	case *expr.Ident:
		return e.ident(x, env)
	case *expr.Unary:
		a, err := e.expr(x.X, env)
		if err != nil {
			return Value{}, err
		}
		switch x.Op {
		case expr.OpNot:
			return leafValue(s, logic.Not(a.leaf)), nil
		case expr.OpNeg:
			return leafValue(s, logic.Neg(a.leaf)), nil
		}
		return Value{}, errAt(x.Pos(), "unknown unary operator %s", x.Op)
	case *expr.Binary:
		return e.binary(x, env)
	case *expr.Ite:
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
	case *expr.Let:
		v, err := e.expr(x.Value, env)
		if err != nil {
			return Value{}, err
		}
		if x.Var == nil {
			return Value{}, errAt(x.Pos(), "let without a variable")
		}
		return e.expr(x.Body, env.with(x.Var, v))
	case *expr.Quant:
		return e.quant(x, env)
	case *expr.Lambda:
		return e.lambda(x, env)
	case *expr.Call:
		return e.call(x, env)
	case *expr.Index:
		m, err := e.expr(x.X, env)
		if err != nil {
			return Value{}, err
		}
		i, err := e.expr(x.Index, env)
		if err != nil {
			return Value{}, err
		}
		switch m.sort.Kind {
		case expr.KMap:
			return e.mapSelect(m, i)
		case expr.KSeq:
			return e.seqIndex(m, i)
		}
		return Value{}, errAt(x.Pos(), "cannot index a value of sort %s", m.sort)
	case *expr.Update:
		m, err := e.expr(x.X, env)
		if err != nil {
			return Value{}, err
		}
		i, err := e.expr(x.Index, env)
		if err != nil {
			return Value{}, err
		}
		v, err := e.expr(x.Value, env)
		if err != nil {
			return Value{}, err
		}
		return e.update(x.Pos(), m, i, v)
	case *expr.FieldSel:
		r, err := e.expr(x.X, env)
		if err != nil {
			return Value{}, err
		}
		return fieldOf(x.Pos(), r, x.Name)
	case *expr.RecordUpdate:
		r, err := e.expr(x.X, env)
		if err != nil {
			return Value{}, err
		}
		parts := r.Parts()
		for _, fi := range x.Fields {
			k := r.sort.FieldIndex(fi.Name)
			if k < 0 || k >= len(parts) {
				return Value{}, errAt(fi.P, "%s has no field %s", r.sort, fi.Name)
			}
			v, err := e.expr(fi.Value, env)
			if err != nil {
				return Value{}, err
			}
			parts[k] = withSort(v, r.sort.Fields[k].Sort)
		}
		return Value{sort: r.sort, parts: parts}, nil
	case *expr.RecordLit:
		if s.Kind != expr.KRecord {
			return Value{}, errAt(x.Pos(), "record literal of sort %s", s)
		}
		parts := make([]Value, len(s.Fields))
		given := make([]bool, len(s.Fields))
		for _, fi := range x.Fields {
			k := s.FieldIndex(fi.Name)
			if k < 0 {
				return Value{}, errAt(fi.P, "%s has no field %s", s, fi.Name)
			}
			v, err := e.expr(fi.Value, env)
			if err != nil {
				return Value{}, err
			}
			parts[k], given[k] = withSort(v, s.Fields[k].Sort), true
		}
		for k, g := range given {
			if !g {
				return Value{}, errAt(x.Pos(), "record %s lacks field %s", s.Name, s.Fields[k].Name)
			}
		}
		return Value{sort: s, parts: parts}, nil
	case *expr.SetLit:
		if s.Kind != expr.KSet {
			return Value{}, errAt(x.Pos(), "set literal of sort %s", s)
		}
		set, err := e.Default(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		t := set.leaf
		for _, el := range x.Elems {
			v, err := e.expr(el, env)
			if err != nil {
				return Value{}, err
			}
			pv, err := e.Pack(v)
			if err != nil {
				return Value{}, errAt(el.Pos(), "%v", err)
			}
			t = logic.Store(t, pv, logic.True())
		}
		return leafValue(s, t), nil
	case *expr.SeqLit:
		if s.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "sequence literal of sort %s", s)
		}
		q, err := e.Default(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		elems := q.parts[1]
		for i, el := range x.Elems {
			v, err := e.expr(el, env)
			if err != nil {
				return Value{}, err
			}
			if elems, err = e.mapStore(elems, leafValue(expr.IntSort, logic.IntVal(int64(i))), withSort(v, s.Elem)); err != nil {
				return Value{}, errAt(el.Pos(), "%v", err)
			}
		}
		return Value{sort: s, parts: []Value{leafValue(expr.IntSort, logic.IntVal(int64(len(x.Elems)))), elems}}, nil
	case *expr.BadExpr:
		return Value{}, errAt(x.Pos(), "cannot encode a malformed expression")
	}
	return Value{}, errAt(x.Pos(), "cannot encode expression of type %T", x)
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

func fieldOf(pos source.Pos, r Value, name string) (Value, error) {
	if r.sort.Kind != expr.KRecord {
		return Value{}, errAt(pos, "%s is not a record, it has no field %s", r.sort, name)
	}
	k := r.sort.FieldIndex(name)
	if k < 0 || k >= len(r.parts) {
		return Value{}, errAt(pos, "%s has no field %s", r.sort, name)
	}
	return r.parts[k], nil
}

func (e *Encoder) update(pos source.Pos, m, i, v Value) (Value, error) {
	switch m.sort.Kind {
	case expr.KMap:
		return e.mapStore(m, i, withSort(v, m.sort.Elem))
	case expr.KSeq:
		return e.seqUpdate(m, i, withSort(v, m.sort.Elem))
	}
	return Value{}, errAt(pos, "cannot update a value of sort %s", m.sort)
}

func (e *Encoder) ident(x *expr.Ident, env *Env) (Value, error) {
	s := x.Sort()
	obj := x.Obj
	if obj == nil {
		if x.Name == "None" {
			return e.Default(s) // None is the default Option
		}
		return Value{}, errAt(x.Pos(), "unresolved name %s", x.Name)
	}
	switch obj.Kind {
	case expr.ObjVar:
		st := env.State
		if st == nil {
			return Value{}, errAt(x.Pos(), "no state in which to encode variable %s", obj.Name)
		}
		if a, ok := obj.Owner.(*ioa.Automaton); ok && a != nil && st.Automaton != nil && a != st.Automaton {
			return Value{}, errAt(x.Pos(), "variable %s of %s read in a state of %s", obj.Name, a.Name, st.Automaton.Name)
		}
		if obj.Index < 0 || obj.Index >= len(st.Vars) {
			return Value{}, errAt(x.Pos(), "the state has no variable %s", obj.Name)
		}
		return st.Vars[obj.Index], nil
	case expr.ObjParam:
		if obj.Index < 0 || obj.Index >= len(env.Params) {
			return Value{}, errAt(x.Pos(), "no value for parameter %s", obj.Name)
		}
		return withSort(env.Params[obj.Index], s), nil
	case expr.ObjBound:
		v, ok := env.Vars[obj]
		if !ok {
			return Value{}, errAt(x.Pos(), "no value for %s", obj.Name)
		}
		return v, nil
	case expr.ObjState:
		st, ok := env.States[obj]
		if !ok || st == nil {
			return Value{}, errAt(x.Pos(), "no state for %s", obj.Name)
		}
		return st.Value(), nil
	case expr.ObjConst:
		return e.constant(x.Pos(), obj)
	case expr.ObjEnum:
		if s.Kind != expr.KEnum {
			return Value{}, errAt(x.Pos(), "enum constant %s of sort %s", obj.Name, s)
		}
		dt, err := e.enumDatatype(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		if obj.Index < 0 || obj.Index >= dt.NumConstructors() {
			return Value{}, errAt(x.Pos(), "enum constant %s has no index", obj.Name)
		}
		return leafValue(s, logic.Ctor(dt, obj.Index)), nil
	case expr.ObjDef:
		return e.callDef(x.Pos(), obj, nil, nil, env)
	case expr.ObjBuiltin:
		if obj.Name == "None" {
			return e.Default(s)
		}
		return Value{}, errAt(x.Pos(), "built-in %s used as a value", obj.Name)
	}
	return Value{}, errAt(x.Pos(), "%s is not a value", obj.Name)
}

// Constant returns the encoding of the declared constant obj (ObjConst):
// its defining expression, or the symbol standing for it.
func (e *Encoder) Constant(obj *expr.Object) (Value, error) {
	if obj == nil || obj.Kind != expr.ObjConst {
		return Value{}, fmt.Errorf("Constant: not a constant")
	}
	return e.constant(obj.Pos, obj)
}

// constant returns a declared constant: the encoding of its defining
// expression, or a fresh symbol named Automaton::name (with background
// facts: well-formedness and Nat).
func (e *Encoder) constant(pos source.Pos, obj *expr.Object) (Value, error) {
	if v, ok := e.consts[obj]; ok {
		return v, nil
	}
	if e.busy[obj] {
		return Value{}, errAt(pos, "constant %s is defined in terms of itself", obj.Name)
	}
	e.busy[obj] = true
	defer delete(e.busy, obj)
	var v Value
	var err error
	if obj.Body != nil {
		v, err = e.expr(obj.Body, &Env{})
		v = withSort(v, obj.Sort)
	} else {
		owner := ""
		if a, ok := obj.Owner.(*ioa.Automaton); ok && a != nil {
			owner = a.Name + "::"
		}
		v, err = e.freshSymbols(obj.Sort, owner+obj.Name, true)
	}
	if err != nil {
		return Value{}, err
	}
	e.consts[obj] = v
	return v, nil
}

// freshSymbols returns a value of fresh constants called name (flattened
// parts get suffixes) and records its background facts: structural
// well-formedness, and the Nat facts when nat is set.
func (e *Encoder) freshSymbols(s *expr.Sort, name string, nat bool) (Value, error) {
	var clash error
	v, err := e.fresh(s, name, func(n string, ls *logic.Sort) *logic.Term {
		if _, ok := e.symbols[n]; ok && clash == nil {
			clash = fmt.Errorf("symbol %s is already used", n)
		}
		c := logic.Const(n, ls)
		e.symbols[n] = c
		return c
	})
	if err != nil {
		return Value{}, err
	}
	if clash != nil {
		return Value{}, clash
	}
	var about []string
	for _, l := range v.Leaves() {
		about = append(about, l.Name())
	}
	wf, err := e.wellFormed(v)
	if err != nil {
		return Value{}, err
	}
	if !wf.IsTrue() {
		e.facts = append(e.facts, fact{name: "wf(" + name + ")", about: about, term: wf})
	}
	if nat {
		nf, err := e.natFacts(v)
		if err != nil {
			return Value{}, err
		}
		if !nf.IsTrue() {
			e.facts = append(e.facts, fact{name: "nat(" + name + ")", about: about, term: nf})
		}
	}
	return v, nil
}

func (e *Encoder) binary(x *expr.Binary, env *Env) (Value, error) {
	if x.Op == expr.OpAnd || x.Op == expr.OpOr {
		return e.junction(x, env)
	}
	s := x.Sort()
	a, err := e.expr(x.X, env)
	if err != nil {
		return Value{}, err
	}
	b, err := e.expr(x.Y, env)
	if err != nil {
		return Value{}, err
	}
	bool2 := func(t *logic.Term) (Value, error) { return leafValue(s, t), nil }
	switch x.Op {
	case expr.OpAnd:
		return bool2(logic.And(a.leaf, b.leaf))
	case expr.OpOr:
		return bool2(logic.Or(a.leaf, b.leaf))
	case expr.OpImplies:
		return bool2(logic.Implies(a.leaf, b.leaf))
	case expr.OpIff:
		return bool2(logic.Eq(a.leaf, b.leaf))
	case expr.OpEq:
		return bool2(Eq(a, b))
	case expr.OpNeq:
		return bool2(logic.Not(Eq(a, b)))
	case expr.OpLt:
		return bool2(logic.Lt(a.leaf, b.leaf))
	case expr.OpLe:
		return bool2(logic.Le(a.leaf, b.leaf))
	case expr.OpGt:
		return bool2(logic.Gt(a.leaf, b.leaf))
	case expr.OpGe:
		return bool2(logic.Ge(a.leaf, b.leaf))
	case expr.OpAdd:
		return bool2(logic.Add(a.leaf, b.leaf))
	case expr.OpSub:
		return bool2(logic.Sub(a.leaf, b.leaf))
	case expr.OpMul:
		return bool2(logic.Mul(a.leaf, b.leaf))
	case expr.OpDiv:
		return bool2(Div(a.leaf, b.leaf))
	case expr.OpMod:
		return bool2(Mod(a.leaf, b.leaf))
	case expr.OpIn, expr.OpNotIn:
		if b.sort.Kind != expr.KSet {
			return Value{}, errAt(x.Pos(), "%s needs a set on its right, not %s", x.Op, b.sort)
		}
		pa, err := e.Pack(a)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		t := logic.Select(b.leaf, pa)
		if x.Op == expr.OpNotIn {
			t = logic.Not(t)
		}
		return bool2(t)
	case expr.OpUnion, expr.OpInter, expr.OpDiff:
		if a.sort.Kind != expr.KSet {
			return Value{}, errAt(x.Pos(), "%s needs sets, not %s", x.Op, a.sort)
		}
		kv, err := e.keyVar(a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		p, q := logic.Select(a.leaf, kv), logic.Select(b.leaf, kv)
		var body *logic.Term
		switch x.Op {
		case expr.OpUnion:
			body = logic.Or(p, q)
		case expr.OpInter:
			body = logic.And(p, q)
		default:
			body = logic.And(p, logic.Not(q))
		}
		return leafValue(s, logic.Lambda(kv, body)), nil
	case expr.OpSubset:
		return e.subset(x, a, b)
	}
	return Value{}, errAt(x.Pos(), "unknown binary operator %s", x.Op)
}

// Div returns the language's total division: 0 when b = 0, SMT-LIB's
// Euclidean div otherwise.
func Div(a, b *logic.Term) *logic.Term {
	if b.Kind() == logic.KindInt && b.Int64() != 0 {
		return logic.Div(a, b)
	}
	return logic.Ite(logic.Eq(b, logic.IntVal(0)), logic.IntVal(0), logic.Div(a, b))
}

// Mod returns the language's total remainder: a when b = 0, SMT-LIB's
// Euclidean mod otherwise.
func Mod(a, b *logic.Term) *logic.Term {
	if b.Kind() == logic.KindInt && b.Int64() != 0 {
		return logic.Mod(a, b)
	}
	return logic.Ite(logic.Eq(b, logic.IntVal(0)), a, logic.Mod(a, b))
}

// keyVar returns a fresh bound variable of K's packed sort.
func (e *Encoder) keyVar(K *expr.Sort) (*logic.Term, error) {
	if err := checkKey(K); err != nil {
		return nil, err
	}
	ks, err := e.packedSort(K)
	if err != nil {
		return nil, err
	}
	e.n++
	return logic.Var("k!"+strconv.Itoa(e.n), ks), nil
}

// subset encodes `a subset b`: set inclusion, or agreement of a partial map
// with a total map or another partial map, as a quantified formula.
func (e *Encoder) subset(x *expr.Binary, a, b Value) (Value, error) {
	as, bs := a.sort, b.sort
	switch {
	case as.Kind == expr.KSet && bs.Kind == expr.KSet:
		t, err := e.forallKey(as.Elem, func(k Value) (*logic.Term, error) {
			pk, err := e.Pack(k)
			if err != nil {
				return nil, err
			}
			return logic.Implies(logic.Select(a.leaf, pk), logic.Select(b.leaf, pk)), nil
		})
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(x.Sort(), t), nil
	case as.Kind == expr.KMap && as.Elem.Kind == expr.KOption && bs.Kind == expr.KMap:
		dt, err := e.optionDatatype(as.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		partial := bs.Elem.Kind == expr.KOption && expr.Identical(as.Elem.Elem, bs.Elem.Elem)
		t, err := e.forallKey(as.Key, func(k Value) (*logic.Term, error) {
			p, err := e.mapSelect(a, k)
			if err != nil {
				return nil, err
			}
			q, err := e.mapSelect(b, k)
			if err != nil {
				return nil, err
			}
			if partial {
				// p[k] = None or p[k] = q[k]
				return logic.Implies(logic.Is(dt, 1, p.leaf), Eq(p, q)), nil
			}
			pq, err := e.Pack(q)
			if err != nil {
				return nil, err
			}
			return logic.Implies(logic.Is(dt, 1, p.leaf), logic.Eq(logic.Access(dt, 1, 0, p.leaf), pq)), nil
		})
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(x.Sort(), t), nil
	}
	return Value{}, errAt(x.Pos(), "subset needs two sets or a partial map and a map, not %s and %s", as, bs)
}

// binderValue returns a value of bound variables for a sort binder, its
// variables and its domain condition (well-formedness and Nat).
func (e *Encoder) binderValue(s *expr.Sort, name string) (Value, []*logic.Term, *logic.Term, error) {
	v, err := e.freshVar(s, name)
	if err != nil {
		return Value{}, nil, nil, err
	}
	wf, err := e.wellFormed(v)
	if err != nil {
		return Value{}, nil, nil, err
	}
	nf, err := e.natFacts(v)
	if err != nil {
		return Value{}, nil, nil, err
	}
	return v, v.Leaves(), logic.And(wf, nf), nil
}

func (e *Encoder) quant(x *expr.Quant, env *Env) (Value, error) {
	var vars, guards []*logic.Term
	for _, b := range x.Binders {
		if b == nil || b.Var == nil {
			return Value{}, errAt(x.Pos(), "malformed binder")
		}
		if b.Lo != nil || b.Hi != nil {
			if b.Lo == nil || b.Hi == nil {
				return Value{}, errAt(b.P, "malformed range binder %s", b.Var.Name)
			}
			lo, err := e.expr(b.Lo, env)
			if err != nil {
				return Value{}, err
			}
			hi, err := e.expr(b.Hi, env)
			if err != nil {
				return Value{}, err
			}
			e.n++
			v := logic.Var(b.Var.Name+"!"+strconv.Itoa(e.n), logic.IntSort())
			vars = append(vars, v)
			guards = append(guards, logic.Le(lo.leaf, v), logic.Lt(v, hi.leaf))
			env = env.with(b.Var, leafValue(expr.IntSort, v))
			continue
		}
		v, vs, guard, err := e.binderValue(b.Var.Sort, b.Var.Name)
		if err != nil {
			return Value{}, errAt(b.P, "%v", err)
		}
		vars = append(vars, vs...)
		guards = append(guards, guard)
		env = env.with(b.Var, v)
	}
	body, err := e.expr(x.Body, env)
	if err != nil {
		return Value{}, err
	}
	if x.Forall {
		return leafValue(x.Sort(), logic.Forall(vars, logic.Implies(logic.And(guards...), body.leaf))), nil
	}
	return leafValue(x.Sort(), logic.Exists(vars, logic.And(append(guards, body.leaf)...))), nil
}

func (e *Encoder) lambda(x *expr.Lambda, env *Env) (Value, error) {
	b := x.Binder
	if b == nil || b.Var == nil {
		return Value{}, errAt(x.Pos(), "malformed lambda")
	}
	if b.Lo != nil || b.Hi != nil {
		return Value{}, errAt(x.Pos(), "a lambda cannot bind an integer range")
	}
	K := b.Var.Sort
	kv, err := e.keyVar(K)
	if err != nil {
		return Value{}, errAt(x.Pos(), "%v", err)
	}
	k, err := e.unpack(kv, K)
	if err != nil {
		return Value{}, errAt(x.Pos(), "%v", err)
	}
	body, err := e.expr(x.Body, env.with(b.Var, k))
	if err != nil {
		return Value{}, err
	}
	s := x.Sort()
	if s.Kind == expr.KSet {
		return leafValue(s, logic.Lambda(kv, body.leaf)), nil
	}
	if s.Kind != expr.KMap {
		return Value{}, errAt(x.Pos(), "lambda of sort %s", s)
	}
	return e.mapLambda(s, kv, withSort(body, s.Elem)), nil
}

func (e *Encoder) call(x *expr.Call, env *Env) (Value, error) {
	if x.Fun == nil {
		return Value{}, errAt(x.Pos(), "malformed call")
	}
	obj := x.Fun.Obj
	args := make([]Value, len(x.Args))
	for i, a := range x.Args {
		var err error
		if args[i], err = e.expr(a, env); err != nil {
			return Value{}, err
		}
	}
	if obj != nil && obj.Kind == expr.ObjDef {
		var recv *State
		if x.Recv != nil {
			if x.Recv.Obj == nil || x.Recv.Obj.Kind != expr.ObjState {
				return Value{}, errAt(x.Pos(), "%s is not a state", x.Recv.Name)
			}
			st, ok := env.States[x.Recv.Obj]
			if !ok || st == nil {
				return Value{}, errAt(x.Pos(), "no state for %s", x.Recv.Name)
			}
			recv = st
		}
		return e.callDef(x.Pos(), obj, recv, args, env)
	}
	if x.Recv != nil {
		return Value{}, errAt(x.Pos(), "%s.%s is not a definition", x.Recv.Name, x.Fun.Name)
	}
	if obj != nil && obj.Kind != expr.ObjBuiltin {
		return Value{}, errAt(x.Pos(), "%s cannot be encoded as a function", x.Fun.Name)
	}
	return e.builtin(x, args)
}

// callDef expands definition obj: its body encoded with its parameters
// bound to the argument values (macro substitution; the argument values
// are shared, not copied). A receiver state replaces the state the body
// reads.
func (e *Encoder) callDef(pos source.Pos, obj *expr.Object, recv *State, args []Value, env *Env) (Value, error) {
	if obj.Body == nil {
		return Value{}, errAt(pos, "definition %s has no body", obj.Name)
	}
	if len(args) != len(obj.Params) {
		return Value{}, errAt(pos, "%s takes %d arguments, not %d", obj.Name, len(obj.Params), len(args))
	}
	if e.busy[obj] {
		return Value{}, errAt(pos, "definition %s calls itself", obj.Name)
	}
	e.busy[obj] = true
	defer delete(e.busy, obj)
	inner := &Env{State: env.State, States: env.States}
	if recv != nil {
		inner.State = recv
	}
	inner.Vars = map[*expr.Object]Value{}
	for i, p := range obj.Params {
		inner.Vars[p] = withSort(args[i], p.Sort)
	}
	v, err := e.expr(obj.Body, inner)
	if err != nil {
		return Value{}, err
	}
	return withSort(v, obj.Sort), nil
}

func (e *Encoder) builtin(x *expr.Call, args []Value) (Value, error) {
	name := x.Fun.Name
	s := x.Sort()
	want := map[string]int{
		"len": 1, "last": 1, "append": 2, "const": 1, "Some": 1, "isSome": 1, "isNone": 1,
		"get": 1, "dom": 1, "override": 2, "min": 2, "max": 2, "abs": 1, "even": 1, "odd": 1,
	}
	n, ok := want[name]
	if !ok {
		return Value{}, errAt(x.Pos(), "unknown function %s", name)
	}
	if len(args) != n {
		return Value{}, errAt(x.Pos(), "%s takes %d arguments, not %d", name, n, len(args))
	}
	a := args[0]
	wrap := func(v Value, err error) (Value, error) {
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return v, nil
	}
	switch name {
	case "len":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "len needs a sequence, not %s", a.sort)
		}
		return withSort(a.parts[0], s), nil
	case "last":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "last needs a sequence, not %s", a.sort)
		}
		i := leafValue(expr.IntSort, logic.Sub(a.parts[0].leaf, logic.IntVal(1)))
		return wrap(e.seqIndex(a, i))
	case "append":
		if a.sort.Kind != expr.KSeq {
			return Value{}, errAt(x.Pos(), "append needs a sequence, not %s", a.sort)
		}
		return wrap(e.seqAppend(withSort(a, s), withSort(args[1], s.Elem)))
	case "const":
		if s.Kind != expr.KMap {
			return Value{}, errAt(x.Pos(), "const has sort %s, not a map sort", s)
		}
		if err := checkKey(s.Key); err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return wrap(e.mapConst(s, withSort(a, s.Elem)))
	case "Some":
		if s.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "Some has sort %s", s)
		}
		dt, err := e.optionDatatype(s)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		pa, err := e.Pack(withSort(a, s.Elem))
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(s, logic.Ctor(dt, 1, pa)), nil
	case "isSome", "isNone", "get":
		if a.sort.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "%s needs an Option, not %s", name, a.sort)
		}
		dt, err := e.optionDatatype(a.sort)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		switch name {
		case "isSome":
			return leafValue(s, logic.Is(dt, 1, a.leaf)), nil
		case "isNone":
			return leafValue(s, logic.Is(dt, 0, a.leaf)), nil
		}
		v, err := e.unpack(logic.Access(dt, 1, 0, a.leaf), a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		d, err := e.Default(a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return withSort(ite(logic.Is(dt, 1, a.leaf), v, d), s), nil
	case "dom":
		if a.sort.Kind != expr.KMap || a.sort.Elem.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "dom needs a partial map Map[K, Option[V]], not %s", a.sort)
		}
		dt, err := e.optionDatatype(a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		kv, err := e.keyVar(a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		return leafValue(s, logic.Lambda(kv, logic.Is(dt, 1, logic.Select(a.leaf, kv)))), nil
	case "override":
		p := args[1]
		if a.sort.Kind != expr.KMap || p.sort.Kind != expr.KMap || p.sort.Elem.Kind != expr.KOption {
			return Value{}, errAt(x.Pos(), "override needs a map and a partial map, not %s and %s", a.sort, p.sort)
		}
		dt, err := e.optionDatatype(p.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		kv, err := e.keyVar(a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		k, err := e.unpack(kv, a.sort.Key)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		mk, err := e.mapSelect(a, k)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		pk := logic.Select(p.leaf, kv)
		pv, err := e.unpack(logic.Access(dt, 1, 0, pk), a.sort.Elem)
		if err != nil {
			return Value{}, errAt(x.Pos(), "%v", err)
		}
		body := ite(logic.Is(dt, 1, pk), withSort(pv, a.sort.Elem), mk)
		return e.mapLambda(withSortMap(s, a.sort), kv, body), nil
	case "min", "max":
		b := args[1]
		if name == "min" {
			return leafValue(s, logic.Ite(logic.Le(a.leaf, b.leaf), a.leaf, b.leaf)), nil
		}
		return leafValue(s, logic.Ite(logic.Ge(a.leaf, b.leaf), a.leaf, b.leaf)), nil
	case "abs":
		return leafValue(s, logic.Ite(logic.Ge(a.leaf, logic.IntVal(0)), a.leaf, logic.Neg(a.leaf))), nil
	case "even":
		return leafValue(s, logic.Eq(logic.Mod(a.leaf, logic.IntVal(2)), logic.IntVal(0))), nil
	case "odd":
		return leafValue(s, logic.Eq(logic.Mod(a.leaf, logic.IntVal(2)), logic.IntVal(1))), nil
	}
	return Value{}, errAt(x.Pos(), "unknown function %s", name)
}

func withSortMap(s, fallback *expr.Sort) *expr.Sort {
	if s != nil && s.Kind == expr.KMap {
		return s
	}
	return fallback
}

// junction encodes a chain a1 op a2 op ... op an of one connective (and,
// or), which the parser nests to the left, with one logic.And (logic.Or)
// of the n operands: folding the binary nodes one by one would copy the
// growing flattened conjunction at every step, quadratic in n. The operands
// are encoded in the same order, and the term is the same, since And and
// Or flatten nested applications of themselves.
func (e *Encoder) junction(x *expr.Binary, env *Env) (Value, error) {
	var rights []expr.Expr // the right operands, from the top node down
	cur := x
	for {
		rights = append(rights, cur.Y)
		l, ok := cur.X.(*expr.Binary)
		if !ok || l.Op != x.Op {
			break
		}
		if l.Sort().IsInvalid() {
			return Value{}, errAt(l.Pos(), "cannot encode an ill-sorted expression")
		}
		cur = l
	}
	terms := make([]*logic.Term, 0, len(rights)+1)
	a, err := e.expr(cur.X, env)
	if err != nil {
		return Value{}, err
	}
	terms = append(terms, a.leaf)
	for i := len(rights) - 1; i >= 0; i-- {
		b, err := e.expr(rights[i], env)
		if err != nil {
			return Value{}, err
		}
		terms = append(terms, b.leaf)
	}
	if x.Op == expr.OpAnd {
		return leafValue(x.Sort(), logic.And(terms...)), nil
	}
	return leafValue(x.Sort(), logic.Or(terms...)), nil
}
