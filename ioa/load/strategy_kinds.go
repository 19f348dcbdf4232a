// This file implements the four strategies of a strategy declaration
// (docs/proofs.md, "Strategies"): split (on the constructors of a
// variable or parameter), assume (invariants of the proof's automata),
// instantiate (a universally quantified invariant at given terms) and
// parametrized (an invariant of one parameter value against another).

package load

import (
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// splitStep reads `split: EXPR`.
func (fl *fileLoader) splitStep(st *ioa.StrategyStep, it strategyItem, cx *strategyCtx) bool {
	if it.arg == nil || it.arg.Kind != yaml.ScalarNode || isNull(it.arg) {
		at := it.nameNode
		if it.arg != nil {
			at = it.arg
		}
		fl.errorf(at, source.ErrModel, "strategy split needs an expression: `split: EXPR` (a Bool, enum or Option expression)")
		return false
	}
	st.Text = strings.TrimSpace(it.arg.Value)
	xs := fl.perAction(it.arg, "the expression of a split", stepActions(st, cx), cx,
		func(_ *ioa.Action, x expr.Expr, sc *expr.Scope, chk *expr.Checker, errs *source.ErrorList) bool {
			before := len(*errs)
			s := chk.CheckExpr(x, sc, nil)
			if s.IsInvalid() || len(*errs) > before {
				return false
			}
			if !ioa.Splittable(s) {
				errs.Add(x.Pos(), source.ErrSort, "cannot split on %s of sort %s: a split expression must be Bool, an enum or an Option", shorten(st.Text), s)
				return false
			}
			return true
		})
	if xs == nil {
		return false
	}
	st.Args = map[*ioa.Action]*ioa.StrategyArgs{}
	for act, x := range xs {
		st.Args[act] = &ioa.StrategyArgs{Split: x}
	}
	return true
}

// names returns the scalar items of a name list (a sequence or a single
// scalar).
func (fl *fileLoader) names(n *yaml.Node, what string) []*yaml.Node {
	var out []*yaml.Node
	for _, it := range fl.sequence(n, what, true) {
		if _, ok := fl.scalar(it, "a name"); ok {
			out = append(out, it)
		}
	}
	return out
}

// assumeStep reads `assume: [names]`.
func (fl *fileLoader) assumeStep(st *ioa.StrategyStep, it strategyItem, cx *strategyCtx) bool {
	if it.arg == nil {
		fl.errorf(it.nameNode, source.ErrModel, "strategy assume needs a list of invariants: `assume: [name, ...]` (`assume: []` assumes none)")
		return false
	}
	ok := true
	for _, n := range fl.names(it.arg, "the invariants of assume") {
		si := fl.strategyInvariant(n, cx)
		if si == nil {
			ok = false
			continue
		}
		st.Invariants = append(st.Invariants, si)
	}
	return ok
}

// assumable reports whether invariant inv of automaton a may be assumed
// in cx: by an invariant, the invariants it assumes (all, by default);
// by a proof, those of its assume lists.
func (cx *strategyCtx) assumable(a *ioa.Automaton, inv *ioa.Invariant) bool {
	if cx.inv != nil {
		if cx.inv.Assumes == nil {
			return true
		}
		return contains(cx.inv.Assumes, inv.Name)
	}
	p := cx.proof
	refs := p.AssumeConcrete
	if a == p.Abstract && a != p.Concrete {
		refs = p.AssumeAbstract
	}
	for _, r := range refs {
		// An invariant assumed by transfer stands for P∘g, not for an
		// invariant of either automaton: no strategy may name it.
		if r.Inv == inv && !r.Transferred() {
			return true
		}
	}
	return false
}

// strategyInvariant resolves an invariant name of an assume list: in an
// invariant's strategy an invariant of its automaton; in a proof's, an
// invariant the proof assumes, written `name`, `c.name` or `a.name`.
func (fl *fileLoader) strategyInvariant(n *yaml.Node, cx *strategyCtx) *ioa.StrategyInvariant {
	name := strings.TrimSpace(n.Value)
	si := &ioa.StrategyInvariant{Name: name, Pos: fl.f.pos(n)}
	if cx.inv != nil {
		si.Automaton, si.Invariant = cx.auto, cx.auto.Invariant(name)
		if si.Invariant == nil {
			fl.errorf(n, source.ErrName, "unknown invariant %q: %s has no invariant of that name", name, cx.auto.Name)
			return nil
		}
		if !cx.assumable(si.Automaton, si.Invariant) {
			fl.errorf(n, source.ErrModel, "invariant %q is not among the assumptions of invariant %q (its `assumes:` list)", name, cx.inv.Name)
			return nil
		}
		return si
	}
	p := cx.proof
	var cands []*ioa.Automaton
	base := name
	switch {
	case strings.HasPrefix(name, ioa.StateC+"."):
		cands, base = []*ioa.Automaton{p.Concrete}, strings.TrimPrefix(name, ioa.StateC+".")
	case strings.HasPrefix(name, ioa.StateA+"."):
		cands, base = []*ioa.Automaton{p.Abstract}, strings.TrimPrefix(name, ioa.StateA+".")
	default:
		cands = []*ioa.Automaton{p.Concrete, p.Abstract}
	}
	var found []*ioa.StrategyInvariant
	for _, a := range cands {
		if inv := a.Invariant(base); inv != nil && cx.assumable(a, inv) {
			found = append(found, &ioa.StrategyInvariant{Name: name, Pos: si.Pos, Automaton: a, Invariant: inv})
		}
	}
	switch {
	case len(found) == 1:
		return found[0]
	case len(found) > 1:
		fl.errorf(n, source.ErrName, "ambiguous invariant %q: both %s and %s assume an invariant of that name; write c.%s or a.%s", name, p.Concrete.Name, p.Abstract.Name, base, base)
	default:
		fl.errorf(n, source.ErrName, "invariant %q is not assumed by proof %s: a strategy may assume only invariants of its `assume:` lists", name, p.Name)
	}
	return nil
}

// instantiateStep reads `instantiate: [inv(terms), ...]`.
func (fl *fileLoader) instantiateStep(st *ioa.StrategyStep, it strategyItem, cx *strategyCtx) bool {
	if it.arg == nil {
		fl.errorf(it.nameNode, source.ErrModel, "strategy instantiate needs a list of instances: `instantiate: [inv(term, ...)]`")
		return false
	}
	if it.arg.Kind == yaml.SequenceNode && it.arg.Style&yaml.FlowStyle != 0 {
		for _, x := range it.arg.Content {
			if x.Kind == yaml.ScalarNode && strings.Count(x.Value, "(") != strings.Count(x.Value, ")") {
				fl.errorf(it.arg, source.ErrSyntax, "in a YAML flow sequence [...] commas separate items, which splits instances with several terms: write one `- inv(terms)` per line")
				return false
			}
		}
	}
	acts := stepActions(st, cx)
	st.Args = map[*ioa.Action]*ioa.StrategyArgs{}
	for _, act := range acts {
		st.Args[act] = &ioa.StrategyArgs{}
	}
	ok := true
	for _, n := range fl.names(it.arg, "the instances of instantiate") {
		insts := map[*ioa.Action]*ioa.StrategyInstance{}
		xs := fl.perAction(n, "an instance", acts, cx, func(act *ioa.Action, x expr.Expr, sc *expr.Scope, chk *expr.Checker, errs *source.ErrorList) bool {
			inst := instanceOf(x, sc, chk, errs, cx)
			if inst == nil {
				return false
			}
			inst.Text = strings.TrimSpace(n.Value)
			insts[act] = inst
			return true
		})
		if xs == nil {
			ok = false
			continue
		}
		for _, act := range acts {
			st.Args[act].Instances = append(st.Args[act].Instances, insts[act])
		}
	}
	return ok
}

// instanceOf checks x, which should be `inv(terms)` (invariant strategies)
// or `c.inv(terms)`, `cpost.inv(terms)`, `a.inv(terms)` (proofs), and
// returns the instance. Errors go to errs.
func instanceOf(x expr.Expr, sc *expr.Scope, chk *expr.Checker, errs *source.ErrorList, cx *strategyCtx) *ioa.StrategyInstance {
	call, ok := x.(*expr.Call)
	form := "inv(terms)"
	if cx.proof != nil {
		form = "c.inv(terms), cpost.inv(terms) or a.inv(terms)"
	}
	if !ok || call.Fun == nil {
		errs.Add(x.Pos(), source.ErrModel, "expected an instance %s", form)
		return nil
	}
	inst := &ioa.StrategyInstance{Pos: x.Pos()}
	if cx.inv != nil {
		if call.Recv != nil {
			errs.Add(x.Pos(), source.ErrModel, "expected an instance inv(terms) of an invariant of %s, in its pre-state", cx.auto.Name)
			return nil
		}
		inst.Automaton = cx.auto
	} else {
		p := cx.proof
		if call.Recv == nil {
			errs.Add(x.Pos(), source.ErrModel, "expected an instance %s: name the state the invariant holds in", form)
			return nil
		}
		switch call.Recv.Name {
		case ioa.StateC:
			inst.Automaton, inst.State = p.Concrete, p.C
		case ioa.StateCPost:
			inst.Automaton, inst.State = p.Concrete, p.CPost
		case ioa.StateA:
			if p.Kind == ioa.ProofBackward {
				errs.Add(call.Recv.Pos(), source.ErrModel, "a backward simulation assumes no abstract invariant: a is a witness, not a reachable state")
				return nil
			}
			inst.Automaton, inst.State = p.Abstract, p.A
		default:
			errs.Add(call.Recv.Pos(), source.ErrModel, "cannot instantiate an invariant in %s: expected c, cpost or a", call.Recv.Name)
			return nil
		}
	}
	name := call.Fun.Name
	inst.Invariant = inst.Automaton.Invariant(name)
	if inst.Invariant == nil {
		errs.Add(call.Fun.Pos(), source.ErrName, "unknown invariant %q: %s has no invariant of that name", name, inst.Automaton.Name)
		return nil
	}
	if !cx.assumable(inst.Automaton, inst.Invariant) {
		if cx.inv != nil {
			errs.Add(call.Fun.Pos(), source.ErrModel, "invariant %q is not among the assumptions of invariant %q (its `assumes:` list)", name, cx.inv.Name)
		} else {
			errs.Add(call.Fun.Pos(), source.ErrModel, "invariant %q is not assumed by proof %s: a strategy may instantiate only invariants of its `assume:` lists", name, cx.proof.Name)
		}
		return nil
	}
	q, ok := inst.Invariant.Body.(*expr.Quant)
	if !ok || !q.Forall {
		errs.Add(call.Fun.Pos(), source.ErrModel, "cannot instantiate invariant %q: its body is not of the form forall x: S. P", name)
		return nil
	}
	if len(call.Args) == 0 || len(call.Args) > len(q.Binders) {
		errs.Add(x.Pos(), source.ErrModel, "invariant %q binds %d variable%s: give 1 to %d terms, found %d", name, len(q.Binders), plural(len(q.Binders)), len(q.Binders), len(call.Args))
		return nil
	}
	good := true
	for i, a := range call.Args {
		b := q.Binders[i]
		want := b.Var.Sort
		if b.Lo != nil {
			want = expr.IntSort
		}
		if why := ioa.InstantiableBinder(b); why != "" {
			errs.Add(a.Pos(), source.ErrModel, "cannot instantiate %s of invariant %q: %s", b.Var.Name, name, why)
			good = false
			continue
		}
		if s := chk.CheckExpr(a, sc, want); s.IsInvalid() {
			good = false
		}
		inst.Args = append(inst.Args, a)
	}
	if !good {
		return nil
	}
	return inst
}

// parametrized reads `parametrized` or `parametrized: [names]`.
func (fl *fileLoader) parametrized(it strategyItem, cx *strategyCtx) *ioa.StrategyStep {
	if it.actionNode != nil {
		fl.errorf(it.actionNode, source.ErrModel, "strategy parametrized applies to every action: %q is not allowed with it", strategyActionsKey)
		return nil
	}
	if cx.inv.Body == nil {
		return nil
	}
	bs, why := ioa.ParametrizedBinders(cx.inv.Body)
	if why != "" {
		fl.errorf(it.nameNode, source.ErrModel, "strategy parametrized needs a transaction-indexed invariant: %s", why)
		return nil
	}
	st := &ioa.StrategyStep{Name: it.name, Pos: fl.f.pos(it.nameNode)}
	for _, b := range bs {
		st.Binders = append(st.Binders, b.Var)
	}
	var names []*yaml.Node
	if it.arg != nil && !isNull(it.arg) {
		names = fl.names(it.arg, "the index names of parametrized")
	}
	if len(names) > len(bs) {
		fl.errorf(names[len(bs)], source.ErrModel, "invariant %q binds %d variable%s: give at most %d index names", cx.inv.Name, len(bs), plural(len(bs)), len(bs))
		return nil
	}
	seen := map[string]bool{}
	for i, n := range names {
		name := strings.TrimSpace(n.Value)
		switch {
		case !isIdent(name) || reserved(name):
			fl.errorf(n, source.ErrName, "invalid index name %q", shorten(name))
			return nil
		case seen[name]:
			fl.errorf(n, source.ErrName, "duplicate index name %q", name)
			return nil
		}
		seen[name] = true
		if old := cx.auto.Scope.Lookup(name); old != nil && old.Kind != expr.ObjSort {
			fl.errorf(n, source.ErrName, "index name %q hides %s declared %s", name, objKindName(old), fl.where(old.Pos))
			return nil
		}
		for _, act := range cx.actions {
			if act.Scope != nil && act.Scope.LookupLocal(name) != nil {
				fl.errorf(n, source.ErrName, "index name %q is also a parameter of action %s: choose another name", name, act.Name)
				return nil
			}
		}
		st.Index = append(st.Index, &expr.Object{Kind: expr.ObjBound, Name: name, Sort: bs[i].Var.Sort, Pos: fl.f.pos(n)})
	}
	cx.index = st.Index
	return st
}
