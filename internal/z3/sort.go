package z3

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Sort is a Z3 sort. The zero Sort is invalid; operations on it return an
// error of code ErrUsage.
type Sort struct{ h *handle }

// SortKind classifies sorts (Z3_sort_kind).
type SortKind int

// Sort kinds.
const (
	UninterpretedSortKind SortKind = C.Z3_UNINTERPRETED_SORT
	BoolSortKind          SortKind = C.Z3_BOOL_SORT
	IntSortKind           SortKind = C.Z3_INT_SORT
	RealSortKind          SortKind = C.Z3_REAL_SORT
	BVSortKind            SortKind = C.Z3_BV_SORT
	ArraySortKind         SortKind = C.Z3_ARRAY_SORT
	DatatypeSortKind      SortKind = C.Z3_DATATYPE_SORT
	SeqSortKind           SortKind = C.Z3_SEQ_SORT
	UnknownSortKind       SortKind = C.Z3_UNKNOWN_SORT
)

// String returns the kind's name.
func (k SortKind) String() string {
	switch k {
	case UninterpretedSortKind:
		return "uninterpreted"
	case BoolSortKind:
		return "bool"
	case IntSortKind:
		return "int"
	case RealSortKind:
		return "real"
	case BVSortKind:
		return "bitvector"
	case ArraySortKind:
		return "array"
	case DatatypeSortKind:
		return "datatype"
	case SeqSortKind:
		return "seq"
	}
	return "other"
}

func (ctx *Context) sortResult(op string, r C.lz_ptr) (Sort, error) {
	h, err := ctx.result(op, r)
	return Sort{h}, err
}

// BoolSort returns the Bool sort.
func (ctx *Context) BoolSort() (Sort, error) {
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	return ctx.sortResult("BoolSort", C.lz_mk_simple_sort(c, C.LZ_SORT_BOOL))
}

// IntSort returns the Int sort.
func (ctx *Context) IntSort() (Sort, error) {
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	return ctx.sortResult("IntSort", C.lz_mk_simple_sort(c, C.LZ_SORT_INT))
}

// RealSort returns the Real sort.
func (ctx *Context) RealSort() (Sort, error) {
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	return ctx.sortResult("RealSort", C.lz_mk_simple_sort(c, C.LZ_SORT_REAL))
}

// UninterpretedSort returns the uninterpreted sort with the given name. Z3
// hash-conses sorts: the same name gives the same sort.
func (ctx *Context) UninterpretedSort(name string) (Sort, error) {
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return ctx.sortResult("UninterpretedSort", C.lz_mk_uninterpreted_sort(c, cs))
}

// ArraySort returns the sort (Array dom rng).
func (ctx *Context) ArraySort(dom, rng Sort) (Sort, error) {
	const op = "ArraySort"
	if err := ctx.checkSorts(op, dom, rng); err != nil {
		return Sort{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(dom.h)
	defer runtime.KeepAlive(rng.h)
	return ctx.sortResult(op, C.lz_mk_array_sort(c, dom.c(), rng.c()))
}

// SeqSort returns the sort (Seq elem).
func (ctx *Context) SeqSort(elem Sort) (Sort, error) {
	const op = "SeqSort"
	if err := ctx.checkSorts(op, elem); err != nil {
		return Sort{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(elem.h)
	return ctx.sortResult(op, C.lz_mk_seq_sort(c, elem.c()))
}

// EnumSort declares an enumeration sort (Z3_mk_enumeration_sort) with the
// given element names. It returns the sort, one constant per element and
// one tester (recognizer) declaration per element, in order. The name must
// not have been used by EnumSort or DatatypeSort in this context before.
func (ctx *Context) EnumSort(name string, elems []string) (Sort, []AST, []FuncDecl, error) {
	const op = "EnumSort"
	if len(elems) == 0 {
		return Sort{}, nil, nil, usageErr(op, "enumeration sort %q has no elements", name)
	}
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, nil, nil, err
	}
	defer ctx.mu.Unlock()
	if err := ctx.claimDatatypeName(op, name); err != nil {
		return Sort{}, nil, nil, err
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	names := make([]*C.char, len(elems))
	for i, e := range elems {
		names[i] = C.CString(e)
	}
	defer func() {
		for _, p := range names {
			C.free(unsafe.Pointer(p))
		}
	}()
	cnames := cStringArray(names)
	defer C.free(unsafe.Pointer(cnames))
	n := len(elems)
	consts := (*C.Z3_func_decl)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.Z3_func_decl(nil)))))
	testers := (*C.Z3_func_decl)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.Z3_func_decl(nil)))))
	defer C.free(unsafe.Pointer(consts))
	defer C.free(unsafe.Pointer(testers))
	r := C.lz_mk_enum_sort(c, cname, C.uint(n), cnames, consts, testers)
	s, err := ctx.sortResult(op, r)
	if err != nil {
		return Sort{}, nil, nil, err
	}
	cs := unsafe.Slice(consts, n)
	ts := unsafe.Slice(testers, n)
	vals := make([]AST, n)
	tds := make([]FuncDecl, n)
	for i := 0; i < n; i++ {
		cd := ctx.wrap(unsafe.Pointer(cs[i]))
		tds[i] = FuncDecl{ctx.wrap(unsafe.Pointer(ts[i]))}
		h, err := ctx.result(op, C.lz_mk_app(c, C.Z3_func_decl(unsafe.Pointer(cd.p)), 0, nil))
		if err != nil {
			return Sort{}, nil, nil, err
		}
		vals[i] = AST{h}
		runtime.KeepAlive(cd)
	}
	return s, vals, tds, nil
}

