// This file implements the parallel search of an automaton that Flat runs
// (fast.Flat): with no Values to build, a worker expands a state in less
// time than a single goroutine takes to insert its successors, so the
// insertion is parallel too. The store's table is sharded by hash
// (nodestore.NewSharded), and each batch of a level goes through four
// phases:
//
//  1. the workers expand contiguous parts of the batch, several per
//     worker, each taking the next of its own parts when it is done with
//     one, and then those the others have left (each), reading
//     the states from the store (which nothing changes meanwhile); a
//     successor that repeats an earlier one of its part
//     (flatPart.repeated) is not new: it is counted and dropped at once,
//     and of the others they note the encoding, hash and shard;
//  2. the workers look the successors up, shard by shard (taking the
//     shards as they take the parts), in batch order within a shard
//     (nodestore.LookupBatch), which leaves a pending slot for each first
//     occurrence of a state the store does not hold, after growing the
//     shard first when those successors might fill it (nodestore.Room);
//  3. the workers classify the parts' successors, and store their new states
//     in batch order, each into a region of the arena reserved for it,
//     with the ids a sequential search gives them (nodestore.Reserve,
//     Put), checking their conditions on the way; when the batch holds a
//     deadlock to report or a limit is near, this goroutine stores them
//     instead, one by one (storeBatch), and stops where a sequential
//     search stops;
//  4. the workers point the pending slots at the records
//     (nodestore.ResolveBatch).
//
// The ids, the parents, the trace and the counts are those of a search on
// one worker, but after an invariant's violation: like levelParallel, a
// batch's new states are all stored before they are checked.
//
// Each worker writes only its own buffers and those of the part it
// expands, padded apart, so that the cores do not share the cache lines
// they write.

package explore

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"ladder/internal/memhint"
	"ladder/internal/nodestore"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// flatBatch is the number of states a parallel level with Flat expands
// between insertions, and partsPerWorker the parts of a batch per worker.
// A worker that is done with its own parts takes those the others have
// left, so that one that meets costlier states does not keep the others
// waiting; a part of flatBatch /
// (partsPerWorker × workers) states, 8192 on two workers, has room for
// most of the repeats among its successors (flatPart.repeated).
const (
	flatBatch      = 1 << 16
	partsPerWorker = 4
)

// Under a memory budget, a batch of levelFlat is smaller when its
// buffers (the parts' successors, the shards' lookups, the store's table
// grown for them) would take more than a share of the budget, 1 /
// flatBudgetShare, as the bytes per state of the last batch say: a batch
// of 65536 states of 20 successors of 100 bytes takes over 100 MiB, and
// its successors are not counted as stored states. A batch has at least
// minFlatBatch states (firstFlatBatch before any was measured).
const (
	flatBudgetShare = 8
	minFlatBatch    = 256
	firstFlatBatch  = 4096
	// flatSuccBytes is what a kept successor takes besides its encoding:
	// its entries in the part's lists (ends, hs, orbits, acts, rows, pos,
	// rs), in its shard's lookup lists (idx, res, at) and in the ids
	flatSuccBytes = 8 + 8 + 4 + 4 + 4 + 4 + 8 + 4 + 8 + 8 + 4
)

// flatWorker is one worker of levelFlat: its runners.
type flatWorker struct {
	_  [128]byte // padding: see the file comment
	fr *fast.FlatRunner
	r  *fast.Runner // for the states Flat gives up on, and final checks
	_  [128]byte
}

// flatShard is what phase 2 computed for a shard of the store's table.
type flatShard struct {
	_   [128]byte // padding: see the file comment
	idx []int32   // the batch indexes of the successors in the shard
	res []int64   // their lookup results
	at  []uint64  // where their pending slots are
	_   [128]byte
}

