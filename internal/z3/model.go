package z3

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"sync"
)

// Model is a Z3 model, obtained from Solver.Model after a Sat check. Close
// it when done; its methods are serialized by the context lock.
type Model struct {
	ctx     *Context
	mu      sync.Mutex // guards m (set to nil by Close)
	m       C.Z3_model
	cleanup runtime.Cleanup
}

// FuncEntry is one point of a finite function interpretation.
type FuncEntry struct {
	Args  []AST
	Value AST
}

// FuncInterp is the interpretation of a function (or of an array given as
// (_ as-array f)) in a model: explicit entries and a default value.
type FuncInterp struct {
	Arity   int
	Entries []FuncEntry
	Else    AST // the value for all other arguments; may be the zero AST
}

func (m *Model) lock() (C.Z3_context, C.Z3_model, error) {
	if m == nil {
		return nil, nil, ErrClosed
	}
	c, err := m.ctx.lock()
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	mp := m.m
	m.mu.Unlock()
	if mp == nil {
		m.ctx.mu.Unlock()
		return nil, nil, ErrClosed
	}
	return c, mp, nil
}

// Context returns the model's context.
func (m *Model) Context() *Context { return m.ctx }

// Close releases the model. It is idempotent; closing the context also
// releases it. Values obtained from the model stay valid.
func (m *Model) Close() {
	if m == nil {
		return
	}
	c, err := m.ctx.lock()
	m.mu.Lock()
	mp := m.m
	m.m = nil
	m.mu.Unlock()
	m.cleanup.Stop()
	if err != nil {
		return
	}
	defer m.ctx.mu.Unlock()
	if mp != nil {
		C.Z3_model_dec_ref(c, mp)
	}
}

// String returns Z3's rendering of the model.
func (m *Model) String() string {
	c, mp, err := m.lock()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	defer m.ctx.mu.Unlock()
	s, err := goString("Model.String", C.lz_model_to_string(c, mp))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return s
}

// Eval evaluates a in the model. With completion, constants and functions
// the model leaves unspecified get default values, so the result is a value
// (numeral, true/false, universe element, datatype value, array value);
// without it, unspecified parts stay symbolic.
func (m *Model) Eval(a AST, completion bool) (AST, error) {
	const op = "Eval"
	if err := m.ctx.checkASTs(op, a); err != nil {
		return AST{}, err
	}
	c, mp, err := m.lock()
	if err != nil {
		return AST{}, err
	}
	defer m.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	comp := C.int(0)
	if completion {
		comp = 1
	}
	return m.ctx.astResult(op, C.lz_model_eval(c, mp, a.c(), comp))
}

func (m *Model) decls(op string, funcs C.int) ([]FuncDecl, error) {
	c, mp, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer m.ctx.mu.Unlock()
	return m.declsLocked(op, c, mp, funcs)
}

func (m *Model) declsLocked(op string, c C.Z3_context, mp C.Z3_model, funcs C.int) ([]FuncDecl, error) {
	var n int
	if funcs != 0 {
		n = int(C.Z3_model_get_num_funcs(c, mp))
	} else {
		n = int(C.Z3_model_get_num_consts(c, mp))
	}
	out := make([]FuncDecl, 0, n)
	for i := 0; i < n; i++ {
		h, err := m.ctx.result(op, C.lz_model_get_decl(c, mp, funcs, C.uint(i)))
		if err != nil {
			return nil, err
		}
		out = append(out, FuncDecl{h})
	}
	return out, nil
}

// ConstDecls returns the declarations of the constants the model
// interprets.
func (m *Model) ConstDecls() ([]FuncDecl, error) { return m.decls("ConstDecls", 0) }

// FuncDecls returns the declarations of the functions (arity > 0) the model
// interprets, including Z3's auxiliary functions behind as-array values.
func (m *Model) FuncDecls() ([]FuncDecl, error) { return m.decls("FuncDecls", 1) }

// Consts returns the constants the model interprets, by name, as terms
// (the declaration applied to no arguments), ready to be used in Eval or in
// larger terms. If two constants share a name (with different sorts), the
// later one in Z3's order wins; use ConstDecls to see all.
func (m *Model) Consts() (map[string]AST, error) {
	const op = "Consts"
	c, mp, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer m.ctx.mu.Unlock()
	ds, err := m.declsLocked(op, c, mp, 0)
	if err != nil {
		return nil, err
	}
	out := make(map[string]AST, len(ds))
	for _, d := range ds {
		name, err := goString(op, C.lz_get_decl_name(c, d.c()))
		if err != nil {
			return nil, err
		}
		a, err := m.ctx.astResult(op, C.lz_mk_app(c, d.c(), 0, nil))
		if err != nil {
			return nil, err
		}
		out[name] = a
	}
	runtime.KeepAlive(ds)
	return out, nil
}

