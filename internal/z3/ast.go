package z3

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// AST is a Z3 term (an expression of some sort, a quantifier or a lambda).
// It is a small value wrapping a reference-counted handle; copies share the
// handle. The zero AST is invalid: builders reject it with an ErrUsage error.
type AST struct{ h *handle }

// FuncDecl is a Z3 function declaration: an uninterpreted function or
// constant, a datatype constructor, tester or accessor, or an interpreted
// operator as returned by AST.Decl.
type FuncDecl struct{ h *handle }

// Pattern is a quantifier instantiation pattern (trigger), see
// Context.Pattern.
type Pattern struct{ h *handle }

func (a AST) c() C.Z3_ast            { return a.h.p }
func (d FuncDecl) c() C.Z3_func_decl { return C.Z3_func_decl(unsafe.Pointer(d.h.p)) }
func (p Pattern) c() C.Z3_pattern    { return C.Z3_pattern(unsafe.Pointer(p.h.p)) }
func (ctx *Context) astResult(op string, r C.lz_ptr) (AST, error) {
	h, err := ctx.result(op, r)
	return AST{h}, err
}

func (ctx *Context) checkASTs(op string, args ...AST) error {
	for _, a := range args {
		if err := ctx.checkHandle(op, "AST", a.h); err != nil {
			return err
		}
	}
	return nil
}

// astArray copies the C pointers of args into a malloc'd array (nil when
// empty). The caller frees it and keeps args alive.
func astArray(args []AST) *C.Z3_ast {
	if len(args) == 0 {
		return nil
	}
	p := (*C.Z3_ast)(C.malloc(C.size_t(len(args)) * C.size_t(unsafe.Sizeof(C.Z3_ast(nil)))))
	s := unsafe.Slice(p, len(args))
	for i, a := range args {
		s[i] = a.c()
	}
	return p
}

// Const returns the constant (nullary uninterpreted function) with the given
// name and sort. The same name and sort give the same constant.
func (ctx *Context) Const(name string, s Sort) (AST, error) {
	return ctx.mkConst("Const", name, s, 0)
}

// FreshConst returns a new constant whose name starts with prefix and is
// distinct from every other constant in the context (Z3_mk_fresh_const).
func (ctx *Context) FreshConst(prefix string, s Sort) (AST, error) {
	return ctx.mkConst("FreshConst", prefix, s, 1)
}

func (ctx *Context) mkConst(op, name string, s Sort, fresh C.int) (AST, error) {
	if err := ctx.checkSorts(op, s); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return ctx.astResult(op, C.lz_mk_const(c, cs, s.c(), fresh))
}

// Int64 returns the numeral v of sort s (Int or Real).
func (ctx *Context) Int64(v int64, s Sort) (AST, error) {
	const op = "Int64"
	if err := ctx.checkSorts(op, s); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return ctx.astResult(op, C.lz_mk_int64(c, C.int64_t(v), s.c()))
}

// Int returns the Int numeral v.
func (ctx *Context) Int(v int64) (AST, error) {
	s, err := ctx.IntSort()
	if err != nil {
		return AST{}, err
	}
	return ctx.Int64(v, s)
}

// Numeral returns the numeral written in decimal (e.g. "-123456789012345678901",
// or "1/3" for Real) of sort s (Z3_mk_numeral). Malformed text is an error.
func (ctx *Context) Numeral(v string, s Sort) (AST, error) {
	const op = "Numeral"
	if err := ctx.checkSorts(op, s); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	cs := C.CString(v)
	defer C.free(unsafe.Pointer(cs))
	return ctx.astResult(op, C.lz_mk_numeral(c, cs, s.c()))
}

// Bool returns the Bool literal true or false.
func (ctx *Context) Bool(v bool) (AST, error) {
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	b := C.int(0)
	if v {
		b = 1
	}
	return ctx.astResult("Bool", C.lz_mk_bool(c, b))
}

