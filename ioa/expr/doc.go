// Package expr owns ladder's expression language: the abstract syntax of
// expressions, sort expressions, binders and effect statements (ast.go), the
// sorts (sort.go), and the front end that turns text into sort-checked trees:
//
//   - a scanner and a recursive-descent parser (ParseExpr, ParseStmts,
//     ParseSortExpr, ParseParam), which never panic and report syntax errors
//     as "file:line:col: message" through a source.Mapper;
//   - a sort checker (Checker) that resolves names in Scopes, infers and
//     checks sorts bidirectionally, and checks effects (lvalues and the
//     "each state variable assigned at most once on any path" rule);
//   - a printer (Print, PrintStmts, SortExpr.String) that writes trees back
//     in the language's own notation with minimal parentheses, such that
//     parsing the output yields a structurally equal tree (Equal);
//   - constructors (NewIdent, NewBinary, …) and a walker (Inspect) for other
//     packages that build or traverse trees.
//
// The language is specified in docs/language.md.
//
// Positions: the P of every expression node is the position of its first
// token (for a binary expression, the first token of its left operand;
// Binary.OpPos holds the operator's position). Statements are positioned at
// their first token too.
package expr
