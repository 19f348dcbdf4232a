// This file implements the compilation of indexing and updates of maps and
// sequences, field selection and record updates, and the record, set and
// sequence literals. Its twins are internal/encode/expr_index.go (the SMT
// encoding) and fast/expr_index.go (the explorer's engine on encodings).

package eval

import (
	"errors"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

func (c *compiler) index(e *expr.Index) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	if lam, ok := e.X.(*expr.Lambda); ok && xs.Kind == expr.KMap && !lam.Set {
		return c.applyLambda(lam, e.Index)
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	i, err := c.expr(e.Index)
	if err != nil {
		return nil, err
	}
	switch xs.Kind {
	case expr.KMap:
		if err := c.inst.checkSizes(xs); err != nil {
			return nil, errorf(e.Pos(), "%v", err)
		}
		K := xs.Key
		if AtomicKey(K) {
			return c.indexAtomic(e, x, i), nil
		}
		return func(f *frame) Value { return tget(K, x(f), i(f)) }, nil
	case expr.KSeq:
		d, err := c.def(e.Pos(), xs.Elem)
		if err != nil {
			return nil, err
		}
		return func(f *frame) Value {
			s, k := x(f), i(f).n
			if k < 0 || k >= int64(len(s.vs)) {
				return d
			}
			return s.vs[k]
		}, nil
	}
	return nil, errorf(e.Pos(), "cannot index a value of sort %s", xs)
}

// applyLambda compiles (lambda x: K. body)[k] as body with x bound to k,
// without building the table: the table's leaf at k is body at x = k, for
// every k of the finite sort K (the lambda is refused, as in c.lambda, when
// K is not one). A substituted refinement mapping gives such terms, e.g.
// (lambda t: T. ...)[t] for pc[t].
func (c *compiler) applyLambda(lam *expr.Lambda, key expr.Expr) (fn, error) {
	v, _, err := c.lambdaVar(lam)
	if err != nil {
		return nil, err
	}
	k, err := c.expr(key)
	if err != nil {
		return nil, err
	}
	return c.letIn(v, k, lam.Body)
}

func (c *compiler) update(e *expr.Update) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	i, err := c.expr(e.Index)
	if err != nil {
		return nil, err
	}
	v, err := c.expr(e.Value)
	if err != nil {
		return nil, err
	}
	return c.updateFn(e.Pos(), xs, e.X, e.Index, x, i, v)
}

// updateFn returns the closure for x[i := v] with x of sort xs; xe and ie
// are the expressions of x and i, for specialised code.
func (c *compiler) updateFn(pos source.Pos, xs *expr.Sort, xe, ie expr.Expr, x, i, v fn) (fn, error) {
	switch xs.Kind {
	case expr.KMap:
		if err := c.inst.checkSizes(xs); err != nil {
			return nil, errorf(pos, "%v", err)
		}
		K := xs.Key
		vi, okv := c.varRead(xe)
		pi, okp := c.paramRead(ie)
		if AtomicKey(K) && okv && okp {
			return func(f *frame) Value {
				m := f.state[vi]
				vs := f.mk(len(m.vs))
				copy(vs, m.vs)
				vs[f.params[pi].n] = v(f)
				return Value{vs: vs}
			}, nil
		}
		if AtomicKey(K) {
			return func(f *frame) Value {
				m, k, val := x(f), i(f).n, v(f)
				vs := f.mk(len(m.vs))
				copy(vs, m.vs)
				vs[k] = val
				return Value{vs: vs}
			}, nil
		}
		return func(f *frame) Value { return tset(f, K, x(f), i(f), v(f)) }, nil
	case expr.KSeq:
		return func(f *frame) Value {
			s, k, val := x(f), i(f).n, v(f)
			if k < 0 || k >= int64(len(s.vs)) {
				return s
			}
			vs := f.mk(len(s.vs))
			copy(vs, s.vs)
			vs[k] = val
			return Value{vs: vs}
		}, nil
	}
	return nil, errorf(pos, "cannot update a value of sort %s", xs)
}

