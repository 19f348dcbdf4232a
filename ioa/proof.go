// This file implements the model of proof files: one edge of a refinement
// hierarchy between a concrete and an abstract automaton, with the relation
// or mapping, the witnesses and the step correspondence that package
// simulation turns into obligations. docs/proofs.md describes the format.

package ioa

import (
	"ladder/internal/source"
	"ladder/ioa/expr"
)

// ProofKind is the kind of an edge: the simulation technique it uses.
type ProofKind int

// The proof kinds.
const (
	ProofInvalid          ProofKind = iota
	ProofRefinement                 // a refinement mapping f: states(C) → states(A) (Lynch–Vaandrager 1995, Def. 3.3)
	ProofSimpleRefinement           // a refinement with at most one abstract step per concrete step (LLM12 §4.1)
	ProofForward                    // a forward simulation relation R ⊆ states(C) × states(A) (Lynch–Vaandrager 1995, Def. 3.5)
	ProofBackward                   // a backward simulation relation, with totality (Lynch–Vaandrager 1995, Def. 3.11)
	ProofHistory                    // a history mapping: A is C with history variables, f: states(A) → states(C) (LLM12 §4.1; Lynch–Vaandrager 1995 §5)
)

var proofKindNames = [...]string{
	ProofInvalid:          "invalid",
	ProofRefinement:       "refinement",
	ProofSimpleRefinement: "simple-refinement",
	ProofForward:          "forward",
	ProofBackward:         "backward",
	ProofHistory:          "history",
}

// String returns the kind as written in a proof file, e.g. "simple-refinement".
func (k ProofKind) String() string {
	if k >= 0 && int(k) < len(proofKindNames) {
		return proofKindNames[k]
	}
	return "invalid"
}

// ParseProofKind returns the kind spelled s, or ProofInvalid.
func ParseProofKind(s string) ProofKind {
	for k, name := range proofKindNames {
		if name == s && ProofKind(k) != ProofInvalid {
			return ProofKind(k)
		}
	}
	return ProofInvalid
}

// IsRefinement reports whether k is a refinement mapping from C to A
// (refinement or simple-refinement).
func (k ProofKind) IsRefinement() bool {
	return k == ProofRefinement || k == ProofSimpleRefinement
}

// The names that proof expressions use for whole states. In every kind `c` is
// the concrete pre-state and `a` the abstract state related to it (for
// backward simulations: the given abstract post-state); `cpost` is the
// concrete post-state Post_α(c, p) in step correspondences, and `apre` is the
// abstract pre-state witness of a backward simulation.
const (
	StateC     = "c"
	StateA     = "a"
	StateCPost = "cpost"
	StateAPre  = "apre"
)

// Proof is one edge of a hierarchy: C → A by the technique Kind.
//
// Invariant: after a successful load, every expression is sort-checked and
// its identifiers resolve to objects of Concrete, Abstract, the concrete
// action's parameters, or the state objects C, A, CPost and APre.
type Proof struct {
	Name string
	File string
	Pos  source.Pos // the `proof:` key
	Doc  string

	Kind    ProofKind
	KindPos source.Pos

	Concrete    *Automaton
	Abstract    *Automaton
	ConcretePos source.Pos // the `concrete:` value
	AbstractPos source.Pos // the `abstract:` value

	// AssumeConcrete and AssumeAbstract are the invariants the obligations
	// may assume: of C in every reachable concrete state the obligation
	// mentions, of A in the abstract pre-state (forward and history only).
	// With no `assume:` section AssumeConcrete lists every invariant of C
	// (Implicit set) and AssumeAbstract is empty.
	AssumeConcrete []*InvariantRef
	AssumeAbstract []*InvariantRef

	// Relation is R(c, a), the conjunction of its named clauses (forward
	// and backward simulations).
	Relation []*Clause

	// Mapping is the refinement mapping: for refinements every variable of
	// A given as an expression over c; for history mappings every variable
	// of C given as an expression over a.
	Mapping *StateMap

	// Start is the witness of an abstract start state a₀, an expression
	// over c per abstract variable (forward and history).
	Start *StateMap

	// Total is the totality witness τ(c) of a backward simulation.
	Total *StateMap

	// Steps is the step correspondence, one entry per concrete action in
	// action order, including the implicit same-name entries (refinement,
	// forward, backward). History mappings have none: actions correspond
	// by name.
	Steps []*StepMatch

	// Theorems are the end-to-end results the file expects the
	// metatheorems to derive.
	Theorems []*TheoremClaim

	// Strategy is the proof's top-level `strategy:` list, for the step
	// obligations of every case of every concrete action; nil when it has
	// none.
	Strategy *Strategy

	// C, A, CPost and APre are the ObjState objects named by StateC,
	// StateA, StateCPost and StateAPre. For history mappings C and A are
	// still the concrete and the abstract state.
	C, A, CPost, APre *expr.Object

	// Scope holds C and A (and, for step correspondences, see
	// StepMatch.Scope) over an empty root.
	Scope *expr.Scope
}

