// This file implements the application of a hint in a world (strategy.go
// gives the soundness argument): the rule's scenario is recorded, then
// its hypotheses are kept, instantiated and split and its goal
// generalized, in the symbolic world (terms for the prover) and the
// concrete one (values for replaying counterexamples) alike.

package simulation

import (
	"fmt"
	"strings"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// hintWorld is what applying a hint needs of a world beyond world.
type hintWorld[S, V, B any] interface {
	world[S, V, B]
	// valueIn and holdsIn evaluate x with bare variables read in st (when
	// bare), whole states and parameters from env, and the bound objects
	// of vars.
	valueIn(x expr.Expr, st S, bare bool, env *wenv[S, V], vars map[*expr.Object]V) (V, error)
	holdsIn(x expr.Expr, st S, bare bool, env *wenv[S, V], vars map[*expr.Object]V) (B, error)
	// ctorIs is "v, of splittable sort s, is built by constructor i"
	// (ctorNames order).
	ctorIs(v V, s *expr.Sort, i int) (B, error)
	// show renders v of sort s for a goal's description.
	show(v V, s *expr.Sort) string
}

// recWorld records the states and parameters a rule creates, by name, so
// that a hint can be applied to the rule's scenario.
type recWorld[S, V, B any] struct {
	hintWorld[S, V, B]
	states map[string]S
	params map[string][]V
}

func (r *recWorld[S, V, B]) freshState(a *ioa.Automaton, name string) (S, error) {
	s, err := r.hintWorld.freshState(a, name)
	if err == nil {
		r.states[name] = s
	}
	return s, err
}

func (r *recWorld[S, V, B]) freshParams(act *ioa.Action, name string) ([]V, error) {
	ps, err := r.hintWorld.freshParams(act, name)
	if err == nil {
		r.params[name] = ps
	}
	return ps, err
}

func (r *recWorld[S, V, B]) stateOf(m *ioa.StateMap, name string, env *wenv[S, V]) (S, error) {
	s, err := r.hintWorld.stateOf(m, name, env)
	if err == nil {
		r.states[name] = s
	}
	return s, err
}

func (r *recWorld[S, V, B]) post(act *ioa.Action, s S, ps []V, name string) (S, error) {
	t, err := r.hintWorld.post(act, s, ps, name)
	if err == nil {
		r.states[name] = t
	}
	return t, err
}

// indexName names the fresh values of generalized variables (the
// parameters of the index pseudo-action).
const indexName = "ix"

// runHinted computes the scenario of p's rule and applies p's hint to it
// (see the file comment for why each step is sound).
func runHinted[S, V, B any](w world[S, V, B], p *plan) (*scenario[B], error) {
	hw, ok := w.(hintWorld[S, V, B])
	if !ok {
		return nil, fmt.Errorf("internal: this world cannot apply hints")
	}
	rec := &recWorld[S, V, B]{hintWorld: hw, states: map[string]S{}, params: map[string][]V{}}
	base := *p
	base.hint = nil
	scn, err := run[S, V, B](rec, &base)
	if err != nil {
		return nil, err
	}
	c := p.hint

	// Weakening: drop the hypotheses of invariants not kept.
	if c.keep != nil {
		var hyps []namedB[B]
		for _, h := range scn.hyps {
			if key, ok := assumeKey(h.name); ok && !c.keep[key] {
				continue
			}
			hyps = append(hyps, h)
		}
		scn.hyps = hyps
	}

	// The names of the obligation: the pre-state (invariants) or the
	// proof's states, and the action's parameters.
	var st S
	bare := p.proof == nil
	env := newEnv[S, V](rec.params["p"])
	if bare {
		st = rec.states["s"]
	} else {
		pr := p.proof
		for obj, name := range map[*expr.Object]string{pr.C: "c", pr.A: "a", pr.CPost: "cpost", pr.APre: "apre"} {
			if s, ok := rec.states[name]; ok && obj != nil {
				env.with(obj, s)
			}
		}
	}
	vars, at, err := indexValues(hw, p)
	if err != nil {
		return nil, err
	}

	// ∀-introduction: the goal at fresh values of its first bound
	// variables.
	if c.generalize > 0 {
		q, ok := p.inv.Body.(*expr.Quant) // checked by expand
		if !ok {
			return nil, fmt.Errorf("internal: invariant %s is not a forall", p.inv.Name)
		}
		post, ok := rec.states["s'"]
		if !ok {
			return nil, fmt.Errorf("internal: no post-state to generalize the goal in")
		}
		goal, err := hw.holdsIn(rest(q, c.generalize), post, true, newEnv[S, V](nil), vars)
		if err != nil {
			return nil, err
		}
		scn.goal = goal
		scn.what = fmt.Sprintf("%s(s') at %s", p.inv.Name, strings.Join(at, ", "))
	}

	// ∀-elimination: instances of assumed invariants.
	for _, in := range c.instances {
		ist, iname := st, "s"
		if in.State != nil {
			s, ok := env.state(in.State)
			if !ok {
				return nil, fmt.Errorf("internal: no state %s for the instance of %s", in.State.Name, in.Invariant.Name)
			}
			ist, iname = s, in.State.Name
		}
		q, ok := in.Invariant.Body.(*expr.Quant) // checked by expand
		if !ok || len(in.Args) > len(q.Binders) {
			return nil, fmt.Errorf("internal: invariant %s cannot be instantiated", in.Invariant.Name)
		}
		ivars := map[*expr.Object]V{}
		var guards []expr.Expr
		for i, a := range in.Args {
			v, err := hw.valueIn(a, st, bare, env, vars)
			if err != nil {
				return nil, err
			}
			b := q.Binders[i]
			ivars[b.Var] = v
			if g := binderGuard(b); g != nil {
				guards = append(guards, g)
			}
		}
		body := rest(q, len(in.Args))
		if len(guards) > 0 {
			body = boolNode(expr.NewBinary(expr.OpImplies, conj(guards), body))
		}
		b, err := hw.holdsIn(body, ist, true, newEnv[S, V](nil), ivars)
		if err != nil {
			return nil, err
		}
		text := in.Text
		if text == "" {
			text = in.Invariant.Name + "(…)"
		}
		scn.hyps = append(scn.hyps, namedB[B]{fmt.Sprintf("instance %s.%s at %s", in.Automaton.Name, text, iname), b})
	}

	// Case hypotheses.
	for _, cc := range c.conds {
		var b B
		var err error
		if cc.ctor >= 0 {
			var v V
			v, err = hw.valueIn(cc.x, st, bare, env, vars)
			if err == nil {
				b, err = hw.ctorIs(v, cc.x.Sort(), cc.ctor)
			}
		} else {
			b, err = hw.holdsIn(cc.x, st, bare, env, vars)
			if cc.neg {
				b = hw.not(b)
			}
		}
		if err != nil {
			return nil, err
		}
		scn.hyps = append(scn.hyps, namedB[B]{cc.name, b})
	}
	return scn, nil
}

// indexValues returns the fresh values of the variables p's hint
// generalizes, bound to the variables and their aliases, and their
// descriptions ("u = T#1").
func indexValues[S, V, B any](hw hintWorld[S, V, B], p *plan) (map[*expr.Object]V, []string, error) {
	c := p.hint
	vars := map[*expr.Object]V{}
	if c.generalize == 0 {
		return vars, nil, nil
	}
	q, ok := p.inv.Body.(*expr.Quant) // checked by expand
	if !ok || c.generalize > len(q.Binders) {
		return nil, nil, fmt.Errorf("internal: cannot generalize invariant %s", p.inv.Name)
	}
	idx := &ioa.Action{Name: "index of " + p.inv.Name, Kind: ioa.Internal, Params: q.Binders[:c.generalize]}
	vs, err := hw.freshParams(idx, indexName)
	if err != nil {
		return nil, nil, err
	}
	var at []string
	for i, v := range vs {
		b := q.Binders[i].Var
		vars[b] = v
		name := b.Name
		if i < len(c.aliases) && c.aliases[i] != nil {
			vars[c.aliases[i]] = v
			name = c.aliases[i].Name
		}
		at = append(at, name+" = "+hw.show(v, b.Sort))
	}
	return vars, at, nil
}

// assumeKey returns the invariant key of a hypothesis "assume A.P(s)"
// (assumed, rules.go).
func assumeKey(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, hypPrefixAssume)
	if !ok {
		return "", false
	}
	auto, inv, ok := strings.Cut(rest, ".")
	if !ok {
		return "", false
	}
	inv, _, ok = strings.Cut(inv, "(")
	if !ok {
		return "", false
	}
	return "automaton:" + auto + "/invariant:" + inv, true
}

