// C++ shims between the Go package and libz3's C API. See shim.h.
//
// Every shim follows the same pattern: clear the context's error code (some
// Z3 entry points, e.g. Z3_parse_smtlib2_string, do not reset it themselves),
// make the Z3 call(s) inside try/catch so that no C++ exception can unwind into
// Go frames, then read Z3_get_error_code. No error handler is installed on the
// context, so Z3 never calls exit() or throws to us on API misuse.

#include "shim.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

char *dup(const char *s) {
	if (s == nullptr) s = "";
	size_t n = std::strlen(s);
	char *r = static_cast<char *>(std::malloc(n + 1));
	if (r != nullptr) std::memcpy(r, s, n + 1);
	return r;
}

void reset(Z3_context c) { Z3_set_error(c, Z3_OK); }

// z3err returns the current error code and, when non-zero, a copy of its message.
int z3err(Z3_context c, char **msg) {
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK) *msg = dup(Z3_get_error_msg(c, e));
	return static_cast<int>(e);
}

lz_ptr ptr_err(int err, const char *msg) {
	lz_ptr r;
	r.p = nullptr;
	r.err = err;
	r.msg = dup(msg);
	return r;
}

lz_ptr cxx_ptr(const std::exception *e) {
	return ptr_err(LZ_ERR_CXX, e ? e->what() : "unknown C++ exception");
}

// fin_ast finishes a call that returned an AST-like object: on success it
// takes a reference for the Go side.
lz_ptr fin_ast(Z3_context c, Z3_ast a, bool allow_null = false) {
	lz_ptr r;
	r.p = nullptr;
	r.msg = nullptr;
	r.err = z3err(c, &r.msg);
	if (r.err != Z3_OK) return r;
	if (a == nullptr) {
		if (!allow_null) {
			r.err = LZ_ERR_NULL;
			r.msg = dup("Z3 returned a null object");
		}
		return r;
	}
	Z3_inc_ref(c, a);
	r.p = a;
	return r;
}

lz_str fin_str(Z3_context c, Z3_string s) {
	lz_str r;
	r.s = nullptr;
	r.msg = nullptr;
	r.err = z3err(c, &r.msg);
	if (r.err == Z3_OK) r.s = dup(s);
	return r;
}

lz_str cxx_str(const std::exception *e) {
	lz_str r;
	r.s = nullptr;
	r.err = LZ_ERR_CXX;
	r.msg = dup(e ? e->what() : "unknown C++ exception");
	return r;
}

lz_status fin_status(Z3_context c) {
	lz_status r;
	r.msg = nullptr;
	r.err = z3err(c, &r.msg);
	return r;
}

lz_status cxx_status(const std::exception *e) {
	lz_status r;
	r.err = LZ_ERR_CXX;
	r.msg = dup(e ? e->what() : "unknown C++ exception");
	return r;
}

std::string symbol_string(Z3_context c, Z3_symbol s) {
	if (Z3_get_symbol_kind(c, s) == Z3_INT_SYMBOL) {
		return "k!" + std::to_string(Z3_get_symbol_int(c, s));
	}
	Z3_string str = Z3_get_symbol_string(c, s);
	return std::string(str ? str : "");
}

lz_str fin_sym(Z3_context c, Z3_symbol s) {
	lz_str r;
	r.s = nullptr;
	r.msg = nullptr;
	r.err = z3err(c, &r.msg);
	if (r.err != Z3_OK) return r;
	std::string str = symbol_string(c, s);
	r.err = z3err(c, &r.msg);
	if (r.err == Z3_OK) r.s = dup(str.c_str());
	return r;
}

// rlimit_count reads the context-wide "rlimit count" statistic through the
// solver's statistics. Returns 0 if it is not reported.
uint64_t rlimit_count(Z3_context c, Z3_solver s) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	if (Z3_get_error_code(c) != Z3_OK || st == nullptr) return 0;
	Z3_stats_inc_ref(c, st);
	uint64_t v = 0;
	unsigned n = Z3_stats_size(c, st);
	for (unsigned i = 0; i < n; i++) {
		Z3_string k = Z3_stats_get_key(c, st, i);
		if (k != nullptr && std::strcmp(k, "rlimit count") == 0) {
			if (Z3_stats_is_uint(c, st, i)) {
				v = Z3_stats_get_uint_value(c, st, i);
			} else {
				v = static_cast<uint64_t>(Z3_stats_get_double_value(c, st, i));
			}
			break;
		}
	}
	Z3_stats_dec_ref(c, st);
	return v;
}

}  // namespace

#define TRY_PTR(c, body)                           \
	reset(c);                                      \
	try {                                          \
		body                                       \
	} catch (const std::exception &e) {            \
		return cxx_ptr(&e);                        \
	} catch (...) {                                \
		return cxx_ptr(nullptr);                   \
	}

#define TRY_STR(c, body)                           \
	reset(c);                                      \
	try {                                          \
		body                                       \
	} catch (const std::exception &e) {            \
		return cxx_str(&e);                        \
	} catch (...) {                                \
		return cxx_str(nullptr);                   \
	}

