// This file implements the --symmetry flag of `ladder explore` and
// `ladder crosscheck`, and the symmetry an interface declares
// (`symmetry:`), which they use when the flag is not given.

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ladder/internal/explore"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// noSymmetry is the value of --symmetry that turns off the symmetry an
// interface declares.
const noSymmetry = "none"

// symmetrySorts parses --symmetry T,L into sort names; none and the empty
// flag give none.
func symmetrySorts(e *env, cmd, flag string) ([]string, int) {
	if strings.TrimSpace(flag) == "" || strings.TrimSpace(flag) == noSymmetry {
		return nil, exitOK
	}
	var sorts []string
	for _, part := range strings.Split(flag, ",") {
		name := strings.TrimSpace(part)
		if name == "" {
			return nil, e.usageError(cmd, "--symmetry %q: want comma-separated parameter sorts, e.g. T,L, or none", flag)
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

// declaredSymmetry returns the parameter sorts whose symmetry the
// interfaces of autos all declare (`symmetry:`), in the first one's order,
// and where: "interface TM at specs/tm.yaml:35:1" (joined by "and" for
// several).
// It returns nil when one of them declares none.
func declaredSymmetry(autos ...*ioa.Automaton) ([]string, string) {
	var sorts []string
	var where []string
	for i, a := range autos {
		it := a.Interface
		if it == nil || len(it.Symmetry) == 0 {
			return nil, ""
		}
		if i == 0 {
			sorts = slices.Clone(it.Symmetry)
		} else {
			sorts = slices.DeleteFunc(sorts, func(s string) bool { return !slices.Contains(it.Symmetry, s) })
		}
		w := fmt.Sprintf("interface %s at %s", it.Name, it.SymmetryPos)
		if !slices.Contains(where, w) {
			where = append(where, w)
		}
	}
	if len(sorts) == 0 {
		return nil, ""
	}
	return sorts, strings.Join(where, " and ")
}

// declaredSymmetryRefused prints why the symmetry an interface declares
// is not used for a check (err: an expression that singles out an element,
// a SymmetryError, or a group over the size limit for the instance), which
// then runs without it; it reports false when err is something else.
func declaredSymmetryRefused(e *env, cmd, where string, err error) bool {
	if where == "" {
		return false
	}
	// the refusal is the one --symmetry gets, said of the declaration
	var why string
	var se *explore.SymmetryError
	switch {
	case errors.As(err, &se):
		why = (&source.Error{Pos: se.Pos, Code: source.ErrUsage, Msg: strings.TrimPrefix(se.Msg, "--")}).Error()
	case strings.HasPrefix(err.Error(), "--symmetry"):
		why = "ladder " + cmd + ": " + strings.TrimPrefix(err.Error(), "--")
	default:
		return false
	}
	fmt.Fprintf(e.stderr, "%s\nladder %s: note: the symmetry declared by %s is not used: the search runs without it\n", why, cmd, where)
	return true
}

// runDeclared runs a check with the sorts given: from --symmetry (where
// is "") or declared by an interface (where says where). When a
// declaration is refused (declaredSymmetryRefused), it runs the check
// again without symmetry. It returns where, or "" when the declaration
// was not used.
func runDeclared[R any](e *env, cmd string, sorts []string, where string, check func([]string) (R, error)) (R, string, error) {
	res, err := check(sorts)
	if err != nil && declaredSymmetryRefused(e, cmd, where, err) {
		where = ""
		res, err = check(nil)
	}
	return res, where, err
}

// paramSorts returns the parameter sorts that every automaton of autos
// declares, in the first one's order: the candidates of the default
// symmetry.
func paramSorts(autos ...*ioa.Automaton) []string {
	var out []string
	for i, a := range autos {
		var here []string
		for _, s := range a.Sorts {
			if s != nil && s.Kind == expr.KParam && !slices.Contains(here, s.Name) {
				here = append(here, s.Name)
			}
		}
		if i == 0 {
			out = here
		} else {
			out = slices.DeleteFunc(out, func(s string) bool { return !slices.Contains(here, s) })
		}
	}
	return out
}

// runDefault runs a check with the default symmetry: the candidate sorts,
// less each one the static check refuses (a note on stderr says which and
// why), or none when a refusal names no sort. It reports whether a
// reduction was used.
func runDefault[R any](e *env, cmd string, cands []string, check func([]string) (R, error)) (R, bool, error) {
	sorts := slices.Clone(cands)
	for len(sorts) > 0 {
		res, err := check(sorts)
		if err == nil {
			return res, true, nil
		}
		var se *explore.SymmetryError
		switch {
		case errors.As(err, &se) && se.Sort != "" && slices.Contains(sorts, se.Sort):
			_, msg, _ := strings.Cut(se.Msg, ": ")
			fmt.Fprintf(e.stderr, "ladder %s: note: no symmetry reduction over %s: %s: %s\n", cmd, se.Sort, se.Pos, msg)
			sorts = slices.DeleteFunc(sorts, func(s string) bool { return s == se.Sort })
		case errors.As(err, &se) || strings.HasPrefix(err.Error(), "--symmetry"):
			fmt.Fprintf(e.stderr, "ladder %s: note: no symmetry reduction: %s\n", cmd, strings.TrimPrefix(err.Error(), "--"))
			sorts = nil
		default:
			return res, false, err
		}
	}
	res, err := check(nil)
	return res, false, err
}

// runSymmetric runs check with the symmetry that --symmetry or a
// declaration gives (runDeclared), or by default (runDefault) when
// byDefault is set, and marks the result's symmetry with where its sorts
// come from (mark gets the declaration, and whether they are the
// default's).
func runSymmetric[R any](e *env, cmd string, byDefault bool, cands, sorts []string, declared string,
	check func([]string) (R, error), mark func(r R, declared string, byDefault bool)) (R, error) {
	if byDefault {
		res, used, err := runDefault(e, cmd, cands, check)
		if err == nil && used {
			mark(res, "", true)
		}
		return res, err
	}
	res, declared, err := runDeclared(e, cmd, sorts, declared, check)
	if err == nil {
		mark(res, declared, false)
	}
	return res, err
}
