// This file implements `ladder prove`: prove invariants and edges obligation
// by obligation with Z3, reusing cached verdicts.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"ladder/internal/driver"
	"ladder/internal/kernel"
	"ladder/internal/remote"
	"ladder/internal/report"
	"ladder/internal/safeio"
	"ladder/internal/sign"
	"ladder/internal/source"
)

func init() {
	register(&command{
		name:  "prove",
		args:  "[PATHS] [--json] [--html DIR] [-j N] [--no-cache] [--dump-smt DIR] [--rlimit N] [--slice-rlimit N] [--no-slices] [--no-cores] [--timeout D] [--only PATTERN] [--minimize]",
		short: "prove invariants and edges with Z3, reusing cached results",
		long: `Prove loads the YAML files and directories given (by default specs/,
algorithms/ and proofs/, those that exist), turns every invariant and every
proof edge into obligations, and checks each with Z3, on -j workers. A
verdict is reused from the cache (.ladder/ at the repository root) only when
the obligation's text and the solver configuration are unchanged.

It prints one line per obligation (verdict, time, "(cached)" when reused),
grouped by invariant and edge, then the counterexamples of refuted
obligations, the reasons of unknown ones, the theorems derived from what was
proved, and a summary. --json prints the same as JSON (docs/prove.md).

With --minimize (and --only) it proves nothing: for each selected
obligation it finds which of the invariants it assumes its proof needs, by
dropping them one at a time while the kernel still proves the rest, and
prints the strategy entry that assumes only those, to paste into the proof.

It exits with 0 when every selected obligation is proved, 1 when one is
refuted or unknown, when an expected theorem is not derived, or when
--only selects nothing, and 2 on input or usage errors.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			o := &proveFlags{}
			o.define(fs)
			jsonOut := fs.Bool("json", false, "print the report as JSON on stdout")
			fs.StringVar(&o.dumpSMT, "dump-smt", "", "write every selected obligation as a standalone .smt2 file into `DIR`")
			fs.StringVar(&o.only, "only", "", "check only the obligations whose ID or group matches the regular expression `PATTERN`")
			fs.StringVar(&o.html, "html", "", "also write the report as an HTML page into `DIR` (DIR/index.html)")
			fs.BoolVar(&o.minimize, "minimize", false, "for each obligation --only selects, find the invariants its proof needs and print the strategy that assumes only those (docs/prove.md)")
			o.defineRemote(fs)
			return func(e *env, paths []string) int {
				return prove(e, paths, o, *jsonOut)
			}
		},
	})
}

// proveFlags are the flags prove, graph and watch share.
type proveFlags struct {
	jobs     int
	noCache  bool
	cacheDir string
	rlimit   uint64
	slice    uint64
	noSlices bool
	noCores  bool
	timeout  time.Duration
	dumpSMT  string
	only     string
	html     string // prove only: the directory of the HTML report
	minimize bool   // prove only: Prover.Minimize instead of proving

	remoteCache    string // prove and watch: the remote cache's URL
	remoteReadOnly bool
}

func (o *proveFlags) define(fs *flag.FlagSet) {
	fs.IntVar(&o.jobs, "j", 0, "the number of workers, each with its own Z3 context (default: the number of CPUs)")
	fs.BoolVar(&o.noCache, "no-cache", false, "ignore the cache: neither read nor write it")
	fs.StringVar(&o.cacheDir, "cache-dir", "", "the cache directory (default: .ladder at the repository root)")
	fs.Uint64Var(&o.rlimit, "rlimit", kernel.DefaultRLimit, "Z3's deterministic resource limit per obligation")
	fs.Uint64Var(&o.slice, "slice-rlimit", 0, "the resource limit of the check of each slice of an obligation (the hypotheses that share a state variable with the goal), in `N` units; 0: the default (docs/prove.md)")
	fs.BoolVar(&o.noSlices, "no-slices", false, "check every obligation as a whole, never by its slices (docs/prove.md)")
	fs.BoolVar(&o.noCores, "no-cores", false, "do not record unsat cores of proofs, nor look for those of obligations re-checked after an edit (docs/prove.md)")
	fs.DurationVar(&o.timeout, "timeout", kernel.DefaultTimeout, "the wall-clock limit per obligation, a safety net")
}

// defineRemote defines the remote cache flags of prove and watch.
func (o *proveFlags) defineRemote(fs *flag.FlagSet) {
	fs.StringVar(&o.remoteCache, "remote-cache", "", "share unit records through the remote cache at `URL` (Bazel's HTTP remote-cache protocol; default: $LADDER_REMOTE_CACHE; docs/team.md)")
	fs.BoolVar(&o.remoteReadOnly, "remote-cache-read-only", false, "read the remote cache, never write it")
}

// config turns the flags into a driver configuration.
func (o *proveFlags) config(e *env) (driver.Config, error) {
	if o.jobs < 0 {
		return driver.Config{}, errors.New("-j must not be negative")
	}
	if most := 4 * runtime.NumCPU(); o.jobs > most {
		// every worker holds a Z3 context: more than a few per CPU only
		// costs memory
		fmt.Fprintf(e.stderr, "ladder prove: -j %d is more than 4 workers per CPU (%d CPUs); using %d\n", o.jobs, runtime.NumCPU(), most)
		o.jobs = most
	}
	if o.rlimit == 0 {
		return driver.Config{}, errors.New("--rlimit must be positive")
	}
	if o.timeout <= 0 {
		return driver.Config{}, errors.New("--timeout must be positive")
	}
	cacheDir := o.cacheDir
	if cacheDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return driver.Config{}, err
		}
		cacheDir = filepath.Join(driver.FindRoot(wd), driver.DefaultCacheDir)
		if rel, err := filepath.Rel(wd, cacheDir); err == nil {
			cacheDir = rel // shorter paths in messages: ".ladder/unknown/…"
		}
	}
	var cfgSigner *sign.Signer
	var verifier *sign.Verifier
	if !o.noCache {
		// Every verdict record is signed with the user's key and only
		// records signed by a trusted key are believed (docs/team.md).
		signer, err := sign.OpenSigner(sign.Config{Getenv: e.getenv})
		if err != nil {
			return driver.Config{}, fmt.Errorf("signing key: %v", err)
		}
		wd, err := os.Getwd()
		if err != nil {
			return driver.Config{}, err
		}
		if verifier, err = sign.LoadVerifier(signer, filepath.Join(driver.FindRoot(wd), sign.KeysFileName)); err != nil {
			return driver.Config{}, err
		}
		if signer.Created() {
			fmt.Fprintf(e.stderr, "ladder: created your signing key %s; its public line (for %s):\n  %s\n", signer.Path(), sign.KeysFileName, signer.PublicKeyLine())
		}
		cfgSigner = signer
	}
	var rc *remote.Client
	url := o.remoteCache
	if url == "" {
		url = e.getenv("LADDER_REMOTE_CACHE")
	}
	if url == "" && !o.noCache {
		wd, err := os.Getwd()
		if err != nil {
			return driver.Config{}, err
		}
		if url, err = repositoryRemote(filepath.Join(driver.FindRoot(wd), remoteFileName)); err != nil {
			return driver.Config{}, err
		}
	}
	if url != "" && !o.noCache {
		warn := func(msg string) { fmt.Fprintf(e.stderr, "ladder: warning: remote cache: %s\n", msg) }
		var err error
		if rc, err = remote.New(remote.Config{URL: url, ReadOnly: o.remoteReadOnly, Warn: warn}); err != nil {
			return driver.Config{}, fmt.Errorf("--remote-cache: %v", err)
		}
	}
	return driver.Config{
		Remote:   rc,
		Signer:   cfgSigner,
		Verifier: verifier,
		Kernel:   kernel.Config{RLimit: o.rlimit, SliceRLimit: o.slice, NoSlices: o.noSlices, Timeout: o.timeout},
		Jobs:     o.jobs,
		CacheDir: cacheDir,
		NoCache:  o.noCache,
		NoCores:  o.noCores,
		DumpSMT:  o.dumpSMT,
		Only:     o.only,
		Warn:     func(msg string) { fmt.Fprintf(e.stderr, "ladder: warning: %s\n", msg) },
		Trace:    e.trace(),
	}, nil
}

// trace returns the writer of phase timings: standard error when
// LADDER_TRACE is set (a debugging aid, like LADDER_CPUPROFILE), else nil.
func (e *env) trace() io.Writer {
	if e.getenv("LADDER_TRACE") == "" {
		return nil
	}
	return e.stderr
}

// defaultPaths returns paths, or the default directories that exist.
func defaultPaths(paths []string) []string {
	if len(paths) > 0 {
		return paths
	}
	for _, d := range defaultDirs {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			paths = append(paths, d)
		}
	}
	return paths
}

// stdoutIsTerminal reports whether the command's stdout is a terminal.
func (e *env) stdoutIsTerminal() bool {
	f, ok := e.stdout.(*os.File)
	return ok && driver.IsTerminal(f)
}

// runRecording is what a prove run needs for its run record
// (driver.ReplayRun, driver.Prover.RecordRun): filled by openAndPlan.
type runRecording struct {
	key      driver.RunKey
	inputs   *driver.Inputs
	replayed *report.Prove // the recorded report, when it was replayed whole
	// partial is the record's replay when the run loaded only the files of
	// its stale parts (driver.Replay.Stale); full makes the run load every
	// file, after a partial run that could not be completed.
	partial *driver.Replay
	full    bool
	start   time.Time // of the command, when a full run follows a partial one
}

// openAndPlan loads the files of paths, opens the prover and plans the
// obligations (restoring unchanged units from their records): the prover
// and its input, or nil and the exit code after printing what went wrong.
// With rr, a run whose run record holds is replayed instead: rr.replayed
// is set, and the prover and input are nil with exitOK; and a run whose
// record holds but for some parts loads and plans only their files when
// that load fits beside the others (driver.Replay.Fits), and sets
// rr.partial.
func openAndPlan(e *env, name string, paths []string, o *proveFlags, progress bool, rr *runRecording) (*driver.Prover, *driver.Input, int) {
	cfg, err := o.config(e)
	if err != nil {
		return nil, nil, e.usageError(name, "%v", err)
	}
	if paths = defaultPaths(paths); len(paths) == 0 {
		return nil, nil, e.usageError(name, "no paths given, and none of specs/, algorithms/, proofs/ exists here")
	}
	if progress && e.stdoutIsTerminal() {
		cfg.Progress = e.stdout
	}
	library := libraryDirs()
	// A proof file of proofs/ given alone is proved with the proofs above
	// it, for the end-to-end theorems (above.go).
	if above := proofsAbove(paths); len(above) > 0 {
		// first, so that their automata are loaded when the given
		// proof names their invariants (X.P)
		paths = append(above, paths...)
		if rr == nil || !rr.full {
			fmt.Fprintf(e.stderr, "ladder %s: with the %d proof %s above it in proofs/, for the theorems of the chain\n", name, len(above), plural(len(above), "file", "files"))
		}
	}
	if rr != nil {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil, e.usageError(name, "%v", err)
		}
		rr.key = driver.RunKey{Dir: wd, Paths: paths, Library: library}
	}
	if rr != nil && !rr.full {
		t := time.Now()
		r := driver.ReplayRun(cfg, rr.key)
		driver.TracePhase(e.trace(), "replay", t)
		if r == nil {
			// no record, or one that does not hold: in full
		} else if rep, ok := r.Report(); ok {
			rr.replayed = rep
			return nil, nil, exitOK
		} else {
			// Only the parts whose files changed: when their load is
			// clean and fits beside the others, nothing else is loaded.
			inputs := &driver.Inputs{}
			p, in, errs, err := loadAndPlan(e, cfg, inputs, library, r.Stale(), "load parts")
			if err == nil && len(errs) == 0 && r.Fits(in, inputs.Reads()) {
				rr.inputs, rr.partial = inputs, r
				return p, in, exitOK
			}
			if p != nil {
				p.Close()
			}
		}
	}
	inputs := &driver.Inputs{}
	if rr != nil {
		rr.inputs = inputs
	}
	p, in, errs, err := loadAndPlan(e, cfg, inputs, library, paths, "load")
	if len(errs) > 0 {
		if p != nil {
			p.Close()
		}
		printErrors(e.stderr, errs, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(errs), plural(len(errs), "error", "errors"))
		return nil, nil, exitUsage
	}
	if err != nil {
		return nil, nil, e.usageError(name, "%v", err)
	}
	return p, in, exitOK
}

// loadAndPlan loads the files of paths, recording its reads in inputs,
// while it opens the prover, then plans the obligations: the prover and
// its input, or the errors of the load or the plan (with the prover, to
// close), or the error opening the prover. phase names the load in
// LADDER_TRACE's timings.
func loadAndPlan(e *env, cfg driver.Config, inputs *driver.Inputs, library, paths []string, phase string) (*driver.Prover, *driver.Input, source.ErrorList, error) {
	lc := inputs.LoadConfig()
	lc.Library = library
	// The cache is opened while the files load: both take a while, and
	// neither needs the other.
	type opened struct {
		p   *driver.Prover
		err error
	}
	proverc := make(chan opened, 1)
	go func() {
		p, err := driver.NewProver(cfg)
		proverc <- opened{p, err}
	}()
	t := time.Now()
	set, errs := lc.Files(paths...)
	t = driver.TracePhase(e.trace(), phase, t)
	op := <-proverc
	driver.TracePhase(e.trace(), "open", t)
	if len(errs) > 0 {
		return op.p, nil, errs, nil
	}
	if op.err != nil {
		return nil, nil, nil, op.err
	}
	// Units unchanged since their records were written are restored from
	// them; the others are planned (driver/units.go).
	in, errs := op.p.Plan(set, inputs.Sums())
	return op.p, in, errs, nil
}

// runProve is prove without the printing of the report, for prove and
// audit (named name in messages): it returns the report, or nil and the
// exit code after printing what went wrong. With rr, the run is replayed
// from its run record when that holds, loads only the parts of it that
// changed when that is enough, and its report is recorded (docs/prove.md,
// "Run records").
func runProve(e *env, name string, paths []string, o *proveFlags, progress bool, rr *runRecording) (*report.Prove, int) {
	start := time.Now()
	if rr != nil && !rr.start.IsZero() {
		start = rr.start
	}
	p, in, code := openAndPlan(e, name, paths, o, progress, rr)
	if rr != nil && rr.replayed != nil {
		rr.replayed.Summary.Seconds = time.Since(start).Seconds()
		return rr.replayed, exitOK
	}
	if p == nil {
		return nil, code
	}
	// SIGINT or SIGTERM stops the run; the verdicts decided so far
	// are saved in the cache before ladder exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	rep, err := p.Prove(ctx, in)
	stop()
	if rr != nil && rr.partial != nil && err != nil && ctx.Err() == nil {
		// What went wrong is reported by the run over every file, as a
		// run without a record would report it.
		p.Close()
		return runProve(e, name, paths, o, progress, &runRecording{full: true, start: start})
	}
	if n := p.RemoteHits(); n > 0 {
		fmt.Fprintf(e.stderr, "ladder %s: %d unit %s taken from the remote cache, %s checked\n", name, n, plural(n, "record", "records"), plural(n, "its signature", "their signatures"))
	}
	var gerr *driver.GenerationError
	if errors.As(err, &gerr) {
		p.Close()
		printErrors(e.stderr, gerr.Errors, false)
		fmt.Fprintf(e.stderr, "%d %s\n", len(gerr.Errors), plural(len(gerr.Errors), "error", "errors"))
		return nil, exitUsage
	}
	if cerr := p.Close(); cerr != nil {
		fmt.Fprintf(e.stderr, "ladder: warning: %v\n", cerr)
	}
	if err != nil {
		e.errorf(name, "%v", err)
		if errors.Is(err, driver.ErrNoObligations) || errors.Is(err, driver.ErrInterrupted) {
			return nil, exitFailure
		}
		return nil, exitInternal
	}
	if rr != nil {
		t := time.Now()
		part := rep
		if rr.partial != nil {
			var ok bool
			if rep, ok = rr.partial.Merge(part); !ok {
				return runProve(e, name, paths, o, progress, &runRecording{full: true, start: start})
			}
		}
		p.RecordRun(rr.key, rr.inputs.Reads(), in, part, rr.partial)
		driver.TracePhase(e.trace(), "run record", t)
	}
	// The summary's time is the whole command's: loading, generating,
	// checking, saving the cache, the unit records and the run record;
	// only printing comes after.
	rep.Summary.Seconds = time.Since(start).Seconds()
	return rep, exitOK
}

func prove(e *env, paths []string, o *proveFlags, jsonOut bool) int {
	if o.minimize {
		return minimizeCmd(e, paths, o)
	}
	rep, code := runProve(e, "prove", paths, o, !jsonOut, &runRecording{})
	if rep == nil {
		return code
	}
	var err error
	t := time.Now()
	if jsonOut {
		err = rep.WriteJSON(e.stdout)
	} else {
		err = rep.WriteText(e.stdout, report.TextOptions{})
	}
	driver.TracePhase(e.trace(), "print", t)
	if err == nil && o.html != "" {
		_, err = writeHTMLReport(rep, o.html)
	}
	if err != nil {
		e.errorf("prove", "%v", err)
		return exitFailure
	}
	if !rep.OK() {
		return exitFailure
	}
	return exitOK
}

// remoteFileName is the repository file that names the team's remote
// cache: its first line that is neither blank nor a comment (#) is the URL.
const remoteFileName = "ladder-remote.txt"

// repositoryRemote returns the URL the repository file path names, "" when
// there is no such file.
func repositoryRemote(path string) (string, error) {
	data, err := safeio.ReadFile(path, 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return "", fmt.Errorf("%s:%d:1: want one URL on the line, found %q", path, i+1, line)
		}
		return line, nil
	}
	return "", nil
}

// minimizeCmd is prove --minimize: Prover.Minimize for the obligations
// --only selects, printed as strategy entries. It reads no cache (every
// obligation is built afresh) and writes none.
func minimizeCmd(e *env, paths []string, o *proveFlags) int {
	if o.only == "" {
		return e.usageError("prove", "--minimize needs --only PATTERN: it checks each selected obligation many times")
	}
	o.noCache = true
	p, in, code := openAndPlan(e, "prove", paths, o, false, nil)
	if p == nil {
		return code
	}
	defer p.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	found, err := p.Minimize(ctx, in)
	if err != nil {
		e.errorf("prove", "%v", err)
		if errors.Is(err, driver.ErrNoObligations) {
			return exitFailure
		}
		return exitInternal
	}
	code = exitOK
	for _, m := range found {
		fmt.Fprintf(e.stdout, "%s\n", m.ID)
		if m.Err != "" {
			fmt.Fprintf(e.stdout, "  nothing found: %s\n\n", m.Err)
			code = exitFailure
			continue
		}
		n := len(m.Keep) + len(m.Dropped)
		fmt.Fprintf(e.stdout, "  proved with %d of the %d invariants it assumes (%d units; %d with all of them)\n", len(m.Keep), n, m.After, m.Before)
		fmt.Fprintf(e.stdout, "  in %s:\n", m.Where)
		for _, line := range strings.Split(m.Strategy, "\n") {
			fmt.Fprintf(e.stdout, "    %s\n", line)
		}
		fmt.Fprintln(e.stdout)
	}
	return code
}