#define TRY_STATUS(c, body)                        \
	reset(c);                                      \
	try {                                          \
		body                                       \
	} catch (const std::exception &e) {            \
		return cxx_status(&e);                     \
	} catch (...) {                                \
		return cxx_status(nullptr);                \
	}

#define AST(x) reinterpret_cast<Z3_ast>(x)

extern "C" {

lz_ptr lz_mk_context(int n, const char **keys, const char **vals) {
	try {
		Z3_config cfg = Z3_mk_config();
		if (cfg == nullptr) return ptr_err(LZ_ERR_NULL, "Z3_mk_config failed");
		for (int i = 0; i < n; i++) Z3_set_param_value(cfg, keys[i], vals[i]);
		Z3_context c = Z3_mk_context_rc(cfg);
		Z3_del_config(cfg);
		if (c == nullptr) return ptr_err(LZ_ERR_NULL, "Z3_mk_context_rc failed");
		// No error handler: errors are only recorded and read back by the shims.
		Z3_set_error_handler(c, nullptr);
		lz_ptr r;
		r.p = c;
		r.err = 0;
		r.msg = nullptr;
		return r;
	} catch (const std::exception &e) {
		return cxx_ptr(&e);
	} catch (...) {
		return cxx_ptr(nullptr);
	}
}

void lz_release(Z3_context c, lz_ref *refs, int n) {
	try {
		for (int i = 0; i < n; i++) {
			switch (refs[i].kind) {
			case LZ_REF_AST:
				Z3_dec_ref(c, AST(refs[i].p));
				break;
			case LZ_REF_SOLVER:
				Z3_solver_dec_ref(c, reinterpret_cast<Z3_solver>(refs[i].p));
				break;
			case LZ_REF_MODEL:
				Z3_model_dec_ref(c, reinterpret_cast<Z3_model>(refs[i].p));
				break;
			}
		}
	} catch (...) {
	}
	reset(c);
}

// ---- sorts ----

lz_ptr lz_mk_simple_sort(Z3_context c, int which) {
	TRY_PTR(c, {
		Z3_sort s = nullptr;
		switch (which) {
		case LZ_SORT_BOOL: s = Z3_mk_bool_sort(c); break;
		case LZ_SORT_INT: s = Z3_mk_int_sort(c); break;
		case LZ_SORT_REAL: s = Z3_mk_real_sort(c); break;
		default: return ptr_err(Z3_INVALID_ARG, "unknown simple sort");
		}
		return fin_ast(c, AST(s));
	})
}

lz_ptr lz_mk_uninterpreted_sort(Z3_context c, const char *name) {
	TRY_PTR(c, {
		Z3_sort s = Z3_mk_uninterpreted_sort(c, Z3_mk_string_symbol(c, name));
		return fin_ast(c, AST(s));
	})
}

lz_ptr lz_mk_array_sort(Z3_context c, Z3_sort dom, Z3_sort rng) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_mk_array_sort(c, dom, rng))); })
}

lz_ptr lz_mk_seq_sort(Z3_context c, Z3_sort elem) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_mk_seq_sort(c, elem))); })
}

lz_ptr lz_mk_enum_sort(Z3_context c, const char *name, unsigned n, const char **names,
                       Z3_func_decl *consts, Z3_func_decl *testers) {
	TRY_PTR(c, {
		Z3_symbol *syms = static_cast<Z3_symbol *>(std::calloc(n ? n : 1, sizeof(Z3_symbol)));
		if (syms == nullptr) return ptr_err(Z3_MEMOUT_FAIL, "out of memory");
		for (unsigned i = 0; i < n; i++) syms[i] = Z3_mk_string_symbol(c, names[i]);
		Z3_sort s = Z3_mk_enumeration_sort(c, Z3_mk_string_symbol(c, name), n, syms, consts,
		                                   testers);
		std::free(syms);
		lz_ptr r = fin_ast(c, AST(s));
		if (r.err != 0) return r;
		for (unsigned i = 0; i < n; i++) {
			Z3_inc_ref(c, AST(consts[i]));
			Z3_inc_ref(c, AST(testers[i]));
		}
		return r;
	})
}

