// This file looks up the candidates of a concrete state: the abstract
// states the index and filters leave, decoded and memoized per copy of
// the checker, and the relation evaluated at each.

package crosscheck

import (
	"fmt"
	"hash/maphash"
	"slices"

	"ladder/ioa/eval"
)

// maxKept bounds each of the maps of candidates a copy of the checker
// keeps (decoded, relOf).
const maxKept = 1 << 10

// state returns the abstract state of entry e, for the copy of the
// checker w: each keeps the states it decoded (up to maxKept, then it
// starts afresh), since the entries of a bucket of the index are tried
// again for every concrete state that looks the bucket up. The states are
// only read.
//
// A worker's copy (nodeOf set) decodes them into the scratch memory of its
// own runner, which nodeStart releases, with the states kept, only between
// the nodes the worker expands: no decoded state outlives the expansion of
// a node except through w.decoded. Other copies allocate them.
func (cs *candidates) state(w *checker, e int32) (eval.State, error) {
	if a, ok := w.decoded[e]; ok {
		return a, nil
	}
	key := cs.enc.Key(int(cs.rep[e]))
	scratch := w.nodeOf != nil && w.candR != nil
	var a eval.State
	var err error
	if scratch {
		a, err = w.candR.Decode(key)
	} else {
		a, err = cs.x.mA.DecodeState(key)
	}
	if err != nil {
		return nil, err
	}
	if cs.sym != nil && cs.perm[e] != 0 {
		if scratch {
			w.permBuf = cs.sym.AppendPermuted(w.permBuf[:0], a, int(cs.perm[e]))
			if a, err = w.candR.Decode(w.permBuf); err != nil {
				return nil, err
			}
		} else {
			a = cs.sym.Permute(a, int(cs.perm[e]))
		}
	}
	if w.decoded == nil || !scratch && len(w.decoded) >= maxKept {
		w.decoded = make(map[int32]eval.State, 1024)
	}
	w.decoded[e] = a
	return a, nil
}

// nodeStart is called by a worker's copy of the checker before it checks
// a step from node id: when the expansion of another node starts and the
// copy keeps maxKept decoded states or more, it forgets them and releases
// the scratch memory they live in.
func (cs *candidates) nodeStart(w *checker, id int) {
	if w.nodeOf == nil || w.candR == nil || id == w.candNode {
		return
	}
	w.candNode = id
	if len(w.decoded) >= maxKept {
		clear(w.decoded)
		w.pre = preNode{id: -1}
		w.candR.Release()
	}
}

// lookup is what related found for a concrete state c: the entries R
// relates to c, and where τ(c) is among them (the index in rel, or -1),
// with τ(c) itself when the lookup computed it.
type lookup struct {
	rel      []int32
	tau      int32
	tauState eval.State
}

