// This file implements the prover pipeline: selection, cache lookup and
// admission, the worker pool, the kernel, statuses, theorems and the report.

package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/remote"
	"ladder/internal/report"
	"ladder/internal/sign"
	"ladder/internal/theorems"
	"ladder/ioa"
	"ladder/simulation"
)

// DefaultCacheDir is the name of the cache directory at the repository root.
const DefaultCacheDir = ".ladder"

// ErrNoObligations is returned when the input, or the --only selection,
// yields no obligation at all: proving nothing is not a success.
var ErrNoObligations = errors.New("no obligations to prove")

// ErrInterrupted is returned (wrapped, with the counts) when the context of
// Prove is done before every obligation was decided. The verdicts decided
// before are in the cache, which is saved.
var ErrInterrupted = errors.New("interrupted")

// Config configures a Prover. The zero value proves everything with the
// default limits, one worker per CPU, and the cache in .ladder/.
type Config struct {
	// Kernel holds the solver limits; all of it is part of the cache key.
	Kernel kernel.Config
	// Jobs is the number of workers, each checking in its own Z3 context; 0
	// means runtime.NumCPU().
	Jobs int
	// CacheDir is the cache directory; "" means DefaultCacheDir.
	CacheDir string
	// NoCache ignores the cache: nothing is read or written.
	NoCache bool
	// NoCores turns off unsat cores (docs/prove.md, "Slices"): neither
	// those that come with the kernel's tracked checks
	// (kernel.Result.Used) are recorded, nor are those of re-checked
	// obligations looked for (kernel.Session.Core); so does
	// Kernel.NoSlices.
	NoCores bool
	// NoCoreSearch keeps the cores that come with the kernel's checks but
	// does not look for those of re-checked obligations, for callers whose
	// every run changes what most obligations assume (ladder infer).
	NoCoreSearch bool
	// DeferCoreSearch leaves the core searches of a run (those
	// NoCoreSearch turns off) for FindCores, so that the run ends, and
	// its verdicts are shown, first: for callers that wait for the next
	// edit between runs (ladder watch).
	DeferCoreSearch bool
	// SaveOnClose saves the cache when the Prover closes instead of after
	// every Prove: for callers that prove many small inputs in a row
	// (ladder infer), where saving the whole snapshot after each costs
	// more than the solver.
	SaveOnClose bool
	// UnknownDir is where the queries of unknown obligations are dumped;
	// "" means CacheDir/unknown.
	UnknownDir string
	// DumpSMT, when set, is a directory where every selected obligation is
	// written as a standalone .smt2 file (see kernel.Query.Script).
	DumpSMT string
	// Only is a regular expression selecting obligations by ID or group;
	// "" selects everything.
	Only string
	// Progress, when set, receives a self-overwriting progress line
	// (give it a terminal only).
	Progress io.Writer
	// Warn receives one-line warnings, such as the cache's when it
	// discards a snapshot; nil discards them.
	Warn func(string)
	// Signer and Verifier, when Verifier is set, sign every verdict record
	// written and admit only records signed by a trusted key (signing.go);
	// a nil Signer writes records unsigned (they are then refused).
	Signer   *sign.Signer
	Verifier *sign.Verifier
	// Remote, when set with a Verifier, is a remote cache (Bazel's HTTP
	// remote-cache protocol) of unit records: a unit whose local record is
	// missing or stale is looked up there, and every unit record written
	// is also stored there unless it is read-only (units.go).
	Remote *remote.Client
	// Trace, when set, receives one line per phase of a run with its
	// wall-clock time (loading, opening the cache, planning, deciding,
	// recording, saving): a debugging aid for where a run's time goes.
	Trace io.Writer
}

// TracePhase writes to w, when it is not nil, the wall-clock time since
// start of phase (Config.Trace), and returns the current time, the start
// of the next phase.
func TracePhase(w io.Writer, phase string, start time.Time) time.Time {
	now := time.Now()
	if w != nil {
		fmt.Fprintf(w, "ladder: trace: %-10s %8.3f s\n", phase, now.Sub(start).Seconds())
	}
	return now
}

