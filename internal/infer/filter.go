// This file implements the filter: every atom is evaluated at every point
// of the reachable states of the instances (a state, and for a quantified
// context an element of its sort, or two distinct ones for pair atoms),
// and the filter records which atoms always hold, which implications
// between guards and atoms never fail, and which atoms take the same
// values everywhere.

package infer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// checkAtoms parses and sort-checks the atoms of every context in a's
// scope, keeping those that check (an atom of an unusual sort may not).
func checkAtoms(a *ioa.Automaton, ctxs []*qctx) {
	for _, c := range ctxs {
		c.atoms = checkList(a, c, c.atoms, false)
		c.pairs = checkList(a, c, c.pairs, true)
	}
}

func checkList(a *ioa.Automaton, c *qctx, list []*atom, pair bool) []*atom {
	return keepAtoms(list, func(at *atom) bool {
		text := atomText(c, at, pair)
		e, errs := expr.ParseExpr(text, nil)
		if len(errs) > 0 {
			return false
		}
		chk := &expr.Checker{}
		s := chk.CheckExpr(e, a.Scope, expr.BoolSort)
		if chk.Errors != nil && len(*chk.Errors) > 0 || s.IsInvalid() {
			return false
		}
		at.body = e
		if q, ok := e.(*expr.Quant); ok && c.sort != nil {
			at.body = q.Body
			for _, b := range q.Binders {
				at.bound = append(at.bound, b.Var)
			}
		}
		return true
	})
}

// atomText is the checkable text of an atom: closed by its quantifier in a
// quantified context.
func atomText(c *qctx, at *atom, pair bool) string {
	switch {
	case c.sort == nil:
		return at.tmpl
	case c.sort2 != nil:
		return fmt.Sprintf("forall %s. %s", c.binders(), fill2(at.tmpl, c.x, c.y))
	case pair:
		return fmt.Sprintf("forall %s: %s, %s: %s. %s", c.x, c.sort.Name, c.y, c.sort.Name, fill2(at.tmpl, c.x, c.y))
	}
	return fmt.Sprintf("forall %s: %s. %s", c.x, c.sort.Name, fill(at.tmpl, c.x))
}

func fill2(tmpl, x, y string) string { return fill(strings.ReplaceAll(tmpl, hole2, y), x) }

// bitset is a set of atom indexes.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) orNot(c bitset) {
	for i := range b {
		b[i] |= ^c[i]
	}
}
func (b bitset) and(c bitset) {
	for i := range b {
		b[i] &= c[i]
	}
}

// stats is what the filter learns about the atoms of one context.
type stats struct {
	n       int
	always  bitset // atoms true at every point
	support []int  // the points where each atom holds
	hash    []uint64
	// guards: indexes of the guard atoms; viol[g] the atoms false at some
	// point where guard g holds; seen[g] whether g holds somewhere.
	guards []int
	gpos   map[int]int
	viol   []bitset
	seen   []bool
	// excl[i] holds the atoms false at some point where atom i holds:
	// atom i is included in atom j on the points when excl[i] lacks j
	// (reserveOnPoints).
	excl []bitset
	// enum guards × other guards: the conjunction G1 and G2.
	enums, others []int
	pguards       []int
	viol2         [][]bitset
	seen2         [][]bool
	// pairs: guards are pguards (the enum guards and the Bool
	// definitions, atom.pairGuard) and "true" (index -1 ↦ 0):
	// pviol[g1+1][g2+1] the pair atoms false at some pair of distinct
	// elements (x, y) where g1(x) and g2(y) hold.
	pn     int
	pviol  [][]bitset
	pseen  [][]bool
	points int64
}

