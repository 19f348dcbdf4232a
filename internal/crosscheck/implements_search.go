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
	cs := nodestore.New()
	var buf []byte
	appendC := func(buf []byte, s eval.State) []byte {
		if dC != nil {
			return dC.AppendState(buf, s)
		}
		return mC.AppendState(buf, s)
	}
	internC := func(s eval.State) uint32 {
		buf = appendC(buf[:0], s)
		id, _ := cs.Insert(buf, cs.Hash(buf), -1)
		res.ConcreteStates = cs.Len()
		return uint32(id)
	}
	// least returns the least encoding of the images of s under gC, and
	// the permutations giving it.
	var best []byte
	var ties []int
	least := func(s eval.State) ([]byte, []int) {
		best, ties = gC.AppendLeast(best[:0], s, ties)
		return best, ties
	}
	// leastSet returns the image of set under ties with the least id.
	leastSet := func(set int32, ties []int) (int32, error) {
		out := int32(-1)
		for _, g := range ties {
			t, err := abs.permuted(set, g)
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
	canon := func(s eval.State, set int32) (uint32, uint32, error) {
		if gC == nil {
			return internC(s), uint32(set), nil
		}
		key, ties := least(s)
		id, _ := cs.Insert(key, cs.Hash(key), -1)
		res.ConcreteStates = cs.Len()
		t, err := leastSet(set, ties)
		return uint32(id), uint32(t), err
	}
	// represents reports whether pair (wc, ws) is the representative of
	// (s, set), without storing anything for s.
	represents := func(s eval.State, set int32, wc, ws uint32) (bool, error) {
		if gC == nil {
			return string(appendC(buf[:0], s)) == string(cs.Key(int(wc))) && uint32(set) == ws, nil
		}
		key, ties := least(s)
		if string(key) != string(cs.Key(int(wc))) {
			return false, nil
		}
		t, err := leastSet(set, ties)
		return uint32(t) == ws, err
	}
	pairs := nodestore.New()
	pairKey := func(c, set uint32) []byte {
		var k [8]byte
		binary.LittleEndian.PutUint32(k[:], c)
		binary.LittleEndian.PutUint32(k[4:], set)
		return k[:]
	}
	pairOf := func(id int) (c, set uint32) {
		k := pairs.Key(id)
		return binary.LittleEndian.Uint32(k), binary.LittleEndian.Uint32(k[4:])
	}
	var levels []int // levels[d]: the first pair of depth d
	meter := explore.NewMeter(cfg.Budget)
	defer func() { _, res.PeakMemoryBytes = meter.Memory() }()
	full := func() bool {
		if cfg.MaxStates > 0 && pairs.Len() >= cfg.MaxStates {
			res.Limit = fmt.Sprintf("state limit %d", cfg.MaxStates)
			return true
		}
		if why := meter.Exceeded(pairs.PendingGrowth() + cs.PendingGrowth() + abs.st.PendingGrowth()); why != "" {
			res.Limit, res.Exhausted = why, true
			return true
		}
		return false
	}
	prog := explore.NewReporter(cfg.Progress, meter)
	add := func(c, set uint32, parent int32, depth int) {
		k := pairKey(c, set)
		if _, isNew := pairs.Insert(k, pairs.Hash(k), parent); !isNew {
			return
		}
		if depth >= len(levels) {
			levels = append(levels, pairs.Len()-1)
		}
		res.Pairs++
		res.MaxDepth = max(res.MaxDepth, depth)
	}
	inits, err := mC.Init()
	if err != nil {
		return err
	}
	aInits, err := abs.m.Init()
	if err != nil {
		return err
	}
	var a0 []int32
	for _, s := range aInits {
		id, err := abs.intern(s)
		if err != nil {
			return err
		}
		a0 = append(a0, id)
	}
	s0, err := abs.closeSet(a0)
	if err != nil {
		return err
	}
	rt := mC.NewRunner() // for replays
	// traceTo rebuilds a shortest execution to pair id from a real start
	// state, through real states and the real sets of A's states after
	// their traces (with symmetry the stored pairs are representatives),
	// then takes the first step from the real state reached whose event A
	// cannot show from the real set (with symmetry, an image of the failing
	// step found from the representative).
	traceTo := func(id int) (*TraceFailure, error) {
		res.AbstractStates, res.AbstractSets = abs.st.Len(), abs.sets.Len()
		path := pairs.Path(id)
		wc, ws := pairOf(path[0])
		var cur eval.State
		for _, s := range inits {
			ok, err := represents(s, s0, wc, ws)
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
		curSet := s0
		tr := newTrace(mC, cur)
		// step finds the first step from cur to whose state and set keep
		// returns true, and takes it.
		step := func(keep func(post eval.State, set int32) (bool, error)) (bool, error) {
			var next eval.State
			var nact *ioa.Action
			var nparams []eval.Value
			nset := int32(-1)
			var failed error
			err := rt.Successors(cur, func(a int, ps []eval.Value, post eval.State) bool {
				set, act := curSet, mC.A.Actions[a]
				if act.Kind.External() {
					ev, err := mC.FormatEvent(act, ps)
					if err == nil {
						set, err = abs.step(curSet, ev)
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
				next, nact, nparams, nset = post, act, append([]eval.Value(nil), ps...), set
				return false
			})
			if err == nil {
				err = failed
			}
			if err != nil || next == nil {
				return false, err
			}
			if err := addStep(tr, mC, nact, nparams, next); err != nil {
				return false, err
			}
			cur, curSet = next, nset
			return true, nil
		}
		for k, nid := range path[1:] {
			wc, ws := pairOf(nid)
			ok, err := step(func(post eval.State, set int32) (bool, error) { return represents(post, set, wc, ws) })
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("internal error: cannot replay step %d of a trace", k+1)
			}
		}
		before := curSet
		ok, err := step(func(_ eval.State, set int32) (bool, error) { return abs.size(set) == 0, nil })
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errors.New("internal error: the failing step does not replay from the trace's last state")
		}
		f := &TraceFailure{Trace: tr, Events: []string{}, Offered: []string{}}
		for _, st := range tr.Steps {
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
	for _, s := range inits {
		if abs.size(s0) == 0 {
			res.AbstractStates, res.AbstractSets = abs.st.Len(), abs.sets.Len()
			res.Failure = &TraceFailure{Trace: newTrace(mC, s), Events: []string{}, Offered: []string{}}
			return nil
		}
		if full() {
			break
		}
		c0, set0, err := canon(s, s0)
		if err != nil {
			return err
		}
		add(c0, set0, -1, 0)
	}
	type succ struct {
		act    *ioa.Action
		p0, p1 int
		post   eval.State
	}
	r := mC.NewRunner()
	r.SetScratch(true)
	var succs []succ
	var pbuf []eval.Value
	depth := 0
	for i := 0; i < pairs.Len() && res.Limit == ""; i++ {
		for depth+1 < len(levels) && i >= levels[depth+1] {
			depth++
		}
		if cfg.MaxDepth > 0 && depth >= cfg.MaxDepth {
			res.Limit = fmt.Sprintf("depth limit %d", cfg.MaxDepth)
			break
		}
		if full() {
			break
		}
		prog.Report(pairs.Len(), res.Transitions, depth, pairs.Len()-i)
		c, set := pairOf(i)
		r.Release()
		cur, err := r.Decode(cs.Key(int(c)))
		if err != nil {
			return err
		}
		succs, pbuf = succs[:0], pbuf[:0]
		over := false
		err = r.Successors(cur, func(act int, params []eval.Value, post eval.State) bool {
			p0 := len(pbuf)
			pbuf = append(pbuf, params...)
			succs = append(succs, succ{mC.A.Actions[act], p0, len(pbuf), post})
			if len(succs)&63 == 0 && meter.Over() {
				over = true
				return false
			}
			return true
		})
		if err != nil {
			return err
		}
		if over { // the successors are incomplete: stop
			res.Limit, res.Exhausted = meter.Stop(), true
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
					f, err := traceTo(i)
					if err != nil {
						return err
					}
					res.Failure = f
					return nil
				}
			}
			if full() {
				break
			}
			cn, sn, err := canon(s.post, next)
			if err != nil {
				return err
			}
			add(cn, sn, int32(i), depth+1)
		}
	}
	return nil
}