// Field is a field of a datatype constructor. A zero Sort with Self set
// refers to the datatype being declared (a recursive field).
type Field struct {
	Name string // accessor name
	Sort Sort   // field sort; ignored when Self is set
	Self bool   // the field has the datatype's own sort
}

// ConstructorSpec describes one constructor of a datatype.
type ConstructorSpec struct {
	Name   string // constructor name
	Tester string // recognizer name; "" means "is-" + Name
	Fields []Field
}

// Constructor holds the declarations Z3 created for one datatype
// constructor.
type Constructor struct {
	Name        string
	Constructor FuncDecl   // apply with Context.Apply to build a value
	Tester      FuncDecl   // recognizer: Bool-valued, one argument
	Accessors   []FuncDecl // one per field, in order
}

// Datatype is a declared algebraic datatype.
type Datatype struct {
	Sort         Sort
	Constructors []Constructor
}

// DatatypeSort declares an algebraic datatype (Z3_mk_datatype) with the
// given constructors. Fields may refer to the datatype itself (Field.Self),
// so lists and trees can be declared; mutually recursive datatypes are not
// supported. Each datatype name (including enumeration sorts) can be
// declared once per context through the API; keep the returned *Datatype.
// Z3 4.8.12 names testers "is" (with the constructor as parameter, printed
// (_ is C)) whatever ConstructorSpec.Tester says; match on FuncDecl.Kind
// (OpDTIs) or keep the returned decls.
func (ctx *Context) DatatypeSort(name string, ctors []ConstructorSpec) (*Datatype, error) {
	const op = "DatatypeSort"
	if len(ctors) == 0 {
		return nil, usageErr(op, "datatype %q has no constructors", name)
	}
	var keep []*handle
	total := 0
	for _, k := range ctors {
		for _, f := range k.Fields {
			if !f.Self {
				if err := ctx.checkHandle(op, "field sort", f.Sort.h); err != nil {
					return nil, err
				}
				keep = append(keep, f.Sort.h)
			}
			total++
		}
	}
	c, err := ctx.lock()
	if err != nil {
		return nil, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(keep)
	if err := ctx.claimDatatypeName(op, name); err != nil {
		return nil, err
	}

	var strs []*C.char
	cstr := func(s string) *C.char {
		p := C.CString(s)
		strs = append(strs, p)
		return p
	}
	defer func() {
		for _, p := range strs {
			C.free(unsafe.Pointer(p))
		}
	}()
	nc := len(ctors)
	ctorNames := make([]*C.char, nc)
	testerNames := make([]*C.char, nc)
	fieldNames := make([]*C.char, 0, total)
	nfields := (*C.uint)(C.calloc(C.size_t(nc), C.size_t(unsafe.Sizeof(C.uint(0)))))
	defer C.free(unsafe.Pointer(nfields))
	nfs := unsafe.Slice(nfields, nc)
	ptrSize := C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))
	alloc := func(n int) unsafe.Pointer {
		if n == 0 {
			n = 1
		}
		return C.calloc(C.size_t(n), ptrSize)
	}
	fieldSorts := (*C.Z3_sort)(alloc(total))
	defer C.free(unsafe.Pointer(fieldSorts))
	fss := unsafe.Slice(fieldSorts, max(total, 1))
	j := 0
	for i, k := range ctors {
		ctorNames[i] = cstr(k.Name)
		t := k.Tester
		if t == "" {
			t = "is-" + k.Name
		}
		testerNames[i] = cstr(t)
		nfs[i] = C.uint(len(k.Fields))
		for _, f := range k.Fields {
			fieldNames = append(fieldNames, cstr(f.Name))
			if f.Self {
				fss[j] = nil
			} else {
				fss[j] = f.Sort.c()
			}
			j++
		}
	}
	cCtorNames := cStringArray(ctorNames)
	defer C.free(unsafe.Pointer(cCtorNames))
	cTesterNames := cStringArray(testerNames)
	defer C.free(unsafe.Pointer(cTesterNames))
	cFieldNames := cStringArray(fieldNames)
	defer C.free(unsafe.Pointer(cFieldNames))
	ctorsOut := (*C.Z3_func_decl)(alloc(nc))
	defer C.free(unsafe.Pointer(ctorsOut))
	testersOut := (*C.Z3_func_decl)(alloc(nc))
	defer C.free(unsafe.Pointer(testersOut))
	accOut := (*C.Z3_func_decl)(alloc(total))
	defer C.free(unsafe.Pointer(accOut))
	cname := cstr(name)

	r := C.lz_mk_datatype(c, cname, C.uint(nc), cCtorNames, cTesterNames, nfields,
		cFieldNames, fieldSorts, ctorsOut, testersOut, accOut)
	s, err := ctx.sortResult(op, r)
	if err != nil {
		return nil, err
	}
	co := unsafe.Slice(ctorsOut, nc)
	to := unsafe.Slice(testersOut, nc)
	ao := unsafe.Slice(accOut, max(total, 1))
	dt := &Datatype{Sort: s, Constructors: make([]Constructor, nc)}
	j = 0
	for i, k := range ctors {
		con := Constructor{
			Name:        k.Name,
			Constructor: FuncDecl{ctx.wrap(unsafe.Pointer(co[i]))},
			Tester:      FuncDecl{ctx.wrap(unsafe.Pointer(to[i]))},
		}
		for range k.Fields {
			con.Accessors = append(con.Accessors, FuncDecl{ctx.wrap(unsafe.Pointer(ao[j]))})
			j++
		}
		dt.Constructors[i] = con
	}
	return dt, nil
}