func newStats(c *qctx) *stats {
	n := len(c.atoms)
	st := &stats{n: n, always: newBitset(n), support: make([]int, n), hash: make([]uint64, n), gpos: map[int]int{}}
	for i := range st.always {
		st.always[i] = ^uint64(0)
	}
	st.excl = make([]bitset, n)
	for i := range st.excl {
		st.excl[i] = newBitset(n)
	}
	for _, at := range c.atoms {
		if !at.guard {
			continue
		}
		st.gpos[at.id] = len(st.guards)
		st.guards = append(st.guards, at.id)
		st.viol = append(st.viol, newBitset(n))
		st.seen = append(st.seen, false)
		if at.enumTerm != "" || at.pairGuard {
			st.pguards = append(st.pguards, at.id)
		}
		if at.enumTerm != "" {
			st.enums = append(st.enums, at.id)
		} else if !at.def {
			st.others = append(st.others, at.id)
		}
	}
	st.viol2 = make([][]bitset, len(st.enums))
	st.seen2 = make([][]bool, len(st.enums))
	for i := range st.enums {
		st.viol2[i] = make([]bitset, len(st.others))
		st.seen2[i] = make([]bool, len(st.others))
		for j := range st.others {
			st.viol2[i][j] = newBitset(n)
		}
	}
	st.pn = len(c.pairs)
	if st.pn > 0 {
		k := len(st.pguards) + 1
		st.pviol = make([][]bitset, k)
		st.pseen = make([][]bool, k)
		for i := range st.pviol {
			st.pviol[i] = make([]bitset, k)
			st.pseen[i] = make([]bool, k)
			for j := range st.pviol[i] {
				st.pviol[i][j] = newBitset(st.pn)
			}
		}
	}
	return st
}

// mix is a 64-bit mixer (splitmix64's finaliser): the hash of an atom is
// the sum of mix(point) over the points where it holds.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Instance is one explored instance of the filter.
type Instance struct {
	Bound    string  `json:"bound"`
	States   int     `json:"states"`
	Complete bool    `json:"complete"`
	Limit    string  `json:"limit,omitempty"`
	Seconds  float64 `json:"seconds"`
}

// filter explores every instance and evaluates the atoms of every
// context at every point. It returns the statistics per context.
func filter(ctx context.Context, a *ioa.Automaton, ctxs []*qctx, bounds []string, maxStates int, timeout time.Duration, progress func(string)) ([]*stats, []Instance, error) {
	sts := make([]*stats, len(ctxs))
	for i, c := range ctxs {
		sts[i] = newStats(c)
	}
	var point uint64
	var insts []Instance
	for _, bound := range bounds {
		inst, err := explore.ParseBounds(bound)
		if err != nil {
			return nil, nil, fmt.Errorf("--bound %s: %v", bound, err)
		}
		cfg := explore.Config{Instance: inst, Invariants: []string{}, MaxStates: maxStates, Workers: 1,
			Budget: explore.Budget{Timeout: timeout, Context: ctx}}
		m, err := explore.Machine(a, cfg)
		if err != nil {
			return nil, nil, fmt.Errorf("instance %s: %v", bound, err)
		}
		comp := make([]compiled, len(ctxs))
		for i, c := range ctxs {
			for _, at := range c.atoms {
				f, err := m.Compile(at.body, at.bound...)
				if err != nil {
					return nil, nil, fmt.Errorf("instance %s: atom %s: %v", bound, atomText(c, at, false), err)
				}
				comp[i].atoms = append(comp[i].atoms, f)
			}
			for _, at := range c.pairs {
				f, err := m.Compile(at.body, at.bound...)
				if err != nil {
					return nil, nil, fmt.Errorf("instance %s: atom %s: %v", bound, atomText(c, at, true), err)
				}
				comp[i].pairs = append(comp[i].pairs, f)
			}
			if c.sort != nil {
				vals, err := m.Inst.Values(c.sort)
				if err != nil {
					return nil, nil, err
				}
				comp[i].elems = vals
			}
			if c.sort2 != nil {
				vals, err := m.Inst.Values(c.sort2)
				if err != nil {
					return nil, nil, err
				}
				comp[i].elems2 = vals
			}
			comp[i].bind(c)
		}
		start := time.Now()
		last := start
		states := 0
		var evalErr error
		visit := func(id, depth int, s eval.State) error {
			states++
			if progress != nil && time.Since(last) > time.Second {
				last = time.Now()
				progress(fmt.Sprintf("filter %s: %d states", bound, states))
			}
			for i, c := range ctxs {
				if err := comp[i].point(c, sts[i], s, &point); err != nil {
					evalErr = err
					return err
				}
			}
			return nil
		}
		cfg.Visitor = &explore.Visitor{State: visit}
		res, err := explore.Explore(a, cfg)
		if err != nil {
			if evalErr != nil {
				return nil, nil, fmt.Errorf("instance %s: %v", bound, evalErr)
			}
			return nil, nil, fmt.Errorf("instance %s: %v", bound, err)
		}
		in := Instance{Bound: res.Instance, States: res.States, Complete: res.Complete, Limit: res.Limit, Seconds: time.Since(start).Seconds()}
		if res.Violation != nil {
			in.Complete = false
			in.Limit = "violation of " + res.Violation.Invariant
		}
		insts = append(insts, in)
	}
	return sts, insts, nil
}