lz_ptr lz_mk_datatype(Z3_context c, const char *name, unsigned nctors,
                      const char **ctor_names, const char **tester_names,
                      const unsigned *nfields, const char **field_names,
                      Z3_sort *field_sorts, Z3_func_decl *ctors_out,
                      Z3_func_decl *testers_out, Z3_func_decl *accessors_out) {
	TRY_PTR(c, {
		unsigned total = 0;
		for (unsigned i = 0; i < nctors; i++) total += nfields[i];
		Z3_constructor *cons =
		    static_cast<Z3_constructor *>(std::calloc(nctors ? nctors : 1, sizeof(Z3_constructor)));
		Z3_symbol *fsyms = static_cast<Z3_symbol *>(std::calloc(total ? total : 1, sizeof(Z3_symbol)));
		unsigned *refs = static_cast<unsigned *>(std::calloc(total ? total : 1, sizeof(unsigned)));
		if (cons == nullptr || fsyms == nullptr || refs == nullptr) {
			std::free(cons);
			std::free(fsyms);
			std::free(refs);
			return ptr_err(Z3_MEMOUT_FAIL, "out of memory");
		}
		for (unsigned j = 0; j < total; j++) {
			fsyms[j] = Z3_mk_string_symbol(c, field_names[j]);
			refs[j] = 0;  // a NULL field sort refers to the datatype itself
		}
		lz_ptr r;
		r.p = nullptr;
		r.err = 0;
		r.msg = nullptr;
		unsigned off = 0;
		unsigned made = 0;
		for (unsigned i = 0; i < nctors && r.err == 0; i++) {
			cons[i] = Z3_mk_constructor(c, Z3_mk_string_symbol(c, ctor_names[i]),
			                            Z3_mk_string_symbol(c, tester_names[i]), nfields[i],
			                            fsyms + off, field_sorts + off, refs + off);
			r.err = z3err(c, &r.msg);
			if (r.err == 0) made++;
			off += nfields[i];
		}
		Z3_sort s = nullptr;
		if (r.err == 0) {
			s = Z3_mk_datatype(c, Z3_mk_string_symbol(c, name), nctors, cons);
			r = fin_ast(c, AST(s));
		}
		off = 0;
		for (unsigned i = 0; i < made; i++) {
			if (r.err == 0) {
				Z3_query_constructor(c, cons[i], nfields[i], &ctors_out[i], &testers_out[i],
				                     accessors_out + off);
				int e = z3err(c, &r.msg);
				if (e != 0) {
					r.err = e;
					Z3_dec_ref(c, AST(s));
					r.p = nullptr;
				} else {
					Z3_inc_ref(c, AST(ctors_out[i]));
					Z3_inc_ref(c, AST(testers_out[i]));
					for (unsigned j = 0; j < nfields[i]; j++) Z3_inc_ref(c, AST(accessors_out[off + j]));
				}
			}
			off += nfields[i];
		}
		for (unsigned i = 0; i < made; i++) Z3_del_constructor(c, cons[i]);
		std::free(cons);
		std::free(fsyms);
		std::free(refs);
		return r;
	})
}

lz_ptr lz_get_array_sort(Z3_context c, Z3_sort s, int range) {
	TRY_PTR(c, {
		Z3_sort r = range ? Z3_get_array_sort_range(c, s) : Z3_get_array_sort_domain(c, s);
		return fin_ast(c, AST(r));
	})
}

lz_ptr lz_get_seq_basis(Z3_context c, Z3_sort s) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_get_seq_sort_basis(c, s))); })
}

// what: 0 constructor i, 1 recognizer i, 2 accessor j of constructor i.
lz_ptr lz_get_datatype_decl(Z3_context c, Z3_sort s, int what, unsigned i, unsigned j) {
	TRY_PTR(c, {
		Z3_func_decl d = nullptr;
		switch (what) {
		case 0: d = Z3_get_datatype_sort_constructor(c, s, i); break;
		case 1: d = Z3_get_datatype_sort_recognizer(c, s, i); break;
		default: d = Z3_get_datatype_sort_constructor_accessor(c, s, i, j); break;
		}
		return fin_ast(c, AST(d));
	})
}

lz_str lz_sort_name(Z3_context c, Z3_sort s) {
	TRY_STR(c, {
		Z3_symbol sym = Z3_get_sort_name(c, s);
		return fin_sym(c, sym);
	})
}

// ---- terms ----

lz_ptr lz_mk_const(Z3_context c, const char *name, Z3_sort s, int fresh) {
	TRY_PTR(c, {
		Z3_ast a = fresh ? Z3_mk_fresh_const(c, name, s)
		                 : Z3_mk_const(c, Z3_mk_string_symbol(c, name), s);
		return fin_ast(c, a);
	})
}

lz_ptr lz_mk_int64(Z3_context c, int64_t v, Z3_sort s) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_int64(c, v, s)); })
}

lz_ptr lz_mk_numeral(Z3_context c, const char *v, Z3_sort s) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_numeral(c, v, s)); })
}

lz_ptr lz_mk_bool(Z3_context c, int v) {
	TRY_PTR(c, { return fin_ast(c, v ? Z3_mk_true(c) : Z3_mk_false(c)); })
}

lz_ptr lz_mk_unary(Z3_context c, int op, Z3_ast a) {
	TRY_PTR(c, {
		Z3_ast r = nullptr;
		switch (op) {
		case LZ_NOT: r = Z3_mk_not(c, a); break;
		case LZ_UMINUS: r = Z3_mk_unary_minus(c, a); break;
		case LZ_ARRAY_DEFAULT: r = Z3_mk_array_default(c, a); break;
		case LZ_SEQ_UNIT: r = Z3_mk_seq_unit(c, a); break;
		case LZ_SEQ_LENGTH: r = Z3_mk_seq_length(c, a); break;
		case LZ_SIMPLIFY: r = Z3_simplify(c, a); break;
		default: return ptr_err(Z3_INVALID_ARG, "unknown unary operator");
		}
		return fin_ast(c, r);
	})
}