// claimDatatypeName records a datatype name declared through the API. Z3
// 4.8.12 identifies sorts by name: declaring a second, different datatype
// under the same name returns the first sort with the second's
// constructors, so redeclaration is refused. Called with the lock held.
// The name stays claimed even if Z3 then rejects the declaration.
func (ctx *Context) claimDatatypeName(op, name string) error {
	if ctx.datatypes[name] {
		return usageErr(op, "datatype %q is already declared in this context", name)
	}
	if ctx.datatypes == nil {
		ctx.datatypes = map[string]bool{}
	}
	ctx.datatypes[name] = true
	return nil
}

func (ctx *Context) checkSorts(op string, sorts ...Sort) error {
	for _, s := range sorts {
		if err := ctx.checkHandle(op, "sort", s.h); err != nil {
			return err
		}
	}
	return nil
}

func (s Sort) c() C.Z3_sort { return C.Z3_sort(unsafe.Pointer(s.h.p)) }

// IsNil reports whether s is the zero Sort.
func (s Sort) IsNil() bool { return s.h == nil }

// Context returns the context s belongs to (nil for the zero Sort).
func (s Sort) Context() *Context {
	if s.h == nil {
		return nil
	}
	return s.h.ctx
}

// String returns the SMT-LIB2 form of the sort, e.g. "(Array Int Bool)".
func (s Sort) String() string {
	if s.h == nil {
		return "<nil sort>"
	}
	return astString(s.h)
}

