package eval

import "ladder/ioa/expr"

// This file implements the byte programs of symmetry reduction: for a
// state variable whose encoding has a fixed layout, the encoding of its
// image under a permutation π is a rearrangement of the bytes of its own
// encoding, each byte mapped through π where it encodes an element of a
// permuted sort. appendLeast then computes the images of such a variable
// from the bytes it has just encoded, without walking the value again.
//
// A sort has a fixed layout when every value is encoded in the same
// number of bytes, given that each integer is encoded in one: a byte
// scalar (Bool, an enum, a parameter sort of at most 256 elements), a
// one-byte option of a byte scalar, Int and Nat (a varint: one byte for
// -64..63), a record of fixed layouts, and a map (or a set) over an
// atomic key sort (Bool, an enum, a parameter sort) with values of a fixed
// layout. A sequence of a fixed layout is handled as its length followed
// by its elements. The layout's width counts one byte per integer, so an
// encoding of exactly that width holds no integer outside -64..63: that is
// the run-time test before a program is used (for a sequence, one length
// byte and width bytes per element).

// byteProg is the byte program of one state variable.
type byteProg struct {
	width int     // the encoding's length when every integer takes one byte
	seq   bool    // a sequence: a length byte, then elements of width bytes
	kind  []uint8 // per byte of the layout: 0, or the byte map it goes through
	src   [][]int32
	// src[g][j] is the byte of the variable's encoding (of one element, for
	// a sequence) that byte j of the encoding of its image under π_g comes
	// from, before its byte map.
}

// byteMaps returns, per permutation, the byte maps of kinds 1.. of
// byteProg.kind: for permuted sort k, kind 2k+1 maps an element e to π(e)
// and kind 2k+2 maps the one-byte option encoding (0 for None, e+1 for
// Some(e)).
func (sy *Symmetry) byteMaps() [][][256]byte {
	out := make([][][256]byte, len(sy.perms))
	for g := range sy.perms {
		p := &sy.perms[g]
		maps := make([][256]byte, 1+2*len(p.fwd))
		for b := 0; b < 256; b++ {
			maps[0][b] = byte(b)
		}
		for k, f := range p.fwd {
			elem, opt := &maps[2*k+1], &maps[2*k+2]
			*elem, *opt = maps[0], maps[0]
			for e, img := range f {
				elem[e] = img
				if e+1 < 256 && int(img)+1 < 256 {
					opt[e+1] = img + 1
				}
			}
		}
		out[g] = maps
	}
	return out
}

// newByteProg returns the byte program of a variable of sort s, or nil
// when its layout is not fixed.
func (sy *Symmetry) newByteProg(s *expr.Sort) *byteProg {
	bp := &byteProg{}
	if s.Kind == expr.KSeq {
		bp.seq, s = true, s.Elem
	}
	w, ok := sy.m.FixedWidth(s)
	if !ok || w == 0 || w > 1<<16 {
		return nil
	}
	bp.width = w
	bp.kind = sy.layoutKinds(nil, s)
	bp.src = make([][]int32, len(sy.perms))
	for g := range sy.perms {
		bp.src[g] = sy.layoutSrc(make([]int32, 0, w), s, 0, &sy.perms[g])
	}
	return bp
}

// layoutKinds appends the byte map kind of each byte of the layout of s.
func (sy *Symmetry) layoutKinds(out []uint8, s *expr.Sort) []uint8 {
	m := sy.m
	if s.Kind == expr.KParam {
		if k, ok := sy.sorts[s.Name]; ok {
			return append(out, uint8(2*k+1))
		}
	}
	if s.Kind == expr.KOption && m.ByteScalar(s.Elem) {
		if k, ok := sy.sorts[s.Elem.Name]; ok && s.Elem.Kind == expr.KParam {
			return append(out, uint8(2*k+2))
		}
		return append(out, 0)
	}
	switch s.Kind {
	case expr.KRecord:
		for _, f := range s.Fields {
			out = sy.layoutKinds(out, f.Sort)
		}
		return out
	case expr.KMap, expr.KSet:
		K, X := TableSorts(s)
		for i := m.Inst.Count(K); i > 0; i-- {
			out = sy.layoutKinds(out, X)
		}
		return out
	}
	return append(out, 0)
}

// layoutSrc appends, for each byte of the layout of π(v) for a value v of
// sort s whose encoding starts at byte base, the byte of v's encoding it
// comes from: the entry of π(t) at key i is π(t[π⁻¹(i)]).
func (sy *Symmetry) layoutSrc(out []int32, s *expr.Sort, base int32, p *permTab) []int32 {
	m := sy.m
	switch s.Kind {
	case expr.KRecord:
		for _, f := range s.Fields {
			out = sy.layoutSrc(out, f.Sort, base, p)
			w, _ := sy.m.FixedWidth(f.Sort)
			base += int32(w)
		}
		return out
	case expr.KMap, expr.KSet:
		K, X := TableSorts(s)
		xw, _ := sy.m.FixedWidth(X)
		k, permuted := sy.sorts[K.Name]
		permuted = permuted && K.Kind == expr.KParam
		for i := 0; i < m.Inst.Count(K); i++ {
			j := i
			if permuted {
				j = int(p.inv[k][i])
			}
			out = sy.layoutSrc(out, X, base+int32(j*xw), p)
		}
		return out
	}
	return append(out, base)
}

// appendImage appends the encoding of π_g(v), given the encoding enc of v,
// when it fits the program's layout; it reports false, appending nothing,
// when it does not (an integer outside -64..63, a long sequence).
func (bp *byteProg) appendImage(buf, enc []byte, g int, maps [][256]byte) ([]byte, bool) {
	src, kind := bp.src[g], bp.kind
	if !bp.seq {
		if len(enc) != bp.width {
			return buf, false
		}
		for j, i := range src {
			buf = append(buf, maps[kind[j]][enc[i]])
		}
		return buf, true
	}
	if len(enc) == 0 || enc[0] >= 0x80 || len(enc) != 1+int(enc[0])*bp.width {
		return buf, false
	}
	buf = append(buf, enc[0])
	for base := 1; base < len(enc); base += bp.width {
		el := enc[base : base+bp.width]
		for j, i := range src {
			buf = append(buf, maps[kind[j]][el[i]])
		}
	}
	return buf, true
}
