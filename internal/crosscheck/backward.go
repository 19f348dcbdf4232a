// This file implements the cross-check of backward simulations: the
// concrete automaton is explored, totality is checked in every reachable
// state, and every step is checked for each candidate abstract post-state.

package crosscheck

import (
	"fmt"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"ladder/internal/explore"
	"ladder/internal/memhint"
	"ladder/internal/nodestore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// candidates finds the abstract states related to a concrete state: the
// totality witness, and the abstract states (all, or the reachable ones)
// R relates to it, looked up through an index on the relation's conjuncts
// `a.x = e(c)`.
//
// Under symmetry the reachable abstract states are explored up to
// symmetry: enc holds one representative of each orbit, and the entries
// are the orbit's distinct images (an entry e is π_perm[e](enc[rep[e]])),
// so that the index holds every reachable state without storing each.
// The reachable states are closed under the group, since the abstract
// automaton is symmetric (setupSymmetry).
//
// The index narrows the entries to those whose pinned variables agree
// with c. Filters narrow them further without decoding them: a conjunct
// of R that reads a single variable v of a (besides c) has the same value
// for every entry with the same value of v, so it is evaluated once per
// distinct value of v in a lookup, on a scratch state holding that value.
type candidates struct {
	x       *checker
	sym     *eval.Symmetry   // the group of A (reachable mode under symmetry), or nil
	enc     *nodestore.Store // the abstract states, encoded; under symmetry one per orbit
	rep     []int32          // per entry, its state in enc
	perm    []uint16         // per entry, the permutation of its state (under symmetry)
	keyVars []int            // the variables of A the index pins
	keyFns  []*eval.Func     // their values e(c)
	keyOfC  []int            // per key variable, the variable of c that e(c) is, or -1
	comps   []*compPin       // the variables of A the index pins in part
	filters []*varFilter
	seed    maphash.Seed
	// flat lays out A's encodings variable by variable (fast.Flat.Offsets),
	// so that enter permutes a state's variables from its bytes; nil when
	// A has no flat layout
	flat *fast.Flat
	// The index, without pointers (the collector does not trace millions
	// of them) and without a Go map (whose lookups miss the cache several
	// times): the entries in order of the top bits of the hash of their
	// key variables' encodings, each in one word with the low 32 bits of
	// its hash above its number (one cache line holds both); the entries
	// whose hashes' top bits are b are slots[bins[b]:bins[b+1]]. A lookup
	// takes the entries whose hash agrees in both parts, so a collision
	// only adds candidates (every candidate is checked against R). It is
	// nil in the abstract mode witness.
	binShift uint
	bins     []int32
	slots    []uint64
	first    []int32 // per state of enc, its first entry (and the number of entries last)
	// The memo: per node of the concrete search, the entries R relates
	// to the state a step first reached it by, found by that step's
	// lookup (remember), and a permutation g that maps that state to the
	// node's (0 without symmetry); memoN is -1 for a node without one.
	// A later lookup of a state of the node's orbit maps them (memoOf).
	memoOff []int64
	memoN   []int32
	memoG   []uint16
	memoTau []int32 // per node, found.tau
	memoBuf []int32
	// shared is what the workers' lookups found, by node key: the
	// successors of the nodes two workers expand in a batch are often
	// the same new nodes, which the memo holds only after the batch.
	shared relCache
	base   eval.State // an abstract state, the scratch states' template
}

// relCache maps node keys to what a lookup of a state of the node found
// (found, whose slices are not changed once made), for every worker: a
// few maps, each under its own lock, each emptied when it reaches
// maxKept entries.
type relCache struct {
	shards [relShards]relShard
}

// relShards is the number of maps of a relCache.
const relShards = 16

type relShard struct {
	mu sync.Mutex
	m  map[string]found
	_  [48]byte // a shard's lock does not share a cache line with the next
}

// get returns what the cache holds for key, whose hash is h.
func (rc *relCache) get(h uint64, key []byte) (found, bool) {
	sh := &rc.shards[h%relShards]
	sh.mu.Lock()
	f, ok := sh.m[string(key)]
	sh.mu.Unlock()
	return f, ok
}

// put records f for key, whose hash is h.
func (rc *relCache) put(h uint64, key []byte, f found) {
	sh := &rc.shards[h%relShards]
	sh.mu.Lock()
	if sh.m == nil || len(sh.m) >= maxKept {
		sh.m = make(map[string]found, maxKept)
	}
	sh.m[string(key)] = f
	sh.mu.Unlock()
}

// compPin is a conjunct `forall t: K. G(c, t) => a.v[t] = E(c, t)` (or
// without G) of R, for a variable v of A of sort Map[K, X] with K a
// parameter sort: the index includes a.v, and a lookup probes the values
// of a.v whose entry at t is E(c, t) where G(c, t) holds and any value of
// X elsewhere.
type compPin struct {
	v     int
	guard *eval.Func // G, or nil
	val   *eval.Func // E
	n     int        // the elements of K
	dom   [][]byte   // the encodings of the values of X
	enc   func([]byte, eval.Value) []byte
}

// maxProbes bounds the keys a lookup probes: the compPins whose open
// entries could need more are left out of the index.
const maxProbes = 1 << 16

// varFilter is the filter on the abstract variable v: the conjuncts of R
// whose only variable of a is v, and per entry, the number of its value
// of v among the distinct values vals.
type varFilter struct {
	v     int
	conds []*eval.Func
	ids   []int32
	vals  []eval.Value
	num   map[string]int32 // the encoding of a value → its number
}

// newCandidates enumerates the abstract states (AbstractAll) or explores
// A (AbstractReachable), and builds the index.
func (x *checker) newCandidates() (*candidates, error) {
	if x.cands != nil { // a copy of the checker (search.go) shares them
		return x.cands, nil
	}
	cs := &candidates{x: x, seed: maphash.MakeSeed()}
	x.cands = cs
	a := x.p.Abstract
	// All the states of the instance up to DefaultMaxAbstractStates, or
	// the reachable ones with no limit but the budget the meter checks.
	mode, limit := x.cfg.Abstract, x.cfg.maxAbstract()
	reachLimit := x.cfg.MaxAbstractStates
	if reachLimit <= 0 {
		reachLimit = nodestore.MaxNodes
	}
	card, finite := x.instA.Card(a.StateSort)
	if mode == AbstractAuto {
		mode = AbstractReachable
		if finite && card <= int64(limit) {
			mode = AbstractAll
		}
	}
	switch mode {
	case AbstractWitness:
		x.res.Notes = append(x.res.Notes, "each step was checked from the totality witness τ(cpost) only (abstract mode witness): other abstract post-states that R relates to cpost were not tried")
		return cs, nil
	case AbstractAll:
		if !finite || card > int64(limit) {
			return nil, fmt.Errorf("%s has more than %d states in the instance: use the abstract mode reachable or witness", a.Name, limit)
		}
		inst := *x.instA
		inst.MaxEnum = max(inst.MaxEnum, int(card))
		vals, err := inst.Values(a.StateSort)
		if err != nil {
			return nil, fmt.Errorf("enumerating the states of %s: %v", a.Name, err)
		}
		var buf []byte
		cs.enc = nodestore.New()
		for _, v := range vals {
			buf = x.mA.AppendState(buf[:0], eval.StateOf(v))
			cs.enc.Insert(buf, cs.enc.Hash(buf), -1)
		}
		x.res.AbstractStates = cs.enc.Len()
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("each step was checked from τ(cpost) and from every state of %s in the instance (%d, reachable or not) that R relates to cpost", a.Name, cs.enc.Len()))
	default:
		if x.sym != nil {
			cs.sym = x.sym.gA
		}
		prog := x.reporter(a.Name + ", the candidates")
		states, complete, err := reachable(x.mA, cs.sym, reachLimit, x.meter, prog)
		if err != nil {
			return nil, fmt.Errorf("exploring %s: %v", a.Name, err)
		}
		cs.enc = states
		unit := "states"
		if cs.sym != nil {
			unit = "orbits"
		}
		if x.meter.Reached() {
			// the budget ran out: the search stops at once, INCOMPLETE
			x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s was explored only up to %d %s when the budget ran out", a.Name, states.Len(), unit))
		} else if !complete {
			x.absLimit = fmt.Sprintf("abstract state limit %d (the candidate abstract post-states)", reachLimit)
			x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s was explored only up to %d %s: abstract post-states beyond them were not tried", a.Name, states.Len(), unit))
		}
	}
	if err := cs.build(); err != nil {
		return nil, err
	}
	if mode != AbstractAll {
		n := fmt.Sprint(len(cs.rep))
		if cs.sym != nil {
			n = fmt.Sprintf("%d, in %d orbits", len(cs.rep), cs.enc.Len())
		}
		x.res.AbstractStates = len(cs.rep)
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("each step was checked from τ(cpost) and from every reachable state of %s (%s) that R relates to cpost; related abstract states that %s cannot reach in this instance were not tried", a.Name, n, a.Name))
	}
	return cs, nil
}

