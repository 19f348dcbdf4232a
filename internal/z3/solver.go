package z3

/*
#include "shim.h"
*/
import "C"

import (
	"context"
	"math"
	"runtime"
	"sort"
	"sync"
	"time"
	"unsafe"
)

// Result is the outcome of Solver.Check.
type Result int

// Check results.
const (
	Unknown Result = iota
	Sat
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// SolverConfig holds the per-solver limits and options. All of them are
// solver parameters (Z3_solver_set_params); nothing is set globally.
type SolverConfig struct {
	// RLimit is Z3's deterministic resource limit for each Check (0: none).
	// It bounds the work of one Check relative to the context's resource
	// counter at its start. Z3 takes a 32-bit value; larger values are an
	// error.
	RLimit uint64
	// TimeoutMS is a wall-clock limit for each Check in milliseconds (0:
	// none). Unlike RLimit it is not deterministic. It is enforced by a
	// per-Check watchdog that calls Z3_interrupt, not by Z3's timeout
	// parameter, because Z3 4.8.12's default (combined) solver ignores that
	// parameter on some tactic paths (observed on nonlinear integer
	// problems), while an interrupt is honoured. A timed-out Check returns
	// Unknown and ReasonUnknown reports "timeout".
	TimeoutMS uint
	// RandomSeed seeds the SMT core and the SAT solver (the solver
	// parameter random_seed, which is the smt.random_seed and
	// sat.random_seed of the solver's modules).
	RandomSeed uint
	// Logic, if non-empty, creates a solver specialised for an SMT-LIB
	// logic (Z3_mk_solver_for_logic), e.g. "QF_LIA" or "ALL".
	Logic string
	// Simple creates Z3's plain incremental SMT solver
	// (Z3_mk_simple_solver) instead of the default combined solver, which
	// runs a preprocessing tactic on non-incremental queries. Ignored when
	// Logic is set.
	Simple bool
	// Params are further solver parameters by name (without module prefix,
	// as Z3_solver_get_param_descrs lists them), with values of type bool,
	// uint, int (non-negative), uint32, uint64 (fitting 32 bits), float64
	// or string (a symbol). Unknown names or ill-typed values make
	// NewSolver fail.
	Params map[string]any
}

// Solver is a Z3 solver. It must be closed with Close; its methods are
// serialized by the context lock.
type Solver struct {
	ctx     *Context
	mu      sync.Mutex // guards s (set to nil by Close)
	s       C.Z3_solver
	cleanup runtime.Cleanup

	timeout    time.Duration // wall-clock limit enforced by a watchdog
	lastRLimit uint64
	lastReason string // set when the watchdog stopped the last Check
}

// NewSolver creates a solver configured by cfg.
func (ctx *Context) NewSolver(cfg SolverConfig) (*Solver, error) {
	const op = "NewSolver"
	names, kinds, uvals, dvals, svals, nknown, err := solverParams(cfg)
	if err != nil {
		return nil, err
	}
	c, err := ctx.lock()
	if err != nil {
		return nil, err
	}
	defer ctx.mu.Unlock()
	kind := C.int(0)
	var clogic *C.char
	if cfg.Logic != "" {
		kind = 2
		clogic = C.CString(cfg.Logic)
		defer C.free(unsafe.Pointer(clogic))
	} else if cfg.Simple {
		kind = 1
	}
	r := C.lz_mk_solver(c, kind, clogic)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	s := &Solver{ctx: ctx, s: C.Z3_solver(r.p), timeout: time.Duration(cfg.TimeoutMS) * time.Millisecond}
	s.cleanup = runtime.AddCleanup(s, releaseRef, relArg{q: ctx.q, kind: C.LZ_REF_SOLVER, p: r.p})

	n := len(names)
	cnames := make([]*C.char, n)
	svs := make([]*C.char, n)
	for i := range names {
		cnames[i] = C.CString(names[i])
		svs[i] = C.CString(svals[i])
	}
	defer func() {
		for i := range cnames {
			C.free(unsafe.Pointer(cnames[i]))
			C.free(unsafe.Pointer(svs[i]))
		}
	}()
	pn := cStringArray(cnames)
	defer C.free(unsafe.Pointer(pn))
	ps := cStringArray(svs)
	defer C.free(unsafe.Pointer(ps))
	st := C.lz_solver_set_params(c, s.s, C.uint(n), C.uint(nknown), pn, &kinds[0], &uvals[0], &dvals[0], ps)
	if err := shimErr(op, st.err, st.msg); err != nil {
		s.closeLocked(c)
		return nil, err
	}
	return s, nil
}

// SetRLimit sets the resource limit of the solver's next checks (0: none),
// as SolverConfig.RLimit does at creation.
func (s *Solver) SetRLimit(n uint64) error {
	const op = "SetRLimit"
	if n > math.MaxUint32 {
		return usageErr(op, "RLimit %d exceeds Z3's 32-bit limit", n)
	}
	c, sp, err := s.lock()
	if err != nil {
		return err
	}
	defer s.ctx.mu.Unlock()
	name := C.CString("rlimit")
	defer C.free(unsafe.Pointer(name))
	empty := C.CString("")
	defer C.free(unsafe.Pointer(empty))
	pn := cStringArray([]*C.char{name})
	defer C.free(unsafe.Pointer(pn))
	ps := cStringArray([]*C.char{empty})
	defer C.free(unsafe.Pointer(ps))
	kind := C.int(1)
	uval := C.uint(n)
	dval := C.double(0)
	st := C.lz_solver_set_params(c, sp, 1, 1, pn, &kind, &uval, &dval, ps)
	return shimErr(op, st.err, st.msg)
}

// solverParams flattens cfg into parallel arrays for lz_solver_set_params.
// Kinds: 0 bool, 1 unsigned, 2 double, 3 symbol. The first nknown entries
// are parameters Z3 4.8.12 is known to accept; the rest (cfg.Params) are
// validated by the shim.
func solverParams(cfg SolverConfig) (names []string, kinds []C.int, uvals []C.uint, dvals []C.double, svals []string, nknown int, err error) {
	const op = "NewSolver"
	add := func(name string, kind int, u uint64, d float64, s string) {
		names = append(names, name)
		kinds = append(kinds, C.int(kind))
		uvals = append(uvals, C.uint(u))
		dvals = append(dvals, C.double(d))
		svals = append(svals, s)
	}
	if cfg.RLimit > math.MaxUint32 {
		return nil, nil, nil, nil, nil, 0, usageErr(op, "RLimit %d exceeds Z3's 32-bit limit", cfg.RLimit)
	}
	if uint64(cfg.TimeoutMS) > math.MaxUint32 || uint64(cfg.RandomSeed) > math.MaxUint32 {
		return nil, nil, nil, nil, nil, 0, usageErr(op, "TimeoutMS or RandomSeed exceeds 32 bits")
	}
	// ctrl_c=false: never install a SIGINT handler (process-global state).
	add("ctrl_c", 0, 0, 0, "")
	add("random_seed", 1, uint64(cfg.RandomSeed), 0, "")
	if cfg.RLimit > 0 {
		add("rlimit", 1, cfg.RLimit, 0, "")
	}
	nknown = len(names)
	keys := make([]string, 0, len(cfg.Params))
	for k := range cfg.Params {
		switch k {
		case "ctrl_c", "random_seed", "rlimit", "timeout":
			return nil, nil, nil, nil, nil, 0, usageErr(op, "parameter %q must be set through SolverConfig fields", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := cfg.Params[k].(type) {
		case bool:
			b := uint64(0)
			if v {
				b = 1
			}
			add(k, 0, b, 0, "")
		case uint:
			if uint64(v) > math.MaxUint32 {
				return nil, nil, nil, nil, nil, 0, usageErr(op, "parameter %q: %d exceeds 32 bits", k, v)
			}
			add(k, 1, uint64(v), 0, "")
		case uint32:
			add(k, 1, uint64(v), 0, "")
		case uint64:
			if v > math.MaxUint32 {
				return nil, nil, nil, nil, nil, 0, usageErr(op, "parameter %q: %d exceeds 32 bits", k, v)
			}
			add(k, 1, v, 0, "")
		case int:
			if v < 0 || int64(v) > math.MaxUint32 {
				return nil, nil, nil, nil, nil, 0, usageErr(op, "parameter %q: %d out of unsigned 32-bit range", k, v)
			}
			add(k, 1, uint64(v), 0, "")
		case float64:
			add(k, 2, 0, v, "")
		case string:
			add(k, 3, 0, 0, v)
		default:
			return nil, nil, nil, nil, nil, 0, usageErr(op, "parameter %q: unsupported value type %T", k, v)
		}
	}
	return names, kinds, uvals, dvals, svals, nknown, nil
}

// lock takes the context lock and checks the solver is open. The caller
// must unlock s.ctx.mu.
func (s *Solver) lock() (C.Z3_context, C.Z3_solver, error) {
	if s == nil {
		return nil, nil, ErrClosed
	}
	c, err := s.ctx.lock()
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	sp := s.s
	s.mu.Unlock()
	if sp == nil {
		s.ctx.mu.Unlock()
		return nil, nil, ErrClosed
	}
	return c, sp, nil
}

// Context returns the solver's context.
func (s *Solver) Context() *Context { return s.ctx }

// Close releases the solver. It is idempotent; closing the context also
// releases it.
func (s *Solver) Close() {
	if s == nil {
		return
	}
	c, err := s.ctx.lock()
	if err != nil {
		// Context closed: the solver is already gone with it.
		s.mu.Lock()
		s.s = nil
		s.mu.Unlock()
		s.cleanup.Stop()
		return
	}
	defer s.ctx.mu.Unlock()
	s.closeLocked(c)
}

func (s *Solver) closeLocked(c C.Z3_context) {
	s.mu.Lock()
	sp := s.s
	s.s = nil
	s.mu.Unlock()
	if sp == nil {
		return
	}
	s.cleanup.Stop()
	C.Z3_solver_dec_ref(c, sp)
}

// Assert adds the Bool term a to the solver.
func (s *Solver) Assert(a AST) error {
	const op = "Assert"
	if err := s.ctx.checkASTs(op, a); err != nil {
		return err
	}
	c, sp, err := s.lock()
	if err != nil {
		return err
	}
	defer s.ctx.mu.Unlock()
	defer runtime.KeepAlive(a.h)
	st := C.lz_solver_assert(c, sp, a.c())
	return shimErr(op, st.err, st.msg)
}

// Push opens a backtracking scope.
func (s *Solver) Push() error { return s.scope("Push", 0, 0) }

// Pop closes n scopes opened by Push.
func (s *Solver) Pop(n int) error {
	if n < 0 {
		return usageErr("Pop", "negative count %d", n)
	}
	return s.scope("Pop", 1, n)
}

// Reset removes all assertions and scopes.
func (s *Solver) Reset() error { return s.scope("Reset", 2, 0) }

func (s *Solver) scope(op string, code C.int, n int) error {
	c, sp, err := s.lock()
	if err != nil {
		return err
	}
	defer s.ctx.mu.Unlock()
	if code == 1 {
		if k := int(C.Z3_solver_get_num_scopes(c, sp)); n > k {
			return usageErr(op, "pop %d scopes but only %d are open", n, k)
		}
	}
	st := C.lz_solver_scope(c, sp, code, C.uint(n))
	return shimErr(op, st.err, st.msg)
}

// NumScopes returns the number of open Push scopes.
func (s *Solver) NumScopes() int {
	c, sp, err := s.lock()
	if err != nil {
		return 0
	}
	defer s.ctx.mu.Unlock()
	return int(C.Z3_solver_get_num_scopes(c, sp))
}

// Check decides the satisfiability of the current assertions. Unknown
// (with a nil error) means Z3 gave up, e.g. on the resource limit or the
// timeout; ReasonUnknown says why. An error means the call itself failed.
func (s *Solver) Check() (Result, error) { return s.check(nil) }

// CheckContext is Check that also stops (via Context.Interrupt) when
// goctx is done; ReasonUnknown then reports "canceled". Since an interrupt
// affects whatever is running in the Z3 context, use it with one context
// per goroutine.
func (s *Solver) CheckContext(goctx context.Context) (Result, error) {
	if err := goctx.Err(); err != nil {
		return Unknown, err
	}
	return s.check(goctx.Done())
}

// watchdog interrupts the context when the timeout expires or cancel is
// closed, and never after stop returns.
type watchdog struct {
	mu      sync.Mutex
	stopped bool
	reason  string // "timeout" or "canceled" once it fired
	timer   *time.Timer
	quit    chan struct{}
}

func startWatchdog(ctx *Context, timeout time.Duration, cancel <-chan struct{}) *watchdog {
	w := &watchdog{quit: make(chan struct{})}
	fire := func(reason string) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.stopped || w.reason != "" {
			return
		}
		w.reason = reason
		ctx.Interrupt()
	}
	if timeout > 0 {
		w.timer = time.AfterFunc(timeout, func() { fire("timeout") })
	}
	if cancel != nil {
		go func() {
			select {
			case <-cancel:
				fire("canceled")
			case <-w.quit:
			}
		}()
	}
	return w
}

// stop disarms the watchdog and returns why it fired ("" if it did not).
func (w *watchdog) stop() string {
	w.mu.Lock()
	w.stopped = true
	r := w.reason
	w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
	}
	close(w.quit)
	return r
}

// CheckAssumptionsContext is CheckContext under assumptions: the
// assertions and the Boolean literals of assumptions together. After Unsat,
// UnsatCore returns a subset of assumptions that the solver's refutation
// used.
func (s *Solver) CheckAssumptionsContext(goctx context.Context, assumptions []AST) (Result, error) {
	if err := goctx.Err(); err != nil {
		return Unknown, err
	}
	if err := s.ctx.checkASTs("CheckAssumptions", assumptions...); err != nil {
		return Unknown, err
	}
	return s.checkWith(goctx.Done(), assumptions)
}

// UnsatCore returns the assumptions of the last CheckAssumptionsContext,
// which must have returned Unsat, that its refutation used.
func (s *Solver) UnsatCore() ([]AST, error) {
	return s.vector("UnsatCore", func(c C.Z3_context, sp C.Z3_solver) C.lz_ptr { return C.lz_solver_get_unsat_core(c, sp) })
}

// vector returns the ASTs of the vector that get returns for the solver,
// under the context lock.
func (s *Solver) vector(op string, get func(C.Z3_context, C.Z3_solver) C.lz_ptr) ([]AST, error) {
	c, sp, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer s.ctx.mu.Unlock()
	r := get(c, sp)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	return s.ctx.vectorToASTs(op, c, C.Z3_ast_vector(r.p))
}

func (s *Solver) check(cancel <-chan struct{}) (Result, error) {
	return s.checkWith(cancel, nil)
}

// checkWith checks the solver, under the assumption literals when there
// are any.
func (s *Solver) checkWith(cancel <-chan struct{}, assumptions []AST) (Result, error) {
	const op = "Check"
	c, sp, err := s.lock()
	if err != nil {
		return Unknown, err
	}
	defer s.ctx.mu.Unlock()
	s.lastRLimit = 0
	s.lastReason = ""
	var w *watchdog
	if s.timeout > 0 || cancel != nil {
		w = startWatchdog(s.ctx, s.timeout, cancel)
	}
	var r C.lz_check
	if len(assumptions) > 0 {
		arr := astArray(assumptions)
		r = C.lz_solver_check_assumptions(c, sp, C.uint(len(assumptions)), arr)
		C.free(unsafe.Pointer(arr))
	} else {
		r = C.lz_solver_check(c, sp)
	}
	fired := ""
	if w != nil {
		fired = w.stop()
	}
	if err := shimErr(op, r.err, r.msg); err != nil {
		return Unknown, err
	}
	if r.rlimit_after >= r.rlimit_before {
		s.lastRLimit = uint64(r.rlimit_after - r.rlimit_before)
	}
	switch r.result {
	case C.Z3_L_TRUE:
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	s.lastReason = fired
	return Unknown, nil
}

// RLimitUsed returns the resource units (Z3's "rlimit count" statistic)
// consumed by the last Check of this solver. It is deterministic for a
// given problem, configuration and Z3 build.
func (s *Solver) RLimitUsed() uint64 {
	if _, _, err := s.lock(); err != nil {
		return 0
	}
	defer s.ctx.mu.Unlock()
	return s.lastRLimit
}

// ReasonUnknown returns Z3's explanation for the last Unknown result, e.g.
// "max. resource limit exceeded", "timeout" or "canceled".
func (s *Solver) ReasonUnknown() string {
	c, sp, err := s.lock()
	if err != nil {
		return err.Error()
	}
	defer s.ctx.mu.Unlock()
	if s.lastReason != "" {
		return s.lastReason
	}
	r, err := goString("ReasonUnknown", C.lz_solver_reason_unknown(c, sp))
	if err != nil {
		return err.Error()
	}
	return r
}

// Model returns the model of the last Check, which must have returned Sat
// (Z3 may also offer a partial model after Unknown). Close the model when
// done.
func (s *Solver) Model() (*Model, error) {
	const op = "Model"
	c, sp, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer s.ctx.mu.Unlock()
	r := C.lz_solver_get_model(c, sp)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	m := &Model{ctx: s.ctx, m: C.Z3_model(r.p)}
	m.cleanup = runtime.AddCleanup(m, releaseRef, relArg{q: s.ctx.q, kind: C.LZ_REF_MODEL, p: r.p})
	return m, nil
}

// Assertions returns the current assertions of the solver.
func (s *Solver) Assertions() ([]AST, error) {
	return s.vector("Assertions", func(c C.Z3_context, sp C.Z3_solver) C.lz_ptr { return C.lz_solver_get_assertions(c, sp) })
}

// vectorToASTs converts and releases an inc_ref'd Z3_ast_vector. Called
// with the context lock held.
func (ctx *Context) vectorToASTs(op string, c C.Z3_context, v C.Z3_ast_vector) ([]AST, error) {
	defer C.lz_vec_dec_ref(c, v)
	n := int(C.lz_vec_size(c, v))
	out := make([]AST, 0, n)
	for i := 0; i < n; i++ {
		a, err := ctx.astResult(op, C.lz_vec_get(c, v, C.uint(i)))
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// String returns Z3's rendering of the solver (Z3_solver_to_string): the
// declarations and assertions, plus, after a Check, internal
// model-conversion commands. Use ToSMT2 for a clean benchmark.
func (s *Solver) String() string {
	c, sp, err := s.lock()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	defer s.ctx.mu.Unlock()
	r, err := goString("String", C.lz_solver_to_string(c, sp))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return r
}

// ToSMT2 returns a standalone SMT-LIB2 benchmark of the current assertions:
// sort and function declarations, one assert per assertion and a final
// (check-sat). Feeding it to AssertSMTLIB2 in a fresh context reproduces the
// problem.
func (s *Solver) ToSMT2() (string, error) {
	c, sp, err := s.lock()
	if err != nil {
		return "", err
	}
	defer s.ctx.mu.Unlock()
	return goString("ToSMT2", C.lz_solver_to_smt2(c, sp))
}

// Stats are Z3 statistics by key, e.g. "rlimit count", "time",
// "max memory", "conflicts". Unsigned counters are converted to float64
// (exact up to 2^53).
type Stats map[string]float64

// RLimitCount returns the "rlimit count" entry: the context's cumulative
// resource counter. Use Solver.RLimitUsed for the cost of one Check.
func (st Stats) RLimitCount() uint64 { return uint64(st["rlimit count"]) }

// Statistics returns the solver's statistics (Z3_solver_get_statistics),
// which describe its last Check plus context-wide memory and rlimit
// counters.
func (s *Solver) Statistics() (Stats, error) {
	const op = "Statistics"
	c, sp, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer s.ctx.mu.Unlock()
	r := C.lz_solver_get_statistics(c, sp)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	st := C.Z3_stats(r.p)
	defer C.Z3_stats_dec_ref(c, st)
	n := uint(C.Z3_stats_size(c, st))
	out := make(Stats, n)
	for i := uint(0); i < n; i++ {
		k := C.GoString(C.Z3_stats_get_key(c, st, C.uint(i)))
		if C.Z3_stats_is_uint(c, st, C.uint(i)) {
			out[k] = float64(C.Z3_stats_get_uint_value(c, st, C.uint(i)))
		} else {
			out[k] = float64(C.Z3_stats_get_double_value(c, st, C.uint(i)))
		}
	}
	return out, nil
}

// AssertSMTLIB2Tracked parses an SMT-LIB2 script as AssertSMTLIB2 does and
// asserts its assertions: all but the last n as they are, each of the last
// n under a tracking literal of its own, the Boolean constant prefix
// followed by its index among them, as (=> lit a). It returns the literals
// in order: checked as assumptions (CheckAssumptionsContext), an unsat
// answer's UnsatCore names the tracked assertions its refutation used.
func (s *Solver) AssertSMTLIB2Tracked(text string, n int, prefix string) ([]AST, error) {
	const op = "AssertSMTLIB2Tracked"
	if n < 0 {
		return nil, usageErr(op, "%d tracked assertions", n)
	}
	c, sp, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer s.ctx.mu.Unlock()
	ctext := C.CString(text)
	defer C.free(unsafe.Pointer(ctext))
	r := C.lz_parse_smtlib2(c, ctext, 0, nil, nil, 0, nil, nil)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return nil, err
	}
	v := C.Z3_ast_vector(r.p)
	defer C.lz_vec_dec_ref(c, v)
	cprefix := C.CString(prefix)
	defer C.free(unsafe.Pointer(cprefix))
	l := C.lz_solver_assert_tracked(c, sp, v, C.uint(n), cprefix)
	if err := shimErr(op, l.err, l.msg); err != nil {
		return nil, err
	}
	return s.ctx.vectorToASTs(op, c, C.Z3_ast_vector(l.p))
}

// AssertSMTLIB2 parses an SMT-LIB2 script (sort, datatype and function
// declarations and definitions, and assertions) and asserts every
// assertion in it. Commands such as (check-sat) are ignored; declarations
// are local to the script, but Z3 identifies sorts and constants by name
// and sort, so repeated declarations across calls denote the same symbols.
// A syntax or sort error fails the whole call and asserts nothing.
func (s *Solver) AssertSMTLIB2(text string) error {
	const op = "AssertSMTLIB2"
	c, sp, err := s.lock()
	if err != nil {
		return err
	}
	defer s.ctx.mu.Unlock()
	ctext := C.CString(text)
	defer C.free(unsafe.Pointer(ctext))
	r := C.lz_parse_smtlib2(c, ctext, 0, nil, nil, 0, nil, nil)
	if err := shimErr(op, r.err, r.msg); err != nil {
		return err
	}
	v := C.Z3_ast_vector(r.p)
	defer C.lz_vec_dec_ref(c, v)
	st := C.lz_solver_assert_vector(c, sp, v)
	return shimErr(op, st.err, st.msg)
}
