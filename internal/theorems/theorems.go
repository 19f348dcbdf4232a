// Package theorems owns what follows from the kernel's verdicts: the
// status of every invariant and every edge, and the end-to-end theorems
// derived from them by the metatheorems (LV95 §3 and §5, LLM12 §5.3;
// docs/proofs.md "Metatheorems"). It is the phase after the kernel, and
// trusted like it: an edge or a theorem is reported proved only when
// Derive (or DeriveTallies) says so, from the kernel's verdicts
// (kernel.Verdict) mapped through FromVerdict, the one mapping from a
// verdict to a status.
//
// Its input is names and keys only (Input): which obligations belong to
// which invariant or edge, what each assumes, which automata an edge
// relates and of which kind it is, and a canonical spelling of each
// automaton's interface. Package simulation builds it from the generated
// obligations (simulation.TheoremInput); nothing here reads the
// language, so the closure of this package is the kernel's plus these
// files.
package theorems

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"ladder/internal/kernel"
)

// Status is what is known of an invariant or an edge (and of an
// obligation, through FromVerdict).
type Status int

// The statuses. The zero value is Unchecked.
const (
	Unchecked Status = iota // not (yet) checked, or depends on something unchecked
	Proved                  // every obligation discharged, every assumption proved
	Refuted                 // some obligation has a replayed counterexample
	Unknown                 // some obligation is unknown (or fails through an assumption)
)

// String returns the report's spelling: "proved", "refuted", "unknown" or
// "not checked".
func (s Status) String() string {
	switch s {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	case Unknown:
		return "unknown"
	}
	return "not checked"
}

// FromVerdict is the status of an obligation whose kernel verdict is v:
// Proved when the kernel discharged it (unsat, or trivial by
// construction), Refuted when it replayed a counterexample, Unknown
// otherwise. An obligation without a verdict is Unchecked.
func FromVerdict(v kernel.Verdict, decided bool) Status {
	switch {
	case !decided:
		return Unchecked
	case v.Discharged():
		return Proved
	case v == kernel.Refuted:
		return Refuted
	}
	return Unknown
}

// Verdicts is the kernel's verdict of each decided obligation, by ID.
type Verdicts map[string]kernel.Verdict

// Status is the status of obligation id: FromVerdict of its verdict.
func (vs Verdicts) Status(id string) Status {
	v, ok := vs[id]
	return FromVerdict(v, ok)
}

// Statuses are the statuses of obligations by position (FromVerdict of
// their verdicts): a run that knows them so tallies them (TallyOf).
type Statuses []Status

// EdgeKind is the kind of a proof edge, as far as the rules care.
type EdgeKind int

// The edge kinds.
const (
	Refinement EdgeKind = iota // refinement or simple-refinement: a mapping C → A
	Forward                    // forward simulation C → A
	Backward                   // backward simulation C → A
	History                    // history mapping: A is C with history variables, its mapping A → C
)

// Obligation is one obligation as the rules see it.
type Obligation struct {
	ID string
	// Automaton is the automaton of an invariant obligation ("" for an
	// edge's).
	Automaton string
	// Invariant is the key of the invariant it belongs to ("" for an
	// edge's), Assumes the keys of the invariants it assumes.
	Invariant string
	Assumes   []string
	// Edge is the name of the edge of an edge obligation ("" for an
	// invariant's). DeriveTallies finds an edge's obligations by it, and
	// checks that their IDs are the edge's (Edge.Obligations).
	Edge string
}

// Transferred is an invariant X.P an edge assumes by transfer along a
// chain of refinements (LLM12 §5.3): it holds when P is proved of X and
// every edge of the chain is proved.
type Transferred struct {
	Key    string   // the key among the edge's Assumes
	Source string   // the key of P
	Chain  []string // the names of the edges of the chain; "" for a proof that is not an edge here
}

// Edge is one proof edge as the rules see it.
type Edge struct {
	Name               string // "C→A"
	Kind               EdgeKind
	Concrete, Abstract string
	Obligations        []string // IDs
	Assumes            []string // invariant keys, sorted
	Transfers          []Transferred
}

// Automaton is an automaton as the rules see it.
type Automaton struct {
	Name string
	// Interface spells the automaton's external events canonically ("" for
	// none): two automata have the same interface exactly when the
	// spellings are equal. Trace inclusion is meaningful only then (LV95
	// §2: the soundness theorems assume ext(C) = ext(A)).
	Interface string
	// Invariants are its invariants' names and keys, in order.
	Invariants []Invariant
}