// ConstInterp returns the value the model assigns to the constant d; ok is
// false if the model leaves it unspecified.
func (m *Model) ConstInterp(d FuncDecl) (v AST, ok bool, err error) {
	const op = "ConstInterp"
	if err := m.ctx.checkHandle(op, "FuncDecl", d.h); err != nil {
		return AST{}, false, err
	}
	c, mp, err := m.lock()
	if err != nil {
		return AST{}, false, err
	}
	defer m.ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	if C.Z3_get_arity(c, d.c()) != 0 {
		return AST{}, false, usageErr(op, "not a constant")
	}
	a, err := m.ctx.astResult(op, C.lz_model_get_const_interp(c, mp, d.c()))
	if err != nil {
		return AST{}, false, err
	}
	return a, !a.IsNil(), nil
}

// FuncInterp returns the interpretation of function d (also the function
// behind an as-array value, see AST.AsArrayDecl); ok is false if the model
// leaves it unspecified.
func (m *Model) FuncInterp(d FuncDecl) (fi *FuncInterp, ok bool, err error) {
	const op = "FuncInterp"
	if err := m.ctx.checkHandle(op, "FuncDecl", d.h); err != nil {
		return nil, false, err
	}
	c, mp, err := m.lock()
	if err != nil {
		return nil, false, err
	}
	defer m.ctx.mu.Unlock()
	defer runtime.KeepAlive(d.h)
	r := C.lz_model_get_func_interp(c, mp, d.c())
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, false, err
	}
	if r.p == nil {
		return nil, false, nil
	}
	f := C.Z3_func_interp(r.p)
	defer C.Z3_func_interp_dec_ref(c, f)
	fi = &FuncInterp{Arity: int(C.Z3_func_interp_get_arity(c, f))}
	n := int(C.Z3_func_interp_get_num_entries(c, f))
	for i := 0; i < n; i++ {
		er := C.lz_func_interp_get_entry(c, f, C.uint(i))
		if err := shimErr(op, er.err, er.msg); err != nil {
			return nil, false, err
		}
		e := C.Z3_func_entry(er.p)
		entry, err := m.readEntry(op, c, e)
		C.Z3_func_entry_dec_ref(c, e)
		if err != nil {
			return nil, false, err
		}
		fi.Entries = append(fi.Entries, entry)
	}
	fi.Else, err = m.ctx.astResult(op, C.lz_func_interp_get_else(c, f))
	if err != nil {
		return nil, false, err
	}
	return fi, true, nil
}

func (m *Model) readEntry(op string, c C.Z3_context, e C.Z3_func_entry) (FuncEntry, error) {
	var entry FuncEntry
	k := int(C.Z3_func_entry_get_num_args(c, e))
	for j := 0; j < k; j++ {
		a, err := m.ctx.astResult(op, C.lz_func_entry_get(c, e, 0, C.uint(j)))
		if err != nil {
			return FuncEntry{}, err
		}
		entry.Args = append(entry.Args, a)
	}
	v, err := m.ctx.astResult(op, C.lz_func_entry_get(c, e, 1, 0))
	if err != nil {
		return FuncEntry{}, err
	}
	entry.Value = v
	return entry, nil
}

// Sorts returns the uninterpreted sorts that have a finite universe in the
// model.
func (m *Model) Sorts() ([]Sort, error) {
	const op = "Sorts"
	c, mp, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer m.ctx.mu.Unlock()
	return m.sortsLocked(op, c, mp)
}