// fieldIndex returns the index of the named field of record sort s.
func fieldIndex(pos source.Pos, s *expr.Sort, name string) (int, error) {
	if s.Kind != expr.KRecord {
		return 0, errorf(pos, "%s is not a record, it has no field %s", s, name)
	}
	i := s.FieldIndex(name)
	if i < 0 {
		return 0, errorf(pos, "%s has no field %s", s, name)
	}
	return i, nil
}

func (c *compiler) fieldSel(e *expr.FieldSel) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	k, err := fieldIndex(e.Pos(), xs, e.Name)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	pos := e.Pos()
	return func(f *frame) Value {
		r := x(f)
		if k >= len(r.vs) {
			f.fail(pos, "the value has no field %s", e.Name)
			return Value{}
		}
		return r.vs[k]
	}, nil
}

// fieldInits compiles record field initialisers against record sort s.
func (c *compiler) fieldInits(s *expr.Sort, fs []*expr.FieldInit) ([]int, []fn, error) {
	idx := make([]int, len(fs))
	vals := make([]fn, len(fs))
	for j, fi := range fs {
		if fi == nil {
			return nil, nil, errors.New("malformed field initialiser")
		}
		k, err := fieldIndex(fi.P, s, fi.Name)
		if err != nil {
			return nil, nil, err
		}
		idx[j] = k
		if vals[j], err = c.expr(fi.Value); err != nil {
			return nil, nil, err
		}
	}
	return idx, vals, nil
}

func (c *compiler) recordUpdate(e *expr.RecordUpdate) (fn, error) {
	xs, err := sortOf(e.X)
	if err != nil {
		return nil, err
	}
	x, err := c.expr(e.X)
	if err != nil {
		return nil, err
	}
	idx, vals, err := c.fieldInits(xs, e.Fields)
	if err != nil {
		return nil, err
	}
	n := len(xs.Fields)
	return func(f *frame) Value {
		r := x(f)
		vs := f.mk(n)
		copy(vs, r.vs)
		for j, k := range idx {
			vs[k] = vals[j](f)
		}
		return Value{vs: vs}
	}, nil
}

func (c *compiler) recordLit(e *expr.RecordLit) (fn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	idx, vals, err := c.fieldInits(s, e.Fields)
	if err != nil {
		return nil, err
	}
	given := make([]bool, len(s.Fields))
	for _, k := range idx {
		given[k] = true
	}
	for k, g := range given {
		if !g {
			return nil, errorf(e.Pos(), "record %s lacks field %s", s.Name, s.Fields[k].Name)
		}
	}
	n := len(s.Fields)
	return func(f *frame) Value {
		vs := f.mk(n)
		for j, k := range idx {
			vs[k] = vals[j](f)
		}
		return Value{vs: vs}
	}, nil
}

func (c *compiler) setLit(e *expr.SetLit) (fn, error) {
	s, err := sortOf(e)
	if err != nil {
		return nil, err
	}
	if s.Kind != expr.KSet {
		return nil, errorf(e.Pos(), "set literal of sort %s", s)
	}
	empty, err := c.def(e.Pos(), s)
	if err != nil {
		return nil, err
	}
	elems := make([]fn, len(e.Elems))
	for i, x := range e.Elems {
		if elems[i], err = c.expr(x); err != nil {
			return nil, err
		}
	}
	if len(elems) == 0 {
		return konst(empty), nil
	}
	K := s.Elem
	if AtomicKey(K) {
		return func(f *frame) Value {
			vs := f.mkZero(len(empty.vs))
			for _, x := range elems {
				vs[x(f).n] = Value{n: 1}
			}
			return Value{vs: vs}
		}, nil
	}
	return func(f *frame) Value {
		t := empty
		for _, x := range elems {
			t = tset(f, K, t, x(f), Value{n: 1})
		}
		return t
	}, nil
}

// seqLit compiles a sequence literal.
func (c *compiler) seqLit(e *expr.SeqLit) (fn, error) {
	elems := make([]fn, len(e.Elems))
	for i, x := range e.Elems {
		var err error
		if elems[i], err = c.expr(x); err != nil {
			return nil, err
		}
	}
	if len(elems) == 0 {
		return konst(Value{}), nil
	}
	return func(f *frame) Value {
		vs := f.mk(len(elems))
		for i, x := range elems {
			vs[i] = x(f)
		}
		return Value{vs: vs}
	}, nil
}
