// Package z3 is ladder's own small cgo binding to libz3 (built and tested
// against Debian's Z3 4.8.12; link flag -lz3). It is the only cgo package in
// the project, and it owns every interaction with Z3: contexts, sorts, terms,
// solvers, models, SMT-LIB2 parsing and printing, and Z3 statistics.
//
// The API follows the shape of github.com/aclements/go-z3 (Config, Context,
// Sort, AST values, Solver, Model) so that it could be swapped later, with
// these differences:
//
//   - No Z3 error handler is installed. Every C call goes through a small C++
//     shim (shim.cc) that clears the error code, calls Z3 inside try/catch and
//     reads Z3_get_error_code afterwards. Every failure is returned as a Go
//     error (*Error, or ErrClosed); this package never panics on Z3 errors and
//     Z3 never calls exit().
//   - Contexts are reference counted (Z3_mk_context_rc). Every AST, sort,
//     function declaration, pattern, solver and model wrapper holds one Z3
//     reference.
//   - Solver limits are local to a solver and set from a SolverConfig: the
//     deterministic resource limit (rlimit) and the random seed are solver
//     parameters, and the wall-clock timeout is enforced per Check with
//     Z3_interrupt. Z3_global_param_set is never used, and the solver's
//     ctrl_c parameter is turned off so Z3 never installs a SIGINT handler.
//
// # Memory management
//
// Context, Solver and Model have explicit Close methods, which release their
// Z3 object at once; call them (Solver and Model objects can be large). The
// value types AST, Sort, FuncDecl and Pattern have no Close: each wraps a
// handle with a runtime cleanup (runtime.AddCleanup). When the Go garbage
// collector finds a handle unreachable, the cleanup does not call Z3 (it must
// not block on a context that may be busy in a long Check); it queues the
// reference on its context, and the queue is drained (Z3_dec_ref) under the
// context lock at the start of the next operation on that context. Closing a
// Context deletes the whole Z3 context, which frees every object created in
// it regardless of reference counts; handles that outlive their context
// become inert and their operations return ErrClosed. The context counts the
// references its live handles hold, and Close releases them (Z3_dec_ref)
// before it deletes the context: Z3 4.8.12 takes about ten times longer to
// delete a context whose terms are still referenced (1.3 ms against 0.1 ms
// after a tracked check of a typical obligation, measured here), and a
// prover deletes one context per check. Solvers and models that
// are never closed are released by the same cleanup mechanism, and a Context
// that becomes unreachable without Close is deleted by a cleanup as a last
// resort.
//
// Because Z3 memory is invisible to the Go garbage collector, long-running
// users should create fresh contexts periodically (for example one per
// worker and a new one every few thousand obligations) or rely on
// Solver.Close / Model.Close for the large objects.
//
// # Concurrency
//
// Each Context has a mutex; all methods on a Context and on the values
// created in it take that mutex, so they are safe for concurrent use. Work on
// one context is serialized, so for parallelism use one Context per
// goroutine. Context.Interrupt may be called while another goroutine is
// inside Solver.Check.
//
// # SMT-LIB2
//
// Solver.AssertSMTLIB2 parses a script (declarations and assertions; a
// (check-sat) in it is ignored) and asserts its assertions, so a dumped
// .smt2 file is exactly what Z3 saw. Solver.ToSMT2 prints the current
// assertions as a standalone benchmark that round-trips through
// AssertSMTLIB2 (define-fun macros appear expanded, and Z3 4.8.12 prints
// API-built datatype testers in its own (_ is (C (T) D)) form, which Z3
// re-parses but other solvers may not). Context.ParseSMTLIB2,
// Context.ParseTerm and Model.EvalSMTLIB2 let callers name constants and
// terms textually. SMT-LIB2 text is trusted input: Z3 executes commands
// such as (include "file"), and (exit) silently ends a script.
//
// # Z3 4.8.12 caveats
//
//   - RLimit is deterministic for a given problem, configuration and process
//     state, but Z3 4.8.12 counts a few units differently (tens in ~50,000,
//     measured) when another context is alive in the process. Leave margin
//     rather than relying on a verdict exactly at the limit.
//   - The default solver (Z3_mk_solver) ignores its timeout parameter on
//     some tactic paths; SolverConfig.TimeoutMS is therefore enforced with
//     Z3_interrupt. It also costs several milliseconds per Check even for
//     trivial problems (it builds a preprocessing tactic); SolverConfig.Simple
//     or a Logic such as "QF_LIA" is roughly ten times cheaper on small
//     obligations, at the price of no preprocessing.
//   - Sorts are identified by name: declaring two different datatypes with
//     the same name in one context aliases them, so the API refuses
//     redeclaration (repeating an identical declaration in SMT-LIB2 scripts
//     is fine).
//   - Z3_mk_lambda_const does not check that bound terms are constants and
//     corrupts the context otherwise; Lambda, Forall and Exists check this.
//   - Z3 prints some warnings (e.g. a pattern without variables) to
//     stderr, and interns symbol names process-wide for good.
package z3
