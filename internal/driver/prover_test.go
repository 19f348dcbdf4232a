package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ladder/internal/cache"
	"ladder/internal/kernel"
	"ladder/internal/logic"
	"ladder/internal/report"
	"ladder/simulation"
)

var xc = logic.Const("x", logic.IntSort())

// synthetic returns an input of n invariant obligations over one Int x,
// "A › invariant p<i> › o": obligation i is x > i ⇒ x > 0, valid for
// i >= 0; the ones listed in invalid get hypothesis x > -i-1 instead and are
// refuted.
func synthetic(n int, invalid ...int) *Input {
	bad := map[int]bool{}
	for _, i := range invalid {
		bad[i] = true
	}
	in := &Input{}
	for i := range n {
		lo := int64(i)
		if bad[i] {
			lo = int64(-i - 1)
		}
		key := fmt.Sprintf("automaton:A/invariant:p%d", i)
		in.Obligations = append(in.Obligations, &simulation.Obligation{
			ID:        fmt.Sprintf("A › invariant p%d › o", i),
			Group:     fmt.Sprintf("A › invariant p%d", i),
			Invariant: key,
			Problem: &logic.Problem{Assertions: []logic.Named{
				{Name: "hyp", Term: logic.Gt(xc, logic.IntVal(lo))},
				{Name: "goal", Term: logic.Not(logic.Gt(xc, logic.IntVal(0)))},
			}},
			Deps: []string{"automaton:A/state", key},
			Replay: func(m logic.Model) (*simulation.Counterexample, error) {
				v, err := m.Eval(xc)
				if err != nil {
					return nil, err
				}
				if v.Int64() > lo && v.Int64() <= 0 {
					return &simulation.Counterexample{}, nil
				}
				return nil, errors.New("does not replay")
			},
		})
	}
	return in
}

func prove(t *testing.T, cfg Config, in *Input) (*report.Prove, []string) {
	t.Helper()
	var warnings []string
	cfg.Warn = func(s string) { warnings = append(warnings, s) }
	p, err := NewProver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return rep, warnings
}

// verdictsOf returns "ID=verdict" for every obligation, in report order.
func verdictsOf(r *report.Prove) []string {
	var out []string
	for _, o := range r.Obligations {
		out = append(out, o.ID+"="+o.Verdict)
	}
	return out
}

func TestProveColdWarm(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{CacheDir: dir, Jobs: 3}
	in := synthetic(12, 4, 9)
	cold, w := prove(t, cfg, in)
	if len(w) > 0 {
		t.Errorf("warnings on a fresh cache: %q", w)
	}
	s := cold.Summary
	if s.Obligations != 12 || s.Proved != 10 || s.Refuted != 2 || s.Reused != 0 || s.Rechecked != 12 {
		t.Errorf("cold summary %+v", s)
	}
	// Time in Z3 includes the checks, and the run's time includes it.
	for _, o := range cold.Obligations {
		if o.SolverSeconds <= 0 || o.Z3Seconds < o.SolverSeconds || o.Seconds < o.Z3Seconds {
			t.Errorf("%s: seconds %v, z3_seconds %v, solver_seconds %v; want 0 < solver <= z3 <= seconds", o.ID, o.Seconds, o.Z3Seconds, o.SolverSeconds)
		}
	}
	warm, _ := prove(t, cfg, in)
	s = warm.Summary
	if s.Reused != 12 || s.Rechecked != 0 || s.Proved != 10 || s.Refuted != 2 {
		t.Errorf("warm summary %+v", s)
	}
	if !reflect.DeepEqual(verdictsOf(cold), verdictsOf(warm)) {
		t.Errorf("warm verdicts differ:\n%q\n%q", verdictsOf(cold), verdictsOf(warm))
	}
	for _, o := range warm.Obligations {
		if !o.Cached || o.SolverSeconds != 0 || o.Z3Seconds != 0 {
			t.Errorf("%s: cached=%v solver_seconds=%v z3_seconds=%v on a warm run", o.ID, o.Cached, o.SolverSeconds, o.Z3Seconds)
		}
		if o.Verdict == report.Refuted && o.Counterexample == nil {
			t.Errorf("%s: cached refutation lost its counterexample", o.ID)
		}
	}
	// Sorted by group, then ID; never by completion order.
	want := append([]string(nil), verdictsOf(cold)...)
	if !isSortedByGroup(cold) {
		t.Errorf("report not sorted: %q", want)
	}
	// Invariant statuses follow the verdicts.
	st := map[string]string{}
	for _, inv := range warm.Invariants {
		st[inv.Name] = inv.Status
	}
	if st["p4"] != report.Refuted || st["p0"] != report.Proved || len(st) != 12 {
		t.Errorf("invariant statuses %v", st)
	}
}