// Invariant names one invariant.
type Invariant struct{ Name, Key string }

// Input is what Derive reads.
type Input struct {
	Automata    []Automaton
	Obligations []Obligation
	Edges       []Edge
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
	Refines                        // a refinement mapping Concrete → Abstract
	InvariantOf                    // Invariant of Abstract holds (through the mapping) in every reachable state of Concrete
)

// Theorem is a derived result with its provenance.
type Theorem struct {
	Name     string // "C implements A", "C refines A", "C satisfies A.P"
	Kind     TheoremKind
	Concrete string // the automaton the theorem is about
	Abstract string // the specification it implements or refines, or where the invariant was proved
	Rule     Rule
	Premises []*Theorem // the theorems the rule was applied to
	// Edges and Invariants are every edge and invariant key the theorem
	// rests on, transitively, sorted.
	Edges      []string
	Invariants []string
	// Invariant is, for InvariantOf, the name of the invariant of
	// Abstract.
	Invariant string

	iface map[string]string // the interfaces of the automata, for the rules
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

// Derivation is the result of Derive: the statuses of invariants and edges
// and every theorem derived, in a deterministic order.
type Derivation struct {
	Invariants map[string]Status // by invariant key
	Edges      map[string]Status // by edge name
	Theorems   []*Theorem
	byName     map[string]*Theorem
}

// Theorem returns the derived theorem of that name, or nil.
func (d *Derivation) Theorem(name string) *Theorem { return d.byName[name] }

// ---- statuses ----

// InvariantStatus computes the status of each invariant key from the
// verdicts of the invariant obligations: an invariant is proved when every
// obligation of every invariant in the smallest set containing it and
// closed under Obligation.Assumes is proved, since the conjunction of such
// a set is then inductive (joint invariant induction, LLM12 Fig. 1;
// LV95 §2). Refuted or unknown obligations make every invariant that
// (transitively) relies on them refuted or unknown; refuted wins.
func InvariantStatus(obls []Obligation, vs Verdicts) map[string]Status {
	st := make(Statuses, len(obls))
	for i, o := range obls {
		st[i] = vs.Status(o.ID)
	}
	local, assumes := merge([]*Tally{TallyOf(obls, st)})
	return closure(local, assumes)
}

// closure returns the status of every invariant of local, the worst status
// of its own obligations, given what they assume.
func closure(local map[string]Status, assumes map[string][]string) map[string]Status {
	// An invariant's status is the worst of its own obligations' and of
	// what every invariant it reaches through assumptions lends it
	// (viaAssumption). viaAssumption never makes a status worse and keeps
	// the order of statuses, so that is the worst of its own status and
	// of viaAssumption of the worst status among the invariants it
	// reaches, itself included; which is one value per strongly connected
	// component of the assumption graph (reachWorst).
	reach := reachWorst(local, assumes)
	out := make(map[string]Status, len(local))
	for k, s := range local {
		out[k] = worse(s, viaAssumption(reach[k]))
	}
	return out
}

// reachWorst returns, for every invariant key of local or assumes, the
// worst status of the invariants reachable from it through assumes, itself
// included: local's, or Unchecked for one assumed but never generated. The
// reachable invariants of a key are those of its strongly connected
// component and those reachable from the components it assumes from;
// Tarjan's algorithm completes each component after every component it
// reaches, so each component's value is computed once from theirs.
func reachWorst(local map[string]Status, assumes map[string][]string) map[string]Status {
	ids := map[string]int{}
	var names []string
	node := func(k string) int {
		i, ok := ids[k]
		if !ok {
			i = len(names)
			ids[k] = i
			names = append(names, k)
		}
		return i
	}
	for k := range local {
		node(k)
	}
	succ := map[int][]int{}
	for k, as := range assumes {
		v := node(k)
		for _, a := range as {
			succ[v] = append(succ[v], node(a))
		}
	}
	n := len(names)
	own := make([]Status, n)
	for i, k := range names {
		s, ok := local[k]
		if !ok {
			s = Unchecked // assumed but never generated
		}
		own[i] = s
	}
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	for i := range n {
		index[i], comp[i] = -1, -1
	}
	onStack := make([]bool, n)
	var stack []int
	var compWorst []Status
	counter := 0
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		c := len(compWorst)
		worst := Proved
		var members []int
		for {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[x], comp[x] = false, c
			worst = worse(worst, own[x])
			members = append(members, x)
			if x == v {
				break
			}
		}
		for _, x := range members {
			for _, w := range succ[x] {
				if comp[w] != c {
					worst = worse(worst, compWorst[comp[w]]) // complete: reached from c
				}
			}
		}
		compWorst = append(compWorst, worst)
	}
	for v := range n {
		if index[v] < 0 {
			strong(v)
		}
	}
	out := make(map[string]Status, n)
	for i, k := range names {
		out[k] = compWorst[comp[i]]
	}
	return out
}

