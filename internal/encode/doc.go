// Package encode owns the translation of ladder's automaton language into
// the solver-independent logic of package logic: sort-checked expressions
// (Expr, Formula), automata (NewState, NewParams, Init, Pre, Post, StateEq,
// NatFacts, WellFormed), validity problems (Problem), and the way back from
// a model to evaluator values (Decoder, Literal). Every proof obligation of
// `ladder prove` is built with it, so each rule below is part of the trusted
// base; the differential tests of package smt check the rules against the
// evaluator (ioa/eval), which is the reference semantics.
//
// # Values
//
// A language value is encoded as a Value: a single term (a leaf) or a tree
// of parts. Leaf sorts and their logic sorts:
//
//	Bool                 Bool
//	Int, Nat             Int
//	enum E               datatype E with nullary constructors E.A, in declaration order
//	param sort T         uninterpreted sort T
//	Option[X]            datatype Option[X'] = None[X'] | Some[X'](Some[X'].val: X')
//	Set[X]               (Array X' Bool)
//	Map[K, V], V a leaf  (Array K' V)
//
// where X' is the packed sort of X (below). Flattened sorts ("struct of
// arrays"):
//
//	record R{f: S, …}    one part per field
//	Seq[X]               two parts: the length (Int) and the elements, a Map[Int, X]
//	Map[K, V], V not a leaf   the parts of V, each lifted to a map from K:
//	                     Map[T, R{a: A, b: B}] is the pair Map[T, A], Map[T, B]
//
// so a state variable `cells: Map[T, Cell]` becomes one array per field,
// and `mems: Seq[Map[L, V]]` becomes mems.len: Int and mems.elems:
// (Array Int (Array L V)). Why: per-field arrays keep obligations in the
// array and datatype fragments Z3 decides well and make frame conditions
// per field; a datatype per record would put accessor terms under every
// array read.
//
// Where a single term is needed — map keys, set elements, Some payloads,
// elements of sets of records — a value is packed: a record becomes the
// datatype R (constructor R.mk, fields R.f), a sequence the datatype
// Seq<X'> (Seq<X'>.mk with Seq<X'>.len and Seq<X'>.elems), a flattened map
// an array of packed values. Pack and unpack convert.
//
// Canonical representation. Every value has exactly one representation:
// array cells of a sequence at indices outside [0, len) hold the default
// value of the element sort, and len >= 0. Every operation below
// preserves this, so structural equality of representations (the
// conjunction of the equalities of the parts, arrays compared
// extensionally) is the language's equality: structural, extensional for
// maps and sets, and for sequences equal lengths and equal elements within
// the length. Fresh symbols (states, parameters, arbitrary constants)
// start out unconstrained, so each carries the background fact
// "well-formed" (len >= 0 and default cells outside the length, for every
// sequence inside it; quantified over the map keys and Some payloads that
// contain sequences); this is sound to assume because it only says that
// the symbols denote values. Map keys, set elements and lambda binders may
// not be of a sort that contains Seq (their packed form would have junk
// representations) or Nat (Int has negative junk): Expr reports an error.
//
// Why arrays and a length rather than Z3's sequence theory: measured with
// the z3 4.8.12 command line on TMS2-like obligations (mems of sort
// Seq[Map[L, V]], DoCommitWriter appending last(mems) ⊕ wrSet; figures
// are time and rlimit count):
//
//	                                          array + len       native Seq
//	len grows                                 0.02s  1196       0.01s   853
//	prefix preserved (∀i < len)               0.02s  1613       0.03s  2667
//	validIdx(n) preserved (⊆ mems[n])         0.00s  2228       0.01s  3527
//	two equal appends are equal               0.01s  2505       0.01s  2042
//	last(append(s, x)) = x                    0.01s   137       0.01s  1261
//	∀i < len. mems[i][l] = v0 is inductive    0.04s  2506       timeout (30s)
//	a false claim (counterexample wanted)     timeout (30s)     0.01s sat
//
// Proofs are what must succeed; on the inductive ∀i property, the shape of
// most sequence invariants, the sequence theory does not terminate, while
// the array encoding only loses on finding counterexamples for a false
// claim (an unknown, never a wrong verdict). Arrays it is.
//
// # Total semantics (docs/language.md)
//
//   - a div b and a mod b are SMT-LIB's Euclidean div and mod when b ≠ 0;
//     a div 0 = 0 and a mod 0 = a are explicit ite's (SMT-LIB leaves
//     division by zero unspecified). A non-zero literal divisor needs no ite.
//   - s[i] on a sequence is ite(0 <= i < len, elems[i], default);
//     last(s) is s[len - 1]; get(o) is ite(isSome(o), val(o), default).
//   - s[i := x] is ite(0 <= i < len, elems[i := x], elems) with the same
//     length; append(s, x) stores x at index len and adds 1 to the length.
//   - Defaults: false, 0, the first enum constant, the constant T#0, None,
//     the empty set (const false), const(default), the empty sequence
//     (length 0, elements const(default)), the record of defaults.
//   - Map reads and updates are select and store (maps are total).
//   - dom(p), override(m, p), set union, intersection and difference, set
//     comprehensions and lambda are lambda terms; p subset m (sets, or a
//     partial map against a total or a partial map) is a quantifier over
//     the key sort.
//
// Lambda terms never reach Z3: Problem lifts each one to an array constant
// lambda!N defined by a quantified axiom (logic.LiftLambdas), because Z3
// 4.8.12 answers wrongly on lambdas under store and equality and corrupts
// its memory evaluating them in models.
//
// # Names, parameters, constants, definitions
//
// A parameter sort T is an uninterpreted sort; the literal T#i is the
// constant T#i, and Problem asserts that the T#i constants that occur are
// pairwise distinct. Nothing bounds the sort: an obligation proved this
// way holds for every instance size, which is what a proof claims.
//
// A declared constant with a value is its value (encoded once, shared); an
// arbitrary constant is the symbol Automaton::name. Definitions are
// expanded at each call (macro substitution): the argument values are
// shared subterms, not copies, and the canonical printer's let-sharing
// keeps the text linear. A qualified call c.f(args) expands f with the
// state of c.
//
// Quantifiers over a sort bind one variable per leaf of the sort (a record
// binder binds its fields) under the domain condition of the sort
// (well-formedness, and >= 0 for Nat parts); range binders `i in lo..hi`
// are Int variables guarded by lo <= i < hi (later bounds may mention
// earlier binders). Quantifiers over Bool and enums are not expanded: they
// stay small, and Z3 instantiates finite datatypes well.
//
// # Automata and obligations
//
// NewState gives each variable x of a state named s the symbols s.x (s.x.f,
// s.x.len, s.x.elems, … for flattened parts). Post computes the post-state
// symbolically: the effect's assignments are simultaneous (every
// right-hand side and index reads the pre-state), `x[i].f := v` is
// `x := x[i := x[i] with {f := v}]`, if/elif/else becomes an ite per
// assigned variable. Pre is the conjunction of the ranges of the range
// parameters (also p >= 0 for a Nat parameter) and the precondition; Post
// does not assume it. Chaining Post computes the post-state of an action
// sequence.
//
// Nat: NatFacts(s) says that every Nat in s is >= 0. It is not a
// background fact of states: the prover proves each `x:Nat` as an
// invariant, and an obligation may assume NatFacts of a pre-state only as
// such an induction hypothesis (assuming it of an initial or arbitrary
// state would make the Nat obligations vacuous). Fresh parameters and
// arbitrary constants of Nat sorts do get it as a background fact: their
// values range over the sort.
//
// Problem(hyps, goal) states validity: the assertions are the background
// facts about the symbols that occur (distinct T#i, well-formedness,
// Nat of parameters and constants, lambda definitions), the hypotheses,
// and the negated goal; unsat means the goal follows.
//
// # Decoding
//
// A Decoder reads a model (logic.Model) back as evaluator values: scalars
// by evaluation, maps and sets over finite sorts by reading every key of
// the instance, sequences at indices 0 … len-1, records and options by
// their parts. The elements of the model's universe of T are numbered so
// that every T#i constant keeps its index; the others follow in universe
// order; Decoder.Instance has these sizes, so the evaluator can replay a
// counterexample. Maps with Int keys cannot be decoded (the evaluator
// cannot represent them either). To replay in an automaton that mentions
// T#k, the problem must force k+1 elements (mention T#0 … T#k).
//
// # Files
//
// The encoder of expressions reads along the language, and its files
// have the names of their twins in the reference evaluator (package
// ioa/eval) and in the explorer's engine on encodings (package
// ioa/eval/fast), so that the three semantics of each construct can be
// read side by side:
//
//	expr.go          the Encoder, dispatch, literals, if, let
//	expr_names.go    identifiers, constants, state variables
//	expr_ops.go      unary and binary operators, arithmetic
//	expr_binders.go  quantifiers, lambdas, set comprehensions
//	expr_index.go    index, update, fields, records, literals
//	expr_calls.go    definitions and built-in functions
//
// value.go and sorts.go hold the representation of values, automaton.go
// states, steps and problems, decode.go the way back from models.
package encode
