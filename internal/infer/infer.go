// This file implements Run: the phases of inference, their counts and
// times, and the result as YAML and JSON.

package infer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"ladder/internal/driver"
	"ladder/internal/report"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

// Options configures Run.
type Options struct {
	// File is the automaton's file; Automaton picks one automaton when
	// the loaded files hold several ("" : the only one).
	File      string
	Automaton string
	// Bounds are the instances the filter explores, each as explore's
	// --bound ("T=2,L=1,V=2"); nil means DefaultBounds.
	Bounds []string
	// MaxStates bounds the states explored per instance (0: 100000) and
	// Timeout the time per instance (0: one minute). An incomplete
	// instance only lets more candidates through.
	MaxStates int
	Timeout   time.Duration
	// MaxMemory stops the run when the process (the solver included)
	// holds more memory than this, in bytes; 0: no limit. Run then
	// returns the phases done so far with an error wrapping ErrLimit.
	MaxMemory int64
	// NoPairs leaves out the candidates with two bound variables of one
	// sort.
	NoPairs bool
	// Products says when the candidates over two parameter sorts that a
	// state variable relates (forall t: T, l: L. …) are searched:
	// ProductsAuto (the zero value) when the other candidates leave room
	// for them (ProductBudget), ProductsOn always, ProductsOff never.
	Products Products
	// MaxCandidates bounds the non-redundant candidates handed to the
	// Houdini search (0: DefaultMaxCandidates). Run fails with ErrTooMany
	// beyond it.
	MaxCandidates int
	// PartSize bounds the non-redundant candidates of one Houdini search
	// (0: DefaultPartSize): each of its solvers holds all of them as
	// hypotheses. More are searched in parts (searchParts).
	PartSize int
	// OnPoints is the number of non-redundant candidates past which the
	// implications that others imply on the points of the instances are
	// held in reserve (0: DefaultOnPoints; reserveLarge).
	OnPoints int
	// NoParametrized proves quantified candidates without the
	// parametrized strategy.
	NoParametrized bool
	// NoCheapPasses starts the Houdini search with its full checks,
	// without the passes of cheap checks that drop what the first models
	// break before any large set of goals is proved preserved (settleCheap).
	NoCheapPasses bool
	// Prefix starts the names of the printed invariants ("inv": inv1,
	// inv2, …).
	Prefix string
	// Library is load.Config.Library (the specs/ and algorithms/ dirs).
	Library []string
	// Overlays replaces the text of files (keyed by absolute path) for
	// every load, such as an abstract automaton with other invariants.
	Overlays map[string][]byte
	// Prover configures the prover (cache, workers, limits).
	Prover driver.Config
	// Proof, when set, is a proof file whose concrete automaton is the
	// inferred one: its edge is proved again with the inferred invariants
	// as its concrete assumptions. EdgeAbstract, when non-nil, replaces
	// the abstract assumptions.
	Proof        string
	EdgeAbstract []string
	// Compare, when set, proves each invariant written in the file with
	// the inferred invariants as its only assumptions (compare.go): how
	// much of a hand-written proof the inferred set recovers.
	Compare bool
	// MaxTime stops the inference when it has taken this long (0: no
	// limit); the comparison (Compare) that follows it has as long again,
	// after which the invariants it was proving are "not checked".
	// Run then returns the phases done so far with an error wrapping
	// ErrLimit.
	MaxTime time.Duration
	// Progress, when set, receives one line per step.
	Progress func(string)
}

// Phase is one phase of inference: the candidates it ends with and its
// time.
type Phase struct {
	Name       string  `json:"name"`
	Candidates int     `json:"candidates"`
	Seconds    float64 `json:"seconds"`
	Note       string  `json:"note,omitempty"`
}

// Invariant is an inferred invariant, as printed.
type Invariant struct {
	Name     string   `json:"name"`
	Body     string   `json:"body"`
	Assumes  []string `json:"assumes"`
	Strategy []string `json:"strategy,omitempty"`
	Status   string   `json:"status"` // the status the prover derived: proved
}

