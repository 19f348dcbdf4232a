// This file implements permutations of the elements of parameter sorts, as
// the explorer's symmetry reduction uses them: a permutation π of the
// elements of some parameter sorts acts on values (every element e of a
// permuted sort becomes π(e), every map or set over such a sort is re-indexed)
// and on states; the canonical representative of a state under a group of
// permutations is the state whose encoding (Machine.AppendState) is the
// least, bytewise, among the encodings of its images.

package eval

import (
	"bytes"
	"fmt"

	"ladder/ioa/expr"
)

// SymSort names a parameter sort whose elements a Symmetry permutes, and the
// elements it leaves in place (their indices).
type SymSort struct {
	Name  string
	Fixed []int
}

// MaxSymmetry is the largest group a Symmetry may have: canonicalizing a
// state encodes it once per permutation.
const MaxSymmetry = 40320 // 8!

// Symmetry is the group of the permutations of the elements of some
// parameter sorts that fix given elements, compiled for a Machine: the
// product, over the sorts, of the permutations of each sort's free
// elements. It is immutable and safe for concurrent use.
type Symmetry struct {
	m     *Machine
	sorts map[string]int  // permuted sort → its index in a permTab
	moved map[string]bool // the permuted sorts with two free elements or more
	perms []permTab       // the group; perms[0] is the identity
	index map[string]int  // a permutation's images (permTab.key) → its number
	encs  []pencoder      // per state variable; nil when its sort holds no permuted sort
	progs []*byteProg     // per state variable: its byte program, or nil (permute_bytes.go)
	maps  [][][256]byte   // per permutation: the byte maps of the byte programs
	dead  *Dead           // the reduction applied before permuting, or nil
	dleaf []pencoder      // per register of dead: the permuting encoder of its entries
	dkey  []int           // per register of dead: its key sort's index in a permTab, or -1
}

// permTab is one permutation: per permuted sort, the image of each element
// and the inverse.
type permTab struct {
	fwd, inv [][]byte
}

// pencoder appends the encoding of π(v) for a value v of a fixed sort.
type pencoder func(buf []byte, v Value, p *permTab) []byte

// NewSymmetry returns the group of permutations of the elements of the given
// parameter sorts that fix each sort's Fixed elements. Each sort must be a
// parameter sort of the machine's automaton with at most 256 elements, and
// the group at most MaxSymmetry permutations.
func (m *Machine) NewSymmetry(sorts []SymSort) (*Symmetry, error) {
	sy := &Symmetry{m: m, sorts: map[string]int{}, moved: map[string]bool{}}
	var groups [][][]byte // per sort: its permutations (image of each element)
	order := 1
	for _, ss := range sorts {
		if _, dup := sy.sorts[ss.Name]; dup {
			return nil, fmt.Errorf("sort %s given twice", ss.Name)
		}
		var ps *expr.Sort
		for _, s := range m.A.Sorts {
			if s != nil && s.Kind == expr.KParam && s.Name == ss.Name {
				ps = s
			}
		}
		if ps == nil {
			return nil, fmt.Errorf("%s is not a parameter sort of %s", ss.Name, m.A.Name)
		}
		n := m.Inst.Count(ps)
		if n < 1 || n > 256 {
			return nil, fmt.Errorf("%s has %d elements; a symmetric sort has between 1 and 256", ss.Name, n)
		}
		fixed := make([]bool, n)
		for _, i := range ss.Fixed {
			if i < 0 || i >= n {
				return nil, fmt.Errorf("%s#%d is not an element of %s", ss.Name, i, ss.Name)
			}
			fixed[i] = true
		}
		var free []int
		for i := 0; i < n; i++ {
			if !fixed[i] {
				free = append(free, i)
			}
		}
		for k := 2; k <= len(free); k++ {
			order *= k
			if order > MaxSymmetry {
				return nil, fmt.Errorf("the permutations of %s and the sorts before it are more than %d: canonicalizing a state would encode it that many times", ss.Name, MaxSymmetry)
			}
		}
		sy.sorts[ss.Name] = len(groups)
		sy.moved[ss.Name] = len(free) >= 2
		groups = append(groups, permutations(n, free))
	}
	// the product of the groups, identity first
	sy.perms = []permTab{{}}
	for _, g := range groups {
		var next []permTab
		for _, p := range sy.perms {
			for _, f := range g {
				inv := make([]byte, len(f))
				for i, j := range f {
					inv[j] = byte(i)
				}
				next = append(next, permTab{
					fwd: append(append([][]byte(nil), p.fwd...), f),
					inv: append(append([][]byte(nil), p.inv...), inv),
				})
			}
		}
		sy.perms = next
	}
	sy.index = make(map[string]int, len(sy.perms))
	for g := range sy.perms {
		sy.index[string(sy.perms[g].key(nil, nil))] = g
	}
	for i := range m.vars {
		s := m.vars[i].v.Sort
		if sy.touches(s) {
			sy.encs = append(sy.encs, sy.pencoder(s))
			sy.progs = append(sy.progs, sy.newByteProg(s))
		} else {
			sy.encs = append(sy.encs, nil)
			sy.progs = append(sy.progs, nil)
		}
	}
	sy.maps = sy.byteMaps()
	return sy, nil
}