// sameList reports whether a and b hold the same strings, in order; lists
// that share their elements (restored obligations' often do) are not
// compared element by element.
func sameList(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
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

// worse combines statuses: refuted > unknown > unchecked > proved.
func worse(acc, s Status) Status {
	rank := func(s Status) int { return [...]int{Unchecked: 1, Proved: 0, Unknown: 2, Refuted: 3}[s] }
	if rank(s) > rank(acc) {
		return s
	}
	return acc
}

// ownByID returns the worst status of an edge's obligations under status,
// by ID; Unchecked for an edge without obligations.
func ownByID(status func(id string) Status) func(e *Edge) Status {
	return func(e *Edge) Status {
		if len(e.Obligations) == 0 {
			return Unchecked
		}
		st := Proved
		for _, id := range e.Obligations {
			st = worse(st, status(id))
		}
		return st
	}
}

// edgeStatus is the status of edge e whose obligations' worst status is
// own: own, made worse by every invariant it assumes (invs) that is not
// proved.
func edgeStatus(e *Edge, own Status, invs map[string]Status) Status {
	st := own
	for _, k := range e.Assumes {
		s, ok := invs[k]
		if !ok {
			s = Unchecked
		}
		st = worse(st, viaAssumption(s))
	}
	return st
}

// edgeStatuses returns a function computing the status of each edge
// (edgeStatus) into d.Edges, where an invariant the edge assumes by
// transfer has the status of its source invariant combined with that of
// every edge of its chain: P∘g is an invariant once P is and g is a
// refinement (LLM12 §5.3). An edge whose chains lead back to itself is
// not proved through them: the statuses are the least fixpoint.
func edgeStatuses(edges []Edge, own func(*Edge) Status, d *Derivation) func(*Edge) Status {
	byName := map[string]*Edge{}
	for i := range edges {
		byName[edges[i].Name] = &edges[i]
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
					if qe := byName[q]; q != "" && qe != nil {
						st = worse(st, viaAssumption(status(qe)))
					} else {
						st = worse(st, Unchecked)
					}
				}
				invs[t.Key] = st
			}
		}
		st := edgeStatus(e, own(e), invs)
		d.Edges[e.Name] = st
		return st
	}
	return status
}

// ---- the rules ----

// Induction is the rule invariant-induction: inv, an invariant of auto
// whose status (joint induction, see InvariantStatus) is st, holds in every
// reachable state of auto. It refuses an invariant that is not proved.
func Induction(auto *Automaton, inv Invariant, st Status) (*Theorem, error) {
	if st != Proved {
		return nil, fmt.Errorf("invariant-induction: invariant %s of %s is %s", inv.Name, auto.Name, st)
	}
	return &Theorem{
		Name: fmt.Sprintf("%s satisfies %s.%s", auto.Name, auto.Name, inv.Name), Kind: InvariantOf,
		Concrete: auto.Name, Abstract: auto.Name, Rule: RuleInduction, Invariants: []string{inv.Key},
		Invariant: inv.Name,
	}, nil
}

// sameInterface reports whether automata c and a have the same interface.
func sameInterface(iface map[string]string, c, a string) bool { return iface[c] == iface[a] }

// EdgeRefinement is the rule refinement-mapping: a proved refinement edge
// gives its mapping as a refinement C → A, a proved history edge its
// mapping as a refinement A → C. It refuses an unproved edge, any other
// kind, and automata with different interfaces.
func EdgeRefinement(e *Edge, st Status, iface map[string]string) (*Theorem, error) {
	if st != Proved {
		return nil, fmt.Errorf("refinement-mapping: edge %s is %s", e.Name, st)
	}
	if !sameInterface(iface, e.Concrete, e.Abstract) {
		return nil, fmt.Errorf("refinement-mapping: %s and %s have different interfaces", e.Concrete, e.Abstract)
	}
	switch e.Kind {
	case Refinement:
		return &Theorem{Name: e.Concrete + " refines " + e.Abstract, Kind: Refines,
			Concrete: e.Concrete, Abstract: e.Abstract, Rule: RuleRefinementEdge,
			Edges: []string{e.Name}, Invariants: e.Assumes, iface: iface}, nil
	case History:
		return &Theorem{Name: e.Abstract + " refines " + e.Concrete, Kind: Refines,
			Concrete: e.Abstract, Abstract: e.Concrete, Rule: RuleRefinementEdge,
			Edges: []string{e.Name}, Invariants: e.Assumes, iface: iface}, nil
	}
	return nil, fmt.Errorf("refinement-mapping: edge %s is a simulation, not a refinement mapping", e.Name)
}