lz_ptr lz_mk_binary(Z3_context c, int op, Z3_ast a, Z3_ast b) {
	TRY_PTR(c, {
		Z3_ast r = nullptr;
		switch (op) {
		case LZ_EQ: r = Z3_mk_eq(c, a, b); break;
		case LZ_IMPLIES: r = Z3_mk_implies(c, a, b); break;
		case LZ_IFF: r = Z3_mk_iff(c, a, b); break;
		case LZ_XOR: r = Z3_mk_xor(c, a, b); break;
		case LZ_DIV: r = Z3_mk_div(c, a, b); break;
		case LZ_MOD: r = Z3_mk_mod(c, a, b); break;
		case LZ_REM: r = Z3_mk_rem(c, a, b); break;
		case LZ_LT: r = Z3_mk_lt(c, a, b); break;
		case LZ_LE: r = Z3_mk_le(c, a, b); break;
		case LZ_GT: r = Z3_mk_gt(c, a, b); break;
		case LZ_GE: r = Z3_mk_ge(c, a, b); break;
		case LZ_SELECT: r = Z3_mk_select(c, a, b); break;
		case LZ_SEQ_NTH: r = Z3_mk_seq_nth(c, a, b); break;
		case LZ_SEQ_PREFIX: r = Z3_mk_seq_prefix(c, a, b); break;
		case LZ_SEQ_CONTAINS: r = Z3_mk_seq_contains(c, a, b); break;
		default: return ptr_err(Z3_INVALID_ARG, "unknown binary operator");
		}
		return fin_ast(c, r);
	})
}

lz_ptr lz_mk_ternary(Z3_context c, int op, Z3_ast a, Z3_ast b, Z3_ast d) {
	TRY_PTR(c, {
		Z3_ast r = nullptr;
		switch (op) {
		case LZ_ITE: r = Z3_mk_ite(c, a, b, d); break;
		case LZ_STORE: r = Z3_mk_store(c, a, b, d); break;
		case LZ_SEQ_EXTRACT: r = Z3_mk_seq_extract(c, a, b, d); break;
		default: return ptr_err(Z3_INVALID_ARG, "unknown ternary operator");
		}
		return fin_ast(c, r);
	})
}

lz_ptr lz_mk_nary(Z3_context c, int op, unsigned n, Z3_ast *args) {
	TRY_PTR(c, {
		Z3_ast r = nullptr;
		switch (op) {
		case LZ_AND: r = Z3_mk_and(c, n, args); break;
		case LZ_OR: r = Z3_mk_or(c, n, args); break;
		case LZ_ADD: r = Z3_mk_add(c, n, args); break;
		case LZ_SUB: r = Z3_mk_sub(c, n, args); break;
		case LZ_MUL: r = Z3_mk_mul(c, n, args); break;
		case LZ_DISTINCT: r = Z3_mk_distinct(c, n, args); break;
		case LZ_SEQ_CONCAT: r = Z3_mk_seq_concat(c, n, args); break;
		default: return ptr_err(Z3_INVALID_ARG, "unknown n-ary operator");
		}
		return fin_ast(c, r);
	})
}

lz_ptr lz_mk_const_array(Z3_context c, Z3_sort dom, Z3_ast v) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_const_array(c, dom, v)); })
}

lz_ptr lz_mk_seq_empty(Z3_context c, Z3_sort seq) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_seq_empty(c, seq)); })
}

lz_ptr lz_mk_func_decl(Z3_context c, const char *name, unsigned n, Z3_sort *dom,
                       Z3_sort rng, int fresh) {
	TRY_PTR(c, {
		Z3_func_decl d = fresh ? Z3_mk_fresh_func_decl(c, name, n, dom, rng)
		                       : Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), n, dom, rng);
		return fin_ast(c, AST(d));
	})
}

lz_ptr lz_mk_app(Z3_context c, Z3_func_decl d, unsigned n, Z3_ast *args) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_app(c, d, n, args)); })
}

lz_ptr lz_mk_pattern(Z3_context c, unsigned n, Z3_ast *terms) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_mk_pattern(c, n, terms))); })
}

lz_ptr lz_mk_quantifier(Z3_context c, int forall, unsigned weight, unsigned nbound,
                        Z3_app *bound, unsigned npat, Z3_pattern *pats, Z3_ast body) {
	TRY_PTR(c, {
		Z3_ast r = forall ? Z3_mk_forall_const(c, weight, nbound, bound, npat, pats, body)
		                  : Z3_mk_exists_const(c, weight, nbound, bound, npat, pats, body);
		return fin_ast(c, r);
	})
}

lz_ptr lz_mk_lambda(Z3_context c, unsigned nbound, Z3_app *bound, Z3_ast body) {
	TRY_PTR(c, { return fin_ast(c, Z3_mk_lambda_const(c, nbound, bound, body)); })
}

// ---- inspection ----

lz_str lz_ast_to_string(Z3_context c, Z3_ast a) {
	TRY_STR(c, { return fin_str(c, Z3_ast_to_string(c, a)); })
}

lz_ptr lz_get_sort(Z3_context c, Z3_ast a) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_get_sort(c, a))); })
}

lz_str lz_get_numeral_string(Z3_context c, Z3_ast a) {
	TRY_STR(c, { return fin_str(c, Z3_get_numeral_string(c, a)); })
}