// rest returns the body of q under its first n binders: the body, or a
// forall over the remaining binders.
func rest(q *expr.Quant, n int) expr.Expr {
	if n >= len(q.Binders) {
		return q.Body
	}
	r := expr.NewQuant(true, q.Binders[n:], q.Body)
	r.SetSort(expr.BoolSort)
	r.SetPos(q.Pos())
	return r
}

// binderGuard returns the condition on a value of b's variable that the
// quantifier assumes: lo <= x and x < hi for a range, x >= 0 for Nat, or
// nil.
func binderGuard(b *expr.Binder) expr.Expr {
	x := expr.NewIdent(b.Var.Name)
	x.Obj = b.Var
	switch {
	case b.Lo != nil && b.Hi != nil:
		x.SetSort(expr.IntSort)
		return conj([]expr.Expr{boolNode(expr.NewBinary(expr.OpLe, b.Lo, x)), boolNode(expr.NewBinary(expr.OpLt, x, b.Hi))})
	case b.Var.Sort != nil && b.Var.Sort.Kind == expr.KNat:
		x.SetSort(expr.NatSort)
		zero := expr.NewIntLit(0)
		zero.SetSort(expr.IntSort)
		return boolNode(expr.NewBinary(expr.OpGe, x, zero))
	}
	return nil
}

