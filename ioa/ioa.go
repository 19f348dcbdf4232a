// Package ioa owns the model of I/O automata with views: interfaces (the
// shared event vocabulary and parameter sorts of a hierarchy), automata
// (sorts, constants, definitions, state variables, initial conditions,
// actions with preconditions and effects, invariants), views mapping
// external actions to events, the proof edges between automata
// (proof.go), the hierarchy that holds them (Hierarchy, hierarchy.go),
// the `strategy:` lists of invariants, proofs and cases (strategy.go) and
// the liveness analysis of per-process registers (DeadRegisters,
// liveness.go).
//
// The model is built by package ioa/load from YAML and is read by the
// explorer, the obligation generator, the strategies and the SMT encoder,
// none of which imports the loader. Expressions are
// sort-checked ioa/expr trees whose identifiers resolve to the *expr.Object
// values held here.
package ioa

import (
	"ladder/internal/source"
	"ladder/ioa/expr"
)

// Kind is the kind of an action.
type Kind int

// The action kinds.
const (
	Input Kind = iota
	Output
	Internal
)

// String returns "input", "output" or "internal".
func (k Kind) String() string {
	return [...]string{"input", "output", "internal"}[k]
}

// External reports whether k is Input or Output.
func (k Kind) External() bool { return k != Internal }

// Interface is a shared event vocabulary: the parameter sorts it mentions
// and the events, declared once for a whole hierarchy of automata.
type Interface struct {
	Name   string
	File   string
	Pos    source.Pos
	Doc    string
	Sorts  []*expr.Sort // the parameter and enum sorts the events use, in declaration order
	Events []*Event     // in declaration order
	Scope  *expr.Scope  // sorts and events by name
	// Symmetry is the parameter sorts whose elements every automaton of
	// the interface is declared to treat alike (`symmetry:`): the bounded
	// checkers reduce by their permutations unless told otherwise.
	// SymmetryPos is the declaration's position.
	Symmetry    []string
	SymmetryPos source.Pos
}

// Event is an external event, e.g. ReadResp(t: T, v: V).
type Event struct {
	Name   string
	Pos    source.Pos
	Params []*expr.Object // ObjBound objects giving names and sorts
	Obj    *expr.Object   // the ObjEvent object
}

// Automaton is an I/O automaton with a view.
type Automaton struct {
	Name      string
	File      string
	Pos       source.Pos
	Doc       string
	Interface *Interface   // the vocabulary its view maps into; nil when it has no external actions
	Sorts     []*expr.Sort // every sort declared by the interface and the automaton, in declaration order
	Consts    []*expr.Object
	Defs      []*expr.Object // ObjDef objects, in dependency order (callees first)
	Vars      []*StateVar    // in declaration order; Vars[i].Obj.Index == i
	Initially []expr.Expr    // extra initial predicates (conjoined), beyond the Init of each variable
	// Final holds the predicates (conjoined) of the proper final states,
	// from `final:`. When it is non-nil, a reachable state that enables no
	// action and does not satisfy them is a deadlock, which exploration
	// reports as a violation; when it is nil, states without successors
	// are only counted.
	Final      []expr.Expr
	Actions    []*Action
	Invariants []*Invariant
	View       []*ViewEntry // one per external action, in action order
	Scope      *expr.Scope  // everything above by name
	StateSort  *expr.Sort   // record sort whose fields are the state variables (Sort.State == this automaton)
}

// StateVar is a state variable.
type StateVar struct {
	Name string
	Pos  source.Pos
	Sort *expr.Sort
	Init expr.Expr // the initial value; nil means any value of the sort (constrained only by Initially)
	Obj  *expr.Object
}

// Action is an action schema: name(params) with a kind, precondition and effect.
type Action struct {
	Name   string
	Pos    source.Pos
	Kind   Kind
	Params []*expr.Binder // ObjParam variables; an Int or Nat parameter needs a range binder `n in lo..hi`, evaluated in the pre-state
	Pre    expr.Expr      // nil means true
	Eff    []expr.Stmt    // simultaneous assignments and conditionals
	Scope  *expr.Scope    // the parameters, over the automaton scope
	View   *ViewEntry     // nil for internal actions
	Doc    string
}

// Invariant is a named state predicate claimed to hold in every reachable state.
type Invariant struct {
	Name string
	Pos  source.Pos
	Body expr.Expr
	Doc  string
	// Assumes lists the invariants the inductive step may assume in the
	// pre-state; nil means all invariants of the automaton.
	Assumes []string
	// Strategy is the invariant's `strategy:` list, for the obligations
	// of its inductive step; nil when it has none.
	Strategy *Strategy
}

// ViewEntry maps an external action to an event: action(p...) ↦ Event(args).
// The arguments are expressions over the action's parameters.
type ViewEntry struct {
	Pos    source.Pos
	Action *Action
	Event  *Event
	Args   []expr.Expr
}

// Action returns the named action, or nil.
func (a *Automaton) Action(name string) *Action {
	for _, x := range a.Actions {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// Var returns the named state variable, or nil.
func (a *Automaton) Var(name string) *StateVar {
	for _, v := range a.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// VarIndex returns the index of the named variable in Vars (its field in
// StateSort), or -1.
func (a *Automaton) VarIndex(name string) int {
	for i, v := range a.Vars {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// Invariant returns the named invariant, or nil.
func (a *Automaton) Invariant(name string) *Invariant {
	for _, v := range a.Invariants {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Event returns the named event, or nil.
func (i *Interface) Event(name string) *Event {
	for _, e := range i.Events {
		if e.Name == name {
			return e
		}
	}
	return nil
}