// Result is the outcome of Run.
type Result struct {
	Automaton string         `json:"automaton"`
	File      string         `json:"file"`
	Instances []Instance     `json:"instances"`
	Phases    []Phase        `json:"phases"`
	Rounds    []HoudiniRound `json:"houdiniRounds"`
	// Parts are the parts of a search in parts (Options.PartSize), in
	// order; none when the candidates were searched at once.
	Parts      []HoudiniPart  `json:"houdiniParts,omitempty"`
	Final      []HoudiniRound `json:"finalRounds"`
	Invariants []Invariant    `json:"invariants"`
	// Obligations counts the obligations checked over all rounds, how
	// many were proved, trivial (decided without the solver), refuted,
	// unknown, and reused from the cache.
	Obligations struct {
		Checked       int     `json:"checked"`
		Proved        int     `json:"proved"`
		Trivial       int     `json:"trivial"`
		Refuted       int     `json:"refuted"`
		Unknown       int     `json:"unknown"`
		Cached        int     `json:"cached"`
		SolverSeconds float64 `json:"solverSeconds"`
	} `json:"obligations"`
	// SearchChecks counts the checks of the Houdini search (search.go),
	// whose time is in Obligations.SolverSeconds too.
	SearchChecks int `json:"searchChecks"`
	// Nat lists the implicit Nat invariants the final round did not
	// prove (the inferred set is then not proved).
	Nat  []string    `json:"natUnproved,omitempty"`
	Edge *EdgeResult `json:"edge,omitempty"`
	// Compared holds, with Options.Compare, the invariants written in the
	// file, each proved (or not) from the inferred set alone.
	Compared []Compared `json:"compared,omitempty"`
	Seconds  float64    `json:"seconds"`
	// Stopped says why inference stopped early: before the Houdini rounds
	// (ErrTooMany), or at the memory or time limit (ErrLimit); or "".
	Stopped string `json:"stopped,omitempty"`

	section string // the `invariants:` section as proved
	text    []byte // the automaton's file with it
	path    string // the automaton's file, absolute
}

// instanceDefaults sets the limits of each explored instance that are
// zero to their defaults: 100000 states, one minute.
func instanceDefaults(maxStates *int, timeout *time.Duration) {
	if *maxStates == 0 {
		*maxStates = 100000
	}
	if *timeout == 0 {
		*timeout = time.Minute
	}
}

// DefaultBounds returns the instances explored when Options.Bounds is
// nil: for the sorts of the transactional memory interface T=2,L=1,V=2,
// T=1,L=2,V=2 (one location makes every location term equal) and
// T=3,L=1,V=1, and 2, 2 then 3 elements for any other parameter sort.
func DefaultBounds(a *ioa.Automaton) []string {
	sizes := []map[string]int{{"T": 2, "L": 1, "V": 2}, {"T": 1, "L": 2, "V": 2}, {"T": 3, "L": 1, "V": 1}}
	other := []int{2, 2, 3}
	out := make([]string, len(sizes))
	seen := map[string]bool{}
	var res []string
	for i := range sizes {
		var b []string
		for _, s := range a.Sorts {
			if s == nil || s.Kind != expr.KParam {
				continue
			}
			n, ok := sizes[i][s.Name]
			if !ok {
				n = other[i]
			}
			b = append(b, fmt.Sprintf("%s=%d", s.Name, n))
		}
		out[i] = strings.Join(b, ",")
		if !seen[out[i]] {
			seen[out[i]] = true
			res = append(res, out[i])
		}
	}
	return res
}

// ErrUsage wraps the errors of a bad request (unknown automaton, bad
// bound).
var ErrUsage = errors.New("usage")

// DefaultMaxCandidates is the default of Options.MaxCandidates: DSTM's
// 6,404 are searched in parts of DefaultPartSize.
const DefaultMaxCandidates = 20000