// build finds the index's key variables and the filters, and enters every
// state (under symmetry, every distinct image of each representative).
func (cs *candidates) build() error {
	x := cs.x
	pinned := map[int]bool{}
	byVar := map[int]*varFilter{}
	type cond struct {
		v    int
		conj expr.Expr
	}
	var conds []cond // the conjuncts that read one variable of a, in order
	compOf := map[int]bool{}
	for _, cl := range x.p.Relation {
		for _, conj := range splitAnd(cl.Body, nil) {
			cp, err := x.compPin(conj)
			if err != nil {
				return err
			}
			if cp != nil && !compOf[cp.v] {
				compOf[cp.v] = true
				cs.comps = append(cs.comps, cp)
			}
			if v, e := x.pinned(conj); v >= 0 {
				if pinned[v] {
					continue
				}
				f, err := x.compile(e)
				if err != nil {
					return err
				}
				pinned[v] = true
				cs.keyVars = append(cs.keyVars, v)
				cs.keyFns = append(cs.keyFns, f)
				cs.keyOfC = append(cs.keyOfC, x.concreteVar(e))
				continue
			}
			if vs, ok := x.footprint(conj); ok && len(vs) == 1 {
				conds = append(conds, cond{vs[0], conj})
			}
		}
	}
	cs.comps = slices.DeleteFunc(cs.comps, func(cp *compPin) bool { return pinned[cp.v] })
	// at most maxProbes keys when every entry is open
	probes := 1
	cs.comps = slices.DeleteFunc(cs.comps, func(cp *compPin) bool {
		n := probes
		for range cp.n {
			if n *= len(cp.dom); n > maxProbes {
				return true
			}
		}
		probes = n
		return false
	})
	for _, cd := range conds {
		v := cd.v
		if pinned[v] {
			continue // the index decides it already
		}
		f, err := x.compile(cd.conj)
		if err != nil {
			return err
		}
		if byVar[v] == nil {
			byVar[v] = &varFilter{v: v, num: map[string]int32{}}
			cs.filters = append(cs.filters, byVar[v])
		}
		byVar[v].conds = append(byVar[v].conds, f)
	}
	if fl, err := fast.NewFlat(x.mA); err == nil && (cs.sym == nil || cs.sym.BytesOnly()) {
		cs.flat = fl
	}
	// The states are entered in parts, one per core, each on its own
	// goroutine, and joined in order; the values of each filter are
	// numbered per part and then renumbered in order of first appearance,
	// as one pass over the states would number them.
	n := cs.enc.Len()
	parts := make([]indexPart, max(1, min(runtime.GOMAXPROCS(0), n/4096)))
	var done atomic.Int64
	var wg sync.WaitGroup
	for k := range parts {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			parts[k].err = cs.enter(&parts[k], n*k/len(parts), n*(k+1)/len(parts), &done)
		}(k)
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	prog := x.reporter(x.p.Abstract.Name + ", indexing the candidates")
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		prog.Report(int(done.Load()), 0, 0, n-int(done.Load()))
		select {
		case <-finished:
			waiting = false
		case <-tick.C:
		}
	}
	for k := range parts {
		if parts[k].err != nil {
			return parts[k].err
		}
		if parts[k].stopped {
			x.meter.Stop() // the search stops at once, INCOMPLETE
			return nil
		}
	}
	if x.meter.Exceeded(0) != "" {
		return nil // the search stops at once, INCOMPLETE
	}
	total := 0
	for k := range parts {
		total += len(parts[k].rep)
	}
	hashes := make([]uint64, 0, total) // per entry
	cs.rep = slices.Grow(cs.rep, total)
	if cs.sym != nil {
		cs.perm = slices.Grow(cs.perm, total)
	}
	cs.first = slices.Grow(cs.first, n+1)
	for _, f := range cs.filters {
		f.ids = slices.Grow(f.ids, total)
	}
	remap := make([]int32, 0)
	for k := range parts {
		pt := &parts[k]
		for _, f := range pt.first {
			cs.first = append(cs.first, f+int32(len(cs.rep)))
		}
		cs.rep = append(cs.rep, pt.rep...)
		cs.perm = append(cs.perm, pt.perm...)
		hashes = append(hashes, pt.hashes...)
		for j, f := range cs.filters {
			remap = remap[:0]
			for v, key := range pt.keys[j] {
				id, ok := f.num[key]
				if !ok {
					id = int32(len(f.vals))
					f.num[key] = id
					f.vals = append(f.vals, pt.vals[j][v])
				}
				remap = append(remap, id)
			}
			for _, id := range pt.ids[j] {
				f.ids = append(f.ids, remap[id])
			}
		}
		*pt = indexPart{} // its memory can go
	}
	cs.first = append(cs.first, int32(len(cs.rep)))
	if n > 0 {
		a, err := x.mA.DecodeState(cs.enc.Key(0))
		if err != nil {
			return err
		}
		cs.base = a
	}
	cs.fill(hashes)
	return nil
}

