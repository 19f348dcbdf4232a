package logic

import (
	"fmt"
	"strings"
)

// SortKind classifies a Sort.
type SortKind uint8

// The sort kinds.
const (
	SortBool          SortKind = iota + 1 // Bool
	SortInt                               // Int (mathematical integers)
	SortUninterpreted                     // a declared sort (declare-sort Name 0)
	SortArray                             // (Array Dom Rng)
	SortDatatype                          // a non-recursive algebraic datatype
)

// Sort is a sort of the logic. Sorts are immutable; compare them with Same.
type Sort struct {
	kind     SortKind
	name     string // uninterpreted and datatype sorts
	dom, rng *Sort
	dt       *Datatype
	key      string // the SMT-LIB text of the sort
	hash     uint64 // mixString(fnvOffset, key), for the hash of a term of the sort
}

// hashed sets s's hash from its key and returns s.
func hashed(s *Sort) *Sort {
	s.hash = mixString(fnvOffset, s.key)
	return s
}

var (
	boolSort = hashed(&Sort{kind: SortBool, key: "Bool"})
	intSort  = hashed(&Sort{kind: SortInt, key: "Int"})
)

// BoolSort returns the sort Bool.
func BoolSort() *Sort { return boolSort }

// IntSort returns the sort Int.
func IntSort() *Sort { return intSort }

// UninterpretedSort returns the declared sort called name.
func UninterpretedSort(name string) *Sort {
	return hashed(&Sort{kind: SortUninterpreted, name: name, key: Symbol(name)})
}

// ArraySort returns (Array dom rng).
func ArraySort(dom, rng *Sort) *Sort {
	return hashed(&Sort{kind: SortArray, dom: dom, rng: rng, key: "(Array " + dom.key + " " + rng.key + ")"})
}

// DatatypeSort returns the sort of datatype dt.
func DatatypeSort(dt *Datatype) *Sort {
	if dt.sort != nil {
		return dt.sort
	}
	return hashed(&Sort{kind: SortDatatype, name: dt.name, dt: dt, key: Symbol(dt.name)})
}

// Kind returns the sort's kind.
func (s *Sort) Kind() SortKind { return s.kind }

// Name returns the name of an uninterpreted or datatype sort, "" otherwise.
func (s *Sort) Name() string { return s.name }

// Domain returns the index sort of an array sort, nil otherwise.
func (s *Sort) Domain() *Sort { return s.dom }

// Range returns the element sort of an array sort, nil otherwise.
func (s *Sort) Range() *Sort { return s.rng }

// Datatype returns the datatype of a datatype sort, nil otherwise.
func (s *Sort) Datatype() *Datatype { return s.dt }

// String returns the sort's SMT-LIB text, e.g. "(Array T Bool)".
func (s *Sort) String() string {
	if s == nil {
		return "<nil>"
	}
	return s.key
}

// Same reports whether a and b are the same sort. Datatype and
// uninterpreted sorts are identified by name (Problem.Check rejects two
// different datatypes of one name).
func Same(a, b *Sort) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.key == b.key
}

// Datatype is a non-recursive algebraic datatype: a name and constructors,
// each with named fields (selectors). Constructor and field names are
// global SMT-LIB function names: they must be unique across a Problem.
// Datatypes are immutable.
type Datatype struct {
	name  string
	ctors []Constructor
	sort  *Sort // its sort, made with it: DatatypeSort returns it
}

// Constructor is a datatype constructor with its fields.
type Constructor struct {
	Name   string
	Fields []Field
}

// Field is a datatype constructor field: its selector name and sort.
type Field struct {
	Name string
	Sort *Sort
}