// ErrTooMany wraps the error of a filter that leaves more non-redundant
// candidates than Options.MaxCandidates.
var ErrTooMany = errors.New("too many candidates")

// errTimeLimit is the cause of the cancellation at Options.MaxTime.
var errTimeLimit = errors.New("time limit")

// timeLimited returns ctx cancelled with cause errTimeLimit after d (ctx
// itself when d is 0), and its cancel function.
func timeLimited(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, d, errTimeLimit)
}

// Run infers the invariants of the automaton of o.File.
func Run(ctx context.Context, o Options) (*Result, error) {
	start := time.Now()
	var w *memoryWatch
	if o.MaxMemory > 0 {
		var stop func()
		ctx, w, stop = watchMemory(ctx, o.MaxMemory, 100*time.Millisecond)
		defer stop()
	}
	// The time limit is the inference's: --compare's proofs come after.
	ictx, cancel := timeLimited(ctx, o.MaxTime)
	defer cancel()
	var partial *Result
	res, err := run(ictx, ctx, o, start, &partial)
	why := w.reached()
	if why == "" && err != nil && errors.Is(context.Cause(ictx), errTimeLimit) {
		why = fmt.Sprintf("time limit %s", o.MaxTime)
	}
	if why != "" {
		if partial == nil {
			partial = &Result{}
		}
		partial.Stopped = why
		partial.Seconds = time.Since(start).Seconds()
		return partial, fmt.Errorf("%w: %s", ErrLimit, why)
	}
	return res, err
}