// indexPart is what enter computes for some states of enc: their
// entries (the first of each state, relative to the part's), the entries'
// hashes and, per filter, each entry's value number, the values and
// their encodings (keys).
type indexPart struct {
	first   []int32
	rep     []int32
	perm    []uint16
	hashes  []uint64
	ids     [][]int32
	vals    [][]eval.Value
	keys    [][]string
	stopped bool // at the budget, before hi
	err     error
}

// enter computes the entries of the states lo..hi-1 of enc into pt, and
// adds the states it has done to done. It stops early, with no error and
// pt.stopped set, when the budget runs out.
func (cs *candidates) enter(pt *indexPart, lo, hi int, done *atomic.Int64) error {
	x := cs.x
	nf := len(cs.filters)
	pt.ids, pt.vals, pt.keys = make([][]int32, nf), make([][]eval.Value, nf), make([][]string, nf)
	// about one entry per image: as many as the group's permutations
	// (up to 8) per state
	est := hi - lo
	if cs.sym != nil {
		est *= min(cs.sym.Order(), 8)
	}
	pt.first, pt.rep, pt.hashes = make([]int32, 0, hi-lo), make([]int32, 0, est), make([]uint64, 0, est)
	if cs.sym != nil {
		pt.perm = make([]uint16, 0, est)
	}
	for j := range pt.ids {
		pt.ids[j] = make([]int32, 0, est)
	}
	num := make([]map[string]int32, nf)
	for j := range num {
		num[j] = map[string]int32{}
	}
	var buf, img []byte
	perms := []int{0}
	seen := map[string]bool{}
	// the states are decoded into scratch memory, and only when their
	// values are needed: where A has the flat layout, a state's variables
	// and their images are read from its encoding; the values kept (a
	// filter's distinct values) are cloned
	r := fast.NewRunner(x.mA)
	r.SetScratch(true)
	offs := make([]int, len(x.mA.A.Vars)+1)
	var key []byte
	var a eval.State
	state := func() (eval.State, error) {
		if a == nil {
			var err error
			a, err = r.Decode(key)
			return a, err
		}
		return a, nil
	}
	// imageVar appends the encoding of variable v of the image g of the
	// state, from its bytes when they suffice
	imageVar := func(buf []byte, byBytes bool, g, v int) ([]byte, error) {
		if byBytes {
			enc := key[offs[v]:offs[v+1]]
			if cs.sym == nil {
				return append(buf, enc...), nil
			}
			if out, ok := cs.sym.AppendPermutedVarBytes(buf, enc, g, v); ok {
				return out, nil
			}
		}
		a, err := state()
		if err != nil {
			return buf, err
		}
		return cs.appendVar(buf, a, g, v), nil
	}
	for i := lo; i < hi; i++ {
		if (i-lo)%4096 == 0 && i > lo {
			done.Add(4096)
			if x.meter.Over() {
				pt.stopped = true
				return nil
			}
		}
		r.Release()
		key, a = cs.enc.Key(i), nil
		byBytes := cs.flat != nil && cs.flat.Offsets(key, offs)
		if cs.sym != nil {
			perms = perms[:0]
			n, ok := 0, false
			if byBytes {
				buf = append(buf[:0], key...)
				buf, n, ok = cs.sym.LeastEncoded(buf, 0, offs)
			}
			if !ok {
				a, err := state()
				if err != nil {
					return err
				}
				buf, n = cs.sym.AppendCanonical(buf[:0], a)
			}
			if n == 1 {
				// no permutation but the identity fixes a: its images are distinct
				for g := 0; g < cs.sym.Order(); g++ {
					perms = append(perms, g)
				}
			} else {
				a, err := state()
				if err != nil {
					return err
				}
				clear(seen)
				for g := 0; g < cs.sym.Order(); g++ {
					img = cs.sym.AppendPermuted(img[:0], a, g)
					if !seen[string(img)] {
						seen[string(img)] = true
						perms = append(perms, g)
					}
				}
			}
		}
		pt.first = append(pt.first, int32(len(pt.rep)))
		for _, g := range perms {
			pt.rep = append(pt.rep, int32(i))
			if cs.sym != nil {
				pt.perm = append(pt.perm, uint16(g))
			}
			buf = buf[:0]
			var err error
			for _, v := range cs.keyVars {
				if buf, err = imageVar(buf, byBytes, g, v); err != nil {
					return err
				}
			}
			for _, cp := range cs.comps {
				if buf, err = imageVar(buf, byBytes, g, cp.v); err != nil {
					return err
				}
			}
			pt.hashes = append(pt.hashes, maphash.Bytes(cs.seed, buf))
			for j, f := range cs.filters {
				if buf, err = imageVar(buf[:0], byBytes, g, f.v); err != nil {
					return err
				}
				id, ok := num[j][string(buf)]
				if !ok {
					id = int32(len(pt.vals[j]))
					num[j][string(buf)] = id
					pt.keys[j] = append(pt.keys[j], string(buf))
					a, err := state()
					if err != nil {
						return err
					}
					if cs.sym != nil {
						pt.vals[j] = append(pt.vals[j], eval.Clone(cs.sym.PermuteVar(a, g, f.v)))
					} else {
						pt.vals[j] = append(pt.vals[j], eval.Clone(a[f.v]))
					}
				}
				pt.ids[j] = append(pt.ids[j], id)
			}
		}
	}
	done.Add(int64((hi - lo) % 4096))
	return nil
}

