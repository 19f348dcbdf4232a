// This file implements Flat's compilation of calls: definitions, whose
// bodies are compiled once, and the built-in functions that keep to the
// flat layout.

package fast

import (
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// def compiles the body of definition o once.
func (c *flatCompiler) def(e expr.Expr, o *expr.Object) (*flatDef, error) {
	if d, ok := c.defs[o]; ok {
		return d, nil
	}
	if c.busy[o] || o.Body == nil || len(o.Params) > 8 {
		return nil, notFlat(e, "definition %s", o.Name)
	}
	c.busy[o] = true
	defer delete(c.busy, o)
	for _, p := range o.Params {
		if p.Sort.Kind == expr.KSeq {
			return nil, notFlat(e, "definition %s with a sequence parameter", o.Name)
		}
		c.bind(p)
	}
	d := &flatDef{}
	var err error
	if c.isScalar(o.Body.Sort()) {
		d.s, err = c.scalar(o.Body)
	} else {
		d.r, err = c.region(o.Body)
	}
	if err != nil {
		return nil, err
	}
	c.defs[o] = d
	return d, nil
}

func (c *flatCompiler) callScalar(e *expr.Call, s *expr.Sort) (sfn, error) {
	call, d, err := c.defCall(e)
	if err != nil {
		return nil, err
	}
	if d != nil {
		if d.s == nil {
			return nil, notFlat(e, "definition %s", e.Fun.Name)
		}
		body := d.s
		return func(f *flatCtx) int64 { call(f); return body(f) }, nil
	}
	switch e.Fun.Name {
	case "len":
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		if e.Args[0].Sort().Kind != expr.KSeq {
			return nil, notFlat(e, "len")
		}
		return func(f *flatCtx) int64 { return int64(x(f)[0]) }, nil
	case "last":
		xs := e.Args[0].Sort()
		size, err := c.seqElem(e, xs)
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		rd := reader(s)
		return func(f *flatCtx) int64 {
			r := x(f)
			if r[0] == 0 {
				return 0
			}
			return rd(r[1+(int(r[0])-1)*size])
		}, nil
	case "isSome", "isNone", "Some", "get", "abs", "even", "odd":
		x, err := c.scalar(e.Args[0])
		if err != nil {
			return nil, err
		}
		switch e.Fun.Name {
		case "isSome":
			return func(f *flatCtx) int64 { return b2i(x(f) != 0) }, nil
		case "isNone":
			return func(f *flatCtx) int64 { return b2i(x(f) == 0) }, nil
		case "Some":
			return func(f *flatCtx) int64 { return x(f) + 1 }, nil
		case "get":
			return func(f *flatCtx) int64 {
				if v := x(f); v != 0 {
					return v - 1
				}
				return 0
			}, nil
		case "abs":
			return func(f *flatCtx) int64 {
				v := x(f)
				if v < 0 {
					v = -v
					if v < 0 {
						f.bad = true
					}
				}
				return v
			}, nil
		case "even":
			return func(f *flatCtx) int64 { return 1 - x(f)&1 }, nil
		}
		return func(f *flatCtx) int64 { return x(f) & 1 }, nil
	case "min", "max":
		x, err := c.scalar(e.Args[0])
		if err != nil {
			return nil, err
		}
		y, err := c.scalar(e.Args[1])
		if err != nil {
			return nil, err
		}
		if e.Fun.Name == "min" {
			return func(f *flatCtx) int64 { return min(x(f), y(f)) }, nil
		}
		return func(f *flatCtx) int64 { return max(x(f), y(f)) }, nil
	}
	return nil, notFlat(e, "function %s", e.Fun.Name)
}

// defCall compiles call e of a definition: the binding of its parameters
// and its body (d); d is nil when e calls a built-in function.
func (c *flatCompiler) defCall(e *expr.Call) (call func(f *flatCtx), d *flatDef, err error) {
	o := e.Fun.Obj
	switch {
	case e.Recv != nil:
		return nil, nil, notFlat(e, "qualified call")
	case o != nil && o.Kind == expr.ObjDef:
		if call, err = c.callDef(e, o); err != nil {
			return nil, nil, err
		}
		return call, c.defs[o], nil
	case o == nil || o.Kind != expr.ObjBuiltin:
		return nil, nil, notFlat(e, "call")
	}
	return nil, nil, nil
}

// callDef compiles the binding of definition o's parameters to the
// arguments of call e: all arguments are evaluated before any is bound.
func (c *flatCompiler) callDef(e *expr.Call, o *expr.Object) (func(f *flatCtx), error) {
	if _, err := c.def(e, o); err != nil {
		return nil, err
	}
	if len(e.Args) != len(o.Params) {
		return nil, notFlat(e, "call of %s", o.Name)
	}
	type arg struct {
		k int
		s sfn
		r rfn
	}
	args := make([]arg, len(e.Args))
	for i, a := range e.Args {
		k, isScalar := c.bind(o.Params[i])
		args[i].k = k
		var err error
		if isScalar {
			args[i].s, err = c.scalar(a)
		} else {
			args[i].r, err = c.region(a)
		}
		if err != nil {
			return nil, err
		}
	}
	return func(f *flatCtx) {
		var sv [8]int64
		var rv [8][]byte
		for i := range args {
			if args[i].s != nil {
				sv[i] = args[i].s(f)
			} else {
				rv[i] = args[i].r(f)
			}
		}
		for i := range args {
			if args[i].s != nil {
				f.slots[args[i].k] = sv[i]
			} else {
				f.regs[args[i].k] = rv[i]
			}
		}
	}, nil
}

func (c *flatCompiler) callRegion(e *expr.Call, s *expr.Sort) (rfn, error) {
	call, d, err := c.defCall(e)
	if err != nil {
		return nil, err
	}
	if d != nil {
		if d.r == nil {
			return nil, notFlat(e, "definition %s", e.Fun.Name)
		}
		body := d.r
		return func(f *flatCtx) []byte { call(f); return body(f) }, nil
	}
	switch e.Fun.Name {
	case "last":
		size, err := c.seqElem(e, e.Args[0].Sort())
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		d, err := c.defaultRegion(e, s)
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			if r[0] == 0 {
				return d
			}
			o := 1 + (int(r[0])-1)*size
			return r[o : o+size]
		}, nil
	case "append":
		size, err := c.seqElem(e, s)
		if err != nil {
			return nil, err
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		put, err := c.put(e.Args[1])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			n := int(r[0])
			if n+1 >= 0x80 {
				f.bad = true
				return r
			}
			out := f.alloc(len(r) + size)
			copy(out, r)
			out[0] = byte(n + 1)
			put(f, out[len(r):])
			return out
		}, nil
	case "const":
		if s.Kind != expr.KMap {
			return nil, notFlat(e, "const of %s", s)
		}
		size, err := c.entry(e, s)
		if err != nil {
			return nil, err
		}
		n := c.m.Inst.Count(s.Key)
		put, err := c.put(e.Args[0])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			out := f.alloc(n * size)
			if n > 0 {
				put(f, out)
				for k := 1; k < n; k++ {
					copy(out[k*size:], out[:size])
				}
			}
			return out
		}, nil
	case "dom":
		xs := e.Args[0].Sort()
		if xs.Kind != expr.KMap || !eval.AtomicKey(xs.Key) || !c.m.ByteOption(xs.Elem) {
			return nil, notFlat(e, "dom of %s", xs)
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			r := x(f)
			out := f.alloc(len(r))
			for k, b := range r {
				out[k] = byte(b2i(b != 0))
			}
			return out
		}, nil
	case "override":
		ps := e.Args[1].Sort()
		if s.Kind != expr.KMap || !eval.AtomicKey(s.Key) || !c.isScalar(s.Elem) || isInt(s.Elem) || ps.Kind != expr.KMap || !c.m.ByteOption(ps.Elem) {
			return nil, notFlat(e, "override of %s", s)
		}
		x, err := c.region(e.Args[0])
		if err != nil {
			return nil, err
		}
		p, err := c.region(e.Args[1])
		if err != nil {
			return nil, err
		}
		return func(f *flatCtx) []byte {
			a, b := x(f), p(f)
			out := f.alloc(len(a))
			for k := range out {
				if b[k] != 0 {
					out[k] = b[k] - 1
				} else {
					out[k] = a[k]
				}
			}
			return out
		}, nil
	}
	return nil, notFlat(e, "function %s", e.Fun.Name)
}
