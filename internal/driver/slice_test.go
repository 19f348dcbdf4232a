package driver

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/logic"
	"ladder/internal/report"
)

func TestRelevantSlice(t *testing.T) {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	pc, cnt, other := logic.Const("c.pc", arr), logic.Const("c.cnt", arr), logic.Const("a.other", arr)
	pt := logic.Const("p.t", T)
	x := logic.Var("x", T)
	ge := func(a *logic.Term) *logic.Term {
		return logic.Forall([]*logic.Term{x}, logic.Ge(logic.Select(a, x), logic.IntVal(0)))
	}
	p := &logic.Problem{Assertions: []logic.Named{
		{Name: "wf(c.pc)", Term: ge(pc)},
		{Name: "assume A.pcPos(c)", Term: ge(pc)},
		{Name: "assume A.cntPos(c)", Term: ge(cnt)},
		{Name: "assume B.otherPos(a)", Term: ge(other)},
		{Name: "pre Step(c, p)", Term: logic.Ge(logic.Select(cnt, pt), logic.IntVal(1))},
		{Name: "cntRel(c, a)", Term: logic.Eq(cnt, other)},
		{Name: "goal (negated)", Term: logic.Not(logic.Ge(logic.Select(pc, pt), logic.IntVal(0)))},
	}}
	// The invariants over cnt and other, and the relation clause over
	// them, share no state variable with the goal (p.t, a parameter, does
	// not count): the narrow slice drops all three, the wide one the
	// invariants only; everything else stays.
	if got, want := relevantSlices(p, false), [][]int{{0, 1, 4, 6}, {0, 1, 4, 5, 6}}; !reflect.DeepEqual(got, want) {
		t.Errorf("relevantSlices = %v; want %v", got, want)
	}
	// Only invariants to drop: one slice.
	q := &logic.Problem{Assertions: append(append([]logic.Named(nil), p.Assertions[:5]...), p.Assertions[6])}
	if got, want := relevantSlices(q, false), [][]int{{0, 1, 4, 5}}; !reflect.DeepEqual(got, want) {
		t.Errorf("relevantSlices = %v; want %v", got, want)
	}
	// Only a relation clause to drop: one slice.
	q.Assertions = append(append([]logic.Named(nil), p.Assertions[:2]...), p.Assertions[4:]...)
	if got, want := relevantSlices(q, false), [][]int{{0, 1, 2, 4}}; !reflect.DeepEqual(got, want) {
		t.Errorf("relevantSlices = %v; want %v", got, want)
	}
	// Invariants a strategy chose are kept: only the relation clause goes.
	if got, want := relevantSlices(p, true), [][]int{{0, 1, 2, 3, 4, 6}}; !reflect.DeepEqual(got, want) {
		t.Errorf("relevantSlices with chosen invariants = %v; want %v", got, want)
	}
	// Nothing to drop: no slice.
	q.Assertions = append(append([]logic.Named(nil), p.Assertions[:2]...), p.Assertions[4], p.Assertions[6])
	if got := relevantSlices(q, false); got != nil {
		t.Errorf("relevantSlices = %v; want nil when every hypothesis is relevant", got)
	}
	for name, want := range map[string]bool{"c.pc": true, "s.mems.len": true, "p.t": false, "TMS2::v0": false, "V#0": false} {
		if stateVar(name) != want {
			t.Errorf("stateVar(%q) = %v", name, !want)
		}
	}
}

