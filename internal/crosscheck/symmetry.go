// This file implements symmetry reduction of the cross-check searches
// (Config.Symmetry): the static check that both automata of an edge and
// the proof's expressions treat the elements of a parameter sort alike,
// and the canonical encoding of the nodes the search stores.
//
// A permutation π of the elements of some parameter sorts acts on both
// automata's states. When both automata are symmetric (explore's check,
// explore.CheckSymmetry, run through a one-state exploration that also
// says why an element is fixed) and so is every proof expression the check
// evaluates (the mapping, the totality and pre-state witnesses, the relation, the case guards, the
// abstract steps' arguments and the invariants assumed by transfer), the
// checks commute with π: a step (c, a) —α(p)→ (c', a') is checked and holds
// exactly when (πc, πa) —α(πp)→ (πc', πa') is and does. A forward search of
// pairs (c, a) then stores each pair as the least encoding of its images
// (πc, πa) under the group, the same π applied to both states (a joint
// canonical form: applying different permutations to the two states would
// relate states the proof does not relate); the other searches store the
// explored automaton's states so. One node per orbit is expanded; the BFS
// depth of an orbit is the length of a shortest execution to any of its
// members, so a failure is found at the same depth as without reduction,
// and it is reported on a real execution: the trace is replayed from a
// real start state, and the failing check is run again on the real state
// the replay reaches (search.go).
//
// The proof side is checked as explore checks an automaton: an element
// literal T#i of a symmetric sort, or a constant whose value is an element
// of one, is refused with its position; an expression that can yield a
// default value (get, last, a sequence index) fixes T#0 unless the facts
// of its context keep it in range. A step correspondence's expressions
// have, besides, the facts of the concrete action's parameter ranges and
// precondition, read in c: the rules evaluate them only once Pre_α(c, p)
// holds (simulation's forwardStep and backwardStep check it first). A Nat
// read from the concrete state (c or cpost) is non-negative, and so is one
// of the concrete automaton's own variables: every state of the explored
// automaton is checked for its Nat conditions before a verdict computed in
// it counts (the node check of a new state, and forwardStep's natPost for
// a forward step's post-state). The abstract automaton gets no such fact:
// the states a step computes on the way are not checked. A history check
// explores A: there A's variables have the Nat facts, C's have none, and
// the steps get no precondition facts. The start witness
// (`start:`) is exempt, as `init:` is in an automaton: it is evaluated at
// the real start states only, before the first node is stored.

package crosscheck

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"ladder/internal/explore"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// SymmetryInfo describes the symmetry reduction of a check
// (Result.Symmetry).
type SymmetryInfo struct {
	Sorts []explore.SymmetricSort `json:"sorts"`
	// Permutations is the order of the group.
	Permutations int `json:"permutations"`
	// Declared says where the sorts were declared when they come from
	// the automata's interface (`symmetry:`), not from the command line.
	Declared string `json:"declared,omitempty"`
	// Default is set when the sorts were chosen by default: every
	// parameter sort the static check accepts.
	Default bool `json:"default,omitempty"`
}

// String returns "T (3 elements): 6 permutations".
func (s *SymmetryInfo) String() string {
	var parts []string
	for _, ss := range s.Sorts {
		parts = append(parts, ss.String())
	}
	decl := ""
	if s.Declared != "" {
		decl = " (declared by " + s.Declared + ")"
	}
	if s.Default {
		decl = " (by default: the parameter sorts the static check accepts; --symmetry none turns it off)"
	}
	return fmt.Sprintf("%s: %d permutations%s", strings.Join(parts, ", "), s.Permutations, decl)
}

// symmetry is the group of a reduced search, compiled for both automata
// with the same permutations in the same order (eval.Machine.NewSymmetry
// orders the group by the sorts given, which are the same for both).
type symmetry struct {
	gC, gA *eval.Symmetry
}

