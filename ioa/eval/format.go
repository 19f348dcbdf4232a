// This file implements printing values in the language's notation
// (docs/language.md, "Printing values").

package eval

import (
	"strconv"
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
)

// Format returns v, a value of sort s, in the language's notation: true,
// -3, Idle, T#0, R{f: 1}, None, Some(V#1), [1, 2], {L#0, L#1}, and maps as
// const(d)[k := v]... where d is the most frequent value (the first in key
// order among equally frequent ones) and the updates list, in key order, the
// keys whose value differs from d; among equally frequent values d is the
// default value of the sort, else the first in key order. A state record prints as its record.
// Format needs no instance: the sizes of parameter sorts are read off the
// value. Parts of v that do not fit s print as "?".
func Format(v Value, s *expr.Sort) string {
	var b strings.Builder
	format(&b, v, s)
	return b.String()
}

func format(b *strings.Builder, v Value, s *expr.Sort) {
	if s == nil {
		b.WriteString("?")
		return
	}
	switch s.Kind {
	case expr.KBool:
		switch {
		case v.vs != nil:
			b.WriteString("?")
		case v.n == 0:
			b.WriteString("false")
		default:
			b.WriteString("true")
		}
	case expr.KInt, expr.KNat:
		if v.vs != nil {
			b.WriteString("?")
			return
		}
		b.WriteString(strconv.FormatInt(v.n, 10))
	case expr.KEnum:
		if v.vs != nil || v.n < 0 || v.n >= int64(len(s.Elems)) {
			b.WriteString("?")
			return
		}
		b.WriteString(s.Elems[v.n])
	case expr.KParam:
		if v.vs != nil || v.n < 0 {
			b.WriteString("?")
			return
		}
		b.WriteString(s.Name)
		b.WriteString("#")
		b.WriteString(strconv.FormatInt(v.n, 10))
	case expr.KRecord:
		if len(v.vs) != len(s.Fields) {
			b.WriteString("?")
			return
		}
		b.WriteString(s.Name)
		b.WriteString("{")
		for i, f := range s.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			format(b, v.vs[i], f.Sort)
		}
		b.WriteString("}")
	case expr.KOption:
		switch {
		case v.n == 0 && v.vs == nil:
			b.WriteString("None")
		case v.n == 1 && len(v.vs) == 1:
			b.WriteString("Some(")
			format(b, v.vs[0], s.Elem)
			b.WriteString(")")
		default:
			b.WriteString("?")
		}
	case expr.KSeq:
		b.WriteString("[")
		for i, x := range v.vs {
			if i > 0 {
				b.WriteString(", ")
			}
			format(b, x, s.Elem)
		}
		b.WriteString("]")
	case expr.KSet:
		var keys []Value
		ok := fentries(s.Elem, v, func(k, leaf Value) {
			if leaf.n != 0 {
				keys = append(keys, k)
			}
		})
		if !ok {
			b.WriteString("?")
			return
		}
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			format(b, k, s.Elem)
		}
		b.WriteString("}")
	case expr.KMap:
		var keys, leaves []Value
		ok := fentries(s.Key, v, func(k, leaf Value) {
			keys = append(keys, k)
			leaves = append(leaves, leaf)
		})
		if !ok {
			b.WriteString("?")
			return
		}
		d := mostFrequent(leaves, s.Elem)
		b.WriteString("const(")
		if d >= 0 {
			format(b, leaves[d], s.Elem)
		}
		b.WriteString(")")
		for i := range keys {
			if d >= 0 && Equal(leaves[i], leaves[d]) {
				continue
			}
			b.WriteString("[")
			format(b, keys[i], s.Key)
			b.WriteString(" := ")
			format(b, leaves[i], s.Elem)
			b.WriteString("]")
		}
	default:
		b.WriteString("?")
	}
}

