package encode

import (
	"fmt"
	"strconv"

	"ladder/internal/logic"
	"ladder/ioa/expr"
)

// isLeaf reports whether values of s are represented by a single term.
// Records and sequences are flattened into parts, and so is a map whose
// values are (its parts are maps into the parts of the value sort).
func isLeaf(s *expr.Sort) bool {
	switch s.Kind {
	case expr.KRecord, expr.KSeq:
		return false
	case expr.KMap:
		return isLeaf(s.Elem)
	}
	return true
}

// partSorts returns the language sorts of the parts of a non-leaf sort:
// a record's fields; a sequence's length (Int) and elements (Map[Int, X]);
// a map's parts lifted over its key sort.
func partSorts(s *expr.Sort) []*expr.Sort {
	switch s.Kind {
	case expr.KRecord:
		out := make([]*expr.Sort, len(s.Fields))
		for i, f := range s.Fields {
			out[i] = f.Sort
		}
		return out
	case expr.KSeq:
		return []*expr.Sort{expr.IntSort, expr.MapOf(expr.IntSort, s.Elem)}
	case expr.KMap:
		ps := partSorts(s.Elem)
		out := make([]*expr.Sort, len(ps))
		for i, p := range ps {
			out[i] = expr.MapOf(s.Key, p)
		}
		return out
	}
	return nil
}

// partNames returns the symbol-name suffixes of the parts of a non-leaf sort.
func partNames(s *expr.Sort) []string {
	switch s.Kind {
	case expr.KRecord:
		out := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			out[i] = f.Name
		}
		return out
	case expr.KSeq:
		return []string{"len", "elems"}
	case expr.KMap:
		return partNames(s.Elem)
	}
	return nil
}

// hasKind reports whether s mentions a sort of kind k.
func hasKind(s *expr.Sort, k expr.SortKind) bool {
	if s == nil {
		return false
	}
	if s.Kind == k {
		return true
	}
	switch s.Kind {
	case expr.KRecord:
		for _, f := range s.Fields {
			if hasKind(f.Sort, k) {
				return true
			}
		}
	case expr.KMap:
		return hasKind(s.Key, k) || hasKind(s.Elem, k)
	case expr.KSet, expr.KSeq, expr.KOption:
		return hasKind(s.Elem, k)
	}
	return false
}

// checkKey reports an error for a sort that cannot be a map key, set
// element or lambda binder sort in proofs: one mentioning Seq (whose
// packed representation has junk values outside its length) or Nat
// (whose representation, Int, has negative junk values). Junk keys would
// make extensional equality of arrays stricter than the language's.
func checkKey(s *expr.Sort) error {
	if hasKind(s, expr.KSeq) {
		return fmt.Errorf("the prover does not support %s as a map key, set element or lambda binder sort (it contains a sequence)", s)
	}
	if hasKind(s, expr.KNat) {
		return fmt.Errorf("the prover does not support %s as a map key, set element or lambda binder sort (it contains Nat; use Int)", s)
	}
	return nil
}

// leafSort returns the logic sort of the single term representing a value
// of leaf sort s.
func (e *Encoder) leafSort(s *expr.Sort) (*logic.Sort, error) {
	if s == nil || s.IsInvalid() {
		return nil, fmt.Errorf("ill-sorted expression (no sort)")
	}
	switch s.Kind {
	case expr.KBool:
		return logic.BoolSort(), nil
	case expr.KInt, expr.KNat:
		return logic.IntSort(), nil
	case expr.KParam:
		return e.usort(s.Name), nil
	case expr.KEnum:
		dt, err := e.enumDatatype(s)
		if err != nil {
			return nil, err
		}
		return logic.DatatypeSort(dt), nil
	case expr.KOption:
		dt, err := e.optionDatatype(s)
		if err != nil {
			return nil, err
		}
		return logic.DatatypeSort(dt), nil
	case expr.KSet:
		if err := checkKey(s.Elem); err != nil {
			return nil, err
		}
		k, err := e.packedSort(s.Elem)
		if err != nil {
			return nil, err
		}
		return logic.ArraySort(k, logic.BoolSort()), nil
	case expr.KMap:
		if !isLeaf(s.Elem) {
			return nil, fmt.Errorf("internal: leafSort of a flattened map %s", s)
		}
		if err := checkKey(s.Key); err != nil {
			return nil, err
		}
		k, err := e.packedSort(s.Key)
		if err != nil {
			return nil, err
		}
		v, err := e.leafSort(s.Elem)
		if err != nil {
			return nil, err
		}
		return logic.ArraySort(k, v), nil
	}
	return nil, fmt.Errorf("internal: leafSort of %s", s)
}

// packedSort returns the logic sort of the single-term (packed) encoding of
// s: the leaf sort for leaf sorts, a datatype for records and sequences, an
// array of packed values for maps.
func (e *Encoder) packedSort(s *expr.Sort) (*logic.Sort, error) {
	if s == nil || s.IsInvalid() {
		return nil, fmt.Errorf("ill-sorted expression (no sort)")
	}
	if isLeaf(s) {
		return e.leafSort(s)
	}
	switch s.Kind {
	case expr.KRecord:
		dt, err := e.recordDatatype(s)
		if err != nil {
			return nil, err
		}
		return logic.DatatypeSort(dt), nil
	case expr.KSeq:
		dt, err := e.seqDatatype(s)
		if err != nil {
			return nil, err
		}
		return logic.DatatypeSort(dt), nil
	case expr.KMap:
		if err := checkKey(s.Key); err != nil {
			return nil, err
		}
		k, err := e.packedSort(s.Key)
		if err != nil {
			return nil, err
		}
		v, err := e.packedSort(s.Elem)
		if err != nil {
			return nil, err
		}
		return logic.ArraySort(k, v), nil
	}
	return nil, fmt.Errorf("internal: packedSort of %s", s)
}