// conj returns the conjunction of xs (at least one).
func conj(xs []expr.Expr) expr.Expr {
	out := xs[0]
	for _, x := range xs[1:] {
		out = boolNode(expr.NewBinary(expr.OpAnd, out, x))
	}
	return out
}

// boolNode gives a constructed binary node the sort Bool.
func boolNode(b *expr.Binary) *expr.Binary {
	b.SetSort(expr.BoolSort)
	return b
}

func (w *symWorld) envIn(st *encode.State, bare bool, env *wenv[*encode.State, encode.Value], vars map[*expr.Object]encode.Value) *encode.Env {
	e := &encode.Env{Vars: vars}
	if bare {
		e.State = st
	}
	if env != nil {
		e.States, e.Params = env.stateMap(), env.params
	}
	return e
}

func (w *symWorld) valueIn(x expr.Expr, st *encode.State, bare bool, env *wenv[*encode.State, encode.Value], vars map[*expr.Object]encode.Value) (encode.Value, error) {
	return w.enc.Expr(x, w.envIn(st, bare, env, vars))
}

func (w *symWorld) holdsIn(x expr.Expr, st *encode.State, bare bool, env *wenv[*encode.State, encode.Value], vars map[*expr.Object]encode.Value) (*logic.Term, error) {
	return w.enc.Formula(x, w.envIn(st, bare, env, vars))
}

// ctorIs tests the constructor of v: the Bool itself, or the datatype
// tester of the enum or Option datatype (constructors in ctorNames
// order, as package encode declares them).
func (w *symWorld) ctorIs(v encode.Value, s *expr.Sort, i int) (*logic.Term, error) {
	t := v.Term()
	if !v.IsLeaf() || t == nil {
		return nil, fmt.Errorf("internal: a %s value is not a single term", s)
	}
	switch s.Kind {
	case expr.KBool:
		if i == 0 {
			return t, nil
		}
		return logic.Not(t), nil
	case expr.KEnum, expr.KOption:
		dt := t.Sort().Datatype()
		if dt == nil || i < 0 || i >= dt.NumConstructors() || len(ctorNames(s)) != dt.NumConstructors() {
			return nil, fmt.Errorf("internal: %s is not encoded as a datatype with %d constructors", s, len(ctorNames(s)))
		}
		return logic.Is(dt, i, t), nil
	}
	return nil, fmt.Errorf("cannot split on sort %s", s)
}

func (w *symWorld) show(v encode.Value, s *expr.Sort) string {
	if v.IsLeaf() && v.Term() != nil {
		return v.Term().String()
	}
	return "?"
}

func (w *conWorld) envIn(st eval.State, bare bool, env *wenv[eval.State, eval.Value], vars map[*expr.Object]eval.Value) *eval.Env {
	e := &eval.Env{Inst: w.inst, Vars: vars}
	if bare {
		e.State = st
	}
	if env != nil {
		e.States, e.Params = env.stateMap(), env.params
	}
	return e
}

func (w *conWorld) valueIn(x expr.Expr, st eval.State, bare bool, env *wenv[eval.State, eval.Value], vars map[*expr.Object]eval.Value) (eval.Value, error) {
	return eval.Eval(x, w.envIn(st, bare, env, vars))
}

func (w *conWorld) holdsIn(x expr.Expr, st eval.State, bare bool, env *wenv[eval.State, eval.Value], vars map[*expr.Object]eval.Value) (bool, error) {
	v, err := eval.Eval(x, w.envIn(st, bare, env, vars))
	return v.Bool(), err
}

func (w *conWorld) ctorIs(v eval.Value, s *expr.Sort, i int) (bool, error) {
	switch s.Kind {
	case expr.KBool:
		return v.Bool() == (i == 0), nil
	case expr.KEnum:
		return v.Ord() == i, nil
	case expr.KOption:
		return v.IsSome() == (i == 1), nil
	}
	return false, fmt.Errorf("cannot split on sort %s", s)
}

func (w *conWorld) show(v eval.Value, s *expr.Sort) string { return eval.Format(v, s) }