// TestSliceReuse edits an invariant without changing its meaning: the
// text of its own obligations changes, and so does that of every
// obligation that assumes it. Those whose proof was a slice without the
// invariant (their goal shares no state variable with it) are proved again
// from the cached proof of that slice, unchanged, without the solver;
// the others are re-checked. Without slices, every changed text is
// re-checked.
func TestSliceReuse(t *testing.T) {
	for _, noSlices := range []bool{false, true} {
		dir := copyTestdata(t, "counter")
		cfg := Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, Kernel: kernel.Config{NoSlices: noSlices}}
		p, err := NewProver(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		in := loadDir(t, dir)
		first, err := p.Prove(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		// What each obligation's next check starts with: the check that
		// proved it (kernel.Obligation.First).
		prior := map[string]*kernel.Attempt{}
		for _, o := range first.Obligations {
			if o.Verdict == report.Proved {
				a := p.priorAttempt(o.ID)
				if a == nil || a.Slice != o.Slice || a.Solver == "" {
					t.Errorf("noSlices=%v: %s, proved by slice %d, has the prior attempt %+v", noSlices, o.ID, o.Slice, a)
				}
				prior[o.ID] = a
			}
		}
		keys := func(in *Input) map[string]string {
			m := map[string]string{}
			for _, o := range in.Obligations {
				if g, ok := p.cache.Generated(o.ID); ok {
					m[o.ID] = g.Key
				}
			}
			return m
		}
		before := keys(in)
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
		in = loadDir(t, dir)
		after, err := p.Prove(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if s := after.Summary; s.Proved+s.Trivial != s.Obligations {
			t.Fatalf("noSlices=%v: after the edit %+v; want everything proved", noSlices, s)
		}
		now := keys(in)
		trivial := map[string]bool{}
		for _, o := range after.Obligations {
			trivial[o.ID] = o.Verdict == report.Trivial
		}
		changed := map[string]bool{}
		for id, k := range now {
			if before[id] != k && !trivial[id] {
				changed[id] = true
			}
		}
		var fromSlice []string
		for _, id := range rechecked(after) {
			if !changed[id] {
				t.Errorf("noSlices=%v: %s re-checked, but its text did not change", noSlices, id)
			}
		}
		rc := map[string]bool{}
		for _, id := range rechecked(after) {
			rc[id] = true
		}
		for _, o := range after.Obligations {
			// The new text is proved by the check that proved the old one,
			// which Check tries first.
			if rc[o.ID] && prior[o.ID] != nil && o.Slice != prior[o.ID].Slice {
				t.Errorf("noSlices=%v: %s proved by slice %d; its prior attempt was %+v", noSlices, o.ID, o.Slice, prior[o.ID])
			}
		}
		for id := range changed {
			if !rc[id] {
				fromSlice = append(fromSlice, id)
			}
		}
		sort.Strings(fromSlice)
		for _, id := range fromSlice {
			if strings.Contains(id, "sumNonNeg") {
				t.Errorf("noSlices=%v: %s, an obligation of the edited invariant, was not re-checked", noSlices, id)
			}
		}
		switch {
		case noSlices && len(fromSlice) > 0:
			t.Errorf("without slices, changed texts were not re-checked: %q", fromSlice)
		case !noSlices && !slices.Contains(fromSlice, "Buffered › invariant bufRange › Stage"):
			t.Errorf("bufRange › Stage, whose goal shares nothing with sumNonNeg, was not proved from its slice; from slices: %q; re-checked %q", fromSlice, rechecked(after))
		}
		p.Close()
	}
}

// TestCoreReuse checks unsat cores across edits: an edit re-checks the
// obligations whose text changed and records the proof of each one's
// unsat core with its verdict; after a further edit of the same invariant,
// exactly those whose core holds an assertion that changed are checked
// again, and the others are proved from their core's proof. With cores
// off, none is recorded and the second edit re-checks what the first did.
func TestCoreReuse(t *testing.T) {
	for _, noCores := range []bool{false, true} {
		dir, p, prove := counterProver(t, noCores)
		prove()
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
		first := rechecked(prove())
		if len(first) == 0 {
			t.Fatal("the edit re-checked nothing")
		}
		planRecorded(t, p.Prover, dir) // reads the records the edit's run wrote
		cores := map[string][]string{}
		for _, id := range first {
			if c := p.keys.priorCore(id); c != nil && len(c.Names) > 0 {
				cores[id] = c.Names
			}
		}
		if noCores != (len(cores) == 0) {
			t.Fatalf("noCores=%v: cores %v", noCores, cores)
		}
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0")
		second := map[string]bool{}
		for _, id := range rechecked(prove()) {
			second[id] = true
		}
		if noCores {
			if len(second) != len(first) {
				t.Errorf("without cores the second edit re-checked %d obligations, the first %d", len(second), len(first))
			}
			p.Close()
			continue
		}
		// what the edit changes: the assumption of sumNonNeg, and the
		// goal of sumNonNeg's own obligations
		changed := func(id, name string) bool {
			return strings.Contains(name, "sumNonNeg") || strings.HasPrefix(name, "goal") && strings.Contains(id, "invariant sumNonNeg")
		}
		kept := 0
		for id, names := range cores {
			touched := slices.ContainsFunc(names, func(n string) bool { return changed(id, n) })
			if touched != second[id] {
				t.Errorf("%s: core %q, re-checked %v after the second edit", id, names, second[id])
			}
			if !touched {
				kept++
			}
		}
		if kept == 0 {
			t.Errorf("no core leaves the edited invariant out: %v", cores)
		}
		p.Close()
	}
}

// TestColdCores checks the cores that come with the kernel's first checks
// (kernel.Result.Used): a cold run records them, without a search of its
// own; an edit then re-checks each obligation whose text changed by its
// core first, so that one whose core leaves the edited invariant out is
// proved by that subset and keeps its proof; and a second edit of the
// invariant re-checks none of those. With cores off, a cold run records
// none.
func TestColdCores(t *testing.T) {
	for _, noCores := range []bool{false, true} {
		dir, p, prove := counterProver(t, noCores)
		cold := prove()
		used := p.lastIn.Used()
		planRecorded(t, p.Prover, dir)
		cores := map[string][]string{}
		for _, o := range cold.Obligations {
			if c := p.keys.priorCore(o.ID); c != nil && len(c.Names) > 0 {
				if c.Key != "" {
					t.Errorf("%s: a cold run's core has a proof of its own", o.ID)
				}
				cores[o.ID] = c.Names
			}
		}
		for id, names := range cores {
			if !slices.Equal(used[id], names) {
				t.Errorf("%s: Input.Used %q; want its core %q", id, used[id], names)
			}
		}
		if noCores {
			if len(cores) > 0 {
				t.Errorf("cores off, yet %d recorded", len(cores))
			}
			p.Close()
			continue
		}
		proved := 0
		for _, o := range cold.Obligations {
			if o.Verdict == report.Proved {
				proved++
			}
		}
		if len(cores) < proved/2 {
			t.Fatalf("a cold run recorded cores for %d of %d proved obligations", len(cores), proved)
		}
		changed := func(id, name string) bool {
			return strings.Contains(name, "sumNonNeg") || strings.HasPrefix(name, "goal") && strings.Contains(id, "invariant sumNonNeg")
		}
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
		first := prove()
		planRecorded(t, p.Prover, dir)
		untouched := 0
		for _, o := range first.Obligations {
			names, ok := cores[o.ID]
			if o.Cached || !ok || slices.ContainsFunc(names, func(n string) bool { return changed(o.ID, n) }) {
				continue
			}
			untouched++
			c := p.keys.priorCore(o.ID)
			if o.Slice == 0 || c == nil || c.Key == "" || !slices.Equal(c.Names, names) {
				t.Errorf("%s: core %q, which the edit left alone, did not prove it (slice %d, core now %+v)", o.ID, names, o.Slice, c)
			}
		}
		if untouched == 0 {
			t.Fatalf("the edit re-checked no obligation whose core leaves sumNonNeg out; re-checked %q", rechecked(first))
		}
		edit(t, filepath.Join(dir, "impl.yaml"), "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0")
		for _, id := range rechecked(prove()) {
			if names, ok := cores[id]; ok && !slices.ContainsFunc(names, func(n string) bool { return changed(id, n) }) {
				t.Errorf("%s: re-checked by the second edit, though its core %q leaves the edited invariant out", id, names)
			}
		}
		p.Close()
	}
}

// TestCoreKeptThroughCache checks that an obligation decided from the
// verdict cache alone, its unit record having moved on to another text,
// keeps the core of its last verdict: after an edit, an edit back (every
// verdict in the cache) and a third edit, the third re-checks what the
// second did, not every obligation whose text changed.
func TestCoreKeptThroughCache(t *testing.T) {
	dir, p, prove := counterProver(t, false)
	defer p.Close()
	impl := filepath.Join(dir, "impl.yaml")
	prove()
	edit(t, impl, "sumNonNeg: sum >= 0", "sumNonNeg: 0 <= sum")
	prove()
	edit(t, impl, "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0")
	second := rechecked(prove())
	edit(t, impl, "sumNonNeg: 0 <= sum + 0", "sumNonNeg: 0 <= sum")
	if back := rechecked(prove()); len(back) > 0 {
		t.Fatalf("the edit back re-checked %q", back)
	}
	edit(t, impl, "sumNonNeg: 0 <= sum", "sumNonNeg: 0 <= sum + 0 + 0")
	if third := rechecked(prove()); !slices.Equal(third, second) {
		t.Errorf("the third edit re-checked %q; the second, with the same cores, %q", third, second)
	}
}

// counterProver copies the counter fixture and returns its directory, a
// prover with a cache of its own (cores off with noCores), and a function
// that plans and proves the copy, fails the test unless everything is
// proved, and returns the report (the input proved is then in lastIn).
func counterProver(t *testing.T, noCores bool) (string, *counterRun, func() *report.Prove) {
	t.Helper()
	dir := copyTestdata(t, "counter")
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, NoCores: noCores})
	if err != nil {
		t.Fatal(err)
	}
	r := &counterRun{Prover: p}
	return dir, r, func() *report.Prove {
		t.Helper()
		r.lastIn = planRecorded(t, p, dir)
		rep, err := p.Prove(context.Background(), r.lastIn)
		if err != nil || !rep.OK() {
			t.Fatalf("noCores=%v: %v %+v", noCores, err, rep)
		}
		return rep
	}
}

// counterRun is counterProver's prover with the input it proved last.
type counterRun struct {
	*Prover
	lastIn *Input
}
