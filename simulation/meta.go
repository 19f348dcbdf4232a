// This file implements the metatheorems: the built-in rules that derive
// end-to-end results from the edges and invariants whose obligations the
// kernel has proved (LV95 §3 and §5, LLM12 §5.3, docs/proofs.md
// "Metatheorems").

package simulation

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// Status is what is known of an obligation, an invariant or an edge.
type Status int

// The statuses. The zero value is Unchecked.
const (
	Unchecked Status = iota // not (yet) sent to the solver, or depends on something unchecked
	Proved                  // every obligation unsat, every assumption proved
	Refuted                 // some obligation has a replayed counterexample
	Unknown                 // some obligation is unknown (or fails through an assumption)
)

// String returns "unchecked", "proved", "refuted" or "unknown".
func (s Status) String() string {
	switch s {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	case Unknown:
		return "unknown"
	}
	return "unchecked"
}

// Rule names a metatheorem.
type Rule string

// The rules. Each Theorem records the rule that derived it.
const (
	// RuleInduction: an invariant of A whose start and step obligations,
	// and those of every invariant they assume, are proved (invariant
	// induction, LLM12 Fig. 1 `invariantInduction`).
	RuleInduction Rule = "invariant-induction"
	// RuleRefinementEdge: a proved refinement edge C → A is a refinement
	// mapping C → A; a proved history edge C → A gives the refinement
	// mapping A → C (its mapping f; LV95 §5, HOLCF/IOA is_history_relation).
	RuleRefinementEdge Rule = "refinement-mapping"
	// RuleTraceInclusion: a proved edge C → A of any kind gives
	// traces(C) ⊆ traces(A) (finite traces; LV95 Thms. 3.4, 3.6, 3.12;
	// LLM12 Lemma 1); a history edge gives inclusion both ways.
	RuleTraceInclusion Rule = "trace-inclusion"
	// RuleTransitivity: C implements B and B implements A give C
	// implements A (transitivity of ⊆).
	RuleTransitivity Rule = "transitivity"
	// RuleComposition: refinements f: C → B and g: B → A give the
	// refinement g∘f: C → A (LLM12 §5.3).
	RuleComposition Rule = "refinement-composition"
	// RuleTransfer: a refinement f: C → A and an invariant P of A give the
	// invariant P∘f of C, because f maps reachable states of C to
	// reachable states of A (LLM12 §5.3).
	RuleTransfer Rule = "invariant-transfer"
)

// TheoremKind classifies a Theorem.
type TheoremKind int

// The theorem kinds.
const (
	Implements  TheoremKind = iota // traces(Concrete) ⊆ traces(Abstract)
	Refines                        // Map is a refinement mapping Concrete → Abstract
	InvariantOf                    // Body (over State) holds in every reachable state of Concrete
)

// Theorem is a derived result with its provenance.
type Theorem struct {
	Name     string // "C implements A", "C refines A", "C satisfies A.P"
	Kind     TheoremKind
	Concrete *ioa.Automaton // the automaton the theorem is about
	Abstract *ioa.Automaton // the specification it implements or refines, or where the invariant was proved
	Rule     Rule
	Premises []*Theorem // the theorems the rule was applied to
	// Edges and Invariants are every edge and invariant key the theorem
	// rests on, transitively, sorted.
	Edges      []string
	Invariants []string

	// Refines: the mapping of Abstract's variables over State, an ObjState
	// object of Concrete's state sort.
	Map   *ioa.StateMap
	State *expr.Object

	// InvariantOf: the invariant as proved (of Abstract) and its
	// predicate over State (P∘f; P itself when Concrete == Abstract).
	Source *ioa.Invariant
	Body   expr.Expr
}

// String returns the theorem's name and its rule.
func (t *Theorem) String() string { return t.Name + " [" + string(t.Rule) + "]" }

// Provenance returns a one-line description: the rule, the premises and
// the edges the theorem rests on.
func (t *Theorem) Provenance() string {
	var b strings.Builder
	b.WriteString(string(t.Rule))
	if len(t.Premises) > 0 {
		b.WriteString(" from ")
		for i, p := range t.Premises {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(p.Name)
		}
	}
	if len(t.Edges) > 0 {
		b.WriteString("; edges: " + strings.Join(t.Edges, ", "))
	}
	if len(t.Invariants) > 0 {
		b.WriteString("; assuming: " + strings.Join(t.Invariants, ", "))
	}
	return b.String()
}

