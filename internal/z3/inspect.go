package z3

/*
#include "shim.h"
*/
import "C"

import "runtime"

// ASTKind classifies ASTs (Z3_ast_kind).
type ASTKind int

// AST kinds.
const (
	NumeralKind    ASTKind = C.Z3_NUMERAL_AST
	AppKind        ASTKind = C.Z3_APP_AST
	VarKind        ASTKind = C.Z3_VAR_AST
	QuantifierKind ASTKind = C.Z3_QUANTIFIER_AST // also lambdas
	SortASTKind    ASTKind = C.Z3_SORT_AST
	FuncDeclKind   ASTKind = C.Z3_FUNC_DECL_AST
	UnknownKind    ASTKind = C.Z3_UNKNOWN_AST
)

// String returns the kind's name.
func (k ASTKind) String() string {
	switch k {
	case NumeralKind:
		return "numeral"
	case AppKind:
		return "app"
	case VarKind:
		return "var"
	case QuantifierKind:
		return "quantifier"
	case SortASTKind:
		return "sort"
	case FuncDeclKind:
		return "func_decl"
	}
	return "unknown"
}

// BoolValue is a three-valued Boolean (Z3_lbool).
type BoolValue int

// Boolean values.
const (
	False BoolValue = C.Z3_L_FALSE
	Undef BoolValue = C.Z3_L_UNDEF
	True  BoolValue = C.Z3_L_TRUE
)

// String returns "true", "false" or "undef".
func (b BoolValue) String() string {
	switch b {
	case True:
		return "true"
	case False:
		return "false"
	}
	return "undef"
}

// DeclKind identifies the operator of a function declaration
// (Z3_decl_kind). Only the kinds this project inspects are named; others
// compare as their raw Z3 values.
type DeclKind int

// Declaration kinds.
const (
	OpTrue          DeclKind = C.Z3_OP_TRUE
	OpFalse         DeclKind = C.Z3_OP_FALSE
	OpEq            DeclKind = C.Z3_OP_EQ
	OpDistinct      DeclKind = C.Z3_OP_DISTINCT
	OpIte           DeclKind = C.Z3_OP_ITE
	OpAnd           DeclKind = C.Z3_OP_AND
	OpOr            DeclKind = C.Z3_OP_OR
	OpIff           DeclKind = C.Z3_OP_IFF
	OpXor           DeclKind = C.Z3_OP_XOR
	OpNot           DeclKind = C.Z3_OP_NOT
	OpImplies       DeclKind = C.Z3_OP_IMPLIES
	OpANum          DeclKind = C.Z3_OP_ANUM
	OpLe            DeclKind = C.Z3_OP_LE
	OpGe            DeclKind = C.Z3_OP_GE
	OpLt            DeclKind = C.Z3_OP_LT
	OpGt            DeclKind = C.Z3_OP_GT
	OpAdd           DeclKind = C.Z3_OP_ADD
	OpSub           DeclKind = C.Z3_OP_SUB
	OpUMinus        DeclKind = C.Z3_OP_UMINUS
	OpMul           DeclKind = C.Z3_OP_MUL
	OpDiv           DeclKind = C.Z3_OP_DIV
	OpIDiv          DeclKind = C.Z3_OP_IDIV
	OpRem           DeclKind = C.Z3_OP_REM
	OpMod           DeclKind = C.Z3_OP_MOD
	OpStore         DeclKind = C.Z3_OP_STORE
	OpSelect        DeclKind = C.Z3_OP_SELECT
	OpConstArray    DeclKind = C.Z3_OP_CONST_ARRAY
	OpArrayMap      DeclKind = C.Z3_OP_ARRAY_MAP
	OpArrayDefault  DeclKind = C.Z3_OP_ARRAY_DEFAULT
	OpAsArray       DeclKind = C.Z3_OP_AS_ARRAY
	OpDTConstructor DeclKind = C.Z3_OP_DT_CONSTRUCTOR
	OpDTRecognizer  DeclKind = C.Z3_OP_DT_RECOGNISER
	OpDTIs          DeclKind = C.Z3_OP_DT_IS
	OpDTAccessor    DeclKind = C.Z3_OP_DT_ACCESSOR
	OpSeqUnit       DeclKind = C.Z3_OP_SEQ_UNIT
	OpSeqEmpty      DeclKind = C.Z3_OP_SEQ_EMPTY
	OpSeqConcat     DeclKind = C.Z3_OP_SEQ_CONCAT
	OpUninterpreted DeclKind = C.Z3_OP_UNINTERPRETED
)

