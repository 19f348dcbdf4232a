// Package load owns reading ladder's YAML files: it is the only package that
// imports the YAML library. It turns interface, automaton and proof files
// (docs/language.md, docs/proofs.md) into the ioa model, with every
// expression parsed and sort-checked by package ioa/expr and every name
// resolved: a Set is an ioa.Hierarchy with the loader's record of the
// files it read.
//
// Loading collects many errors per run, each at an exact file:line:col, also
// inside multi-line expressions: for each YAML scalar holding an expression
// the loader builds a source.Mapper from the raw file bytes (literal and
// folded blocks, plain multi-line scalars; quoted scalars are exact unless
// they contain escapes). Bad input gives errors, never a panic.
//
// A file's kind is given by its top-level key: interface, automaton or proof
// (load.go dispatches on it). Interfaces and automata are loaded as they are
// read (iface.go, automaton.go, defs.go); an automaton's interface file is
// read when the automaton refers to it, once. Proof files (proof.go) are
// loaded after every other file, and use the helpers of scope.go
// (NewChecker, NewStateScope) and the node helpers of yaml.go and mapper.go.
// The `strategy:` lists of invariants, proofs and cases are read by
// strategy.go into the model (ioa.Invariant.Strategy, ioa.Proof.Strategy,
// ioa.Case.Strategy), for package strategies.
package load