// related returns the entries R relates to concrete state c, for the copy
// of the checker w: from the memo of c's node if the node is stored (on a
// worker, which has nodeOf), else from the workers' shared results by the
// node's key (on the searching goroutine, from its own by c's encoding; up
// to maxKept, then it starts afresh), else by a lookup, whose result
// w.found keeps for the memo: a post-state is reached by several steps.
func (cs *candidates) related(w *checker, c eval.State) (lookup, error) {
	if cs.slots == nil {
		return lookup{tau: -1}, nil
	}
	ties := identity
	if w.nodeOf != nil {
		var nid int
		nid, ties, w.relKey = w.nodeOf(c, w.relKey[:0])
		if f, ok := cs.memoOf(nid); ok {
			if l, ok, err := cs.mapped(w, f, ties); ok || err != nil {
				return l, err
			}
		}
	} else {
		w.relKey = cs.x.mC.AppendState(w.relKey[:0], c)
	}
	var h uint64
	var f found
	var ok bool
	if w.nodeOf != nil {
		h = maphash.Bytes(cs.seed, w.relKey)
		f, ok = cs.shared.get(h, w.relKey)
	} else {
		f, ok = w.relOf[string(w.relKey)]
	}
	if ok {
		if l, ok, err := cs.mapped(w, f, ties); ok || err != nil {
			w.found = f
			return l, err
		}
	}
	w.found = found{g: uint16(ties[0])}
	var buf []byte
	for j, f := range cs.keyFns {
		if i := cs.keyOfC[j]; i >= 0 {
			buf = cs.x.mA.AppendVar(buf, cs.keyVars[j], c[i])
			continue
		}
		v, err := cs.x.eval(f, &env{c: c})
		if err != nil {
			return lookup{}, err
		}
		buf = cs.x.mA.AppendVar(buf, cs.keyVars[j], v)
	}
	keys, err := cs.probes(w, c, buf)
	if err != nil {
		return lookup{}, err
	}
	// per filter, the verdict on each value number met in this lookup
	// (0: not evaluated yet, 1: false, 2: true)
	if len(w.verdicts) < len(cs.filters) {
		w.verdicts = make([][]uint8, len(cs.filters))
	}
	for k, f := range cs.filters {
		if len(w.verdicts[k]) < len(f.vals) {
			w.verdicts[k] = make([]uint8, len(f.vals))
		} else {
			clear(w.verdicts[k])
		}
	}
	var scratch eval.State
	out := []int32{}
	// τ(c), and where it is among the related states
	tau, err := cs.x.stateOf(cs.x.total, &env{c: c})
	if err != nil {
		return lookup{}, err
	}
	tauAt := int32(-1)
	w.relAll = cs.appendBuckets(w, w.relAll[:0], keys)
	all := w.relAll
entries:
	for _, e := range all {
		for k, f := range cs.filters {
			id := f.ids[e]
			if w.verdicts[k][id] == 0 {
				if scratch == nil {
					w.relScratch = append(w.relScratch[:0], cs.base...)
					scratch = w.relScratch
				}
				scratch[f.v] = f.vals[id]
				ok, err := cs.holdAll(f.conds, &env{c: c, a: scratch})
				if err != nil {
					return lookup{}, err
				}
				w.verdicts[k][id] = 1
				if ok {
					w.verdicts[k][id] = 2
				}
			}
			if w.verdicts[k][id] == 1 {
				continue entries
			}
		}
		a, err := cs.state(w, e)
		if err != nil {
			return lookup{}, err
		}
		ok, err := cs.x.relates(&env{c: c, a: a})
		if err != nil {
			return lookup{}, err
		}
		if ok {
			if tauAt < 0 && a.Equal(tau) {
				tauAt = int32(len(out))
			}
			out = append(out, e)
		}
	}
	w.found.rel, w.found.tau, w.found.ok = out, tauAt, true
	if w.nodeOf != nil {
		cs.shared.put(h, w.relKey, w.found)
	} else {
		if w.relOf == nil || len(w.relOf) >= maxKept {
			w.relOf = make(map[string]found, maxKept)
		}
		w.relOf[string(w.relKey)] = w.found
	}
	return lookup{rel: out, tau: tauAt, tauState: tau}, nil
}

// preNode is the node a worker's step check starts from, and the states
// the memo says R relates to it, decoded when first asked for.
type preNode struct {
	id      int
	s       eval.State
	asked   bool
	related []eval.State
}

// relatedToPre reports whether the memo of the node a worker's step check
// starts from says that R relates its state c to a. The node's state is
// its key decoded, so the permutations that map c to it include the
// identity.
func (cs *candidates) relatedToPre(w *checker, c, a eval.State) bool {
	pn := &w.pre
	if pn.s == nil || !sameState(c, pn.s) {
		return false
	}
	if !pn.asked {
		pn.asked, pn.related = true, pn.related[:0]
		f, ok := cs.memoOf(pn.id)
		if !ok {
			return false
		}
		l, ok, err := cs.mapped(w, f, identity)
		if !ok || err != nil {
			return false
		}
		for _, e := range l.rel {
			s, err := cs.state(w, e)
			if err != nil {
				pn.related = pn.related[:0]
				return false
			}
			pn.related = append(pn.related, s)
		}
	}
	for _, s := range pn.related {
		if s.Equal(a) {
			return true
		}
	}
	return false
}