// declName returns the datatype name for the declared sort s (an enum or
// record): its own name, or name~k when an earlier, different sort of the
// same name (from another automaton) was registered first.
func (e *Encoder) declName(s *expr.Sort) string {
	list := e.declared[s.Name]
	for i, n := range list {
		if sameDecl(n, s) {
			if i == 0 {
				return s.Name
			}
			return s.Name + "~" + strconv.Itoa(i+1)
		}
	}
	e.declared[s.Name] = append(list, s)
	if len(list) == 0 {
		return s.Name
	}
	return s.Name + "~" + strconv.Itoa(len(list)+1)
}

// sameDecl reports whether two enum or record sorts declare the same thing.
func sameDecl(a, b *expr.Sort) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind || a.Name != b.Name || len(a.Elems) != len(b.Elems) || len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.Elems {
		if a.Elems[i] != b.Elems[i] {
			return false
		}
	}
	for i := range a.Fields {
		if a.Fields[i].Name != b.Fields[i].Name || !expr.Identical(a.Fields[i].Sort, b.Fields[i].Sort) {
			return false
		}
	}
	return true
}

func (e *Encoder) datatype(name string, ctors ...logic.Constructor) (*logic.Datatype, error) {
	if dt, ok := e.dts[name]; ok {
		return dt, nil
	}
	dt, err := logic.NewDatatype(name, ctors...)
	if err != nil {
		return nil, err
	}
	e.dts[name] = dt
	return dt, nil
}

// enumDatatype returns the datatype of enum sort s: one nullary
// constructor E.A per constant A, in declaration order.
func (e *Encoder) enumDatatype(s *expr.Sort) (*logic.Datatype, error) {
	if dt, ok := e.enums[s]; ok {
		return dt, nil // declName and datatype answer the same for the same sort
	}
	if len(s.Elems) == 0 {
		return nil, fmt.Errorf("enum %s has no constants", s.Name)
	}
	name := e.declName(s)
	ctors := make([]logic.Constructor, len(s.Elems))
	for i, c := range s.Elems {
		ctors[i] = logic.Constructor{Name: name + "." + c}
	}
	dt, err := e.datatype(name, ctors...)
	if err == nil {
		e.enums[s] = dt
	}
	return dt, err
}

// optionDatatype returns Option<X>: constructors None<X> and Some<X> with
// the field Some<X>.val of X's packed sort. The names are SMT-LIB simple
// symbols (label), so that every solver reads the testers ((_ is Some<X>)
// x) of a dumped problem: cvc5 1.0.3 rejects a quoted symbol there.
func (e *Encoder) optionDatatype(s *expr.Sort) (*logic.Datatype, error) {
	x, err := e.packedSort(s.Elem)
	if err != nil {
		return nil, err
	}
	suffix := "<" + label(x) + ">"
	return e.datatype("Option"+suffix,
		logic.Constructor{Name: "None" + suffix},
		logic.Constructor{Name: "Some" + suffix, Fields: []logic.Field{{Name: "Some" + suffix + ".val", Sort: x}}})
}

// recordDatatype returns the packed form of record sort s: one constructor
// R.mk with fields R.f of the fields' packed sorts.
func (e *Encoder) recordDatatype(s *expr.Sort) (*logic.Datatype, error) {
	name := e.declName(s)
	fields := make([]logic.Field, len(s.Fields))
	for i, f := range s.Fields {
		fs, err := e.packedSort(f.Sort)
		if err != nil {
			return nil, err
		}
		fields[i] = logic.Field{Name: name + "." + f.Name, Sort: fs}
	}
	return e.datatype(name, logic.Constructor{Name: name + ".mk", Fields: fields})
}

// seqDatatype returns the packed form of Seq[X]: constructor Seq<X>.mk
// with fields Seq<X>.len (Int) and Seq<X>.elems (Array Int X').
func (e *Encoder) seqDatatype(s *expr.Sort) (*logic.Datatype, error) {
	x, err := e.packedSort(s.Elem)
	if err != nil {
		return nil, err
	}
	name := "Seq<" + label(x) + ">"
	return e.datatype(name, logic.Constructor{Name: name + ".mk", Fields: []logic.Field{
		{Name: name + ".len", Sort: logic.IntSort()},
		{Name: name + ".elems", Sort: logic.ArraySort(logic.IntSort(), x)},
	}})
}

// label returns a name for a logic sort, for building datatype names that
// are SMT-LIB simple symbols when the sorts' names are: Bool, Int, the
// declared name, or Array<D->R>.
func label(s *logic.Sort) string {
	switch s.Kind() {
	case logic.SortBool:
		return "Bool"
	case logic.SortInt:
		return "Int"
	case logic.SortArray:
		return "Array<" + label(s.Domain()) + "->" + label(s.Range()) + ">"
	}
	return s.Name()
}
