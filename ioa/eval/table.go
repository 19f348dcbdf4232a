// This file implements tables: the representation of maps and sets over a
// finite key sort.
//
// A table over key sort K with leaves of some sort is
//
//   - for K = Bool, an enum or a parameter sort: a Value whose vs holds one
//     leaf per key ordinal;
//   - for K = Option[X]: a Value whose vs is [leaf at None, table over X];
//   - for K = record {f1: K1, ..., fn: Kn}: a table over K1 whose leaves are
//     tables over {f2: K2, ..., fn: Kn}; a record with no fields has one
//     key, and its table is the leaf itself.
//
// A Map[K, V] is a table with V leaves; a Set[K] is a table with Bool leaves.
// The functions below are directed by the key sort; they read the sizes of
// parameter sorts off the table itself, so only building a table from
// nothing (tconst) needs an instance.

package eval

import (
	"fmt"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// keyable reports whether s may be a map key or a set element in an
// explored instance: Bool, enums, parameter sorts, and Options and records
// of those.
func keyable(s *expr.Sort) bool {
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		return true
	case expr.KOption:
		return keyable(s.Elem)
	case expr.KRecord:
		for _, f := range s.Fields {
			if !keyable(f.Sort) {
				return false
			}
		}
		return true
	}
	return false
}

// Representable reports, as an error naming the sort, why values of s have
// no representation here: a map or set over an infinite key sort (Int, Nat,
// Seq), anywhere inside s. It is nil for every other sort.
func Representable(s *expr.Sort) error {
	switch s.Kind {
	case expr.KMap:
		if !keyable(s.Key) {
			return fmt.Errorf("the map sort %s has the infinite key sort %s", s, s.Key)
		}
		if err := Representable(s.Key); err != nil {
			return err
		}
		return Representable(s.Elem)
	case expr.KSet:
		if !keyable(s.Elem) {
			return fmt.Errorf("the set sort %s has the infinite element sort %s", s, s.Elem)
		}
		return Representable(s.Elem)
	case expr.KSeq, expr.KOption:
		return Representable(s.Elem)
	case expr.KRecord:
		for _, f := range s.Fields {
			if err := Representable(f.Sort); err != nil {
				return err
			}
		}
	}
	return nil
}

// RepresentableAutomaton is Representable for every state variable of a,
// naming the first variable that has no values here.
func RepresentableAutomaton(a *ioa.Automaton) error {
	for _, v := range a.Vars {
		if err := Representable(v.Sort); err != nil {
			return fmt.Errorf("variable %s of %s: %w", v.Name, a.Name, err)
		}
	}
	return nil
}

// AtomicKey reports whether k is a key sort whose table is a flat vector.
func AtomicKey(k *expr.Sort) bool {
	return k.Kind == expr.KBool || k.Kind == expr.KEnum || k.Kind == expr.KParam
}

// TableSorts returns the key and leaf sorts of a table of sort s, a map
// or a set (a table of Bool).
func TableSorts(s *expr.Sort) (key, leaf *expr.Sort) {
	if s.Kind == expr.KSet {
		return s.Elem, expr.BoolSort
	}
	return s.Key, s.Elem
}

// tget returns the leaf of table t at key k.
func tget(K *expr.Sort, t, k Value) Value {
	switch K.Kind {
	case expr.KOption:
		if k.n == 0 {
			return t.vs[0]
		}
		return tget(K.Elem, t.vs[1], k.vs[0])
	case expr.KRecord:
		for i, f := range K.Fields {
			t = tget(f.Sort, t, k.vs[i])
		}
		return t
	}
	return t.vs[k.n]
}

// tset returns t with the leaf at key k replaced by v.
func tset(f *frame, K *expr.Sort, t, k, v Value) Value {
	switch K.Kind {
	case expr.KOption:
		vs := f.mk(2)
		copy(vs, t.vs)
		if k.n == 0 {
			vs[0] = v
		} else {
			vs[1] = tset(f, K.Elem, t.vs[1], k.vs[0], v)
		}
		return Value{vs: vs}
	case expr.KRecord:
		return tsetFields(f, K.Fields, t, k.vs, v)
	}
	vs := f.mk(len(t.vs))
	copy(vs, t.vs)
	vs[k.n] = v
	return Value{vs: vs}
}

func tsetFields(f *frame, fs []expr.Field, t Value, k []Value, v Value) Value {
	if len(fs) == 0 {
		return v
	}
	sub := tget(fs[0].Sort, t, k[0])
	return tset(f, fs[0].Sort, t, k[0], tsetFields(f, fs[1:], sub, k[1:], v))
}

