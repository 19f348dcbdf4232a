// This file implements the Obligation and Edge records that Generate
// returns, and the naming scheme of obligations and dependency items.

package simulation

import (
	"strings"

	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa"
)

// The clauses of obligations (Obligation.Clause): the kinds of
// ioa.ClauseKind, which docs/proofs.md lists.
const (
	ClauseStart     = string(ioa.ClauseStart)
	ClauseInvariant = string(ioa.ClauseInvariant)
	ClausePre       = string(ioa.ClausePre)
	ClauseRelation  = string(ioa.ClauseRelation)
	ClausePost      = string(ioa.ClausePost)
	ClauseEvent     = string(ioa.ClauseEvent)
	ClauseCases     = string(ioa.ClauseCases)
	ClauseTotality  = string(ioa.ClauseTotality)
	ClauseGuard     = string(ioa.ClauseGuard)
	ClauseCommute   = string(ioa.ClauseCommute)
	ClauseLoop      = string(ioa.ClauseLoop)
)

// Obligation is one atomic validity check: Problem holds the hypotheses
// and the negated goal, and the obligation is proved when the solver
// answers unsat.
type Obligation struct {
	// ID is the stable, unique name of the obligation, e.g.
	//   "TMS2 › invariant beginIdxBound › DoRead"
	//   "TxnOrdTMS2WithFailures→TxnOrdTMS2 › refinement › DoRead › case 2 › pre(DoRead)"
	// (see docs/proofs.md, "Obligation names").
	ID string
	// Group is the ID's prefix naming the invariant or the edge and kind,
	// e.g. "TMS2 › invariant beginIdxBound" or "C→A › refinement".
	Group string
	// Edge is the edge name "C→A", or "" for an invariant obligation.
	Edge string
	// Invariant is the key (InvariantKey) of the invariant the obligation
	// helps prove, or "" for an edge obligation.
	Invariant string
	// Clause is one of the Clause* constants.
	Clause string
	// Action is the concrete action (invariants: the action), or "".
	Action string
	// Case is "case k" when the action has several cases, or "".
	Case string
	// Pos is the YAML the obligation blames when it fails: the invariant,
	// the relation clause, the case, the abstract step, the mapping entry.
	Pos source.Pos
	// Problem is the hypotheses and the negated goal; unsat proves it.
	Problem *logic.Problem
	// Deps are the source items whose text reaches Problem, sorted:
	// "automaton:A/action:X", "automaton:A/invariant:P",
	// "automaton:A/definition:d", "automaton:A/init", "automaton:A/state",
	// "automaton:A/constant:k", "automaton:A/view:X", "proof:P/clause:R",
	// "proof:P/mapping", "proof:P/step:X", "proof:P/start", ... (see
	// docs/proofs.md, "Dependencies").
	Deps []string
	// Assumes are the keys of the invariants the hypotheses assume; the
	// obligation's verdict counts only once they are proved.
	Assumes []string
	// AssumeChosen is set when a strategy's assume: list chose the
	// invariants the hypotheses assume (the driver's slices then keep
	// them all).
	AssumeChosen bool
	// Replay decodes a model of Problem and re-checks it with the
	// reference evaluator; see replay.go.
	Replay Replayer
	// Sources are the files, sorted, whose content Problem is built
	// from: the files of the automata (and their interfaces) and proofs
	// the obligation's generation reads — for an edge, its proof, both
	// automata, and the proofs and automata of the chains of the
	// invariants it assumes by transfer; and every automaton whose
	// definitions, constants or state its expressions reach. Generation
	// is deterministic, so an obligation generated again by the same
	// ladder from files with the same content has the same problem.
	Sources []string

	automaton *ioa.Automaton     // for invariant obligations: the automaton
	lazy      *pendingObligation // Config.Lazy: the plan Encode builds from
	restored  bool               // UnitPlan.Restore: no plan to build from
}

// Edge is one proof file's edge C → A and the obligations it consists of.
type Edge struct {
	Name        string     // "C→A"
	Proof       *ioa.Proof // the proof file
	Obligations []string   // the IDs of its obligations, in generation order
	// Assumes are the keys of every invariant its obligations assume,
	// sorted: the edge is proved only when they are.
	Assumes []string
	// Transfers describe the keys of Assumes that name invariants assumed
	// by transfer.
	Transfers []*TransferAssumption
}

// TransferAssumption is an invariant X.P an edge assumes by invariant transfer
// along a chain of refinement mappings (ioa.InvariantRef). It holds when
// P is proved of X and every proof of the chain is proved (the rules
// refinement-composition and invariant-transfer, LLM12 §5.3).
type TransferAssumption struct {
	Key    string       // the key among the edge's Assumes: InvariantKey(owner, "X.P")
	Name   string       // the theorem it stands for, "C satisfies X.P"
	Source string       // the key of P, an invariant of X
	Chain  []*ioa.Proof // the refinements from the owner to X
}

// EdgeName returns the name of the edge C → A: "C→A".
func EdgeName(p *ioa.Proof) string { return p.Concrete.Name + "→" + p.Abstract.Name }

// InvariantKey returns the key of invariant name of automaton a, which is
// also its dependency item: "automaton:A/invariant:name". The implicit
// Nat invariants are named "<variable>:Nat".
func InvariantKey(a *ioa.Automaton, name string) string {
	return "automaton:" + a.Name + "/invariant:" + name
}

// Sep separates the components of obligation IDs.
const Sep = " › "

// join builds an ID from its non-empty components.
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, Sep)
}

// Replayer decodes a model of an obligation's Problem (a counterexample to
// the obligation, since the Problem asserts the negated goal) and re-checks
// it with the reference evaluator. It returns the counterexample when the
// evaluator agrees that the hypotheses hold and the goal fails, and an
// error with code source.ErrInternal ("solver model does not replay")
// otherwise.
type Replayer func(m logic.Model) (*Counterexample, error)
