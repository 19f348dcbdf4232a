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
//
// This file holds the hint's types and where hints are asked for and
// recorded; a hint is expanded into cases in strategy_expand.go and
// applied to a rule's scenario in strategy_apply.go.

package simulation

import (
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
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
		(p.rule == ruleStepPre || p.rule == ruleStepPost || p.rule == ruleStepRel || p.rule == ruleStepEvent ||
			p.rule == ruleLoopStart || p.rule == ruleLoopPre || p.rule == ruleLoopStep):
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
				so.AssumeChosen = c.keep != nil
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