// flatPart is a contiguous part of a batch of levelFlat and what a worker
// computed for it; the parts of a batch are in batch order.
type flatPart struct {
	_      [128]byte // padding: see the file comment
	lo, hi int       // its states in the batch
	// the lists hold the successors of the part's states but those that
	// repeat an earlier one of the part (repeated): such a successor is
	// not new, and is counted and dropped
	arena  []byte  // the successors' encodings
	ends   []int   // where each ends in the arena
	orbits []int32 // the size of each one's orbit (1 without symmetry)
	acts   []int32 // the action of each one's step
	rows   []int32 // Flat's RowParam of each one's step, or -1
	offs   []int   // scratch: a key's variables' offsets
	maxKey int     // the length of the longest encoding
	hs     []uint64
	pos    []int32 // the place of each among its state's successors
	seen   []int32 // an open-addressing set of the part's successors, by index+1
	nseen  int
	counts []int32 // successors per state of the part
	kept   []int32 // of which in the lists (not repeats), per state
	total  int64   // the successors of the part's states
	dead   []bool  // no successor and not final, per state of the part
	shard  [][]int32
	err    error
	// phase 3: the lookup result of each of its successors, how many of
	// them are new, the bytes of their records, whether a state of its
	// part is dead, its states without successors, the region of the
	// store's arena it fills, the id of its first new state, and the new
	// states whose conditions Flat did not find to hold
	rs       []int64
	nnew     int
	orbit    int64 // the sizes of the new states' orbits, added
	bytes    int
	anyDead  bool
	nzero    int
	region   nodestore.Region
	firstID  int
	suspects []int
	_        [128]byte
}

// flatSet is the workers, parts and shards of levelFlat.
type flatSet struct {
	ws     []*flatWorker
	parts  []*flatPart
	shards []*flatShard
	base   []int // the batch index of each part's first successor
	ids    []int32
	fresh  []item
	// perState is the bytes the buffers took per state of the last batch
	// (twice what it filled: the lists keep twice the room they took), 0
	// before any batch
	perState int64
}

// flatBatchSize returns the number of states of the next batch of levelFlat:
// flatBatch, or fewer under a memory budget (flatBudgetShare).
func (x *explorer) flatBatchSize(fs *flatSet) int {
	if x.cfg.batch > 0 {
		return x.cfg.batch
	}
	m := x.cfg.Budget.MaxMemory
	switch {
	case m <= 0:
		return flatBatch
	case fs.perState <= 0:
		return firstFlatBatch
	}
	return int(min(max(m/flatBudgetShare/fs.perState, minFlatBatch), flatBatch))
}

// measure records the bytes per state of the batch that phase 1 expanded.
func (fs *flatSet) measure(states int) {
	var b int64
	for _, pt := range fs.parts {
		b += int64(len(pt.arena)) + flatSuccBytes*int64(len(pt.ends)) + 4*int64(len(pt.seen))
	}
	fs.perState = max(2*b/int64(max(states, 1)), 1)
}

func (x *explorer) newFlatSet(w int) *flatSet {
	n := w * partsPerWorker
	fs := &flatSet{ws: make([]*flatWorker, w), parts: make([]*flatPart, n), shards: make([]*flatShard, x.st.Shards()), base: make([]int, n+1)}
	for sh := range fs.shards {
		fs.shards[sh] = &flatShard{}
	}
	for g := range fs.ws {
		r := fast.NewRunner(x.m)
		r.SetScratch(true)
		fs.ws[g] = &flatWorker{fr: x.flat.NewRunner(), r: r}
	}
	for k := range fs.parts {
		fs.parts[k] = &flatPart{shard: make([][]int32, x.st.Shards()), offs: make([]int, len(x.m.A.Vars)+1)}
	}
	return fs
}

// at returns the part and the position in its lists of successor i of
// the batch.
func (fs *flatSet) at(i int) (*flatPart, int) {
	k := 0
	for fs.base[k+1] <= i {
		k++
	}
	return fs.parts[k], i - fs.base[k]
}

func (fs *flatSet) key(i int) []byte {
	w, j := fs.at(i)
	return w.keyAt(j)
}

func (fs *flatSet) hash(i int) uint64 {
	w, j := fs.at(i)
	return w.hs[j]
}

