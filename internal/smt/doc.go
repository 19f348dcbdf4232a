// Package smt owns the translation of logic problems into Z3 and of Z3
// models back into logic values: it is, with its tests, the only user of
// the cgo binding internal/z3.
//
// Session.Check builds every declaration and assertion of a logic.Problem through
// the Z3 API (sorts, datatypes, constants, terms, quantifiers and lambdas,
// in the canonical order of logic.Problem.Signature), checks them with a
// fresh solver configured only by solver parameters (resource limit, random
// seed, optional timeout), and returns the verdict, Z3's reason for
// unknown, the resource units used, the wall-clock time and, on sat, a
// Model that implements logic.Model. CheckText does the same from the
// problem's canonical SMT-LIB2 text (logic.Problem.Text) through Z3's
// parser: the text dumped for the z3 command line and the API-built terms
// come from the same Problem, and the tests check that they agree.
//
// Bound variables are built as Z3 constants named "%" + their name and
// abstracted by the binder; logic reserves names beginning with %, so they
// cannot capture a free constant.
//
// The caller owns the z3.Context: use one per worker goroutine, since work
// on one context is serialized, and one Session per context (a Session
// remembers the datatypes it declared: Z3 4.8.12 must never see one
// datatype name declared twice in a context).
//
// Two Z3 4.8.12 defects shape this package. Lambda terms are decided
// wrongly under store and equality, so Check refuses problems that
// contain lambdas (package encode lifts them with logic.LiftLambdas); and
// the model evaluator corrupts Z3's memory on lambda terms (the context
// then crashes when deleted), so Model.Eval beta-reduces them away first
// (pushing selects through store and ite, and comparing arrays pointwise
// over the model's finite universes) and refuses any lambda that remains.
package smt