lz_ptr lz_get_app_decl(Z3_context c, Z3_ast a) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_get_app_decl(c, Z3_to_app(c, a)))); })
}

lz_ptr lz_get_app_arg(Z3_context c, Z3_ast a, unsigned i) {
	TRY_PTR(c, { return fin_ast(c, Z3_get_app_arg(c, Z3_to_app(c, a), i)); })
}

lz_ptr lz_get_as_array_func_decl(Z3_context c, Z3_ast a) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_get_as_array_func_decl(c, a))); })
}

lz_ptr lz_get_quantifier_body(Z3_context c, Z3_ast a) {
	TRY_PTR(c, { return fin_ast(c, Z3_get_quantifier_body(c, a)); })
}

lz_ptr lz_get_quantifier_bound_sort(Z3_context c, Z3_ast a, unsigned i) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_get_quantifier_bound_sort(c, a, i))); })
}

lz_str lz_get_quantifier_bound_name(Z3_context c, Z3_ast a, unsigned i) {
	TRY_STR(c, { return fin_sym(c, Z3_get_quantifier_bound_name(c, a, i)); })
}

lz_str lz_get_decl_name(Z3_context c, Z3_func_decl d) {
	TRY_STR(c, { return fin_sym(c, Z3_get_decl_name(c, d)); })
}

lz_ptr lz_get_decl_sort(Z3_context c, Z3_func_decl d, int range, unsigned i) {
	TRY_PTR(c, {
		Z3_sort s = range ? Z3_get_range(c, d) : Z3_get_domain(c, d, i);
		return fin_ast(c, AST(s));
	})
}

// ---- solver ----

// kind: 0 default (combined) solver, 1 simple solver, 2 solver for logic.
lz_ptr lz_mk_solver(Z3_context c, int kind, const char *logic) {
	TRY_PTR(c, {
		Z3_solver s = nullptr;
		switch (kind) {
		case 1: s = Z3_mk_simple_solver(c); break;
		case 2: s = Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, logic)); break;
		default: s = Z3_mk_solver(c); break;
		}
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (s == nullptr) return ptr_err(LZ_ERR_NULL, "Z3 returned a null solver");
		Z3_solver_inc_ref(c, s);
		r.p = s;
		return r;
	})
}

// kinds: 0 bool (uvals), 1 unsigned (uvals), 2 double (dvals), 3 symbol (svals).
// Parameters from index nchecked on are validated against the solver's
// parameter descriptions. Fetching those descriptions initializes the solver,
// which costs milliseconds for the default solver, so the caller passes the
// parameters it knows to be valid first and only validates the rest.
lz_status lz_solver_set_params(Z3_context c, Z3_solver s, unsigned n, unsigned nchecked,
                               const char **names, const int *kinds, const unsigned *uvals,
                               const double *dvals, const char **svals) {
	TRY_STATUS(c, {
		Z3_param_descrs d = nullptr;
		lz_status st;
		st.err = 0;
		st.msg = nullptr;
		if (nchecked < n) {
			d = Z3_solver_get_param_descrs(c, s);
			st = fin_status(c);
			if (st.err != 0) return st;
			Z3_param_descrs_inc_ref(c, d);
		}
		Z3_params p = Z3_mk_params(c);
		st = fin_status(c);
		if (st.err != 0) {
			if (d != nullptr) Z3_param_descrs_dec_ref(c, d);
			return st;
		}
		Z3_params_inc_ref(c, p);
		for (unsigned i = 0; i < n && st.err == 0; i++) {
			Z3_symbol k = Z3_mk_string_symbol(c, names[i]);
			bool check = i >= nchecked;
			Z3_param_kind pk = check ? Z3_param_descrs_get_kind(c, d, k) : Z3_PK_INVALID;
			bool ok = false;
			switch (kinds[i]) {
			case 0:
				ok = !check || pk == Z3_PK_BOOL;
				if (ok) Z3_params_set_bool(c, p, k, uvals[i] != 0);
				break;
			case 1:
				ok = !check || pk == Z3_PK_UINT;
				if (ok) Z3_params_set_uint(c, p, k, uvals[i]);
				break;
			case 2:
				ok = !check || pk == Z3_PK_DOUBLE;
				if (ok) Z3_params_set_double(c, p, k, dvals[i]);
				break;
			case 3:
				ok = !check || pk == Z3_PK_SYMBOL || pk == Z3_PK_STRING;
				if (ok) Z3_params_set_symbol(c, p, k, Z3_mk_string_symbol(c, svals[i]));
				break;
			}
			if (!ok) {
				st.err = LZ_ERR_PARAM;
				std::string m = std::string("unknown solver parameter or wrong value type: ") + names[i];
				st.msg = dup(m.c_str());
				break;
			}
			st = fin_status(c);
		}
		if (st.err == 0 && d != nullptr) {
			Z3_params_validate(c, p, d);
			st = fin_status(c);
		}
		if (st.err == 0) {
			Z3_solver_set_params(c, s, p);
			st = fin_status(c);
		}
		Z3_params_dec_ref(c, p);
		if (d != nullptr) Z3_param_descrs_dec_ref(c, d);
		return st;
	})
}