// True returns the Bool literal true.
func (ctx *Context) True() (AST, error) { return ctx.Bool(true) }

// False returns the Bool literal false.
func (ctx *Context) False() (AST, error) { return ctx.Bool(false) }

func (ctx *Context) unary(op string, code C.int, a AST) (AST, error) {
	if err := ctx.checkASTs(op, a); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return ctx.astResult(op, C.lz_mk_unary(c, code, a.c()))
}

func (ctx *Context) binary(op string, code C.int, a, b AST) (AST, error) {
	if err := ctx.checkASTs(op, a, b); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	defer runtime.KeepAlive(b.h)
	return ctx.astResult(op, C.lz_mk_binary(c, code, a.c(), b.c()))
}

func (ctx *Context) ternary(op string, code C.int, a, b, d AST) (AST, error) {
	if err := ctx.checkASTs(op, a, b, d); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	defer runtime.KeepAlive(b.h)
	defer runtime.KeepAlive(d.h)
	return ctx.astResult(op, C.lz_mk_ternary(c, code, a.c(), b.c(), d.c()))
}

func (ctx *Context) nary(op string, code C.int, min int, args []AST) (AST, error) {
	if len(args) < min {
		return AST{}, usageErr(op, "needs at least %d arguments, got %d", min, len(args))
	}
	if err := ctx.checkASTs(op, args...); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(args)
	arr := astArray(args)
	defer C.free(unsafe.Pointer(arr))
	return ctx.astResult(op, C.lz_mk_nary(c, code, C.uint(len(args)), arr))
}

// Not returns (not a).
func (ctx *Context) Not(a AST) (AST, error) { return ctx.unary("Not", C.LZ_NOT, a) }

// And returns (and args...); with no arguments it is true.
func (ctx *Context) And(args ...AST) (AST, error) {
	if len(args) == 0 {
		return ctx.True()
	}
	return ctx.nary("And", C.LZ_AND, 1, args)
}

// Or returns (or args...); with no arguments it is false.
func (ctx *Context) Or(args ...AST) (AST, error) {
	if len(args) == 0 {
		return ctx.False()
	}
	return ctx.nary("Or", C.LZ_OR, 1, args)
}

// Implies returns (=> a b).
func (ctx *Context) Implies(a, b AST) (AST, error) {
	return ctx.binary("Implies", C.LZ_IMPLIES, a, b)
}

// Iff returns (= a b) for Bool a and b.
func (ctx *Context) Iff(a, b AST) (AST, error) { return ctx.binary("Iff", C.LZ_IFF, a, b) }

// Xor returns (xor a b).
func (ctx *Context) Xor(a, b AST) (AST, error) { return ctx.binary("Xor", C.LZ_XOR, a, b) }

// Eq returns (= a b). Operands of different sorts are an error.
func (ctx *Context) Eq(a, b AST) (AST, error) { return ctx.binary("Eq", C.LZ_EQ, a, b) }

// Distinct returns (distinct args...); it needs at least two arguments.
func (ctx *Context) Distinct(args ...AST) (AST, error) {
	return ctx.nary("Distinct", C.LZ_DISTINCT, 2, args)
}

// Ite returns (ite cond then els).
func (ctx *Context) Ite(cond, then, els AST) (AST, error) {
	return ctx.ternary("Ite", C.LZ_ITE, cond, then, els)
}

// Add returns (+ args...).
func (ctx *Context) Add(args ...AST) (AST, error) { return ctx.nary("Add", C.LZ_ADD, 1, args) }

// Sub returns (- args...), left associative.
func (ctx *Context) Sub(args ...AST) (AST, error) { return ctx.nary("Sub", C.LZ_SUB, 1, args) }

// Mul returns (* args...).
func (ctx *Context) Mul(args ...AST) (AST, error) { return ctx.nary("Mul", C.LZ_MUL, 1, args) }

// Neg returns the unary minus (- a).
func (ctx *Context) Neg(a AST) (AST, error) { return ctx.unary("Neg", C.LZ_UMINUS, a) }

