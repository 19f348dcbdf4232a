// This file implements the encoding of binders: quantifiers over sorts
// (one variable per leaf, under the domain condition of the sort) and
// integer ranges, lambdas and set comprehensions (lambda terms over the
// key sort). Its twins are ioa/eval/expr_binders.go (the reference
// evaluator) and ioa/eval/fast/expr_binders.go (the explorer's engine on
// encodings).

package encode

import (
	"strconv"

	"ladder/internal/logic"
	"ladder/ioa/expr"
)

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
