// This file validates the bounds of an instance before anything is
// allocated for it: sizes and values in range, names that exist, and states
// small enough to be represented.

package explore

import (
	"fmt"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// BoundError is an error in the bounds of an instance (the --bound flag):
// a size or value out of range, a name that is neither a parameter sort nor
// a constant, or an instance whose states cannot be represented. The
// command line reports it as a usage error.
type BoundError struct{ Msg string }

func (e *BoundError) Error() string { return e.Msg }

func boundErrorf(format string, args ...any) error {
	return &BoundError{Msg: fmt.Sprintf(format, args...)}
}

// MaxSortSize is the largest size of a parameter sort in an explored
// instance: the largest domain the evaluator enumerates
// (eval.DefaultMaxEnum).
const MaxSortSize = eval.DefaultMaxEnum

// MaxStateValues is the most scalar values (map entries, record fields,
// ...) one state may hold in an explored instance: the store keeps states
// of at most 4 MiB each.
const MaxStateValues = 1 << 22

// CheckSize returns a BoundError unless n is a valid size for the
// parameter sort name.
func CheckSize(name string, n int) error {
	switch {
	case n < 1:
		return boundErrorf("size of %s must be at least 1, not %d", name, n)
	case n > MaxSortSize:
		return boundErrorf("size of %s is %d, more than the %d elements a parameter sort can have in an explored instance", name, n, MaxSortSize)
	}
	return nil
}

// CheckElem returns a BoundError unless v is an element of the parameter
// sort s, of the given size (0: unknown), for the constant name.
func CheckElem(name string, s *expr.Sort, v, size int) error {
	switch {
	case v < 0:
		return boundErrorf("bound %s=%d: %s is an element of %s, numbered from 0", name, v, name, s.Name)
	case size > 0 && v >= size:
		return boundErrorf("bound %s=%d: %s has %d elements (%s#0 … %s#%d), so %s must be less than %d", name, v, s.Name, size, s.Name, s.Name, size-1, name, size)
	case size == 0 && v >= MaxSortSize:
		return boundErrorf("bound %s=%d: more than the %d elements a parameter sort can have", name, v, MaxSortSize)
	}
	return nil
}

// checkStates returns a BoundError when a state of a in inst cannot be
// represented: a parameter sort of a state variable has no size, or a
// state holds more than MaxStateValues values.
func checkStates(a *ioa.Automaton, inst *eval.Instance) error {
	var total int64
	for _, v := range a.Vars {
		if v == nil || v.Sort == nil {
			continue
		}
		if err := sizesOf(v.Sort, inst); err != nil {
			return err
		}
		n := values(v.Sort, inst)
		total += n
		if n > MaxStateValues || total > MaxStateValues {
			what := fmt.Sprintf("more than %d", MaxStateValues)
			if n <= MaxStateValues {
				what = fmt.Sprintf("%d", n)
			}
			return boundErrorf("the instance %s cannot be represented: a state of %s holds more than %d values (%s: %s holds %s)",
				inst, a.Name, MaxStateValues, v.Name, v.Sort, what)
		}
	}
	return nil
}

// sizesOf reports a parameter sort inside s without a size.
func sizesOf(s *expr.Sort, inst *eval.Instance) error {
	switch s.Kind {
	case expr.KParam:
		if inst.Sizes[s.Name] < 1 {
			return boundErrorf("no size for parameter sort %s (give %s=n with n >= 1)", s.Name, s.Name)
		}
	case expr.KRecord:
		for _, f := range s.Fields {
			if err := sizesOf(f.Sort, inst); err != nil {
				return err
			}
		}
	case expr.KMap:
		if err := sizesOf(s.Key, inst); err != nil {
			return err
		}
		return sizesOf(s.Elem, inst)
	case expr.KSet, expr.KSeq, expr.KOption:
		return sizesOf(s.Elem, inst)
	}
	return nil
}

// values returns the number of scalar values a value of s holds (per
// element for a sequence), saturating above MaxStateValues.
func values(s *expr.Sort, inst *eval.Instance) int64 {
	const sat = MaxStateValues + 1
	mul := func(a, b int64) int64 {
		if a == 0 || b == 0 {
			return 0
		}
		if a > sat/b {
			return sat
		}
		return min(a*b, sat)
	}
	switch s.Kind {
	case expr.KRecord:
		var n int64
		for _, f := range s.Fields {
			n = min(n+values(f.Sort, inst), sat)
		}
		return n
	case expr.KOption:
		return min(1+values(s.Elem, inst), sat)
	case expr.KSeq:
		return values(s.Elem, inst)
	case expr.KMap, expr.KSet:
		key, elem := s.Key, s.Elem
		if s.Kind == expr.KSet {
			key, elem = s.Elem, expr.BoolSort
		}
		k, ok := inst.Card(key)
		if !ok {
			return 1 // an infinite key sort: refused elsewhere
		}
		return mul(k, values(elem, inst))
	}
	return 1
}