// NewDatatype returns the datatype name with constructors ctors (copied).
// It reports an error for an empty constructor list, a field that refers to
// the datatype itself (recursion is not supported) or a nil sort.
func NewDatatype(name string, ctors ...Constructor) (*Datatype, error) {
	if len(ctors) == 0 {
		return nil, fmt.Errorf("datatype %s has no constructors", name)
	}
	dt := &Datatype{name: name}
	for _, c := range ctors {
		cc := Constructor{Name: c.Name, Fields: append([]Field(nil), c.Fields...)}
		for _, f := range cc.Fields {
			if f.Sort == nil {
				return nil, fmt.Errorf("datatype %s: field %s has no sort", name, f.Name)
			}
			if mentionsDatatype(f.Sort, name) {
				return nil, fmt.Errorf("datatype %s: field %s is recursive", name, f.Name)
			}
		}
		dt.ctors = append(dt.ctors, cc)
	}
	dt.sort = DatatypeSort(dt)
	return dt, nil
}

func mentionsDatatype(s *Sort, name string) bool {
	switch s.kind {
	case SortArray:
		return mentionsDatatype(s.dom, name) || mentionsDatatype(s.rng, name)
	case SortDatatype:
		if s.name == name {
			return true
		}
		for _, c := range s.dt.ctors {
			for _, f := range c.Fields {
				if mentionsDatatype(f.Sort, name) {
					return true
				}
			}
		}
	}
	return false
}

// Name returns the datatype's name.
func (d *Datatype) Name() string { return d.name }

// NumConstructors returns the number of constructors.
func (d *Datatype) NumConstructors() int { return len(d.ctors) }

// Constructor returns constructor i (a copy).
func (d *Datatype) Constructor(i int) Constructor {
	c := d.ctors[i]
	return Constructor{Name: c.Name, Fields: append([]Field(nil), c.Fields...)}
}

// ConstructorIndex returns the index of the constructor called name, or -1.
func (d *Datatype) ConstructorIndex(name string) int {
	for i, c := range d.ctors {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// decl returns the datatype's SMT-LIB declaration body:
// ((C1 (f1 S1) ...) (C2) ...).
func (d *Datatype) decl() string {
	var b strings.Builder
	b.WriteString("(")
	for i, c := range d.ctors {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("(")
		b.WriteString(Symbol(c.Name))
		for _, f := range c.Fields {
			b.WriteString(" (")
			b.WriteString(Symbol(f.Name))
			b.WriteString(" ")
			b.WriteString(f.Sort.key)
			b.WriteString(")")
		}
		b.WriteString(")")
	}
	b.WriteString(")")
	return b.String()
}

// sameDatatype reports whether two datatypes have identical definitions.
func sameDatatype(a, b *Datatype) bool {
	return a == b || (a.name == b.name && a.decl() == b.decl())
}

// reserved are SMT-LIB reserved words and Z3 keywords that may not be
// printed as simple symbols.
var reserved = map[string]bool{
	"_": true, "!": true, "as": true, "let": true, "exists": true, "forall": true,
	"match": true, "par": true, "lambda": true, "BINARY": true, "DECIMAL": true,
	"HEXADECIMAL": true, "NUMERAL": true, "STRING": true,
}

// Symbol returns name as an SMT-LIB symbol: unchanged when it is a valid
// simple symbol, otherwise quoted with |...|. Names containing | or \ cannot
// be quoted; CheckName reports them.
func Symbol(name string) string {
	if isSimpleSymbol(name) {
		return name
	}
	return "|" + name + "|"
}

func isSimpleSymbol(s string) bool {
	if s == "" || reserved[s] || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("~!@$%^&*_-+=<>.?/", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// CheckName reports whether name may name a constant, sort, constructor or
// field: non-empty, printable, without | or \, and not beginning with the
// printer's reserved % or with Z3's reserved @ or '.'.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	if name[0] == '%' || name[0] == '@' || name[0] == '.' {
		return fmt.Errorf("name %q: the first character is reserved", name)
	}
	for _, r := range name {
		if r == '|' || r == '\\' || r < ' ' || r == 0x7f {
			return fmt.Errorf("name %q contains a character that cannot be quoted", name)
		}
	}
	return nil
}