// Div returns (div a b) for Int, (/ a b) for Real.
func (ctx *Context) Div(a, b AST) (AST, error) { return ctx.binary("Div", C.LZ_DIV, a, b) }

// Mod returns (mod a b).
func (ctx *Context) Mod(a, b AST) (AST, error) { return ctx.binary("Mod", C.LZ_MOD, a, b) }

// Rem returns (rem a b).
func (ctx *Context) Rem(a, b AST) (AST, error) { return ctx.binary("Rem", C.LZ_REM, a, b) }

// Lt returns (< a b).
func (ctx *Context) Lt(a, b AST) (AST, error) { return ctx.binary("Lt", C.LZ_LT, a, b) }

// Le returns (<= a b).
func (ctx *Context) Le(a, b AST) (AST, error) { return ctx.binary("Le", C.LZ_LE, a, b) }

// Gt returns (> a b).
func (ctx *Context) Gt(a, b AST) (AST, error) { return ctx.binary("Gt", C.LZ_GT, a, b) }

// Ge returns (>= a b).
func (ctx *Context) Ge(a, b AST) (AST, error) { return ctx.binary("Ge", C.LZ_GE, a, b) }

// Select returns (select arr idx).
func (ctx *Context) Select(arr, idx AST) (AST, error) {
	return ctx.binary("Select", C.LZ_SELECT, arr, idx)
}

// Store returns (store arr idx val).
func (ctx *Context) Store(arr, idx, val AST) (AST, error) {
	return ctx.ternary("Store", C.LZ_STORE, arr, idx, val)
}

// ConstArray returns ((as const (Array dom S)) v), the array mapping every
// index of sort dom to v (of sort S).
func (ctx *Context) ConstArray(dom Sort, v AST) (AST, error) {
	const op = "ConstArray"
	if err := ctx.checkSorts(op, dom); err != nil {
		return AST{}, err
	}
	if err := ctx.checkASTs(op, v); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(dom.h)
	defer runtime.KeepAlive(v.h)
	return ctx.astResult(op, C.lz_mk_const_array(c, dom.c(), v.c()))
}

// ArrayDefault returns the default value of an array ((_ default) arr),
// meaningful for arrays built from constant arrays.
func (ctx *Context) ArrayDefault(arr AST) (AST, error) {
	return ctx.unary("ArrayDefault", C.LZ_ARRAY_DEFAULT, arr)
}

// SeqEmpty returns the empty sequence of sequence sort s.
func (ctx *Context) SeqEmpty(s Sort) (AST, error) {
	const op = "SeqEmpty"
	if err := ctx.checkSorts(op, s); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return ctx.astResult(op, C.lz_mk_seq_empty(c, s.c()))
}

// SeqUnit returns the one-element sequence (seq.unit a).
func (ctx *Context) SeqUnit(a AST) (AST, error) { return ctx.unary("SeqUnit", C.LZ_SEQ_UNIT, a) }

// SeqLength returns (seq.len s).
func (ctx *Context) SeqLength(s AST) (AST, error) {
	return ctx.unary("SeqLength", C.LZ_SEQ_LENGTH, s)
}

// SeqConcat returns (seq.++ args...).
func (ctx *Context) SeqConcat(args ...AST) (AST, error) {
	return ctx.nary("SeqConcat", C.LZ_SEQ_CONCAT, 1, args)
}

// SeqNth returns (seq.nth s i), the element at index i.
func (ctx *Context) SeqNth(s, i AST) (AST, error) { return ctx.binary("SeqNth", C.LZ_SEQ_NTH, s, i) }

// SeqExtract returns (seq.extract s offset length).
func (ctx *Context) SeqExtract(s, offset, length AST) (AST, error) {
	return ctx.ternary("SeqExtract", C.LZ_SEQ_EXTRACT, s, offset, length)
}

