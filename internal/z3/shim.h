// Package z3 C shims. Every shim resets the context's error code, calls Z3
// inside a C++ try block, checks Z3_get_error_code afterwards and returns the
// outcome by value. Objects returned through an lz_ptr have already been
// inc_ref'd; the Go side owns that reference. Error messages are malloc'd
// copies the Go side frees.
#ifndef LADDER_Z3_SHIM_H
#define LADDER_Z3_SHIM_H

#include <stdint.h>
#include <stdlib.h>
#include <z3.h>

#ifdef __cplusplus
extern "C" {
#endif

// Error codes the shims add to Z3's own Z3_error_code values.
enum {
	LZ_ERR_NULL = 1001,  // Z3 returned NULL without setting an error
	LZ_ERR_CXX = 1002,   // a C++ exception escaped the Z3 API
	LZ_ERR_EVAL = 1003,  // Z3_model_eval returned false
	LZ_ERR_PARAM = 1004  // unknown or ill-typed solver parameter
};

// Kinds of reference-counted objects released by lz_release.
enum {
	LZ_REF_AST = 0,
	LZ_REF_SOLVER = 1,
	LZ_REF_MODEL = 2
};

typedef struct {
	void *p;
	int err;
	char *msg;
} lz_ptr;

typedef struct {
	char *s;
	int err;
	char *msg;
} lz_str;

typedef struct {
	int err;
	char *msg;
} lz_status;

typedef struct {
	int result; // Z3_lbool
	uint64_t rlimit_before;
	uint64_t rlimit_after;
	int err;
	char *msg;
} lz_check;

typedef struct {
	int kind;
	void *p;
} lz_ref;

// Operators for the generic term builders.
enum {
	// unary
	LZ_NOT = 1,
	LZ_UMINUS,
	LZ_ARRAY_DEFAULT,
	LZ_SEQ_UNIT,
	LZ_SEQ_LENGTH,
	LZ_SIMPLIFY,
	// binary
	LZ_EQ = 20,
	LZ_IMPLIES,
	LZ_IFF,
	LZ_XOR,
	LZ_DIV,
	LZ_MOD,
	LZ_REM,
	LZ_LT,
	LZ_LE,
	LZ_GT,
	LZ_GE,
	LZ_SELECT,
	LZ_SEQ_NTH,
	LZ_SEQ_PREFIX,
	LZ_SEQ_CONTAINS,
	// ternary
	LZ_ITE = 50,
	LZ_STORE,
	LZ_SEQ_EXTRACT,
	// n-ary
	LZ_AND = 70,
	LZ_OR,
	LZ_ADD,
	LZ_SUB,
	LZ_MUL,
	LZ_DISTINCT,
	LZ_SEQ_CONCAT
};

// Sort constructors selected by lz_mk_simple_sort.
enum {
	LZ_SORT_BOOL = 1,
	LZ_SORT_INT,
	LZ_SORT_REAL
};

lz_ptr lz_mk_context(int n, const char **keys, const char **vals);
void lz_release(Z3_context c, lz_ref *refs, int n);

lz_ptr lz_mk_simple_sort(Z3_context c, int which);
lz_ptr lz_mk_uninterpreted_sort(Z3_context c, const char *name);
lz_ptr lz_mk_array_sort(Z3_context c, Z3_sort dom, Z3_sort rng);
lz_ptr lz_mk_seq_sort(Z3_context c, Z3_sort elem);
lz_ptr lz_mk_enum_sort(Z3_context c, const char *name, unsigned n, const char **names,
                       Z3_func_decl *consts, Z3_func_decl *testers);
lz_ptr lz_mk_datatype(Z3_context c, const char *name, unsigned nctors,
                      const char **ctor_names, const char **tester_names,
                      const unsigned *nfields, const char **field_names,
                      Z3_sort *field_sorts, Z3_func_decl *ctors_out,
                      Z3_func_decl *testers_out, Z3_func_decl *accessors_out);
lz_ptr lz_get_array_sort(Z3_context c, Z3_sort s, int range);
lz_ptr lz_get_seq_basis(Z3_context c, Z3_sort s);
lz_ptr lz_get_datatype_decl(Z3_context c, Z3_sort s, int what, unsigned i, unsigned j);
lz_str lz_sort_name(Z3_context c, Z3_sort s);

lz_ptr lz_mk_const(Z3_context c, const char *name, Z3_sort s, int fresh);
lz_ptr lz_mk_int64(Z3_context c, int64_t v, Z3_sort s);
lz_ptr lz_mk_numeral(Z3_context c, const char *v, Z3_sort s);
lz_ptr lz_mk_bool(Z3_context c, int v);
lz_ptr lz_mk_unary(Z3_context c, int op, Z3_ast a);
lz_ptr lz_mk_binary(Z3_context c, int op, Z3_ast a, Z3_ast b);
lz_ptr lz_mk_ternary(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d);
lz_ptr lz_mk_nary(Z3_context c, int op, unsigned n, Z3_ast *args);
lz_ptr lz_mk_const_array(Z3_context c, Z3_sort dom, Z3_ast v);
lz_ptr lz_mk_seq_empty(Z3_context c, Z3_sort seq);
lz_ptr lz_mk_func_decl(Z3_context c, const char *name, unsigned n, Z3_sort *dom,
                       Z3_sort rng, int fresh);
lz_ptr lz_mk_app(Z3_context c, Z3_func_decl d, unsigned n, Z3_ast *args);
lz_ptr lz_mk_pattern(Z3_context c, unsigned n, Z3_ast *terms);
lz_ptr lz_mk_quantifier(Z3_context c, int forall, unsigned weight, unsigned nbound,
                        Z3_app *bound, unsigned npat, Z3_pattern *pats, Z3_ast body);
lz_ptr lz_mk_lambda(Z3_context c, unsigned nbound, Z3_app *bound, Z3_ast body);

lz_str lz_ast_to_string(Z3_context c, Z3_ast a);
lz_ptr lz_get_sort(Z3_context c, Z3_ast a);
lz_str lz_get_numeral_string(Z3_context c, Z3_ast a);
lz_ptr lz_get_app_decl(Z3_context c, Z3_ast a);
lz_ptr lz_get_app_arg(Z3_context c, Z3_ast a, unsigned i);
lz_ptr lz_get_as_array_func_decl(Z3_context c, Z3_ast a);
lz_ptr lz_get_quantifier_body(Z3_context c, Z3_ast a);
lz_ptr lz_get_quantifier_bound_sort(Z3_context c, Z3_ast a, unsigned i);
lz_str lz_get_quantifier_bound_name(Z3_context c, Z3_ast a, unsigned i);
lz_str lz_get_decl_name(Z3_context c, Z3_func_decl d);
lz_ptr lz_get_decl_sort(Z3_context c, Z3_func_decl d, int range, unsigned i);

lz_ptr lz_mk_solver(Z3_context c, int kind, const char *logic);
lz_status lz_solver_set_params(Z3_context c, Z3_solver s, unsigned n, unsigned nchecked,
                               const char **names, const int *kinds, const unsigned *uvals,
                               const double *dvals, const char **svals);
lz_status lz_solver_assert(Z3_context c, Z3_solver s, Z3_ast a);
lz_status lz_solver_scope(Z3_context c, Z3_solver s, int op, unsigned n);
lz_check lz_solver_check(Z3_context c, Z3_solver s);
lz_check lz_solver_check_assumptions(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *a);
lz_ptr lz_solver_get_unsat_core(Z3_context c, Z3_solver s);
lz_str lz_solver_reason_unknown(Z3_context c, Z3_solver s);
lz_ptr lz_solver_get_model(Z3_context c, Z3_solver s);
lz_ptr lz_solver_get_assertions(Z3_context c, Z3_solver s);
lz_str lz_solver_to_string(Z3_context c, Z3_solver s);
lz_str lz_solver_to_smt2(Z3_context c, Z3_solver s);
lz_ptr lz_solver_get_statistics(Z3_context c, Z3_solver s);
lz_status lz_solver_assert_vector(Z3_context c, Z3_solver s, Z3_ast_vector v);
lz_ptr lz_solver_assert_tracked(Z3_context c, Z3_solver s, Z3_ast_vector v, unsigned n, const char *prefix);

unsigned lz_vec_size(Z3_context c, Z3_ast_vector v);
lz_ptr lz_vec_get(Z3_context c, Z3_ast_vector v, unsigned i);
void lz_vec_dec_ref(Z3_context c, Z3_ast_vector v);

lz_ptr lz_model_eval(Z3_context c, Z3_model m, Z3_ast a, int completion);
lz_ptr lz_model_get_decl(Z3_context c, Z3_model m, int funcs, unsigned i);
lz_ptr lz_model_get_const_interp(Z3_context c, Z3_model m, Z3_func_decl d);
lz_ptr lz_model_get_func_interp(Z3_context c, Z3_model m, Z3_func_decl d);
lz_ptr lz_func_interp_get_entry(Z3_context c, Z3_func_interp f, unsigned i);
lz_ptr lz_func_interp_get_else(Z3_context c, Z3_func_interp f);
lz_ptr lz_func_entry_get(Z3_context c, Z3_func_entry e, int value, unsigned i);
lz_ptr lz_model_get_sort(Z3_context c, Z3_model m, unsigned i);
lz_ptr lz_model_get_sort_universe(Z3_context c, Z3_model m, Z3_sort s);
lz_str lz_model_to_string(Z3_context c, Z3_model m);

lz_ptr lz_parse_smtlib2(Z3_context c, const char *text, unsigned nsorts,
                        const char **sort_names, Z3_sort *sorts, unsigned ndecls,
                        const char **decl_names, Z3_func_decl *decls);

lz_ptr lz_collect_decls(Z3_context c, Z3_ast_vector v);

#ifdef __cplusplus
}
#endif

#endif
