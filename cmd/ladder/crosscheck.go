// This file implements `ladder crosscheck`: bounded cross-checks of proof
// edges and of trace inclusion on a finite instance, before asking Z3.

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"ladder/internal/crosscheck"
	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/load"
)

func init() {
	register(&command{
		name: "crosscheck",
		args: "PROOF [PATHS] [--bound T=2,L=1,V=2] [--symmetry T,L] [--reduce-dead] [--max-states N] [--max-depth N] [--abstract auto|all|reachable|witness] [--json]\n" +
			"       ladder crosscheck --implements ABSTRACT FILE [PATHS] [--automaton NAME] [--bound …] [--symmetry T,L] [--reduce-dead] [--max-states N] [--max-depth N] [--json]",
		short: "check proof edges and trace inclusion on a finite instance",
		long: `Crosscheck checks, on the finite instance given by --bound, what Z3 would
prove in general, and reports a failure as a shortest concrete execution.

With a PROOF file (or a directory of them), it explores the reachable
states of the instance and checks every obligation of each edge with the
evaluator at every reachable state and step: the case selected, the
abstract steps' preconditions, the post-state or relation, the event, the
start and totality conditions, and the invariants the edge assumes. PATHS
hold the automata the proofs name; without PATHS the specs/ and algorithms/
directories of the current directory are read, those that exist.

With --implements ABSTRACT (an automaton name or file), it checks that every
trace of the automaton of FILE (--automaton picks one) is a trace of
ABSTRACT in the same instance, by a subset construction over ABSTRACT's
states, and prints a shortest execution whose trace ABSTRACT cannot produce.

--symmetry T,L stores one node of the search per orbit under the
permutations of the elements of the sorts given, the same permutation
applied to the concrete and the abstract state (with --implements, to the
concrete state and the set of abstract states); both automata and the
proof's expressions must treat the elements alike (else the first
expression that does not is reported, file:line:col). A failure is still
reported on a real, shortest execution. Without --symmetry, the sorts
that the interfaces of both automata declare (symmetry:) are used, or,
when they declare none, every parameter sort of both that the check
accepts; a note says why a sort is refused; --symmetry none turns that off.
--reduce-dead, on by default (--reduce-dead=false turns it off), stores
the pairs of a forward simulation with the entries
of the abstract state's per-process registers reset where they are dead
(as explore --reduce-dead does), and checks as it goes that the relation
and the step correspondence never read such an entry; a register they do
read is stored whole and the edge checked again, after a note. Other
edges are stored whole. With --implements, --reduce-dead stores the
states of both automata reduced, which keeps every trace.

It exits with 0 when every check holds, also when --max-states,
--max-depth or --max-abstract-states stopped the search (the output says
INCOMPLETE: those limits are part of the question asked); 1 on a failure,
on errors in the files, or when --max-memory, --timeout or an interrupt
stopped the search (INCOMPLETE too); and 2 on usage errors.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &crosscheckFlags{}
			o.define(fs)
			return func(e *env, args []string) int { return o.run(e, args) }
		},
	})
}

// crosscheckFlags are the flags of crosscheck.
type crosscheckFlags struct {
	bound       string
	maxStates   int
	maxDepth    int
	maxAbstract int
	abstract    string
	implements  string
	automaton   string
	workers     int
	symmetry    string
	reduceDead  defaultBool
	json        bool
	budget      budgetFlags
}

func (o *crosscheckFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&o.bound, "bound", "", "the instance: sizes of parameter sorts and values of constants, e.g. T=2,L=1,V=2")
	fs.IntVar(&o.maxStates, "max-states", 0, "stop after this many states, or pairs for forward simulations and --implements (0: no limit)")
	fs.IntVar(&o.maxDepth, "max-depth", 0, "stop at this depth (0: no limit)")
	fs.IntVar(&o.maxAbstract, "max-abstract-states", 0, "explore at most this many abstract states (0: no limit but --max-memory); a backward check's abstract mode all enumerates at most this many (0: 1048576)")
	fs.StringVar(&o.abstract, "abstract", "auto", "backward simulations: the abstract post-states tried at each step besides τ(cpost): all (every abstract state of the instance related to cpost), reachable (every reachable one), witness (none), or auto (all when there are at most --max-abstract-states, else reachable)")
	fs.StringVar(&o.implements, "implements", "", "check trace inclusion in this automaton (a name, or a file holding it)")
	fs.StringVar(&o.automaton, "automaton", "", "with --implements: the concrete automaton, when FILE holds several")
	fs.IntVar(&o.workers, "workers", -1, "goroutines computing successors (-1: one per CPU); results do not depend on it")
	fs.StringVar(&o.symmetry, "symmetry", "", "comma-separated parameter sorts whose elements both automata and the proof treat alike: store one node per orbit of their permutations")
	o.reduceDead = defaultBool{v: true}
	fs.Var(&o.reduceDead, "reduce-dead", "store states with the entries of per-process registers reset where they cannot be read before they are overwritten: the abstract states of a forward simulation's pairs, or with --implements the states of both automata (--reduce-dead=false turns it off)")
	fs.BoolVar(&o.json, "json", false, "print the result as JSON on stdout")
	o.budget.define(fs)
}

func (o *crosscheckFlags) run(e *env, args []string) int {
	const cmd = "crosscheck"
	if len(args) == 0 {
		return e.usageError(cmd, "expected a PROOF file or directory, or --implements ABSTRACT FILE")
	}
	if o.maxStates < 0 || o.maxDepth < 0 || o.maxAbstract < 0 {
		return e.usageError(cmd, "--max-states, --max-depth and --max-abstract-states must not be negative")
	}
	if o.automaton != "" && o.implements == "" {
		return e.usageError(cmd, "--automaton needs --implements")
	}
	inst, err := explore.ParseBounds(o.bound)
	if err != nil {
		return e.usageError(cmd, "--bound: %v", err)
	}
	mode, err := crosscheck.ParseAbstractMode(o.abstract)
	if err != nil {
		return e.usageError(cmd, "--abstract: %v", err)
	}
	sorts, code := symmetrySorts(e, cmd, o.symmetry)
	if code != exitOK {
		return code
	}
	cfg := crosscheck.Config{Instance: inst, MaxStates: o.maxStates, MaxDepth: o.maxDepth, Workers: e.capWorkers(cmd, o.workers),
		Abstract: mode, MaxAbstractStates: o.maxAbstract, ReduceDead: o.reduceDead.v, Symmetry: sorts}
	budget, done, code := o.budget.budget(e, cmd)
	if done == nil {
		return code
	}
	defer done()
	cfg.Budget = budget
	// without --symmetry, each check uses the symmetry the interfaces of
	// its automata declare (declaredSymmetry)
	declare := strings.TrimSpace(o.symmetry) == ""
	if o.implements != "" {
		var clear func()
		cfg.Progress, clear = e.progressLine("pairs")
		defer clear()
		return o.runImplements(e, args, cfg, declare)
	}
	var clear func()
	cfg.Progress, clear = e.progressLine("states")
	defer clear()
	paths := args
	if len(args) == 1 {
		for _, d := range []string{"specs", "algorithms"} {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() && !under(args[0], d) {
				paths = append(paths, d)
			}
		}
		// the proofs above it, whose chains its invariants assumed by
		// transfer follow (above.go); first, so that their automata are
		// loaded when the proof names their invariants
		paths = append(proofsAbove(args[:1]), paths...)
	}
	set, ok := loadFiles(e, paths)
	if !ok {
		return exitFailure
	}
	var proofs []*ioa.Proof
	for _, p := range set.Proofs {
		if under(p.File, args[0]) {
			proofs = append(proofs, p)
		}
	}
	if len(proofs) == 0 {
		e.errorf(cmd, "%s: no proof file", args[0])
		return exitUsage
	}
	code = exitOK
	var results []*crosscheck.Result
	for i, p := range proofs {
		pcfg, declared := cfg, ""
		if !o.reduceDead.set && p.Kind != ioa.ProofForward {
			// by default only where it applies: no note that it does not
			pcfg.ReduceDead = false
		}
		if declare {
			pcfg.Symmetry, declared = declaredSymmetry(p.Concrete, p.Abstract)
		}
		check := func(sorts []string) (*crosscheck.Result, error) {
			pcfg.Symmetry = sorts
			return crosscheck.Check(p, pcfg)
		}
		// neither --symmetry nor a declaration: by default, every
		// parameter sort the static check accepts
		res, err := runSymmetric(e, cmd, declare && declared == "", paramSorts(p.Concrete, p.Abstract), pcfg.Symmetry, declared, check,
			func(r *crosscheck.Result, declared string, byDefault bool) {
				if r.Symmetry != nil {
					r.Symmetry.Declared, r.Symmetry.Default = declared, byDefault
				}
			})
		if err != nil {
			if c, ok := symmetryError(e, err); ok {
				code = max(code, c)
				continue
			}
			if strings.HasPrefix(err.Error(), "--symmetry") {
				code = max(code, e.usageError(cmd, "%s: %v", p.Name, err))
				continue
			}
			code = max(code, e.searchError(cmd, p.Name, err))
			continue
		}
		results = append(results, res)
		if res.Failure != nil || res.Exhausted {
			code = exitFailure
		}
		if !o.json {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			if err := res.WriteText(e.stdout); err != nil {
				e.errorf(cmd, "%v", err)
				return exitFailure
			}
		}
	}
	if o.json {
		if results == nil {
			results = []*crosscheck.Result{}
		}
		out := struct {
			Results []*crosscheck.Result `json:"results"`
			OK      bool                 `json:"ok"`
		}{results, code == exitOK}
		if err := writeJSON(e.stdout, out); err != nil {
			e.errorf(cmd, "%v", err)
			return exitFailure
		}
	}
	return code
}

// runImplements checks trace inclusion.
func (o *crosscheckFlags) runImplements(e *env, args []string, cfg crosscheck.Config, declare bool) int {
	const cmd = "crosscheck"
	paths := append([]string(nil), args...)
	absFile := isFileArg(o.implements)
	if absFile && !containsPath(paths, o.implements) {
		paths = append(paths, o.implements)
	}
	if !absFile {
		// A specification named by its name is found like the automata
		// proof files name: among the given files, else in the library.
		if set, errs := (load.Config{}).Files(paths...); len(errs) == 0 && set.Automaton(o.implements) == nil {
			if f := (load.Config{Library: libraryDirs()}).Find(o.implements); f != "" {
				paths = append(paths, f)
			}
		}
	}
	set, ok := loadFiles(e, paths)
	if !ok {
		return exitFailure
	}
	var a *ioa.Automaton
	if absFile {
		var in []*ioa.Automaton
		for _, x := range set.Automata {
			if under(x.File, o.implements) {
				in = append(in, x)
			}
		}
		if len(in) != 1 {
			return e.usageError(cmd, "--implements %s: the file holds %d automata, not one", o.implements, len(in))
		}
		a = in[0]
	} else if a = set.Automaton(o.implements); a == nil {
		return e.usageError(cmd, "--implements: no automaton %s is loaded", o.implements)
	}
	var c *ioa.Automaton
	if o.automaton != "" {
		if c = set.Automaton(o.automaton); c == nil {
			return e.usageError(cmd, "no automaton %s", o.automaton)
		}
	} else {
		var in []string
		for _, x := range set.Automata {
			if x != a && under(x.File, args[0]) {
				in = append(in, x.Name)
				c = x
			}
		}
		if len(in) != 1 {
			return e.usageError(cmd, "%s holds %d automata besides %s (%s): choose one with --automaton", args[0], len(in), a.Name, strings.Join(in, ", "))
		}
	}
	declared := ""
	if declare {
		cfg.Symmetry, declared = declaredSymmetry(c, a)
	}
	check := func(sorts []string) (*crosscheck.TraceResult, error) {
		cfg.Symmetry = sorts
		return crosscheck.Implements(c, a, cfg)
	}
	res, err := runSymmetric(e, cmd, declare && declared == "", paramSorts(c, a), cfg.Symmetry, declared, check,
		func(r *crosscheck.TraceResult, declared string, byDefault bool) {
			if r.Symmetry != nil {
				r.Symmetry.Declared, r.Symmetry.Default = declared, byDefault
			}
		})
	if err != nil {
		if code, ok := symmetryError(e, err); ok {
			return code
		}
		if strings.HasPrefix(err.Error(), "--symmetry") {
			return e.usageError(cmd, "%v", err)
		}
		return e.searchError(cmd, "", err)
	}
	if o.json {
		err = writeJSON(e.stdout, res)
	} else {
		err = res.WriteText(e.stdout)
	}
	if err != nil {
		e.errorf(cmd, "%v", err)
		return exitFailure
	}
	if res.Failure != nil || res.Exhausted {
		return exitFailure
	}
	return exitOK
}

// loadFiles loads paths, printing the errors.
func loadFiles(e *env, paths []string) (*load.Set, bool) {
	set, errs := load.Config{Library: libraryDirs()}.Files(paths...)
	if len(errs) > 0 {
		printErrors(e.stderr, errs, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		return nil, false
	}
	return set, true
}

// under reports whether path is dir or a path inside it.
func under(path, dir string) bool {
	p, d := filepath.Clean(path), filepath.Clean(dir)
	return p == d || strings.HasPrefix(p, d+string(filepath.Separator))
}

// isFileArg reports whether s names a file rather than an automaton.
func isFileArg(s string) bool {
	if strings.HasSuffix(s, ".yaml") || strings.HasSuffix(s, ".yml") || strings.ContainsRune(s, filepath.Separator) {
		return true
	}
	fi, err := os.Stat(s)
	return err == nil && !fi.IsDir()
}

func containsPath(paths []string, p string) bool {
	for _, x := range paths {
		if under(p, x) {
			return true
		}
	}
	return false
}

// defaultBool is a boolean flag with a default that records whether the
// command line set it.
type defaultBool struct{ v, set bool }

func (b *defaultBool) String() string { return strconv.FormatBool(b.v) }

func (b *defaultBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	b.v, b.set = v, true
	return nil
}

// IsBoolFlag lets --flag stand for --flag=true.
func (b *defaultBool) IsBoolFlag() bool { return true }
