// This file holds the strategy model: the `strategy:` lists of invariants,
// of proofs and of the cases of step correspondences (docs/proofs.md,
// "Strategies"), attached to Invariant.Strategy, Proof.Strategy and
// Case.Strategy. Package ioa/load fills it: it checks the strategy names,
// resolves invariant names and sort-checks every expression in the scope
// of each action the step applies to. Package strategies gives the steps
// their meaning; package simulation applies the resulting hints. The
// conditions on a step's arguments (Splittable, InstantiableBinder,
// ParametrizedBinders) are here too: the loader checks them, and
// simulation checks them again when it applies a hint.

package ioa

import (
	"fmt"
	"slices"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// The strategy names.
const (
	StrategySplit        = "split"        // split: EXPR, a case split on a Bool, enum or Option expression
	StrategyAssume       = "assume"       // assume: [names], the invariants the obligations assume
	StrategyInstantiate  = "instantiate"  // instantiate: [inv(terms)], instances of quantified invariants
	StrategyParametrized = "parametrized" // parametrized or parametrized: [names], SS's thread-indexed rule P-INV
)

// Strategy is a `strategy:` list: the steps a user asks for, in order.
type Strategy struct {
	Pos   source.Pos // the `strategy:` key
	Steps []*StrategyStep
}

// StrategyStep is one item of a strategy list: a strategy name with its
// arguments, resolved and sort-checked.
type StrategyStep struct {
	Name string     // StrategySplit, StrategyAssume, StrategyInstantiate or StrategyParametrized
	Pos  source.Pos // the name
	// Actions are the actions the step is restricted to by `actions:`;
	// nil means every action the list applies to.
	Actions []*Action
	// Clauses are the clauses of step correspondences the step is
	// restricted to by `clauses:`, written as obligation IDs name them
	// ("relation(R)", "pre(β)", "pre(β#2)", "post(x)", "event"); nil means
	// every clause.
	Clauses []StepClause
	// Text is the expression of a split as written, for obligation names.
	Text string
	// Invariants are the invariants an assume step lists.
	Invariants []*StrategyInvariant
	// Index are the names a parametrized step gives to the leading bound
	// variables of the invariant, in order (ObjBound objects of their
	// sorts; fewer than the binders when the list is shorter). Binders are
	// those bound variables.
	Index, Binders []*expr.Object
	// Args are the expressions of a split or instantiate step, checked in
	// the scope of each action the step applies to.
	Args map[*Action]*StrategyArgs
}

// AppliesTo reports whether the step applies to obligations of act.
func (st *StrategyStep) AppliesTo(act *Action) bool {
	return st.Actions == nil || slices.Contains(st.Actions, act)
}

// AppliesToClause reports whether the step applies to obligations of
// clause c (the last component of their ID, e.g. "relation(mem)", read by
// ParseStepClause).
func (st *StrategyStep) AppliesToClause(clause StepClause) bool {
	return st.Clauses == nil || slices.Contains(st.Clauses, clause)
}

// StrategyInvariant is an invariant named by a strategy.
type StrategyInvariant struct {
	Name      string // as written, e.g. "memStep" or "c.memStep"
	Pos       source.Pos
	Automaton *Automaton
	Invariant *Invariant
}

// StrategyArgs are the expressions of one step in the scope of one action.
type StrategyArgs struct {
	Split     expr.Expr // split: a Bool, enum or Option expression
	Instances []*StrategyInstance
}

// StrategyInstance is an instance inv(terms) of a quantified invariant:
// its leading bound variables, in order, at the terms.
type StrategyInstance struct {
	Text      string // as written
	Pos       source.Pos
	Automaton *Automaton
	Invariant *Invariant
	// State is the state the invariant is instantiated in: c, cpost or a
	// in a proof; nil in an invariant's strategy, where it is the
	// pre-state of the step.
	State *expr.Object
	Args  []expr.Expr
}

// Splittable reports whether a case split on a value of sort s is
// supported: Bool, an enum or an Option, whose values are those of a
// finite set of constructors.
func Splittable(s *expr.Sort) bool {
	return s != nil && (s.Kind == expr.KBool || s.Kind == expr.KEnum || s.Kind == expr.KOption)
}

// InstantiableBinder returns why the bound variable of b cannot be
// instantiated at a term, or "". A term denotes a well-formed value of its
// sort, so an instance needs no side condition beyond the binder's range
// (lo <= x < hi) or, for a Nat variable, x >= 0; other sorts with a Nat
// inside would need the full Nat condition and are not supported.
func InstantiableBinder(b *expr.Binder) string {
	if b == nil || b.Var == nil || b.Var.Sort == nil {
		return "malformed binder"
	}
	if b.Lo != nil || b.Hi != nil {
		if b.Lo == nil || b.Hi == nil {
			return "malformed range"
		}
		return ""
	}
	s := b.Var.Sort
	if s.Kind != expr.KNat && s.HasNat() {
		return fmt.Sprintf("its sort %s has a Nat inside", s)
	}
	return ""
}

// ParametrizedBinders returns the leading bound variables of a
// transaction-indexed invariant body `forall x1: S1, …. P` (every Si a
// parameter sort), or the reason the body is not of that form.
func ParametrizedBinders(body expr.Expr) ([]*expr.Binder, string) {
	q, ok := body.(*expr.Quant)
	if !ok || !q.Forall {
		return nil, "its body is not of the form forall x: S. P"
	}
	for _, b := range q.Binders {
		if b == nil || b.Var == nil || b.Lo != nil || b.Var.Sort == nil || b.Var.Sort.Kind != expr.KParam {
			name := "?"
			if b != nil && b.Var != nil {
				name = b.Var.Name
			}
			return nil, fmt.Sprintf("its bound variable %s does not range over a parameter sort", name)
		}
	}
	return q.Binders, ""
}