lz_status lz_solver_assert(Z3_context c, Z3_solver s, Z3_ast a) {
	TRY_STATUS(c, {
		Z3_solver_assert(c, s, a);
		return fin_status(c);
	})
}

lz_status lz_solver_assert_vector(Z3_context c, Z3_solver s, Z3_ast_vector v) {
	TRY_STATUS(c, {
		unsigned n = Z3_ast_vector_size(c, v);
		for (unsigned i = 0; i < n; i++) {
			Z3_solver_assert(c, s, Z3_ast_vector_get(c, v, i));
			lz_status st = fin_status(c);
			if (st.err != 0) return st;
		}
		return fin_status(c);
	})
}

// op: 0 push, 1 pop n, 2 reset.
lz_status lz_solver_scope(Z3_context c, Z3_solver s, int op, unsigned n) {
	TRY_STATUS(c, {
		switch (op) {
		case 0: Z3_solver_push(c, s); break;
		case 1: Z3_solver_pop(c, s, n); break;
		default: Z3_solver_reset(c, s); break;
		}
		return fin_status(c);
	})
}

// solver_check checks s, under the n assumption literals a when assuming
// is set (Z3_solver_check_assumptions), else as Z3_solver_check does, and
// reads the resource count before and after.
static lz_check solver_check(Z3_context c, Z3_solver s, bool assuming, unsigned n, const Z3_ast *a) {
	lz_check r;
	r.result = Z3_L_UNDEF;
	r.rlimit_before = 0;
	r.rlimit_after = 0;
	r.err = 0;
	r.msg = nullptr;
	reset(c);
	try {
		r.rlimit_before = rlimit_count(c, s);
		reset(c);
		r.result = assuming ? Z3_solver_check_assumptions(c, s, n, a) : Z3_solver_check(c, s);
		r.err = z3err(c, &r.msg);
		if (r.err == 0) {
			r.rlimit_after = rlimit_count(c, s);
			reset(c);
		}
	} catch (const std::exception &e) {
		r.err = LZ_ERR_CXX;
		r.msg = dup(e.what());
	} catch (...) {
		r.err = LZ_ERR_CXX;
		r.msg = dup("unknown C++ exception");
	}
	return r;
}

lz_check lz_solver_check(Z3_context c, Z3_solver s) { return solver_check(c, s, false, 0, nullptr); }

lz_check lz_solver_check_assumptions(Z3_context c, Z3_solver s, unsigned n, const Z3_ast *a) {
	return solver_check(c, s, true, n, a);
}

lz_str lz_solver_reason_unknown(Z3_context c, Z3_solver s) {
	TRY_STR(c, { return fin_str(c, Z3_solver_get_reason_unknown(c, s)); })
}

lz_ptr lz_solver_get_model(Z3_context c, Z3_solver s) {
	TRY_PTR(c, {
		Z3_model m = Z3_solver_get_model(c, s);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (m == nullptr) return ptr_err(LZ_ERR_NULL, "no model available");
		Z3_model_inc_ref(c, m);
		r.p = m;
		return r;
	})
}

// vector_result returns v, just returned by Z3, inc_ref'd, or the error Z3
// reported.
static lz_ptr vector_result(Z3_context c, Z3_ast_vector v) {
	lz_ptr r;
	r.p = nullptr;
	r.msg = nullptr;
	r.err = z3err(c, &r.msg);
	if (r.err != 0) return r;
	if (v == nullptr) return ptr_err(LZ_ERR_NULL, "Z3 returned a null vector");
	Z3_ast_vector_inc_ref(c, v);
	r.p = v;
	return r;
}

// lz_solver_assert_tracked asserts the elements of v in s: the first
// size(v) - n as they are, each of the last n under its own tracking
// literal, the Boolean constant named prefix followed by its index among
// them ((=> lit a)). It returns the n literals, in order, as an inc_ref'd
// vector.
lz_ptr lz_solver_assert_tracked(Z3_context c, Z3_solver s, Z3_ast_vector v, unsigned n, const char *prefix) {
	TRY_PTR(c, {
		unsigned size = Z3_ast_vector_size(c, v);
		if (n > size) return ptr_err(Z3_INVALID_ARG, "more tracked assertions than assertions");
		unsigned k = size - n;
		for (unsigned i = 0; i < k; i++) {
			Z3_solver_assert(c, s, Z3_ast_vector_get(c, v, i));
			if (Z3_get_error_code(c) != Z3_OK) return vector_result(c, nullptr);
		}
		Z3_sort b = Z3_mk_bool_sort(c);
		Z3_ast_vector lits = Z3_mk_ast_vector(c);
		Z3_ast_vector_inc_ref(c, lits);
		std::string base(prefix);
		for (unsigned i = 0; i < n; i++) {
			std::string name = base + std::to_string(i);
			Z3_ast lit = Z3_mk_const(c, Z3_mk_string_symbol(c, name.c_str()), b);
			Z3_ast_vector_push(c, lits, lit);
			Z3_solver_assert(c, s, Z3_mk_implies(c, lit, Z3_ast_vector_get(c, v, k + i)));
			if (Z3_get_error_code(c) != Z3_OK) {
				Z3_ast_vector_dec_ref(c, lits);
				return vector_result(c, nullptr);
			}
		}
		lz_ptr r = vector_result(c, lits); // its own reference
		Z3_ast_vector_dec_ref(c, lits);
		return r;
	})
}

