// Package shape owns the test that keeps ladder's code in pieces one can
// read. It has no code of its own: shape_test.go parses every non-test Go
// file of the module (testdata and hidden directories aside) and fails
//
//   - when a file has more than maxFileLines lines (800);
//   - when a function (a declared function or method, from func to its
//     closing brace) has more than maxFuncLines lines (120); or
//   - when a function's cyclomatic complexity is above maxComplexity (40):
//     1, plus one for each if, for, range, case of a switch or select
//     (default clauses aside), && and || in its body, function literals
//     included.
//
// The code that broke a rule before the test existed is listed in
// exemptions, each with a one-line reason and its size when it was
// exempted; the test fails when an exempted file or function grows more
// than 10% beyond that size, and when an exemption is no longer needed
// (the code shrank below the rule, or is gone), so that the list shows
// every offender and only them.
package shape
