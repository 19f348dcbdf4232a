// This file implements relation repair (`ladder infer --proof P` without
// FILE): for a forward simulation that does not prove, candidate relation
// clauses from templates over both states, kept when they hold at every
// pair the bounded cross-check reaches and exclude a counterexample of a
// failing obligation, reduced by a Houdini fixpoint on the edge's own
// obligations and then to a minimal set with which the edge proves
// (docs/infer.md, "Repairing an edge").

package infer

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"ladder/internal/crosscheck"
	"ladder/internal/driver"
	"ladder/internal/explore"
	"ladder/internal/kernel"
	"ladder/internal/report"
	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
	"ladder/simulation"
)

// RepairOptions configures Repair.
type RepairOptions struct {
	// Proof is the proof file of the edge to repair: a forward simulation.
	Proof string
	// Bounds are the instances the cross-check explores, each as
	// explore's --bound; nil means DefaultBounds of the concrete automaton.
	Bounds []string
	// MaxStates bounds the pairs explored per instance (0: 100000) and
	// Timeout the time per instance (0: one minute).
	MaxStates int
	Timeout   time.Duration
	// Prefix starts the names of the added clauses ("fix": fix1, fix2, …).
	Prefix string
	// MaxRounds bounds the proofs of the edge before the minimal set is
	// sought (0: 8).
	MaxRounds int
	// Library is load.Config.Library (the specs/ and algorithms/ dirs);
	// the proof's directory is added to it.
	Library []string
	// Prover configures the prover (cache, workers, limits).
	Prover driver.Config
	// Progress, when set, receives one line per step.
	Progress func(string)
}

// RepairResult is the outcome of Repair.
type RepairResult struct {
	Proof string `json:"proof"`
	Edge  string `json:"edge"`
	// Status is "proved" when the edge proved as written, "repaired" when
	// it proves with Clauses added, "not repaired" otherwise.
	Status string `json:"status"`
	// Failed are the edge's obligations that were not proved as written.
	Failed []string `json:"failed"`
	// Relevant are the abstract variables the failing goals read, to
	// which the candidates' abstract terms are limited.
	Relevant []string `json:"relevant"`
	// Counterexamples counts the counterexamples the candidates were
	// tested against (the refuted obligations' pre-states).
	Counterexamples int `json:"counterexamples"`
	// Generated, Survived and Excluding count the candidates: from the
	// templates, holding at every pair of the instances, and among those
	// false at some counterexample.
	Generated int        `json:"generated"`
	Survived  int        `json:"survived"`
	Excluding int        `json:"excluding"`
	Instances []Instance `json:"instances"`
	// Rounds are the edge's proofs, each with the candidates it had.
	Rounds []RepairRound `json:"rounds"`
	// Clauses are the clauses added, a minimal set: the edge proves with
	// all of them, and with none of them left out.
	Clauses []Clause `json:"clauses"`
	// Section is the clauses as YAML entries of `relation:`.
	Section string `json:"section"`
	// CrossCheckFailure is the obligation the cross-check refuted at a
	// reachable pair, if it did: every candidate holds there, so no
	// relation clause repairs the edge, and repair stops.
	CrossCheckFailure string `json:"crosscheckFailure,omitempty"`
	// Remaining are the obligations still not proved, when not repaired.
	Remaining []string `json:"remaining,omitempty"`
	Seconds   float64  `json:"seconds"`
}

// Clause is an added relation clause.
type Clause struct {
	Name string `json:"name"`
	Body string `json:"body"`
}

// RepairRound is one proof of the edge.
type RepairRound struct {
	Phase       string  `json:"phase"` // "houdini", "cores" (minimize: the clauses the cores name) or "minimize"
	Candidates  int     `json:"candidates"`
	Obligations int     `json:"obligations"`
	Failed      int     `json:"failed"`  // obligations not proved
	Dropped     int     `json:"dropped"` // candidates dropped (Houdini) before this proof
	Seconds     float64 `json:"seconds"`
}

// repairer is the state of one Repair.
type repairer struct {
	o      RepairOptions
	path   string // the proof file, absolute
	orig   []byte // its text
	lib    []string
	prover *driver.Prover
	res    *RepairResult
	// falseAt are, per candidate, the counterexamples (numbered as
	// excluding meets them) at whose pre-state it is false.
	falseAt map[int][]int
	ncex    int
}