// run is Run; it sets *partial to the result as soon as there is one, so
// that a run stopped at a limit can return the phases it did. The
// comparison (Options.Compare) runs under after, without the time limit
// of ctx.
func run(ctx, after context.Context, o Options, start time.Time, partial **Result) (*Result, error) {
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if o.Prefix == "" {
		o.Prefix = "inv"
	}
	instanceDefaults(&o.MaxStates, &o.Timeout)
	set, errs := loadConfig(o.Library, o.Overlays).Files(o.File)
	if len(errs) > 0 {
		return nil, errs
	}
	a, err := pick(&set.Hierarchy, o.Automaton)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUsage, o.File, err)
	}
	path, err := filepath.Abs(a.File)
	if err != nil {
		return nil, err
	}
	orig, ok := o.Overlays[path]
	if !ok {
		if orig, err = load.ReadFile(a.File); err != nil {
			return nil, err
		}
	}
	res := &Result{Automaton: a.Name, File: a.File, path: path}
	*partial = res
	phase := func(name string, n int, t time.Time, note string) {
		res.Phases = append(res.Phases, Phase{Name: name, Candidates: n, Seconds: time.Since(t).Seconds(), Note: note})
	}

	// Templates.
	t := time.Now()
	progress("templates")
	ctxs := templates(a, !o.NoPairs, o.Products != ProductsOff)
	checkAtoms(a, ctxs)
	generated := 0
	for _, c := range ctxs {
		generated += generatedCount(c)
	}
	phase("generated", generated, t, fmt.Sprintf("%d atoms", atomCount(ctxs)))

	// Filter.
	t = time.Now()
	bounds := o.Bounds
	if bounds == nil {
		bounds = DefaultBounds(a)
	}
	sts, insts, err := filter(ctx, a, ctxs, bounds, o.MaxStates, o.Timeout, progress)
	if err != nil {
		return nil, err
	}
	res.Instances = insts
	survived := 0
	for i, c := range ctxs {
		survived += survivedCount(c, sts[i])
	}
	phase("survived the instances", survived, t, "")

	// Non-redundant candidates.
	t = time.Now()
	var pool []*cand
	ctxIndex := map[*qctx]int{}
	for i, c := range ctxs {
		ctxIndex[c] = i
		cs := candidates(c, sts[i])
		for _, cd := range cs {
			cd.buildText()
		}
		sortCands(cs, ctxIndex)
		pool = append(pool, cs...)
	}
	pool, dropped := products(pool, o.Products)
	nonred, onPoints := reserveLarge(pool, ctxs, sts, o.OnPoints)
	phase("non-redundant", nonred, t, fmt.Sprintf("%d more in reserve%s%s", len(pool)-nonred, onPoints, dropped))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.MaxCandidates == 0 {
		o.MaxCandidates = DefaultMaxCandidates
	}
	if nonred > o.MaxCandidates {
		res.Seconds = time.Since(start).Seconds()
		res.Stopped = fmt.Sprintf("%d non-redundant candidates, more than %d", nonred, o.MaxCandidates)
		return res, fmt.Errorf("%w: %d non-redundant candidates survive the instances, more than --max-candidates %d; each Houdini obligation would have them all as hypotheses. Filter on larger or more instances (--bound, --max-states, --explore-timeout; an instance cut short lets more through) or raise the limit",
			ErrTooMany, nonred, o.MaxCandidates)
	}

	// Houdini.
	t = time.Now()
	// The final rounds prove chunk after chunk: the cache is saved once,
	// at the end, not after every chunk.
	pcfg := o.Prover
	pcfg.SaveOnClose = true
	// No unsat cores: they serve the next edit of an obligation whose text
	// changed, and here every round changes the hypotheses of every
	// obligation; looking for them made TPL's inference half as slow
	// again (112 s against 70 s at -j 2).
	pcfg.NoCores = true
	prover, err := driver.NewProver(pcfg)
	if err != nil {
		return nil, err
	}
	defer closeProver(prover, progress)
	s := &session{path: path, orig: orig, auto: a.Name, library: o.Library, overlays: o.Overlays,
		prover: prover, jobs: pcfg.Jobs, param: !o.NoParametrized, cheap: !o.NoCheapPasses, progress: progress}
	if o.PartSize <= 0 {
		o.PartSize = DefaultPartSize
	}
	candName := func(i int) string { return fmt.Sprintf("%s_c%d", o.Prefix, i+1) }
	fine, rounds, parts, note, err := s.searchAll(ctx, pool, candName, o)
	res.Parts = parts
	res.Rounds = rounds
	if err != nil {
		return nil, err
	}
	phase("inductive", len(fine), t, fmt.Sprintf("%d search passes, %d checks%s", len(rounds), s.searchChecks, note))

	// Merge and prove under the printed names.
	t = time.Now()
	merged := merge(fine)
	for _, c := range merged {
		if c.text == "" {
			c.buildText()
		}
	}
	sortCands(merged, ctxIndex)
	assumptions(merged)
	final, last, frounds, err := s.finalize(ctx, merged, func(i int) string { return fmt.Sprintf("%s%d", o.Prefix, i+1) })
	res.Final = frounds
	if err != nil {
		return nil, err
	}
	phase("printed", len(final), t, "merged and proved under their names")
	s.record(res)

	if last != nil {
		res.Nat = last.nat
	}
	if last != nil && len(last.nat) == 0 {
		res.text = last.text
		res.section, _ = s.section(final, true)
		for _, c := range final {
			inv := Invariant{Name: c.name, Body: c.text, Assumes: assumeNames(c, final), Status: statusOf(last.derived, a.Name, c.name)}
			if s.param && c.quantified() {
				inv.Strategy = []string{"parametrized"}
			}
			if inv.Status != report.Proved {
				// The driver's joint derivation disagrees: print nothing.
				return nil, fmt.Errorf("internal error: invariant %s is %s after the final round", c.name, inv.Status)
			}
			res.Invariants = append(res.Invariants, inv)
		}
	}

	if o.Proof != "" {
		t = time.Now()
		var names []string
		for _, inv := range res.Invariants {
			names = append(names, inv.Name)
		}
		res.Edge, err = s.edge(ctx, o.Proof, res.text, names, o.EdgeAbstract)
		s.record(res)
		if err != nil {
			return nil, err
		}
		phase("edge", len(names), t, res.Edge.Status)
	}
	if o.Compare && len(res.Nat) == 0 {
		t = time.Now()
		n, err := s.comparePhase(after, o.MaxTime, res, givenOf(a))
		if err != nil {
			return nil, err
		}
		phase("compared", n, t, fmt.Sprintf("of the file's %d invariants, proved from the inferred set alone", len(res.Compared)))
	}

	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// comparePhase sets res.Compared (Options.Compare) for the invariants
