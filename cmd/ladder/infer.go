// This file implements `ladder infer`: candidate invariants from templates,
// filtered on small instances and reduced to an inductive set proved by
// the kernel (package internal/infer, docs/infer.md).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"ladder/internal/explore"
	"ladder/internal/infer"
	"ladder/internal/safeio"
	"ladder/internal/source"
)

// inferLong is the help text of ladder infer.
const inferLong = `Infer generates candidate invariants of the automaton of FILE from
templates over its state (docs/infer.md), keeps those that hold in every
reachable state of small instances (--bound, repeatable; by default
T=2,L=1,V=2, T=1,L=2,V=2 and T=3,L=1,V=1, and 2, 2 then 3 elements for
other parameter sorts; at most --max-states states each), drops those implied by others, and reduces the rest by a Houdini
search: one incremental Z3 solver per action asks whether the action
preserves the conjunction of the live candidates, and drops those a model
breaks, until every action preserves it. The kept ones are merged into
fewer invariants and proved as ladder prove does (with the cache), each
assuming those whose hypotheses Z3's unsat cores of the search used,
under the names printed; a candidate not proved so is proved again
assuming all of them, and then dropped, until all are proved.

It prints, on stdout, an invariants: section ready to paste into FILE (each
invariant with its assumes: list), on stderr the counts and times of each
phase. Every printed invariant was proved by the kernel together with the
others. With --proof P (a proof file whose concrete automaton is FILE's), it
also proves P's edge with the inferred invariants as its concrete
assumptions and prints the assume: section it used. With --compare it
also proves each invariant written in FILE with the inferred invariants as
its only assumptions (a quantified one with the parametrized strategy
first, then without) and lists those that are not proved: how much of a
hand-written proof the inferred set recovers. With --max-time D the
inference stops after D, says so, and prints the phases it finished
(--compare's proofs, which come after, have as long again; the
invariants they could not finish are "not checked (time limit)").

With --proof P and no FILE it repairs P's edge, a forward simulation that
does not prove: it proves the edge, generates candidate relation clauses
comparing the abstract variables the failing goals read with terms over
the concrete state (under a guard over it, or none), keeps those that hold
at every pair (c, a) the cross-check reaches on the instances and are
false at the pre-state of a counterexample of a refuted obligation, reduces
them by a Houdini fixpoint on the edge's obligations, and then to a
minimal set with which the edge proves. It prints those clauses, entries
to add to P's relation: section (docs/infer.md, "Repairing an edge").

It exits with 0 when the inference ran (also when it found nothing) and,
with --proof, the edge is proved (or repaired); 1 on errors in the files or
an edge that is not proved; 2 on usage errors.`

// boundList is a repeatable --bound flag.
type boundList []string

func (b *boundList) String() string     { return strings.Join(*b, " ") }
func (b *boundList) Set(v string) error { *b = append(*b, v); return nil }