// edgeRun is one proof of the edge with some candidates.
type edgeRun struct {
	proof *ioa.Proof
	// failed are the edge's obligations not proved, by ID, with the
	// counterexample of each refuted one (nil otherwise).
	failed map[string]*cexData
	// candFailed are the candidates with an obligation not proved (by
	// their index in the proof), and candCex those obligations with their
	// counterexamples.
	candFailed map[int]bool
	candCex    map[string]*cexData
	total      int
	// needed are the candidates (by their index in the run) the proof
	// needs by the unsat cores of its obligations (neededCands); nil when
	// some proved obligation has no core.
	needed map[int]bool
	// uses counts, by the candidate's index in the run, the edge's own
	// obligations whose unsat cores name it (with needed).
	uses map[int]int
}

// cexData is the part of a counterexample's structured form (kernel
// Result.Counterexample.Data) repair reads: the states and the instance.
type cexData struct {
	States []struct {
		Name    string
		Text    string
		Changed bool
	}
	Instance string
}

// Repair repairs the relation of the forward simulation of o.Proof.
func Repair(ctx context.Context, o RepairOptions) (*RepairResult, error) {
	start := time.Now()
	if o.Prefix == "" {
		o.Prefix = "fix"
	}
	instanceDefaults(&o.MaxStates, &o.Timeout)
	if o.MaxRounds == 0 {
		o.MaxRounds = 8
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	path, err := filepath.Abs(o.Proof)
	if err != nil {
		return nil, err
	}
	orig, err := load.ReadFile(o.Proof)
	if err != nil {
		return nil, err
	}
	pcfg := o.Prover
	pcfg.SaveOnClose = true
	// No search for unsat cores: those serve the next edit of an
	// obligation whose text changed, and here every round changes the
	// relation clauses every obligation assumes (as in inference: Run).
	// The cores that come with the kernel's checks say which candidate
	// clauses each proof used (minimize).
	pcfg.NoCoreSearch = true
	prover, err := driver.NewProver(pcfg)
	if err != nil {
		return nil, err
	}
	defer closeProver(prover, o.Progress)
	r := &repairer{o: o, path: path, orig: orig, prover: prover, res: &RepairResult{Proof: o.Proof}, falseAt: map[int][]int{},
		lib: append(append([]string(nil), o.Library...), filepath.Dir(o.Proof))}
	defer func() { r.res.Seconds = time.Since(start).Seconds() }()
	if err := r.run(ctx); err != nil {
		return nil, err
	}
	return r.res, nil
}

func (r *repairer) run(ctx context.Context) error {
	res := r.res
	first, err := r.prove(ctx, nil, "")
	if err != nil {
		return err
	}
	p := first.proof
	if p.Kind != ioa.ProofForward {
		return fmt.Errorf("%w: %s: repair adds relation clauses to forward simulations; %s is a %s", ErrUsage, r.o.Proof, p.Name, p.Kind)
	}
	res.Edge = simulation.EdgeName(p)
	res.Failed = sortedKeys(first.failed)
	if len(first.failed) == 0 {
		res.Status = "proved"
		return nil
	}
	res.Status = "not repaired"
	res.Remaining = res.Failed
	relevant := r.relevant(p, first.failed)
	for v := range relevant {
		res.Relevant = append(res.Relevant, v)
	}
	sort.Strings(res.Relevant)

	// Templates, sort-checked by the loader.
	r.o.Progress("templates")
	var pool []string
	for _, c := range relationCandidates(p, relevant) {
		pool = append(pool, c.text)
	}
	res.Generated = len(pool)
	cp, invalid, err := r.load(pool)
	if err != nil {
		return err
	}
	var bodies []expr.Expr
	var texts []string
	for i, t := range pool {
		if !invalid[i] {
			texts = append(texts, t)
			bodies = append(bodies, cp.Relation[len(p.Relation)+i].Body)
		}
	}

	survivors, err := r.filter(ctx, cp, len(p.Relation), bodies)
	if err != nil {
		return err
	}
	q := *cp
	q.Relation = cp.Relation[:len(p.Relation)]
	res.Survived = len(survivors)
	if res.CrossCheckFailure != "" {
		// The check found the failure at a reachable pair, where every
		// candidate holds: no clause of them can exclude it.
		return nil
	}

	live, last, err := r.rounds(ctx, &q, texts, bodies, survivors, first.failed)
	if err != nil {
		return err
	}
	if last == nil || len(last.failed) > 0 || len(last.candFailed) > 0 {
		failed := first.failed
		if last != nil {
			failed = last.failed
		}
		res.Remaining = sortedKeys(failed)
		return nil
	}
	if live, err = r.minimize(ctx, texts, live, last); err != nil {
		return err
	}
	final := make([]string, len(live))
	for k, i := range live {
		final[k] = texts[i]
	}
	// Clauses that differ only in the constant of an enum guard are
	// merged (c.pc[t] = A => φ and c.pc[t] = B => φ become
	// c.pc[t] in {A, B} => φ) when the edge proves with the merged set.
	if merged := mergeGuards(final); len(merged) < len(final) {
		t := time.Now()
		run, err := r.prove(ctx, merged, "merge")
		if err != nil {
			return err
		}
		res.Rounds = append(res.Rounds, RepairRound{Phase: "merge", Candidates: len(merged), Obligations: run.total, Failed: len(run.failed) + len(run.candFailed), Seconds: time.Since(t).Seconds()})
		if len(run.failed) == 0 && len(run.candFailed) == 0 {
			final = merged
		}
	}
	res.Status, res.Remaining = "repaired", nil
	var b strings.Builder
	for n, text := range final {
		c := Clause{Name: fmt.Sprintf("%s%d", r.o.Prefix, n+1), Body: text}
		res.Clauses = append(res.Clauses, c)
		fmt.Fprintf(&b, "  %s: |\n    %s\n", c.Name, c.Body)
	}
	res.Section = b.String()
	return nil
}

// filter cross-checks the edge of cp, whose first n relation clauses are
// the proof's own, on the instances, with the candidates bodies as
// probes, and returns the indices of those that hold at every pair.
func (r *repairer) filter(ctx context.Context, cp *ioa.Proof, n int, bodies []expr.Expr) ([]int, error) {
	alive := make([]bool, len(bodies))
	for i := range alive {
		alive[i] = true
	}
	bounds := r.o.Bounds
	if bounds == nil {
		bounds = DefaultBounds(cp.Concrete)
	}
	q := *cp
	q.Relation = cp.Relation[:n]
	for _, b := range bounds {
		r.o.Progress("cross-check " + b)
		inst, err := explore.ParseBounds(b)
		if err != nil {
			return nil, fmt.Errorf("%w: --bound %s: %v", ErrUsage, b, err)
		}
		t := time.Now()
		cr, err := crosscheck.Check(&q, crosscheck.Config{Instance: inst, MaxStates: r.o.MaxStates, Workers: 1,
			Probes: bodies, Budget: explore.Budget{Timeout: r.o.Timeout, Context: ctx}})
		if err != nil {
			return nil, fmt.Errorf("cross-check %s: %v", b, err)
		}
		for _, i := range cr.ProbesFalse {
			alive[i] = false
		}
		in := Instance{Bound: cr.Instance, States: cr.States, Complete: cr.Complete, Limit: cr.Limit, Seconds: time.Since(t).Seconds()}
		if cr.Failure != nil {
			in.Limit = "failure: " + cr.Failure.Obligation
			if r.res.CrossCheckFailure == "" {
				r.res.CrossCheckFailure = cr.Failure.Obligation
			}
		}
		r.res.Instances = append(r.res.Instances, in)
	}
	var survivors []int
	for i, ok := range alive {
		if ok {
			survivors = append(survivors, i)
		}
	}

	return survivors, nil
}

// rounds adds the candidates of texts (among survivors) false at the
// counterexamples of the failing obligations failed0 to the relation and
// proves the edge, round after round; it returns the candidates of the
// last proof, and that proof (nil when none was made).
func (r *repairer) rounds(ctx context.Context, q *ioa.Proof, texts []string, bodies []expr.Expr, survivors []int, failed0 map[string]*cexData) ([]int, *edgeRun, error) {
	// Rounds: the candidates false at a counterexample are added and the
	// edge proved; when no untried candidate is false at any
	// counterexample of the last proof (of the edge's obligations or of
	// the candidates' own), the candidates with an obligation not proved
	// are dropped (Houdini), until the edge proves or nothing changes.
	tried := map[int]bool{}
	var live []int
	failed, candCex := failed0, map[string]*cexData{}
	var last *edgeRun
	dropped := 0
	for round := 0; round < r.o.MaxRounds; round++ {
		var add []int
		for _, i := range append(r.excluding(q, survivors, bodies, failed, true), r.supporting(q, texts, live, survivors, bodies, candCex)...) {
			if !tried[i] {
				tried[i] = true
				add = append(add, i)
			}
		}
		r.res.Excluding += len(add)
		switch {
		case len(add) > 0:
			live = append(live, add...)
		case last == nil:
			round = r.o.MaxRounds
			continue
		default:
			var keep []int
			for k, i := range live {
				if !last.candFailed[k] {
					keep = append(keep, i)
				}
			}
			if len(keep) == len(live) {
				round = r.o.MaxRounds
				continue
			}
			dropped = len(live) - len(keep)
			live = keep
		}
		run, err := r.proveTexts(ctx, texts, live, "houdini")
		if err != nil {
			return nil, nil, err
		}
		r.res.Rounds[len(r.res.Rounds)-1].Dropped, dropped = dropped, 0
		last, failed, candCex = run, run.failed, run.candCex
		if len(failed) == 0 && len(run.candFailed) == 0 {
			break
		}
	}
	return live, last, nil
}

// proveTexts proves the edge with the candidates of texts selected by idx
// added to its relation.
func (r *repairer) proveTexts(ctx context.Context, texts []string, idx []int, phase string) (*edgeRun, error) {
	sel := make([]string, len(idx))
	for k, i := range idx {
		sel[k] = texts[i]
	}
	t := time.Now()
	r.o.Progress(fmt.Sprintf("%s: %d candidates", phase, len(sel)))
	run, err := r.prove(ctx, sel, phase)
	if err != nil {
		return nil, err
	}
	r.res.Rounds = append(r.res.Rounds, RepairRound{Phase: phase, Candidates: len(sel), Obligations: run.total,
		Failed: len(run.failed) + len(run.candFailed), Seconds: time.Since(t).Seconds()})
	return run, nil
}

// candName is the name of the k-th candidate clause while repairing.
func (r *repairer) candName(k int) string { return fmt.Sprintf("%s_c%d", r.o.Prefix, k+1) }

// withClauses returns the proof's text with the clauses cands added at
// the end of its relation, and the line range of each (1-based, in the
// new text).
func (r *repairer) withClauses(cands []string) ([]byte, [][2]int, error) {
	lines := strings.SplitAfter(string(r.orig), "\n")
	at, indent := -1, "  "
	for i, l := range lines {
		if strings.HasPrefix(l, "relation:") {
			at = i + 1
			for at < len(lines) {
				t := strings.TrimRight(lines[at], "\r\n")
				if t != "" && !strings.HasPrefix(t, " ") && !strings.HasPrefix(t, "#") {
					break
				}
				if s := strings.TrimLeft(t, " "); s != "" && at == i+1 {
					indent = t[:len(t)-len(s)]
				}
				at++
			}
			break
		}
	}
	if at < 0 {
		return nil, nil, fmt.Errorf("%w: %s has no relation: section", ErrUsage, r.o.Proof)
	}
	// back over trailing blank lines and comments of the section
	for at > 0 && strings.TrimSpace(lines[at-1]) == "" {
		at--
	}
	var add []string
	var ranges [][2]int
	for k, c := range cands {
		first := at + len(add) + 1
		add = append(add, fmt.Sprintf("%s%s: |\n", indent, r.candName(k)), indent+"  "+c+"\n")
		ranges = append(ranges, [2]int{first, first + 1})
	}
	if at > 0 && !strings.HasSuffix(lines[at-1], "\n") {
		lines[at-1] += "\n"
	}
	out := append(append(append([]string(nil), lines[:at]...), add...), lines[at:]...)
	return []byte(strings.Join(out, "")), ranges, nil
}

// load loads the proof with the clauses cands added; it returns the proof
// and the candidates the loader refused, blamed by line. Errors elsewhere
// are returned.
func (r *repairer) load(cands []string) (*ioa.Proof, map[int]bool, error) {
	invalid := map[int]bool{}
	for {
		var keep []int
		var texts []string
		for i, c := range cands {
			if !invalid[i] {
				keep = append(keep, i)
				texts = append(texts, c)
			}
		}
		text, ranges, err := r.withClauses(texts)
		if err != nil {
			return nil, nil, err
		}
		set, errs := loadConfig(r.lib, map[string][]byte{r.path: text}).Files(r.o.Proof)
		if len(errs) == 0 {
			for _, p := range set.Proofs {
				if abs, err := filepath.Abs(p.File); err == nil && abs == r.path {
					// the refused candidates are absent: give the proof a
					// relation with a clause per candidate again
					return r.padded(p, cands, invalid)
				}
			}
			return nil, nil, fmt.Errorf("%w: %s holds no proof", ErrUsage, r.o.Proof)
		}
		found := false
		var other source.ErrorList
		for _, e := range errs {
			hit := false
			if abs, err := filepath.Abs(e.Pos.File); err == nil && abs == r.path {
				for k, rg := range ranges {
					if e.Pos.Line >= rg[0] && e.Pos.Line <= rg[1] {
						invalid[keep[k]] = true
						hit, found = true, true
					}
				}
			}
			if !hit {
				other = append(other, e)
			}
		}
		if !found {
			return nil, nil, other
		}
	}
}

// padded returns p, loaded with the valid candidates only, with its
// relation's candidate clauses at the positions of all cands (nil bodies
// are never read: the invalid ones are skipped by the caller).
func (r *repairer) padded(p *ioa.Proof, cands []string, invalid map[int]bool) (*ioa.Proof, map[int]bool, error) {
	n := len(p.Relation) - (len(cands) - len(invalid))
	q := *p
	q.Relation = append([]*ioa.Clause(nil), p.Relation[:n]...)
	k := n
	for i := range cands {
		if invalid[i] {
			q.Relation = append(q.Relation, nil)
			continue
		}
		q.Relation = append(q.Relation, p.Relation[k])
		k++
	}
	return &q, invalid, nil
}

// prove proves the edge with the clauses cands added (nil: as written)
// and returns what failed.
func (r *repairer) prove(ctx context.Context, cands []string, phase string) (*edgeRun, error) {
	text := r.orig
	if cands != nil {
		var err error
		if text, _, err = r.withClauses(cands); err != nil {
			return nil, err
		}
	}
	set, errs := loadConfig(r.lib, map[string][]byte{r.path: text}).Files(r.o.Proof)
	if len(errs) > 0 {
		return nil, errs
	}
	var p *ioa.Proof
	for _, q := range set.Proofs {
		if abs, err := filepath.Abs(q.File); err == nil && abs == r.path {
			p = q
		}
	}
	if p == nil {
		return nil, fmt.Errorf("%w: %s holds no proof", ErrUsage, r.o.Proof)
	}
	in, errs := driver.Generate(set)
	if len(errs) > 0 {
		return nil, errs
	}
	edge := simulation.EdgeName(p)
	var obs []*simulation.Obligation
	for _, o := range in.Obligations {
		if o.Edge == edge {
			obs = append(obs, o)
		}
	}
	run := &edgeRun{proof: p, failed: map[string]*cexData{}, candFailed: map[int]bool{}, candCex: map[string]*cexData{}, total: len(obs)}
	if phase == "" {
		r.o.Progress(fmt.Sprintf("edge %s: %d obligations", edge, len(obs)))
	}
	part := &driver.Input{Automata: in.Automata, Obligations: obs, Files: in.Files}
	rep, err := r.prover.Prove(ctx, part)
	if err != nil {
		return nil, err
	}
	// Every obligation of the edge counts: one the run left without a
	// verdict is not proved.
	cexOf := map[string]*report.Counterexample{}
	for _, ro := range rep.Obligations {
		cexOf[ro.ID] = ro.Counterexample
	}
	verdicts := part.Verdicts()
	for _, o := range obs {
		v, ok := verdicts[o.ID]
		if ok && v.Discharged() {
			continue
		}
		var cx *cexData
		if c := cexOf[o.ID]; ok && v == kernel.Refuted && c != nil && len(c.Data) > 0 {
			var d cexData
			if json.Unmarshal(c.Data, &d) == nil {
				cx = &d
			}
		}
		if k, isCand := r.candOf(o.ID); isCand {
			run.candFailed[k] = true
			run.candCex[o.ID] = cx
		} else {
			run.failed[o.ID] = cx
		}
	}
	if len(run.failed) == 0 && len(run.candFailed) == 0 {
		run.needed, run.uses = r.neededCands(obs, verdicts, part.Used())
	}
	for _, o := range obs {
		o.Problem, o.Replay = nil, nil
	}
	return run, nil
}

// candRef finds a candidate's name in an obligation ID: relation(fix_c3)
// or start › fix_c3.
var candRef = regexp.MustCompile(`(?:relation\(|start › )([A-Za-z_][A-Za-z0-9_]*)`)

// candOf returns the index of the candidate whose clause the obligation
// named id proves, if it is one.
func (r *repairer) candOf(id string) (int, bool) {
	m := candRef.FindStringSubmatch(id)
	if m == nil {
		return 0, false
	}
	var k int
	if _, err := fmt.Sscanf(m[1], r.o.Prefix+"_c%d", &k); err != nil || k < 1 || m[1] != r.candName(k-1) {
		return 0, false
	}
	return k - 1, true
}

// The clauses of failing obligations relevant reads: pre(β),
// relation(R), post(x).
var (
	preClause  = regexp.MustCompile(`pre\(([A-Za-z_][A-Za-z0-9_]*)\)$`)
	relClause  = regexp.MustCompile(`relation\(([A-Za-z_][A-Za-z0-9_]*)\)$`)
	postClause = regexp.MustCompile(`post\(([A-Za-z_][A-Za-z0-9_]*)\)$`)
)

// relevant returns the abstract variables the goals of the failing
// obligations read: an abstract step's precondition, a relation clause,
// a post-state variable; every variable for the other clauses.
func (r *repairer) relevant(p *ioa.Proof, failed map[string]*cexData) map[string]bool {
	out := map[string]bool{}
	all := func() {
		for _, v := range p.Abstract.Vars {
			out[v.Name] = true
		}
	}
	readsOf := func(e expr.Expr, obj *expr.Object) {
		expr.VarReads(e, func(o *expr.Object, i int) {
			if obj == nil || o == obj {
				if i >= 0 && i < len(p.Abstract.Vars) {
					out[p.Abstract.Vars[i].Name] = true
				}
			}
		})
	}
	for id := range failed {
		switch {
		case preClause.MatchString(id):
			name := preClause.FindStringSubmatch(id)[1]
			act := p.Abstract.Action(name)
			if act == nil || act.Pre == nil {
				all()
				continue
			}
			readsOf(act.Pre, nil)
		case relClause.MatchString(id):
			cl := p.Clause(relClause.FindStringSubmatch(id)[1])
			if cl == nil {
				all()
				continue
			}
			readsOf(cl.Body, p.A)
		case postClause.MatchString(id):
			out[postClause.FindStringSubmatch(id)[1]] = true
		default:
			all()
		}
	}
	return out
}

// WriteSummary writes the repair's phases and outcome, for stderr.
func (res *RepairResult) WriteSummary(w interface{ Write([]byte) (int, error) }) {
	fmt.Fprintf(w, "ladder infer: repair of %s (%s)\n", res.Edge, res.Proof)
	if res.Status == "proved" {
		fmt.Fprintf(w, "  the edge proves as written: nothing to repair (%.1f s)\n", res.Seconds)
		return
	}
	fmt.Fprintf(w, "  not proved as written: %d obligations (%s)\n", len(res.Failed), strings.Join(res.Failed, "; "))
	fmt.Fprintf(w, "  abstract variables the failing goals read: %s\n", strings.Join(res.Relevant, ", "))
	for _, in := range res.Instances {
		note := ""
		if !in.Complete && in.Limit != "" {
			note = " (" + in.Limit + ")"
		}
		bound := in.Bound
		if bound == "" {
			bound = "(no parameter sorts)"
		}
		fmt.Fprintf(w, "  cross-check %s: %d pairs%s, %.1f s\n", bound, in.States, note, in.Seconds)
	}
	fmt.Fprintf(w, "  candidates: %d generated, %d hold at every pair, %d selected by %d counterexamples\n",
		res.Generated, res.Survived, res.Excluding, res.Counterexamples)
	for _, rd := range res.Rounds {
		drop := ""
		if rd.Dropped > 0 {
			drop = fmt.Sprintf(" (%d dropped)", rd.Dropped)
		}
		fmt.Fprintf(w, "  %s: %d candidates%s, %d obligations, %d not proved, %.1f s\n",
			rd.Phase, rd.Candidates, drop, rd.Obligations, rd.Failed, rd.Seconds)
	}
	if res.CrossCheckFailure != "" {
		fmt.Fprintf(w, "  not repaired: the cross-check refutes %s at a reachable pair, where every candidate clause holds; no relation clause repairs it (ladder crosscheck %s shows the execution) (%.1f s)\n",
			res.CrossCheckFailure, res.Proof, res.Seconds)
		return
	}
	switch res.Status {
	case "repaired":
		fmt.Fprintf(w, "  repaired: the edge proves with %d added %s (%.1f s)\n", len(res.Clauses), plural(len(res.Clauses), "clause", "clauses"), res.Seconds)
	default:
		fmt.Fprintf(w, "  not repaired: %d obligations still fail (%s) (%.1f s)\n", len(res.Remaining), strings.Join(res.Remaining, "; "), res.Seconds)
	}
}

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// WriteJSON writes the result as JSON.
func (res *RepairResult) WriteJSON(w interface{ Write([]byte) (int, error) }) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
