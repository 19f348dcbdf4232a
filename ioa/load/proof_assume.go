// This file implements the assume lists of a proof: the invariants of the
// concrete and the abstract automaton that the proof's obligations may
// assume, named plainly or qualified (X.P, an invariant of X transferred
// along the unique chain of refinement proofs from the automaton to X),
// and the resolution of the transfers once every proof is loaded.

package load

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"ladder/internal/source"
	"ladder/ioa"
)

// assume reads `assume: {concrete: [names], abstract: [names]}`.
func (pl *proofLoader) assume(e entry) {
	p := pl.p
	var cNode, aNode *yaml.Node
	if e.key != nil {
		fs := pl.fields(e.val, e.key, `"assume"`, []string{"concrete", "abstract"}, nil)
		if x, ok := fs["concrete"]; ok {
			cNode = x.val
		}
		if x, ok := fs["abstract"]; ok {
			aNode = x.val
			if p.Kind == ioa.ProofBackward && len(pl.sequence(x.val, "", true)) > 0 {
				pl.errorf(x.key, source.ErrModel, "a backward simulation may not assume abstract invariants: the abstract states it relates need not be reachable (docs/proofs.md, \"Edges\"); make them part of the relation")
				aNode = nil
			}
		}
	}
	if cNode == nil {
		for _, inv := range p.Concrete.Invariants {
			p.AssumeConcrete = append(p.AssumeConcrete, &ioa.InvariantRef{Name: inv.Name, Pos: inv.Pos, Inv: inv, Implicit: true})
		}
	} else {
		p.AssumeConcrete = pl.invariantRefs(cNode, p.Concrete, "concrete")
	}
	if aNode != nil {
		p.AssumeAbstract = pl.invariantRefs(aNode, p.Abstract, "abstract")
	}
}

func (pl *proofLoader) invariantRefs(n *yaml.Node, auto *ioa.Automaton, role string) []*ioa.InvariantRef {
	var out []*ioa.InvariantRef
	seen := map[string]bool{}
	for _, item := range pl.sequence(n, fmt.Sprintf("the assumed %s invariants", role), true) {
		name, ok := pl.scalar(item, "an invariant name")
		if !ok {
			continue
		}
		if seen[name] {
			pl.errorf(item, source.ErrName, "invariant %q is listed twice", name)
			continue
		}
		if x, pn, ok := strings.Cut(name, "."); ok {
			if r := pl.transferRef(item, auto, x, pn); r != nil {
				seen[name] = true
				out = append(out, r)
			}
			continue
		}
		inv := pl.invariantOf(item, auto, name)
		if inv == nil {
			continue
		}
		seen[name] = true
		out = append(out, &ioa.InvariantRef{Name: name, Pos: pl.f.pos(item), Inv: inv})
	}
	return out
}

// invariantOf returns the invariant name of auto, or reports at item that
// there is none (with a suggestion) and returns nil.
func (pl *proofLoader) invariantOf(item *yaml.Node, auto *ioa.Automaton, name string) *ioa.Invariant {
	if inv := auto.Invariant(name); inv != nil {
		return inv
	}
	var names []string
	for _, i := range auto.Invariants {
		names = append(names, i.Name)
	}
	msg := fmt.Sprintf("unknown invariant %q: %s has no such invariant", name, auto.Name)
	if s := suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	pl.errorf(item, source.ErrName, "%s", msg)
	return nil
}

// transferRef resolves a qualified name X.P of an assume list: the
// invariant P of automaton X, to be assumed of auto by invariant transfer.
// Its chain of refinements is found once every proof is loaded
// (resolveTransfers).
func (pl *proofLoader) transferRef(item *yaml.Node, auto *ioa.Automaton, x, name string) *ioa.InvariantRef {
	src := pl.l.autoName[x]
	switch {
	case src == nil:
		pl.errorf(item, source.ErrName, "unknown automaton %q in %q: a qualified name X.P names invariant P of a loaded automaton X", x, x+"."+name)
		return nil
	case src == auto:
		pl.errorf(item, source.ErrName, "%q is an invariant of %s itself: write %q", x+"."+name, auto.Name, name)
		return nil
	}
	inv := pl.invariantOf(item, src, name)
	if inv == nil {
		return nil
	}
	return &ioa.InvariantRef{Name: x + "." + name, Pos: pl.f.pos(item), Inv: inv, Source: src}
}

// resolveTransfers finds, for every invariant a proof assumes by transfer
// (X.P), the chain of refinement mappings among the other loaded proofs
// from the automaton it is assumed of to X. Refinement and simple
// refinement edges map C to A, history edges A to C (LV95 §5). There must
// be exactly one simple chain: with two, the transferred predicate P∘g
// would depend on which mappings were composed.
//
// A proof reused with the chains it holds (reused: reuseTransfers) is
// passed over: it is shared with the loads before, and its chains are
// those it would be given.
func (l *loader) resolveTransfers(reused map[*ioa.Proof]bool) {
	proofs := l.set.Proofs
	for _, p := range proofs {
		if reused[p] {
			continue
		}
		for _, side := range p.AssumeSides() {
			for _, r := range side.Refs {
				if !r.Transferred() {
					continue
				}
				chains := refinementChains(proofs, p, side.Owner, r.Source)
				switch len(chains) {
				case 0:
					l.errs.Add(r.Pos, source.ErrModel, "cannot assume %s of %s: no chain of refinement mappings (refinement or history proofs) leads from %s to %s among the loaded proofs; load the proof files of the chain",
						r.Name, side.Owner.Name, side.Owner.Name, r.Source.Name)
				case 1:
					r.Chain = chains[0]
				default:
					var alts []string
					for _, c := range chains {
						alts = append(alts, chainString(c))
					}
					l.errs.Add(r.Pos, source.ErrModel, "cannot assume %s of %s: several chains of refinement mappings lead to %s (%s), so the transferred invariant is not determined",
						r.Name, side.Owner.Name, r.Source.Name, strings.Join(alts, "; "))
				}
			}
		}
	}
}

// refinementChains returns every simple chain of refinement mappings from
// automaton from to automaton to through the proofs other than self.
func refinementChains(proofs []*ioa.Proof, self *ioa.Proof, from, to *ioa.Automaton) [][]*ioa.Proof {
	var out [][]*ioa.Proof
	visited := map[*ioa.Automaton]bool{from: true}
	var path []*ioa.Proof
	var walk func(at *ioa.Automaton)
	walk = func(at *ioa.Automaton) {
		if at == to {
			out = append(out, append([]*ioa.Proof(nil), path...))
			return
		}
		for _, q := range proofs {
			target, _, ok := q.MapsTo()
			if q == self || !ok || q.MapsFrom() != at || visited[target] {
				continue
			}
			visited[target] = true
			path = append(path, q)
			walk(target)
			path = path[:len(path)-1]
			visited[target] = false
		}
	}
	walk(from)
	return out
}

func chainString(c []*ioa.Proof) string {
	var names []string
	for _, q := range c {
		names = append(names, q.Name)
	}
	return strings.Join(names, " then ")
}
