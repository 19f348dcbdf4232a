// Package fast owns the explorer's engine on encodings: an automaton
// compiled a second time (Flat), to closures that read and write the
// canonical encodings of states (eval.Machine.AppendState) directly, for
// automata whose encodings have a fixed layout. Package internal/explore
// and package internal/crosscheck run it in their inner loops; nothing
// that decides a verdict depends on it.
//
// It is checked against the referee, package eval: an expansion or a
// check that would leave the layout or the exact semantics gives up
// (ok false) and the caller runs the state through eval.Runner, and
// TestFlatAgrees compares Flat's successors and invariant verdicts with
// the Runner's on the reachable states of every automaton of the
// repository. Package eval does not import this one.
//
// # Files
//
// flat.go holds Flat, its layout of encodings and its runner (FlatRunner);
// rows.go the row frame of its invariant checks (HoldsAfterRow). The
// compiler of expressions reads along the language, with the file names
// of its twins, the reference evaluator's compiler (package eval) and the
// SMT encoding (package internal/encode), so that the three semantics of
// each construct can be read side by side:
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
