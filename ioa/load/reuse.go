// This file implements the reuse of loaded files between loads
// (Config.Parsed): an interface or automaton file whose bytes, and the
// files it loaded in turn, are those of a load before is not built again.
//
// A file's model depends only on its bytes, on its path (positions), on
// the models of the files it refers to (an automaton's interface) and on
// the predeclared sorts, which every load shares (NewUniverse). So when a
// file has the bytes it had and each file it referred to loads to the
// very object it loaded to then, building it again would give the same
// model, and the old one is used: the load then only declares it again
// (its name, in the set's order), which reports the same clashes with
// other files' declarations as building it would. Only loads that
// reported no error are kept. A proof file is loaded once every other
// file is read, and depends on the automata it names, by name or by path:
// it is reused when each of those names resolves to the very automaton
// it resolved to before. A proof that assumes an invariant X.P by transfer
// holds the chain of refinements found for it among all the proofs of its
// load (resolveTransfers): it is reused when, besides, each X resolves to
// the automaton it did, and the chains found among this load's proofs are
// the very ones it holds; then resolveTransfers passes it over
// (reuseTransfers). Nothing downstream of loading writes to an automaton,
// interface or proof: the models are shared read-only between the loads
// that reuse them.

package load

import (
	"bytes"
	"slices"

	"ladder/internal/source"
	"ladder/ioa"
)

// loadedDecl is what loading a file declared, kept when it reported no
// error: an interface or an automaton, with the files it loaded in turn,
// or a proof, with the automata it named.
type loadedDecl struct {
	kind  string // "interface", "automaton" or "proof"
	iface *ioa.Interface
	auto  *ioa.Automaton
	refs  []fileRef
	proof *ioa.Proof
	uses  []autoUse
}

// autoUse is an automaton a proof named (its concrete or abstract one),
// where, and what the name resolved to.
type autoUse struct {
	name string
	pos  source.Pos
	auto *ioa.Automaton
}

// fileRef is a file that loading another loaded in turn: its path and the
// position of the reference, and what it loaded to.
type fileRef struct {
	path  string
	pos   source.Pos
	kind  string
	iface *ioa.Interface
	auto  *ioa.Automaton
}

// keep records in the Config's Parsed what the file of fl loaded into (lf),
// when it is an interface or automaton whose every reference loaded.
func (l *loader) keep(fl *fileLoader, lf *loadedFile) {
	memo := l.cfg.Parsed
	if memo == nil || (lf.auto == nil && lf.iface == nil) {
		return
	}
	for _, r := range fl.refs {
		if r.auto == nil && r.iface == nil {
			return
		}
	}
	memo.remember(fl.f.path, fl.f.data, &loadedDecl{kind: lf.kind, iface: lf.iface, auto: lf.auto, refs: fl.refs})
}

// remember records d as what the bytes data of the file at path loaded
// into, when they are the bytes p parsed for it, without error.
func (p *Parsed) remember(path string, data []byte, d *loadedDecl) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.by[path]; ok && len(e.errs) == 0 && bytes.Equal(e.data, data) {
		e.decl = d
		p.by[path] = e
	}
}

// reuse loads the file of lf from d, what its bytes loaded into before,
// when every file d refers to loads to what it loaded to then; it reports
// whether it did. When it did not, the files referred to may be loaded:
// loading the file from its YAML finds them loaded.
func (l *loader) reuse(lf *loadedFile, d *loadedDecl) bool {
	if d == nil || d.kind == "proof" {
		return false // a proof is loaded once every file is read (reuseProof)
	}
	for _, r := range d.refs {
		got := l.load(r.path, r.pos)
		if got.kind != r.kind || got.iface != r.iface || got.auto != r.auto {
			return false
		}
	}
	lf.kind, lf.iface, lf.auto = d.kind, d.iface, d.auto
	switch {
	case d.auto != nil:
		l.declareAutomaton(d.auto)
	case d.iface != nil:
		l.declareInterface(d.iface)
	}
	return true
}

// keepProof records in the Config's Parsed the proof pf loaded into, with
// the automata it named (uses). The record of a proof that assumes an
// invariant by transfer is returned, to be completed once its chains are
// found (keptTransfer).
func (l *loader) keepProof(pf *ProofFile, uses []autoUse) *keptProof {
	memo := l.cfg.Parsed
	if memo == nil || pf.Proof == nil {
		return nil
	}
	d := &loadedDecl{kind: "proof", proof: pf.Proof, uses: uses}
	if transfers(pf.Proof) {
		return &keptProof{pf: pf, decl: d}
	}
	memo.remember(pf.File, pf.fl.f.data, d)
	return nil
}