// levelFlat expands the states of one level with Flat on several workers,
// batch by batch (see the file comment).
func (x *explorer) levelFlat(cur []int32, depth int) (next []int32, err error) {
	next = x.ids
	w := x.workers()
	if x.fset == nil || len(x.fset.ws) != w {
		x.fset = x.newFlatSet(w)
	}
	fs := x.fset
	var batch []int32
	for lo := 0; lo < len(cur); lo += len(batch) {
		batch = cur[lo:min(lo+x.flatBatchSize(fs), len(cur))]
		// phase 1
		np := len(fs.parts)
		for k, pt := range fs.parts {
			pt.lo, pt.hi = k*len(batch)/np, (k+1)*len(batch)/np
		}
		x.each(w, np, func(g, k int) { x.expandFlat(fs.parts[k], fs.ws[g], batch) })
		for _, pt := range fs.parts {
			if errors.Is(pt.err, errOverBudget) {
				x.res.Limit, x.res.Exhausted = x.meter.Stop(), true
				return next, nil
			}
		}
		for _, pt := range fs.parts {
			if pt.err != nil {
				return nil, pt.err
			}
		}
		for k, pt := range fs.parts {
			fs.base[k+1] = fs.base[k] + len(pt.ends)
		}
		n := fs.base[np]
		fs.measure(len(batch))
		// phase 2
		x.each(w, len(fs.shards), func(_, sh int) {
			o := fs.shards[sh]
			o.idx = o.idx[:0]
			for k, pt := range fs.parts {
				for _, j := range pt.shard[sh] {
					o.idx = append(o.idx, int32(fs.base[k])+j)
				}
			}
			o.res, o.at = grow(o.res, len(o.idx)), grow(o.at, len(o.idx))
			// (the shards grow here, at about the same batch, rather
			// than one in its lookups while the others wait for it)
			x.st.Room(sh, len(o.idx))
			x.st.LookupBatch(sh, o.idx, fs.key, fs.hash, o.res, o.at)
		})
		// phase 3
		fs.ids = grow(fs.ids, n)
		x.each(w, np, func(_, k int) { x.classify(fs, k) })
		var fresh []item // the new states storeBatch stored
		var lo, hi int   // or those of storeParallel
		var stopErr error
		parallelStore := x.storable(fs)
		if parallelStore {
			// every first occurrence gets an id
			lo, hi = x.storeParallel(fs, batch, depth)
		} else {
			// those storeBatch does not store keep -1
			for i := range fs.ids {
				fs.ids[i] = -1
			}
			fresh, stopErr = x.storeBatch(fs, batch)
		}
		// phase 4
		x.each(w, len(fs.shards), func(_, sh int) {
			o := fs.shards[sh]
			x.st.ResolveBatch(sh, o.idx, fs.hash, o.res, o.at, fs.ids)
		})
		if stopErr != nil || x.res.Violation != nil {
			return appendRange(appendIDs(next, fresh), lo, hi), stopErr
		}
		if parallelStore {
			stopErr = x.suspects(fs)
		} else {
			runners, flats := make([]*fast.Runner, w), make([]*fast.FlatRunner, w)
			for g, wk := range fs.ws {
				runners[g], flats[g] = wk.r, wk.fr
			}
			stopErr = x.checkFresh(runners, flats, fresh, depth)
		}
		if stopErr != nil || x.res.Violation != nil {
			return appendRange(appendIDs(next, fresh), lo, hi), stopErr
		}
		next = appendRange(appendIDs(next, fresh), lo, hi)
		if x.res.Limit != "" {
			return next, nil
		}
		x.progress(len(cur)-lo-len(batch)+len(next), depth)
	}
	return next, nil
}

// appendRange appends the ids lo…hi-1 to ids.
func appendRange(ids []int32, lo, hi int) []int32 {
	for id := lo; id < hi; id++ {
		ids = append(ids, int32(id))
	}
	return ids
}

// parallel runs f(0), …, f(w-1) on w goroutines and waits for them.
func (x *explorer) parallel(w int, f func(g int)) {
	var wg sync.WaitGroup
	for g := 0; g < w; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			f(g)
		}(g)
	}
	wg.Wait()
}

