// Package driver runs ladder's prover pipeline and its commands' shared
// machinery.
//
// # Phases
//
//   - Load (load.go) reads the YAML (package ioa/load) and generates the
//     obligations of every invariant and edge (package simulation, with
//     the strategies of package strategies).
//   - Prover.Prove (prover.go) selects obligations (--only), sorts them by
//     group then ID, and compares the fingerprints of the source items with
//     those the cache recorded at the last complete run (changes.go). A
//     pool of workers (pool.go; -j) prints every obligation canonically
//     (kernel.Prepare), computes its cache key (cache.KeyOf of the text and
//     the solver identity) and reuses a cached verdict only if the key
//     matches and the kernel admits the stored record; then a pool of
//     workers with one kernel session each (every check in a fresh Z3
//     context) checks the others, those depending on a changed item first.
//     New results, dependency items, edges, theorems and (after a complete
//     run) item fingerprints are recorded in the cache, which is saved
//     after every run; the report's Changes say what the changed items
//     affect.
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
// into a verdict; the cache's dependency records and item fingerprints only
// say what an edit affects and order the checks.
package driver