// fill lays the entries out by the top bits of their hashes (a counting
// sort), about 8 entries per value of the top bits.
func (cs *candidates) fill(hashes []uint64) {
	bits := 1
	for 8<<bits < len(hashes) {
		bits++
	}
	cs.binShift = uint(64 - bits)
	cs.bins = make([]int32, 1<<bits+1)
	for _, h := range hashes {
		cs.bins[h>>cs.binShift+1]++
	}
	for b := range 1 << bits {
		cs.bins[b+1] += cs.bins[b]
	}
	next := slices.Clone(cs.bins[:1<<bits])
	cs.slots = make([]uint64, len(hashes))
	for e, h := range hashes {
		b := h >> cs.binShift
		cs.slots[next[b]] = slot(h, int32(e))
		next[b]++
	}
}

// slot is the index word of entry e, whose key hashes to h.
func slot(h uint64, e int32) uint64 { return h<<32 | uint64(uint32(e)) }

// appendBucket appends the entries whose key hashes to h.
func (cs *candidates) appendBucket(out []int32, h uint64) []int32 {
	b := h >> cs.binShift
	want := h << 32
	for _, w := range cs.slots[cs.bins[b]:cs.bins[b+1]] {
		if w&^0xffffffff == want {
			out = append(out, int32(uint32(w)))
		}
	}
	return out
}

