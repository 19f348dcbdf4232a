// This file implements hints: the transformations of an obligation that
// proof strategies ask for. A Strategist (package strategies, untrusted)
// looks at each obligation before its problem is built and may return a
// Hint; the rules here apply it, and only in ways that are sound whatever
// the hint says:
//
//   - Keep drops hypotheses: an implication with fewer hypotheses implies
//     the one with more (weakening).
//   - Instances add hypotheses P(θ) for an invariant P = forall x. Q(x)
//     that the obligation may assume in that state: P holds there, so its
//     instance at any term does (∀-elimination). The instance keeps the
//     binder's condition: lo <= θ < hi for a range, θ >= 0 for Nat.
//   - Splits add case hypotheses. The cases are computed here, not taken
//     from the hint: one per constructor of a Bool, enum or Option
//     expression (every value of such a sort is one constructor's value:
//     the exhaustiveness axiom of SMT-LIB's datatypes, and of Bool), or
//     the decision list g1; ¬g1 ∧ g2; …; ¬g1 ∧ … ∧ ¬gn of Bool guards,
//     whose disjunction is a propositional tautology. Every model of the
//     original hypotheses satisfies the hypotheses of some case.
//   - Generalize proves the goal forall x. P(x) of an invariant step by
//     proving P(u) for fresh values u (∀-introduction: the fresh symbols
//     occur in no other hypothesis than the instances and cases above,
//     which hold for every value of u by the two previous points).
//
// Hence the obligations of one hinted obligation are jointly valid only if
// the original one is, which is all the kernel's verdicts need. Every
// invariant a sub-obligation assumes (kept or instantiated) is recorded in
// its Assumes, so joint induction and edge statuses stay correct.

package simulation

