// Package driver runs ladder's prover pipeline and its commands' shared
// machinery.
//
// # Phases
//
//   - Load (load.go) reads the YAML (package ioa/load) and generates the
//     obligations of every invariant and edge (package simulation, with
//     the strategies of package strategies).
//   - Prover.Prove (prover.go) selects obligations (--only), sorts them by
//     group then ID, and hands them to a pool of workers (pool.go; -j, one
//     kernel session each, every check in a fresh Z3 context). A worker
//     prints its obligation canonically (kernel.Prepare), computes the
//     cache key (cache.KeyOf of the text and the solver identity), reuses
//     a cached verdict only if the key matches and the kernel admits the
//     stored record, and otherwise has the kernel check it. New results,
//     dependency items, edges and theorems are recorded in the cache,
//     which is saved after every run.
//   - simulation.Derive turns the verdicts into the statuses of invariants
//     (jointly, under their assumptions) and edges and into theorems;
//     assemble (assemble.go) builds the report.Prove in a deterministic
//     order: obligations by group then ID, never by completion order.
//   - Prover.Status is the same without the solver, for `ladder graph`;
//     Watcher (watch.go) re-runs the pipeline when files change and
//     Compare (diff.go) says what changed between two reports.
//
// # Trust
//
// The driver is untrusted: it decides what is checked and in what order,
// never what counts as proved. Only package kernel turns a solver answer,
// or a cached record it re-admits against the freshly printed obligation,
// into a verdict; the cache's dependency records only say what an edit
// affects.
package driver