// compiled is a context's atoms compiled for one instance, with the
// elements of its sorts.
type compiled struct {
	atoms, pairs []*eval.Func
	elems        []eval.Value
	elems2       []eval.Value // of a product context's second sort
	// bindings are the values of the bound variables at each point of
	// a state (bind): none (scalar), each element of the sort, or each
	// pair of elements of a product context's sorts.
	bindings [][]eval.Value
}

// bind sets cp.bindings for context c from its elements.
func (cp *compiled) bind(c *qctx) {
	switch {
	case c.sort == nil:
		cp.bindings = [][]eval.Value{nil}
	case c.sort2 != nil:
		for _, e1 := range cp.elems {
			for _, e2 := range cp.elems2 {
				cp.bindings = append(cp.bindings, []eval.Value{e1, e2})
			}
		}
	default:
		for _, e := range cp.elems {
			cp.bindings = append(cp.bindings, []eval.Value{e})
		}
	}
}

// truths evaluates fs at state s and the bound values args, and returns
// the set of those that hold.
func truths(fs []*eval.Func, n int, s eval.State, args ...eval.Value) (bitset, error) {
	b := newBitset(n)
	for j, f := range fs {
		v, err := f.Eval(s, nil, args...)
		if err != nil {
			return nil, err
		}
		if v.Bool() {
			b.set(j)
		}
	}
	return b, nil
}

// point records in st the points of state s for context c, one per
// binding of its bound variables (cp.bindings); then, for pair atoms,
// each two distinct elements. *point numbers the points.
func (cp *compiled) point(c *qctx, st *stats, s eval.State, point *uint64) error {
	bs := make([]bitset, len(cp.bindings))
	for k, args := range cp.bindings {
		b, err := truths(cp.atoms, st.n, s, args...)
		if err != nil {
			return err
		}
		st.record(b, *point)
		*point++
		bs[k] = b
	}
	if st.pn == 0 || c.sort == nil || c.sort2 != nil {
		return nil
	}
	for k1, e1 := range cp.elems {
		for k2, e2 := range cp.elems {
			if k1 == k2 {
				continue
			}
			p, err := truths(cp.pairs, st.pn, s, e1, e2)
			if err != nil {
				return err
			}
			st.recordPair(bs[k1], bs[k2], p)
		}
	}
	return nil
}

// record adds one point where the atoms in b hold.
func (st *stats) record(b bitset, point uint64) {
	st.points++
	st.always.and(b)
	h := mix(point)
	for j := 0; j < st.n; j++ {
		if b.has(j) {
			st.support[j]++
			st.hash[j] += h
			st.excl[j].orNot(b)
		}
	}
	for gi, g := range st.guards {
		if b.has(g) {
			st.seen[gi] = true
			st.viol[gi].orNot(b)
		}
	}
	for i, g1 := range st.enums {
		if !b.has(g1) {
			continue
		}
		for j, g2 := range st.others {
			if b.has(g2) {
				st.seen2[i][j] = true
				st.viol2[i][j].orNot(b)
			}
		}
	}
}

// recordPair adds one pair of distinct elements whose atoms are bx and by
// and whose pair atoms are p.
func (st *stats) recordPair(bx, by, p bitset) {
	for i := -1; i < len(st.pguards); i++ {
		if i >= 0 && !bx.has(st.pguards[i]) {
			continue
		}
		for j := -1; j < len(st.pguards); j++ {
			if j >= 0 && !by.has(st.pguards[j]) {
				continue
			}
			st.pseen[i+1][j+1] = true
			st.pviol[i+1][j+1].orNot(p)
		}
	}
}