// InvariantRef names an invariant in an `assume:` list.
//
// A qualified name `X.P` names an invariant P of another automaton X,
// assumed by invariant transfer (LLM12 §5.3): Chain is the unique chain of
// refinement mappings, each a proof file, from the automaton the
// invariant is assumed of (the proof's concrete or abstract automaton) to
// X, and the assumption is P∘g, g the composition of their mappings. The
// edge counts as proved only when P is proved of X and every proof of the
// chain is proved (docs/proofs.md, "Invariants by transfer").
type InvariantRef struct {
	Name     string
	Pos      source.Pos // of the name in the list; the invariant's own when Implicit
	Inv      *Invariant // the invariant (of Source when Source is set)
	Implicit bool       // assumed by default, not listed

	Source *Automaton // the automaton X of a qualified name X.P, or nil
	Chain  []*Proof   // the refinement chain to Source, set once every proof is loaded
}

// Transferred reports whether r names an invariant of another automaton.
func (r *InvariantRef) Transferred() bool { return r.Source != nil }

// MapsTo returns the automaton whose states p's mapping gives, and the
// state object the mapping is written over: for a refinement C → A, A and
// c; for a history mapping C → A (whose mapping gives C over a), C and a.
// ok is false for the other kinds, which are not refinement mappings.
func (p *Proof) MapsTo() (target *Automaton, over *expr.Object, ok bool) {
	switch {
	case p.Kind.IsRefinement():
		return p.Abstract, p.C, true
	case p.Kind == ProofHistory:
		return p.Concrete, p.A, true
	}
	return nil, nil, false
}

// MapsFrom returns the automaton whose states p's mapping is written over
// (see MapsTo).
func (p *Proof) MapsFrom() *Automaton {
	if p.Kind == ProofHistory {
		return p.Abstract
	}
	return p.Concrete
}

// Clause is a named conjunct of a relation, e.g. `R3: c.status = a.status`.
type Clause struct {
	Name string
	Pos  source.Pos // of the clause's key
	Body expr.Expr  // a Bool expression over c and a
}

// StateMap gives each variable of Target an expression: a refinement
// mapping, a start or totality witness, or a backward pre-state witness.
type StateMap struct {
	Pos     source.Pos // the section's key
	Target  *Automaton // whose variables are mapped
	Entries []*MapEntry
}

// MapEntry is one variable of a StateMap: Var := Value.
type MapEntry struct {
	Var   *StateVar
	Pos   source.Pos // of the variable's key; the section's when Default
	Value expr.Expr
	// Default is set for an entry the file does not give: in a backward
	// pre-state witness an unlisted variable keeps its value in `a`.
	Default bool
}

// Entry returns the entry of the named variable, or nil.
func (m *StateMap) Entry(name string) *MapEntry {
	if m == nil {
		return nil
	}
	for _, e := range m.Entries {
		if e.Var.Name == name {
			return e
		}
	}
	return nil
}

// StepMatch says which abstract steps match a concrete action: a list of
// cases tried in order.
type StepMatch struct {
	Action   *Action // the concrete action
	Pos      source.Pos
	Implicit bool        // no `steps:` entry: the same-named abstract action with the same arguments
	Cases    []*Case     // at least one
	Scope    *expr.Scope // the action's parameters, c, a, cpost and (backward) apre
}

