// Package infer owns invariant inference: candidate invariants of one
// automaton generated from templates over its state (template.go),
// filtered on every reachable state of small instances (filter.go), made
// non-redundant (candidate.go), and reduced by a Houdini fixpoint to the
// largest conjunction that the kernel proves inductive (houdini.go); then
// merged into fewer, wider invariants and proved again, so that what
// Result.YAML prints is exactly what the kernel proved (infer.go). With a
// proof edge it also re-proves the edge with the inferred invariants as its
// concrete assumptions (edge.go). It also repairs a forward simulation
// that does not prove (Repair): relation clauses from templates over both
// states (repair_cand.go), kept when they hold at every pair the bounded
// cross-check reaches and a refuted obligation's counterexample selects
// them, added round by round with Houdini, and reduced to a minimal set
// with which the edge proves (repair.go, repair_min.go).
//
// Inference only proposes. The filter and the redundancy rules decide
// what is tried, never what is claimed (and so do repair's probes and
// counterexamples: an edge is repaired only when the prover proved every
// one of its obligations with exactly the clauses printed): every invariant of a Result was
// loaded from the printed YAML text by package ioa/load, turned into
// obligations by package simulation (through internal/driver, the prover's
// own pipeline, with its cache) and proved by the kernel together with the
// other invariants it assumes. The templates are described in
// docs/infer.md.
package infer