// setupSymmetry checks that the edge supports the reduction over sorts
// and compiles the group.
func (x *checker) setupSymmetry(sorts []string) error {
	if len(sorts) == 0 {
		return nil
	}
	p := x.p
	explored := p.Concrete
	if p.Kind == ioa.ProofHistory {
		explored = p.Abstract
	}
	fixed := map[string]string{}
	for _, side := range p.AssumeSides() {
		invs := []string{}
		for _, r := range side.Refs {
			if !r.Transferred() && side.Owner.Invariant(r.Name) != nil {
				invs = append(invs, r.Name)
			}
		}
		// A search stopped at its first state checks the automaton and
		// says why an element is fixed, if one is.
		// Each automaton's own instance: a bound may name a constant the
		// other does not declare.
		inst := x.instC
		if side.Owner == p.Abstract {
			inst = x.instA
		}
		res, err := explore.Explore(side.Owner, explore.Config{Instance: inst, Symmetry: sorts, Invariants: invs, MaxStates: 1,
			NatUnchecked: side.Owner != explored})
		if err != nil {
			return err
		}
		if res.Symmetry != nil {
			for _, s := range res.Symmetry.Sorts {
				if _, ok := fixed[s.Sort]; !ok && len(s.Fixed) > 0 {
					fixed[s.Sort] = s.Why
				}
			}
		}
	}
	// The Nat conditions of the explored automaton's states are checked
	// before anything is evaluated in them (a forward step checks its
	// post-state first: natPost); those of the other automaton's are not
	// (intermediate states u_i, backward witnesses).
	var natObjs []*expr.Object
	if explored == p.Concrete {
		natObjs = []*expr.Object{p.C, p.CPost}
	}
	pc := &proofSym{x: x, ec: explore.NewExprChecker(x.inst, sorts, fixed, natObjs, []*ioa.Automaton{explored})}
	if err := pc.check(); err != nil {
		return err
	}
	gC, gA, info, err := compileGroup(x.mC, x.mA, sorts, fixed, p.Pos, x.inst.Sizes)
	if err != nil {
		return err
	}
	x.sym = &symmetry{gC: gC, gA: gA}
	x.res.Symmetry = info
	return nil
}

// compileGroup compiles the group of the permutations of sorts for the
// machines mC and mA, with T#0 fixed for each sort in fixed (which maps it
// to why), the same permutations in the same order for both, and describes
// it; pos is where a failure to compile is reported.
func compileGroup(mC, mA *eval.Machine, sorts []string, fixed map[string]string, pos source.Pos, sizes map[string]int) (gC, gA *eval.Symmetry, info *SymmetryInfo, err error) {
	var ss []eval.SymSort
	for _, name := range sorts {
		s := eval.SymSort{Name: name}
		if _, ok := fixed[name]; ok {
			s.Fixed = []int{0}
		}
		ss = append(ss, s)
	}
	if gC, err = mC.NewSymmetry(ss); err == nil {
		gA, err = mA.NewSymmetry(ss)
	}
	if err != nil {
		return nil, nil, nil, &explore.SymmetryError{Pos: pos, Msg: fmt.Sprintf("--symmetry: %v", err)}
	}
	if gC.Order() != gA.Order() {
		return nil, nil, nil, fmt.Errorf("internal error: symmetry groups of %d and %d permutations", gC.Order(), gA.Order())
	}
	info = &SymmetryInfo{Permutations: gC.Order()}
	for _, s := range ss {
		si := explore.SymmetricSort{Sort: s.Name, Size: sizes[s.Name], Why: fixed[s.Name]}
		for _, i := range s.Fixed {
			si.Fixed = append(si.Fixed, fmt.Sprintf("%s#%d", s.Name, i))
		}
		info.Sorts = append(info.Sorts, si)
	}
	sort.SliceStable(info.Sorts, func(i, j int) bool { return info.Sorts[i].Sort < info.Sorts[j].Sort })
	return gC, gA, info, nil
}

