// Package fast owns the explorer's engine: the code that package
// internal/explore and package internal/crosscheck run in their inner
// loops, checked against the referee, package eval, which does not import
// it. The prover's verdicts do not depend on it: the replay of
// counterexamples and simulation's point checker run package eval alone.
//
//   - Runner runs a Machine's compiled code (eval.Frame, eval.ActionCode)
//     in bulk, on one goroutine: all successors of a state at once
//     (Successors), each conjunct of a precondition evaluated as soon as
//     the parameters it mentions are bound and the leading ones as bit
//     tests or a binding; invariants and final predicates (Violated,
//     ViolatedAfter, which re-checks only the conditions that read a
//     variable the step changed, Final); and, in scratch mode, states
//     decoded into and successors built in reusable memory (eval.Arena),
//     a successor encoded by copying the bytes of the variables it shares
//     with its parent (Encode, EncodeOffs, EncodeDead).
//     TestRunnerAgrees checks that it computes the transitions
//     eval.Machine.Step allows and the verdicts of the compiled
//     invariants on the reachable states of the repository's automata.
//   - Flat compiles an automaton a second time, to closures that read and
//     write the canonical encodings of states (eval.Machine.AppendState)
//     directly, for automata whose encodings have a fixed layout. An
//     expansion or a check that would leave the layout or the exact
//     semantics gives up (ok false), and the caller runs the state through
//     the Runner; TestFlatAgrees compares Flat's successors and invariant
//     verdicts with the Runner's on the reachable states of every
//     automaton of the repository.
//
// # Files
//
// runner.go holds the Runner, codec.go its encoding and decoding; flat.go
// holds Flat, its layout of encodings and its runner (FlatRunner), rows.go
// the row frame of its invariant checks (HoldsAfterRow). Flat's compiler
// of expressions reads along the language, with the file names of its
// twins, the reference evaluator's compiler (package eval) and the SMT
// encoding (package internal/encode), so that the three semantics of each
// construct can be read side by side:
//
//	expr.go          the compiler, dispatch, closed expressions, if, let
//	expr_names.go    state variables, parameters, bound variables
//	expr_ops.go      binary operators, arithmetic, sets
//	expr_binders.go  quantifiers, lambdas, set comprehensions
//	expr_index.go    index, update, fields, records, literals
//	expr_calls.go    definitions and built-in functions
//
// effect.go compiles actions: their parameters, preconditions and
// effects.
package fast