// trace is TracePhase to cfg.Trace.
func (p *Prover) trace(phase string, start time.Time) time.Time {
	return TracePhase(p.cfg.Trace, phase, start)
}

// Input is what the prover proves: the obligations and edges generated
// from the loaded files (see Load).
type Input struct {
	Interfaces  []*ioa.Interface // every interface loaded, for run records
	Automata    []*ioa.Automaton
	Proofs      []*ioa.Proof
	Obligations []*simulation.Obligation
	Edges       []*simulation.Edge
	Files       []string // every file read, for `ladder watch`
	Given       []string // the files the load was given (load.Set.Given), for run records
	// Items are the fingerprints of the dependency items, by owner, then
	// by item (ItemFingerprints). With nil Items (an input that is not a
	// set of files as loaded, such as a part of the obligations) the run
	// neither reports changes nor records fingerprints.
	Items map[string]map[string]string
	// Sums are the lowercase hex SHA-256 of the content of every file
	// the obligations were generated from, by name, as read by the load
	// (Inputs.Sums). With nil Sums every obligation is built and printed;
	// with them, generation records are used (record.go).
	Sums map[string]string

	// restored are the verdicts of the obligations restored from unit
	// records (Prover.Plan), at the index of each in Obligations (the
	// others' are nil); planned says whether a Prover planned the input.
	// They are the records' own (unitRecord.admitted), shared by the
	// runs that restore them, and never written.
	restored []*admitted
	planned  bool
	// spans are where the obligations of each unit restored, and of the
	// generated ones, are in Obligations (Prover.Plan; nil when not
	// planned).
	spans []span
	// decided are the jobs the last Prove of this input decided (Verdicts).
	decided []*job
	// used are the names of the assertions of the unsat core of each
	// obligation's proof in the last Prove, where one is known.
	used map[string][]string
}

// Verdicts returns the kernel's verdict of each obligation the last Prove
// of in decided (by ID), for callers that act on them (ladder infer): the
// report spells them for people.
func (in *Input) Verdicts() theorems.Verdicts { return verdicts(in.decided) }

// Used returns, by obligation ID, the names of the assertions (hypotheses,
// the negated goal) that the proof of each obligation the last Prove of in
// decided used, Z3's unsat core, where it is known (the kernel's tracked
// checks, or a core found after an edit, or recorded with a reused
// verdict): a hint of what a proof needs, for callers that act on it
// (ladder infer); not every proof has one.
func (in *Input) Used() map[string][]string { return in.used }

// Prover runs the pipeline. It keeps the kernel and the cache open between
// runs, which `ladder watch` relies on. It is not safe for concurrent use.
type Prover struct {
	cfg    Config
	kernel *kernel.Kernel
	cache  *cache.Cache // nil with NoCache
	solver cache.SolverID
	sel    selector

	mu       sync.Mutex // guards warnings; workers warn
	warnings []string   // since the last report

	exeOnce sync.Once
	exeHash string // of the running executable; see executableHash

	built atomic.Int64 // obligations built in the last run
	sig   signing      // signed records (signing.go)
	keys  unitKeys     // the verdicts of the unit records read (units.go)
	items itemMemo     // item fingerprints kept between runs (changes.go)
	// forgot are the edge, invariant group and theorem records this
	// prover made the cache forget (recordGroups), and did not record
	// again since, while the cache merged no other writer's (merges).
	forgot struct {
		names, theorems map[string]bool
		merges          uint64
	}
	// remoteHits counts the unit records the last run took from the
	// remote cache.
	remoteHits atomic.Int64
	// proved is set by a Prove whose results wait for Close to be saved
	// (Config.SaveOnClose).
	proved atomic.Bool
	// records holds the unit records this prover decoded, for the next
	// Plan of a long-lived prover (ladder watch's): units.go.
	records recordMemo
	// deferred holds what the last run left for FindCores
	// (Config.DeferCoreSearch), nil when nothing.
	deferred *deferredCores
	// siblings is what the checks of the running run tell of the next
	// ones' (siblings.go)
	siblings siblings
}

// RemoteHits returns the number of unit records the last run took from
// the remote cache (Config.Remote).
func (p *Prover) RemoteHits() int { return int(p.remoteHits.Load()) }

