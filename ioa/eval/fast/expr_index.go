// This file implements Flat's compilation of indexing, update, field
// selection, records and set and sequence literals: offsets into the
// fixed layout of an encoding.

package fast

import (
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// fieldOffset returns the offset of field i in the layout of record sort rs.
func (c *flatCompiler) fieldOffset(e expr.Expr, rs *expr.Sort, i int) (int, error) {
	if rs.Kind != expr.KRecord || rs.State != nil || i < 0 || i >= len(rs.Fields) {
		return 0, notFlat(e, "field of %s", rs)
	}
	off := 0
	for _, f := range rs.Fields[:i] {
		n, err := c.size(e, f.Sort)
		if err != nil {
			return 0, err
		}
		off += n
	}
	return off, nil
}

// entry returns the size of an entry of a table over an atomic sort, or
// of an element of a sequence, of sort s.
func (c *flatCompiler) entry(e expr.Expr, s *expr.Sort) (int, error) {
	switch s.Kind {
	case expr.KMap, expr.KSet:
		K, l := eval.TableSorts(s)
		if !eval.AtomicKey(K) {
			return 0, notFlat(e, "table over %s", K)
		}
		return c.size(e, l)
	case expr.KSeq:
		return c.seqElem(e, s)
	}
	return 0, notFlat(e, "index of %s", s)
}

// index compiles the parts of x[k]: the entry's size, x and k.
func (c *flatCompiler) index(e *expr.Index) (int, rfn, sfn, error) {
	size, err := c.entry(e, e.X.Sort())
	if err != nil {
		return 0, nil, nil, err
	}
	x, err := c.region(e.X)
	if err != nil {
		return 0, nil, nil, err
	}
	k, err := c.scalar(e.Index)
	if err != nil {
		return 0, nil, nil, err
	}
	return size, x, k, nil
}

// varEntry returns, for x[k] with x a state variable that is a table with
// one-byte entries over an atomic key and k a parameter or a bound
// variable, the function that returns the entry's byte: one closure where
// the general path calls three.
func (c *flatCompiler) varEntry(e *expr.Index) func(f *flatCtx) byte {
	id, ok := e.X.(*expr.Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != expr.ObjVar {
		return nil
	}
	v := id.Obj.Index
	if v < 0 || v >= len(c.fl.vars) || c.fl.vars[v].seq {
		return nil
	}
	xs := id.Obj.Sort
	if xs.Kind != expr.KMap && xs.Kind != expr.KSet {
		return nil
	}
	K, leaf := eval.TableSorts(xs)
	if !eval.AtomicKey(K) {
		return nil
	}
	if n, ok := c.fl.fixed(leaf); !ok || n != 1 {
		return nil
	}
	k, ok := e.Index.(*expr.Ident)
	if !ok || k.Obj == nil {
		return nil
	}
	switch k.Obj.Kind {
	case expr.ObjParam:
		p := k.Obj.Index
		return func(f *flatCtx) byte { return f.st[f.offs[v]+int(f.params[p])] }
	case expr.ObjBound:
		slot, ok := c.bound[k.Obj]
		if !ok || !c.isScalar(k.Obj.Sort) {
			return nil
		}
		return func(f *flatCtx) byte { return f.st[f.offs[v]+int(f.slots[slot])] }
	}
	return nil
}

func (c *flatCompiler) indexScalar(e *expr.Index, s *expr.Sort) (sfn, error) {
	if at := c.varEntry(e); at != nil {
		if isInt(s) {
			return func(f *flatCtx) int64 { b := at(f); return int64(b>>1) ^ -int64(b&1) }, nil
		}
		return func(f *flatCtx) int64 { return int64(at(f)) }, nil
	}
	size, x, k, err := c.index(e)
	if err != nil {
		return nil, err
	}
	rd := reader(s)
	if e.X.Sort().Kind == expr.KSeq {
		return func(f *flatCtx) int64 {
			r, i := x(f), k(f)
			if i < 0 || i >= int64(r[0]) {
				return 0 // the default of a scalar sort
			}
			return rd(r[1+int(i)*size])
		}, nil
	}
	return func(f *flatCtx) int64 { return rd(x(f)[int(k(f))*size]) }, nil
}

func (c *flatCompiler) indexRegion(e *expr.Index, s *expr.Sort) (rfn, error) {
	size, x, k, err := c.index(e)
	if err != nil {
		return nil, err
	}
	if e.X.Sort().Kind == expr.KSeq {
		d, err := c.defaultRegion(e, s)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r, i := x(f), k(f)
			if i < 0 || i >= int64(r[0]) {
				return d
			}
			o := 1 + int(i)*size
			return r[o : o+size]
		}, nil
	}
	return func(f *flatCtx) []byte {
		o := int(k(f)) * size
		return x(f)[o : o+size]
	}, nil
}

// defaultRegion returns the encoding of the default value of s.
func (c *flatCompiler) defaultRegion(e expr.Expr, s *expr.Sort) ([]byte, error) {
	d, err := c.m.Inst.Default(s)
	if err != nil {
		return nil, notFlat(e, "default of %s: %v", s, err)
	}
	b := c.m.Encoder(s)(nil, d)
	if !c.inLayout(s, b) {
		return nil, notFlat(e, "default of %s", s)
	}
	return b, nil
}

// update compiles x[i := v] of a table or a sequence.
func (c *flatCompiler) update(e *expr.Update, s *expr.Sort) (rfn, error) {
	size, err := c.entry(e, s)
	if err != nil {
		return nil, err
	}
	x, err := c.region(e.X)
	if err != nil {
		return nil, err
	}
	k, err := c.scalar(e.Index)
	if err != nil {
		return nil, err
	}
	put, err := c.put(e.Value)
	if err != nil {
		return nil, err
	}
	seq := s.Kind == expr.KSeq
	return func(f *flatCtx) []byte {
		r, i := x(f), k(f)
		o := int(i) * size
		if seq {
			if i < 0 || i >= int64(r[0]) {
				return r
			}
			o++
		}
		out := f.alloc(len(r))
		copy(out, r)
		put(f, out[o:])
		return out
	}, nil
}

// setLit compiles {a, b, ...} over an atomic sort.
func (c *flatCompiler) setLit(e *expr.SetLit, s *expr.Sort) (rfn, error) {
	if s.Kind != expr.KSet || !eval.AtomicKey(s.Elem) {
		return nil, notFlat(e, "set literal of %s", s)
	}
	n := c.m.Inst.Count(s.Elem)
	elems := make([]sfn, len(e.Elems))
	for i, x := range e.Elems {
		var err error
		if elems[i], err = c.scalar(x); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(n)
		clear(out)
		for _, x := range elems {
			out[x(f)] = 1
		}
		return out
	}, nil
}

// seqLit compiles [a, b, ...].
func (c *flatCompiler) seqLit(e *expr.SeqLit, s *expr.Sort) (rfn, error) {
	size, err := c.seqElem(e, s)
	if err != nil {
		return nil, err
	}
	if len(e.Elems) >= 0x80 {
		return nil, notFlat(e, "a sequence of %d", len(e.Elems))
	}
	puts := make([]func(*flatCtx, []byte), len(e.Elems))
	for i, x := range e.Elems {
		if puts[i], err = c.put(x); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(1 + len(puts)*size)
		out[0] = byte(len(puts))
		for i, p := range puts {
			p(f, out[1+i*size:])
		}
		return out
	}, nil
}

// record compiles a record literal Name{f: v, ...} (base nil) or an
// update base with {f := v, ...}: base's bytes (zeros for a literal, all
// of whose fields are given), then each field given.
func (c *flatCompiler) record(e expr.Expr, s *expr.Sort, base expr.Expr, fields []*expr.FieldInit) (rfn, error) {
	size, err := c.size(e, s)
	if err != nil {
		return nil, err
	}
	var x rfn
	if base != nil {
		if x, err = c.region(base); err != nil {
			return nil, err
		}
	}
	type field struct {
		off int
		put func(*flatCtx, []byte)
	}
	fs := make([]field, len(fields))
	for i, fi := range fields {
		if fs[i].off, err = c.fieldOffset(e, s, fi.Field); err != nil {
			return nil, err
		}
		if fs[i].put, err = c.put(fi.Value); err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) []byte {
		out := f.alloc(size)
		if x != nil {
			copy(out, x(f))
		}
		for _, fd := range fs {
			fd.put(f, out[fd.off:])
		}
		return out
	}, nil
}
