// This file implements the --symmetry flag of `ladder explore`.

package main

import (
	"errors"
	"fmt"
	"strings"

	"ladder/internal/explore"
)

// symmetrySorts parses --symmetry T,L into sort names.
func symmetrySorts(e *env, flag string) ([]string, int) {
	if strings.TrimSpace(flag) == "" {
		return nil, exitOK
	}
	var sorts []string
	for _, part := range strings.Split(flag, ",") {
		name := strings.TrimSpace(part)
		if name == "" {
			return nil, e.usageError("explore", "--symmetry %q: want comma-separated parameter sorts, e.g. T,L", flag)
		}
		sorts = append(sorts, name)
	}
	return sorts, exitOK
}

// symmetryError reports an automaton that does not support the symmetry
// asked for: a diagnostic `file:line:col: message` on its own line, and
// the usage exit code.
func symmetryError(e *env, err error) (int, bool) {
	var se *explore.SymmetryError
	if !errors.As(err, &se) {
		return 0, false
	}
	fmt.Fprintln(e.stderr, se.Error())
	return exitUsage, true
}