// proofSym checks the proof's expressions for symmetry.
type proofSym struct {
	x  *checker
	ec *explore.ExprChecker // records in fixed the sorts whose T#0 an expression may yield
}

func (c *proofSym) check() error {
	p := c.x.p
	// The start witness (forward, history) is evaluated at the start
	// states only, before any permutation: like `init:`, it may single out
	// elements.
	for _, m := range []*ioa.StateMap{p.Mapping, p.Total} {
		c.stateMap(m)
	}
	for _, cl := range p.Relation {
		c.expr(cl.Body)
	}
	// A step's expressions are evaluated where the concrete action is
	// enabled in c (Pre_α(c, p) is a hypothesis the rules check first),
	// except in a history proof, whose steps are the abstract automaton's.
	for _, sm := range p.Steps {
		at := func(e expr.Expr) {
			if p.Kind == ioa.ProofHistory {
				c.expr(e)
			} else {
				c.ec.ExprAt(e, sm.Action, p.C)
			}
		}
		for _, cs := range sm.Cases {
			at(cs.When)
			if cs.Pre != nil {
				for _, e := range cs.Pre.Entries {
					at(e.Value)
				}
			}
			for _, st := range cs.Steps {
				for _, a := range st.Args {
					at(a)
				}
				if lp := st.Loop; lp != nil {
					at(lp.From)
					at(lp.To)
					at(lp.Invariant)
				}
			}
		}
	}
	for _, side := range p.AssumeSides() {
		for _, r := range side.Refs {
			if !r.Transferred() {
				continue
			}
			obj := &expr.Object{Kind: expr.ObjState, Name: "s", Sort: side.Owner.StateSort}
			body, err := simulation.Transferred(r, side.Owner, obj)
			if err != nil {
				return fmt.Errorf("%s: %v", r.Pos, err)
			}
			c.expr(body)
		}
	}
	return c.ec.Err()
}

func (c *proofSym) stateMap(m *ioa.StateMap) {
	if m == nil {
		return
	}
	for _, e := range m.Entries {
		c.expr(e.Value)
	}
}

// expr checks e for symmetry.
func (c *proofSym) expr(e expr.Expr) { c.ec.Expr(e) }

// encoder appends the keys the store keeps: a state's encoding, or a pair's
// (the length of the concrete encoding, the concrete encoding and the
// abstract one), canonical under the symmetry group when there is one. It
// is not safe for concurrent use: each worker has its own.
type encoder struct {
	m    *eval.Machine // the explored automaton
	mA   *eval.Machine // the abstract automaton of a pair, or nil
	dA   *eval.Dead    // the reduction of a pair's abstract state, or nil
	g    *eval.Symmetry
	gA   *eval.Symmetry
	tmp  []byte
	best []byte
	ties []int
	offs []int // scratch of appendWith
}

// newEncoder returns an encoder of the nodes of x's search: states of m, or
// pairs (with pair set) of a concrete and an abstract state.
func (x *checker) newEncoder(m *eval.Machine, pair bool) *encoder {
	e := &encoder{m: m}
	if pair {
		e.mA = x.mA
	}
	if x.sym != nil {
		e.g = x.sym.gC
		if m == x.mA {
			e.g = x.sym.gA
		}
		if pair {
			e.gA = x.sym.gA
		}
	}
	if pair && x.dead != nil {
		e.dA, e.gA = x.dead.d, x.dead.gA
	}
	return e
}

