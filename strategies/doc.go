// Package strategies owns ladder's named proof strategies: split, assume,
// instantiate and parametrized, which invariants and proof files call by
// name in a `strategy:` list (docs/proofs.md, "Strategies"), as PVS proofs
// call strategies.
//
// # Phases
//
// Package ioa/load reads a strategy list into the model's ioa.Strategy
// (the Strategy field of an invariant, a proof or a case): it checks the
// names, resolves the invariants it mentions and sort-checks its
// expressions in the scope of every action it applies to (a step may be
// restricted to some actions with `actions:` and, in proofs, to some
// clauses with `clauses:`). For obligation generation, For returns a
// simulation.Strategist: package simulation offers it each obligation of
// an invariant's inductive step and of a step correspondence's cases, and
// the Strategist turns the strategy steps that apply to that obligation
// into one simulation.Hint (strategies.go): which invariant hypotheses to
// keep, which instances of quantified invariants to add, which case splits
// to make, and whether to generalize the goal's index variables.
//
// # Trust
//
// This package is untrusted (ARCHITECTURE.md, the trust boundary): strategies
// suggest hints and never create verdicts. Package simulation applies a
// hint only through transformations that are sound whatever the hint
// says: dropping hypotheses, adding instances of invariants the obligation
// may assume (recorded in its assumptions), splitting on cases that
// simulation itself enumerates exhaustively, and generalizing a goal over
// fresh symbols. So a wrong strategy can make an obligation fail or cost
// more, never make an unproved statement proved; only the kernel's unsat
// answers prove obligations. Each strategy's doc comment still states why
// the obligations it asks for jointly imply the original one.
package strategies