import (
	"fmt"
	"sort"
	"strings"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

// Strategist chooses the hint of an obligation about to be generated
// (Config.Strategist). It returns nil for no hint; an error is reported
// at its position and the obligation is generated without a hint.
type Strategist func(t *Target) (*Hint, error)

// Target describes an obligation offered to a Strategist: an invariant's
// inductive step for one action (Invariant set), or one clause of one
// case of a step correspondence (Proof set).
type Target struct {
	ID     string      // the obligation's ID
	Clause string      // ClauseInvariant, ClausePre, ClausePost, ClauseRelation or ClauseEvent
	Action *ioa.Action // the (concrete) action

	Automaton *ioa.Automaton // invariant obligations: the automaton
	Invariant *ioa.Invariant // invariant obligations: the invariant proved

	Proof *ioa.Proof     // edge obligations: the proof
	Step  *ioa.StepMatch // edge obligations: the action's step correspondence
	Case  *ioa.Case      // edge obligations: the case

	// Assumed are the invariants whose hypotheses the obligation has, in
	// the states they are assumed in.
	Assumed []Assumed
}

// Assumed is an invariant hypothesis of an obligation.
type Assumed struct {
	Automaton *ioa.Automaton
	Invariant *ioa.Invariant
	// State is the proof's state object it is assumed in (c, a; cpost in
	// backward simulations), or nil for the pre-state of an invariant
	// obligation.
	State *expr.Object
}

// Key returns the invariant's key (InvariantKey).
func (a Assumed) Key() string { return InvariantKey(a.Automaton, a.Invariant.Name) }

// Hint is a strategy's suggestion for one obligation. The zero Hint
// changes nothing.
type Hint struct {
	// Pos is the strategy's YAML, blamed when the hint cannot be applied.
	Pos source.Pos
	// Keep, when non-nil, lists the keys (InvariantKey) of the assumed
	// invariants whose hypotheses stay; the others are dropped. The Nat
	// conditions always stay.
	Keep []string
	// Instances are extra hypotheses: instances of quantified invariants.
	Instances []Instance
	// Generalize, for an invariant step whose invariant is
	// forall x1: S1, …. P (each Si a parameter sort), replaces the first
	// Generalize bound variables of the goal by fresh values.
	Generalize int
	// Aliases[i], when not nil, is an ObjBound object that the hint's
	// expressions use for the fresh value of the i-th bound variable.
	Aliases []*expr.Object
	// Splits are case splits; their cases multiply, in order.
	Splits []Split
	// Deps are extra dependency items of the obligations (the strategy's
	// source items).
	Deps []string
}

// Instance is the hypothesis Q(θ1, …, θk) for an invariant
// forall x1, …, xn. Q (k <= n: the other bound variables stay bound).
type Instance struct {
	Automaton *ioa.Automaton
	Invariant *ioa.Invariant
	// State is where the invariant is instantiated: the proof's c, cpost
	// or a (abstract invariants: not in backward simulations), or nil for
	// the pre-state of an invariant obligation.
	State *expr.Object
	// Args are the terms, over the obligation's names (the action's
	// parameters, the pre-state's variables or the proof's states, the
	// aliases of generalized variables).
	Args []expr.Expr
	Text string // for the hypothesis name, e.g. "beginIdxBound(t)"
}

// Split is a case split: on the values of Expr, or on the decision list
// Guards.
type Split struct {
	// Text names the split in obligation IDs, e.g. "pc[t]".
	Text string
	// Expr, when not nil, is a Bool, enum or Option expression: one case
	// per constructor, named "case Text=Value".
	Expr expr.Expr
	// Guards are Bool expressions: case k assumes Guards[k] and that no
	// earlier guard holds; a last case assumes that none holds.
	Guards []expr.Expr
	// Labels name the len(Guards)+1 cases of Guards ("case " is
	// prepended); by default "1", "2", … and "none".
	Labels []string
}

// ---- expansion ----

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

// target returns what a Strategist sees of an obligation, or nil when
// hints do not apply to it (start conditions, case coverage, totality,
// history mappings, Nat invariants).
func target(o *Obligation, p *plan) *Target {
	switch {
	case p.rule == ruleInvStep && p.inv != nil:
		t := &Target{ID: o.ID, Clause: o.Clause, Action: p.action, Automaton: p.auto, Invariant: p.inv}
		for _, inv := range p.assume {
			t.Assumed = append(t.Assumed, Assumed{Automaton: p.auto, Invariant: inv})
		}
		return t
	case p.proof != nil && p.step != nil && p.proof.Kind != ioa.ProofHistory &&
		(p.rule == ruleStepPre || p.rule == ruleStepPost || p.rule == ruleStepRel || p.rule == ruleStepEvent):
		pr := p.proof
		t := &Target{ID: o.ID, Clause: o.Clause, Action: p.action, Proof: pr, Step: p.step, Case: p.step.Cases[p.kase]}
		backward := pr.Kind == ioa.ProofBackward
		// An invariant assumed by transfer is not offered to strategies:
		// its hypothesis is P∘g, not an invariant of either automaton.
		for _, r := range pr.AssumeConcrete {
			if r.Transferred() {
				continue
			}
			t.Assumed = append(t.Assumed, Assumed{Automaton: pr.Concrete, Invariant: r.Inv, State: pr.C})
			if backward {
				t.Assumed = append(t.Assumed, Assumed{Automaton: pr.Concrete, Invariant: r.Inv, State: pr.CPost})
			}
		}
		if !backward {
			for _, r := range pr.AssumeAbstract {
				if r.Transferred() {
					continue
				}
				t.Assumed = append(t.Assumed, Assumed{Automaton: pr.Abstract, Invariant: r.Inv, State: pr.A})
			}
		}
		return t
	}
	return nil
}

// strategize offers o to the Strategist and, when it returns a hint,
// adds the hint's obligations instead of o and reports true. The IDs of
// an edge's obligations are fixed up by finishHints.
func (g *generator) strategize(o *Obligation, p *plan, d *deps, autos []*ioa.Automaton, shared [][2]*expr.Object) bool {
	t := target(o, p)
	if t == nil {
		return false
	}
	h, err := g.cfg.Strategist(t)
	if err == nil && h != nil {
		var cases []*hintCase
		if cases, err = expand(h, p); err == nil {
			var ids []string
			for _, c := range cases {
				so := *o
				so.ID = join(append([]string{o.ID}, c.labels...)...)
				so.Case = join(append([]string{o.Case}, c.labels...)...)
				so.Assumes = hintAssumes(o, p, c)
				sp := *p
				sp.hint = c
				if g.add(&so, &sp, hintDeps(d, o, h, c), autos, shared) {
					ids = append(ids, so.ID)
				}
			}
			if g.expanded == nil {
				g.expanded = map[string][]string{}
			}
			g.expanded[o.ID] = ids
			return true
		}
	}
	if err != nil {
		pos := o.Pos
		if h != nil && h.Pos.IsValid() {
			pos = h.Pos
		}
		if se, ok := err.(*source.Error); ok && se.Pos.IsValid() {
			g.errs.Add(se.Pos, se.Code, "strategy for %s: %s", o.ID, se.Msg)
		} else {
			g.errs.Add(pos, source.ErrModel, "strategy for %s: %v", o.ID, err)
		}
	}
	return false
}

// finishHints replaces, in the edges, the IDs of hinted obligations by
// those of their obligations, and recomputes the edges' assumptions.
func (g *generator) finishHints() {
	if len(g.expanded) == 0 {
		return
	}
	assumes := map[string][]string{}
	present := map[string]bool{}
	for _, o := range g.obls {
		present[o.ID] = true
		if o.Edge != "" {
			assumes[o.Edge] = union(assumes[o.Edge], o.Assumes)
		}
	}
	for _, e := range g.edges {
		var ids []string
		changed := false
		for _, id := range e.Obligations {
			if sub, ok := g.expanded[id]; ok {
				for _, s := range sub {
					if present[s] { // not dropped by an encoding error
						ids = append(ids, s)
					}
				}
				changed = true
				continue
			}
			ids = append(ids, id)
		}
		if changed {
			e.Obligations = ids
			e.Assumes = assumes[e.Name]
		}
	}
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
		bs, why := load.ParametrizedBinders(p.inv.Body)
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
			if !load.Splittable(s) {
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
		if why := load.InstantiableBinder(b); why != "" {
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
	for k := range d.items {
		nd.items[k] = true
	}
	for k, v := range d.seen {
		nd.seen[k] = v
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

// ---- applying a hint in a world ----

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
// (invariants, rules.go).
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

// ---- the worlds ----

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