// append appends the key of s (and a, for pairs).
func (e *encoder) append(buf []byte, s, a eval.State) []byte {
	if e.g == nil {
		if e.mA == nil {
			return e.m.AppendState(buf, s)
		}
		e.tmp = e.m.AppendState(e.tmp[:0], s)
		buf = binary.AppendUvarint(buf, uint64(len(e.tmp)))
		buf = append(buf, e.tmp...)
		if e.dA != nil {
			return e.dA.AppendState(buf, a)
		}
		return e.mA.AppendState(buf, a)
	}
	if e.mA == nil {
		buf, _ = e.g.AppendCanonical(buf, s)
		return buf
	}
	// the least image of the concrete state, and the permutations giving
	// it; then the least image of the abstract state among those
	e.best, e.ties = e.g.AppendLeast(e.best[:0], s, e.ties)
	buf = binary.AppendUvarint(buf, uint64(len(e.best)))
	buf = append(buf, e.best...)
	return e.appendLeastImage(buf, func(buf []byte, g int) []byte { return e.gA.AppendPermuted(buf, a, g) })
}

// appendLeastImage appends the least of the abstract state's images
// image(g) under the permutations g of e.ties, which give the concrete
// state's least image (a pair's permutation is applied to both states).
func (e *encoder) appendLeastImage(buf []byte, image func(buf []byte, g int) []byte) []byte {
	if len(e.ties) == 1 {
		return image(buf, e.ties[0])
	}
	e.best = image(e.best[:0], e.ties[0])
	for _, g := range e.ties[1:] {
		e.tmp = image(e.tmp[:0], g)
		if string(e.tmp) < string(e.best) {
			e.best = append(e.best[:0], e.tmp...)
		}
	}
	return append(buf, e.best...)
}

// appendWith is append for a pair (c, a) (the encoder's nodes must be
// pairs) whose states share most of their
// values with the states the runners rC and rA last decoded, from their
// encodings in a node's key (a step's successor pair): the encodings of
// the variables they share are copied from those keys
// (fast.Runner.EncodeOffs), and the abstract state's image is rearranged
// from its encoding where it can be (eval.Symmetry.EncodePermuted). The
// key is append's.
func (e *encoder) appendWith(buf []byte, c, a eval.State, rC, rA *fast.Runner) []byte {
	if e.g == nil {
		e.tmp = rC.Encode(e.tmp[:0], c)
		buf = binary.AppendUvarint(buf, uint64(len(e.tmp)))
		buf = append(buf, e.tmp...)
		if e.dA != nil {
			if n := len(a) + 1; len(e.offs) < n {
				e.offs = make([]int, n)
			}
			return rA.EncodeOffs(buf, a, e.dA, e.offs)
		}
		return rA.Encode(buf, a)
	}
	e.best, e.ties = e.g.EncodeLeast(rC, e.best[:0], c, e.ties)
	buf = binary.AppendUvarint(buf, uint64(len(e.best)))
	buf = append(buf, e.best...)
	return e.appendLeastImage(buf, func(buf []byte, g int) []byte { return e.gA.EncodePermuted(rA, buf, a, g) })
}

// appendTiesWith appends the key of the state s (a search of states) and
// returns the permutations that map s to the key's state, in increasing
// order: [0] without symmetry. The slice is the encoder's, reused by its
// next call. s shares most of its values with the state the runner r last
// decoded, from its encoding in a node's key (a step's successor): the
// encodings of the variables they share are copied from that key
// (eval.Symmetry.EncodeLeast).
func (e *encoder) appendTiesWith(buf []byte, s eval.State, r *fast.Runner) ([]byte, []int) {
	if e.g == nil {
		e.ties = append(e.ties[:0], 0)
		return r.Encode(buf, s), e.ties
	}
	buf, e.ties = e.g.EncodeLeast(r, buf, s, e.ties)
	return buf, e.ties
}

// splitPair returns the concrete and abstract encodings of a pair's key
// (without symmetry; with it, of its representative).
func splitPair(key []byte) (c, a []byte, err error) {
	n, k := binary.Uvarint(key)
	if k <= 0 || uint64(len(key)-k) < n {
		return nil, nil, fmt.Errorf("internal error: a bad pair key")
	}
	return key[k : k+int(n)], key[k+int(n):], nil
}