// Built returns the number of obligations whose problems the last run
// built and printed; the others were decided from their generation
// records (record.go).
func (p *Prover) Built() int { return int(p.built.Load()) }

// NewProver returns a prover for cfg. It opens the cache (unless NoCache);
// a corrupt snapshot, or one from another solver version or configuration,
// produces the cache's one-line warning through cfg.Warn and an empty
// cache.
func NewProver(cfg Config) (*Prover, error) {
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	if cfg.CacheDir == "" {
		cfg.CacheDir = DefaultCacheDir
	}
	if cfg.UnknownDir == "" {
		cfg.UnknownDir = filepath.Join(cfg.CacheDir, "unknown")
	}
	sel, err := newSelector(cfg.Only)
	if err != nil {
		return nil, err
	}
	k, err := kernel.New(cfg.Kernel, cfg.UnknownDir, refute.New())
	if err != nil {
		return nil, err
	}
	id := k.Identity()
	p := &Prover{cfg: cfg, kernel: k, sel: sel,
		solver: cache.SolverID{Name: id.Name, Version: id.Version, Params: id.Params}}
	p.sig.signer, p.sig.verifier = cfg.Signer, cfg.Verifier
	if !cfg.NoCache {
		c, warnings, err := cache.Open(cfg.CacheDir, p.solver)
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			p.warn(w.String())
		}
		p.cache = c
	}
	return p, nil
}

func (p *Prover) warn(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.warnings = append(p.warnings, msg)
	if p.cfg.Warn != nil {
		p.cfg.Warn(msg)
	}
}

// Kernel returns the prover's kernel.
func (p *Prover) Kernel() *kernel.Kernel { return p.kernel }

// Close closes the cache, saving it first with SaveOnClose (else Prove
// has already saved it; Status never writes it).
func (p *Prover) Close() error {
	if p.cfg.Remote != nil {
		p.cfg.Remote.Close()
	}
	if p.cache == nil {
		return nil
	}
	var err error
	if p.cfg.SaveOnClose && p.proved.Load() {
		err = p.cache.Save()
	}
	if cerr := p.cache.Close(); err == nil {
		err = cerr
	}
	p.cache = nil
	return err
}

// job is one selected obligation on its way through the pipeline.
type job struct {
	ob     *simulation.Obligation
	query  *kernel.Query // while it is checked; nil once released, or when Prepare failed
	key    string        // cache key; "" when not prepared
	qfp    string        // the query's kernel fingerprint
	unit   string        // the fingerprint of the inputs it is generated from; "" when unknown
	res    kernel.Result
	done   bool // res is set
	cached bool
	// bySlice: res is proved from the cached proof of a slice
	// (lookupSlice), and is recorded under key like a fresh result.
	bySlice bool
	// slice is the cached proof of the slice that proved res, when it is
	// known (proved in this run, or taken with res): recorded with res
	// in the unit record and in the cache; nil when none.
	slice *unitResult
	// core is the proof of an unsat core of the query, with its
	// assertions' names (kernel.Session.Core), recorded with res in the
	// unit record; nil when none. priorCore is the core recorded with the
	// obligation's last verdict, whose assertions are proposed as a slice
	// of the new text; first is the check that proved that text.
	core, priorCore *unitResult
	first           *kernel.Attempt
	// kob is the query's obligation when it has no prior attempt
	// (first), so that its check begins with its siblings' (siblings)
	kob       *kernel.Obligation
	coreSlice int // the number of priorCore's slice among the query's; 0: none
	// slices gives the query's slices (the obligation's, and the prior
	// core's), while it is being decided; used are the names of the
	// assertions its proof used, kept once it is (Input.Used)
	slices func() [][]int
	used   []string
	// coreCarried: core is the last verdict's, kept for a verdict the
	// cache held (keepPriorCore), not known to be this proof's
	coreCarried bool
	// restored: decided from its unit record (units.go), which stays as
	// it is
	restored bool
	idx      int     // the obligation's index in Input.Obligations
	secs     float64 // preparing, looking up and checking; not waiting
	coreZ3   float64 // the time in Z3 of looking for core (res.Z3Seconds has the check's)
	// deferCore: its core is to be looked for after the run (FindCores),
	// and its query is kept until then
	deferCore bool
	err       error // an I/O error that stops the run
	encErr    error // the obligation's problem could not be built (*source.Error)
}