// SeqPrefixOf returns (seq.prefixof prefix s).
func (ctx *Context) SeqPrefixOf(prefix, s AST) (AST, error) {
	return ctx.binary("SeqPrefixOf", C.LZ_SEQ_PREFIX, prefix, s)
}

// SeqContains returns (seq.contains s sub).
func (ctx *Context) SeqContains(s, sub AST) (AST, error) {
	return ctx.binary("SeqContains", C.LZ_SEQ_CONTAINS, s, sub)
}

// Simplify returns Z3's simplification of a (Z3_simplify).
func (ctx *Context) Simplify(a AST) (AST, error) {
	return ctx.unary("Simplify", C.LZ_SIMPLIFY, a)
}

// FuncDecl declares an uninterpreted function name : domain -> rng. The same
// name and signature give the same declaration.
func (ctx *Context) FuncDecl(name string, domain []Sort, rng Sort) (FuncDecl, error) {
	return ctx.mkFuncDecl("FuncDecl", name, domain, rng, 0)
}

// FreshFuncDecl declares a new uninterpreted function whose name starts
// with prefix.
func (ctx *Context) FreshFuncDecl(prefix string, domain []Sort, rng Sort) (FuncDecl, error) {
	return ctx.mkFuncDecl("FreshFuncDecl", prefix, domain, rng, 1)
}