// tmap returns the table with leaves fn(leaf) of t.
func tmap(f *frame, K *expr.Sort, t Value, fn func(Value) Value) Value {
	switch K.Kind {
	case expr.KOption:
		vs := f.mk(2)
		vs[0], vs[1] = fn(t.vs[0]), tmap(f, K.Elem, t.vs[1], fn)
		return Value{vs: vs}
	case expr.KRecord:
		return tmapFields(f, K.Fields, t, fn)
	}
	vs := f.mk(len(t.vs))
	for i, x := range t.vs {
		vs[i] = fn(x)
	}
	return Value{vs: vs}
}

func tmapFields(f *frame, fs []expr.Field, t Value, fn func(Value) Value) Value {
	if len(fs) == 0 {
		return fn(t)
	}
	return tmap(f, fs[0].Sort, t, func(sub Value) Value { return tmapFields(f, fs[1:], sub, fn) })
}

// tzip returns the table with leaves fn(a's leaf, b's leaf).
func tzip(f *frame, K *expr.Sort, a, b Value, fn func(x, y Value) Value) Value {
	switch K.Kind {
	case expr.KOption:
		vs := f.mk(2)
		vs[0], vs[1] = fn(a.vs[0], b.vs[0]), tzip(f, K.Elem, a.vs[1], b.vs[1], fn)
		return Value{vs: vs}
	case expr.KRecord:
		return tzipFields(f, K.Fields, a, b, fn)
	}
	vs := f.mk(len(a.vs))
	for i := range a.vs {
		vs[i] = fn(a.vs[i], b.vs[i])
	}
	return Value{vs: vs}
}

func tzipFields(f *frame, fs []expr.Field, a, b Value, fn func(x, y Value) Value) Value {
	if len(fs) == 0 {
		return fn(a, b)
	}
	return tzip(f, fs[0].Sort, a, b, func(x, y Value) Value { return tzipFields(f, fs[1:], x, y, fn) })
}

// tall reports whether pred holds for every pair of leaves of a and b at
// the same key.
func tall(K *expr.Sort, a, b Value, pred func(x, y Value) bool) bool {
	switch K.Kind {
	case expr.KOption:
		return pred(a.vs[0], b.vs[0]) && tall(K.Elem, a.vs[1], b.vs[1], pred)
	case expr.KRecord:
		return tallFields(K.Fields, a, b, pred)
	}
	for i := range a.vs {
		if !pred(a.vs[i], b.vs[i]) {
			return false
		}
	}
	return true
}

func tallFields(fs []expr.Field, a, b Value, pred func(x, y Value) bool) bool {
	if len(fs) == 0 {
		return pred(a, b)
	}
	return tall(fs[0].Sort, a, b, func(x, y Value) bool { return tallFields(fs[1:], x, y, pred) })
}

// teach calls fn for every key of t, in key order, with the key and its
// leaf. It stops when fn returns false, and reports whether it went through.
func teach(K *expr.Sort, t Value, fn func(k, leaf Value) bool) bool {
	switch K.Kind {
	case expr.KOption:
		if !fn(None(), t.vs[0]) {
			return false
		}
		return teach(K.Elem, t.vs[1], func(k, leaf Value) bool { return fn(Some(k), leaf) })
	case expr.KRecord:
		return teachFields(K.Fields, t, nil, fn)
	}
	for i, x := range t.vs {
		if !fn(Value{n: int64(i)}, x) {
			return false
		}
	}
	return true
}

func teachFields(fs []expr.Field, t Value, prefix []Value, fn func(k, leaf Value) bool) bool {
	if len(fs) == 0 {
		return fn(Record(prefix...), t)
	}
	return teach(fs[0].Sort, t, func(k, sub Value) bool {
		return teachFields(fs[1:], sub, append(prefix[:len(prefix):len(prefix)], k), fn)
	})
}

// tshape reports whether t is a well-formed table over K whose leaves
// satisfy leaf; sizes of parameter sorts are looked up with size.
func tshape(K *expr.Sort, t Value, size func(*expr.Sort) int, leaf func(Value) bool) bool {
	switch K.Kind {
	case expr.KOption:
		return t.n == 0 && len(t.vs) == 2 && leaf(t.vs[0]) && tshape(K.Elem, t.vs[1], size, leaf)
	case expr.KRecord:
		return tshapeFields(K.Fields, t, size, leaf)
	}
	if t.n != 0 || len(t.vs) != size(K) {
		return false
	}
	for _, x := range t.vs {
		if !leaf(x) {
			return false
		}
	}
	return true
}

func tshapeFields(fs []expr.Field, t Value, size func(*expr.Sort) int, leaf func(Value) bool) bool {
	if len(fs) == 0 {
		return leaf(t)
	}
	return tshape(fs[0].Sort, t, size, func(sub Value) bool { return tshapeFields(fs[1:], sub, size, leaf) })
}
