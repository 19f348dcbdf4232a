// This file implements the identity of a clause of a proof's obligations:
// its kind and, for the step clauses a strategy can name, its argument.
// The generator names obligations with it, the loader reads a strategy's
// `clauses:` with it, and the cross-checker reads failures with it.

package ioa

import (
	"fmt"
	"strconv"
	"strings"
)

// ClauseKind is the kind of clause an obligation checks.
type ClauseKind string

// The clause kinds (docs/proofs.md, "Obligations").
const (
	ClauseStart     ClauseKind = "start"     // I0, F0, B0, refinement and history start conditions
	ClauseInvariant ClauseKind = "invariant" // I1: an invariant is preserved by an action
	ClausePre       ClauseKind = "pre"       // an abstract step's precondition along the case's sequence
	ClauseRelation  ClauseKind = "relation"  // a relation clause re-established (forward) or established for the pre-state witness (backward)
	ClausePost      ClauseKind = "post"      // the computed abstract post-state equals the mapped (refinement) or given (backward) one
	ClauseEvent     ClauseKind = "event"     // the event arguments agree through both views
	ClauseCases     ClauseKind = "cases"     // case coverage: the guards of an action's cases cover its precondition
	ClauseTotality  ClauseKind = "totality"  // B2: the totality witness is related
	ClauseGuard     ClauseKind = "guard"     // history: the preconditions agree
	ClauseCommute   ClauseKind = "commute"   // history: the mapping commutes with the effects
	ClauseLoop      ClauseKind = "loop"      // a repeated abstract step: loop(start), loop(pre), loop(step)
)

// The arguments of the clause loop: a repeated step's invariant holds
// when it starts (start), each iteration's step is enabled (pre) and
// keeps the invariant (step).
const (
	LoopStart = "start"
	LoopPre   = "pre"
	LoopStep  = "step"
)

// StepClause names one clause of a step obligation as obligation IDs
// write it: "relation(R)", "pre(β)" or "pre(β#k)" (the k-th step of
// abstract action β in a case that takes it several times), "post(x)",
// "loop(start)", "loop(pre)", "loop(step)", "event".
type StepClause struct {
	Kind ClauseKind // ClauseRelation, ClausePre, ClausePost or ClauseEvent
	Arg  string     // the relation clause, abstract action or abstract variable; "" for event
	N    int        // for pre: k of "β#k", or 0
}

// String returns the clause as obligation IDs write it.
func (c StepClause) String() string {
	switch {
	case c.Kind == ClauseEvent:
		return string(ClauseEvent)
	case c.N > 0:
		return fmt.Sprintf("%s(%s#%d)", c.Kind, c.Arg, c.N)
	}
	return fmt.Sprintf("%s(%s)", c.Kind, c.Arg)
}

// ParseStepClause reads a step clause written as String writes it.
func ParseStepClause(s string) (StepClause, error) {
	const want = "expected relation(R), pre(β), post(x), loop(start), loop(pre), loop(step) or event"
	if s == string(ClauseEvent) {
		return StepClause{Kind: ClauseEvent}, nil
	}
	kind, arg, found := strings.Cut(s, "(")
	if !found || !strings.HasSuffix(arg, ")") || len(arg) < 2 {
		return StepClause{}, fmt.Errorf("%s", want)
	}
	c := StepClause{Kind: ClauseKind(kind), Arg: strings.TrimSuffix(arg, ")")}
	switch c.Kind {
	case ClauseRelation, ClausePost:
	case ClauseLoop:
		if c.Arg != LoopStart && c.Arg != LoopPre && c.Arg != LoopStep {
			return StepClause{}, fmt.Errorf("%s", want)
		}
	case ClausePre:
		if a, k, ok := strings.Cut(c.Arg, "#"); ok {
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 {
				return StepClause{}, fmt.Errorf("%q: expected pre(β#k) with k a positive number", s)
			}
			c.Arg, c.N = a, n
		}
	default:
		return StepClause{}, fmt.Errorf("%s", want)
	}
	if c.Arg == "" {
		return StepClause{}, fmt.Errorf("%s", want)
	}
	return c, nil
}