// identity is the ties of a state without symmetry.
var identity = []int{0}

// found is what a lookup of a step's post-state c found, for the memo:
// the entries R relates to c, and a permutation g that maps c to the
// state of its node. ok is false when the lookup did not make one.
type found struct {
	rel []int32
	tau int32 // the index in rel of τ(c), or -1 if τ(c) is not in rel
	g   uint16
	ok  bool
}

// remember keeps what the lookup of the state that first reached the new
// node id found (searching goroutine only).
func (cs *candidates) remember(id int, f found) {
	for len(cs.memoN) < id {
		cs.memoOff, cs.memoN, cs.memoG, cs.memoTau = append(cs.memoOff, 0), append(cs.memoN, -1), append(cs.memoG, 0), append(cs.memoTau, -1)
	}
	if len(cs.memoN) > id {
		return
	}
	cs.memoOff = append(cs.memoOff, int64(len(cs.memoBuf)))
	cs.memoN = append(cs.memoN, int32(len(f.rel)))
	cs.memoG = append(cs.memoG, f.g)
	cs.memoTau = append(cs.memoTau, f.tau)
	cs.memoBuf = append(cs.memoBuf, f.rel...)
}

// memoOf returns what the memo keeps for node id, if anything.
func (cs *candidates) memoOf(id int) (found, bool) {
	if id < 0 || id >= len(cs.memoN) || cs.memoN[id] < 0 {
		return found{}, false
	}
	o := cs.memoOff[id]
	return found{rel: cs.memoBuf[o : o+int64(cs.memoN[id])], tau: cs.memoTau[id], g: cs.memoG[id], ok: true}, true
}

// mapped returns the lookup of a state c, given what a lookup of a state
// c0 of the same node found (f: the entries R relates to c0, τ(c0)'s
// place, a permutation g0 that maps c0 to the node's state) and the
// permutations that map c to it (ties). If π_g0(c0) and π_g(c) are the
// node's state, then c = π_h(c0) for h = g⁻¹∘g0, and since R and the
// reachable abstract states are invariant under the group
// (setupSymmetry), the states related to c are the images under π_h of
// those related to c0, in the same order; so is τ(c) of τ(c0), the
// totality witness's expressions being symmetric too. When g0 is among
// the ties, c is c0. ok is false when the entries are states rather than
// images of orbits (the abstract mode all under symmetry): they are not
// mapped, and c is looked up afresh.
func (cs *candidates) mapped(w *checker, f found, ties []int) (lookup, bool, error) {
	g0 := int(f.g)
	if slices.Contains(ties, g0) || len(f.rel) == 0 {
		return lookup{rel: f.rel, tau: f.tau}, true, nil
	}
	if cs.sym == nil {
		return lookup{}, false, nil
	}
	h := cs.sym.Compose(cs.sym.Inverse(ties[0]), g0)
	out := make([]int32, len(f.rel))
	for k, e := range f.rel {
		img, err := cs.entryOf(w, cs.rep[e], cs.sym.Compose(h, int(cs.perm[e])))
		if err != nil {
			return lookup{}, false, err
		}
		out[k] = img
	}
	return lookup{rel: out, tau: f.tau}, true, nil
}

