// Package load owns reading ladder's YAML files: it is the only package that
// imports the YAML library. It turns interface and automaton files (see
// docs/language.md) into the ioa model, with every expression parsed and
// sort-checked by package ioa/expr and every name resolved.
//
// Loading collects many errors per run, each at an exact file:line:col, also
// inside multi-line expressions: for each YAML scalar holding an expression
// the loader builds a source.Mapper from the raw file bytes (literal and
// folded blocks, plain multi-line scalars; quoted scalars are exact unless
// they contain escapes).
//
// A file's kind is given by its top-level key: interface, automaton or proof.
// Proof files are recognised and recorded (Set.Proofs) but not yet loaded;
// proof loading will be added to this package, reusing the helpers in
// scope.go (NewChecker, NewStateScope) and the node helpers of yaml.go.
package load