// Prove checks the selected obligations of in and returns the report, in a
// deterministic order. Cached verdicts are reused only when the cache key
// of the freshly printed obligation matches and the kernel admits the
// record; everything else goes to the kernel on the worker pool. The
// error is for misuse and I/O (ErrNoObligations, duplicate IDs, a failing
// solver context); refutations and unknowns are in the report.
func (p *Prover) Prove(ctx context.Context, in *Input) (*report.Prove, error) {
	return p.run(ctx, in, true, nil)
}

// ProveStaged is Prove that first calls cached with the report Status would
// give (the verdicts the cache holds for the obligations' current texts,
// the others not checked), once every obligation is printed and looked up
// and before any is checked; an editor shows those at once. Unlike Status
// followed by Prove, it prints each obligation once; the problems of the
// obligations to check are held until they are checked.
func (p *Prover) ProveStaged(ctx context.Context, in *Input, cached func(*report.Prove)) (*report.Prove, error) {
	return p.run(ctx, in, true, cached)
}

// Status is Prove without the solver: the report holds only the
// obligations whose verdict the cache has for their current text, the
// others count as not checked, and the cache is not written. `ladder graph`
// uses it.
func (p *Prover) Status(ctx context.Context, in *Input) (*report.Prove, error) {
	return p.run(ctx, in, false, nil)
}

func (p *Prover) run(ctx context.Context, in *Input, solve bool, cached func(*report.Prove)) (*report.Prove, error) {
	start := time.Now()
	p.dropDeferred()
	p.built.Store(0)
	p.siblings.reset()
	if !in.planned {
		p.keys.reset(false) // not planned: the unit records are read at the first lookup
	}
	jobs, err := p.selectJobs(in)
	if err != nil {
		return nil, err
	}
	// What an edit changed, read before this run's records replace the
	// index's.
	var ed *itemEdit
	if solve && in.Items != nil {
		ed = p.compareItems(in)
	}
	t := p.trace("select", start)

	// First the obligations whose generation record vouches for their
	// text (generated by this ladder from files with the same content)
	// take their verdict from the cache without being built (record.go).
	// Then the workers build, print and look up the others, the ones
	// depending on a changed item first, and check those the cache does
	// not hold, each worker with one kernel session; an obligation's
	// problem is dropped once it is decided, so that memory holds the
	// problems being checked, not the repository's. Results are stored in
	// the jobs: completion order never shows.
	prog := newProgress(p.cfg.Progress, len(jobs))
	for _, j := range jobs {
		if !j.ob.Restored() {
			continue
		}
		var a *admitted
		if j.idx < len(in.restored) {
			a = in.restored[j.idx]
		}
		if a == nil || a.key == "" {
			return nil, fmt.Errorf("internal error: obligation %s restored without a verdict", j.ob.ID)
		}
		j.key, j.qfp, j.res, j.cached, j.done, j.restored = a.key, a.qfp, a.res, true, true, true
		prog.end()
	}
	err = p.admitAll(ctx, in, jobs, prog)
	var todo []*job
	for _, j := range jobs {
		if !j.done {
			todo = append(todo, j)
		}
	}
	t = p.trace("admit", t)
	if err == nil && ctx.Err() == nil {
		err = p.decideAll(ctx, in, jobs, todo, solve, cached, ed, prog)
	}
	prog.finish()
	t = p.trace("decide", t)
	if ctx.Err() != nil {
		return nil, p.interrupted(in, jobs, solve)
	}
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		if j.err != nil {
			return nil, j.err
		}
	}
	if gerr := generationErrors(jobs); gerr != nil {
		if solve && p.cache != nil {
			p.storeDecided(in, jobs)
		}
		return nil, gerr
	}
	var done []*job
	for _, j := range jobs {
		if j.done {
			done = append(done, j)
		}
	}
	d := derive(in, done, len(jobs) == len(in.Obligations))
	in.used = usedOf(done)
	t = p.trace("derive", t)
	// The report is assembled while the results are recorded and saved:
	// both only read the jobs, the input and the derivation.
	var rep *report.Prove
	var assembled sync.WaitGroup
	assembled.Add(1)
	go func() {
		defer assembled.Done()
		rep = p.assembleReport(in, done, d, ed, solve)
	}()
	if solve {
		t = p.store(in, done, d, len(done) == len(jobs), t)
	}
	t = p.trace("save", t)
	assembled.Wait()
	p.trace("assemble", t)
	if w := p.sig.warning(); w != "" {
		p.warn(w)
	}
	p.mu.Lock()
	rep.Warnings, p.warnings = p.warnings, nil
	p.mu.Unlock()
	rep.Summary.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// admitAll decides on the worker pool the jobs whose generation record