// SameInterface reports whether automata c and a have the same external
// event vocabulary: the same interface (by name), or neither has external
// actions. Trace inclusion is meaningful only then (LV95 §2: the
// soundness theorems assume ext(C) = ext(A)).
func SameInterface(c, a *ioa.Automaton) bool {
	ci, ai := c.Interface, a.Interface
	if ci == nil || ai == nil {
		return ci == nil && ai == nil
	}
	if ci == ai {
		return true
	}
	if ci.Name != ai.Name || len(ci.Events) != len(ai.Events) {
		return false
	}
	for i, e := range ci.Events {
		f := ai.Events[i]
		if e.Name != f.Name || len(e.Params) != len(f.Params) {
			return false
		}
		for j, p := range e.Params {
			if !expr.Identical(p.Sort, f.Params[j].Sort) {
				return false
			}
		}
	}
	return true
}

// ---- the rules ----

// Induction is the rule invariant-induction: inv, an invariant of auto
// whose status (joint induction, see InvariantStatus) is st, holds in every
// reachable state of auto. It refuses an invariant that is not proved.
func Induction(auto *ioa.Automaton, inv *ioa.Invariant, key string, st Status) (*Theorem, error) {
	if st != Proved {
		return nil, fmt.Errorf("invariant-induction: invariant %s of %s is %s", inv.Name, auto.Name, st)
	}
	return &Theorem{
		Name: fmt.Sprintf("%s satisfies %s.%s", auto.Name, auto.Name, inv.Name), Kind: InvariantOf,
		Concrete: auto, Abstract: auto, Rule: RuleInduction, Invariants: []string{key},
		Source: inv, Body: inv.Body,
	}, nil
}

// EdgeRefinement is the rule refinement-mapping: a proved refinement edge
// gives its mapping as a refinement C → A, a proved history edge its
// mapping as a refinement A → C. It refuses an unproved edge, any other
// kind, and automata with different interfaces.
func EdgeRefinement(e *Edge, st Status) (*Theorem, error) {
	p := e.Proof
	if st != Proved {
		return nil, fmt.Errorf("refinement-mapping: edge %s is %s", e.Name, st)
	}
	if !SameInterface(p.Concrete, p.Abstract) {
		return nil, fmt.Errorf("refinement-mapping: %s and %s have different interfaces", p.Concrete.Name, p.Abstract.Name)
	}
	switch {
	case p.Kind.IsRefinement():
		return &Theorem{Name: p.Concrete.Name + " refines " + p.Abstract.Name, Kind: Refines,
			Concrete: p.Concrete, Abstract: p.Abstract, Rule: RuleRefinementEdge,
			Edges: []string{e.Name}, Invariants: e.Assumes, Map: p.Mapping, State: p.C}, nil
	case p.Kind == ioa.ProofHistory:
		return &Theorem{Name: p.Abstract.Name + " refines " + p.Concrete.Name, Kind: Refines,
			Concrete: p.Abstract, Abstract: p.Concrete, Rule: RuleRefinementEdge,
			Edges: []string{e.Name}, Invariants: e.Assumes, Map: p.Mapping, State: p.A}, nil
	}
	return nil, fmt.Errorf("refinement-mapping: edge %s is a %s simulation, not a refinement mapping", e.Name, p.Kind)
}

// TraceInclusion is the rule trace-inclusion: a proved edge C → A gives
// C implements A, and a history edge also A implements C. It refuses an
// unproved edge and automata with different interfaces.
func TraceInclusion(e *Edge, st Status) ([]*Theorem, error) {
	p := e.Proof
	if st != Proved {
		return nil, fmt.Errorf("trace-inclusion: edge %s is %s", e.Name, st)
	}
	if !SameInterface(p.Concrete, p.Abstract) {
		return nil, fmt.Errorf("trace-inclusion: %s and %s have different interfaces", p.Concrete.Name, p.Abstract.Name)
	}
	mk := func(c, a *ioa.Automaton) *Theorem {
		return &Theorem{Name: c.Name + " implements " + a.Name, Kind: Implements, Concrete: c, Abstract: a,
			Rule: RuleTraceInclusion, Edges: []string{e.Name}, Invariants: e.Assumes}
	}
	out := []*Theorem{mk(p.Concrete, p.Abstract)}
	if p.Kind == ioa.ProofHistory {
		out = append(out, mk(p.Abstract, p.Concrete))
	}
	return out, nil
}