// permutations returns every permutation of 0..n-1 that fixes the elements
// not in free, the identity first, in lexicographic order of the images
// of free.
func permutations(n int, free []int) [][]byte {
	id := make([]byte, n)
	for i := range id {
		id[i] = byte(i)
	}
	var out [][]byte
	img := append([]int(nil), free...)
	for {
		p := append([]byte(nil), id...)
		for k, i := range free {
			p[i] = byte(img[k])
		}
		out = append(out, p)
		// next permutation of img in lexicographic order
		k := len(img) - 2
		for k >= 0 && img[k] >= img[k+1] {
			k--
		}
		if k < 0 {
			return out
		}
		l := len(img) - 1
		for img[l] <= img[k] {
			l--
		}
		img[k], img[l] = img[l], img[k]
		for i, j := k+1, len(img)-1; i < j; i, j = i+1, j-1 {
			img[i], img[j] = img[j], img[i]
		}
	}
}

// key appends the images of every element under p, sort after sort, or,
// with then set, under p∘then (then applied first).
func (p *permTab) key(buf []byte, then *permTab) []byte {
	for k, f := range p.fwd {
		if then == nil {
			buf = append(buf, f...)
			continue
		}
		for _, e := range then.fwd[k] {
			buf = append(buf, f[e])
		}
	}
	return buf
}

// Compose returns the number of π_g∘π_h, the permutation that applies π_h
// and then π_g: π_{Compose(g, h)}(s) = π_g(π_h(s)).
func (sy *Symmetry) Compose(g, h int) int {
	var arr [64]byte
	return sy.index[string(sy.perms[g].key(arr[:0], &sy.perms[h]))]
}

// Inverse returns the number of the inverse of π_g.
func (sy *Symmetry) Inverse(g int) int {
	var arr [64]byte
	buf := arr[:0]
	for _, inv := range sy.perms[g].inv {
		buf = append(buf, inv...)
	}
	return sy.index[string(buf)]
}