// written in the file, gs, with as long as maxTime (0: no limit), and
// returns how many are proved.
func (s *session) comparePhase(after context.Context, maxTime time.Duration, res *Result, gs []*given) (int, error) {
	ctx, cancel := timeLimited(after, maxTime)
	defer cancel()
	var err error
	if res.Compared, err = s.compare(ctx, res, gs); err != nil {
		return 0, err
	}
	s.record(res)
	n := 0
	for _, c := range res.Compared {
		if c.Status == report.Proved {
			n++
		}
	}
	return n, nil
}

func (s *session) record(res *Result) {
	res.Obligations.Checked = s.obligations
	res.Obligations.Proved = s.proved
	res.Obligations.Trivial = s.trivial
	res.Obligations.Refuted = s.refuted
	res.Obligations.Unknown = s.unknown
	res.Obligations.Cached = s.cached
	res.Obligations.SolverSeconds = s.solverSeconds
	res.SearchChecks = s.searchChecks
}

// pick selects the automaton named name, or the only automaton of h.
func pick(h *ioa.Hierarchy, name string) (*ioa.Automaton, error) {
	if name != "" {
		if a := h.Automaton(name); a != nil {
			return a, nil
		}
		return nil, fmt.Errorf("no automaton %s", name)
	}
	var own []*ioa.Automaton
	for _, a := range h.Automata {
		resolved := false
		for _, r := range h.Resolved {
			resolved = resolved || r == a
		}
		if !resolved {
			own = append(own, a)
		}
	}
	switch len(own) {
	case 0:
		return nil, errors.New("no automaton")
	case 1:
		return own[0], nil
	}
	var names []string
	for _, a := range own {
		names = append(names, a.Name)
	}
	return nil, fmt.Errorf("several automata (%s): choose one with --automaton", strings.Join(names, ", "))
}

func atomCount(ctxs []*qctx) int {
	n := 0
	for _, c := range ctxs {
		n += len(c.atoms) + len(c.pairs)
	}
	return n
}

// generatedCount is the number of candidates the templates give in
// context c: every atom, every guard with every atom, every enum guard
// and other guard with every atom, and every pair of pair guards (enum
// guards and Bool definitions, or true) with every pair atom.
func generatedCount(c *qctx) int {
	n := len(c.atoms)
	var guards, enums, others, pguards int
	for _, at := range c.atoms {
		if at.guard {
			guards++
			if at.enumTerm != "" {
				enums++
			} else if !at.def {
				others++
			}
			if at.enumTerm != "" || at.pairGuard {
				pguards++
			}
		}
	}
	n += guards * len(c.atoms)
	n += enums * others * len(c.atoms)
	k := pguards + 1
	n += k * (k + 1) / 2 * len(c.pairs)
	return n
}

// survivedCount is the number of generated candidates that held at every
// point (an implication whose guard never held is not counted).
func survivedCount(c *qctx, st *stats) int {
	n := st.always.countIn(st.n)
	for gi := range st.guards {
		if st.seen[gi] {
			n += st.n - st.viol[gi].countIn(st.n)
		}
	}
	for e := range st.enums {
		for o := range st.others {
			if st.seen2[e][o] {
				n += st.n - st.viol2[e][o].countIn(st.n)
			}
		}
	}
	for i := range st.pseen {
		for j := i; j < len(st.pseen); j++ {
			if st.pseen[i][j] {
				n += st.pn - st.pviol[i][j].countIn(st.pn)
			}
		}
	}
	return n
}