// appendBuckets appends the entries whose keys hash as one of keys, in
// the order of keys. The index is far larger than the caches: the bins of
// all the keys are asked for first, then their buckets, then the buckets
// are read, so that the cache misses of the keys overlap.
func (cs *candidates) appendBuckets(w *checker, out []int32, keys [][]byte) []int32 {
	hs := w.probeHashes[:0]
	for _, k := range keys {
		h := maphash.Bytes(cs.seed, k)
		hs = append(hs, h)
		memhint.At(cs.bins, int(h>>cs.binShift))
	}
	w.probeHashes = hs
	for _, h := range hs {
		if lo := cs.bins[h>>cs.binShift]; int(lo) < len(cs.slots) {
			memhint.At(cs.slots, int(lo))
		}
	}
	for _, h := range hs {
		out = cs.appendBucket(out, h)
	}
	return out
}

// reporter returns a progress reporter of the check for the given phase.
func (x *checker) reporter(phase string) *explore.Reporter {
	r := explore.NewReporter(x.cfg.Progress, x.meter)
	r.SetPhase(phase)
	if x.cfg.progressEvery > 0 {
		r.SetEvery(x.cfg.progressEvery)
	}
	return r
}

// appendVar appends the encoding of variable v of π_g(a).
func (cs *candidates) appendVar(buf []byte, a eval.State, g, v int) []byte {
	if cs.sym != nil {
		return cs.sym.AppendPermutedVar(buf, a, g, v)
	}
	return cs.x.mA.AppendVar(buf, v, a[v])
}

// stateVar returns the variable of automaton a that e is (`o.x`, o the
// state object of a), or nil.
func stateVar(e expr.Expr, o *expr.Object, a *ioa.Automaton) *ioa.StateVar {
	fs, ok := e.(*expr.FieldSel)
	if !ok {
		return nil
	}
	if id, ok := fs.X.(*expr.Ident); !ok || id.Obj != o {
		return nil
	}
	return a.Var(fs.Name)
}

// concreteVar returns the index of the variable of C that e is (`c.x`), or
// -1.
func (x *checker) concreteVar(e expr.Expr) int {
	if v := stateVar(e, x.p.C, x.p.Concrete); v != nil {
		return v.Obj.Index
	}
	return -1
}