// WithDead returns the group acting on states reduced by d (of the same
// machine): AppendCanonical then gives the least reduced encoding (Dead)
// of the images of a state, so that two states have one canonical
// encoding when a permutation maps one to a state that differs from the
// other only in dead entries. A dead entry is encoded as the default value
// in every image: its control value, not a permuted value, decides it.
// AppendCanonical, AppendLeast and AppendPermuted of the group returned
// give reduced encodings; Permute, PermuteVar and AppendPermutedVar do not
// reduce.
func (sy *Symmetry) WithDead(d *Dead) *Symmetry {
	c := *sy
	c.dead = d
	c.dleaf = make([]pencoder, len(d.regs))
	c.dkey = make([]int, len(d.regs))
	for j, g := range d.regs {
		c.dleaf[j] = sy.pencoder(sy.m.vars[g.v].v.Sort.Elem)
		c.dkey[j] = -1
		if k, ok := sy.sorts[sy.m.vars[g.v].v.Sort.Key.Name]; ok {
			c.dkey[j] = k
		}
	}
	return &c
}

// appendDeadVar appends the reduced encoding of register j of π(s).
func (sy *Symmetry) appendDeadVar(buf []byte, s State, j int, p *permTab) []byte {
	g := &sy.dead.regs[j]
	x := s[g.v]
	leaf := sy.dleaf[j]
	if k := sy.dkey[j]; k >= 0 {
		for _, t := range p.inv[k][:len(x.vs)] {
			if g.isDead(s, int(t)) {
				buf = append(buf, g.zero...)
			} else {
				buf = leaf(buf, x.vs[t], p)
			}
		}
		return buf
	}
	for t, e := range x.vs {
		if g.isDead(s, t) {
			buf = append(buf, g.zero...)
		} else {
			buf = leaf(buf, e, p)
		}
	}
	return buf
}

// Order returns the number of permutations in the group.
func (sy *Symmetry) Order() int { return len(sy.perms) }

// touches reports whether values of s can hold an element of a permuted
// sort (as a value, or as a key of a map or set) that some permutation
// moves: every permutation leaves the other values in place.
func (sy *Symmetry) touches(s *expr.Sort) bool {
	switch s.Kind {
	case expr.KParam:
		return sy.moved[s.Name]
	case expr.KRecord:
		for _, f := range s.Fields {
			if sy.touches(f.Sort) {
				return true
			}
		}
	case expr.KMap:
		return sy.touches(s.Key) || sy.touches(s.Elem)
	case expr.KSet, expr.KSeq, expr.KOption:
		return sy.touches(s.Elem)
	}
	return false
}

// pencoder returns the permuting encoder of sort s: for every π, the
// encoding of π(v) exactly as Machine.encoder(s) encodes it.
func (sy *Symmetry) pencoder(s *expr.Sort) pencoder {
	m := sy.m
	if !sy.touches(s) {
		enc := m.encoder(s)
		return func(buf []byte, v Value, _ *permTab) []byte { return enc(buf, v) }
	}
	switch s.Kind {
	case expr.KParam: // a permuted sort, of at most 256 elements: one byte
		k := sy.sorts[s.Name]
		return func(buf []byte, v Value, p *permTab) []byte { return append(buf, p.fwd[k][v.n]) }
	case expr.KOption:
		if m.ByteOption(s) {
			k := sy.sorts[s.Elem.Name]
			return func(buf []byte, v Value, p *permTab) []byte {
				if v.n == 0 {
					return append(buf, 0)
				}
				return append(buf, p.fwd[k][v.vs[0].n]+1)
			}
		}
		sub := sy.pencoder(s.Elem)
		return func(buf []byte, v Value, p *permTab) []byte {
			if v.n == 0 {
				return append(buf, 0)
			}
			return sub(append(buf, 1), v.vs[0], p)
		}
	case expr.KRecord:
		subs := make([]pencoder, len(s.Fields))
		for i, f := range s.Fields {
			subs[i] = sy.pencoder(f.Sort)
		}
		return func(buf []byte, v Value, p *permTab) []byte {
			for i, e := range subs {
				buf = e(buf, v.vs[i], p)
			}
			return buf
		}
	case expr.KSeq:
		sub := sy.pencoder(s.Elem)
		return func(buf []byte, v Value, p *permTab) []byte {
			buf = appendUvarint(buf, uint64(len(v.vs)))
			for _, x := range v.vs {
				buf = sub(buf, x, p)
			}
			return buf
		}
	case expr.KMap:
		return sy.ptableEncoder(s.Key, sy.pencoder(s.Elem))
	case expr.KSet:
		return sy.ptableEncoder(s.Elem, sy.pencoder(expr.BoolSort))
	}
	panic(fmt.Sprintf("eval: no permuting encoder for sort %s", s))
}