func isSortedByGroup(r *report.Prove) bool {
	for i := 1; i < len(r.Obligations); i++ {
		a, b := r.Obligations[i-1], r.Obligations[i]
		if a.Group > b.Group || a.Group == b.Group && a.ID > b.ID {
			return false
		}
	}
	return true
}

func TestProveDeterministicAcrossJobs(t *testing.T) {
	in := synthetic(20, 3, 17)
	strip := func(r *report.Prove) *report.Prove {
		r.Summary.Seconds, r.Summary.SolverSeconds, r.Summary.Z3Seconds = 0, 0, 0
		r.Solver.Workers = 0
		for i := range r.Obligations {
			r.Obligations[i].Seconds, r.Obligations[i].SolverSeconds, r.Obligations[i].Z3Seconds = 0, 0, 0
		}
		return r
	}
	a, _ := prove(t, Config{NoCache: true, Jobs: 1, UnknownDir: t.TempDir()}, in)
	b, _ := prove(t, Config{NoCache: true, Jobs: 8, UnknownDir: t.TempDir()}, in)
	if !reflect.DeepEqual(strip(a), strip(b)) {
		t.Errorf("-j 1 and -j 8 reports differ")
	}
}

func TestProveOnly(t *testing.T) {
	in := synthetic(5)
	r, _ := prove(t, Config{NoCache: true, Only: `p[13] › o$`}, in)
	if got := verdictsOf(r); !reflect.DeepEqual(got, []string{"A › invariant p1 › o=proved", "A › invariant p3 › o=proved"}) {
		t.Errorf("--only selected %q", got)
	}
	st := map[string]string{}
	for _, inv := range r.Invariants {
		st[inv.Name] = inv.Status
	}
	if st["p1"] != report.Proved || st["p0"] != report.NotChecked {
		t.Errorf("statuses with --only: %v", st)
	}
	p, err := NewProver(Config{NoCache: true, Only: "nothing-matches"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Prove(context.Background(), in); !errors.Is(err, ErrNoObligations) {
		t.Errorf("empty selection: err = %v; want ErrNoObligations", err)
	}
	if _, err := NewProver(Config{Only: "("}); err == nil {
		t.Error("invalid pattern accepted")
	}
}

// TestCacheRebuilt checks that a corrupt snapshot and one written by
// another solver version are discarded with one warning each, and that the
// verdicts equal those of a --no-cache run.
func TestCacheRebuilt(t *testing.T) {
	in := synthetic(6, 2)
	want, _ := prove(t, Config{NoCache: true, UnknownDir: t.TempDir()}, in)

	t.Run("corrupt", func(t *testing.T) {
		dir := t.TempDir()
		prove(t, Config{CacheDir: dir}, in)
		path := filepath.Join(dir, cache.SnapshotFile)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x20 // flip a bit in the payload
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, warnings := prove(t, Config{CacheDir: dir}, in)
		if len(warnings) != 1 || !strings.Contains(warnings[0], "is corrupt") || !strings.Contains(warnings[0], "rebuilding") {
			t.Errorf("warnings = %q; want one corrupt-snapshot warning", warnings)
		}
		if got.Summary.Reused != 0 || !reflect.DeepEqual(verdictsOf(got), verdictsOf(want)) {
			t.Errorf("after corruption: reused %d, verdicts %q; want 0 and %q", got.Summary.Reused, verdictsOf(got), verdictsOf(want))
		}
		again, warnings := prove(t, Config{CacheDir: dir}, in)
		if len(warnings) != 0 || again.Summary.Reused != 6 {
			t.Errorf("rebuilt cache: warnings %q, reused %d; want none and 6", warnings, again.Summary.Reused)
		}
	})

	t.Run("other solver version", func(t *testing.T) {
		dir := t.TempDir()
		p, err := NewProver(Config{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		id := p.Kernel().Identity()
		p.Close()
		// A snapshot written by another Z3 with a result for the same text.
		other := cache.SolverID{Name: id.Name, Version: "4.13.0", Params: id.Params}
		c, _, err := cache.Open(dir, other)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Put(cache.KeyOf("whatever", other), cache.Result{Verdict: cache.Proved}); err != nil {
			t.Fatal(err)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		got, warnings := prove(t, Config{CacheDir: dir}, in)
		if len(warnings) != 1 || !strings.Contains(warnings[0], "another configuration") || !strings.Contains(warnings[0], "4.13.0") {
			t.Errorf("warnings = %q; want one version-mismatch warning", warnings)
		}
		if got.Summary.Reused != 0 || !reflect.DeepEqual(verdictsOf(got), verdictsOf(want)) {
			t.Errorf("after mismatch: reused %d, verdicts %q; want 0 and %q", got.Summary.Reused, verdictsOf(got), verdictsOf(want))
		}
	})
}

// TestForgedEntryNotAdmitted plants a "proved" record under the right key
// for a refutable obligation, with another query's certificate: the kernel
// must refuse it and the obligation be re-checked.
func TestForgedEntryNotAdmitted(t *testing.T) {
	dir := t.TempDir()
	in := synthetic(2, 1) // p1 is refutable
	prove(t, Config{CacheDir: dir}, in)
	p, err := NewProver(Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k := p.Kernel()
	q0, _ := k.Prepare(KernelObligation(in.Obligations[0]))
	q1, _ := k.Prepare(KernelObligation(in.Obligations[1]))
	solver := cache.SolverID{Name: k.Identity().Name, Version: k.Identity().Version, Params: k.Identity().Params}
	proved, _ := p.cache.Lookup(cache.KeyOf(q0.Text(), solver)) // p0's genuine proved record
	if err := p.cache.Put(cache.KeyOf(q1.Text(), solver), proved); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	p.cfg.Warn = func(s string) { warnings = append(warnings, s) }
	r, err := p.Prove(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if got := verdictsOf(r); got[1] != "A › invariant p1 › o=refuted" {
		t.Errorf("forged record admitted: %q", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "not admitted") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestDumpSMT(t *testing.T) {
	dump := t.TempDir()
	in := synthetic(3)
	prove(t, Config{NoCache: true, DumpSMT: dump}, in)
	for _, ob := range in.Obligations {
		data, err := os.ReadFile(filepath.Join(dump, kernel.DumpName(ob.ID)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "; ladder obligation: "+ob.ID) || !strings.Contains(string(data), "(check-sat)") {
			t.Errorf("dump of %s:\n%s", ob.ID, data)
		}
	}
}

// TestProveStaged checks ProveStaged against Status followed by Prove,
// after an edit, on two copies of the counter fixture: the report it hands
// over before checking is Status's, the final one is Prove's, and each
// obligation is printed once, not once for each.
func TestProveStaged(t *testing.T) {
	ctx := context.Background()
	type run struct {
		interim, final *report.Prove
		built          int
	}
	do := func(staged bool) run {
		t.Helper()
		dir := copyTestdata(t, "counter")
		p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if rep, err := p.Prove(ctx, planRecorded(t, p, dir)); err != nil || !rep.OK() {
			t.Fatalf("cold: %v %+v", err, rep)
		}
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
		in := planRecorded(t, p, dir)
		var r run
		if staged {
			calls := 0
			r.final, err = p.ProveStaged(ctx, in, func(rep *report.Prove) { r.interim = rep; calls++ })
			if calls != 1 {
				t.Errorf("the cached report was handed over %d times", calls)
			}
			r.built = p.Built()
		} else {
			if r.interim, err = p.Status(ctx, in); err != nil {
				t.Fatal(err)
			}
			r.built = p.Built()
			r.final, err = p.Prove(ctx, in)
			r.built += p.Built()
		}
		if err != nil || !r.final.OK() {
			t.Fatalf("staged=%v: %v %+v", staged, err, r.final)
		}
		return r
	}
	verdicts := func(rep *report.Prove) string {
		var out []string
		for _, o := range rep.Obligations {
			out = append(out, o.ID+"="+o.Verdict)
		}
		for _, e := range rep.Edges {
			out = append(out, e.Name+"="+e.Status)
		}
		for _, i := range rep.Invariants {
			out = append(out, i.Name+"="+i.Status)
		}
		return strings.Join(out, "\n")
	}
	two, one := do(false), do(true)
	if got, want := verdicts(one.interim), verdicts(two.interim); got != want {
		t.Errorf("the staged run's cached report:\n%s\nwant Status's:\n%s", got, want)
	}
	if got, want := verdicts(one.final), verdicts(two.final); got != want {
		t.Errorf("the staged run's report:\n%s\nwant Prove's:\n%s", got, want)
	}
	if len(one.interim.Obligations) >= len(one.final.Obligations) {
		t.Errorf("the cached report has %d obligations of %d: the edit changed none", len(one.interim.Obligations), len(one.final.Obligations))
	}
	if 2*one.built != two.built || one.built == 0 {
		t.Errorf("built %d obligations staged, %d with Status and Prove; want half", one.built, two.built)
	}
}