// compPin returns the conjunct conj as a compPin, or nil when it is not
// of that form.
func (x *checker) compPin(conj expr.Expr) (*compPin, error) {
	q, ok := conj.(*expr.Quant)
	if !ok || !q.Forall || len(q.Binders) != 1 || q.Binders[0].Lo != nil {
		return nil, nil
	}
	t := q.Binders[0].Var
	body, guard := q.Body, expr.Expr(nil)
	if b, ok := body.(*expr.Binary); ok && b.Op == expr.OpImplies {
		guard, body = b.X, b.Y
	}
	eq, ok := body.(*expr.Binary)
	if !ok || eq.Op != expr.OpEq || (guard != nil && mentions(guard, x.p.A)) {
		return nil, nil
	}
	for _, pair := range [2][2]expr.Expr{{eq.X, eq.Y}, {eq.Y, eq.X}} {
		ix, ok := pair[0].(*expr.Index)
		if !ok || mentions(pair[1], x.p.A) {
			continue
		}
		if k, ok := ix.Index.(*expr.Ident); !ok || k.Obj != t {
			continue
		}
		v := stateVar(ix.X, x.p.A, x.p.Abstract)
		if v == nil || v.Sort.Kind != expr.KMap || v.Sort.Key.Kind != expr.KParam || !expr.Identical(v.Sort.Key, t.Sort) {
			continue
		}
		n, err := x.instA.Size(v.Sort.Key)
		if err != nil {
			return nil, nil
		}
		vals, err := x.instA.Values(v.Sort.Elem)
		if err != nil || len(vals) > 256 {
			return nil, nil // too many values to probe
		}
		cp := &compPin{v: v.Obj.Index, n: n, enc: x.mA.Encoder(v.Sort.Elem)}
		for _, val := range vals {
			cp.dom = append(cp.dom, cp.enc(nil, val))
		}
		if cp.val, err = x.compile(pair[1], t); err != nil {
			return nil, err
		}
		if guard != nil {
			if cp.guard, err = x.compile(guard, t); err != nil {
				return nil, err
			}
		}
		return cp, nil
	}
	return nil, nil
}

// footprint returns the variables of the abstract state a that e reads,
// and false when e reads a otherwise than by a variable (a definition
// called on a, or a itself).
func (x *checker) footprint(e expr.Expr) ([]int, bool) {
	var vs []int
	ok := true
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.FieldSel:
			if v := stateVar(n, x.p.A, x.p.Abstract); v != nil {
				if !slices.Contains(vs, v.Obj.Index) {
					vs = append(vs, v.Obj.Index)
				}
				return false
			}
		case *expr.Ident:
			if n.Obj == x.p.A {
				ok = false
			}
		case *expr.Call:
			if n.Recv != nil && n.Recv.Obj == x.p.A {
				ok = false
			}
		}
		return ok
	})
	return vs, ok
}

// pinned returns the variable index and the expression e of a conjunct
// `a.x = e` or `e = a.x` where e does not mention a, or -1.
func (x *checker) pinned(conj expr.Expr) (int, expr.Expr) {
	b, ok := conj.(*expr.Binary)
	if !ok || b.Op != expr.OpEq {
		return -1, nil
	}
	for _, pair := range [2][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if v := stateVar(pair[0], x.p.A, x.p.Abstract); v != nil && !mentions(pair[1], x.p.A) {
			return v.Obj.Index, pair[1]
		}
	}
	return -1, nil
}

// mentions reports whether e mentions the state object o.
func mentions(e expr.Expr, o *expr.Object) bool {
	found := false
	expr.Inspect(e, func(n expr.Expr) bool {
		switch n := n.(type) {
		case *expr.Ident:
			if n.Obj == o {
				found = true
			}
		case *expr.Call:
			if n.Recv != nil && n.Recv.Obj == o {
				found = true
			}
		}
		return !found
	})
	return found
}

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