// ptableEncoder returns the permuting encoder of tables over K with leaves
// encoded by leaf: the entry of π(t) at key π(k) is π(t[k]).
func (sy *Symmetry) ptableEncoder(K *expr.Sort, leaf pencoder) pencoder {
	switch K.Kind {
	case expr.KOption:
		sub := sy.ptableEncoder(K.Elem, leaf)
		return func(buf []byte, v Value, p *permTab) []byte { return sub(leaf(buf, v.vs[0], p), v.vs[1], p) }
	case expr.KRecord:
		for i := len(K.Fields) - 1; i >= 0; i-- {
			leaf = sy.ptableEncoder(K.Fields[i].Sort, leaf)
		}
		return leaf
	case expr.KParam:
		if k, ok := sy.sorts[K.Name]; ok {
			return func(buf []byte, v Value, p *permTab) []byte {
				for _, i := range p.inv[k][:len(v.vs)] {
					buf = leaf(buf, v.vs[i], p)
				}
				return buf
			}
		}
	}
	return func(buf []byte, v Value, p *permTab) []byte {
		for _, x := range v.vs {
			buf = leaf(buf, x, p)
		}
		return buf
	}
}

func appendUvarint(buf []byte, x uint64) []byte {
	for x >= 0x80 {
		buf = append(buf, byte(x)|0x80)
		x >>= 7
	}
	return append(buf, byte(x))
}

// AppendPermuted appends the encoding (Machine.AppendState) of π_g(s), the
// image of s under the group's permutation number g (0 is the identity);
// for a group WithDead, its reduced encoding.
func (sy *Symmetry) AppendPermuted(buf []byte, s State, g int) []byte {
	p := &sy.perms[g]
	for i, e := range sy.encs {
		if sy.dead != nil && sy.dead.byVar[i] >= 0 {
			// a reduced group (WithDead): dead entries as the default
			if e == nil {
				buf = sy.dead.AppendVar(buf, s, i)
			} else {
				buf = sy.appendDeadVar(buf, s, sy.dead.byVar[i], p)
			}
			continue
		}
		if e == nil {
			buf = sy.m.vars[i].enc(buf, s[i])
		} else {
			buf = e(buf, s[i], p)
		}
	}
	return buf
}

// AppendPermutedVar appends the encoding of the state variable number i
// of π_g(s): the bytes AppendPermuted gives that variable.
func (sy *Symmetry) AppendPermutedVar(buf []byte, s State, g, i int) []byte {
	if e := sy.encs[i]; e != nil {
		return e(buf, s[i], &sy.perms[g])
	}
	return sy.m.vars[i].enc(buf, s[i])
}

// AppendPermutedVarBytes is AppendPermutedVar from the variable's own
// encoding enc (its bytes in Machine.AppendState) rather than its value:
// it rearranges the bytes with the variable's byte program
// (permute_bytes.go). It reports false, with buf as it was, when it
// cannot: the variable has no byte program, a byte program cannot
// rearrange this encoding, or the group is reduced WithDead.
func (sy *Symmetry) AppendPermutedVarBytes(buf, enc []byte, g, i int) ([]byte, bool) {
	if sy.dead != nil {
		return buf, false
	}
	if sy.encs[i] == nil {
		return append(buf, enc...), true
	}
	bp := sy.progs[i]
	if bp == nil {
		return buf, false
	}
	n := len(buf)
	out, ok := bp.appendImage(buf, enc, g, sy.maps[g])
	if !ok {
		return out[:n], false
	}
	return out, true
}