func init() {
	register(&command{
		name:  "infer",
		args:  "FILE [--automaton A] [--proof P] [--bound T=2,L=1,V=2 ...] [--json] [-j N] [--cache-dir DIR] | --proof P",
		short: "infer invariants from templates, proved inductive by the kernel",
		long:  inferLong,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			var bounds boundList
			fs.Var(&bounds, "bound", "an instance to filter candidates on, e.g. T=2,L=1,V=2 (repeatable; default: two small instances)")
			automaton := fs.String("automaton", "", "the automaton, when FILE holds several")
			proof := fs.String("proof", "", "also prove this proof file's edge with the inferred invariants as its concrete assumptions")
			maxStates := fs.Int("max-states", 100000, "explore at most this many states per instance")
			exploreTimeout := fs.Duration("explore-timeout", time.Minute, "explore each instance for at most this long")
			noPairs := fs.Bool("no-pairs", false, "leave out the candidates with two bound variables of one sort")
			productsFlag := fs.String("products", "auto", "search the candidates over two related parameter sorts (forall t: T, l: L. ...): auto (when the others leave room), on or off")
			maxMemory := fs.String("max-memory", "", "stop (exit 1) when the process, the solver included, uses this much memory, e.g. 4GiB (default: half of the physical memory, less when little is available)")
			maxCands := fs.Int("max-candidates", infer.DefaultMaxCandidates, "stop when more non-redundant candidates than this survive the instances")
			partSize := fs.Int("part", infer.DefaultPartSize, "search at most this many non-redundant candidates at once; more are searched in parts")
			onPoints := fs.Int("on-points", infer.DefaultOnPoints, "past this many non-redundant candidates, hold in reserve the implications others imply on the explored states")
			noParam := fs.Bool("no-parametrized", false, "prove quantified candidates without the parametrized strategy")
			noCheap := fs.Bool("no-cheap-passes", false, "start the Houdini search with its full checks, without the passes of cheap checks")
			prefix := fs.String("prefix", "inv", "the prefix of the invariants' names (inv1, inv2, ...)")
			compare := fs.Bool("compare", false, "also prove each invariant written in FILE from the inferred set alone, and say which are")
			maxTime := fs.Duration("max-time", 0, "stop (exit 1) when inference has taken this long, e.g. 10m; --compare's proofs then have as long again (default: no limit)")
			jsonOut := fs.Bool("json", false, "print the result as JSON on stdout")
			return func(e *env, args []string) int {
				if len(args) == 0 && *proof != "" {
					return runRepair(e, o, *proof, bounds, *maxStates, *exploreTimeout, *prefix, *jsonOut)
				}
				if len(args) != 1 {
					return e.usageError("infer", "expected one FILE (or --proof P alone, to repair P's relation), got %d arguments", len(args))
				}
				if !validName(*prefix) {
					return e.usageError("infer", "--prefix %q is not a name", *prefix)
				}
				if *maxStates <= 0 || *exploreTimeout <= 0 || *maxCands <= 0 || *partSize <= 0 || *onPoints <= 0 {
					return e.usageError("infer", "--max-states, --explore-timeout, --max-candidates, --part and --on-points must be positive")
				}
				if *maxTime < 0 {
					return e.usageError("infer", "--max-time must not be negative")
				}
				products, ok := map[string]infer.Products{"auto": infer.ProductsAuto, "on": infer.ProductsOn, "off": infer.ProductsOff}[*productsFlag]
				if !ok {
					return e.usageError("infer", "--products %q: want auto, on or off", *productsFlag)
				}
				cfg, err := o.config(e)
				if err != nil {
					return e.usageError("infer", "%v", err)
				}
				memLimit := explore.DefaultMaxMemory()
				if *maxMemory != "" {
					if memLimit, err = safeio.ParseBytes(*maxMemory); err != nil {
						return e.usageError("infer", "--max-memory: %v", err)
					}
					if memLimit < 64<<20 {
						return e.usageError("infer", "--max-memory %s: at least 64 MiB", *maxMemory)
					}
				}
				// The final rounds hold many large obligations: collect
				// garbage at Go's default pace, not main's.
				if e.getenv("GOGC") == "" {
					debug.SetGCPercent(100)
				}
				// The collector keeps the heap under the budget while it
				// can, as a search's does (budget.go), rather than under
				// main's soft limit, which a large filter may pass.
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(memLimit / 10 * 8))
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				terminal := isTerminal(e.stderr)
				progress := inferProgress(e, terminal)
				opts := infer.Options{
					File: args[0], Automaton: *automaton, Bounds: bounds, MaxStates: *maxStates,
					Timeout: *exploreTimeout, MaxMemory: memLimit, NoPairs: *noPairs, Products: products, MaxCandidates: *maxCands, PartSize: *partSize, OnPoints: *onPoints, NoParametrized: *noParam, NoCheapPasses: *noCheap, Prefix: *prefix,
					Compare: *compare, MaxTime: *maxTime,
					Library: libraryDirs(), Prover: cfg, Proof: *proof, Progress: progress,
				}
				res, err := infer.Run(ctx, opts)
				if terminal {
					fmt.Fprint(e.stderr, "\r\033[K")
				}
				if err != nil {
					if (errors.Is(err, infer.ErrTooMany) || errors.Is(err, infer.ErrLimit)) && res != nil {
						if *jsonOut {
							_ = res.WriteJSON(e.stdout)
						} else {
							res.WriteSummary(e.stderr)
						}
					}
					return inferError(e, err)
				}
				if *jsonOut {
					err = res.WriteJSON(e.stdout)
				} else {
					res.WriteSummary(e.stderr)
					_, err = fmt.Fprint(e.stdout, res.YAML())
					if err == nil && res.Edge != nil {
						_, err = fmt.Fprintf(e.stdout, "\n# %s, %s:\n%s", res.Edge.Proof, res.Edge.Status, res.Edge.Assume)
					}
				}
				if err != nil {
					e.errorf("infer", "%v", err)
					return exitFailure
				}
				if len(res.Nat) > 0 || res.Edge != nil && res.Edge.Status != "proved" {
					return exitFailure
				}
				return exitOK
			}
		},
	})
}

// validName reports whether s is a name of the language.
func validName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// runRepair runs `ladder infer --proof P` without FILE: relation repair.
func runRepair(e *env, o *proveFlags, proof string, bounds []string, maxStates int, timeout time.Duration, prefix string, jsonOut bool) int {
	if prefix == "inv" {
		prefix = "fix"
	}
	cfg, err := o.config(e)
	if err != nil {
		return e.usageError("infer", "%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	terminal := isTerminal(e.stderr)
	progress := inferProgress(e, terminal)
	res, err := infer.Repair(ctx, infer.RepairOptions{Proof: proof, Bounds: bounds, MaxStates: maxStates, Timeout: timeout,
		Prefix: prefix, Library: libraryDirs(), Prover: cfg, Progress: progress})
	if terminal {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		return inferError(e, err)
	}
	if jsonOut {
		err = res.WriteJSON(e.stdout)
	} else {
		res.WriteSummary(e.stderr)
		if res.Status == "repaired" {
			_, err = fmt.Fprintf(e.stdout, "# add to the relation: section of %s:\n%s", proof, res.Section)
		}
	}
	if err != nil {
		e.errorf("infer", "%v", err)
		return exitFailure
	}
	if res.Status == "not repaired" {
		return exitFailure
	}
	return exitOK
}

// inferError reports an error of infer.Run or infer.Repair and returns the
// exit code: errors in the files are listed, a usage error prints the
// usage.
func inferError(e *env, err error) int {
	var errs source.ErrorList
	switch {
	case errors.As(err, &errs):
		printErrors(e.stderr, errs, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		return exitFailure
	case errors.Is(err, infer.ErrUsage):
		return e.usageError("infer", "%s", strings.TrimPrefix(err.Error(), infer.ErrUsage.Error()+": "))
	}
	e.errorf("infer", "%v", err)
	return exitFailure
}

// inferProgress returns the progress report of ladder infer: one line
// rewritten in place on a terminal, else a line per step (without the
// filter's per-second counts).
func inferProgress(e *env, terminal bool) func(string) {
	return func(msg string) {
		switch {
		case terminal:
			fmt.Fprintf(e.stderr, "\r\033[Kladder infer: %s", msg)
		case !strings.HasPrefix(msg, "filter "):
			fmt.Fprintf(e.stderr, "ladder infer: %s\n", msg)
		}
	}
}