// vouches for their text (record.go), from the verdict the cache holds.
func (p *Prover) admitAll(ctx context.Context, in *Input, jobs []*job, prog *progress) error {
	units := p.unitFingerprints(in, jobs)
	if units == nil {
		return nil
	}
	var open []*job // not restored
	for _, j := range jobs {
		if !j.done {
			open = append(open, j)
		}
	}
	return runPool(ctx, p.cfg.Jobs, len(open),
		func() (struct{}, error) { return struct{}{}, nil },
		func(struct{}) {},
		func(_ struct{}, i int) {
			if p.admitRecorded(open[i], units) {
				prog.end()
			}
		})
}

// decideAll prints, looks up and (when solving) checks the jobs todo of
// the run over jobs on the worker pool, the ones depending on a changed
// item first (ed); with cached, it first prints and looks up all of them,
// hands cached the report of those decided, then checks the others
// (ProveStaged).
func (p *Prover) decideAll(ctx context.Context, in *Input, jobs, todo []*job, solve bool, cached func(*report.Prove), ed *itemEdit, prog *progress) error {
	var err error
	if solve && cached != nil {
		// ProveStaged: print and look up everything, report, then check
		ed.order(todo)
		err = runPool(ctx, p.cfg.Jobs, len(todo),
			func() (struct{}, error) { return struct{}{}, nil },
			func(struct{}) {},
			func(_ struct{}, i int) {
				j := todo[i]
				p.prepare(j, true)
				if j.done || j.query == nil {
					prog.end()
					j.release()
				}
			})
		if err == nil && ctx.Err() == nil {
			cached(p.statusOf(in, jobs))
			var rest []*job
			for _, j := range todo {
				if !j.done && j.query != nil {
					rest = append(rest, j)
				}
			}
			todo = rest
		}
	}
	if err == nil && ctx.Err() == nil && len(todo) > 0 {
		ed.order(todo)
		staged := solve && cached != nil
		err = runPool(ctx, p.cfg.Jobs, len(todo),
			func() (*worker, error) { return &worker{k: p.kernel}, nil },
			(*worker).close,
			func(w *worker, i int) {
				j := todo[i]
				if staged {
					p.solve(ctx, w, j, prog)
				} else {
					p.decide(ctx, w, j, solve, prog)
				}
				prog.end()
				j.release()
			})
	}
	return err
}

// statusOf is the report of the decided jobs alone, as Status gives it:
// the others count as not checked.
func (p *Prover) statusOf(in *Input, jobs []*job) *report.Prove {
	var done []*job
	for _, j := range jobs {
		if j.done {
			done = append(done, j)
		}
	}
	rep := assemble(in, done, derive(in, done, len(jobs) == len(in.Obligations)))
	rep.Summary.Built = p.Built()
	rep.Solver = report.Solver{Name: p.solver.Name, Version: p.solver.Version, Params: p.solver.Params, Workers: p.cfg.Jobs}
	return rep
}

