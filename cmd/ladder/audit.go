// This file implements `ladder audit`: re-check proved obligations with the
// z3 command line and cvc5 (package audit).

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"ladder/internal/audit"
	"ladder/internal/kernel"
	"ladder/internal/report"
)

func init() {
	register(&command{
		name:  "audit",
		args:  "[PATHS] [--solvers z3,cvc5] [--solver-timeout D] [--fresh] [--dumps DIR] [-j N] [--only PATTERN] [--json]",
		short: "re-check proved obligations with the z3 command line and cvc5",
		long: `Audit proves the YAML files and directories given as prove does
(reusing the cache), writes every proved obligation as the standalone
SMT-LIB2 file the kernel checked, and runs each through the z3 command line
and cvc5, on -j workers. It prints one line per obligation on which a
solver did not answer unsat, and a summary per solver: how many agree
(unsat), disagree (sat) or neither (unknown, timeout, error).

With --dumps DIR it audits the .smt2 files of DIR instead (as written by
prove --dump-smt), each expected unsat.

With --fresh it audits only the obligations the run re-checked, not those
whose verdict it reused from the cache: the audit of an edit.

Both solvers read each file unchanged (portable SMT-LIB; docs/prove.md,
"Dumps"). An audit never changes a verdict. It exits with 0 when no solver disagrees and
none failed on a file, 1 when one disagrees or fails, and 2 on usage
errors or when a solver is not installed.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			a := &auditFlags{}
			fs.StringVar(&o.only, "only", "", "audit only the obligations whose ID or group matches the regular expression `PATTERN`")
			fs.StringVar(&a.solvers, "solvers", "z3,cvc5", "the solvers to run, comma-separated (z3, cvc5)")
			fs.DurationVar(&a.timeout, "solver-timeout", 20*time.Second, "the wall-clock limit of one solver run")
			fs.StringVar(&a.dumps, "dumps", "", "audit the .smt2 files of `DIR` instead of proving")
			fs.BoolVar(&a.json, "json", false, "print the audit as JSON on stdout")
			fs.BoolVar(&a.fresh, "fresh", false, "audit only the obligations the run re-checked, not those reused from the cache")
			return func(e *env, paths []string) int {
				return runAudit(e, paths, o, a)
			}
		},
	})
}

type auditFlags struct {
	solvers string
	timeout time.Duration
	dumps   string
	json    bool
	fresh   bool
}

// auditLine is the audit of one obligation.
type auditLine struct {
	ID      string         `json:"id"`
	Verdict audit.Verdict  `json:"verdict"`
	Results []audit.Result `json:"results"`
	file    string
}

// auditSummary counts the answers of one solver.
type auditSummary struct {
	Solver  string         `json:"solver"`
	Answers map[string]int `json:"answers"`
	Seconds float64        `json:"seconds"`
}

func runAudit(e *env, paths []string, o *proveFlags, a *auditFlags) int {
	solvers, err := a.solverList()
	if err != nil {
		return e.usageError("audit", "%v", err)
	}
	lines, cleanup, code := auditTargets(e, paths, o, a)
	defer cleanup()
	if lines == nil {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	runAuditJobs(ctx, lines, solvers, audit.Config{Timeout: a.timeout}, o.jobs)
	if ctx.Err() != nil {
		e.errorf("audit", "interrupted")
		return exitFailure
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].ID < lines[j].ID })
	sums, failed := summarize(lines)
	if a.json {
		out := struct {
			Obligations []*auditLine    `json:"obligations"`
			Solvers     []*auditSummary `json:"solvers"`
		}{lines, sums}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			e.errorf("audit", "%v", err)
			return exitFailure
		}
	} else {
		writeAudit(e.stdout, lines, sums)
	}
	if failed > 0 {
		return exitFailure
	}
	return exitOK
}

// solverList checks --solvers and --solver-timeout and returns the
// solvers, each installed.
func (a *auditFlags) solverList() ([]audit.Solver, error) {
	if a.timeout <= 0 {
		return nil, errors.New("--solver-timeout must be positive")
	}
	var solvers []audit.Solver
	for _, name := range strings.Split(a.solvers, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(audit.Supported, name) {
			return nil, fmt.Errorf("--solvers: unknown solver %q (known: %s)", name, strings.Join(audit.Supported, ", "))
		}
		s := audit.Solver{Name: name}
		if err := s.Available(); err != nil {
			return nil, err
		}
		solvers = append(solvers, s)
	}
	if len(solvers) == 0 {
		return nil, errors.New("--solvers names no solver")
	}
	return solvers, nil
}

// auditTargets returns the obligations to audit, each with its dump: the
// files of --dumps, or the proved obligations of a prove run that dumps
// them into a temporary directory (removed by cleanup). On failure it
// returns nil lines and the exit code, after printing why.
func auditTargets(e *env, paths []string, o *proveFlags, a *auditFlags) (lines []*auditLine, cleanup func(), code int) {
	cleanup = func() {}
	if a.dumps != "" {
		if len(paths) > 0 || a.fresh {
			return nil, cleanup, e.usageError("audit", "--dumps takes no paths and no --fresh")
		}
		files, err := filepath.Glob(filepath.Join(a.dumps, "*.smt2"))
		if err != nil || len(files) == 0 {
			return nil, cleanup, e.usageError("audit", "--dumps %s: no .smt2 files", a.dumps)
		}
		for _, f := range files {
			lines = append(lines, &auditLine{file: f})
		}
		return lines, cleanup, exitOK
	}
	dir, err := os.MkdirTemp("", "ladder-audit-")
	if err != nil {
		return nil, cleanup, e.usageError("audit", "%v", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	o.dumpSMT = dir
	rep, code := runProve(e, "audit", paths, o, false, nil)
	if rep == nil {
		return nil, cleanup, code
	}
	lines = []*auditLine{}
	for _, ob := range rep.Obligations {
		if ob.Verdict == report.Proved && !(a.fresh && ob.Cached) {
			lines = append(lines, &auditLine{ID: ob.ID, file: filepath.Join(dir, kernel.DumpName(ob.ID))})
		}
	}
	return lines, cleanup, exitOK
}

// runAuditJobs runs every solver on every line's dump, on jobs workers
// (2 when jobs is 0), until ctx is done.
func runAuditJobs(ctx context.Context, lines []*auditLine, solvers []audit.Solver, cfg audit.Config, jobs int) {
	if jobs <= 0 {
		jobs = 2
	}
	work := make(chan *auditLine)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range work {
				id, text, err := audit.ReadDump(l.file)
				if err != nil {
					l.ID = l.file
					l.Results = []audit.Result{{Solver: "-", Answer: audit.Error, Detail: err.Error()}}
					l.Verdict = audit.Sum(l.Results)
					continue
				}
				if l.ID == "" {
					l.ID = id
				}
				for _, s := range solvers {
					if ctx.Err() != nil {
						break
					}
					l.Results = append(l.Results, audit.Check(ctx, cfg, s, text))
				}
				l.Verdict = audit.Sum(l.Results)
			}
		}()
	}
	for _, l := range lines {
		if ctx.Err() != nil {
			break
		}
		work <- l
	}
	close(work)
	wg.Wait()
}

// summarize counts each solver's answers, in the order the solvers first
// answer, and the runs that disagree or fail.
func summarize(lines []*auditLine) (sums []*auditSummary, failed int) {
	by := map[string]*auditSummary{}
	for _, l := range lines {
		for _, r := range l.Results {
			s := by[r.Solver]
			if s == nil {
				s = &auditSummary{Solver: r.Solver, Answers: map[string]int{}}
				by[r.Solver] = s
				sums = append(sums, s)
			}
			s.Answers[string(r.Answer)]++
			s.Seconds += r.Seconds
			if r.Answer == audit.Sat || r.Answer == audit.Error {
				failed++
			}
		}
	}
	return sums, failed
}

// writeAudit prints the obligations on which a solver did not answer
// unsat, then the summary.
func writeAudit(w io.Writer, lines []*auditLine, sums []*auditSummary) {
	for _, l := range lines {
		if l.Verdict == audit.Agree {
			continue
		}
		var parts []string
		for _, r := range l.Results {
			p := fmt.Sprintf("%s %s %.2fs", r.Solver, r.Answer, r.Seconds)
			if r.Detail != "" {
				p += " (" + r.Detail + ")"
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(w, "  %-10s %s: %s\n", l.Verdict, l.ID, strings.Join(parts, "; "))
	}
	fmt.Fprintf(w, "%d %s audited\n", len(lines), plural(len(lines), "obligation", "obligations"))
	for _, s := range sums {
		fmt.Fprintf(w, "  %-5s %d unsat (agree), %d sat (disagree), %d unknown, %d timeout, %d error; %.1f s\n",
			s.Solver, s.Answers["unsat"], s.Answers["sat"], s.Answers["unknown"], s.Answers["timeout"], s.Answers["error"], s.Seconds)
	}
}