// backward cross-checks a backward simulation.
func (x *checker) backward() error {
	p := x.p
	cs, err := x.newCandidates()
	if err != nil {
		return err
	}
	x.totality = x.plansOf(simulation.ClauseTotality)
	// Every verdict is read before the next point starts, and a failure
	// copies the states it shows (named): the rules may compute in
	// scratch memory that each point reuses.
	x.rules.UseScratch()
	if !x.cfg.evalRelation {
		// the pairs each names (a step's post-state and a candidate)
		x.related = func(c, a eval.State) bool {
			return sameState(c, x.known[0]) && sameState(a, x.known[1]) || cs.relatedToPre(x, c, a)
		}
	}
	return x.searchConcrete(func(id int, root, vouched bool, c eval.State) error {
		// Totality: the verdict is the rules', the explanation this
		// package's. A step that found R(c, τ(c)) true (each) vouches
		// for it.
		var v *simulation.Verdict
		if !vouched {
			var err error
			if v, err = x.firstFailing(map[string]eval.State{"c": c}, nil, x.totality); err != nil {
				return err
			}
		}
		if v != nil {
			tau, err := x.stateOf(x.total, &env{c: c})
			if err != nil {
				return err
			}
			name := v.Plan.Name
			bad, err := x.failedClauses(&env{c: c, a: tau})
			if err != nil {
				return err
			}
			var details []string
			if len(bad) > 0 && bad[0] == name {
				details = x.clauseDetailsIn(bad, &env{c: c, a: tau})
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			x.failure = &Failure{Obligation: v.Plan.ID, Clause: "totality › " + name, Trace: tr,
				Message: fmt.Sprintf("%s(c, τ(c)) is false in the last state c: the totality witness is not related to it", name),
				Details: details, States: []NamedState{named("τ(c)", p.Abstract, tau, "", nil)}}
			return errFailed
		}
		if !root {
			return nil
		}
		return cs.each(x, c, func(a eval.State, i int) error {
			v, err := x.firstFailing(map[string]eval.State{"c": c, "a": a}, nil, x.plansOf(simulation.ClauseStart))
			if err != nil || v == nil {
				return err
			}
			why, err := x.initA.why(a)
			if err != nil {
				return err
			}
			if why == "" {
				why = "(the cross-checker's own evaluation finds it one)"
			}
			tr, _, err := x.traceOf(id)
			if err != nil {
				return err
			}
			name := "τ(c)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to c", i, p.Abstract.Name)
			}
			x.failure = &Failure{Obligation: join(x.group, "start"), Clause: "start", Trace: tr,
				Message: fmt.Sprintf("R(c, a) holds at the start state c but a (%s) is not a start state of %s: %s", name, p.Abstract.Name, why),
				States:  []NamedState{named("a", p.Abstract, a, "", nil)}}
			return errFailed
		})
	}, func(tr *explore.Transition) error {
		cs.nodeStart(x, tr.From)
		return cs.each(x, tr.Post, func(a eval.State, i int) error {
			name := "τ(cpost)"
			if i >= 0 {
				name = fmt.Sprintf("state #%d of %s, related to cpost", i, p.Abstract.Name)
			}
			return x.backwardStep(tr, a, name)
		})
	})
}

