// This file implements Value, its constructors and accessors, and structural
// equality.

package eval

// Value is an immutable value of some sort. Its meaning depends on the sort,
// which the value does not carry: the same Value may be read at different
// sorts, as the bits of a word may. Values are compared with Equal, printed
// with Format, and built with the constructors of this file and the Map and
// Set methods of Instance.
//
// The representation (see doc.go) is canonical: two values of one sort are
// equal exactly when they are structurally identical, so equality,
// hashing and encoding are structural. Operations never modify a Value in
// place; updates copy the path they change and share the rest.
type Value struct {
	n  int64   // Bool 0/1, Int, enum ordinal, param index, Option tag (0 None, 1 Some)
	vs []Value // record fields, Seq elements, Some's content, table entries of maps and sets
}

// smallOne holds one-element slices of the scalars 0..255, shared by Some
// values of small scalars so that building them does not allocate. The
// table is built once and never written afterwards.
var smallOne = func() (t [256][1]Value) {
	for i := range t {
		t[i][0] = Value{n: int64(i)}
	}
	return t
}()

// Bool returns the Bool value b.
func Bool(b bool) Value {
	if b {
		return Value{n: 1}
	}
	return Value{}
}

// Int returns the Int (or Nat) value i.
func Int(i int64) Value { return Value{n: i} }

// Enum returns the enum constant with ordinal i (its position in the enum's
// declaration, from 0).
func Enum(i int) Value { return Value{n: int64(i)} }

// Elem returns element #i of a parameter sort (T#i).
func Elem(i int) Value { return Value{n: int64(i)} }

// Record returns the record with the given field values, in the order of
// the record sort's fields. The slice is copied.
func Record(fields ...Value) Value {
	return Value{vs: append([]Value(nil), fields...)}
}

// None returns the Option value None.
func None() Value { return Value{} }

// Some returns the Option value Some(x).
func Some(x Value) Value {
	if x.vs == nil && x.n >= 0 && x.n < int64(len(smallOne)) {
		return Value{n: 1, vs: smallOne[x.n][:]}
	}
	return Value{n: 1, vs: []Value{x}}
}

// Seq returns the sequence of the given elements. The slice is copied.
func Seq(elems ...Value) Value {
	return Value{vs: append([]Value(nil), elems...)}
}

// Bool returns the truth value of a Bool value.
func (v Value) Bool() bool { return v.n != 0 }

// Int returns the integer of an Int or Nat value.
func (v Value) Int() int64 { return v.n }

// Ord returns the ordinal of an enum constant or the index of a parameter
// element.
func (v Value) Ord() int { return int(v.n) }

// IsSome reports whether an Option value is Some(x).
func (v Value) IsSome() bool { return v.n != 0 && len(v.vs) == 1 }

// Get returns x for Some(x); for None it returns the zero Value, which is
// the default value of the scalar sorts only (use Instance.Default for the
// default of a constructed sort).
func (v Value) Get() Value {
	if v.IsSome() {
		return v.vs[0]
	}
	return Value{}
}

// Len returns the length of a Seq value or the number of fields of a record.
func (v Value) Len() int { return len(v.vs) }

// At returns element i of a Seq value or field i of a record, and false if
// i is out of range.
func (v Value) At(i int) (Value, bool) {
	if i < 0 || i >= len(v.vs) {
		return Value{}, false
	}
	return v.vs[i], true
}

// Elems returns a copy of the elements of a Seq value or the fields of a record.
func (v Value) Elems() []Value { return append([]Value(nil), v.vs...) }

// Equal reports whether a and b are the same value of a sort. Because the
// representation is canonical this is structural equality, which is the
// language's equality: extensional for maps, sets and sequences.
func Equal(a, b Value) bool {
	if a.n != b.n || len(a.vs) != len(b.vs) {
		return false
	}
	if len(a.vs) > 0 && &a.vs[0] == &b.vs[0] {
		// the same elements: values are never modified in place
		return true
	}
	for i := range a.vs {
		if !Equal(a.vs[i], b.vs[i]) {
			return false
		}
	}
	return true
}

// Equal reports whether v and w are the same value (see the function Equal).
func (v Value) Equal(w Value) bool { return Equal(v, w) }

// State is a state of an automaton: one value per state variable, in the
// order of Automaton.Vars. States are immutable once built, like values.
type State []Value

// Equal reports whether s and t assign equal values to every variable.
func (s State) Equal(t State) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if !Equal(s[i], t[i]) {
			return false
		}
	}
	return true
}

// AsValue returns s as a value of the automaton's state record sort
// (Automaton.StateSort), as a proof file's `c` stands for a whole state.
func (s State) AsValue() Value { return Value{vs: s} }

// StateOf returns the state that a value of a state record sort stands for.
func StateOf(v Value) State { return State(v.vs) }

// Same reports whether a and b are the same value object: identical
// scalars, or composites sharing their storage. Values are immutable, so
// same values are equal; a successor that a step computes from a state
// shares the memory of every variable the step leaves alone.
func Same(a, b Value) bool {
	if a.n != b.n || len(a.vs) != len(b.vs) {
		return false
	}
	return len(a.vs) == 0 || &a.vs[0] == &b.vs[0]
}

// SharesVars reports whether t holds s's values of the variables vars in
// the same memory (Same): values are never changed in place, so those
// variables are then equal, and a successor computed from s shares the
// memory of every variable its step leaves alone. (Equal values in
// different memory are reported as not shared.)
func SharesVars(s, t State, vars []int) bool {
	for _, v := range vars {
		if v < 0 || v >= len(s) || v >= len(t) || !Same(s[v], t[v]) {
			return false
		}
	}
	return true
}
