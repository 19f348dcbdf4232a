// Package eval owns the ground semantics of the expression language: the
// trusted reference evaluator, the referee that replays the prover's
// counterexamples and that simulation's point checker
// (simulation.PointChecker) evaluates the rules with. It evaluates
// sort-checked ioa/expr trees in a finite instance (Instance: the sizes of
// parameter sorts and the values of constants) and runs automata
// (Machine: start states, preconditions, parameter enumeration, effects,
// invariants, views).
//
// # Values
//
// A Value is immutable and its representation is canonical, so equality,
// hashing and encoding are structural:
//
//   - Bool: 0 or 1; Int and Nat: the integer; an enum constant: its ordinal;
//     a parameter element T#i: i.
//   - A record: its fields in declaration order. A whole state is the
//     record of its variables (State.AsValue), as `c` in a proof file.
//   - Option: None, or Some with one element.
//   - Seq: its elements, indexed from 0.
//   - Map[K, V] and Set[K] are tables over the finite key sort K (Bool,
//     enums, parameter sorts, and Options and records of those): a vector
//     with one leaf per key for an atomic K; [leaf at None, table over X] for
//     Option[X]; tables over the first field whose leaves are tables over the
//     other fields for a record. A set is a table of Bool leaves.
//
// Map and set sorts with an infinite key (Map[Int, V], Set[Int]) and
// sequences of them cannot be represented; compiling an expression that
// needs one is an error, as are quantifiers, lambdas and set comprehensions
// over infinite sorts (quantify over integers with a range binder).
//
// # Semantics
//
// This is docs/language.md, "Total semantics", exactly. Every expression has
// a value; the only run-time errors are integer overflow (the evaluator is
// exact, so a result outside int64 is reported, never wrapped) and ranges
// beyond Instance.MaxEnum values.
//
//   - and, or, => and if-then-else evaluate lazily; <=> is equality of Bools.
//   - = and != are structural, hence extensional for maps, sets and sequences.
//   - div and mod are Euclidean (0 <= a mod b < |b|), with a div 0 = 0 and
//     a mod 0 = a.
//   - s[i] outside 0 <= i < len(s), last([]) and get(None) are the default
//     value of the sort (Instance.Default): false, 0, the first enum
//     constant, T#0, the record of defaults, const(default), {}, [], None.
//   - s[i := x] outside the range is s; x[i := v] on a map replaces one entry.
//   - `p subset m` is inclusion for sets; for a partial map p:
//     Map[K, Option[V]] and m: Map[K, V] it is
//     forall k. isSome(p[k]) => get(p[k]) = m[k]; for two partial maps it is
//     forall k. isSome(p[k]) => p[k] = m[k].
//   - dom(p) is the set of keys mapped to Some; override(m, p) takes p's
//     entries where they are Some and m's elsewhere; const(v) is the constant
//     map of the context's key sort.
//   - Quantifiers range over the whole sort (enumerated in canonical order,
//     see Instance.Values) or over lo <= x < hi for a range binder, evaluated
//     when reached. lambda x: S. e is the table of e over S; a lambda whose
//     sort is Set[S] is the set comprehension {x: S | e}.
//   - A definition call evaluates the body with the parameters bound to the
//     arguments; c.f(args) evaluates f's body reading state variables from
//     the state c.
//   - A constant takes the value Instance.Consts gives, else its defining
//     expression, else the default of its sort if that is finite (T#0 for a
//     parameter sort); an Int constant without a value is an error.
//
// # Automata
//
// A start state gives every variable its init value, or any value of its
// sort when it has none (the sort must be finite), and satisfies every
// initially predicate. Action a(p...) is enabled for parameters in their
// sorts (Int parameters in their range lo <= p < hi, evaluated in the
// pre-state with the earlier parameters bound) when pre holds; the
// post-state applies the effect's assignments simultaneously: every
// right-hand side, index and condition is evaluated in the pre-state, and
// x[i].f := v assigns x := x[i := x[i] with {f := v}]. A path of an effect
// that assigns one variable twice is an error. A Nat variable (or a Nat
// anywhere inside a variable's value) that is negative violates the implicit
// invariant "<var>:Nat", checked before the declared invariants.
//
// The Machine compiles every expression once into closures over a frame
// (the state, the action parameters and slots for bound variables):
// running one does no name lookups and uses no Go maps.
//
// # The explorer's engine
//
// The explorer and the cross-checker run automata in bulk with package
// ioa/eval/fast, which imports this package and is checked against it;
// this package does not import it. fast.Runner runs the Machine's
// compiled code (Frame, ActionCode, ParamCode, in code.go) in its own
// order: all successors of a state at once, each conjunct of a
// precondition as soon as the parameters it mentions are bound. fast.Flat compiles an automaton a
// second time, to closures over encodings. What they share with this
// package is the canonical encoding of states (codec.go, AppendState), its
// canonical form under a symmetry group (permute.go, Symmetry) and its
// reduction by dead registers (dead.go, Dead), scratch memory (alloc.go,
// Arena) and the state variables a condition reads (reads.go).
//
// # Files
//
// The compiler reads along the language, and its files have the names of
// their twins in the SMT encoding (package internal/encode) and in the
// explorer's engine on encodings (package ioa/eval/fast), so that the
// three semantics of each construct can be read side by side:
//
//	expr.go          the compiler, dispatch, literals, if, let
//	expr_names.go    identifiers, constants, state variables
//	expr_ops.go      unary and binary operators, arithmetic
//	expr_binders.go  quantifiers, lambdas, set comprehensions
//	expr_index.go    index, update, fields, records, literals
//	expr_calls.go    definitions and built-in functions
//
// expr_fold.go holds the compiler's optimisations (constant folding and
// specialised closures), which plain code (the compiler's noFold) does
// without.
//
// Automata: machine.go compiles one, effect.go its effects,
// compile_guards.go the leading conjuncts of a parameter's precondition
// (as bit tests or a binding, run before any closure), step.go is the
// reference stepping (Init, Step, EachParams) and code.go gives package
// fast the compiled code. Step, Init and Eval never use scratch memory or
// the codec; folding and specialised closures serve every compiled
// expression. TestPlainAgrees checks that the optimised code computes the
// successors and invariants that plain code computes on every reachable
// state of instances of the repository's automata.
package eval
