// Package driver runs ladder's prover pipeline and its commands' shared
// machinery.
//
// # Phases
//
//   - Load (load.go) reads the YAML (package ioa/load) and plans the
//     obligations of every invariant and edge (package simulation, with
//     the strategies of package strategies), without building their
//     problems (simulation.Config.Lazy). Prover.Plan (units.go) does the
//     same, but restores each unit (an automaton's invariants, a proof's
//     edge) whose unit record vouches for it instead of planning it.
//   - Prover.Prove (prover.go) selects obligations (--only), sorts them by
//     group then ID, and compares the fingerprints of the source items with
//     those the cache recorded at the last complete run (changes.go). An
//     obligation whose generation record carries the current fingerprint
//     of its group's inputs is decided from the cache without being built
//     (record.go: kernel.AdmitRecorded). A pool of workers (pool.go; -j)
//     builds each of the others, prints it canonically (kernel.Prepare),
//     computes its cache key (cache.KeyOf of the text and the solver
//     identity), reuses a cached verdict only if the key matches and the
//     kernel admits the stored record, and otherwise checks it with the
//     worker's kernel session (every check in a fresh Z3 context), those
//     depending on a changed item first; then it drops the problem. New
//     results, dependency items and generation records, edges, theorems
//     and (after a complete run) item fingerprints are recorded in the
//     cache, which is saved after every run; the report's Changes say what
//     the changed items affect.
//   - theorems.DeriveTallies turns the kernel's verdicts, tallied unit by
//     unit (theorems.TallyOf; a restored unit's tally is kept while it is
//     restored again for the same obligations: restored.go), into the
//     statuses of invariants (jointly, under their assumptions) and edges
//     and into theorems; assemble (assemble.go) builds the report.Prove
//     in a deterministic order: obligations by group then ID, never by
//     completion order.
//   - Prover.Status is the same without the solver, for `ladder graph`;
//     Watcher (watch.go) re-runs the pipeline when files change (woken by
//     the system's reports of changes where it has them: notify_linux.go),
//     and
//     between runs looks for the unsat cores a run left for later
//     (cores.go: Config.DeferCoreSearch, Prover.FindCores), and
//     Compare (diff.go) says what changed between two reports.
//
// # Trust
//
// The driver is untrusted: it decides what is checked and in what order,
// never what counts as proved. Only package kernel turns a solver answer,
// or a cached record it re-admits against the freshly printed obligation,
// into a verdict; the cache's dependency records and item fingerprints only
// say what an edit affects and order the checks. One part of the driver is
// trusted, and reviewed as the kernel is: a generation record lets the
// kernel admit a verdict for a text the run did not print, on the ground
// that generation is deterministic and the group's inputs (ladder, solver,
// source files: unitFingerprints over simulation.Obligation.Sources) are
// byte for byte those the text was printed from (record.go; the test
// TestSourcesSuffice checks that the sources suffice), as a unit record
// does for a whole unit's plan and verdicts (units.go).
package driver
