// This file implements For: the Strategist that turns the strategy lists
// of the model (ioa.Invariant.Strategy, ioa.Proof.Strategy,
// ioa.Case.Strategy) into one hint per obligation.

package strategies

import (
	"strings"

	"ladder/ioa"
	"ladder/simulation"
)

// For returns the Strategist of the strategy declarations, for
// simulation.Config.Strategist: it reads the lists of each target's
// invariant, proof and case. It returns no hint for an obligation that no
// strategy step applies to, so a hierarchy without `strategy:` lists
// generates the same obligations as without a Strategist.
func For() simulation.Strategist {
	return hintFor
}

// hintFor collects the steps that apply to t and builds its hint.
func hintFor(t *simulation.Target) (*simulation.Hint, error) {
	b := &builder{t: t}
	switch {
	case t.Invariant != nil:
		s := t.Invariant.Strategy
		if s == nil {
			return nil, nil
		}
		b.h.Pos = s.Pos
		b.level(s, nil)
	case t.Proof != nil:
		ps, cs := t.Proof.Strategy, (*ioa.Strategy)(nil)
		if t.Case != nil {
			cs = t.Case.Strategy
		}
		if ps == nil && cs == nil {
			return nil, nil
		}
		if ps != nil {
			b.h.Pos = ps.Pos
			b.level(ps, []string{"proof:" + t.Proof.Name + "/strategy"})
		}
		if cs != nil {
			b.h.Pos = cs.Pos
			b.level(cs, nil) // a case's assume steps replace the proof's
		}
	default:
		return nil, nil
	}
	if !b.applied {
		return nil, nil
	}
	return b.finish(), nil
}

// builder accumulates the hint of one obligation.
type builder struct {
	t       *simulation.Target
	h       simulation.Hint
	keep    map[string]bool // the assume steps of the current level, or nil
	par     *parametrizedPlan
	applied bool
}

// level adds the steps of one strategy list that apply to the target.
func (b *builder) level(s *ioa.Strategy, deps []string) {
	var assumes []*ioa.StrategyStep
	for _, st := range s.Steps {
		if !st.AppliesTo(b.t.Action) || !st.AppliesToClause(clauseOf(b.t)) {
			continue
		}
		b.applied = true
		if st.Name != ioa.StrategyAssume && st.Name != ioa.StrategyParametrized && st.Args[b.t.Action] == nil {
			continue // not checked for this action: the loader reported why
		}
		switch st.Name {
		case ioa.StrategySplit:
			b.h.Splits = append(b.h.Splits, Split(st, b.t.Action))
		case ioa.StrategyAssume:
			assumes = append(assumes, st)
		case ioa.StrategyInstantiate:
			b.h.Instances = append(b.h.Instances, Instantiate(st, b.t.Action)...)
		case ioa.StrategyParametrized:
			b.par = Parametrized(st, b.t)
		}
	}
	if len(assumes) > 0 {
		b.keep = Assume(assumes...)
	}
	b.h.Deps = append(b.h.Deps, deps...)
}

// finish combines the steps: the parametrized rule's generalization, case
// split and support instances come first, then the user's splits and
// instances; the kept hypotheses are those of the assume steps (all by
// default) less the invariants the parametrized rule instantiates.
func (b *builder) finish() *simulation.Hint {
	h := b.h
	keep := b.keep
	if b.par != nil {
		if keep == nil {
			keep = map[string]bool{}
			for _, a := range b.t.Assumed {
				keep[a.Key()] = true
			}
		}
		support := b.par.support(b.t, keep)
		h.Generalize, h.Aliases = b.par.generalize, b.par.aliases
		if b.par.split != nil {
			h.Splits = append([]simulation.Split{*b.par.split}, h.Splits...)
		}
		h.Instances = append(support, h.Instances...)
	}
	if keep != nil {
		h.Keep = []string{}
		for _, a := range b.t.Assumed {
			if k := a.Key(); keep[k] && !contains(h.Keep, k) {
				h.Keep = append(h.Keep, k)
			}
		}
	}
	return &h
}

// clauseOf returns the clause of an edge obligation as its ID names it
// (the ID's last component, e.g. "relation(mem)"), or the zero StepClause,
// which no `clauses:` list names, for an invariant obligation.
func clauseOf(t *simulation.Target) ioa.StepClause {
	if t.Proof == nil {
		return ioa.StepClause{}
	}
	name := t.ID
	if i := strings.LastIndex(t.ID, simulation.Sep); i >= 0 {
		name = t.ID[i+len(simulation.Sep):]
	}
	c, err := ioa.ParseStepClause(name)
	if err != nil {
		return ioa.StepClause{}
	}
	return c
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// keyOf returns the key of an invariant named by a strategy.
func keyOf(a *ioa.Automaton, inv *ioa.Invariant) string { return simulation.InvariantKey(a, inv.Name) }