// each runs f(g, k) for k = 0, …, n-1 (the parts or the shards of a
// batch), in parallel on the workers g = 0, …, w-1, and waits for them.
// Worker g takes the ks of its own run (g·n/w to (g+1)·n/w) in order,
// then those left in the other runs, so that a part or shard is usually
// handled by the same worker in every phase and batch (its buffers stay
// in that core's cache) while a worker that meets costlier states, or
// whose core the machine gives to another program for a while, does not
// keep the others waiting.
func (x *explorer) each(w, n int, f func(g, k int)) {
	taken := make([]paddedCounter, w)
	x.parallel(w, func(g int) {
		for i := 0; i < w; i++ {
			r := (g + i) % w
			lo, hi := r*n/w, (r+1)*n/w
			for {
				k := lo + int(taken[r].n.Add(1)) - 1
				if k >= hi {
					break
				}
				f(g, k)
			}
		}
	})
}

// paddedCounter is an atomic counter alone on its cache lines.
type paddedCounter struct {
	_ [64]byte
	n atomic.Int64
	_ [64]byte
}

// room returns s emptied, with room for twice its elements.
func room[T any](s []T) []T {
	if cap(s) < 2*len(s) {
		return make([]T, 0, 2*len(s))
	}
	return s[:0]
}

// grow returns s resliced to n elements, or a new slice when its capacity
// is short; the elements are not cleared.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// expandFlat expands the states lo…hi-1 of a batch, part wk, on worker
// wr. A state Flat gives up on (or whose successors' bytes do not suffice
// for their canonical keys, with symmetry reduction) is expanded by the
// worker's Runner and encoded.
func (x *explorer) expandFlat(wk *flatPart, wr *flatWorker, batch []int32) {
	// the lists keep twice the room the part's last batch took, so that
	// they rarely grow (growing one copies it)
	wk.arena = room(wk.arena)
	wk.ends, wk.hs, wk.orbits, wk.acts, wk.rows, wk.pos = room(wk.ends), room(wk.hs), room(wk.orbits), room(wk.acts), room(wk.rows), room(wk.pos)
	wk.err, wk.maxKey, wk.total = nil, 0, 0
	wk.resetSeen()
	wk.counts = grow(wk.counts, wk.hi-wk.lo)
	wk.kept = grow(wk.kept, wk.hi-wk.lo)
	wk.dead = grow(wk.dead, wk.hi-wk.lo)
	for sh := range wk.shard {
		wk.shard[sh] = wk.shard[sh][:0]
	}
	over, gaveUp := false, false
	c := int32(0) // the successors of the state being expanded, so far
	// The budget is looked at every 64 successors of the part, and every
	// overBytes of new encodings, as in expandPart: most states have fewer
	// than 64 successors.
	since, atBytes := 0, 0
	// A successor is checked against the part's set (repeated) when the
	// next one is handed over, or when its state is done: meanwhile, its
	// slot in the set, asked for at once, comes into the cache while
	// Flat computes the next successor. Until then it is pending: in the
	// lists, not in the set nor in its shard's list.
	pending := false
	resolve := func() {
		if !pending {
			return
		}
		pending = false
		j := len(wk.ends) - 1
		key, h := wk.keyAt(j), wk.hs[j]
		if wk.repeated(key, h, j) {
			wk.arena = wk.arena[:len(wk.arena)-len(key)]
			wk.ends, wk.orbits, wk.acts, wk.rows, wk.hs, wk.pos = wk.ends[:j], wk.orbits[:j], wk.acts[:j], wk.rows[:j], wk.hs[:j], wk.pos[:j]
			return
		}
		wk.maxKey = max(wk.maxKey, len(key))
		sh := x.st.ShardOf(h)
		wk.shard[sh] = append(wk.shard[sh], int32(j))
	}
	// keep notes the state's successor with key, orbit, action and row
	// (flat: Flat's RowParam), pending; its key ends the arena when
	// inArena, else it is copied there. The pending successor before it
	// is resolved first, by the visitors, before they write to the arena.
	keep := func(key []byte, inArena bool, orbit int32, act int, flat bool) bool {
		c++
		h := x.st.Hash(key)
		wk.prefetchSeen(h)
		row := int64(-1)
		if flat {
			row = x.rowParam(wr.fr, act)
		}
		if !inArena {
			wk.arena = append(wk.arena, key...)
		}
		wk.ends = append(wk.ends, len(wk.arena))
		wk.orbits = append(wk.orbits, orbit)
		wk.acts = append(wk.acts, int32(act))
		wk.rows = append(wk.rows, int32(row))
		wk.hs = append(wk.hs, h)
		wk.pos = append(wk.pos, c-1)
		pending = true
		if since++; since >= 64 || len(wk.arena)-atBytes >= overBytes {
			since, atBytes = 0, len(wk.arena)
			if x.meter.Over() {
				over = true
				return false
			}
		}
		return true
	}
	visitFlat := func(act int, post []byte) bool {
		resolve()
		if x.sym == nil {
			return keep(post, false, 1, act, true)
		}
		k0 := len(wk.arena)
		wk.arena = append(wk.arena, post...)
		var orbit int32
		var ok bool
		if wk.arena, orbit, ok = x.canonical(wk.arena, k0, wk.offs); !ok {
			gaveUp = true
			return false
		}
		return keep(wk.arena[k0:], true, orbit, act, true)
	}
	visit := func(act int, _ []eval.Value, post eval.State) bool {
		resolve()
		k0 := len(wk.arena)
		var orbit int32
		wk.arena, orbit = x.encode(wr.r, wk.arena, post)
		return keep(wk.arena[k0:], true, orbit, act, false)
	}
	for i := wk.lo; i < wk.hi; i++ {
		key := x.st.Key(int(batch[i]))
		n0, a0, size := len(wk.ends), len(wk.arena), len(wk.seen)
		c = 0
		gaveUp = false
		if !wr.fr.Successors(key, visitFlat) || gaveUp {
			// the Runner expands the state; what Flat noted of it is
			// dropped (its pending successor first goes to the set, as
			// drop expects)
			resolve()
			wk.drop(n0, size)
			wk.arena, c, over = wk.arena[:a0], 0, false
			wr.r.Release()
			pre, err := wr.r.Decode(key)
			if err == nil {
				err = wr.r.Successors(pre, visit)
			}
			if err != nil {
				wk.err = err
				return
			}
		}
		resolve()
		if over {
			wk.err = errOverBudget
			return
		}
		wk.counts[i-wk.lo] = c
		wk.kept[i-wk.lo] = int32(len(wk.ends) - n0)
		wk.total += int64(c)
		wk.dead[i-wk.lo] = false
		if c == 0 && x.m.HasFinal() {
			wr.r.Release()
			pre, err := wr.r.Decode(key)
			var ok bool
			if err == nil {
				ok, err = wr.r.Final(pre)
			}
			if err != nil {
				wk.err = err
				return
			}
			wk.dead[i-wk.lo] = !ok
		}
	}
}

