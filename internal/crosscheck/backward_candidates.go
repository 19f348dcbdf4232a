// This file implements the candidates of a backward cross-check: their
// types, their setup (newCandidates), the buckets of their index, and the
// conjuncts of the relation that pin a variable of the abstract state or
// filter the entries.

package crosscheck

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sync"

	"ladder/internal/explore"
	"ladder/internal/memhint"
	"ladder/internal/nodestore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
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
