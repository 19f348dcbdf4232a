// This file implements the search of Implements: a breadth-first search
// over pairs of a concrete state and the set of abstract states that can
// show the same trace.

package crosscheck

import (
	"encoding/binary"
	"errors"
	"fmt"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// implements explores the pairs (c, S): a pair is its concrete state's id
// and its set's id (8 bytes) in a store, with the pair it was found from;
// the concrete states are kept encoded in another store. With a symmetry
// group gC (abs.g acting on A's states), each pair is stored as the
// representative of its orbit (traceSymmetry). With a reduction dC (and
// abs.d), the states of both automata are stored reduced, and gC and
// abs.g are groups WithDead. A failing trace is rebuilt by replaying the
// path of pairs from a real start state.
func implements(res *TraceResult, mC *eval.Machine, gC *eval.Symmetry, dC *eval.Dead, abs *absSide, cfg Config) error {
	ps := &pairSearch{res: res, mC: mC, gC: gC, dC: dC, abs: abs, cfg: cfg,
		cs: nodestore.New(), pairs: nodestore.New(), meter: explore.NewMeter(cfg.Budget), rt: fast.NewRunner(mC)}
	defer func() { _, res.PeakMemoryBytes = ps.meter.Memory() }()
	ps.prog = explore.NewReporter(cfg.Progress, ps.meter)
	if err := ps.start(); err != nil || res.Failure != nil {
		return err
	}
	return ps.run()
}

// pairSearch is the search of implements.
type pairSearch struct {
	res *TraceResult
	mC  *eval.Machine
	gC  *eval.Symmetry
	dC  *eval.Dead
	abs *absSide
	cfg Config

	cs     *nodestore.Store // the concrete states, encoded
	pairs  *nodestore.Store // the pairs, with the pair each was found from
	levels []int            // levels[d]: the first pair of depth d
	meter  *explore.Meter
	prog   *explore.Reporter
	inits  []eval.State // the start states of C
	s0     int32        // the set of A's start states, closed
	rt     *fast.Runner // for replays

	buf, best []byte // scratch of appendC, least
	ties      []int  // scratch of least
}

// appendC appends the encoding of s, a state of C, reduced with dC.
func (ps *pairSearch) appendC(buf []byte, s eval.State) []byte {
	if ps.dC != nil {
		return ps.dC.AppendState(buf, s)
	}
	return ps.mC.AppendState(buf, s)
}

// internC stores s and returns its id.
func (ps *pairSearch) internC(s eval.State) uint32 {
	ps.buf = ps.appendC(ps.buf[:0], s)
	id, _ := ps.cs.Insert(ps.buf, ps.cs.Hash(ps.buf), -1)
	ps.res.ConcreteStates = ps.cs.Len()
	return uint32(id)
}

// least returns the least encoding of the images of s under gC, and the
// permutations giving it.
func (ps *pairSearch) least(s eval.State) ([]byte, []int) {
	ps.best, ps.ties = ps.gC.AppendLeast(ps.best[:0], s, ps.ties)
	return ps.best, ps.ties
}

// leastSet returns the image of set under ties with the least id.
func (ps *pairSearch) leastSet(set int32, ties []int) (int32, error) {
	out := int32(-1)
	for _, g := range ties {
		t, err := ps.abs.permuted(set, g)
		if err != nil {
			return -1, err
		}
		if out < 0 || t < out {
			out = t
		}
	}
	return out, nil
}

// canon returns the stored pair of (s, set): the pair itself without
// symmetry, the representative of its orbit with it.
func (ps *pairSearch) canon(s eval.State, set int32) (uint32, uint32, error) {
	if ps.gC == nil {
		return ps.internC(s), uint32(set), nil
	}
	key, ties := ps.least(s)
	id, _ := ps.cs.Insert(key, ps.cs.Hash(key), -1)
	ps.res.ConcreteStates = ps.cs.Len()
	t, err := ps.leastSet(set, ties)
	return uint32(id), uint32(t), err
}

// represents reports whether pair (wc, ws) is the representative of
// (s, set), without storing anything for s.
func (ps *pairSearch) represents(s eval.State, set int32, wc, ws uint32) (bool, error) {
	if ps.gC == nil {
		return string(ps.appendC(ps.buf[:0], s)) == string(ps.cs.Key(int(wc))) && uint32(set) == ws, nil
	}
	key, ties := ps.least(s)
	if string(key) != string(ps.cs.Key(int(wc))) {
		return false, nil
	}
	t, err := ps.leastSet(set, ties)
	return uint32(t) == ws, err
}

// pairKey is the key of the pair (c, set).
func pairKey(c, set uint32) []byte {
	var k [8]byte
	binary.LittleEndian.PutUint32(k[:], c)
	binary.LittleEndian.PutUint32(k[4:], set)
	return k[:]
}

// pairOf returns the concrete state and set of pair id.
func (ps *pairSearch) pairOf(id int) (c, set uint32) {
	k := ps.pairs.Key(id)
	return binary.LittleEndian.Uint32(k), binary.LittleEndian.Uint32(k[4:])
}

// full reports whether a limit stops the search, recording it.
func (ps *pairSearch) full() bool {
	res, cfg := ps.res, ps.cfg
	if cfg.MaxStates > 0 && ps.pairs.Len() >= cfg.MaxStates {
		res.Limit = fmt.Sprintf("state limit %d", cfg.MaxStates)
		return true
	}
	if why := ps.meter.Exceeded(ps.pairs.PendingGrowth() + ps.cs.PendingGrowth() + ps.abs.st.PendingGrowth()); why != "" {
		res.Limit, res.Exhausted = why, true
		return true
	}
	return false
}

// add stores the pair (c, set) found from parent at depth, if new.
func (ps *pairSearch) add(c, set uint32, parent int32, depth int) {
	k := pairKey(c, set)
	if _, isNew := ps.pairs.Insert(k, ps.pairs.Hash(k), parent); !isNew {
		return
	}
	if depth >= len(ps.levels) {
		ps.levels = append(ps.levels, ps.pairs.Len()-1)
	}
	ps.res.Pairs++
	ps.res.MaxDepth = max(ps.res.MaxDepth, depth)
}

// start stores the start pairs: each start state of C with the set of
// A's start states, closed under internal steps; or records the failure
// of the empty trace when that set is empty.
func (ps *pairSearch) start() error {
	var err error
	if ps.inits, err = ps.mC.Init(); err != nil {
		return err
	}
	aInits, err := ps.abs.m.Init()
	if err != nil {
		return err
	}
	var a0 []int32
	for _, s := range aInits {
		id, err := ps.abs.intern(s)
		if err != nil {
			return err
		}
		a0 = append(a0, id)
	}
	if ps.s0, err = ps.abs.closeSet(a0); err != nil {
		return err
	}
	for _, s := range ps.inits {
		if ps.abs.size(ps.s0) == 0 {
			ps.res.AbstractStates, ps.res.AbstractSets = ps.abs.st.Len(), ps.abs.sets.Len()
			ps.res.Failure = &TraceFailure{Trace: newTrace(ps.mC, s), Events: []string{}, Offered: []string{}}
			return nil
		}
		if ps.full() {
			break
		}
		c0, set0, err := ps.canon(s, ps.s0)
		if err != nil {
			return err
		}
		ps.add(c0, set0, -1, 0)
	}
	return nil
}

// succ is a successor of the state being expanded: its parameters are
// pbuf[p0:p1].
type succ struct {
	act    *ioa.Action
	p0, p1 int
	post   eval.State
}

// run expands the pairs breadth-first, until a step whose event A cannot
// show (then the failure is recorded) or a limit.
func (ps *pairSearch) run() error {
	res, cfg, mC, abs := ps.res, ps.cfg, ps.mC, ps.abs
	r := fast.NewRunner(mC)
	r.SetScratch(true)
	var succs []succ
	var pbuf []eval.Value
	depth := 0
	for i := 0; i < ps.pairs.Len() && res.Limit == ""; i++ {
		for depth+1 < len(ps.levels) && i >= ps.levels[depth+1] {
			depth++
		}
		if cfg.MaxDepth > 0 && depth >= cfg.MaxDepth {
			res.Limit = fmt.Sprintf("depth limit %d", cfg.MaxDepth)
			break
		}
		if ps.full() {
			break
		}
		ps.prog.Report(ps.pairs.Len(), res.Transitions, depth, ps.pairs.Len()-i)
		c, set := ps.pairOf(i)
		r.Release()
		cur, err := r.Decode(ps.cs.Key(int(c)))
		if err != nil {
			return err
		}
		succs, pbuf = succs[:0], pbuf[:0]
		over := false
		err = r.Successors(cur, func(act int, params []eval.Value, post eval.State) bool {
			p0 := len(pbuf)
			pbuf = append(pbuf, params...)
			succs = append(succs, succ{mC.A.Actions[act], p0, len(pbuf), post})
			if len(succs)&63 == 0 && ps.meter.Over() {
				over = true
				return false
			}
			return true
		})
		if err != nil {
			return err
		}
		if over { // the successors are incomplete: stop
			res.Limit, res.Exhausted = ps.meter.Stop(), true
			break
		}
		for _, s := range succs {
			res.Transitions++
			next := int32(set)
			params := pbuf[s.p0:s.p1]
			if s.act.Kind.External() {
				ev, err := mC.FormatEvent(s.act, params)
				if err != nil {
					return err
				}
				if next, err = abs.step(int32(set), ev); err != nil {
					return err
				}
				if abs.size(next) == 0 {
					f, err := ps.traceTo(i)
					if err != nil {
						return err
					}
					res.Failure = f
					return nil
				}
			}
			if ps.full() {
				break
			}
			cn, sn, err := ps.canon(s.post, next)
			if err != nil {
				return err
			}
			ps.add(cn, sn, int32(i), depth+1)
		}
	}
	return nil
}

// replay is a replayed execution: its trace, the real state reached and
// the real set of A's states after its trace.
type replay struct {
	tr     *explore.Trace
	cur    eval.State
	curSet int32
}

// traceTo rebuilds a shortest execution to pair id from a real start
// state, through real states and the real sets of A's states after their
// traces (with symmetry the stored pairs are representatives), then takes
// the first step from the real state reached whose event A cannot show
// from the real set (with symmetry, an image of the failing step found
// from the representative).
func (ps *pairSearch) traceTo(id int) (*TraceFailure, error) {
	abs := ps.abs
	ps.res.AbstractStates, ps.res.AbstractSets = abs.st.Len(), abs.sets.Len()
	path := ps.pairs.Path(id)
	wc, ws := ps.pairOf(path[0])
	var cur eval.State
	for _, s := range ps.inits {
		ok, err := ps.represents(s, ps.s0, wc, ws)
		if err != nil {
			return nil, err
		}
		if ok {
			cur = s
			break
		}
	}
	if cur == nil {
		return nil, errors.New("internal error: no start state replays the trace's first pair")
	}
	rp := &replay{tr: newTrace(ps.mC, cur), cur: cur, curSet: ps.s0}
	for k, nid := range path[1:] {
		wc, ws := ps.pairOf(nid)
		ok, err := ps.replayStep(rp, func(post eval.State, set int32) (bool, error) { return ps.represents(post, set, wc, ws) })
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("internal error: cannot replay step %d of a trace", k+1)
		}
	}
	before := rp.curSet
	ok, err := ps.replayStep(rp, func(_ eval.State, set int32) (bool, error) { return abs.size(set) == 0, nil })
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("internal error: the failing step does not replay from the trace's last state")
	}
	f := &TraceFailure{Trace: rp.tr, Events: []string{}, Offered: []string{}}
	for _, st := range rp.tr.Steps {
		if st.Event != "" {
			f.Events = append(f.Events, st.Event)
		}
	}
	f.Candidates = abs.size(before)
	f.Offered = abs.offered(before)
	if len(f.Offered) > 20 {
		f.Offered = f.Offered[:20]
	}
	return f, nil
}

// replayStep finds the first step from rp's state to whose state and set
// keep returns true, and takes it; it returns false when there is none.
func (ps *pairSearch) replayStep(rp *replay, keep func(post eval.State, set int32) (bool, error)) (bool, error) {
	mC := ps.mC
	var next eval.State
	var nact *ioa.Action
	var nparams []eval.Value
	nset := int32(-1)
	var failed error
	err := ps.rt.Successors(rp.cur, func(a int, params []eval.Value, post eval.State) bool {
		set, act := rp.curSet, mC.A.Actions[a]
		if act.Kind.External() {
			ev, err := mC.FormatEvent(act, params)
			if err == nil {
				set, err = ps.abs.step(rp.curSet, ev)
			}
			if err != nil {
				failed = err
				return false
			}
		}
		ok, err := keep(post, set)
		if err != nil {
			failed = err
			return false
		}
		if !ok {
			return true
		}
		next, nact, nparams, nset = post, act, append([]eval.Value(nil), params...), set
		return false
	})
	if err == nil {
		err = failed
	}
	if err != nil || next == nil {
		return false, err
	}
	if err := addStep(rp.tr, mC, nact, nparams, next); err != nil {
		return false, err
	}
	rp.cur, rp.curSet = next, nset
	return true, nil
}