// resetSeen empties the part's set of successors.
func (wk *flatPart) resetSeen() {
	if wk.seen == nil {
		wk.seen = make([]int32, 1<<12)
	}
	clear(wk.seen)
	wk.nseen = 0
}

// drop removes the successors from n0 on, which the part's set got after
// it had size slots, from the lists and from the set. Entries of an
// open-addressing set added after all the others lie on none of the
// others' probe paths, so they are emptied, unless the set grew since:
// then it is built again from the successors before n0.
func (wk *flatPart) drop(n0, size int) {
	if len(wk.seen) == size {
		mask := uint64(len(wk.seen) - 1)
		var at []uint64
		for j := n0; j < len(wk.ends); j++ {
			pos := wk.hs[j] >> 32 & mask
			for wk.seen[pos] != int32(j+1) {
				pos = (pos + 1) & mask
			}
			at = append(at, pos)
		}
		for _, pos := range at {
			wk.seen[pos] = 0
		}
		wk.nseen -= len(at)
	} else {
		clear(wk.seen)
		wk.nseen = 0
		for j := range n0 {
			wk.repeated(wk.keyAt(j), wk.hs[j], j)
		}
	}
	wk.ends, wk.orbits, wk.acts, wk.rows, wk.hs, wk.pos = wk.ends[:n0], wk.orbits[:n0], wk.acts[:n0], wk.rows[:n0], wk.hs[:n0], wk.pos[:n0]
	for sh, l := range wk.shard {
		for len(l) > 0 && int(l[len(l)-1]) >= n0 {
			l = l[:len(l)-1]
		}
		wk.shard[sh] = l
	}
}