lz_ptr lz_solver_get_assertions(Z3_context c, Z3_solver s) {
	TRY_PTR(c, { return vector_result(c, Z3_solver_get_assertions(c, s)); })
}

lz_ptr lz_solver_get_unsat_core(Z3_context c, Z3_solver s) {
	TRY_PTR(c, { return vector_result(c, Z3_solver_get_unsat_core(c, s)); })
}

lz_str lz_solver_to_string(Z3_context c, Z3_solver s) {
	TRY_STR(c, { return fin_str(c, Z3_solver_to_string(c, s)); })
}

// lz_solver_to_smt2 prints the current assertions of s as a standalone
// benchmark. It copies them into a fresh simple solver first, so the output
// holds only declarations and assertions (no model-converter residue left by
// an earlier check), then appends (check-sat).
lz_str lz_solver_to_smt2(Z3_context c, Z3_solver s) {
	TRY_STR(c, {
		Z3_ast_vector v = Z3_solver_get_assertions(c, s);
		lz_str r = fin_str(c, "");
		if (r.err != 0) return r;
		std::free(r.s);
		r.s = nullptr;
		Z3_ast_vector_inc_ref(c, v);
		Z3_solver t = Z3_mk_simple_solver(c);
		r = fin_str(c, "");
		if (r.err != 0) {
			Z3_ast_vector_dec_ref(c, v);
			return r;
		}
		std::free(r.s);
		r.s = nullptr;
		Z3_solver_inc_ref(c, t);
		unsigned n = Z3_ast_vector_size(c, v);
		for (unsigned i = 0; i < n; i++) Z3_solver_assert(c, t, Z3_ast_vector_get(c, v, i));
		r = fin_str(c, "");
		if (r.err == 0) {
			std::free(r.s);
			r.s = nullptr;
			std::string out(Z3_solver_to_string(c, t));
			out += "(check-sat)\n";
			r = fin_str(c, out.c_str());
		}
		Z3_solver_dec_ref(c, t);
		Z3_ast_vector_dec_ref(c, v);
		return r;
	})
}

lz_ptr lz_solver_get_statistics(Z3_context c, Z3_solver s) {
	TRY_PTR(c, {
		Z3_stats st = Z3_solver_get_statistics(c, s);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (st == nullptr) return ptr_err(LZ_ERR_NULL, "Z3 returned null statistics");
		Z3_stats_inc_ref(c, st);
		r.p = st;
		return r;
	})
}

// ---- vectors ----

unsigned lz_vec_size(Z3_context c, Z3_ast_vector v) { return Z3_ast_vector_size(c, v); }

lz_ptr lz_vec_get(Z3_context c, Z3_ast_vector v, unsigned i) {
	TRY_PTR(c, { return fin_ast(c, Z3_ast_vector_get(c, v, i)); })
}

void lz_vec_dec_ref(Z3_context c, Z3_ast_vector v) { Z3_ast_vector_dec_ref(c, v); }

// ---- models ----

lz_ptr lz_model_eval(Z3_context c, Z3_model m, Z3_ast a, int completion) {
	TRY_PTR(c, {
		Z3_ast out = nullptr;
		bool ok = Z3_model_eval(c, m, a, completion != 0, &out);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (!ok || out == nullptr) return ptr_err(LZ_ERR_EVAL, "model evaluation failed");
		return fin_ast(c, out);
	})
}

lz_ptr lz_model_get_decl(Z3_context c, Z3_model m, int funcs, unsigned i) {
	TRY_PTR(c, {
		Z3_func_decl d = funcs ? Z3_model_get_func_decl(c, m, i) : Z3_model_get_const_decl(c, m, i);
		return fin_ast(c, AST(d));
	})
}

lz_ptr lz_model_get_const_interp(Z3_context c, Z3_model m, Z3_func_decl d) {
	TRY_PTR(c, { return fin_ast(c, Z3_model_get_const_interp(c, m, d), true); })
}

lz_ptr lz_model_get_func_interp(Z3_context c, Z3_model m, Z3_func_decl d) {
	TRY_PTR(c, {
		Z3_func_interp f = Z3_model_get_func_interp(c, m, d);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0 || f == nullptr) return r;
		Z3_func_interp_inc_ref(c, f);
		r.p = f;
		return r;
	})
}

lz_ptr lz_func_interp_get_entry(Z3_context c, Z3_func_interp f, unsigned i) {
	TRY_PTR(c, {
		Z3_func_entry e = Z3_func_interp_get_entry(c, f, i);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (e == nullptr) return ptr_err(LZ_ERR_NULL, "Z3 returned a null entry");
		Z3_func_entry_inc_ref(c, e);
		r.p = e;
		return r;
	})
}

