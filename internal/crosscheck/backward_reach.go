// This file computes the reachable states of the abstract automaton that
// the candidates index, on encodings or with the Runner.

package crosscheck

import (
	"runtime"
	"sync"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// reachable returns the reachable states of m's automaton, encoded, in
// breadth-first order, at most limit of them, and whether they are all of
// them; with a group sy, one representative of each orbit instead (its
// canonical encoding), limit counting orbits. It stops early, incomplete,
// when meter's budget is reached, and reports its progress to prog.
//
// States are expanded on their encodings (fast.Flat) when the automaton
// compiles to the flat layout and the group canonicalizes encodings from
// their bytes (Symmetry.BytesOnly), as the explorer does; a state Flat
// gives up on is decoded and expanded by the Runner. Both give the same
// successors in the same order, and the same canonical encodings
// (Symmetry.LeastEncoded and AppendCanonical compute the same least
// image), so the store does not depend on which path expanded a state.
func reachable(m *eval.Machine, sy *eval.Symmetry, limit int, meter *explore.Meter, prog *explore.Reporter) (*nodestore.Store, bool, error) {
	return reachableWith(m, sy, limit, meter, prog, true)
}

// reachableWith is reachable, on encodings when useFlat is set and the
// automaton and group allow it, else with the Runner alone.
func reachableWith(m *eval.Machine, sy *eval.Symmetry, limit int, meter *explore.Meter, prog *explore.Reporter, useFlat bool) (*nodestore.Store, bool, error) {
	inits, err := m.Init()
	if err != nil {
		return nil, false, err
	}
	rs := newReacher(m, sy, limit, useFlat)
	st := rs.st
	var buf []byte
	for _, s := range inits {
		buf = rs.appendKey(buf[:0], s)
		if !rs.add(buf, st.Hash(buf)) {
			return st, false, nil
		}
	}
	// Batches of nodes are expanded on one goroutine per core, each
	// computing the keys of the successors of a contiguous part; the keys
	// are then stored in order, so the store does not depend on the cores.
	const batch = 4096
	depth, levelEnd, transitions := 0, st.Len(), int64(0)
	for lo := 0; lo < st.Len(); {
		if meter.Exceeded(0) != "" {
			return st, false, nil
		}
		hi := min(lo+batch, st.Len(), levelEnd)
		prog.Report(st.Len(), transitions, depth, st.Len()-lo)
		keys := make([][]byte, hi-lo) // copied: the store grows while the parts run
		for i := lo; i < hi; i++ {
			keys[i-lo] = append([]byte(nil), st.Key(i)...)
		}
		np := max(1, min(len(rs.parts), (hi-lo)/64))
		var wg sync.WaitGroup
		for k := 0; k < np; k++ {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				rs.expand(k, keys[len(keys)*k/np:len(keys)*(k+1)/np])
			}(k)
		}
		wg.Wait()
		for k := 0; k < np; k++ {
			pt := &rs.parts[k]
			if pt.err != nil {
				return nil, false, pt.err
			}
			start := 0
			for j, end := range pt.ends {
				if j%32 == 0 {
					// the table slots and records of the next keys
					st.Prefetch(pt.hashes[j:min(j+32, len(pt.hashes))])
				}
				transitions++
				if !rs.add(pt.keys[start:end], pt.hashes[j]) {
					return st, false, nil
				}
				start = end
			}
		}
		if lo = hi; lo == levelEnd {
			depth, levelEnd = depth+1, st.Len()
		}
	}
	return st, true, nil
}

// reacher is the search of reachableWith: the store, and per core a part
// of a batch's successors with its runners.
type reacher struct {
	m       *eval.Machine
	sy      *eval.Symmetry
	limit   int
	st      *nodestore.Store
	parts   []reachPart
	runners []*fast.Runner
	fl      *fast.Flat // nil: the Runner expands every state
	flats   []*fast.FlatRunner
	offs    [][]int
}

// reachPart is the successors of a part of a batch: their keys (ending
// at ends) and hashes.
type reachPart struct {
	keys   []byte
	ends   []int
	hashes []uint64
	err    error
}

func newReacher(m *eval.Machine, sy *eval.Symmetry, limit int, useFlat bool) *reacher {
	w := runtime.GOMAXPROCS(0)
	rs := &reacher{m: m, sy: sy, limit: limit, st: nodestore.New(), parts: make([]reachPart, w), runners: make([]*fast.Runner, w)}
	for k := range rs.runners {
		rs.runners[k] = fast.NewRunner(m)
		rs.runners[k].SetScratch(true)
	}
	if useFlat && (sy == nil || sy.BytesOnly()) {
		if f, err := fast.NewFlat(m); err == nil {
			rs.fl = f
			for range w {
				rs.flats = append(rs.flats, f.NewRunner())
				rs.offs = append(rs.offs, make([]int, len(m.A.Vars)+1))
			}
		}
	}
	return rs
}

// add stores the state with key k unless it is stored, or the store is
// full (then it reports false).
func (rs *reacher) add(k []byte, h uint64) bool {
	if rs.st.Len() >= rs.limit {
		return rs.st.Find(k, h) >= 0
	}
	rs.st.Insert(k, h, -1)
	return true
}

// appendKey appends the key of s: its canonical encoding under sy, or
// its encoding.
func (rs *reacher) appendKey(buf []byte, s eval.State) []byte {
	if rs.sy != nil {
		buf, _ = rs.sy.AppendCanonical(buf, s)
		return buf
	}
	return rs.m.AppendState(buf, s)
}

// expand computes into part k the keys of the successors of the states
// with the given keys: on their encodings (Flat) when it can, else with
// the Runner.
func (rs *reacher) expand(k int, keys [][]byte) {
	pt, r, sy, st := &rs.parts[k], rs.runners[k], rs.sy, rs.st
	pt.keys, pt.ends, pt.hashes, pt.err = pt.keys[:0], pt.ends[:0], pt.hashes[:0], nil
	gaveUp := false
	visitFlat := func(_ int, post []byte) bool {
		start := len(pt.keys)
		pt.keys = append(pt.keys, post...)
		if sy != nil {
			var ok bool
			if !rs.fl.Offsets(pt.keys[start:], rs.offs[k]) {
				gaveUp = true
				return false
			}
			if pt.keys, _, ok = sy.LeastEncoded(pt.keys, start, rs.offs[k]); !ok {
				gaveUp = true
				return false
			}
		}
		pt.ends = append(pt.ends, len(pt.keys))
		pt.hashes = append(pt.hashes, st.Hash(pt.keys[start:]))
		return true
	}
	for _, key := range keys {
		if rs.flats != nil {
			n0, k0 := len(pt.ends), len(pt.keys)
			gaveUp = false
			if rs.flats[k].Successors(key, visitFlat) && !gaveUp {
				continue
			}
			// the Runner expands the state
			pt.keys, pt.ends, pt.hashes = pt.keys[:k0], pt.ends[:n0], pt.hashes[:n0]
		}
		r.Release()
		s, err := r.Decode(key)
		if err != nil {
			pt.err = err
			return
		}
		err = r.Successors(s, func(_ int, _ []eval.Value, post eval.State) bool {
			start := len(pt.keys)
			pt.keys = rs.appendKey(pt.keys, post)
			pt.ends = append(pt.ends, len(pt.keys))
			pt.hashes = append(pt.hashes, st.Hash(pt.keys[start:]))
			return true
		})
		if err != nil {
			pt.err = err
			return
		}
	}
}