// keptProof is the record of a proof assuming by transfer, kept once its
// chains are found (keptTransfer).
type keptProof struct {
	pf   *ProofFile
	decl *loadedDecl
}

// transfers reports whether p assumes an invariant by transfer.
func transfers(p *ioa.Proof) bool {
	for _, side := range p.AssumeSides() {
		for _, r := range side.Refs {
			if r.Transferred() {
				return true
			}
		}
	}
	return false
}

// keptTransfer keeps the records of the proofs assuming by transfer that
// this load loaded without error (keepProof), once resolveTransfers found
// each of their transferred invariants its one chain.
func (l *loader) keptTransfer(kept []*keptProof) {
	for _, k := range kept {
		if chained(k.decl.proof, l.set.Proofs) {
			l.cfg.Parsed.remember(k.pf.File, k.pf.fl.f.data, k.decl)
		}
	}
}

// chained reports whether every invariant p assumes by transfer has the
// one chain of refinements among proofs that it holds (refinementChains).
func chained(p *ioa.Proof, proofs []*ioa.Proof) bool {
	for _, side := range p.AssumeSides() {
		for _, r := range side.Refs {
			if !r.Transferred() {
				continue
			}
			chains := refinementChains(proofs, p, side.Owner, r.Source)
			if r.Chain == nil || len(chains) != 1 || !slices.Equal(chains[0], r.Chain) {
				return false
			}
		}
	}
	return true
}

// reuseTransfers decides the proofs assuming by transfer that loadProofs
// took from their records (deferred), once every other proof is loaded:
// one is kept when the chains found among the load's proofs are those it
// holds (chained). When one is not, and one of them is itself a
// refinement or history proof, through which chains go, none is kept, so
// that the proofs the decision rests on are not changed by it. It returns
// the proofs kept, which resolveTransfers passes over, and those to load
// again from their YAML.
func (l *loader) reuseTransfers(deferred []*ProofFile) (kept map[*ioa.Proof]bool, again []*ProofFile) {
	var all []*ioa.Proof
	for _, pf := range l.set.ProofFiles {
		if pf.Proof != nil {
			all = append(all, pf.Proof)
		}
	}
	kept = map[*ioa.Proof]bool{}
	mapping := false
	for _, pf := range deferred {
		if _, _, ok := pf.Proof.MapsTo(); ok {
			mapping = true
		}
		if chained(pf.Proof, all) {
			kept[pf.Proof] = true
		} else {
			again = append(again, pf)
		}
	}
	if len(again) > 0 && mapping {
		kept, again = nil, deferred
	}
	for _, pf := range again {
		pf.Proof = nil
	}
	return kept, again
}

// reuseProof sets pf's proof to the one its bytes loaded into before, when
// every automaton that proof named resolves to the automaton it resolved
// to then; it reports whether it did.
func (l *loader) reuseProof(pf *ProofFile) bool {
	d := pf.decl
	if d == nil || d.kind != "proof" {
		return false
	}
	for _, u := range d.uses {
		if l.resolve(pf.fl, u.name, u.pos) != u.auto {
			return false
		}
	}
	// the automata X of the invariants X.P it assumes by transfer, found
	// by name (transferRef)
	for _, side := range d.proof.AssumeSides() {
		for _, r := range side.Refs {
			if r.Transferred() && l.autoName[r.Source.Name] != r.Source {
				return false
			}
		}
	}
	pf.Proof = d.proof
	return true
}

// declareAutomaton adds a to the set, and its name to the automata's,
// where no other automaton has it (an error at a.Pos).
func (l *loader) declareAutomaton(a *ioa.Automaton) {
	if old := l.autoName[a.Name]; old != nil {
		l.errs.Add(a.Pos, source.ErrName, "automaton %q is already declared at %s", a.Name, old.Pos)
	} else {
		l.autoName[a.Name] = a
	}
	l.set.Automata = append(l.set.Automata, a)
}

// declareInterface adds it to the set, and its name to the interfaces',
// where no other interface has it (an error at it.Pos).
func (l *loader) declareInterface(it *ioa.Interface) {
	if old := l.ifName[it.Name]; old != nil {
		l.errs.Add(it.Pos, source.ErrName, "interface %q is already declared at %s", it.Name, old.Pos)
	} else {
		l.ifName[it.Name] = it
	}
	l.set.Interfaces = append(l.set.Interfaces, it)
}
