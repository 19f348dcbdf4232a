// This file builds the input of the theorems phase (package
// internal/theorems) from the generated obligations and edges.

package simulation

import (
	"maps"
	"slices"
	"strings"

	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/ioa"
)

// TheoremInput returns what theorems.Derive reads of obls and edges: the
// automata they are about (with their interfaces and invariants), each
// obligation's invariant or edge and assumptions, and each edge's kind,
// automata, obligations, assumptions and transfer chains. Its obligations
// are obls' in their order (theorems.Statuses are by that position).
func TheoremInput(obls []*Obligation, edges []*Edge) *theorems.Input {
	in := TheoremHierarchy(obls, edges)
	in.Obligations = TheoremObligations(obls)
	return in
}

// TheoremObligations returns obls as the theorems see them, in order.
func TheoremObligations(obls []*Obligation) []theorems.Obligation {
	out := make([]theorems.Obligation, len(obls))
	for i, o := range obls {
		out[i] = theorems.Obligation{ID: o.ID, Invariant: o.Invariant, Assumes: o.Assumes}
		if o.Invariant == "" {
			out[i].Edge = o.Edge
		} else if o.automaton != nil {
			out[i].Automaton = o.automaton.Name
		}
	}
	return out
}

// TheoremHierarchy is TheoremInput without the obligations, for
// theorems.DeriveTallies: the automata of obls and edges, and the edges.
func TheoremHierarchy(obls []*Obligation, edges []*Edge) *theorems.Input {
	in := &theorems.Input{}
	autos := map[string]*ioa.Automaton{}
	for _, e := range edges {
		autos[e.Proof.Concrete.Name] = e.Proof.Concrete
		autos[e.Proof.Abstract.Name] = e.Proof.Abstract
	}
	var last *ioa.Automaton
	for _, o := range obls {
		if a := o.automaton; a != nil && a != last {
			autos[a.Name] = a
			last = a
		}
	}
	for _, n := range slices.Sorted(maps.Keys(autos)) {
		a := autos[n]
		ta := theorems.Automaton{Name: a.Name, Interface: InterfaceSpelling(a.Interface)}
		for _, inv := range a.Invariants {
			ta.Invariants = append(ta.Invariants, theorems.Invariant{Name: inv.Name, Key: InvariantKey(a, inv.Name)})
		}
		in.Automata = append(in.Automata, ta)
	}
	byProof := map[*ioa.Proof]string{}
	for _, e := range edges {
		byProof[e.Proof] = e.Name
	}
	for _, e := range edges {
		te := theorems.Edge{Name: e.Name, Kind: edgeKind(e.Proof.Kind), Concrete: e.Proof.Concrete.Name,
			Abstract: e.Proof.Abstract.Name, Obligations: e.Obligations, Assumes: e.Assumes}
		for _, t := range e.Transfers {
			tt := theorems.Transferred{Key: t.Key, Source: t.Source}
			for _, q := range t.Chain {
				tt.Chain = append(tt.Chain, byProof[q]) // "" when q is not an edge here
			}
			te.Transfers = append(te.Transfers, tt)
		}
		in.Edges = append(in.Edges, te)
	}
	return in
}

// edgeKind is the kind of a proof as the rules see it.
func edgeKind(k ioa.ProofKind) theorems.EdgeKind {
	switch {
	case k.IsRefinement():
		return theorems.Refinement
	case k == ioa.ProofHistory:
		return theorems.History
	case k == ioa.ProofBackward:
		return theorems.Backward
	}
	return theorems.Forward
}

// InterfaceSpelling spells an interface canonically for the rules: ""
// for none, else its name and each event with its parameter sorts. Two
// automata have the same external events exactly when their spellings are
// equal (interfaces are declared once, by name).
func InterfaceSpelling(i *ioa.Interface) string {
	if i == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(i.Name)
	for _, e := range i.Events {
		b.WriteString(" " + e.Name + "(")
		for j, p := range e.Params {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(p.Sort.String())
		}
		b.WriteString(")")
	}
	return b.String()
}

// CheckClaims reports, at its position, every theorem a proof of proofs
// expects (`theorems:`) that the derivation d does not contain. It only
// compares names, and makes nothing proved: it is not part of the trusted
// theorems phase.
func CheckClaims(proofs []*ioa.Proof, d *theorems.Derivation) source.ErrorList {
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
