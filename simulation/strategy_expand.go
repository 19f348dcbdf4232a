// This file implements the expansion of a hint (strategy.go gives the
// soundness argument): the cases of its splits, computed here from the
// sorts and guards rather than taken from the hint, the check of its
// instances, and the invariants and dependencies that each case of a
// hinted obligation records.

package simulation

import (
	"fmt"
	"sort"
	"strings"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// hintCase is one obligation of a hinted obligation: the hint, resolved,
// with the conditions of its case.
type hintCase struct {
	keep       map[string]bool // nil: keep every hypothesis
	instances  []Instance
	generalize int
	aliases    []*expr.Object
	conds      []caseCond
	labels     []string // the cases' names, in split order
}

// caseCond is a case hypothesis: x has constructor ctor, or the guard x
// holds (ctor < 0) or not (neg).
type caseCond struct {
	x    expr.Expr
	ctor int
	neg  bool
	name string
}

// expand checks h against the obligation of p and returns its cases.
// Nothing in h is trusted: expand rejects what the rules cannot apply
// soundly.
func expand(h *Hint, p *plan) ([]*hintCase, error) {
	at := func(pos source.Pos, format string, args ...any) error {
		if !pos.IsValid() {
			pos = h.Pos
		}
		return &source.Error{Pos: pos, Code: source.ErrModel, Msg: fmt.Sprintf(format, args...)}
	}
	base := &hintCase{generalize: h.Generalize, aliases: h.Aliases}
	if h.Keep != nil {
		base.keep = map[string]bool{}
		for _, k := range h.Keep {
			base.keep[k] = true
		}
	}
	if h.Generalize > 0 {
		if p.rule != ruleInvStep || p.inv == nil {
			return nil, at(h.Pos, "only an invariant's inductive step can generalize its goal")
		}
		bs, why := ioa.ParametrizedBinders(p.inv.Body)
		if why != "" {
			return nil, at(h.Pos, "cannot generalize invariant %s: %s", p.inv.Name, why)
		}
		if h.Generalize > len(bs) || len(h.Aliases) > h.Generalize {
			return nil, at(h.Pos, "invariant %s binds %d variables: cannot generalize %d with %d names", p.inv.Name, len(bs), h.Generalize, len(h.Aliases))
		}
		for i, a := range h.Aliases {
			if a != nil && (a.Kind != expr.ObjBound || !expr.Identical(a.Sort, bs[i].Var.Sort)) {
				return nil, at(a.Pos, "index name %s does not denote a value of sort %s", a.Name, bs[i].Var.Sort)
			}
		}
	}
	for _, in := range h.Instances {
		if err := checkInstance(in, p); err != nil {
			return nil, at(h.Pos, "%v", err)
		}
		base.instances = append(base.instances, in)
	}
	cases := []*hintCase{base}
	for _, sp := range h.Splits {
		var alts [][]caseCond
		var names []string
		switch {
		case sp.Expr != nil && sp.Guards == nil:
			s := sp.Expr.Sort()
			if !ioa.Splittable(s) {
				return nil, at(sp.Expr.Pos(), "cannot split on %s of sort %s: a split expression must be Bool, an enum or an Option", sp.Text, s)
			}
			for i, v := range ctorNames(s) {
				name := "case " + sp.Text + "=" + v
				alts = append(alts, []caseCond{{x: sp.Expr, ctor: i, name: name}})
				names = append(names, name)
			}
		case sp.Expr == nil && len(sp.Guards) > 0:
			for _, g := range sp.Guards {
				if g == nil || g.Sort() == nil || g.Sort().Kind != expr.KBool {
					return nil, at(h.Pos, "a split guard must be a Bool expression")
				}
			}
			labels := sp.Labels
			if len(labels) != len(sp.Guards)+1 {
				labels = nil
				for k := range sp.Guards {
					labels = append(labels, fmt.Sprint(k+1))
				}
				labels = append(labels, "none")
			}
			for k := 0; k <= len(sp.Guards); k++ {
				name := "case " + labels[k]
				var cs []caseCond
				for j := 0; j < k && j < len(sp.Guards); j++ {
					cs = append(cs, caseCond{x: sp.Guards[j], ctor: -1, neg: true, name: name})
				}
				if k < len(sp.Guards) {
					cs = append(cs, caseCond{x: sp.Guards[k], ctor: -1, name: name})
				}
				alts = append(alts, cs)
				names = append(names, name)
			}
		default:
			return nil, at(h.Pos, "a split needs an expression or guards")
		}
		var next []*hintCase
		for _, c := range cases {
			for i, alt := range alts {
				nc := *c
				nc.conds = append(append([]caseCond(nil), c.conds...), alt...)
				nc.labels = append(append([]string(nil), c.labels...), names[i])
				next = append(next, &nc)
			}
		}
		cases = next
	}
	return cases, nil
}

// ctorNames returns the names of the constructors of a splittable sort,
// in the order of their indices: true, false; the enum's constants; None,
// Some.
func ctorNames(s *expr.Sort) []string {
	switch s.Kind {
	case expr.KBool:
		return []string{"true", "false"}
	case expr.KEnum:
		return s.Elems
	case expr.KOption:
		return []string{"None", "Some"}
	}
	return nil
}

// checkInstance reports why in cannot be assumed in the obligation of p.
func checkInstance(in Instance, p *plan) error {
	if in.Invariant == nil || in.Automaton == nil {
		return fmt.Errorf("instance of no invariant")
	}
	found := false
	for _, inv := range in.Automaton.Invariants {
		found = found || inv == in.Invariant
	}
	if !found {
		return fmt.Errorf("%s is not an invariant of %s", in.Invariant.Name, in.Automaton.Name)
	}
	switch {
	case p.proof == nil:
		if in.State != nil || in.Automaton != p.auto {
			return fmt.Errorf("an invariant's step may instantiate invariants of %s in its pre-state only", p.auto.Name)
		}
	default:
		pr := p.proof
		concrete := in.Automaton == pr.Concrete && (in.State == pr.C || in.State == pr.CPost)
		abstract := in.Automaton == pr.Abstract && in.State == pr.A && pr.Kind != ioa.ProofBackward && pr.Kind != ioa.ProofHistory
		if !concrete && !abstract {
			return fmt.Errorf("cannot assume invariant %s of %s there: concrete invariants hold in c and cpost, abstract ones in a (not in backward simulations)", in.Invariant.Name, in.Automaton.Name)
		}
	}
	q, ok := in.Invariant.Body.(*expr.Quant)
	if !ok || !q.Forall {
		return fmt.Errorf("invariant %s is not of the form forall x: S. P", in.Invariant.Name)
	}
	if len(in.Args) == 0 || len(in.Args) > len(q.Binders) {
		return fmt.Errorf("invariant %s binds %d variables, instance has %d terms", in.Invariant.Name, len(q.Binders), len(in.Args))
	}
	for i, a := range in.Args {
		b := q.Binders[i]
		if why := ioa.InstantiableBinder(b); why != "" {
			return fmt.Errorf("cannot instantiate %s of invariant %s: %s", b.Var.Name, in.Invariant.Name, why)
		}
		want := b.Var.Sort
		if b.Lo != nil {
			want = expr.IntSort
		}
		if a == nil || a.Sort() == nil || a.Sort().IsInvalid() || !expr.Assignable(a.Sort(), want) {
			return fmt.Errorf("term %d of the instance of %s does not have sort %s", i+1, in.Invariant.Name, want)
		}
	}
	return nil
}

// hintAssumes returns the assumptions of case c of hinted obligation o:
// o's, without the invariants c drops, with those it instantiates.
func hintAssumes(o *Obligation, p *plan, c *hintCase) []string {
	nat := map[string]bool{}
	if p.auto != nil {
		for _, k := range natKeys(p.auto) {
			nat[k] = true
		}
	}
	if p.proof != nil {
		for _, a := range []*ioa.Automaton{p.proof.Concrete, p.proof.Abstract} {
			for _, k := range natKeys(a) {
				nat[k] = true
			}
		}
	}
	set := map[string]bool{}
	for _, k := range o.Assumes {
		if c.keep == nil || c.keep[k] || nat[k] {
			set[k] = true
		}
	}
	for _, in := range c.instances {
		set[InvariantKey(in.Automaton, in.Invariant.Name)] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// hintDeps returns the dependencies of case c of hinted obligation o: d
// without the invariants c drops, with the hint's expressions and items.
func hintDeps(d *deps, o *Obligation, h *Hint, c *hintCase) *deps {
	nd := newDeps()
	nd.memo = d.memo
	for k := range d.items {
		nd.items[k] = true
	}
	for k, v := range d.seen {
		nd.seen[k] = v
	}
	for a := range d.autos {
		nd.autos[a] = true
	}
	if c.keep != nil {
		for _, k := range o.Assumes {
			if !c.keep[k] && k != o.Invariant && !strings.HasSuffix(k, ":Nat") {
				delete(nd.items, k)
			}
		}
	}
	for _, in := range c.instances {
		nd.invariant(in.Automaton, in.Invariant)
		for _, a := range in.Args {
			nd.expr(a)
		}
	}
	for _, cc := range c.conds {
		nd.expr(cc.x)
	}
	for _, it := range h.Deps {
		nd.add(it)
	}
	return nd
}