// countIn counts the members below n.
func (b bitset) countIn(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		if b.has(i) {
			c++
		}
	}
	return c
}

// YAML writes the inferred invariants as an `invariants:` section, exactly
// as they were proved.
func (r *Result) YAML() string { return r.section }

// Text returns the automaton's file with its `invariants:` section
// replaced by the inferred one, as the final round loaded it.
func (r *Result) Text() []byte { return r.text }

// WriteJSON writes r as JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	type out struct {
		*Result
		YAML string `json:"yaml"`
	}
	return enc.Encode(out{r, r.section})
}

// WriteSummary writes the counts per phase and the time, one line each.
func (r *Result) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "%s (%s):\n", r.Automaton, r.File)
	for _, in := range r.Instances {
		status := "complete"
		if !in.Complete {
			status = "INCOMPLETE: " + in.Limit
		}
		fmt.Fprintf(w, "  instance %s: %d states, %.2fs (%s)\n", in.Bound, in.States, in.Seconds, status)
	}
	for _, p := range r.Phases {
		note := ""
		if p.Note != "" {
			note = " (" + p.Note + ")"
		}
		fmt.Fprintf(w, "  %-24s %6d  %7.2fs%s\n", p.Name, p.Candidates, p.Seconds, note)
	}
	ob := r.Obligations
	fmt.Fprintf(w, "  obligations: %d checked, %d proved, %d refuted, %d unknown, %d cached; search: %d checks; solver %.1fs\n",
		ob.Checked, ob.Proved, ob.Refuted, ob.Unknown, ob.Cached, r.SearchChecks, ob.SolverSeconds)
	if len(r.Nat) > 0 {
		fmt.Fprintf(w, "  NOT PROVED: the Nat conditions %s are not inductive with the inferred set\n", strings.Join(r.Nat, ", "))
	}
	var not []string
	for _, c := range r.Compared {
		if c.Status != report.Proved {
			not = append(not, c.Name+" ("+c.Status+")")
		}
	}
	if len(not) > 0 {
		fmt.Fprintf(w, "  not proved from the inferred set: %s\n", strings.Join(not, ", "))
	}
	if e := r.Edge; e != nil {
		fmt.Fprintf(w, "  edge %s: %s (%d obligations: %d proved, %d refuted, %d unknown)\n", e.Edge, e.Status, e.Obligations, e.Proved, e.Refuted, e.Unknown)
		for _, id := range e.Failed {
			fmt.Fprintf(w, "    not proved: %s\n", id)
		}
	}
	fmt.Fprintf(w, "  total %.2fs\n", r.Seconds)
}

// closeProver closes p, which saves its cache, and reports a failure
// through progress: the inference stands, only the reuse of its verdicts
// is lost.
func closeProver(p *driver.Prover, progress func(string)) {
	if err := p.Close(); err != nil && progress != nil {
		progress("warning: cache: " + err.Error())
	}
}

// Products is Options.Products.
type Products int

// The values of Options.Products.
const (
	ProductsAuto Products = iota
	ProductsOn
	ProductsOff
)

// ProductBudget is the largest number of non-redundant candidates over at
// most one bound variable (or two of one sort) with which ProductsAuto
// searches the candidates of the product contexts as well. Each of those
// is quantified over two sorts, and their number grows with the others'.
// Measured at -j 2, search alone: TPL (92 others) 0.6 s without them and
// 2.5 s with them, recovering all five of its file's invariants instead
// of one; Opacity (186) 26.3 s and 29.7 s; NOrecDerived (364) 4.3 s and
// 9.1 s, NOrec (485) 6.4 s and 17.5 s, for none of their files'
// invariants more; TL2 (1,216) took about twice as long.
const ProductBudget = 300

// products returns the pool without the candidates of product contexts
// when mode leaves them out, with a note saying so ("" when nothing is
// left out).
func products(pool []*cand, mode Products) ([]*cand, string) {
	rest, prods := splitProducts(pool)
	others := nonRedundant(rest)
	if mode == ProductsOn || len(prods) == 0 || mode == ProductsAuto && others <= ProductBudget {
		return pool, ""
	}
	return rest, fmt.Sprintf("; %d candidates over two sorts left out: %d others are non-redundant, more than %d", len(prods), others, ProductBudget)
}

