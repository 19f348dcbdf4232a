// Package driver runs ladder's prover pipeline: load the YAML, generate the
// obligations (package simulation), look each one up in the proof cache,
// send the rest to the kernel on a pool of workers (each worker checks in
// its own Z3 context, fresh for every obligation), and assemble a deterministic report (package report): the
// obligations sorted by group then ID, the statuses of invariants and edges,
// and the theorems the metatheorems derive from what was proved.
//
// The driver is untrusted: it decides what is checked and in what order,
// never what counts as proved. Only package kernel turns a solver answer, or
// a cached record it re-admits against the freshly printed obligation, into
// a verdict.
package driver