// PermuteVar returns the state variable number i of π_g(s).
func (sy *Symmetry) PermuteVar(s State, g, i int) Value {
	return sy.permValue(sy.m.vars[i].v.Sort, s[i], &sy.perms[g])
}

// AppendCanonical appends the least encoding, bytewise, of the images of s
// under the group: two states have the same canonical encoding exactly when
// a permutation of the group maps one to the other. It also returns the
// number of permutations that give that encoding (the order of the
// stabilizer of the representative, so that the orbit of s has Order()/n
// states).
func (sy *Symmetry) AppendCanonical(buf []byte, s State) ([]byte, int) {
	return sy.appendLeast(buf, s, nil)
}

// AppendLeast is AppendCanonical; it also returns the permutations that
// give the least encoding, in increasing order, in ties (reusing its
// memory).
func (sy *Symmetry) AppendLeast(buf []byte, s State, ties []int) ([]byte, []int) {
	ties = append(ties[:0], 0)
	buf, _ = sy.appendLeast(buf, s, &ties)
	return buf, ties
}

// appendLeast appends the least encoding of the images of s and returns
// how many permutations give it; when ties is not nil, it holds them on
// return (it must hold [0] on entry).
//
// Encoding an image stops at the first variable where it is already larger
// than the best so far; the variables whose sorts hold no permuted sort are
// encoded once and copied, and those with a byte program (permute_bytes.go)
// are rearranged from their own encoding. Every variable's encoding has the
// same length in every image (a permuted sort has at most 256 elements,
// each encoded in one byte, and permutations change no length or shape), so
// the images are compared variable by variable at the same offsets.
func (sy *Symmetry) appendLeast(buf []byte, s State, ties *[]int) ([]byte, int) {
	start := len(buf)
	var offs0 [33]int
	offs := offs0[:0]
	for i := range sy.m.vars {
		offs = append(offs, len(buf)-start)
		if sy.dead != nil {
			buf = sy.dead.AppendVar(buf, s, i)
		} else {
			buf = sy.m.vars[i].enc(buf, s[i])
		}
	}
	offs = append(offs, len(buf)-start)
	buf, n, _ := sy.least(buf, start, s, offs, ties)
	return buf, n
}

// OffsEncoder encodes states as AppendState does (or, with a Dead, as
// Dead.AppendState), setting offs[i], for each state variable i, to the
// offset of the variable's encoding in the bytes it appends, and offs[n]
// to their length: fast.Runner.EncodeOffs, which copies the encodings of
// the variables a state shares with the state it last decoded.
type OffsEncoder interface {
	EncodeOffs(buf []byte, s State, d *Dead, offs []int) []byte
}

// EncodeCanonical appends the canonical encoding of s, as AppendCanonical,
// encoding s itself with r (the variables s shares with the state a
// fast.Runner last decoded are copied, so that state must have been
// decoded from its own encoding, reduced for a group WithDead), and
// returns the number of permutations that give it.
func (sy *Symmetry) EncodeCanonical(r OffsEncoder, buf []byte, s State) ([]byte, int) {
	return sy.encodeLeast(r, buf, s, nil)
}

// encodeLeast is EncodeCanonical, which also sets ties as least does.
func (sy *Symmetry) encodeLeast(r OffsEncoder, buf []byte, s State, ties *[]int) ([]byte, int) {
	var offs0 [33]int
	offs := sy.varOffsets(offs0[:])
	start := len(buf)
	buf = r.EncodeOffs(buf, s, sy.dead, offs)
	buf, n, _ := sy.least(buf, start, s, offs, ties)
	return buf, n
}

// varOffsets returns room for the offsets of the state variables'
// encodings and their end (len(vars)+1 entries): small, when it is long
// enough.
func (sy *Symmetry) varOffsets(small []int) []int {
	n := len(sy.m.vars) + 1
	if n <= len(small) {
		return small[:n]
	}
	return make([]int, n)
}

