// This file implements `ladder watch`: re-prove on every save and print
// what changed.

package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"ladder/internal/driver"
)

func init() {
	register(&command{
		name:  "watch",
		args:  "[PATHS] [-j N] [--rlimit N] [--timeout D] [--cache-dir DIR] [--no-cache]",
		short: "re-prove on every save and print what changed",
		long: `Watch proves the YAML files and directories given (by default specs/,
algorithms/ and proofs/) as ladder prove does and prints the report, then
polls the files' modification times about every 100 ms. After every save it
proves again, keeping the cache in memory (and saving it), so that only the
obligations whose text changed reach the solver, and prints only what
changed: obligations newly proved, obligations newly failing (with their
counterexamples), edges whose status changed, theorems that went stale and
theorems newly derived, and the summary line. Stop it with Ctrl-C.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			return func(e *env, paths []string) int {
				return watch(e, paths, o)
			}
		},
	})
}

func watch(e *env, paths []string, o *proveFlags) int {
	cfg, err := o.config(e)
	if err != nil {
		return e.usageError("watch", "%v", err)
	}
	if paths = defaultPaths(paths); len(paths) == 0 {
		return e.usageError("watch", "no paths given, and none of specs/, algorithms/, proofs/ exists here")
	}
	// the verdicts first: the cores of re-proved obligations are looked
	// for while watch waits for the next edit
	cfg.DeferCoreSearch = true
	p, err := driver.NewProver(cfg)
	if err != nil {
		return e.usageError("watch", "%v", err)
	}
	defer p.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w := &driver.Watcher{Paths: paths, Library: libraryDirs(), Prover: p, Out: e.stdout}
	if err := w.Run(ctx); err != nil {
		e.errorf("watch", "%v", err)
		return exitFailure
	}
	return exitOK
}