// DefaultOnPoints is the default of Options.OnPoints. Below it, NOrec's
// 835 non-redundant candidates keep alive every candidate its search
// needs (9 of its 13 written invariants recovered, against 1 with the
// implications the points say held in reserve); above it, TL2's 1,565 are
// more than its search ends on in two minutes without them.
const DefaultOnPoints = 1000

// reserveLarge returns the number of non-redundant candidates of pool,
// after holding in reserve what the points imply (reserveOnPoints) when
// there are more than budget (0: DefaultOnPoints), and a note saying so.
func reserveLarge(pool []*cand, ctxs []*qctx, sts []*stats, budget int) (int, string) {
	if budget <= 0 {
		budget = DefaultOnPoints
	}
	n := nonRedundant(pool)
	if n <= budget {
		return n, ""
	}
	of := map[*qctx]*stats{}
	for i, c := range ctxs {
		of[c] = sts[i]
	}
	reserveOnPoints(pool, func(c *qctx) *stats { return of[c] })
	m := nonRedundant(pool)
	return m, fmt.Sprintf(" (%d of them implied by others on the points, held back since %d would be non-redundant, more than %d)", n-m, n, budget)
}

// nonRedundant counts the candidates of cs that no candidate implies.
func nonRedundant(cs []*cand) int {
	n := 0
	for _, c := range cs {
		if len(c.impliedBy) == 0 {
			n++
		}
	}
	return n
}

// splitProducts returns the candidates of pool outside product contexts
// and those inside, each in pool order.
func splitProducts(pool []*cand) (rest, prods []*cand) {
	for _, c := range pool {
		if c.ctx.sort2 != nil {
			prods = append(prods, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, prods
}

// searchAll runs the Houdini search on pool (in parts when its candidates
// outside product contexts are more than o.PartSize), then, when pool has
// candidates of product contexts, again on those together with the set
// found. It returns the inductive set, the search's passes and parts,
// and a note for the phase line.
//
// The product contexts' candidates come second because a search's checks
// grow with its candidates, and theirs are quantified over two sorts. The
// set found first is inductive by itself, so the second search keeps it
// and adds what holds with it.
func (s *session) searchAll(ctx context.Context, pool []*cand, candName func(int) string, o Options) ([]*cand, []HoudiniRound, []HoudiniPart, string, error) {
	var fine []*cand
	var rounds []HoudiniRound
	var parts []HoudiniPart
	var err error
	note := ""
	limits := searchLimits(o.Prover.Kernel)
	rest, prods := splitProducts(pool)
	if nonRedundant(rest) > o.PartSize {
		fine, rounds, parts, err = s.searchParts(ctx, rest, o.PartSize, candName, o.Prover.Jobs, limits)
		note = fmt.Sprintf(", in %d searches of at most %d candidates", len(parts), o.PartSize)
	} else {
		fine, rounds, err = s.search(ctx, rest, candName, o.Prover.Jobs, limits)
	}
	if err != nil || len(prods) == 0 {
		return fine, rounds, parts, note, err
	}
	idx := make(map[*cand]int, len(pool))
	for i, c := range pool {
		idx[c] = i
	}
	sub := append(append([]*cand(nil), fine...), prods...)
	s.say(fmt.Sprintf("search over two sorts: %d candidates, %d kept", len(prods), len(fine)))
	before := len(fine)
	fine, rs, err := s.search(ctx, sub, func(i int) string { return candName(idx[sub[i]]) }, o.Prover.Jobs, limits)
	rounds = append(rounds, rs...)
	note += fmt.Sprintf(", then %d over two sorts with the %d found (%d passes)", len(prods), before, len(rs))
	return fine, rounds, parts, note, err
}