// TraceInclusion is the rule trace-inclusion: a proved edge C → A gives
// C implements A, and a history edge also A implements C. It refuses an
// unproved edge and automata with different interfaces.
func TraceInclusion(e *Edge, st Status, iface map[string]string) ([]*Theorem, error) {
	if st != Proved {
		return nil, fmt.Errorf("trace-inclusion: edge %s is %s", e.Name, st)
	}
	if !sameInterface(iface, e.Concrete, e.Abstract) {
		return nil, fmt.Errorf("trace-inclusion: %s and %s have different interfaces", e.Concrete, e.Abstract)
	}
	mk := func(c, a string) *Theorem {
		return &Theorem{Name: c + " implements " + a, Kind: Implements, Concrete: c, Abstract: a,
			Rule: RuleTraceInclusion, Edges: []string{e.Name}, Invariants: e.Assumes, iface: iface}
	}
	out := []*Theorem{mk(e.Concrete, e.Abstract)}
	if e.Kind == History {
		out = append(out, mk(e.Abstract, e.Concrete))
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
	if !sameInterface(cb.iface, cb.Concrete, ba.Abstract) || !sameInterface(cb.iface, cb.Concrete, cb.Abstract) {
		return nil, fmt.Errorf("transitivity: %s and %s have different interfaces", cb.Concrete, ba.Abstract)
	}
	return &Theorem{Name: cb.Concrete + " implements " + ba.Abstract, Kind: Implements,
		Concrete: cb.Concrete, Abstract: ba.Abstract, Rule: RuleTransitivity, Premises: []*Theorem{cb, ba},
		Edges: union(cb.Edges, ba.Edges), Invariants: union(cb.Invariants, ba.Invariants), iface: cb.iface}, nil
}

// Composition is the rule refinement-composition: f: C → B and g: B → A
// give g∘f: C → A. It refuses premises that are not refinement mappings (a
// forward or backward simulation does not compose into a mapping), that do
// not meet at B, or whose interfaces differ.
func Composition(f, g *Theorem) (*Theorem, error) {
	if f.Kind != Refines || g.Kind != Refines {
		return nil, fmt.Errorf("refinement-composition: premises must be refinement mappings (%s; %s)", f.Name, g.Name)
	}
	if f.Abstract != g.Concrete {
		return nil, fmt.Errorf("refinement-composition: %s and %s do not meet", f.Name, g.Name)
	}
	if !sameInterface(f.iface, f.Concrete, f.Abstract) || !sameInterface(f.iface, g.Concrete, g.Abstract) || !sameInterface(f.iface, f.Concrete, g.Abstract) {
		return nil, fmt.Errorf("refinement-composition: %s, %s and %s do not share one interface",
			f.Concrete, f.Abstract, g.Abstract)
	}
	return &Theorem{Name: f.Concrete + " refines " + g.Abstract, Kind: Refines,
		Concrete: f.Concrete, Abstract: g.Abstract, Rule: RuleComposition, Premises: []*Theorem{f, g},
		Edges: union(f.Edges, g.Edges), Invariants: union(f.Invariants, g.Invariants), iface: f.iface}, nil
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
		return nil, fmt.Errorf("invariant-transfer: %s is not an invariant of %s proved by induction", p.Name, f.Abstract)
	}
	return &Theorem{Name: fmt.Sprintf("%s satisfies %s.%s", f.Concrete, f.Abstract, p.Invariant),
		Kind: InvariantOf, Concrete: f.Concrete, Abstract: f.Abstract, Rule: RuleTransfer,
		Premises: []*Theorem{f, p}, Edges: f.Edges, Invariants: union(f.Invariants, p.Invariants),
		Invariant: p.Invariant, iface: f.iface}, nil
}

