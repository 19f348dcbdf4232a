// This file implements the encoding of indexing and updates of maps and
// sequences, field selection and record updates, and the record, set and
// sequence literals. Its twins are ioa/eval/expr_index.go (the reference
// evaluator) and ioa/eval/fast/expr_index.go (the explorer's engine on
// encodings).

package encode

import (
	"ladder/internal/logic"
	"ladder/internal/source"
	"ladder/ioa/expr"
)

// index encodes x[i]: select on a map, the total read of a sequence.
func (e *Encoder) index(x *expr.Index, env *Env) (Value, error) {
	m, err := e.expr(x.X, env)
	if err != nil {
		return Value{}, err
	}
	i, err := e.expr(x.Index, env)
	if err != nil {
		return Value{}, err
	}
	switch m.sort.Kind {
	case expr.KMap:
		return e.mapSelect(m, i)
	case expr.KSeq:
		return e.seqIndex(m, i)
	}
	return Value{}, errAt(x.Pos(), "cannot index a value of sort %s", m.sort)
}

// update encodes x[i := v] on a map or a sequence.
func (e *Encoder) update(x *expr.Update, env *Env) (Value, error) {
	m, err := e.expr(x.X, env)
	if err != nil {
		return Value{}, err
	}
	i, err := e.expr(x.Index, env)
	if err != nil {
		return Value{}, err
	}
	v, err := e.expr(x.Value, env)
	if err != nil {
		return Value{}, err
	}
	return e.updateAt(x.Pos(), m, i, v)
}

// fieldSel encodes r.f: the part of the field.
func (e *Encoder) fieldSel(x *expr.FieldSel, env *Env) (Value, error) {
	r, err := e.expr(x.X, env)
	if err != nil {
		return Value{}, err
	}
	return fieldOf(x.Pos(), r, x.Name)
}

// recordUpdate encodes r with {f := v, ...}, replacing the parts of the
// fields.
func (e *Encoder) recordUpdate(x *expr.RecordUpdate, env *Env) (Value, error) {
	r, err := e.expr(x.X, env)
	if err != nil {
		return Value{}, err
	}
	parts := r.Parts()
	for _, fi := range x.Fields {
		k := r.sort.FieldIndex(fi.Name)
		if k < 0 || k >= len(parts) {
			return Value{}, errAt(fi.P, "%s has no field %s", r.sort, fi.Name)
		}
		v, err := e.expr(fi.Value, env)
		if err != nil {
			return Value{}, err
		}
		parts[k] = withSort(v, r.sort.Fields[k].Sort)
	}
	return Value{sort: r.sort, parts: parts}, nil
}

// recordLit encodes a record literal, the parts of its fields.
func (e *Encoder) recordLit(x *expr.RecordLit, env *Env) (Value, error) {
	s := x.Sort()
	if s.Kind != expr.KRecord {
		return Value{}, errAt(x.Pos(), "record literal of sort %s", s)
	}
	parts := make([]Value, len(s.Fields))
	given := make([]bool, len(s.Fields))
	for _, fi := range x.Fields {
		k := s.FieldIndex(fi.Name)
		if k < 0 {
			return Value{}, errAt(fi.P, "%s has no field %s", s, fi.Name)
		}
		v, err := e.expr(fi.Value, env)
		if err != nil {
			return Value{}, err
		}
		parts[k], given[k] = withSort(v, s.Fields[k].Sort), true
	}
	for k, g := range given {
		if !g {
			return Value{}, errAt(x.Pos(), "record %s lacks field %s", s.Name, s.Fields[k].Name)
		}
	}
	return Value{sort: s, parts: parts}, nil
}

// setLit encodes a set literal: stores of true into the empty set.
func (e *Encoder) setLit(x *expr.SetLit, env *Env) (Value, error) {
	s := x.Sort()
	if s.Kind != expr.KSet {
		return Value{}, errAt(x.Pos(), "set literal of sort %s", s)
	}
	set, err := e.Default(s)
	if err != nil {
		return Value{}, errAt(x.Pos(), "%v", err)
	}
	t := set.leaf
	for _, el := range x.Elems {
		v, err := e.expr(el, env)
		if err != nil {
			return Value{}, err
		}
		pv, err := e.Pack(v)
		if err != nil {
			return Value{}, errAt(el.Pos(), "%v", err)
		}
		t = logic.Store(t, pv, logic.True())
	}
	return leafValue(s, t), nil
}

// seqLit encodes a sequence literal: its length and the stores of its
// elements into the default elements.
func (e *Encoder) seqLit(x *expr.SeqLit, env *Env) (Value, error) {
	s := x.Sort()
	if s.Kind != expr.KSeq {
		return Value{}, errAt(x.Pos(), "sequence literal of sort %s", s)
	}
	q, err := e.Default(s)
	if err != nil {
		return Value{}, errAt(x.Pos(), "%v", err)
	}
	elems := q.parts[1]
	for i, el := range x.Elems {
		v, err := e.expr(el, env)
		if err != nil {
			return Value{}, err
		}
		if elems, err = e.mapStore(elems, leafValue(expr.IntSort, logic.IntVal(int64(i))), withSort(v, s.Elem)); err != nil {
			return Value{}, errAt(el.Pos(), "%v", err)
		}
	}
	return Value{sort: s, parts: []Value{leafValue(expr.IntSort, logic.IntVal(int64(len(x.Elems)))), elems}}, nil
}

func fieldOf(pos source.Pos, r Value, name string) (Value, error) {
	if r.sort.Kind != expr.KRecord {
		return Value{}, errAt(pos, "%s is not a record, it has no field %s", r.sort, name)
	}
	k := r.sort.FieldIndex(name)
	if k < 0 || k >= len(r.parts) {
		return Value{}, errAt(pos, "%s has no field %s", r.sort, name)
	}
	return r.parts[k], nil
}

// updateAt returns m[i := v] for a map or a sequence m.
func (e *Encoder) updateAt(pos source.Pos, m, i, v Value) (Value, error) {
	switch m.sort.Kind {
	case expr.KMap:
		return e.mapStore(m, i, withSort(v, m.sort.Elem))
	case expr.KSeq:
		return e.seqUpdate(m, i, withSort(v, m.sort.Elem))
	}
	return Value{}, errAt(pos, "cannot update a value of sort %s", m.sort)
}