lz_ptr lz_func_interp_get_else(Z3_context c, Z3_func_interp f) {
	TRY_PTR(c, { return fin_ast(c, Z3_func_interp_get_else(c, f), true); })
}

lz_ptr lz_func_entry_get(Z3_context c, Z3_func_entry e, int value, unsigned i) {
	TRY_PTR(c, {
		Z3_ast a = value ? Z3_func_entry_get_value(c, e) : Z3_func_entry_get_arg(c, e, i);
		return fin_ast(c, a);
	})
}

lz_ptr lz_model_get_sort(Z3_context c, Z3_model m, unsigned i) {
	TRY_PTR(c, { return fin_ast(c, AST(Z3_model_get_sort(c, m, i))); })
}

lz_ptr lz_model_get_sort_universe(Z3_context c, Z3_model m, Z3_sort s) {
	TRY_PTR(c, {
		Z3_ast_vector v = Z3_model_get_sort_universe(c, m, s);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		if (v == nullptr) return ptr_err(LZ_ERR_NULL, "sort has no universe in this model");
		Z3_ast_vector_inc_ref(c, v);
		r.p = v;
		return r;
	})
}

lz_str lz_model_to_string(Z3_context c, Z3_model m) {
	TRY_STR(c, { return fin_str(c, Z3_model_to_string(c, m)); })
}

// ---- parsing ----

lz_ptr lz_parse_smtlib2(Z3_context c, const char *text, unsigned nsorts,
                        const char **sort_names, Z3_sort *sorts, unsigned ndecls,
                        const char **decl_names, Z3_func_decl *decls) {
	TRY_PTR(c, {
		Z3_symbol *ssyms = static_cast<Z3_symbol *>(std::calloc(nsorts ? nsorts : 1, sizeof(Z3_symbol)));
		Z3_symbol *dsyms = static_cast<Z3_symbol *>(std::calloc(ndecls ? ndecls : 1, sizeof(Z3_symbol)));
		if (ssyms == nullptr || dsyms == nullptr) {
			std::free(ssyms);
			std::free(dsyms);
			return ptr_err(Z3_MEMOUT_FAIL, "out of memory");
		}
		for (unsigned i = 0; i < nsorts; i++) ssyms[i] = Z3_mk_string_symbol(c, sort_names[i]);
		for (unsigned i = 0; i < ndecls; i++) dsyms[i] = Z3_mk_string_symbol(c, decl_names[i]);
		reset(c);
		Z3_ast_vector v = Z3_parse_smtlib2_string(c, text, nsorts, ssyms, sorts, ndecls, dsyms, decls);
		std::free(ssyms);
		std::free(dsyms);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (v != nullptr) Z3_ast_vector_inc_ref(c, v);
		if (r.err != 0) {
			// On a parse error Z3 still hands back a (partial) vector; free it.
			if (v != nullptr) Z3_ast_vector_dec_ref(c, v);
			reset(c);
			return r;
		}
		if (v == nullptr) return ptr_err(LZ_ERR_NULL, "Z3 returned a null vector");
		r.p = v;
		return r;
	})
}

// lz_collect_decls returns a new vector holding every uninterpreted function
// declaration (constants included) occurring in the terms of v, in order of
// first occurrence, descending into quantifier and lambda bodies.
lz_ptr lz_collect_decls(Z3_context c, Z3_ast_vector v) {
	TRY_PTR(c, {
		Z3_ast_vector out = Z3_mk_ast_vector(c);
		lz_ptr r;
		r.p = nullptr;
		r.msg = nullptr;
		r.err = z3err(c, &r.msg);
		if (r.err != 0) return r;
		Z3_ast_vector_inc_ref(c, out);
		std::unordered_set<unsigned> seen;
		std::unordered_set<unsigned> seen_decls;
		std::vector<Z3_ast> todo;
		unsigned n = Z3_ast_vector_size(c, v);
		for (unsigned i = n; i > 0; i--) todo.push_back(Z3_ast_vector_get(c, v, i - 1));
		while (!todo.empty()) {
			Z3_ast a = todo.back();
			todo.pop_back();
			if (!seen.insert(Z3_get_ast_id(c, a)).second) continue;
			switch (Z3_get_ast_kind(c, a)) {
			case Z3_APP_AST: {
				Z3_app app = Z3_to_app(c, a);
				Z3_func_decl d = Z3_get_app_decl(c, app);
				if (Z3_get_decl_kind(c, d) == Z3_OP_UNINTERPRETED &&
				    seen_decls.insert(Z3_get_func_decl_id(c, d)).second) {
					Z3_ast_vector_push(c, out, reinterpret_cast<Z3_ast>(d));
				}
				unsigned k = Z3_get_app_num_args(c, app);
				for (unsigned i = k; i > 0; i--) todo.push_back(Z3_get_app_arg(c, app, i - 1));
				break;
			}
			case Z3_QUANTIFIER_AST:
				todo.push_back(Z3_get_quantifier_body(c, a));
				break;
			default:
				break;
			}
		}
		r.err = z3err(c, &r.msg);
		if (r.err != 0) {
			Z3_ast_vector_dec_ref(c, out);
			return r;
		}
		r.p = out;
		return r;
	})
}

}  // extern "C"
