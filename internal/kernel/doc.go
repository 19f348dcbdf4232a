// Package kernel is the only place in ladder that decides that an
// obligation is proved.
//
// # Verdicts
//
// A Verdict is Proved, Refuted or Unknown; it is not an error.
// Kernel.Prepare prints the obligation's logic.Problem canonically;
// Session.Check (one Session per worker) sends exactly that text to Z3
// through package smt, in a fresh Z3 context so that no verdict depends on
// what was checked before, under a deterministic Config (fixed random seed,
// Z3's deterministic resource limit rlimit, and a wall-clock timeout as a
// safety net), and decides:
//
//   - unsat: Proved.
//   - sat: the obligation's Replay decodes the model into states and
//     re-evaluates the obligation with ladder's own evaluator. A replayed
//     counterexample gives Refuted, carrying it. When the replay disagrees
//     with the solver, the result is Unknown with Internal set and the
//     reason "[internal] solver model does not replay: …", and the query is
//     dumped: a disagreement is a bug in ladder, never a verdict.
//   - unknown: Unknown, with Z3's reason_unknown, the limits in force and
//     the path of the dumped .smt2 file (Kernel.UnknownDir, by default
//     .ladder/unknown/).
//
// Any other failure (an ill-formed problem, a Z3 error) is likewise Unknown
// with Internal set and a reason starting with "[internal]".
//
// # Certificates and the cache
//
// A Result can be encoded (Result.Encode) and stored in the untrusted proof
// cache. Kernel.Admit accepts an encoded result only for the Query it was
// produced for: the record carries the query's fingerprint, the SHA-256 of
// the solver identity (name, version, every parameter of Config) and the
// canonical text of the problem, and Admit compares it with the
// fingerprint of the freshly printed query. A result that any other query,
// solver version or limit produced is refused. The cache itself keys
// results by cache.KeyOf over the same text and identity; the kernel does
// not import the cache, so the two checks are independent.
//
// Only the functions of this package construct a Result whose Verdict is
// Proved: Session.Check on an unsat answer, and Admit on a record that
// matches the query.
//
// # Trust
//
// The kernel and what it imports (internal/logic, internal/smt,
// internal/z3, internal/source, simulation, ioa/expr, ioa/eval, …) are
// trusted; a test runs `go list -deps` and fails if any trusted package
// imports internal/cache, internal/report, internal/driver, strategies or
// cmd/.
package kernel
