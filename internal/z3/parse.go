package z3

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Parsed is the result of Context.ParseSMTLIB2.
type Parsed struct {
	// Assertions are the script's assertions, in order.
	Assertions []AST
	// Consts are the uninterpreted constants occurring in the assertions
	// (also inside quantifier bodies), by name, as terms. Constants that
	// are declared but never used do not appear: they cannot influence a
	// check.
	Consts map[string]AST
	// Funcs are the uninterpreted functions of arity > 0 occurring in the
	// assertions, by name.
	Funcs map[string]FuncDecl
}

// ParseSMTLIB2 parses an SMT-LIB2 script (Z3_parse_smtlib2_string) and
// returns its assertions and the uninterpreted symbols they use. sorts and
// decls are predeclared symbols the script may use without declaring them;
// they are known by their Z3 names. A datatype sort in sorts brings its
// constructors, testers and accessors along; do not list those in decls
// (Z3 reports them as already declared). A syntax or sort error returns an
// *Error with code ErrParser and Z3's message (which carries line and
// column).
func (ctx *Context) ParseSMTLIB2(text string, sorts []Sort, decls []FuncDecl) (*Parsed, error) {
	const op = "ParseSMTLIB2"
	if err := ctx.checkSorts(op, sorts...); err != nil {
		return nil, err
	}
	for _, d := range decls {
		if err := ctx.checkHandle(op, "FuncDecl", d.h); err != nil {
			return nil, err
		}
	}
	c, err := ctx.lock()
	if err != nil {
		return nil, err
	}
	defer ctx.mu.Unlock()
	v, err := ctx.parseLocked(op, c, text, sorts, decls)
	if err != nil {
		return nil, err
	}
	defer C.lz_vec_dec_ref(c, v)
	p := &Parsed{Consts: map[string]AST{}, Funcs: map[string]FuncDecl{}}
	n := int(C.lz_vec_size(c, v))
	for i := 0; i < n; i++ {
		a, err := ctx.astResult(op, C.lz_vec_get(c, v, C.uint(i)))
		if err != nil {
			return nil, err
		}
		p.Assertions = append(p.Assertions, a)
	}
	r := C.lz_collect_decls(c, v)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	ds := C.Z3_ast_vector(r.p)
	defer C.lz_vec_dec_ref(c, ds)
	n = int(C.lz_vec_size(c, ds))
	for i := 0; i < n; i++ {
		h, err := ctx.result(op, C.lz_vec_get(c, ds, C.uint(i)))
		if err != nil {
			return nil, err
		}
		d := FuncDecl{h}
		name, err := goString(op, C.lz_get_decl_name(c, d.c()))
		if err != nil {
			return nil, err
		}
		if C.Z3_get_arity(c, d.c()) == 0 {
			a, err := ctx.astResult(op, C.lz_mk_app(c, d.c(), 0, nil))
			if err != nil {
				return nil, err
			}
			p.Consts[name] = a
		} else {
			p.Funcs[name] = d
		}
	}
	return p, nil
}

// ParseTerm parses a single SMT-LIB2 term of any sort over the given sorts
// and declarations (and Z3's built-in theories), e.g. "(select a 3)".
func (ctx *Context) ParseTerm(expr string, sorts []Sort, decls []FuncDecl) (AST, error) {
	const op = "ParseTerm"
	if err := ctx.checkSorts(op, sorts...); err != nil {
		return AST{}, err
	}
	for _, d := range decls {
		if err := ctx.checkHandle(op, "FuncDecl", d.h); err != nil {
			return AST{}, err
		}
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	// The parser only returns assertions, so wrap the term in a trivially
	// well-sorted equation of any sort and take its left side.
	v, err := ctx.parseLocked(op, c, "(assert (= "+expr+"\n "+expr+"\n))", sorts, decls)
	if err != nil {
		return AST{}, err
	}
	defer C.lz_vec_dec_ref(c, v)
	if n := int(C.lz_vec_size(c, v)); n != 1 {
		return AST{}, usageErr(op, "term text produced %d assertions", n)
	}
	eq, err := ctx.astResult(op, C.lz_vec_get(c, v, 0))
	if err != nil {
		return AST{}, err
	}
	defer runtime.KeepAlive(eq.h)
	if !C.Z3_is_app(c, eq.c()) || C.Z3_get_app_num_args(c, C.Z3_to_app(c, eq.c())) != 2 {
		return AST{}, usageErr(op, "unexpected parse of %q", expr)
	}
	return ctx.astResult(op, C.lz_get_app_arg(c, eq.c(), 0))
}

// parseLocked runs the SMT-LIB2 parser and returns an inc_ref'd vector of
// assertions. Called with the context lock held.
func (ctx *Context) parseLocked(op string, c C.Z3_context, text string, sorts []Sort, decls []FuncDecl) (C.Z3_ast_vector, error) {
	var strs []*C.char
	defer func() {
		for _, s := range strs {
			C.free(unsafe.Pointer(s))
		}
	}()
	ptrSize := C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))
	var sortNames **C.char
	var sortArr *C.Z3_sort
	if len(sorts) > 0 {
		names := make([]*C.char, len(sorts))
		sortArr = (*C.Z3_sort)(C.malloc(C.size_t(len(sorts)) * ptrSize))
		defer C.free(unsafe.Pointer(sortArr))
		sa := unsafe.Slice(sortArr, len(sorts))
		for i, s := range sorts {
			nr := C.lz_sort_name(c, s.c())
			name, err := goString(op, nr)
			if err != nil {
				return nil, err
			}
			names[i] = C.CString(name)
			strs = append(strs, names[i])
			sa[i] = s.c()
		}
		sortNames = cStringArray(names)
		defer C.free(unsafe.Pointer(sortNames))
	}
	var declNames **C.char
	var declArr *C.Z3_func_decl
	if len(decls) > 0 {
		names := make([]*C.char, len(decls))
		declArr = (*C.Z3_func_decl)(C.malloc(C.size_t(len(decls)) * ptrSize))
		defer C.free(unsafe.Pointer(declArr))
		da := unsafe.Slice(declArr, len(decls))
		for i, d := range decls {
			name, err := goString(op, C.lz_get_decl_name(c, d.c()))
			if err != nil {
				return nil, err
			}
			names[i] = C.CString(name)
			strs = append(strs, names[i])
			da[i] = d.c()
		}
		declNames = cStringArray(names)
		defer C.free(unsafe.Pointer(declNames))
	}
	ctext := C.CString(text)
	defer C.free(unsafe.Pointer(ctext))
	r := C.lz_parse_smtlib2(c, ctext, C.uint(len(sorts)), sortNames, sortArr,
		C.uint(len(decls)), declNames, declArr)
	runtime.KeepAlive(sorts)
	runtime.KeepAlive(decls)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	return C.Z3_ast_vector(r.p), nil
}