// Kind returns the sort's kind; UnknownSortKind for the zero Sort or a
// closed context.
func (s Sort) Kind() SortKind {
	if s.h == nil {
		return UnknownSortKind
	}
	c, err := s.h.ctx.lock()
	if err != nil {
		return UnknownSortKind
	}
	defer s.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return SortKind(C.Z3_get_sort_kind(c, s.c()))
}

// Name returns the sort's name (e.g. "Int", "Array", or the name of an
// uninterpreted or datatype sort).
func (s Sort) Name() string {
	if s.h == nil {
		return ""
	}
	c, err := s.h.ctx.lock()
	if err != nil {
		return ""
	}
	defer s.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	name, _ := goString("Sort.Name", C.lz_sort_name(c, s.c()))
	return name
}

// Equal reports whether s and t are the same sort.
func (s Sort) Equal(t Sort) bool { return handlesEqual(s.h, t.h) }

// ArrayDomain returns the domain of an array sort.
func (s Sort) ArrayDomain() (Sort, error) { return s.arrayPart("ArrayDomain", 0) }

// ArrayRange returns the range of an array sort.
func (s Sort) ArrayRange() (Sort, error) { return s.arrayPart("ArrayRange", 1) }

func (s Sort) arrayPart(op string, rng C.int) (Sort, error) {
	if s.h == nil {
		return Sort{}, usageErr(op, "zero sort")
	}
	ctx := s.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return ctx.sortResult(op, C.lz_get_array_sort(c, s.c(), rng))
}

// SeqElem returns the element sort of a sequence sort.
func (s Sort) SeqElem() (Sort, error) {
	const op = "SeqElem"
	if s.h == nil {
		return Sort{}, usageErr(op, "zero sort")
	}
	ctx := s.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return ctx.sortResult(op, C.lz_get_seq_basis(c, s.c()))
}

// DatatypeConstructors returns the constructors, testers and accessors of a
// datatype sort (including enumeration sorts, whose constructors have no
// fields). Constructor names are those Z3 reports.
func (s Sort) DatatypeConstructors() ([]Constructor, error) {
	const op = "DatatypeConstructors"
	if s.h == nil {
		return nil, usageErr(op, "zero sort")
	}
	ctx := s.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return nil, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	if SortKind(C.Z3_get_sort_kind(c, s.c())) != DatatypeSortKind {
		return nil, usageErr(op, "not a datatype sort")
	}
	n := int(C.Z3_get_datatype_sort_num_constructors(c, s.c()))
	out := make([]Constructor, n)
	for i := 0; i < n; i++ {
		ch, err := ctx.result(op, C.lz_get_datatype_decl(c, s.c(), 0, C.uint(i), 0))
		if err != nil {
			return nil, err
		}
		th, err := ctx.result(op, C.lz_get_datatype_decl(c, s.c(), 1, C.uint(i), 0))
		if err != nil {
			return nil, err
		}
		con := Constructor{Constructor: FuncDecl{ch}, Tester: FuncDecl{th}}
		con.Name, err = goString(op, C.lz_get_decl_name(c, C.Z3_func_decl(unsafe.Pointer(ch.p))))
		if err != nil {
			return nil, err
		}
		arity := int(C.Z3_get_arity(c, C.Z3_func_decl(unsafe.Pointer(ch.p))))
		for j := 0; j < arity; j++ {
			ah, err := ctx.result(op, C.lz_get_datatype_decl(c, s.c(), 2, C.uint(i), C.uint(j)))
			if err != nil {
				return nil, err
			}
			con.Accessors = append(con.Accessors, FuncDecl{ah})
		}
		out[i] = con
	}
	return out, nil
}

// handlesEqual compares two handles by Z3 identity (hash-consed pointers).
func handlesEqual(a, b *handle) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ctx == b.ctx && a.p == b.p
}

// astString prints any AST-like handle.
func astString(h *handle) string {
	c, err := h.ctx.lock()
	if err != nil {
		return "<closed>"
	}
	defer h.ctx.mu.Unlock()
	defer runtime.KeepAlive(h)
	s, err := goString("String", C.lz_ast_to_string(c, h.p))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return s
}