// interrupted saves the verdicts decided before ctx was done and returns
// the ErrInterrupted that says how many there are.
func (p *Prover) interrupted(in *Input, jobs []*job, solve bool) error {
	var done []*job
	for _, j := range jobs {
		if j.done && j.err == nil {
			done = append(done, j)
		}
	}
	saved := ""
	if solve && p.cache != nil {
		cov := coverageOf(in, done, nil)
		p.record(done, cov)
		p.recordGroups(in, derive(in, done, len(jobs) == len(in.Obligations)), cov)
		if err := p.cache.Save(); err != nil {
			p.warn(err.Error())
		} else {
			saved = "; their verdicts are saved in the cache"
		}
	}
	return fmt.Errorf("%w: %d of %d obligations decided%s", ErrInterrupted, len(done), len(jobs), saved)
}

// coverage is the unit of each of a run's decided jobs (unitOf; "" for
// none), by runs of jobs of one unit, and the units a unit record holds
// now: restored, or written by the run (a unit is restored whole or not
// at all).
type coverage struct {
	runs    []covered
	covered map[string]bool // by unit
}

// covered is a run of jobs, jobs[lo:hi], of one unit, and whether a unit
// record holds it.
type covered struct {
	lo, hi int
	unit   string
	held   bool
}

// coverageOf returns the coverage of jobs, written being the units whose
// records the run wrote. When jobs are the jobs of every obligation of in
// in order, a unit restored whole is one run, without looking at its jobs.
func coverageOf(in *Input, jobs []*job, written map[string]bool) coverage {
	edgeOf := edgesByName(in)
	c := coverage{covered: map[string]bool{}}
	spans := []span{{lo: 0, hi: len(jobs)}}
	if jobsAre(jobs, in.Obligations) {
		spans = unitSpans(in.spans, in.Obligations)
	}
	for _, s := range spans {
		if u := s.unit; u != nil {
			c.runs = append(c.runs, covered{lo: s.lo, hi: s.hi, unit: u.name})
			c.covered[u.name] = true
			continue
		}
		for i := s.lo; i < s.hi; i++ {
			// A run of jobs of one invariant or edge is of one unit.
			j := jobs[i]
			if i == s.lo || j.ob.Invariant != jobs[i-1].ob.Invariant || j.ob.Edge != jobs[i-1].ob.Edge {
				u, _ := unitOf(j.ob, edgeOf)
				if n := len(c.runs); i > s.lo && c.runs[n-1].unit == u {
					c.runs[n-1].hi = i + 1
				} else {
					c.runs = append(c.runs, covered{lo: i, hi: i + 1, unit: u})
				}
			} else {
				c.runs[len(c.runs)-1].hi = i + 1
			}
			if u := c.runs[len(c.runs)-1].unit; u != "" && (j.restored || written[u]) {
				c.covered[u] = true
			}
		}
	}
	for k := range c.runs {
		c.runs[k].held = c.covered[c.runs[k].unit]
	}
	return c
}

// selectJobs returns the obligations --only selects, sorted by group then
// ID, and rejects duplicate IDs and empty selections.
func (p *Prover) selectJobs(in *Input) ([]*job, error) {
	d, sorted := duplicateID(in.Obligations, in.spans)
	if d != "" {
		return nil, fmt.Errorf("internal error: two obligations named %q", d)
	}
	all := make([]job, len(in.Obligations)) // one allocation for every job
	jobs := make([]*job, 0, len(in.Obligations))
	for i, ob := range in.Obligations {
		if p.sel.match(ob.ID, ob.Group) {
			all[i].ob, all[i].idx = ob, i
			jobs = append(jobs, &all[i])
		}
	}
	if len(jobs) == 0 {
		if p.cfg.Only != "" {
			return nil, fmt.Errorf("%w: --only %q matches none of the %d obligations", ErrNoObligations, p.cfg.Only, len(in.Obligations))
		}
		return nil, ErrNoObligations
	}
	// A planned input is in this order already (concat); the IDs are
	// unique, so the order is total.
	order := func(a, b *job) int { return byGroup(a.ob, b.ob) }
	if !sorted && !slices.IsSortedFunc(jobs, order) {
		slices.SortFunc(jobs, order)
	}
	return jobs, nil
}