// backwardStep checks the concrete step tr against the abstract
// post-state a (described by aName).
func (x *checker) backwardStep(tr *explore.Transition, a eval.State, aName string) error {
	p := x.p
	sc := x.steps[tr.Action]
	if sc == nil {
		return fmt.Errorf("no step correspondence for %s", tr.Action.Name)
	}
	x.res.Checks++
	if x.nodeOf != nil && x.pre.id != tr.From {
		// a worker's step from node tr.From, whose state tr.Pre is
		x.pre = preNode{id: tr.From, s: tr.Pre}
	}
	base := &env{c: tr.Pre, a: a, cpost: tr.Post, params: tr.Params}
	envs := make([]*env, len(sc.cases))
	envFor := func(k int) (*env, error) {
		if envs[k] != nil {
			return envs[k], nil
		}
		e := *base
		e.apre = a
		if pre := sc.cases[k].pre; pre != nil {
			apre, err := x.stateOf(pre, base)
			if err != nil {
				return nil, err
			}
			e.apre = apre
		}
		envs[k] = &e
		return &e, nil
	}
	aState := func() NamedState {
		ns := named("a", p.Abstract, a, "", nil)
		ns.Name = "a = " + aName
		return ns
	}
	k, v, _, err := x.stepVerdict(tr, a)
	if err != nil {
		return err
	}
	if v != nil && v.Plan.Clause == simulation.ClauseCases {
		return x.verdictFailure(tr, sc, v, -1, "no case's guard holds", nil, []NamedState{aState()}, nil)
	}
	if k < 0 {
		return fmt.Errorf("internal error: no case of %s was evaluated", tr.Action.Name)
	}
	x.countCase(tr.Action, k)
	if v == nil {
		return nil
	}
	// The explanation: the case's witness and abstract steps.
	cc := sc.cases[k]
	e, err := envFor(k)
	if err != nil {
		return err
	}
	states := func(r *run) []NamedState {
		out := []NamedState{aState(), named("apre", p.Abstract, e.apre, "a", a)}
		if r != nil {
			out = append(out, x.runStates("apre", r)[1:]...)
		}
		return out
	}
	if v.Plan.Clause == simulation.ClauseRelation {
		bad, err := x.failedClauses(&env{c: tr.Pre, a: e.apre})
		if err != nil {
			return err
		}
		if len(bad) == 0 {
			return x.unexplained(tr, sc, v, k, states(nil), nil)
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("%s(c, apre) is false: the pre-state witness is not related to the concrete pre-state", bad[0]),
			x.clauseDetailsIn(bad, &env{c: tr.Pre, a: e.apre}), states(nil), nil)
	}
	r, err := x.runSteps(cc, e.apre, e)
	if err != nil {
		return err
	}
	switch v.Plan.Clause {
	case simulation.ClausePre:
		j := v.Plan.Index
		if r.fail != j {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("the abstract step %s is not enabled in %s", x.call(r, j), uName("apre", j)),
			whyDisabled(x.mA, cc.steps[j].s.Action, r.us[j], r.args[j]), states(r), x.calls(r))
	case simulation.ClausePost:
		m := len(r.us) - 1
		first, ds := diffs(p.Abstract, fmt.Sprintf("u%d", m), r.us[m], "a", a)
		if first == "" {
			return x.unexplained(tr, sc, v, k, states(r), x.calls(r))
		}
		return x.verdictFailure(tr, sc, v, k,
			fmt.Sprintf("u%d.%s = a.%s is false: the abstract steps from apre do not end in the abstract post-state a", m, first, first),
			ds, states(r), x.calls(r))
	}
	msg, err := x.eventCheck(tr.Action, tr.Params, cc, r)
	if err != nil {
		return err
	}
	if msg == "" {
		msg = "the event arguments of the concrete and abstract steps differ"
	}
	return x.verdictFailure(tr, sc, v, k, msg, nil, states(r), x.calls(r))
}

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
	st := nodestore.New()
	// add stores the state with key k unless it is stored, or the store is
	// full (then it reports false)
	add := func(k []byte, h uint64) bool {
		if st.Len() >= limit {
			return st.Find(k, h) >= 0
		}
		st.Insert(k, h, -1)
		return true
	}
	appendKey := func(buf []byte, s eval.State) []byte {
		if sy != nil {
			buf, _ = sy.AppendCanonical(buf, s)
			return buf
		}
		return m.AppendState(buf, s)
	}
	var buf []byte
	for _, s := range inits {
		buf = appendKey(buf[:0], s)
		if !add(buf, st.Hash(buf)) {
			return st, false, nil
		}
	}
	// Batches of nodes are expanded on one goroutine per core, each
	// computing the keys of the successors of a contiguous part; the keys
	// are then stored in order, so the store does not depend on the cores.
	type part struct {
		keys   []byte
		ends   []int
		hashes []uint64
		err    error
	}
	w := runtime.GOMAXPROCS(0)
	parts := make([]part, w)
	runners := make([]*fast.Runner, w)
	for k := range runners {
		runners[k] = fast.NewRunner(m)
		runners[k].SetScratch(true)
	}
	var fl *fast.Flat
	var flats []*fast.FlatRunner
	var offs [][]int
	if useFlat && (sy == nil || sy.BytesOnly()) {
		if f, err := fast.NewFlat(m); err == nil {
			fl = f
			for range w {
				flats = append(flats, fl.NewRunner())
				offs = append(offs, make([]int, len(m.A.Vars)+1))
			}
		}
	}
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
		np := max(1, min(w, (hi-lo)/64))
		var wg sync.WaitGroup
		for k := 0; k < np; k++ {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				pt, r := &parts[k], runners[k]
				pt.keys, pt.ends, pt.hashes, pt.err = pt.keys[:0], pt.ends[:0], pt.hashes[:0], nil
				gaveUp := false
				visitFlat := func(_ int, post []byte) bool {
					start := len(pt.keys)
					pt.keys = append(pt.keys, post...)
					if sy != nil {
						var ok bool
						if !fl.Offsets(pt.keys[start:], offs[k]) {
							gaveUp = true
							return false
						}
						if pt.keys, _, ok = sy.LeastEncoded(pt.keys, start, offs[k]); !ok {
							gaveUp = true
							return false
						}
					}
					pt.ends = append(pt.ends, len(pt.keys))
					pt.hashes = append(pt.hashes, st.Hash(pt.keys[start:]))
					return true
				}
				for _, key := range keys[len(keys)*k/np : len(keys)*(k+1)/np] {
					if flats != nil {
						n0, k0 := len(pt.ends), len(pt.keys)
						gaveUp = false
						if flats[k].Successors(key, visitFlat) && !gaveUp {
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
						pt.keys = appendKey(pt.keys, post)
						pt.ends = append(pt.ends, len(pt.keys))
						pt.hashes = append(pt.hashes, st.Hash(pt.keys[start:]))
						return true
					})
					if err != nil {
						pt.err = err
						return
					}
				}
			}(k)
		}
		wg.Wait()
		for k := 0; k < np; k++ {
			pt := &parts[k]
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
				if !add(pt.keys[start:end], pt.hashes[j]) {
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
