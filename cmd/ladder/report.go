// This file implements `ladder report`: render a prover report, read from
// the JSON of `ladder prove --json` or assembled from the cache, as text or
// as an HTML page.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"ladder/internal/driver"
	"ladder/internal/report"
	"ladder/internal/safeio"
)

func init() {
	register(&command{
		name:  "report",
		args:  "[--html DIR] [--from REPORT.json | PATHS] [--cache-dir DIR]",
		short: "render a proof report as an HTML page (or text), from JSON or the cache",
		long: `Report renders the report of ladder prove without running the solver.

With --from FILE it reads the JSON that ladder prove --json wrote ("-" reads
standard input); the positions in it are taken relative to the working
directory. Otherwise it loads the YAML files and directories given (by
default specs/, algorithms/ and proofs/, those that exist) and takes every
obligation's verdict from the cache, as ladder graph does: obligations the
cache holds no verdict for are left out, and their edges and invariants are
"not checked".

--html DIR writes one self-contained page, DIR/index.html (inline style, no
script, nothing fetched from the network): the hierarchy drawn with
Graphviz's dot (a list when dot is missing), each automaton and edge coloured
by its status and linked to its section; every edge and invariant with its
obligations (action, clause, verdict, time, cached or fresh, YAML position);
the counterexample of every refuted obligation as tables of the pre- and
post-states with the changed entries highlighted; the reason and query of
every unknown one; and the derived theorems with their rule and premises.
Without --html it prints the text report.

It exits with 0 when the report is written, whatever the verdicts, 1 when
it cannot be, and 2 on input or usage errors.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			html := fs.String("html", "", "write the report as an HTML page into `DIR` (DIR/index.html)")
			from := fs.String("from", "", "read the report from the JSON `FILE` of ladder prove --json (- for stdin)")
			return func(e *env, paths []string) int {
				return reportCmd(e, paths, o, *html, *from)
			}
		},
	})
}

func reportCmd(e *env, paths []string, o *proveFlags, htmlDir, from string) int {
	var rep *report.Prove
	if from != "" {
		if len(paths) > 0 {
			return e.usageError("report", "--from reads a JSON report: give no PATHS with it")
		}
		var err error
		if rep, err = readReport(from); err != nil {
			e.errorf("report", "%v", err)
			return exitUsage
		}
	} else {
		cfg, err := o.config(e)
		if err != nil {
			return e.usageError("report", "%v", err)
		}
		if paths = defaultPaths(paths); len(paths) == 0 {
			return e.usageError("report", "no paths given, and none of specs/, algorithms/, proofs/ exists here")
		}
		in, errs := loadPlanned(paths, cfg)
		if len(errs) > 0 {
			printErrors(e.stderr, errs, false)
			fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
			return exitUsage
		}
		if rep, err = cachedReport(in, cfg); err != nil {
			e.errorf("report", "%v", err)
			return exitFailure
		}
	}
	if htmlDir == "" {
		if err := rep.WriteText(e.stdout, report.TextOptions{}); err != nil {
			e.errorf("report", "%v", err)
			return exitFailure
		}
		return exitOK
	}
	path, err := writeHTMLReport(rep, htmlDir)
	if err != nil {
		e.errorf("report", "%v", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", path)
	return exitOK
}

// writeHTMLReport writes rep as DIR/index.html, with links to the YAML
// files relative to the working directory, and returns the page's path.
func writeHTMLReport(rep *report.Prove, dir string) (string, error) {
	return rep.WriteHTMLDir(dir, report.HTMLOptions{SourceDir: "."})
}

// readReport reads the JSON report of ladder prove --json.
func readReport(name string) (*report.Prove, error) {
	// Like every input, a report is read under safeio.MaxInputSize, and a
	// named file only when it is a regular file: a pipe or a device would
	// block or never end.
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(os.Stdin, safeio.MaxInputSize+1))
		if err == nil && len(data) > safeio.MaxInputSize {
			err = fmt.Errorf("standard input: %w (the limit is %d MiB)", safeio.ErrTooLarge, safeio.MaxInputSize>>20)
		}
	} else {
		data, err = safeio.ReadFile(name, safeio.MaxInputSize)
	}
	if err != nil {
		return nil, err
	}
	var rep report.Prove
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a JSON report of ladder prove: %v", name, err)
	}
	return &rep, nil
}

// cachedReport assembles the report of in from the cache, without the
// solver.
func cachedReport(in *planned, cfg driver.Config) (*report.Prove, error) {
	if cfg.NoCache {
		return nil, fmt.Errorf("--no-cache: the report is read from the cache")
	}
	p, err := in.prover(cfg)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Status(context.Background(), in.Input)
}