// entryOf returns the entry of π_g(s), s the state r of enc. Its entries
// are the distinct images of s, each with the least permutation that
// gives it; when s has as many as the group has permutations, entry k of
// s is π_k(s).
func (cs *candidates) entryOf(w *checker, r int32, g int) (int32, error) {
	lo, hi := cs.first[r], cs.first[r+1]
	if int(hi-lo) == cs.sym.Order() {
		return lo + int32(g), nil
	}
	s, err := cs.state(w, lo) // the first entry's permutation is the identity
	if err != nil {
		return 0, err
	}
	w.imgKey = cs.sym.AppendPermuted(w.imgKey[:0], s, g)
	for e := lo; e < hi; e++ {
		w.relKey = cs.sym.AppendPermuted(w.relKey[:0], s, int(cs.perm[e]))
		if string(w.relKey) == string(w.imgKey) {
			return e, nil
		}
	}
	return 0, fmt.Errorf("internal error: an image of a candidate is not among its orbit's entries")
}

// probes returns the keys of the index a lookup from c probes: the
// encodings of the pinned variables (in pinned) followed by those of each
// compPin's variable, for every choice of the entries G leaves open (at
// most maxProbes, by build).
func (cs *candidates) probes(w *checker, c eval.State, pinned []byte) ([][]byte, error) {
	keys := append(w.probeA[:0], pinned)
	next := w.probeB[:0]
	arena := w.probeArena[:0]
	e := &env{c: c}
	defer func() { w.probeA, w.probeB, w.probeArena = keys, next, arena }()
	for _, cp := range cs.comps {
		for t := 0; t < cp.n; t++ {
			pinnedHere := true
			if cp.guard != nil {
				g, err := cs.x.evalBound(cp.guard, e, eval.Elem(t))
				if err != nil {
					return nil, err
				}
				pinnedHere = g.Bool()
			}
			choices := cp.dom
			if pinnedHere {
				v, err := cs.x.evalBound(cp.val, e, eval.Elem(t))
				if err != nil {
					return nil, err
				}
				choices = [][]byte{cp.enc(nil, v)}
			}
			// the keys built go to the arena; a key of keys stays valid
			// when the arena grows (the old array is kept)
			next = next[:0]
			for _, k := range keys {
				for _, ch := range choices {
					k0 := len(arena)
					arena = append(append(arena, k...), ch...)
					next = append(next, arena[k0:len(arena):len(arena)])
				}
			}
			keys, next = next, keys
		}
	}
	return keys, nil
}

// holdAll reports whether every one of fs holds in e.
func (cs *candidates) holdAll(fs []*eval.Func, e *env) (bool, error) {
	for _, f := range fs {
		ok, err := cs.x.holds(f, e)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// each calls fn with every candidate abstract state related to c: τ(c)
// first (i = -1), then the other related states of the index (i their
// entry number). While fn runs, w.known names the pair (c, a) when R is
// known to hold at it: for an entry, found true by related; for τ(c),
// when it is one of them.
func (cs *candidates) each(w *checker, c eval.State, fn func(a eval.State, i int) error) error {
	l, err := cs.related(w, c)
	if err != nil {
		return err
	}
	// τ(c): the related state the lookup found equal to it, the state it
	// computed, or computed here
	tau := l.tauState
	switch {
	case l.tau >= 0:
		if tau, err = cs.state(w, l.rel[l.tau]); err != nil {
			return err
		}
	case tau == nil:
		if tau, err = cs.x.stateOf(cs.x.total, &env{c: c}); err != nil {
			return err
		}
	}
	// the related states other than τ(c), and their entries
	var states [8]eval.State
	var entries [8]int32
	as, es := states[:0], entries[:0]
	for k, i := range l.rel {
		if int32(k) == l.tau {
			continue
		}
		a, err := cs.state(w, i)
		if err != nil {
			return err
		}
		as, es = append(as, a), append(es, i)
	}
	tauKnown := l.tau >= 0
	defer func() { w.known = [2]eval.State{} }()
	w.known = [2]eval.State{}
	if tauKnown {
		w.known = [2]eval.State{c, tau}
	}
	w.vouched = tauKnown && !cs.x.cfg.evalRelation
	if err := fn(tau, -1); err != nil {
		return err
	}
	for k, a := range as {
		w.known = [2]eval.State{c, a}
		if err := fn(a, int(es[k])); err != nil {
			return err
		}
	}
	return nil
}