func union(a, b []string) []string {
	if len(a)+len(b) > 0 && increasing(a) && increasing(b) {
		// the lists of rule applications are sorted already: merged,
		// with the result sorting gives
		out := make([]string, 0, len(a)+len(b))
		for len(a) > 0 && len(b) > 0 {
			switch {
			case a[0] < b[0]:
				out, a = append(out, a[0]), a[1:]
			case b[0] < a[0]:
				out, b = append(out, b[0]), b[1:]
			default:
				out, a, b = append(out, a[0]), a[1:], b[1:]
			}
		}
		return append(append(out, a...), b...)
	}
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// increasing reports whether xs is sorted without repetitions.
func increasing(xs []string) bool {
	for i := 1; i < len(xs); i++ {
		if xs[i-1] >= xs[i] {
			return false
		}
	}
	return true
}

// ---- derivation ----

// Derive computes the statuses of invariants and edges from the kernel's
// verdicts, and saturates the set of theorems under the rules: induction
// for every proved invariant, refinement-mapping and trace-inclusion for
// every proved edge, then transitivity, composition and transfer until
// nothing new follows. One theorem is kept per name (the first found, with
// the fewest rule applications).
func Derive(in *Input, vs Verdicts) *Derivation {
	return derive(in, InvariantStatus(in.Obligations, vs), ownByID(vs.Status))
}

// derive is Derive with the statuses of the invariants (invs) and of each
// edge's own obligations (own).
func derive(in *Input, invs map[string]Status, own func(*Edge) Status) *Derivation {
	d := &Derivation{Edges: map[string]Status{}, byName: map[string]*Theorem{}, Invariants: invs}
	iface := map[string]string{}
	for _, a := range in.Automata {
		iface[a.Name] = a.Interface
	}

	// Base facts, in a deterministic order.
	autos := append([]Automaton(nil), in.Automata...)
	sort.SliceStable(autos, func(i, j int) bool { return autos[i].Name < autos[j].Name })
	for i := range autos {
		for _, inv := range autos[i].Invariants {
			if t, err := Induction(&autos[i], inv, d.Invariants[inv.Key]); err == nil {
				d.add(t)
			}
		}
	}
	edges := append([]Edge(nil), in.Edges...)
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].Name < edges[j].Name })
	status := edgeStatuses(edges, own, d)
	for i := range edges {
		e := &edges[i]
		st := status(e)
		if t, err := EdgeRefinement(e, st, iface); err == nil {
			d.add(t)
		}
		if ts, err := TraceInclusion(e, st, iface); err == nil {
			for _, t := range ts {
				d.add(t)
			}
		}
	}
	d.saturate()
	return d
}

// add adds theorem t unless one of its name is known; it reports whether
// it did.
func (d *Derivation) add(t *Theorem) bool {
	if t == nil || d.byName[t.Name] != nil {
		return false
	}
	d.byName[t.Name] = t
	d.Theorems = append(d.Theorems, t)
	return true
}

// saturate adds to d every theorem the rules transitivity, composition
// and transfer derive from d's, until nothing new follows.
func (d *Derivation) saturate() {
	// Saturate. Each round combines the theorems known at its start.
	// A pair of theorems both known at the start of the round before
	// was combined then, and gives the same theorem, whose name is
	// known since: each round tries only the pairs with a theorem new
	// in the round before (fresh), in the order a round of every pair
	// tries them, so that the same theorem wins each name.
	fresh := map[*Theorem]bool{}
	for _, t := range d.Theorems {
		fresh[t] = true
	}
	for {
		known := append([]*Theorem(nil), d.Theorems...)
		// Every rule combines x with a y whose concrete automaton is x's
		// abstract one: only those pairs are tried, in the order of known.
		byConcrete, freshByConcrete := map[string][]*Theorem{}, map[string][]*Theorem{}
		for _, y := range known {
			byConcrete[y.Concrete] = append(byConcrete[y.Concrete], y)
			if fresh[y] {
				freshByConcrete[y.Concrete] = append(freshByConcrete[y.Concrete], y)
			}
		}
		changed := false
		for _, x := range known {
			ys := freshByConcrete[x.Abstract]
			if fresh[x] {
				ys = byConcrete[x.Abstract]
			}
			for _, y := range ys {
				if x == y {
					continue
				}
				if x.Kind == Implements && y.Kind == Implements && x.Concrete != y.Abstract {
					if t, err := Transitivity(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == Refines && x.Concrete != y.Abstract {
					if t, err := Composition(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
				if x.Kind == Refines && y.Kind == InvariantOf && y.Rule == RuleInduction && x.Concrete != y.Concrete {
					if t, err := Transfer(x, y); err == nil {
						changed = d.add(t) || changed
					}
				}
			}
		}
		fresh = map[*Theorem]bool{}
		for _, t := range d.Theorems[len(known):] {
			fresh[t] = true
		}
		if !changed {
			break
		}
	}
}