func (m *Model) sortsLocked(op string, c C.Z3_context, mp C.Z3_model) ([]Sort, error) {
	n := int(C.Z3_model_get_num_sorts(c, mp))
	out := make([]Sort, 0, n)
	for i := 0; i < n; i++ {
		s, err := m.ctx.sortResult(op, C.lz_model_get_sort(c, mp, C.uint(i)))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// SortUniverse returns the elements of an uninterpreted sort in the model
// (constants named like "T!val!0"). It is an error for a sort the model has
// no universe for.
func (m *Model) SortUniverse(s Sort) ([]AST, error) {
	const op = "SortUniverse"
	if err := m.ctx.checkSorts(op, s); err != nil {
		return nil, err
	}
	c, mp, err := m.lock()
	if err != nil {
		return nil, err
	}
	defer m.ctx.mu.Unlock()
	defer runtime.KeepAlive(s.h)
	return m.universeLocked(op, c, mp, s)
}

func (m *Model) universeLocked(op string, c C.Z3_context, mp C.Z3_model, s Sort) ([]AST, error) {
	r := C.lz_model_get_sort_universe(c, mp, s.c())
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	return m.ctx.vectorToASTs(op, c, C.Z3_ast_vector(r.p))
}

// EvalSMTLIB2 parses expr, an SMT-LIB2 term over the model's constants,
// functions, uninterpreted sorts, universe elements (e.g. "T!val!0") and
// datatype constructors, and evaluates it in the model, e.g.
// EvalSMTLIB2("(select s.status T!val!0)", true).
func (m *Model) EvalSMTLIB2(expr string, completion bool) (AST, error) {
	const op = "EvalSMTLIB2"
	c, mp, err := m.lock()
	if err != nil {
		return AST{}, err
	}
	sorts, decls, err := m.vocabularyLocked(op, c, mp)
	m.ctx.mu.Unlock()
	if err != nil {
		return AST{}, err
	}
	t, err := m.ctx.ParseTerm(expr, sorts, decls)
	if err != nil {
		return AST{}, err
	}
	return m.Eval(t, completion)
}

// vocabularyLocked collects the named sorts and declarations a term over
// the model may mention.
func (m *Model) vocabularyLocked(op string, c C.Z3_context, mp C.Z3_model) ([]Sort, []FuncDecl, error) {
	consts, err := m.declsLocked(op, c, mp, 0)
	if err != nil {
		return nil, nil, err
	}
	funcs, err := m.declsLocked(op, c, mp, 1)
	if err != nil {
		return nil, nil, err
	}
	usorts, err := m.sortsLocked(op, c, mp)
	if err != nil {
		return nil, nil, err
	}
	decls := append(consts, funcs...)
	for _, s := range usorts {
		elems, err := m.universeLocked(op, c, mp, s)
		if err != nil {
			return nil, nil, err
		}
		for _, e := range elems {
			h, err := m.ctx.result(op, C.lz_get_app_decl(c, e.c()))
			if err != nil {
				return nil, nil, err
			}
			decls = append(decls, FuncDecl{h})
		}
	}
	var sorts []Sort
	seen := map[C.Z3_ast]bool{}
	var visit func(s Sort) error
	visit = func(s Sort) error {
		if seen[s.h.p] {
			return nil
		}
		seen[s.h.p] = true
		switch SortKind(C.Z3_get_sort_kind(c, s.c())) {
		case UninterpretedSortKind:
			sorts = append(sorts, s)
		case DatatypeSortKind:
			// The parser registers the constructors, testers and
			// accessors of a datatype sort it is given; declaring them
			// again would be an error. Field sorts may name more sorts.
			sorts = append(sorts, s)
			n := int(C.Z3_get_datatype_sort_num_constructors(c, s.c()))
			for i := 0; i < n; i++ {
				h, err := m.ctx.result(op, C.lz_get_datatype_decl(c, s.c(), 0, C.uint(i), 0))
				if err != nil {
					return err
				}
				con := FuncDecl{h}
				for j := 0; j < int(C.Z3_get_arity(c, con.c())); j++ {
					fs, err := m.ctx.sortResult(op, C.lz_get_decl_sort(c, con.c(), 0, C.uint(j)))
					if err != nil {
						return err
					}
					if err := visit(fs); err != nil {
						return err
					}
				}
			}
		case ArraySortKind:
			for _, rng := range []C.int{0, 1} {
				x, err := m.ctx.sortResult(op, C.lz_get_array_sort(c, s.c(), rng))
				if err != nil {
					return err
				}
				if err := visit(x); err != nil {
					return err
				}
			}
		case SeqSortKind:
			x, err := m.ctx.sortResult(op, C.lz_get_seq_basis(c, s.c()))
			if err != nil {
				return err
			}
			return visit(x)
		}
		return nil
	}
	for _, s := range usorts {
		if err := visit(s); err != nil {
			return nil, nil, err
		}
	}
	for _, d := range append(consts, funcs...) {
		k := int(C.Z3_get_arity(c, d.c()))
		for i := 0; i <= k; i++ {
			rng := C.int(0)
			if i == k {
				rng = 1
			}
			s, err := m.ctx.sortResult(op, C.lz_get_decl_sort(c, d.c(), rng, C.uint(i)))
			if err != nil {
				return nil, nil, err
			}
			if err := visit(s); err != nil {
				return nil, nil, err
			}
		}
	}
	return sorts, decls, nil
}