// keyAt returns the encoding of the part's successor j.
func (wk *flatPart) keyAt(j int) []byte {
	k0 := 0
	if j > 0 {
		k0 = wk.ends[j-1]
	}
	return wk.arena[k0:wk.ends[j]]
}

// prefetchSeen asks for the slot of the part's set where a lookup of
// hash h starts (repeated).
func (wk *flatPart) prefetchSeen(h uint64) {
	memhint.At(wk.seen, int(h>>32&uint64(len(wk.seen)-1)))
}

// repeated reports whether key, with hash h, is the encoding of a
// successor the part keeps, and adds it to the set as successor j
// (the next the part keeps) when it is not. Siblings in a breadth-first
// level share many successors (two steps of different transactions, taken
// in either order, reach one state), and most of them meet in one part:
// they are recognised here, in memory that stays in the core's cache,
// rather than each kept, looked up in the store and classified. The set
// compares whole encodings, as the store does.
func (wk *flatPart) repeated(key []byte, h uint64, j int) bool {
	if 2*(wk.nseen+1) > len(wk.seen) {
		old := wk.seen
		wk.seen = make([]int32, 2*len(old))
		mask := uint64(len(wk.seen) - 1)
		for _, e := range old {
			if e == 0 {
				continue
			}
			pos := wk.hs[e-1] >> 32 & mask
			for wk.seen[pos] != 0 {
				pos = (pos + 1) & mask
			}
			wk.seen[pos] = e
		}
	}
	mask := uint64(len(wk.seen) - 1)
	for pos := h >> 32 & mask; ; pos = (pos + 1) & mask {
		e := wk.seen[pos]
		if e == 0 {
			wk.seen[pos] = int32(j + 1)
			wk.nseen++
			return false
		}
		if i := int(e - 1); wk.hs[i] == h && bytes.Equal(wk.keyAt(i), key) {
			return true
		}
	}
}

// storeBatch walks the successors of an expanded, looked-up and
// classified batch in batch order and stores the new states, and returns
// them. It stops at a
// deadlock (a violation) or at the state or memory limit, as mergeBatch.
func (x *explorer) storeBatch(fs *flatSet, batch []int32) ([]item, error) {
	fresh := fs.fresh[:0]
	defer func() { fs.fresh = fresh[:0] }()
	i := 0 // the batch index of the next successor
	for k, wk := range fs.parts {
		for s := wk.lo; s < wk.hi; s++ {
			if wk.counts[s-wk.lo] == 0 {
				x.res.Deadlocks++
				if wk.dead[s-wk.lo] {
					return fresh, x.violation(int(batch[s]), "")
				}
			}
			from := batch[s]
			// every successor is a transition; those expandFlat kept
			// (not repeats) are at their places pos among them
			end := i + int(wk.kept[s-wk.lo])
			for c := int32(0); c < wk.counts[s-wk.lo]; c++ {
				if x.full() {
					return fresh, nil
				}
				x.res.Transitions++
				b, j := i, i-fs.base[k] // the next kept successor, in the batch and in the part
				if b == end || wk.pos[j] != c {
					continue // a repeat
				}
				i++
				if wk.rs[j] != -int64(b)-1 {
					continue // a state found before, or earlier in the batch
				}
				key := wk.keyAt(j)
				if len(key) > nodestore.MaxKey {
					return fresh, fmt.Errorf("a state of %s encodes in %d bytes, more than the %d the explorer can store", x.m.A.Name, len(key), nodestore.MaxKey)
				}
				id := x.st.AppendNode(key, from)
				fs.ids[b] = int32(id)
				x.represented += int64(wk.orbits[j])
				// checkFresh checks it on a worker
				fresh = append(fresh, item{id: id, k: k % len(fs.ws)})
			}
		}
	}
	return fresh, nil
}

