// Package simulation owns ladder's verification-condition rules: it turns
// the invariants of each automaton and the edges of the proof files
// (refinement mappings, forward and backward simulations, history
// mappings) into atomic, stably named obligations, each a logic.Problem
// whose unsatisfiability proves one clause of one rule for one action and
// case. It never calls a solver: package kernel decides the verdicts.
//
// Each rule's doc comment cites the definition it implements: Lynch and
// Vaandrager, "Forward and backward simulations, Part I: untimed systems",
// Information and Computation 121(2), 1995 (LV95); Lesani, Luchangco and
// Moir, CONCUR 2012 (LLM12); the Isabelle/HOLCF IOA theories
// (HOLCF/IOA); and, for a repeated abstract step, Hoare's rule of
// iteration (Hoa69). docs/references.md lists them; docs/proofs.md is the
// user-facing contract and lists the same obligations.
//
// # Phases
//
//   - Generate (generate.go) builds the obligations of every invariant
//     and every proof edge, and the Edge records that group them
//     (obligation.go), by the rules of rules.go: rules_start.go
//     (invariants, start conditions), rules_step.go (refinement, forward
//     and backward steps), rules_loop.go (a forward step's repeated
//     abstract step) and rules_history.go (history mappings).
//   - A Strategist (Config.Strategist, package strategies) may return a
//     Hint for an invariant step or step-correspondence obligation;
//     strategy.go applies it only by sound transformations (weakening,
//     instances of assumed invariants, exhaustive case splits computed
//     here, generalization over fresh values) and records what the new
//     obligations assume.
//   - An Obligation's Replay (replay.go) decodes a satisfying model into
//     states and re-checks it with the reference evaluator, so that a
//     refutation is reported only when ladder's own semantics agrees with
//     the solver; a disagreement is an internal error, never a verdict.
//   - PointChecker (point.go) evaluates an edge's obligations at the
//     concrete points of a finite instance by the same rules, for the
//     bounded cross-checker (package crosscheck): its verdicts, what
//     explains a failing one (Verdict.Run, Why), the edge's expressions
//     and state maps compiled once for the cross-checker's search, and
//     the invariants an edge assumes, checked per state (point_edge.go).
//   - TheoremInput (theorems.go) gives the theorems phase
//     (internal/theorems) what it reads: names, kinds, assumptions and
//     transfer chains. That package applies the metatheorems (trace
//     inclusion, transitivity, refinement composition, invariant
//     transfer) to the edges and invariants whose obligations the kernel
//     has proved, and records the provenance of every theorem.
//
// # Soundness notes
//
// An obligation may assume invariants; it records them (Obligation.Assumes)
// and an edge or invariant counts as proved only when every invariant it
// assumes is proved too (invariants by joint induction: the set closed
// under assumption must be proved as a whole). Abstract invariants may be
// assumed by forward simulations and history mappings only, where the
// related abstract state is reachable (LV95 §3: only those conditions
// may be weakened to invariants); so may they of the states a repeated
// step reaches from it, which are reachable too.
package simulation