// EncodeLeast is EncodeCanonical that also returns the permutations that
// give the least encoding, as AppendLeast (reusing the memory of ties).
func (sy *Symmetry) EncodeLeast(r OffsEncoder, buf []byte, s State, ties []int) ([]byte, []int) {
	ties = append(ties[:0], 0)
	buf, _ = sy.encodeLeast(r, buf, s, &ties)
	return buf, ties
}

// EncodePermuted appends the encoding of π_g(s), as AppendPermuted,
// encoding s with r as EncodeCanonical does and rearranging the encoding
// of each variable that has a byte program (permute_bytes.go) rather than
// encoding its permuted value.
func (sy *Symmetry) EncodePermuted(r OffsEncoder, buf []byte, s State, g int) []byte {
	var offs0 [33]int
	offs := sy.varOffsets(offs0[:])
	if g == 0 {
		return r.EncodeOffs(buf, s, sy.dead, offs)
	}
	if sy.dead != nil {
		return sy.AppendPermuted(buf, s, g)
	}
	start := len(buf)
	buf = r.EncodeOffs(buf, s, nil, offs)
	img := len(buf)
	for i := range sy.encs {
		var ok bool
		if buf, ok = sy.AppendPermutedVarBytes(buf, buf[start+offs[i]:start+offs[i+1]], g, i); !ok {
			buf = sy.AppendPermutedVar(buf, s, g, i)
		}
	}
	n := copy(buf[start:], buf[img:])
	return buf[:start+n]
}

// BytesOnly reports whether LeastEncoded can canonicalize the group's
// encodings from their bytes alone: every variable whose sort holds a
// permuted sort has a byte program, and no dead-register reduction.
func (sy *Symmetry) BytesOnly() bool {
	if sy.dead != nil {
		return false
	}
	for i, e := range sy.encs {
		if e != nil && sy.progs[i] == nil {
			return false
		}
	}
	return true
}

// LeastEncoded replaces the encoding of a state in buf[start:] (variable
// i at offset offs[i], offs[n] its length) by the least encoding of its
// images, as AppendCanonical, working on the bytes alone (the explorer's
// Flat search has no Values), and returns the number of permutations that
// give it. ok is false, and buf unspecified past start, when an image
// needs the state's values (a byte program cannot rearrange an integer
// of several bytes): the caller then decodes the state and calls
// EncodeCanonical. BytesOnly must hold.
func (sy *Symmetry) LeastEncoded(buf []byte, start int, offs []int) (_ []byte, n int, ok bool) {
	return sy.least(buf, start, nil, offs, nil)
}

// least replaces the encoding of s in buf[start:] (variable i at offset
// offs[i]) by the least encoding of the images of s, as appendLeast. With
// s nil it uses the byte programs alone, and reports false when one of
// them cannot rearrange a variable (LeastEncoded).
func (sy *Symmetry) least(buf []byte, start int, s State, offs []int, ties *[]int) ([]byte, int, bool) {
	size := len(buf) - start
	// buf[start:start+size] is the encoding of s, which the byte programs
	// read; buf[best:best+size] is the least image so far (s itself, or
	// the image kept right after it), and candidates follow.
	best := start
	n := 1
perms:
	for g := 1; g < len(sy.perms); g++ {
		p := &sy.perms[g]
		cand := len(buf)
		less := false
		for i, e := range sy.encs {
			if e == nil {
				buf = append(buf, buf[start+offs[i]:start+offs[i+1]]...)
				continue
			}
			at := len(buf)
			switch bp := sy.progs[i]; {
			case s == nil && (bp == nil || sy.dead != nil):
				return buf[:start], 0, false
			case sy.dead != nil && sy.dead.byVar[i] >= 0:
				buf = sy.appendDeadVar(buf, s, sy.dead.byVar[i], p)
			case bp != nil:
				var ok bool
				if buf, ok = bp.appendImage(buf, buf[start+offs[i]:start+offs[i+1]], g, sy.maps[g]); !ok {
					if s == nil {
						return buf[:start], 0, false
					}
					buf = e(buf, s[i], p)
				}
			default:
				buf = e(buf, s[i], p)
			}
			if less {
				continue
			}
			switch c := bytes.Compare(buf[at:], buf[best+offs[i]:best+offs[i+1]]); {
			case c < 0:
				less = true
			case c > 0:
				buf = buf[:cand]
				continue perms
			}
		}
		if less {
			if best == start {
				best = cand // keep it after s
			} else {
				copy(buf[best:], buf[cand:])
				buf = buf[:cand]
			}
			n = 1
			if ties != nil {
				*ties = append((*ties)[:0], g)
			}
		} else {
			n++
			buf = buf[:cand]
			if ties != nil {
				*ties = append(*ties, g)
			}
		}
	}
	if best != start {
		copy(buf[start:], buf[best:best+size])
	}
	return buf[:start+size], n, true
}