func (ctx *Context) mkFuncDecl(op, name string, domain []Sort, rng Sort, fresh C.int) (FuncDecl, error) {
	if err := ctx.checkSorts(op, append(domain[:len(domain):len(domain)], rng)...); err != nil {
		return FuncDecl{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return FuncDecl{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(domain)
	defer runtime.KeepAlive(rng.h)
	var dom *C.Z3_sort
	if len(domain) > 0 {
		dom = (*C.Z3_sort)(C.malloc(C.size_t(len(domain)) * C.size_t(unsafe.Sizeof(C.Z3_sort(nil)))))
		defer C.free(unsafe.Pointer(dom))
		ds := unsafe.Slice(dom, len(domain))
		for i, s := range domain {
			ds[i] = s.c()
		}
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	h, err := ctx.result(op, C.lz_mk_func_decl(c, cs, C.uint(len(domain)), dom, rng.c(), fresh))
	return FuncDecl{h}, err
}

// Apply applies d to args: an uninterpreted function application, or a
// datatype constructor, tester or accessor application. Argument count and
// sorts are checked by Z3.
func (ctx *Context) Apply(d FuncDecl, args ...AST) (AST, error) {
	const op = "Apply"
	if err := ctx.checkHandle(op, "FuncDecl", d.h); err != nil {
		return AST{}, err
	}
	if err := ctx.checkASTs(op, args...); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	defer runtime.KeepAlive(args)
	arr := astArray(args)
	defer C.free(unsafe.Pointer(arr))
	return ctx.astResult(op, C.lz_mk_app(c, d.c(), C.uint(len(args)), arr))
}

// Pattern builds a multi-pattern (trigger) from terms for use in Forall or
// Exists. Every term must be an application containing the bound
// constants; Z3 rejects invalid patterns with ErrInvalidPattern.
func (ctx *Context) Pattern(terms ...AST) (Pattern, error) {
	const op = "Pattern"
	if len(terms) == 0 {
		return Pattern{}, usageErr(op, "empty pattern")
	}
	if err := ctx.checkASTs(op, terms...); err != nil {
		return Pattern{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return Pattern{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(terms)
	arr := astArray(terms)
	defer C.free(unsafe.Pointer(arr))
	h, err := ctx.result(op, C.lz_mk_pattern(c, C.uint(len(terms)), arr))
	return Pattern{h}, err
}

// String returns the SMT-LIB2 form of the pattern.
func (p Pattern) String() string {
	if p.h == nil {
		return "<nil pattern>"
	}
	return astString(p.h)
}

// Forall returns (forall (bound...) body) where bound are constants
// (from Const or FreshConst) that are abstracted in body, with optional
// patterns.
func (ctx *Context) Forall(bound []AST, body AST, patterns ...Pattern) (AST, error) {
	return ctx.quantifier("Forall", 1, bound, body, patterns)
}

// Exists returns (exists (bound...) body), see Forall.
func (ctx *Context) Exists(bound []AST, body AST, patterns ...Pattern) (AST, error) {
	return ctx.quantifier("Exists", 0, bound, body, patterns)
}

func (ctx *Context) quantifier(op string, forall C.int, bound []AST, body AST, patterns []Pattern) (AST, error) {
	if len(bound) == 0 {
		return AST{}, usageErr(op, "no bound constants")
	}
	if err := ctx.checkASTs(op, append(bound[:len(bound):len(bound)], body)...); err != nil {
		return AST{}, err
	}
	for _, p := range patterns {
		if err := ctx.checkHandle(op, "pattern", p.h); err != nil {
			return AST{}, err
		}
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(bound)
	defer runtime.KeepAlive(body.h)
	defer runtime.KeepAlive(patterns)
	if err := checkBound(op, c, bound); err != nil {
		return AST{}, err
	}
	barr := astArray(bound)
	defer C.free(unsafe.Pointer(barr))
	var parr *C.Z3_pattern
	if len(patterns) > 0 {
		parr = (*C.Z3_pattern)(C.malloc(C.size_t(len(patterns)) * C.size_t(unsafe.Sizeof(C.Z3_pattern(nil)))))
		defer C.free(unsafe.Pointer(parr))
		ps := unsafe.Slice(parr, len(patterns))
		for i, p := range patterns {
			ps[i] = p.c()
		}
	}
	return ctx.astResult(op, C.lz_mk_quantifier(c, forall, 0, C.uint(len(bound)),
		(*C.Z3_app)(unsafe.Pointer(barr)), C.uint(len(patterns)), parr, body.c()))
}

// Lambda returns (lambda (bound...) body), an array-valued term whose
// domain is the sorts of the bound constants (Z3_mk_lambda_const).
func (ctx *Context) Lambda(bound []AST, body AST) (AST, error) {
	const op = "Lambda"
	if len(bound) == 0 {
		return AST{}, usageErr(op, "no bound constants")
	}
	if err := ctx.checkASTs(op, append(bound[:len(bound):len(bound)], body)...); err != nil {
		return AST{}, err
	}
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(bound)
	defer runtime.KeepAlive(body.h)
	if err := checkBound(op, c, bound); err != nil {
		return AST{}, err
	}
	barr := astArray(bound)
	defer C.free(unsafe.Pointer(barr))
	return ctx.astResult(op, C.lz_mk_lambda(c, C.uint(len(bound)), (*C.Z3_app)(unsafe.Pointer(barr)), body.c()))
}

// BigInt is a convenience for an Int numeral given in decimal.
func (ctx *Context) BigInt(decimal string) (AST, error) {
	s, err := ctx.IntSort()
	if err != nil {
		return AST{}, err
	}
	if !isDecimalInt(decimal) {
		return AST{}, usageErr("BigInt", "not a decimal integer: %q", decimal)
	}
	return ctx.Numeral(decimal, s)
}

func isDecimalInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkBound verifies that every bound term is an uninterpreted constant:
// Z3_mk_lambda_const does not check this itself, and abstracting anything
// else corrupts the context. Called with the context lock held.
func checkBound(op string, c C.Z3_context, bound []AST) error {
	for i, b := range bound {
		ok := C.Z3_get_ast_kind(c, b.c()) == C.Z3_APP_AST
		if ok {
			app := C.Z3_to_app(c, b.c())
			ok = C.Z3_get_app_num_args(c, app) == 0 &&
				C.Z3_get_decl_kind(c, C.Z3_get_app_decl(c, app)) == C.Z3_OP_UNINTERPRETED
		}
		if !ok {
			return usageErr(op, "bound term %d is not an uninterpreted constant", i)
		}
	}
	return nil
}
