// This file implements the encoding of the operators: not and unary minus,
// the connectives (chains of one connective as one n-ary term), equality
// and comparisons, arithmetic with the language's total div and mod,
// membership, subset and the set operations. Its twins are
// ioa/eval/expr_ops.go (the reference evaluator) and
// ioa/eval/fast/expr_ops.go (the explorer's engine on encodings).

package encode

import (
	"ladder/internal/logic"
	"ladder/ioa/expr"
)

// unary encodes not and unary minus.
func (e *Encoder) unary(x *expr.Unary, env *Env) (Value, error) {
	s := x.Sort()
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