// classify sets, for part k's successors, their lookup results in its
// own order, and counts its new states, their bytes and its states with
// no successor.
func (x *explorer) classify(fs *flatSet, k int) {
	wk := fs.parts[k]
	// where part k's successors start in each shard's list
	cursor := make([]int, x.st.Shards())
	for sh := range cursor {
		for _, o := range fs.parts[:k] {
			cursor[sh] += len(o.shard[sh])
		}
	}
	wk.rs = grow(wk.rs, len(wk.ends))
	wk.nnew, wk.bytes, wk.anyDead, wk.nzero, wk.orbit = 0, 0, false, 0, 0
	base := fs.base[k]
	for j, h := range wk.hs {
		sh := x.st.ShardOf(h)
		r := fs.shards[sh].res[cursor[sh]]
		cursor[sh]++
		wk.rs[j] = r
		if r == -int64(base+j)-1 {
			wk.nnew++
			wk.orbit += int64(wk.orbits[j])
			wk.bytes += nodestore.RecordSize(len(wk.keyAt(j)))
		}
	}
	for s := range wk.counts[:wk.hi-wk.lo] {
		if wk.counts[s] == 0 {
			wk.nzero++
			wk.anyDead = wk.anyDead || wk.dead[s]
		}
	}
}

// storable reports whether the workers may store a batch's new states in
// parallel: no state of the batch is a deadlock to report, the state
// limit is not reached within the batch, no budget is exhausted, and each
// part's records fit a chunk of the arena. Otherwise storeBatch stores
// them, and stops where a sequential search would.
func (x *explorer) storable(fs *flatSet) bool {
	total := 0
	for _, wk := range fs.parts {
		if wk.anyDead || wk.bytes > 1<<20 || wk.maxKey > nodestore.MaxKey {
			return false
		}
		total += wk.nnew
	}
	limit := x.cfg.MaxStates
	if limit <= 0 || limit > maxStore {
		limit = maxStore
	}
	return x.st.Len()+total < limit && !x.full()
}

// storeParallel stores a batch's new states, part by part on the
// workers, each part's in batch order, with the ids a sequential search
// gives them, and checks them; it returns their ids, first…end-1.
func (x *explorer) storeParallel(fs *flatSet, batch []int32, depth int) (first, end int) {
	first = x.st.Len()
	id := first
	for _, wk := range fs.parts {
		wk.firstID = id
		id += wk.nnew
		wk.region = x.st.Reserve(wk.bytes)
		x.res.Transitions += wk.total
		x.res.Deadlocks += wk.nzero
	}
	x.st.Extend(id)
	x.each(len(fs.ws), len(fs.parts), func(g, k int) {
		wk, fr := fs.parts[k], fs.ws[g].fr
		wk.suspects = wk.suspects[:0]
		next := wk.firstID
		base := fs.base[k]
		j := 0
		for s := wk.lo; s < wk.hi; s++ {
			from := batch[s]
			for c := int32(0); c < wk.kept[s-wk.lo]; c, j = c+1, j+1 {
				if wk.rs[j] != -int64(base+j)-1 {
					continue
				}
				key := wk.keyAt(j)
				x.st.Put(&wk.region, next, key, from)
				fs.ids[base+j] = int32(next)
				if holds, ok := fr.HoldsAfterRow(int(wk.acts[j]), int64(wk.rows[j]), key, x.invs); !holds || !ok {
					wk.suspects = append(wk.suspects, next)
				}
				next++
			}
		}
	})
	x.st.Commit(id)
	for _, wk := range fs.parts {
		x.represented += wk.orbit
	}
	if id > first && depth > x.res.MaxDepth {
		x.res.MaxDepth = depth
	}
	return first, id
}

// suspects checks again, with the Runner, the new states of a batch whose
// conditions Flat did not find to hold, in id order, and records the
// violation of the first violating one.
func (x *explorer) suspects(fs *flatSet) error {
	r := fs.ws[0].r
	for _, wk := range fs.parts {
		for _, id := range wk.suspects {
			r.Release()
			if stop, err := x.recheck(r, id, x.st.Key(id)); stop || err != nil {
				return err
			}
		}
	}
	return nil
}
