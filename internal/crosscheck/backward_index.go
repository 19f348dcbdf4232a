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
	"ladder/ioa/expr"
)

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
	if fl, err := eval.NewFlat(x.mA); err == nil && (cs.sym == nil || cs.sym.BytesOnly()) {
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
	r := x.mA.NewRunner()
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
