// Package doccheck owns the test that keeps ladder's documentation
// self-contained. It has no code of its own: doccheck_test.go reads the
// git-tracked files of the repository and fails
//
//   - when a text file (.md, .yaml, .yml, .go, .sh, Makefile) refers to
//     material outside the repository: private notes by file name, source
//     papers by their number in a private collection instead of their short
//     name (docs/references.md), or a path that leaves the repository
//     through a sibling "shared" directory; and
//   - when a Markdown file links to, or names in backquotes, a repository
//     file that does not exist (a relative link [text](path), or a path
//     docs/….md, specs/….yaml, algorithms/….yaml, proofs/….yaml or
//     scripts/…), or a YAML file (its doc: fields and comments) names such a
//     path; and
//   - when a comment of a Go file (gorefs_test.go) names a Go file that
//     does not exist (a bare <name>.go must be a file of the comment's own
//     package; dir/<name>.go is looked up from the file's directory, the
//     repository root, or as the end of a repository path), or refers to
//     pkg.Symbol or pkg.Type.Member where pkg is a package of the module
//     that declares no such thing (pkg.Method, for a method of one of its
//     types, is accepted).
//
// Each finding is reported as file:line. The test skips itself when git is
// not available or the directory is not a git work tree.
package doccheck