// Case is one case of a step correspondence: when its guard holds, the
// concrete step is matched by the abstract steps in order.
type Case struct {
	Index int        // 1-based
	Pos   source.Pos // of the case (the list item, or the entry for a single case)
	When  expr.Expr  // the guard g_k; nil means true
	Steps []*AbstractStep
	// Pre is the backward pre-state witness `pre:` over c, cpost, a and
	// the parameters (backward simulations only; unlisted variables keep
	// their value in a).
	Pre *StateMap
	// Strategy is the case's `strategy:` list, for its step obligations;
	// nil when it has none.
	Strategy *Strategy
}

// AbstractStep is β(θ): an abstract action applied to argument expressions
// over the concrete action's parameters and the states in scope, evaluated
// in the pre-states of the concrete step.
type AbstractStep struct {
	Pos    source.Pos
	Action *Action
	Args   []expr.Expr // one per parameter of Action, of its sort
	// Loop, when set, repeats the step for k = From, …, To−1 (`repeat:`):
	// Args may then mention k. Forward simulations only.
	Loop *Loop
}

// Loop is an abstract step repeated over an integer range, with the
// invariant that proves the repetition (docs/proofs.md, "Repeated
// steps"): `{repeat: β(θ(k)), for: k, from: lo, to: hi, invariant: J}`.
// Its expressions are over the step correspondence's names; J also reads
// u, the abstract state before the iteration for k (after the last one
// for k = hi).
type Loop struct {
	Pos       source.Pos
	Var       *expr.Object // k: an Int parameter, numbered after the concrete action's
	From, To  expr.Expr    // Int, evaluated in the pre-states of the concrete step
	State     *expr.Object // u: a state of the abstract automaton
	Invariant expr.Expr    // J, Bool
	// Counter is an internal action whose one parameter is Var: the free
	// k of an iteration's obligations is its parameter list.
	Counter *Action
	// Bounds is `From <= To`, InRange `From <= k and k < To`, Next `k + 1`:
	// the loader builds and checks them.
	Bounds, InRange, Next expr.Expr
}

// TheoremClaim is an expected theorem: `X implements Y`, `X refines Y`
// or `X satisfies Y.P` (package simulation derives theorems of these
// three forms).
type TheoremClaim struct {
	Pos       source.Pos
	Text      string // as written
	Subject   string // X
	Verb      string // "implements", "refines" or "satisfies"
	Object    string // Y
	Invariant string // P, for "satisfies"
}

// Name returns the claim in canonical spelling, as the metatheorems name
// theorems: "X implements Y", "X refines Y" or "X satisfies Y.P".
func (t *TheoremClaim) Name() string {
	if t.Verb == "satisfies" {
		return t.Subject + " satisfies " + t.Object + "." + t.Invariant
	}
	return t.Subject + " " + t.Verb + " " + t.Object
}

// External returns the first external abstract step of the case, or nil.
func (c *Case) External() *AbstractStep {
	for _, s := range c.Steps {
		if s.Action.Kind.External() {
			return s
		}
	}
	return nil
}

// Step returns the step correspondence of the named concrete action, or nil.
func (p *Proof) Step(action string) *StepMatch {
	for _, s := range p.Steps {
		if s.Action.Name == action {
			return s
		}
	}
	return nil
}

// Clause returns the named relation clause, or nil.
func (p *Proof) Clause(name string) *Clause {
	for _, c := range p.Relation {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// AssumeSide is one side of a proof's assumptions: the invariants Refs
// assumed of Owner.
type AssumeSide struct {
	Owner *Automaton
	Refs  []*InvariantRef
}

// AssumeSides returns the concrete side (AssumeConcrete of Concrete), then
// the abstract one (AssumeAbstract of Abstract).
func (p *Proof) AssumeSides() [2]AssumeSide {
	return [2]AssumeSide{{p.Concrete, p.AssumeConcrete}, {p.Abstract, p.AssumeAbstract}}
}
