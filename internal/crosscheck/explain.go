// This file explains a false clause: the binding of its quantified
// variables and the conjunct that fails, with the values of both sides.

package crosscheck

import (
	"strings"

	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// explainer evaluates subexpressions of a clause in one env, under the
// bindings of the quantifiers it has entered.
type explainer struct {
	x      *checker
	en     *env
	bound  []*expr.Object
	values []eval.Value
	sorts  []*expr.Sort
}

// explain describes why the Bool expression e is false in en: it enters a
// forall at the first binding (in the instance's order) that falsifies its
// body, a conjunction at its first false conjunct, an implication whose
// antecedent holds at its consequent, and a negated disjunction at its
// true disjunct, and prints the atom it reaches with the values of its
// sides. It returns nil when e is not false or cannot be evaluated.
func (x *checker) explain(e expr.Expr, en *env) []string {
	ex := &explainer{x: x, en: en}
	v, err := ex.eval(e)
	if err != nil || v.Bool() {
		return nil
	}
	var out []string
	ex.why(e, &out, 0)
	return out
}

func (ex *explainer) eval(e expr.Expr) (eval.Value, error) {
	f, err := ex.x.compile(e, ex.bound...)
	if err != nil {
		return eval.Value{}, err
	}
	return ex.x.evalBound(f, ex.en, ex.values...)
}

// why appends the explanation of the false expression e.
func (ex *explainer) why(e expr.Expr, out *[]string, depth int) {
	if depth > 32 {
		return
	}
	switch e := e.(type) {
	case *expr.Quant:
		if e.Forall && ex.bind(e.Binders, e.Body) {
			*out = append(*out, ex.binding(len(e.Binders)))
			ex.why(e.Body, out, depth+1)
			ex.unbind(len(e.Binders))
			return
		}
	case *expr.Binary:
		switch e.Op {
		case expr.OpAnd:
			for _, c := range splitAnd(e, nil) {
				if v, err := ex.eval(c); err == nil && !v.Bool() {
					ex.why(c, out, depth+1)
					return
				}
			}
		case expr.OpImplies:
			if v, err := ex.eval(e.X); err == nil && v.Bool() {
				*out = append(*out, "holds: "+oneLine(expr.Print(e.X)))
				ex.why(e.Y, out, depth+1)
				return
			}
		}
	case *expr.Unary:
		if e.Op == expr.OpNot {
			if b, ok := e.X.(*expr.Binary); ok && b.Op == expr.OpOr {
				for _, d := range []expr.Expr{b.X, b.Y} {
					if v, err := ex.eval(d); err == nil && v.Bool() {
						*out = append(*out, "holds: "+oneLine(expr.Print(d)))
						return
					}
				}
			}
		}
	}
	line := "false: " + oneLine(expr.Print(e))
	if b, ok := e.(*expr.Binary); ok && b.Op >= expr.OpEq && b.Op <= expr.OpSubset {
		var sides []string
		for _, s := range []expr.Expr{b.X, b.Y} {
			if isLiteral(s) {
				continue
			}
			if v, err := ex.eval(s); err == nil && s.Sort() != nil {
				sides = append(sides, oneLine(expr.Print(s))+" = "+eval.Format(v, s.Sort()))
			}
		}
		if len(sides) > 0 {
			line += ", where " + strings.Join(sides, " and ")
		}
	}
	*out = append(*out, line)
}

// bind binds the binders to the first values (in the instance's order)
// under which body is false and reports true, or binds nothing and
// reports false.
func (ex *explainer) bind(bs []*expr.Binder, body expr.Expr) bool {
	if len(bs) == 0 {
		v, err := ex.eval(body)
		return err == nil && !v.Bool()
	}
	b := bs[0]
	var vals []eval.Value
	sort := b.Var.Sort
	if b.Lo != nil && b.Hi != nil {
		lo, err1 := ex.eval(b.Lo)
		hi, err2 := ex.eval(b.Hi)
		if err1 != nil || err2 != nil || hi.Int()-lo.Int() > 1<<16 {
			return false
		}
		for i := lo.Int(); i < hi.Int(); i++ {
			vals = append(vals, eval.Int(i))
		}
		sort = expr.IntSort
	} else {
		var err error
		if vals, err = ex.x.inst.Values(sort); err != nil {
			return false
		}
	}
	for _, v := range vals {
		ex.bound, ex.values, ex.sorts = append(ex.bound, b.Var), append(ex.values, v), append(ex.sorts, sort)
		if ex.bind(bs[1:], body) {
			return true
		}
		ex.unbind(1)
	}
	return false
}

// binding describes the last n bindings.
func (ex *explainer) binding(n int) string {
	var where []string
	for i := len(ex.bound) - n; i < len(ex.bound); i++ {
		where = append(where, ex.bound[i].Name+" = "+eval.Format(ex.values[i], ex.sorts[i]))
	}
	return "at " + strings.Join(where, ", ")
}

func (ex *explainer) unbind(n int) {
	k := len(ex.bound) - n
	ex.bound, ex.values, ex.sorts = ex.bound[:k], ex.values[:k], ex.sorts[:k]
}

// isLiteral reports whether e is a literal or an enum constant, whose
// value is its text.
func isLiteral(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.IntLit, *expr.BoolLit, *expr.ElemLit:
		return true
	case *expr.Ident:
		return e.Obj != nil && e.Obj.Kind == expr.ObjEnum
	}
	return false
}