// Transitivity is the rule transitivity: cb = C implements B and ba = B
// implements A give C implements A. It refuses premises that are not
// trace inclusions, that do not meet at B, or whose interfaces differ.
func Transitivity(cb, ba *Theorem) (*Theorem, error) {
	if cb.Kind != Implements || ba.Kind != Implements {
		return nil, fmt.Errorf("transitivity: premises must be trace inclusions (%s; %s)", cb.Name, ba.Name)
	}
	if cb.Abstract != ba.Concrete {
		return nil, fmt.Errorf("transitivity: %s and %s do not meet", cb.Name, ba.Name)
	}
	if !SameInterface(cb.Concrete, ba.Abstract) || !SameInterface(cb.Concrete, cb.Abstract) {
		return nil, fmt.Errorf("transitivity: %s and %s have different interfaces", cb.Concrete.Name, ba.Abstract.Name)
	}
	return &Theorem{Name: cb.Concrete.Name + " implements " + ba.Abstract.Name, Kind: Implements,
		Concrete: cb.Concrete, Abstract: ba.Abstract, Rule: RuleTransitivity, Premises: []*Theorem{cb, ba},
		Edges: union(cb.Edges, ba.Edges), Invariants: union(cb.Invariants, ba.Invariants)}, nil
}

// Composition is the rule refinement-composition: f: C → B and g: B → A
// give g∘f: C → A, whose mapping substitutes f into g. It refuses premises
// that are not refinement mappings (a forward or backward simulation does
// not compose into a mapping), that do not meet at B, or whose interfaces
// differ.
func Composition(f, g *Theorem) (*Theorem, error) {
	if f.Kind != Refines || g.Kind != Refines {
		return nil, fmt.Errorf("refinement-composition: premises must be refinement mappings (%s; %s)", f.Name, g.Name)
	}
	if f.Abstract != g.Concrete {
		return nil, fmt.Errorf("refinement-composition: %s and %s do not meet", f.Name, g.Name)
	}
	if !SameInterface(f.Concrete, f.Abstract) || !SameInterface(g.Concrete, g.Abstract) || !SameInterface(f.Concrete, g.Abstract) {
		return nil, fmt.Errorf("refinement-composition: %s, %s and %s do not share one interface",
			f.Concrete.Name, f.Abstract.Name, g.Abstract.Name)
	}
	sub := newSubstituter(g.Concrete, g.State, mapValue(f.Map))
	m := &ioa.StateMap{Pos: g.Map.Pos, Target: g.Abstract}
	for _, e := range g.Map.Entries {
		m.Entries = append(m.Entries, &ioa.MapEntry{Var: e.Var, Pos: e.Pos, Value: sub.expr(e.Value), Default: e.Default})
	}
	return &Theorem{Name: f.Concrete.Name + " refines " + g.Abstract.Name, Kind: Refines,
		Concrete: f.Concrete, Abstract: g.Abstract, Rule: RuleComposition, Premises: []*Theorem{f, g},
		Edges: union(f.Edges, g.Edges), Invariants: union(f.Invariants, g.Invariants), Map: m, State: f.State}, nil
}

// Transfer is the rule invariant-transfer: a refinement f: C → A and an
// invariant P of A give the invariant P∘f of C. It refuses a premise that
// is not a refinement mapping (in particular a forward or backward
// simulation: a relation need not map every reachable concrete state to
// one reachable abstract state with the same predicate), and an invariant
// that is not an invariant of A as proved by induction.
func Transfer(f, p *Theorem) (*Theorem, error) {
	if f.Kind != Refines {
		return nil, fmt.Errorf("invariant-transfer: %s is not a refinement mapping", f.Name)
	}
	if p.Kind != InvariantOf || p.Concrete != f.Abstract || p.Rule != RuleInduction {
		return nil, fmt.Errorf("invariant-transfer: %s is not an invariant of %s proved by induction", p.Name, f.Abstract.Name)
	}
	sub := newSubstituter(f.Abstract, nil, mapValue(f.Map))
	return &Theorem{Name: fmt.Sprintf("%s satisfies %s.%s", f.Concrete.Name, f.Abstract.Name, p.Source.Name),
		Kind: InvariantOf, Concrete: f.Concrete, Abstract: f.Abstract, Rule: RuleTransfer,
		Premises: []*Theorem{f, p}, Edges: f.Edges, Invariants: union(f.Invariants, p.Invariants),
		Source: p.Source, Body: sub.expr(p.Source.Body), State: f.State}, nil
}

