// This file implements sorts (the types of the expression language).

package expr

import (
	"slices"
	"strings"
)

// SortKind classifies a Sort.
type SortKind int

// The sort kinds.
const (
	KInvalid SortKind = iota // the sort of an ill-sorted expression; suppresses follow-on errors
	KBool
	KInt
	KNat    // Int restricted to values >= 0
	KEnum   // a declared enumeration: Elems
	KParam  // a declared parameter sort (T, L, V): uninterpreted in proofs, Size elements when explored
	KRecord // a declared record: Fields; also the sort of a whole automaton state (State != nil)
	KMap    // Map[Key, Elem]: a total map
	KSet    // Set[Elem]
	KSeq    // Seq[Elem]: a finite sequence
	KOption // Option[Elem]: None or Some(x)
	KEvent  // the sort of an event term E(args) as written in a view (see EventSort)
)

// Sort is the sort of an expression. Sorts are immutable once built; compare
// them with Identical, not ==.
type Sort struct {
	Kind   SortKind
	Name   string   // KEnum, KParam, KRecord: the declared name
	Elems  []string // KEnum: the constants in declaration order
	Fields []Field  // KRecord: the fields in declaration order
	Key    *Sort    // KMap: the key sort
	Elem   *Sort    // KMap: value sort; KSet, KSeq, KOption: element sort
	// State is non-nil for the record sort standing for the whole state of an
	// automaton (its fields are the state variables); it is the automaton
	// (an *ioa.Automaton, kept as any to avoid an import cycle).
	State any
}

// Field is a record field.
type Field struct {
	Name string
	Sort *Sort
}

// The basic sorts. They are never modified.
var (
	InvalidSort = &Sort{Kind: KInvalid}
	BoolSort    = &Sort{Kind: KBool}
	IntSort     = &Sort{Kind: KInt}
	NatSort     = &Sort{Kind: KNat}
	// EventSort is the sort the checker gives an event term E(args) (a view
	// entry); it is not the sort of any value.
	EventSort = &Sort{Kind: KEvent}
)

// MapOf returns Map[k, v].
func MapOf(k, v *Sort) *Sort { return &Sort{Kind: KMap, Key: k, Elem: v} }

// SetOf returns Set[e].
func SetOf(e *Sort) *Sort { return &Sort{Kind: KSet, Elem: e} }

// SeqOf returns Seq[e].
func SeqOf(e *Sort) *Sort { return &Sort{Kind: KSeq, Elem: e} }

// OptionOf returns Option[e].
func OptionOf(e *Sort) *Sort { return &Sort{Kind: KOption, Elem: e} }

// IsNumeric reports whether s is Int or Nat.
func (s *Sort) IsNumeric() bool { return s != nil && (s.Kind == KInt || s.Kind == KNat) }

// IsInvalid reports whether s is nil or the invalid sort.
func (s *Sort) IsInvalid() bool { return s == nil || s.Kind == KInvalid }

// FieldIndex returns the index of the named field of a record sort, or -1.
func (s *Sort) FieldIndex(name string) int {
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// EnumIndex returns the index of the named constant of an enum sort, or -1.
func (s *Sort) EnumIndex(name string) int {
	for i, e := range s.Elems {
		if e == name {
			return i
		}
	}
	return -1
}

// Identical reports whether a and b are the same sort. Named sorts are
// identical when their kinds and names agree; Nat and Int are distinct
// (see Assignable).
func Identical(a, b *Sort) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KParam:
		return a.Name == b.Name
	case KEnum:
		// Two declarations of one name are one sort only when they declare
		// the same constants in the same order (two automata may each
		// declare an enum PC of their own).
		return a.Name == b.Name && slices.Equal(a.Elems, b.Elems)
	case KRecord:
		if a.Name != b.Name || len(a.Fields) != len(b.Fields) {
			return false
		}
		if a.State != nil || b.State != nil {
			return a.State == b.State
		}
		for i := range a.Fields {
			if a.Fields[i].Name != b.Fields[i].Name || !Identical(a.Fields[i].Sort, b.Fields[i].Sort) {
				return false
			}
		}
		return true
	case KMap:
		return Identical(a.Key, b.Key) && Identical(a.Elem, b.Elem)
	case KSet, KSeq, KOption:
		return Identical(a.Elem, b.Elem)
	}
	return true
}

// Assignable reports whether a value of sort from may be used where sort to
// is expected: identical sorts, or Int and Nat in either direction (a Nat
// target carries the implicit range condition >= 0, checked by the explorer
// and proved by the prover), componentwise for constructed sorts.
func Assignable(from, to *Sort) bool {
	if from.IsInvalid() || to.IsInvalid() {
		return true // an error was already reported
	}
	if from.IsNumeric() && to.IsNumeric() {
		return true
	}
	if from.Kind != to.Kind {
		return false
	}
	switch from.Kind {
	case KMap:
		return Identical(from.Key, to.Key) && Assignable(from.Elem, to.Elem)
	case KSet, KSeq, KOption:
		return Assignable(from.Elem, to.Elem)
	}
	return Identical(from, to)
}

// String returns the sort in the language's notation, e.g. "Map[T, Option[V]]".
func (s *Sort) String() string {
	var b strings.Builder
	s.write(&b, false)
	return b.String()
}

// Distinct returns the spellings of a and b for a message about both: their
// names, or, when two different sorts print alike (an enum of one name
// declared by two automata), their names with every enum's constants.
func Distinct(a, b *Sort) (string, string) {
	x, y := a.String(), b.String()
	if x != y || Identical(a, b) {
		return x, y
	}
	var bx, by strings.Builder
	a.write(&bx, true)
	b.write(&by, true)
	return bx.String(), by.String()
}

// write spells s; with elems, an enum's constants follow its name.
func (s *Sort) write(b *strings.Builder, elems bool) {
	if s == nil {
		b.WriteString("<nil>")
		return
	}
	switch s.Kind {
	case KInvalid:
		b.WriteString("invalid")
	case KBool:
		b.WriteString("Bool")
	case KInt:
		b.WriteString("Int")
	case KNat:
		b.WriteString("Nat")
	case KEvent:
		b.WriteString("event")
	case KEnum, KParam, KRecord:
		b.WriteString(s.Name)
		if elems && s.Kind == KEnum {
			b.WriteString(" {" + strings.Join(s.Elems, ", ") + "}")
		}
	case KMap:
		b.WriteString("Map[")
		s.Key.write(b, elems)
		b.WriteString(", ")
		s.Elem.write(b, elems)
		b.WriteString("]")
	case KSet, KSeq, KOption:
		b.WriteString([...]string{KSet: "Set", KSeq: "Seq", KOption: "Option"}[s.Kind])
		b.WriteString("[")
		s.Elem.write(b, elems)
		b.WriteString("]")
	}
}

// HasNat reports whether s is Nat or is built from a sort that mentions Nat
// (a record field, a map key or value, an element sort).
func (s *Sort) HasNat() bool {
	if s == nil {
		return false
	}
	switch s.Kind {
	case KNat:
		return true
	case KRecord:
		for _, f := range s.Fields {
			if f.Sort.HasNat() {
				return true
			}
		}
	case KMap:
		return s.Key.HasNat() || s.Elem.HasNat()
	case KSet, KSeq, KOption:
		return s.Elem.HasNat()
	}
	return false
}
