// Package logic owns ladder's solver-independent many-sorted first-order
// logic: sorts (Bool, Int, uninterpreted sorts, arrays and non-recursive
// algebraic datatypes), immutable terms over a fixed operator set, free
// symbols and capture-avoiding substitution, and Problem, a set of
// declarations and named assertions with a canonical SMT-LIB2 printer whose
// SHA-256 is part of every proof-cache key.
//
// # Terms
//
// A *Term is immutable. Every term carries a structural hash computed when
// it is built, so Equal is cheap to reject and terms can be shared freely
// as a DAG. Constructors never panic: an ill-sorted application (adding a
// Bool, selecting from a non-array, ...) returns a term whose Err is
// non-nil, and every term built over it carries the same error, so a caller
// checks Err once on the final term (Problem.Check reports it as well).
//
// The constructors apply only a few local simplifications, each an identity
// of SMT-LIB's semantics: true/false absorption in not/and/or/=>/ite,
// flattening of nested and/or, (= t t) for structurally equal t, and
// (ite c t t) = t. Nothing else is rewritten, so the printed problem is
// close to what the encoder built.
//
// # Semantics
//
// Operators mean exactly what their SMT-LIB namesakes mean. In particular
// Div and Mod are SMT-LIB's div and mod: Euclidean for a non-zero divisor
// and unspecified (an arbitrary function) for a zero divisor. A client that
// needs total division must guard it (package encode does).
//
// # Canonical text
//
// Problem.Text prints a standalone SMT-LIB2 script: uninterpreted sort
// declarations sorted by name, datatype declarations in dependency order
// (ties by name), constant declarations sorted by name, the assertions in
// their given order (each preceded by a comment line with its name), and a
// final (check-sat). It sets no option and no logic, so feeding the file to
// the z3 command line gives the verdict the API gives for the same Problem
// under the same solver parameters. Bound variables are printed with
// normalised names (%0, %1, ... by binding depth) so alpha-equivalent
// problems print identically; closed compound subterms that occur more than
// once in an assertion are printed once with let (names %l0, %l1, ...), so
// the text of a shared DAG stays linear in its size. Names beginning with %
// are therefore reserved: constants, sorts and datatype symbols may not use
// them. Problem.Hash is the hex SHA-256 of Problem.Text.
//
// # Portable text
//
// The text is SMT-LIB 2.6 that Z3 and cvc5 both read. cvc5 takes a
// constant array ((as const (Array D R)) v) only when v is a value (a
// literal, a constructor applied to values, a constant array of a value),
// so Text names every other constant array: a fresh constant %c0, %c1, ...
// (numbered in the order the assertions meet them; equal arrays share
// one) declared after the problem's constants and defined by an axiom
// asserted before the problem's assertions,
//
//	(assert (forall ((%0 D)) (! (= (select %c0 %0) v) :pattern ((select %c0 %0)))))
//
// When v mentions variables x1, x2, ... bound by an enclosing quantifier,
// the array becomes (select (select %cN x1) x2 ...) of an array of arrays
// indexed by them, with the axiom quantified over them too. Each is a
// definition, so the text is satisfiable exactly when the problem is
// (hoist.go).
package logic