func union(a, b []string) []string {
	set := map[string]bool{}
	for _, x := range a {
		set[x] = true
	}
	for _, x := range b {
		set[x] = true
	}
	out := make([]string, 0, len(set))
	for x := range set {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

// ---- derivation ----

// Derivation is the result of Derive: the statuses of invariants and edges
// and every theorem derived, in a deterministic order.
type Derivation struct {
	Invariants map[string]Status // by invariant key (InvariantKey)
	Edges      map[string]Status // by edge name
	Theorems   []*Theorem
	byName     map[string]*Theorem
}

// Theorem returns the derived theorem of that name, or nil.
func (d *Derivation) Theorem(name string) *Theorem { return d.byName[name] }

// InvariantStatus computes the status of each invariant key from the
// verdicts of the invariant obligations: an invariant is proved when every
// obligation of every invariant in the smallest set containing it and
// closed under Obligation.Assumes is proved, since the conjunction of such
// a set is then inductive (joint invariant induction, LLM12 Fig. 1;
// LV95 §2). Refuted or unknown obligations make every invariant that
// (transitively) relies on them refuted or unknown; refuted wins.
func InvariantStatus(obls []*Obligation, verdict func(id string) Status) map[string]Status {
	local := map[string]Status{}
	assumes := map[string][]string{}
	seenAssume := map[[2]string]bool{} // each assumption once: obligations repeat them
	for _, o := range obls {
		if o.Invariant == "" {
			continue
		}
		local[o.Invariant] = worse(local[o.Invariant], verdictOf(verdict, o.ID), true)
		for _, a := range o.Assumes {
			if k := [2]string{o.Invariant, a}; !seenAssume[k] {
				seenAssume[k] = true
				assumes[o.Invariant] = append(assumes[o.Invariant], a)
			}
		}
	}
	out := map[string]Status{}
	for k := range local {
		seen := map[string]bool{k: true}
		stack := []string{k}
		st := Proved
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s, ok := local[x]
			if !ok {
				s = Unchecked // assumed but never generated
			}
			if x != k {
				s = viaAssumption(s)
			}
			st = worse(st, s, false)
			for _, y := range assumes[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		out[k] = st
	}
	return out
}

// viaAssumption is the status a refuted assumption lends to what assumes
// it: Unknown, since the assuming obligations themselves may all be proved
// and only the assumption is refuted.
func viaAssumption(s Status) Status {
	if s == Refuted {
		return Unknown
	}
	return s
}

func verdictOf(verdict func(string) Status, id string) Status {
	if verdict == nil {
		return Unchecked
	}
	return verdict(id)
}

// worse combines statuses: refuted > unknown > unchecked > proved. With
// first set, the zero value of acc means "nothing yet" rather than
// Unchecked.
func worse(acc, s Status, first bool) Status {
	if first && acc == Unchecked {
		return s
	}
	rank := func(s Status) int { return [...]int{Unchecked: 1, Proved: 0, Unknown: 2, Refuted: 3}[s] }
	if rank(s) > rank(acc) {
		return s
	}
	return acc
}

// EdgeStatus is the status of an edge: proved when it has obligations,
// all are proved and every invariant it assumes is proved.
func EdgeStatus(e *Edge, verdict func(id string) Status, invs map[string]Status) Status {
	if len(e.Obligations) == 0 {
		return Unchecked
	}
	st := Proved
	for _, id := range e.Obligations {
		st = worse(st, verdictOf(verdict, id), false)
	}
	for _, k := range e.Assumes {
		s, ok := invs[k]
		if !ok {
			s = Unchecked
		}
		st = worse(st, viaAssumption(s), false)
	}
	return st
}

// edgeStatuses returns a function computing the status of each edge
// (EdgeStatus) into d.Edges, where an invariant the edge assumes by
// transfer has the status of its source invariant combined with that of
// every edge of its chain: P∘g is an invariant once P is and g is a
// refinement (LLM12 §5.3). An edge whose chains lead back to itself is
// not proved through them: the statuses are the least fixpoint.
func edgeStatuses(edges []*Edge, verdict func(id string) Status, d *Derivation) func(*Edge) Status {
	byProof := map[*ioa.Proof]*Edge{}
	for _, e := range edges {
		byProof[e.Proof] = e
	}
	visiting := map[*Edge]bool{}
	var status func(e *Edge) Status
	status = func(e *Edge) Status {
		if st, ok := d.Edges[e.Name]; ok {
			return st
		}
		if visiting[e] {
			return Unchecked
		}
		visiting[e] = true
		defer delete(visiting, e)
		invs := d.Invariants
		if len(e.Transfers) > 0 {
			invs = maps.Clone(d.Invariants)
			for _, t := range e.Transfers {
				st, ok := d.Invariants[t.Source]
				if !ok {
					st = Unchecked
				}
				for _, q := range t.Chain {
					if qe := byProof[q]; qe != nil {
						st = worse(st, viaAssumption(status(qe)), false)
					} else {
						st = worse(st, Unchecked, false)
					}
				}
				invs[t.Key] = st
			}
		}
		st := EdgeStatus(e, verdict, invs)
		d.Edges[e.Name] = st
		return st
	}
	return status
}

// Derive computes the statuses of invariants and edges from the verdicts
// of the obligations, and saturates the set of theorems under the rules:
// induction for every proved invariant, refinement-mapping and
// trace-inclusion for every proved edge, then transitivity, composition
// and transfer until nothing new follows. One theorem is kept per name
// (the first found, with the fewest rule applications).
func Derive(obls []*Obligation, edges []*Edge, verdict func(id string) Status) *Derivation {
	d := &Derivation{Edges: map[string]Status{}, byName: map[string]*Theorem{}}
	d.Invariants = InvariantStatus(obls, verdict)

	add := func(t *Theorem) bool {
		if t == nil || d.byName[t.Name] != nil {
			return false
		}
		d.byName[t.Name] = t
		d.Theorems = append(d.Theorems, t)
		return true
	}

	// Base facts, in a deterministic order.
	autos := map[string]*ioa.Automaton{}
	for _, e := range edges {
		autos[e.Proof.Concrete.Name] = e.Proof.Concrete
		autos[e.Proof.Abstract.Name] = e.Proof.Abstract
	}
	for _, o := range obls {
		if o.automaton != nil {
			autos[o.automaton.Name] = o.automaton
		}
	}
	names := make([]string, 0, len(autos))
	for n := range autos {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := autos[n]
		for _, inv := range a.Invariants {
			k := InvariantKey(a, inv.Name)
			if t, err := Induction(a, inv, k, d.Invariants[k]); err == nil {
				add(t)
			}
		}
	}
	sorted := append([]*Edge(nil), edges...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	status := edgeStatuses(edges, verdict, d)
	for _, e := range sorted {
		st := status(e)
		if t, err := EdgeRefinement(e, st); err == nil {
			add(t)
		}
		if ts, err := TraceInclusion(e, st); err == nil {
			for _, t := range ts {
				add(t)
			}
		}
	}

	// Saturate. Each round combines the theorems known at its start.
	for {
		known := append([]*Theorem(nil), d.Theorems...)
		changed := false
		for _, x := range known {
			for _, y := range known {
				if x.Abstract != y.Concrete || x == y {
					continue
				}
				if x.Kind == Implements && y.Kind == Implements && x.Concrete != y.Abstract {
					if t, err := Transitivity(x, y); err == nil {
						changed = add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == Refines && x.Concrete != y.Abstract {
					if t, err := Composition(x, y); err == nil {
						changed = add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == InvariantOf && y.Rule == RuleInduction && x.Concrete != y.Concrete {
					if t, err := Transfer(x, y); err == nil {
						changed = add(t) || changed
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	return d
}

// CheckClaims reports, at its position, every theorem a proof file
// expects (`theorems:`) that the derivation does not contain.
func CheckClaims(proofs []*ioa.Proof, d *Derivation) source.ErrorList {
	var errs source.ErrorList
	for _, p := range proofs {
		for _, c := range p.Theorems {
			if d.Theorem(c.Name()) == nil {
				errs.Add(c.Pos, source.ErrModel, "expected theorem %q is not derived from the proved edges", c.Name())
			}
		}
	}
	return errs
}