// lockAST takes a's context lock; ok is false for a zero AST or closed
// context. The caller must unlock a.h.ctx.mu and keep a.h alive.
func lockHandle(h *handle) (C.Z3_context, bool) {
	if h == nil {
		return nil, false
	}
	c, err := h.ctx.lock()
	return c, err == nil
}

// IsNil reports whether a is the zero AST.
func (a AST) IsNil() bool { return a.h == nil }

// Context returns the context a belongs to (nil for the zero AST).
func (a AST) Context() *Context {
	if a.h == nil {
		return nil
	}
	return a.h.ctx
}

// String returns the SMT-LIB2 form of a.
func (a AST) String() string {
	if a.h == nil {
		return "<nil ast>"
	}
	return astString(a.h)
}

// Equal reports whether a and b are the same term (Z3 hash-conses terms, so
// this is structural equality).
func (a AST) Equal(b AST) bool { return handlesEqual(a.h, b.h) }

// ID returns Z3's unique identifier of the term within its context
// (Z3_get_ast_id); 0 for the zero AST or a closed context.
func (a AST) ID() uint {
	c, ok := lockHandle(a.h)
	if !ok {
		return 0
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return uint(C.Z3_get_ast_id(c, a.c()))
}

// Sort returns the sort of a.
func (a AST) Sort() (Sort, error) {
	const op = "AST.Sort"
	if a.h == nil {
		return Sort{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return ctx.sortResult(op, C.lz_get_sort(c, a.c()))
}

// Kind returns the AST kind; UnknownKind for the zero AST or a closed
// context.
func (a AST) Kind() ASTKind {
	c, ok := lockHandle(a.h)
	if !ok {
		return UnknownKind
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return ASTKind(C.Z3_get_ast_kind(c, a.c()))
}

// IsNumeral reports whether a is a numeral (Z3_is_numeral_ast).
func (a AST) IsNumeral() bool {
	c, ok := lockHandle(a.h)
	if !ok {
		return false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return bool(C.Z3_is_numeral_ast(c, a.c()))
}

// NumeralString returns the value of a numeral in decimal, e.g. "-42", or
// "1/3" for a rational (Z3_get_numeral_string).
func (a AST) NumeralString() (string, error) {
	const op = "NumeralString"
	if a.h == nil {
		return "", usageErr(op, "zero AST")
	}
	c, err := a.h.ctx.lock()
	if err != nil {
		return "", err
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_numeral_ast(c, a.c()) {
		return "", usageErr(op, "not a numeral")
	}
	return goString(op, C.lz_get_numeral_string(c, a.c()))
}

// Int64 returns the value of an integer numeral; ok is false if a is not a
// numeral or its value does not fit in an int64.
func (a AST) Int64() (v int64, ok bool) {
	c, locked := lockHandle(a.h)
	if !locked {
		return 0, false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_numeral_ast(c, a.c()) {
		return 0, false
	}
	var x C.int64_t
	if !C.Z3_get_numeral_int64(c, a.c(), &x) {
		C.Z3_set_error(c, C.Z3_OK)
		return 0, false
	}
	return int64(x), true
}

// BoolValue returns True or False if a is the literal true or false, and
// Undef otherwise (Z3_get_bool_value).
func (a AST) BoolValue() BoolValue {
	c, ok := lockHandle(a.h)
	if !ok {
		return Undef
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return BoolValue(C.Z3_get_bool_value(c, a.c()))
}

// IsApp reports whether a is an application (including constants and
// numerals).
func (a AST) IsApp() bool {
	c, ok := lockHandle(a.h)
	if !ok {
		return false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return bool(C.Z3_is_app(c, a.c()))
}

// Decl returns the function declaration of an application.
func (a AST) Decl() (FuncDecl, error) {
	const op = "Decl"
	if a.h == nil {
		return FuncDecl{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return FuncDecl{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_app(c, a.c()) {
		return FuncDecl{}, usageErr(op, "not an application")
	}
	h, err := ctx.result(op, C.lz_get_app_decl(c, a.c()))
	return FuncDecl{h}, err
}

// DeclKind returns the kind of a's declaration, or -1 if a is not an
// application.
func (a AST) DeclKind() DeclKind {
	c, ok := lockHandle(a.h)
	if !ok {
		return -1
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_app(c, a.c()) {
		return -1
	}
	d := C.Z3_get_app_decl(c, C.Z3_to_app(c, a.c()))
	return DeclKind(C.Z3_get_decl_kind(c, d))
}

// DeclName returns the name of a's declaration ("" if a is not an
// application), e.g. "select", "store", "x", "T!val!0".
func (a AST) DeclName() string {
	d, err := a.Decl()
	if err != nil {
		return ""
	}
	return d.Name()
}

// NumArgs returns the number of arguments of an application (0 otherwise).
func (a AST) NumArgs() int {
	c, ok := lockHandle(a.h)
	if !ok {
		return 0
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_app(c, a.c()) {
		return 0
	}
	return int(C.Z3_get_app_num_args(c, C.Z3_to_app(c, a.c())))
}

// Arg returns argument i of an application.
func (a AST) Arg(i int) (AST, error) {
	const op = "Arg"
	if a.h == nil {
		return AST{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_app(c, a.c()) {
		return AST{}, usageErr(op, "not an application")
	}
	if n := int(C.Z3_get_app_num_args(c, C.Z3_to_app(c, a.c()))); i < 0 || i >= n {
		return AST{}, usageErr(op, "argument index %d out of range [0,%d)", i, n)
	}
	return ctx.astResult(op, C.lz_get_app_arg(c, a.c(), C.uint(i)))
}

// Args returns all arguments of an application (nil for other ASTs).
func (a AST) Args() ([]AST, error) {
	n := a.NumArgs()
	out := make([]AST, 0, n)
	for i := 0; i < n; i++ {
		x, err := a.Arg(i)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// IsAsArray reports whether a is an (_ as-array f) term, as Z3 uses for
// array values in models (Z3_is_as_array).
func (a AST) IsAsArray() bool {
	c, ok := lockHandle(a.h)
	if !ok {
		return false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	return bool(C.Z3_is_as_array(c, a.c()))
}

// AsArrayDecl returns f for an (_ as-array f) term; its interpretation is
// available through Model.FuncInterp.
func (a AST) AsArrayDecl() (FuncDecl, error) {
	const op = "AsArrayDecl"
	if a.h == nil {
		return FuncDecl{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return FuncDecl{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if !C.Z3_is_as_array(c, a.c()) {
		return FuncDecl{}, usageErr(op, "not an as-array term")
	}
	h, err := ctx.result(op, C.lz_get_as_array_func_decl(c, a.c()))
	return FuncDecl{h}, err
}

func (a AST) quantFlag(f func(C.Z3_context, C.Z3_ast) bool) bool {
	c, ok := lockHandle(a.h)
	if !ok {
		return false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if ASTKind(C.Z3_get_ast_kind(c, a.c())) != QuantifierKind {
		return false
	}
	return f(c, a.c())
}

// IsLambda reports whether a is a lambda term.
func (a AST) IsLambda() bool {
	return a.quantFlag(func(c C.Z3_context, x C.Z3_ast) bool { return bool(C.Z3_is_lambda(c, x)) })
}

// IsForall reports whether a is a universal quantifier.
func (a AST) IsForall() bool {
	return a.quantFlag(func(c C.Z3_context, x C.Z3_ast) bool { return bool(C.Z3_is_quantifier_forall(c, x)) })
}

// IsExists reports whether a is an existential quantifier.
func (a AST) IsExists() bool {
	return a.quantFlag(func(c C.Z3_context, x C.Z3_ast) bool { return bool(C.Z3_is_quantifier_exists(c, x)) })
}

// NumBound returns the number of variables bound by a quantifier or lambda
// (0 for other ASTs).
func (a AST) NumBound() int {
	c, ok := lockHandle(a.h)
	if !ok {
		return 0
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if ASTKind(C.Z3_get_ast_kind(c, a.c())) != QuantifierKind {
		return 0
	}
	return int(C.Z3_get_quantifier_num_bound(c, a.c()))
}

// Body returns the body of a quantifier or lambda. Bound variables appear
// in it as de Bruijn variables (VarKind, see VarIndex); variable i of the
// body is bound name NumBound()-1-i.
func (a AST) Body() (AST, error) {
	const op = "Body"
	if a.h == nil {
		return AST{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return AST{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if ASTKind(C.Z3_get_ast_kind(c, a.c())) != QuantifierKind {
		return AST{}, usageErr(op, "not a quantifier or lambda")
	}
	return ctx.astResult(op, C.lz_get_quantifier_body(c, a.c()))
}

// BoundName returns the name of bound variable i of a quantifier or lambda.
func (a AST) BoundName(i int) (string, error) {
	const op = "BoundName"
	if a.h == nil {
		return "", usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return "", err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if err := checkBoundIndex(op, c, a, i); err != nil {
		return "", err
	}
	return goString(op, C.lz_get_quantifier_bound_name(c, a.c(), C.uint(i)))
}

// BoundSort returns the sort of bound variable i of a quantifier or lambda.
func (a AST) BoundSort(i int) (Sort, error) {
	const op = "BoundSort"
	if a.h == nil {
		return Sort{}, usageErr(op, "zero AST")
	}
	ctx := a.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if err := checkBoundIndex(op, c, a, i); err != nil {
		return Sort{}, err
	}
	return ctx.sortResult(op, C.lz_get_quantifier_bound_sort(c, a.c(), C.uint(i)))
}

func checkBoundIndex(op string, c C.Z3_context, a AST, i int) error {
	if ASTKind(C.Z3_get_ast_kind(c, a.c())) != QuantifierKind {
		return usageErr(op, "not a quantifier or lambda")
	}
	if n := int(C.Z3_get_quantifier_num_bound(c, a.c())); i < 0 || i >= n {
		return usageErr(op, "bound index %d out of range [0,%d)", i, n)
	}
	return nil
}

// VarIndex returns the de Bruijn index of a bound variable; ok is false if
// a is not a variable.
func (a AST) VarIndex() (idx int, ok bool) {
	c, locked := lockHandle(a.h)
	if !locked {
		return 0, false
	}
	defer a.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	if ASTKind(C.Z3_get_ast_kind(c, a.c())) != VarKind {
		return 0, false
	}
	return int(C.Z3_get_index_value(c, a.c())), true
}

// IsNil reports whether d is the zero FuncDecl.
func (d FuncDecl) IsNil() bool { return d.h == nil }

// String returns the SMT-LIB2 form of the declaration.
func (d FuncDecl) String() string {
	if d.h == nil {
		return "<nil func_decl>"
	}
	return astString(d.h)
}

// Equal reports whether d and e are the same declaration.
func (d FuncDecl) Equal(e FuncDecl) bool { return handlesEqual(d.h, e.h) }

// Name returns the declaration's name ("" for the zero FuncDecl or a closed
// context). Integer symbols are rendered as Z3 prints them, "k!N".
func (d FuncDecl) Name() string {
	c, ok := lockHandle(d.h)
	if !ok {
		return ""
	}
	defer d.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	s, _ := goString("FuncDecl.Name", C.lz_get_decl_name(c, d.c()))
	return s
}

// Kind returns the operator kind of the declaration (-1 for the zero
// FuncDecl or a closed context).
func (d FuncDecl) Kind() DeclKind {
	c, ok := lockHandle(d.h)
	if !ok {
		return -1
	}
	defer d.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	return DeclKind(C.Z3_get_decl_kind(c, d.c()))
}

// Arity returns the number of arguments the declaration takes.
func (d FuncDecl) Arity() int {
	c, ok := lockHandle(d.h)
	if !ok {
		return 0
	}
	defer d.h.ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	return int(C.Z3_get_arity(c, d.c()))
}

// Domain returns the sort of argument i.
func (d FuncDecl) Domain(i int) (Sort, error) {
	const op = "Domain"
	if d.h == nil {
		return Sort{}, usageErr(op, "zero FuncDecl")
	}
	ctx := d.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	if n := int(C.Z3_get_arity(c, d.c())); i < 0 || i >= n {
		return Sort{}, usageErr(op, "domain index %d out of range [0,%d)", i, n)
	}
	return ctx.sortResult(op, C.lz_get_decl_sort(c, d.c(), 0, C.uint(i)))
}

// Range returns the result sort of the declaration.
func (d FuncDecl) Range() (Sort, error) {
	const op = "Range"
	if d.h == nil {
		return Sort{}, usageErr(op, "zero FuncDecl")
	}
	ctx := d.h.ctx
	c, err := ctx.lock()
	if err != nil {
		return Sort{}, err
	}
	defer ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	return ctx.sortResult(op, C.lz_get_decl_sort(c, d.c(), 1, 0))
}