// mostFrequent returns the index of the most frequent of vs, values of sort
// s: among equally frequent ones, the default value of s, else the first.
// It returns -1 for an empty list.
func mostFrequent(vs []Value, s *expr.Sort) int {
	best, bestN, bestDef := -1, 0, false
	for i := range vs {
		seen := false
		for j := 0; j < i; j++ {
			if Equal(vs[j], vs[i]) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		n := 0
		for j := i; j < len(vs); j++ {
			if Equal(vs[j], vs[i]) {
				n++
			}
		}
		def := isDefault(vs[i], s)
		if n > bestN || (n == bestN && def && !bestDef) {
			best, bestN, bestDef = i, n, def
		}
	}
	return best
}

// isDefault reports whether v is the default value of s (see
// Instance.Default), judging tables by their leaves.
func isDefault(v Value, s *expr.Sort) bool {
	switch s.Kind {
	case expr.KRecord:
		if len(v.vs) != len(s.Fields) {
			return false
		}
		for i, f := range s.Fields {
			if !isDefault(v.vs[i], f.Sort) {
				return false
			}
		}
		return true
	case expr.KMap, expr.KSet:
		key, leaf := TableSorts(s)
		all := true
		ok := fentries(key, v, func(_, x Value) { all = all && isDefault(x, leaf) })
		return ok && all
	}
	return v.n == 0 && len(v.vs) == 0
}

// fentries is teach for printing: it checks the table's shape as it goes
// and reports false for a table that does not fit K.
func fentries(K *expr.Sort, t Value, fn func(k, leaf Value)) bool {
	switch K.Kind {
	case expr.KBool, expr.KEnum, expr.KParam:
		if t.n != 0 || len(t.vs) == 0 || (K.Kind == expr.KBool && len(t.vs) != 2) || (K.Kind == expr.KEnum && len(t.vs) != len(K.Elems)) {
			return false
		}
		for i, x := range t.vs {
			fn(Value{n: int64(i)}, x)
		}
		return true
	case expr.KOption:
		if t.n != 0 || len(t.vs) != 2 {
			return false
		}
		fn(None(), t.vs[0])
		return fentries(K.Elem, t.vs[1], func(k, leaf Value) { fn(Some(k), leaf) })
	case expr.KRecord:
		return fentriesFields(K.Fields, t, nil, fn)
	}
	return false
}

func fentriesFields(fs []expr.Field, t Value, prefix []Value, fn func(k, leaf Value)) bool {
	if len(fs) == 0 {
		fn(Record(prefix...), t)
		return true
	}
	ok := true
	inner := fentries(fs[0].Sort, t, func(k, sub Value) {
		if ok && !fentriesFields(fs[1:], sub, append(prefix[:len(prefix):len(prefix)], k), fn) {
			ok = false
		}
	})
	return ok && inner
}

// Format returns the state as a record of the automaton's state sort, e.g.
// `Counter{n: 0, phase: Idle}`.
func (s State) Format(a *ioa.Automaton) string {
	var b strings.Builder
	b.WriteString(a.Name)
	b.WriteString("{")
	for i, v := range a.Vars {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Name)
		b.WriteString(": ")
		if i < len(s) {
			format(&b, s[i], v.Sort)
		} else {
			b.WriteString("?")
		}
	}
	b.WriteString("}")
	return b.String()
}

// smallMap is the largest number of keys of a map that FormatVar prints
// entry by entry.
const smallMap = 3

// FormatVar returns the text of state variable name = v, of sort s: for a
// map over at most smallMap keys whose entries are not all equal, one
// equation per key in key order (`pc[T#0] = Idle, pc[T#1] = B1`), so that
// each entry can be read off; otherwise `name = ` and Format(v, s).
func FormatVar(name string, v Value, s *expr.Sort) string {
	if s != nil && s.Kind == expr.KMap {
		var keys, leaves []Value
		ok := fentries(s.Key, v, func(k, leaf Value) {
			keys = append(keys, k)
			leaves = append(leaves, leaf)
		})
		differ := false
		for _, l := range leaves {
			differ = differ || !Equal(l, leaves[0])
		}
		if ok && differ && len(keys) <= smallMap {
			parts := make([]string, len(keys))
			for i := range keys {
				parts[i] = name + "[" + Format(keys[i], s.Key) + "] = " + Format(leaves[i], s.Elem)
			}
			return strings.Join(parts, ", ")
		}
	}
	return name + " = " + Format(v, s)
}