// lookup returns the cached result for key, admitted by the kernel against
// the fresh query q.
func (p *Prover) lookup(q *kernel.Query, key string) (kernel.Result, bool) {
	if p.cache == nil {
		return kernel.Result{}, false
	}
	if r, ok := p.lookupUnits(q, key); ok {
		return r, true
	}
	row, ok := p.cache.Lookup(key)
	if !ok {
		return kernel.Result{}, false
	}
	rec, ok := p.sig.open(key, row.Detail)
	if !ok {
		return kernel.Result{}, false
	}
	r, err := p.kernel.Admit(q, rec)
	if err != nil {
		p.warn(fmt.Sprintf("cache: entry for %s not admitted (%v); re-checking", q.ID(), err))
		return kernel.Result{}, false
	}
	return r, true
}

// priorAttempt returns the check that proved the last text of obligation
// id whose verdict the unit records or the cache hold (kernel.PriorAttempt):
// the hint with which Check starts on its new text. The cache's generation
// record of id names that text's key.
func (p *Prover) priorAttempt(id string) *kernel.Attempt {
	if a := p.keys.priorAttempt(id); a != nil {
		return a
	}
	if p.cache == nil {
		return nil
	}
	if _, rec, ok := p.generatedRecord(id); !ok {
		return nil
	} else if a, ok := kernel.PriorAttempt(rec); ok {
		return &a
	}
	return nil
}

// record stores the new results and the dependency records of jobs in
// the cache (recordGroups stores the edge and theorem records), except
// those of the units a unit record holds (cov): the snapshot forgets what
// a unit record holds (forgetCovered), so storing them would only be
// undone, and at the price of the largest tables of a run that builds
// every obligation. A record the cache rejects costs only reuse, so it is
// a warning, not a failure of the run.
func (p *Prover) record(jobs []*job, cov coverage) {
	if p.cache == nil {
		return
	}
	var errs []string
	for _, r := range cov.runs {
		if !r.held {
			errs = append(errs, p.recordRun(jobs[r.lo:r.hi])...)
		}
	}
	if len(errs) > 0 {
		p.warn(fmt.Sprintf("%d cache records not stored: %s", len(errs), strings.Join(errs, "; ")))
	}
}

// recordRun stores the new results and dependency records of jobs, of a
// unit no unit record holds (record), and returns the errors.
func (p *Prover) recordRun(jobs []*job) []string {
	var errs []string
	for _, j := range jobs {
		if j.key == "" || j.restored {
			continue
		}
		if (!j.cached || j.bySlice) && j.res.Cacheable() {
			detail, err := j.res.Encode()
			if err == nil {
				detail = p.sig.seal(j.key, detail)
				err = p.cache.Put(j.key, cache.Result{
					Verdict: cache.Verdict(j.res.Verdict().String()), Seconds: j.res.SolverSeconds,
					RLimitUsed: j.res.RLimitUsed, Name: j.ob.ID, Detail: detail,
				})
			}
			if err != nil {
				errs = append(errs, err.Error())
			}
			if err := p.recordSlice(j); err != nil {
				errs = append(errs, err.Error())
			}
		}
		g := cache.Generation{Key: j.key, Items: j.ob.Deps}
		if j.unit != "" && j.qfp != "" && j.res.Verdict().Discharged() {
			// Only a discharged obligation's text is vouched for by
			// its record: the others are built again to be shown.
			g.Unit, g.Query = j.unit, j.qfp
		}
		if old, ok := p.cache.Generated(j.ob.ID); ok && old.Key == g.Key && slices.Equal(old.Items, g.Items) &&
			old.Unit == g.Unit && old.Query == g.Query {
			continue // recorded as is
		}
		if err := p.cache.RecordGeneration(j.ob.ID, g); err != nil {
			errs = append(errs, err.Error())
		}
	}
	return errs
}

// recordSlice stores the proof of the slice that proved j's query, if it
// is known, under the slice's own key, so that a later text of the
// obligation with the same slice is proved from it (lookupSlice). A unit
// record that holds it takes it out of the snapshot (forgetRecorded).
func (p *Prover) recordSlice(j *job) error {
	if j.slice == nil || p.cache.Has(j.slice.Key) {
		return nil
	}
	return p.cache.Put(j.slice.Key, cache.Result{Verdict: cache.Proved, Name: j.ob.ID + " (slice)",
		Detail: p.sig.seal(j.slice.Key, j.slice.Record)})
}