// Permute returns π_g(s), the image of s under the group's permutation
// number g (0 is the identity), as a new state.
func (sy *Symmetry) Permute(s State, g int) State {
	p := &sy.perms[g]
	out := make(State, len(s))
	for i := range s {
		out[i] = sy.permValue(sy.m.vars[i].v.Sort, s[i], p)
	}
	return out
}

// permValue returns π(v) for a value v of sort s.
func (sy *Symmetry) permValue(s *expr.Sort, v Value, p *permTab) Value {
	if !sy.touches(s) {
		return v
	}
	switch s.Kind {
	case expr.KParam:
		return Elem(int(p.fwd[sy.sorts[s.Name]][v.n]))
	case expr.KOption:
		if v.n == 0 {
			return None()
		}
		return Some(sy.permValue(s.Elem, v.vs[0], p))
	case expr.KRecord:
		vs := make([]Value, len(v.vs))
		for i, f := range s.Fields {
			vs[i] = sy.permValue(f.Sort, v.vs[i], p)
		}
		return Value{vs: vs}
	case expr.KSeq:
		if len(v.vs) == 0 {
			return v
		}
		vs := make([]Value, len(v.vs))
		for i, x := range v.vs {
			vs[i] = sy.permValue(s.Elem, x, p)
		}
		return Value{vs: vs}
	case expr.KMap:
		return sy.permTable(s.Key, v, p, func(x Value) Value { return sy.permValue(s.Elem, x, p) })
	case expr.KSet:
		return sy.permTable(s.Elem, v, p, func(x Value) Value { return x })
	}
	return v
}

// permTable returns the table π(t) over K, whose leaves leaf maps.
func (sy *Symmetry) permTable(K *expr.Sort, t Value, p *permTab, leaf func(Value) Value) Value {
	switch K.Kind {
	case expr.KOption:
		return Value{vs: []Value{leaf(t.vs[0]), sy.permTable(K.Elem, t.vs[1], p, leaf)}}
	case expr.KRecord:
		return sy.permFields(K.Fields, t, p, leaf)
	}
	vs := make([]Value, len(t.vs))
	if k, ok := sy.sorts[K.Name]; ok && K.Kind == expr.KParam {
		for j := range vs {
			vs[j] = leaf(t.vs[p.inv[k][j]])
		}
		return Value{vs: vs}
	}
	for j := range vs {
		vs[j] = leaf(t.vs[j])
	}
	return Value{vs: vs}
}

func (sy *Symmetry) permFields(fs []expr.Field, t Value, p *permTab, leaf func(Value) Value) Value {
	if len(fs) == 0 {
		return leaf(t)
	}
	return sy.permTable(fs[0].Sort, t, p, func(x Value) Value { return sy.permFields(fs[1:], x, p, leaf) })
}
