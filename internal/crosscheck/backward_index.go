// This file builds the candidates' index: the key variables and filters
// (build), and every reachable abstract state entered in parallel parts
// (enter).

package crosscheck

import (
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
)

// build finds the index's key variables and the filters, and enters every
// state (under symmetry, every distinct image of each representative).
func (cs *candidates) build() error {
	if err := cs.keysAndFilters(); err != nil {
		return err
	}
	if fl, err := fast.NewFlat(cs.x.mA); err == nil && (cs.sym == nil || cs.sym.BytesOnly()) {
		cs.flat = fl
	}
	parts, stopped, err := cs.enterAll()
	if err != nil || stopped {
		return err
	}
	return cs.join(parts)
}

// keysAndFilters finds the index's key variables (a conjunct `a.x = e(c)`
// of R pins x), the components probed (compPin), and the filters (the
// conjuncts that read one other variable of a).
func (cs *candidates) keysAndFilters() error {
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
	return nil
}

// enterAll enters every state of enc in parts, one per core, and
// returns them, or stopped when the budget stopped it (the search then
// stops at once, INCOMPLETE).
func (cs *candidates) enterAll() ([]indexPart, bool, error) {
	x := cs.x
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
			return nil, false, parts[k].err
		}
		if parts[k].stopped {
			x.meter.Stop() // the search stops at once, INCOMPLETE
			return nil, true, nil
		}
	}
	if x.meter.Exceeded(0) != "" {
		return nil, true, nil // the search stops at once, INCOMPLETE
	}
	return parts, false, nil
}

// join joins the parts in order: the entries, their hashes (the index,
// fill) and the filters' values, renumbered in order of first appearance.
func (cs *candidates) join(parts []indexPart) error {
	x := cs.x
	n := cs.enc.Len()
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
	en := &enterer{cs: cs, pt: pt, num: make([]map[string]int32, nf), perms: []int{0}, seen: map[string]bool{},
		r: fast.NewRunner(x.mA), offs: make([]int, len(x.mA.A.Vars)+1)}
	for j := range en.num {
		en.num[j] = map[string]int32{}
	}
	en.r.SetScratch(true)
	for i := lo; i < hi; i++ {
		if (i-lo)%4096 == 0 && i > lo {
			done.Add(4096)
			if x.meter.Over() {
				pt.stopped = true
				return nil
			}
		}
		if err := en.enter(i); err != nil {
			return err
		}
	}
	done.Add(int64((hi - lo) % 4096))
	return nil
}

// enterer enters states of enc into one part of the index (enter).
//
// The states are decoded into the scratch memory of r, and only when
// their values are needed: where A has the flat layout, a state's
// variables and their images are read from its encoding (offs: the
// offsets of its variables); the values kept (a filter's distinct
// values) are cloned.
type enterer struct {
	cs    *candidates
	pt    *indexPart
	num   []map[string]int32 // per filter, the number of each value's encoding
	r     *fast.Runner
	offs  []int
	key   []byte     // the encoding of the state being entered
	a     eval.State // the state decoded, or nil
	perms []int      // the permutations giving its distinct images
	seen  map[string]bool
	buf   []byte
	img   []byte
}

// state returns the state being entered, decoded once.
func (en *enterer) state() (eval.State, error) {
	if en.a == nil {
		var err error
		en.a, err = en.r.Decode(en.key)
		return en.a, err
	}
	return en.a, nil
}

// imageVar appends the encoding of variable v of the image g of the
// state, from its bytes when they suffice.
func (en *enterer) imageVar(buf []byte, byBytes bool, g, v int) ([]byte, error) {
	cs := en.cs
	if byBytes {
		enc := en.key[en.offs[v]:en.offs[v+1]]
		if cs.sym == nil {
			return append(buf, enc...), nil
		}
		if out, ok := cs.sym.AppendPermutedVarBytes(buf, enc, g, v); ok {
			return out, nil
		}
	}
	a, err := en.state()
	if err != nil {
		return buf, err
	}
	return cs.appendVar(buf, a, g, v), nil
}

// images sets perms to the permutations that give the distinct images of
// the state being entered.
func (en *enterer) images(byBytes bool) error {
	sym := en.cs.sym
	en.perms = en.perms[:0]
	n, ok := 0, false
	if byBytes {
		en.buf = append(en.buf[:0], en.key...)
		en.buf, n, ok = sym.LeastEncoded(en.buf, 0, en.offs)
	}
	if !ok {
		a, err := en.state()
		if err != nil {
			return err
		}
		en.buf, n = sym.AppendCanonical(en.buf[:0], a)
	}
	if n == 1 {
		// no permutation but the identity fixes a: its images are distinct
		for g := 0; g < sym.Order(); g++ {
			en.perms = append(en.perms, g)
		}
		return nil
	}
	a, err := en.state()
	if err != nil {
		return err
	}
	clear(en.seen)
	for g := 0; g < sym.Order(); g++ {
		en.img = sym.AppendPermuted(en.img[:0], a, g)
		if !en.seen[string(en.img)] {
			en.seen[string(en.img)] = true
			en.perms = append(en.perms, g)
		}
	}
	return nil
}

// enter enters state i of enc: an entry per distinct image, with its
// hash (of its key variables and probed components) and its filters'
// value numbers.
func (en *enterer) enter(i int) error {
	cs, pt := en.cs, en.pt
	en.r.Release()
	en.key, en.a = cs.enc.Key(i), nil
	byBytes := cs.flat != nil && cs.flat.Offsets(en.key, en.offs)
	if cs.sym != nil {
		if err := en.images(byBytes); err != nil {
			return err
		}
	}
	pt.first = append(pt.first, int32(len(pt.rep)))
	for _, g := range en.perms {
		pt.rep = append(pt.rep, int32(i))
		if cs.sym != nil {
			pt.perm = append(pt.perm, uint16(g))
		}
		buf := en.buf[:0]
		var err error
		for _, v := range cs.keyVars {
			if buf, err = en.imageVar(buf, byBytes, g, v); err != nil {
				return err
			}
		}
		for _, cp := range cs.comps {
			if buf, err = en.imageVar(buf, byBytes, g, cp.v); err != nil {
				return err
			}
		}
		pt.hashes = append(pt.hashes, maphash.Bytes(cs.seed, buf))
		for j, f := range cs.filters {
			if buf, err = en.imageVar(buf[:0], byBytes, g, f.v); err != nil {
				return err
			}
			if err := en.filterValue(j, f, g, buf); err != nil {
				return err
			}
		}
		en.buf = buf
	}
	return nil
}

// filterValue appends to the part the number of the value of filter j's
// variable in image g, whose encoding is key, numbering it if new.
func (en *enterer) filterValue(j int, f *varFilter, g int, key []byte) error {
	cs, pt := en.cs, en.pt
	id, ok := en.num[j][string(key)]
	if !ok {
		id = int32(len(pt.vals[j]))
		en.num[j][string(key)] = id
		pt.keys[j] = append(pt.keys[j], string(key))
		a, err := en.state()
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
	return nil
}
