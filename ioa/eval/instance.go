// This file implements Instance: the sizes of parameter sorts and the values
// of constants that make an automaton finite, and everything that needs
// them: default values, enumeration of finite sorts, and building maps and
// sets.

package eval

import (
	"fmt"
	"sort"
	"strings"

	"ladder/ioa/expr"
)

// DefaultMaxEnum is the largest number of values Instance.Values enumerates
// when Instance.MaxEnum is 0.
const DefaultMaxEnum = 1 << 20

// Instance makes an automaton finite: it gives the number of elements of
// each parameter sort, and optionally the values of constants.
type Instance struct {
	// Sizes maps parameter sort names to their number of elements (>= 1):
	// T has the elements T#0 ... T#(n-1).
	Sizes map[string]int
	// Consts maps constant names to values. A constant without an entry
	// takes its defining expression; without one, a constant of a finite
	// sort is the default value of the sort (T#0 for a parameter sort) and
	// a constant of an infinite sort (Int) is an error.
	Consts map[string]Value
	// MaxEnum bounds the number of values a quantifier, lambda, set
	// comprehension or initial-state enumeration may range over (0 means
	// DefaultMaxEnum). Larger domains are errors, not long waits.
	MaxEnum int
}

// String returns the instance in the notation of explore's bounds, sorted
// by name: the sizes, as "L=2,T=2", and the constants whose values are
// scalars (integers, or the index of a parameter element), as "max=3".
func (inst *Instance) String() string {
	if inst == nil {
		return ""
	}
	parts := inst.sizeParts()
	for k, v := range inst.Consts {
		if v.vs == nil {
			parts = append(parts, fmt.Sprintf("%s=%d", k, v.n))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// SizesString returns the sizes of the parameter sorts alone, sorted, as
// "T=2,V=1": for a text that gives the constants' values apart.
func (inst *Instance) SizesString() string {
	if inst == nil {
		return ""
	}
	parts := inst.sizeParts()
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// sizeParts returns "S=n" for every parameter sort S of n elements.
func (inst *Instance) sizeParts() []string {
	var parts []string
	for k, v := range inst.Sizes {
		parts = append(parts, fmt.Sprintf("%s=%d", k, v))
	}
	return parts
}

// EnumLimit returns the largest number of values a range or an enumeration
// may have in the instance: MaxEnum, or DefaultMaxEnum when it is not set.
func (inst *Instance) EnumLimit() int {
	if inst == nil || inst.MaxEnum <= 0 {
		return DefaultMaxEnum
	}
	return inst.MaxEnum
}

// Count returns the number of elements of a Bool, enum or parameter sort,
// or 0 when it is unknown.
func (inst *Instance) Count(s *expr.Sort) int {
	switch s.Kind {
	case expr.KBool:
		return 2
	case expr.KEnum:
		return len(s.Elems)
	case expr.KParam:
		if inst == nil {
			return 0
		}
		if n := inst.Sizes[s.Name]; n > 0 {
			return n
		}
	}
	return 0
}

// Size returns the number of elements of parameter sort s in the instance.
func (inst *Instance) Size(s *expr.Sort) (int, error) {
	if s == nil || s.Kind != expr.KParam {
		return 0, fmt.Errorf("%s is not a parameter sort", s)
	}
	if n := inst.Count(s); n > 0 {
		return n, nil
	}
	return 0, fmt.Errorf("no size for parameter sort %s (give %s=n with n >= 1)", s.Name, s.Name)
}

// checkSizes reports an error if a parameter sort inside s has no size.
func (inst *Instance) checkSizes(s *expr.Sort) error {
	switch s.Kind {
	case expr.KParam:
		_, err := inst.Size(s)
		return err
	case expr.KRecord:
		for _, f := range s.Fields {
			if err := inst.checkSizes(f.Sort); err != nil {
				return err
			}
		}
	case expr.KMap:
		if !keyable(s.Key) {
			return fmt.Errorf("map key sort %s is not finite in an explored instance (keys must be Bool, enums, parameter sorts, or Options and records of those)", s.Key)
		}
		if err := inst.checkSizes(s.Key); err != nil {
			return err
		}
		return inst.checkSizes(s.Elem)
	case expr.KSet:
		if !keyable(s.Elem) {
			return fmt.Errorf("set element sort %s is not finite in an explored instance (elements must be Bool, enums, parameter sorts, or Options and records of those)", s.Elem)
		}
		return inst.checkSizes(s.Elem)
	case expr.KSeq, expr.KOption:
		return inst.checkSizes(s.Elem)
	case expr.KInvalid:
		return fmt.Errorf("invalid sort")
	}
	return nil
}

// Card returns the number of values of s, and false if s is infinite in an
// explored instance (Int, Nat, Seq) or has more than 2^62 values.
func (inst *Instance) Card(s *expr.Sort) (int64, bool) {
	const limit = int64(1) << 62
	mul := func(a, b int64) (int64, bool) {
		if a == 0 || b == 0 {
			return 0, true
		}
		if a > limit/b {
			return 0, false
		}
		return a * b, true
	}
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		n := inst.Count(s)
		return int64(n), n > 0 || s.Kind == expr.KEnum
	case expr.KOption:
		n, ok := inst.Card(s.Elem)
		return n + 1, ok && n < limit
	case expr.KRecord:
		p := int64(1)
		for _, f := range s.Fields {
			n, ok := inst.Card(f.Sort)
			if !ok {
				return 0, false
			}
			if p, ok = mul(p, n); !ok {
				return 0, false
			}
		}
		return p, true
	case expr.KMap, expr.KSet:
		key, leaf := TableSorts(s)
		if !keyable(key) {
			return 0, false
		}
		nk, ok := inst.Card(key)
		if !ok {
			return 0, false
		}
		nv, ok := inst.Card(leaf)
		if !ok {
			return 0, false
		}
		p := int64(1)
		for i := int64(0); i < nk; i++ {
			if p, ok = mul(p, nv); !ok {
				return 0, false
			}
		}
		return p, true
	}
	return 0, false
}

// Default returns the default value of s: false, 0, the first enum
// constant, T#0, the record of defaults, const(default), {}, [] or None.
func (inst *Instance) Default(s *expr.Sort) (Value, error) {
	if err := inst.checkSizes(s); err != nil {
		return Value{}, err
	}
	return inst.def(s), nil
}

// def is Default for a sort whose sizes were checked.
func (inst *Instance) def(s *expr.Sort) Value {
	switch s.Kind {
	case expr.KRecord:
		vs := make([]Value, len(s.Fields))
		for i, f := range s.Fields {
			vs[i] = inst.def(f.Sort)
		}
		return Value{vs: vs}
	case expr.KMap:
		return inst.tconst(&frame{}, s.Key, inst.def(s.Elem))
	case expr.KSet:
		return inst.tconst(&frame{}, s.Elem, Value{})
	}
	return Value{}
}

// tconst returns the table over K whose every leaf is leaf. K's sizes must
// have been checked.
func (inst *Instance) tconst(f *frame, K *expr.Sort, leaf Value) Value {
	switch K.Kind {
	case expr.KOption:
		vs := f.mk(2)
		vs[0], vs[1] = leaf, inst.tconst(f, K.Elem, leaf)
		return Value{vs: vs}
	case expr.KRecord:
		for i := len(K.Fields) - 1; i >= 0; i-- {
			leaf = inst.tconst(f, K.Fields[i].Sort, leaf)
		}
		return leaf
	}
	vs := f.mk(inst.Count(K))
	for i := range vs {
		vs[i] = leaf
	}
	return Value{vs: vs}
}

// tbuild returns the table over K whose leaves, in key order, are leaves;
// len(leaves) must be the cardinality of K, whose sizes must have been
// checked.
func (inst *Instance) tbuild(f *frame, K *expr.Sort, leaves []Value) Value {
	switch K.Kind {
	case expr.KOption:
		vs := f.mk(2)
		vs[0], vs[1] = leaves[0], inst.tbuild(f, K.Elem, leaves[1:])
		return Value{vs: vs}
	case expr.KRecord:
		return inst.tbuildFields(f, K.Fields, leaves)
	}
	vs := f.mk(len(leaves))
	copy(vs, leaves)
	return Value{vs: vs}
}

func (inst *Instance) tbuildFields(f *frame, fs []expr.Field, leaves []Value) Value {
	if len(fs) == 0 {
		return leaves[0]
	}
	c, _ := inst.Card(fs[0].Sort)
	n := int(c)
	if n == 0 {
		return Value{}
	}
	chunk := len(leaves) / n
	subs := f.mk(n)
	for i := range subs {
		subs[i] = inst.tbuildFields(f, fs[1:], leaves[i*chunk:(i+1)*chunk])
	}
	return inst.tbuild(f, fs[0].Sort, subs)
}

// Values returns every value of the finite sort s in the canonical order:
// false before true, enum constants and parameter elements by ordinal, None
// before the Somes, records and maps lexicographically with the first field
// or key most significant. It is an error if s is infinite or has more than
// MaxEnum values.
func (inst *Instance) Values(s *expr.Sort) ([]Value, error) {
	if err := inst.checkSizes(s); err != nil {
		return nil, err
	}
	n, ok := inst.Card(s)
	if !ok {
		return nil, fmt.Errorf("cannot enumerate sort %s: it is infinite in an explored instance", s)
	}
	if n > int64(inst.EnumLimit()) {
		return nil, fmt.Errorf("cannot enumerate sort %s: %d values exceed the limit of %d", s, n, inst.EnumLimit())
	}
	return inst.values(s), nil
}

// values is Values for a checked finite sort.
func (inst *Instance) values(s *expr.Sort) []Value {
	switch s.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		out := make([]Value, inst.Count(s))
		for i := range out {
			out[i] = Value{n: int64(i)}
		}
		return out
	case expr.KOption:
		out := []Value{None()}
		for _, x := range inst.values(s.Elem) {
			out = append(out, Some(x))
		}
		return out
	case expr.KRecord:
		parts := make([][]Value, len(s.Fields))
		for i, f := range s.Fields {
			parts[i] = inst.values(f.Sort)
		}
		var out []Value
		product(parts, func(vs []Value) { out = append(out, Record(vs...)) })
		return out
	case expr.KMap, expr.KSet:
		key, leaf := TableSorts(s)
		nk, _ := inst.Card(key)
		lv := inst.values(leaf)
		parts := make([][]Value, nk)
		for i := range parts {
			parts[i] = lv
		}
		var out []Value
		product(parts, func(vs []Value) { out = append(out, inst.tbuild(&frame{}, key, vs)) })
		return out
	}
	return nil
}

// product calls fn with every tuple of the cartesian product of parts, the
// first part most significant. The slice passed to fn is reused.
func product(parts [][]Value, fn func([]Value)) {
	cur := make([]Value, len(parts))
	var rec func(i int)
	rec = func(i int) {
		if i == len(parts) {
			fn(cur)
			return
		}
		for _, v := range parts[i] {
			cur[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// Entry is one key and value of a map under construction.
type Entry struct {
	Key, Val Value // the key and the value it maps to
}

// Map returns the value of map sort s (Map[K, V]) that sends every key to
// def except the given entries (later entries win), as a solver model
// describes an array.
func (inst *Instance) Map(s *expr.Sort, def Value, entries ...Entry) (Value, error) {
	if s == nil || s.Kind != expr.KMap {
		return Value{}, fmt.Errorf("%s is not a map sort", s)
	}
	if err := inst.checkSizes(s); err != nil {
		return Value{}, err
	}
	if !inst.Conforms(def, s.Elem) {
		return Value{}, fmt.Errorf("default value is not of sort %s", s.Elem)
	}
	heap := &frame{}
	t := inst.tconst(heap, s.Key, def)
	for _, e := range entries {
		if !inst.Conforms(e.Key, s.Key) || !inst.Conforms(e.Val, s.Elem) {
			return Value{}, fmt.Errorf("map entry is not of sort %s ↦ %s", s.Key, s.Elem)
		}
		t = tset(heap, s.Key, t, e.Key, e.Val)
	}
	return t, nil
}

// Set returns the value of set sort s (Set[X]) with the given elements.
func (inst *Instance) Set(s *expr.Sort, elems ...Value) (Value, error) {
	if s == nil || s.Kind != expr.KSet {
		return Value{}, fmt.Errorf("%s is not a set sort", s)
	}
	if err := inst.checkSizes(s); err != nil {
		return Value{}, err
	}
	heap := &frame{}
	t := inst.tconst(heap, s.Elem, Value{})
	for _, x := range elems {
		if !inst.Conforms(x, s.Elem) {
			return Value{}, fmt.Errorf("set element is not of sort %s", s.Elem)
		}
		t = tset(heap, s.Elem, t, x, Value{n: 1})
	}
	return t, nil
}

// MapGet returns m[k] for a map m of sort s (Map[K, V]), or false if m or k
// are not of the sorts.
func (inst *Instance) MapGet(s *expr.Sort, m, k Value) (Value, bool) {
	if s == nil || s.Kind != expr.KMap || !inst.Conforms(m, s) || !inst.Conforms(k, s.Key) {
		return Value{}, false
	}
	return tget(s.Key, m, k), true
}

// Contains reports whether x is an element of set v of sort s (Set[X]).
func (inst *Instance) Contains(s *expr.Sort, v, x Value) bool {
	if s == nil || s.Kind != expr.KSet || !inst.Conforms(v, s) || !inst.Conforms(x, s.Elem) {
		return false
	}
	return tget(s.Elem, v, x).n != 0
}

// Conforms reports whether v is a well-formed value of sort s in the
// instance: every scalar is in range and every table has the instance's
// sizes. Values built by the evaluator always conform; use Conforms to
// check values from elsewhere.
func (inst *Instance) Conforms(v Value, s *expr.Sort) bool {
	if s == nil {
		return false
	}
	switch s.Kind {
	case expr.KBool:
		return v.vs == nil && (v.n == 0 || v.n == 1)
	case expr.KInt, expr.KNat:
		return v.vs == nil
	case expr.KEnum, expr.KParam:
		n := inst.Count(s)
		return v.vs == nil && v.n >= 0 && v.n < int64(n)
	case expr.KRecord:
		if v.n != 0 || len(v.vs) != len(s.Fields) {
			return false
		}
		for i, f := range s.Fields {
			if !inst.Conforms(v.vs[i], f.Sort) {
				return false
			}
		}
		return true
	case expr.KOption:
		if v.n == 0 {
			return v.vs == nil
		}
		return v.n == 1 && len(v.vs) == 1 && inst.Conforms(v.vs[0], s.Elem)
	case expr.KSeq:
		if v.n != 0 {
			return false
		}
		for _, x := range v.vs {
			if !inst.Conforms(x, s.Elem) {
				return false
			}
		}
		return true
	case expr.KMap, expr.KSet:
		key, leaf := TableSorts(s)
		if inst.checkSizes(s) != nil {
			return false
		}
		return tshape(key, v, inst.Count, func(x Value) bool { return inst.Conforms(x, leaf) })
	}
	return false
}
