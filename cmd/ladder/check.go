// This file implements `ladder check`: load and sort-check YAML files.

package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ladder/internal/driver"
	"ladder/internal/source"
	"ladder/ioa/load"
)

// defaultDirs are the directories `ladder check` reads when given no paths
// (those that exist).
var defaultDirs = []string{"specs", "algorithms", "proofs"}

// maxErrorsPerFile is how many errors check prints per file without --all-errors.
const maxErrorsPerFile = 10

func init() {
	register(&command{
		name:  "check",
		args:  "[PATHS] [--json] [--all-errors]",
		short: "load and sort-check interfaces, automata and proofs",
		long: `Check loads the YAML files and directories given (by default specs/,
algorithms/ and proofs/, those that exist), parses and sort-checks every
expression, and prints the errors as file:line:col: message, at most 10 per
file unless --all-errors. It exits with 0 when everything is clean, 1 on
errors and 2 on usage errors.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			jsonOut := fs.Bool("json", false, "print the result as JSON on stdout")
			all := fs.Bool("all-errors", false, "print every error, not only the first 10 of each file")
			return func(e *env, paths []string) int {
				return check(e, paths, *jsonOut, *all)
			}
		},
	})
}

// checkJSON is the output of `ladder check --json`.
type checkJSON struct {
	Files      []string    `json:"files"`
	Automata   []string    `json:"automata"`
	Interfaces []string    `json:"interfaces"`
	Proofs     []string    `json:"proofs"`
	Errors     []errorJSON `json:"errors"`
	OK         bool        `json:"ok"`
}

// errorJSON is one diagnostic in JSON output.
type errorJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func toErrorJSON(errs source.ErrorList) []errorJSON {
	out := make([]errorJSON, 0, len(errs))
	for _, e := range errs {
		out = append(out, errorJSON{File: e.Pos.File, Line: e.Pos.Line, Col: e.Pos.Col, Code: e.Code.String(), Message: e.Msg})
	}
	return out
}

// libraryDirs returns the directories searched for an automaton that a
// proof names but none of the given files declares (load.Config.Library):
// specs/ and algorithms/ at the repository root of the working directory.
func libraryDirs() []string {
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	root := driver.FindRoot(wd)
	var out []string
	for _, d := range []string{"specs", "algorithms"} {
		dir := filepath.Join(root, d)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		if rel, err := filepath.Rel(wd, dir); err == nil {
			dir = rel
		}
		out = append(out, dir)
	}
	return out
}

func check(e *env, paths []string, jsonOut, all bool) int {
	if len(paths) == 0 {
		for _, d := range defaultDirs {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				paths = append(paths, d)
			}
		}
		if len(paths) == 0 {
			return e.usageError("check", "no paths given, and none of specs/, algorithms/, proofs/ exists here")
		}
	}
	set, errs := load.Config{Library: libraryDirs()}.Files(paths...)
	if jsonOut {
		out := checkJSON{
			Files:      nonNil(set.Files),
			Automata:   []string{},
			Interfaces: []string{},
			Proofs:     []string{},
			Errors:     toErrorJSON(errs),
			OK:         len(errs) == 0,
		}
		for _, a := range set.Automata {
			out.Automata = append(out.Automata, a.Name)
		}
		for _, i := range set.Interfaces {
			out.Interfaces = append(out.Interfaces, i.Name)
		}
		for _, p := range set.ProofFiles {
			out.Proofs = append(out.Proofs, p.Name)
		}
		if err := writeJSON(e.stdout, out); err != nil {
			e.errorf("check", "%v", err)
			return exitFailure
		}
	} else {
		printErrors(e.stderr, errs, all)
		fmt.Fprintf(e.stdout, "checked %d %s: %d %s, %d %s, %d %s\n",
			len(set.Files), plural(len(set.Files), "file", "files"),
			len(set.Automata), plural(len(set.Automata), "automaton", "automata"),
			len(set.Interfaces), plural(len(set.Interfaces), "interface", "interfaces"),
			len(set.ProofFiles), plural(len(set.ProofFiles), "proof", "proofs"))
		if len(errs) > 0 {
			fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		}
	}
	for _, err := range errs {
		if err.Code == source.ErrInternal {
			return exitInternal // a bug in ladder, as docs/cli.md says
		}
	}
	if len(errs) > 0 {
		return exitFailure
	}
	return exitOK
}

// printErrors prints errs, one per line, at most maxErrorsPerFile per file
// unless all is set.
func printErrors(w io.Writer, errs source.ErrorList, all bool) {
	perFile := map[string]int{}
	for _, err := range errs {
		n := perFile[err.Pos.File]
		perFile[err.Pos.File] = n + 1
		switch {
		case all || n < maxErrorsPerFile:
			fmt.Fprintln(w, err.Error())
		case n == maxErrorsPerFile:
			more := 0
			for _, x := range errs {
				if x.Pos.File == err.Pos.File {
					more++
				}
			}
			fmt.Fprintf(w, "%s: too many errors (%d more; use --all-errors to see them)\n", source.Quote(err.Pos.File), more-maxErrorsPerFile)
		}
	}
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
