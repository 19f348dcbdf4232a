// This file implements `ladder explore` and `ladder run`: exhaustive and
// random exploration of a finite instance of an automaton.

package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"

	"ladder/internal/explore"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/load"
)

func init() {
	register(&command{
		name:  "explore",
		args:  "FILE [--automaton NAME] [--bound T=2,L=2,V=2] [--symmetry T,L] [--reduce-dead] [--max-states N] [--max-depth N] [--invariants a,b] [--max-memory SIZE] [--timeout D] [--json]",
		short: "search every reachable state of a finite instance, checking invariants",
		long: `Explore loads FILE (an automaton file, or a file or directory holding several
automata, one of which --automaton selects) and searches the reachable states
of the instance given by --bound breadth-first, checking every invariant and
the implicit Nat conditions in each state. A bound NAME=N gives a parameter
sort N elements, or an Int, Nat or parameter-sort constant the value N.
--symmetry T,L stores each state as the representative of its orbit under
the permutations of T's and L's elements, when the automaton treats them
alike outside its initial state (checked; see docs/cli.md). Without
--symmetry, the sorts the automaton's interface declares (symmetry:) are
used, or, when it declares none, every parameter sort the check accepts;
a note says why a sort is refused; --symmetry none turns that off.
--reduce-dead, on by default (--reduce-dead=false turns it off), stores
each state with the dead entries of its per-process registers (those no
action or invariant reads before overwriting them, at the process's
control value) reset to their default, which keeps every verdict and trace.

With --proof, FILE is a proof file and explore cross-checks its edges on the
instance; with --implements ABSTRACT it checks trace inclusion: both are
` + "`ladder crosscheck`" + `, described there.

It exits with 0 when no state violates a condition (also when --max-states
or --max-depth stopped the search: the output says INCOMPLETE), 1 on a
violation, which it prints as a shortest trace, on errors, or when
--max-memory, --timeout or an interrupt stopped the search (INCOMPLETE, with
the figures reached), and 2 on usage errors, including a bad --bound.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &exploreFlags{}
			o.define(fs)
			o.budget.define(fs)
			maxStates := fs.Int("max-states", 0, "stop after this many states (0: no limit)")
			maxDepth := fs.Int("max-depth", 0, "stop at this depth (0: no limit)")
			proof := fs.Bool("proof", false, "FILE is a proof file (or a directory of them): cross-check its edges on the instance, as `ladder crosscheck` does")
			implements := fs.String("implements", "", "check that every trace of FILE's automaton is a trace of this automaton on the instance, as `ladder crosscheck --implements` does")
			symmetry := fs.String("symmetry", "", "comma-separated parameter sorts whose elements the automaton treats alike: store one state per orbit of their permutations")
			reduceDead := &defaultBool{v: true}
			fs.Var(reduceDead, "reduce-dead", "store states with the entries of per-process registers reset where no action or invariant can read them before they are overwritten (default true; --reduce-dead=false turns it off)")
			return func(e *env, args []string) int {
				if *proof || *implements != "" {
					c := &crosscheckFlags{bound: o.bound, maxStates: *maxStates, maxDepth: *maxDepth,
						abstract: "auto", implements: *implements, automaton: o.automaton, workers: o.workers, json: o.json,
						budget: o.budget, symmetry: *symmetry, reduceDead: *reduceDead}
					return c.run(e, args)
				}
				cfg, a, code := o.prepare(e, "explore", args)
				if a == nil {
					return code
				}
				if *maxStates < 0 || *maxDepth < 0 {
					return e.usageError("explore", "--max-states and --max-depth must not be negative")
				}
				cfg.MaxStates, cfg.MaxDepth, cfg.ReduceDead = *maxStates, *maxDepth, reduceDead.v
				if cfg.Symmetry, code = symmetrySorts(e, "explore", *symmetry); code != exitOK {
					return code
				}
				declared, byDefault := "", false
				if strings.TrimSpace(*symmetry) == "" {
					cfg.Symmetry, declared = declaredSymmetry(a)
					byDefault = declared == ""
				}
				budget, done, code := o.budget.budget(e, "explore")
				if done == nil {
					return code
				}
				cfg.Budget = budget
				var clear func()
				cfg.Progress, clear = e.progressLine("states")
				check := func(sorts []string) (*explore.Result, error) {
					cfg.Symmetry = sorts
					return explore.Explore(a, cfg)
				}
				// neither --symmetry nor a declaration: by default,
				// every parameter sort the static check accepts
				res, err := runSymmetric(e, "explore", byDefault, paramSorts(a), cfg.Symmetry, declared, check,
					func(r *explore.Result, declared string, byDefault bool) {
						if r.Symmetry != nil {
							r.Symmetry.Declared, r.Symmetry.Default = declared, byDefault
						}
					})
				clear()
				done()
				if err != nil {
					if code, ok := symmetryError(e, err); ok {
						return code
					}
					return e.searchError("explore", a.Name, err)
				}
				if o.json {
					err = writeJSON(e.stdout, res)
				} else {
					err = res.WriteText(e.stdout)
				}
				if err != nil {
					e.errorf("explore", "%v", err)
					return exitFailure
				}
				if res.Violation != nil || res.Exhausted {
					return exitFailure
				}
				return exitOK
			}
		},
	})
	register(&command{
		name:  "run",
		args:  "FILE [--automaton NAME] [--bound T=2,L=2,V=2] [--steps N] [--seed S] [--json]",
		short: "print one random execution of a finite instance",
		long: `Run loads FILE as explore does and prints one random execution of the
instance: a start state and up to --steps steps, each chosen uniformly among
the enabled transitions. The same --seed gives the same execution. It stops
early at a state that violates an invariant or a Nat condition (exit code 1)
or that enables no action (exit code 0; 1 when the automaton declares its
final states and that state is not one: a deadlock).`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &exploreFlags{}
			o.define(fs)
			steps := fs.Int("steps", 20, "the number of steps")
			seed := fs.Uint64("seed", 1, "the seed of the pseudo-random choices")
			return func(e *env, args []string) int {
				cfg, a, code := o.prepare(e, "run", args)
				if a == nil {
					return code
				}
				if *steps < 0 {
					return e.usageError("run", "--steps must not be negative")
				}
				if *steps > maxRunSteps {
					return e.usageError("run", "--steps %d: at most %d (the execution is kept in memory to be printed)", *steps, maxRunSteps)
				}
				tr, err := explore.Run(a, cfg, *steps, *seed)
				if err != nil {
					return e.searchError("run", a.Name, err)
				}
				if o.json {
					err = writeJSON(e.stdout, tr)
				} else {
					err = tr.WriteText(e.stdout)
				}
				if err != nil {
					e.errorf("run", "%v", err)
					return exitFailure
				}
				if tr.Invariant != "" || tr.NotFinal {
					return exitFailure
				}
				return exitOK
			}
		},
	})
}

// maxRunSteps is the longest execution `ladder run` prints.
const maxRunSteps = 1 << 20

// exploreFlags are the flags explore and run share.
type exploreFlags struct {
	automaton  string
	bound      string
	invariants string
	workers    int
	json       bool
	budget     budgetFlags // explore only
}

func (o *exploreFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&o.automaton, "automaton", "", "the automaton to explore, when FILE holds several")
	fs.StringVar(&o.bound, "bound", "", "the instance: sizes of parameter sorts and values of constants, e.g. T=2,L=2,V=2")
	fs.StringVar(&o.invariants, "invariants", "", "comma-separated invariants to check (default: all)")
	fs.IntVar(&o.workers, "workers", -1, "goroutines computing successors (-1: one per CPU); results do not depend on it")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON on stdout")
}

// prepare checks the arguments, loads the file and selects the automaton.
// It returns a nil automaton and the exit code when it cannot go on.
func (o *exploreFlags) prepare(e *env, cmd string, args []string) (explore.Config, *ioa.Automaton, int) {
	var cfg explore.Config
	if len(args) != 1 {
		return cfg, nil, e.usageError(cmd, "expected one FILE, got %d arguments", len(args))
	}
	inst, err := explore.ParseBounds(o.bound)
	if err != nil {
		return cfg, nil, e.usageError(cmd, "--bound: %v", err)
	}
	cfg.Instance = inst
	cfg.Workers = e.capWorkers(cmd, o.workers)
	if o.invariants != "" {
		for _, name := range strings.Split(o.invariants, ",") {
			cfg.Invariants = append(cfg.Invariants, strings.TrimSpace(name))
		}
	}
	set, errs := load.Files(args[0])
	if len(errs) > 0 {
		printErrors(e.stderr, errs, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		return cfg, nil, exitFailure
	}
	a, err := pick(&set.Hierarchy, o.automaton)
	if err != nil {
		e.errorf(cmd, "%s: %v", args[0], err)
		return cfg, nil, exitUsage
	}
	for _, name := range cfg.Invariants {
		if a.Invariant(name) == nil {
			return cfg, nil, e.usageError(cmd, "automaton %s has no invariant %q", a.Name, name)
		}
	}
	return cfg, a, exitOK
}

// pick selects the automaton named name, or the only automaton of h.
func pick(h *ioa.Hierarchy, name string) (*ioa.Automaton, error) {
	var names []string
	for _, a := range h.Automata {
		names = append(names, a.Name)
	}
	switch {
	case name != "":
		if a := h.Automaton(name); a != nil {
			return a, nil
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("no automaton %s: it declares no automaton", name)
		}
		return nil, fmt.Errorf("no automaton %s (there is %s)", name, strings.Join(names, ", "))
	case len(h.Automata) == 1:
		return h.Automata[0], nil
	case len(h.Automata) == 0:
		return nil, fmt.Errorf("no automaton to explore")
	}
	return nil, fmt.Errorf("several automata (%s): choose one with --automaton", strings.Join(names, ", "))
}

// capWorkers returns the number of workers to use for --workers n: more
// goroutines than CPUs cannot compute successors faster, so a larger n is
// capped, with a note on stderr.
func (e *env) capWorkers(cmd string, n int) int {
	cpus := runtime.NumCPU()
	if n > cpus {
		e.errorf(cmd, "--workers %d is more than the %d CPU(s) of this machine; using %d", n, cpus, cpus)
		return cpus
	}
	return n
}

// searchError reports an error of an exploration or cross-check of name
// and returns the exit code: 2 for a bad --bound (explore.BoundError), 3
// for an internal error, 1 otherwise (an automaton that cannot be explored
// in the instance).
func (e *env) searchError(cmd, name string, err error) int {
	var be *explore.BoundError
	if errors.As(err, &be) {
		prefix := ""
		if name != "" {
			prefix = name + ": "
		}
		return e.usageError(cmd, "--bound: %s%v", prefix, be)
	}
	var se *source.Error
	if errors.As(err, &se) && se.Code == source.ErrInternal {
		fmt.Fprintf(e.stderr, "ladder: internal error: %s: %v\n", name, err)
		fmt.Fprintln(e.stderr, "(please report the bug)")
		return exitInternal
	}
	if name != "" {
		e.errorf(cmd, "%s: %v", name, err)
	} else {
		e.errorf(cmd, "%v", err)
	}
	return exitFailure
}
