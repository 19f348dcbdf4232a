package logic

import (
	"fmt"
	"strconv"
)

// LiftLambdas returns a copy of p without lambda terms: each lambda
// λx. b whose free bound variables are v1 … vn (sorted by name) is replaced
// by (select … (select F v1) … vn), where F is a fresh array constant named
// prefix + N, and the definitional axiom
//
//	forall v1 … vn x. (select (select … F … vn) x) = b
//
// (with that select term as its pattern) is asserted before the
// assertions. Structurally equal lambdas share one constant. The result is
// equisatisfiable with p: every F is defined by its axiom as a total
// function, so the axioms are a conservative extension. N counts lambdas in
// the order they are met (assertions in order, subterms before their
// parents), so the result is deterministic. A problem without lambdas is
// returned as it is, and is not checked.
//
// Why: Z3 4.8.12 mishandles lambda terms under store and equality — it
// answers sat for (= (store (lambda ((x T)) (ite (= x b) 1 0)) a 0)
// ((as const (Array T Int)) 0)) with a ≠ b — while the same array given
// by a quantified definition is decided correctly. Package encode lifts
// every problem it builds; package smt refuses problems with lambdas.
func LiftLambdas(p *Problem, prefix string) (*Problem, error) {
	lambdas := false
	for _, a := range p.Assertions {
		if a.Term == nil {
			return nil, fmt.Errorf("assertion %s: nil term", a.Name)
		}
		if HasLambda(a.Term) {
			lambdas = true
			break
		}
	}
	if !lambdas {
		// Nothing to lift: p itself, unchecked (Problem.Text checks every
		// problem it prints).
		return p, nil
	}
	l := &lifter{prefix: prefix, memo: map[*Term]*Term{}, in: interner{}, names: map[*Term]*Term{}}
	var main []Named
	for _, a := range p.Assertions {
		t := l.term(a.Term)
		if t.err != nil {
			return nil, t.err
		}
		main = append(main, Named{Name: a.Name, Term: t})
	}
	out := &Problem{Decls: append([]*Term(nil), p.Decls...)}
	out.Assertions = append(append(out.Assertions, l.axioms...), main...)
	if err := out.Check(); err != nil {
		return nil, fmt.Errorf("lifting lambdas: %w", err)
	}
	return out, nil
}

// HasLambda reports whether t contains a lambda term.
func HasLambda(t *Term) bool { return t.lambdas }

type lifter struct {
	prefix string
	memo   map[*Term]*Term
	in     interner
	names  map[*Term]*Term // lambda representative -> its replacement
	axioms []Named
	n      int
}

func (l *lifter) term(t *Term) *Term {
	if !t.lambdas {
		return t // term1 would return t itself
	}
	if r, ok := l.memo[t]; ok {
		return r
	}
	r := l.term1(t)
	l.memo[t] = r
	return r
}

func (l *lifter) term1(t *Term) *Term {
	switch t.kind {
	case KindApp:
		changed := false
		args := make([]*Term, len(t.args))
		for i, a := range t.args {
			args[i] = l.term(a)
			changed = changed || args[i] != a
		}
		if !changed {
			return t
		}
		return rebuild(t, args)
	case KindForall, KindExists:
		body := l.term(t.args[0])
		var pats [][]*Term
		changed := body != t.args[0]
		for _, p := range t.pats {
			np := make([]*Term, len(p))
			for j, x := range p {
				np[j] = l.term(x)
				changed = changed || np[j] != x
			}
			pats = append(pats, np)
		}
		if !changed {
			return t
		}
		if t.kind == KindForall {
			return Forall(t.vars, body, pats...)
		}
		return Exists(t.vars, body, pats...)
	case KindLambda:
		body := l.term(t.args[0])
		lam := t
		if body != t.args[0] {
			lam = Lambda(t.vars[0], body)
		}
		rep := l.in.canon(lam)
		if r, ok := l.names[rep]; ok {
			return r
		}
		fv := lam.loose // sorted by name
		s := lam.sort
		for i := len(fv) - 1; i >= 0; i-- {
			s = ArraySort(fv[i].sort, s)
		}
		f := Const(l.prefix+strconv.Itoa(l.n), s)
		l.n++
		repl := f
		for _, v := range fv {
			repl = Select(repl, v)
		}
		x := lam.vars[0]
		app := Select(repl, x)
		vars := append(append([]*Term(nil), fv...), x)
		ax := Forall(vars, Eq(app, body), []*Term{app})
		l.axioms = append(l.axioms, Named{Name: "definition of " + f.name, Term: ax})
		l.names[rep] = repl
		return repl
	}
	return t
}

// Beta returns t with every redex (select (lambda ((x S)) b) i) replaced by
// b[x := i], repeatedly. To expose redexes, a select from an array term
// that contains a lambda is pushed through store (read over write:
// (select (store a i v) j) = (ite (= i j) v (select a j))), ite and const
// arrays. Lambdas in other positions remain.
func Beta(t *Term) *Term {
	memo := map[*Term]*Term{}
	var walk func(x *Term) *Term
	walk = func(x *Term) *Term {
		if r, ok := memo[x]; ok {
			return r
		}
		r := x
		switch x.kind {
		case KindApp:
			changed := false
			args := make([]*Term, len(x.args))
			for i, a := range x.args {
				args[i] = walk(a)
				changed = changed || args[i] != a
			}
			if x.op == OpSelect && HasLambda(args[0]) {
				r = selectInto(args[0], args[1], walk)
			} else if changed {
				r = rebuild(x, args)
			}
		case KindForall, KindExists, KindLambda:
			body := walk(x.args[0])
			if body != x.args[0] {
				switch x.kind {
				case KindForall:
					r = Forall(x.vars, body, x.pats...)
				case KindExists:
					r = Exists(x.vars, body, x.pats...)
				default:
					r = Lambda(x.vars[0], body)
				}
			}
		}
		memo[x] = r
		return r
	}
	return walk(t)
}

// selectInto returns (select arr j) with the select pushed into arr, for
// an arr (already reduced) that contains a lambda.
func selectInto(arr, j *Term, walk func(*Term) *Term) *Term {
	switch {
	case arr.kind == KindLambda:
		return walk(Subst(arr.args[0], Pair{From: arr.vars[0], To: j}))
	case arr.kind == KindApp && arr.op == OpStore:
		return Ite(Eq(arr.args[1], j), arr.args[2], selectInto(arr.args[0], j, walk))
	case arr.kind == KindApp && arr.op == OpIte:
		return Ite(arr.args[0], selectInto(arr.args[1], j, walk), selectInto(arr.args[2], j, walk))
	case arr.kind == KindApp && arr.op == OpConstArray:
		return arr.args[0]
	}
	if HasLambda(arr) {
		return Select(arr, j) // the lambda is inside an index or elsewhere: leave it
	}
	return Select(arr, j)
}
