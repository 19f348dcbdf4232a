package strategies

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ladder/internal/kernel"
	"ladder/internal/refute"
	"ladder/internal/smt"
	"ladder/ioa"
	"ladder/simulation"
)

// tms2Indexed are TMS2's transaction-indexed invariants (forall t: T. …).
var tms2Indexed = []string{"beginIdxBound", "emptyBeforeBegin", "readRespValue"}

// TestTMS2Parametrized applies parametrized to TMS2's transaction-indexed
// invariants: two obligations per action (case u=t, case u≠t), all
// proved, whose only quantified assertions are the background facts and
// preconditions listed in quantifiedInTMS2.
func TestTMS2Parametrized(t *testing.T) {
	strat := map[string]string{}
	for _, inv := range tms2Indexed {
		strat["TMS2.yaml/"+inv] = "[parametrized: [u]]"
	}
	set, _ := withStrategies(t, []string{"tm.yaml", "TMS2.yaml"}, strat)
	obls := generate(t, set, true)
	census := map[string][]string{}
	for _, inv := range tms2Indexed {
		group := "TMS2 › invariant " + inv
		got := ids(obls, group)
		if len(got) != 13*2+1 {
			t.Errorf("%s: %d obligations, want 27", group, len(got))
		}
		for _, o := range obls {
			if o.Group != group {
				continue
			}
			if o.Clause != simulation.ClauseStart && !strings.HasSuffix(o.ID, "case u=t") && !strings.HasSuffix(o.ID, "case u≠t") {
				t.Errorf("unexpected obligation %s", o.ID)
			}
			for _, q := range quantified(o) {
				census[q] = append(census[q], strings.TrimPrefix(o.ID, "TMS2 › invariant "))
				if o.Clause != simulation.ClauseStart && !quantifiedInTMS2[strings.SplitN(q, "(", 2)[0]] {
					t.Errorf("%s: assertion %q has a quantifier", o.ID, q)
				}
			}
			if st, cex, _ := decide(t, o); st != smt.Unsat {
				t.Errorf("%s: %v\n%v", o.ID, st, cex)
			}
		}
	}
	var names []string
	for q := range census {
		names = append(names, q)
	}
	sort.Strings(names)
	for _, q := range names {
		t.Logf("quantified: %-40s in %d obligations", q, len(census[q]))
	}
}

// quantifiedInTMS2 are the assertions of TMS2's parametrized obligations
// that keep a quantifier (by name up to the first parenthesis): the
// well-formedness of the sequence mems (every index outside its length
// holds the default), the Nat condition of the map beginIdx (every
// transaction's entry), and the preconditions whose rdSet[t] subset
// mems[n] (or latestMem) ranges over locations.
var quantifiedInTMS2 = map[string]bool{
	"wf":                    true,
	"nat TMS2.beginIdx:Nat": true,
	"pre DoRead":            true,
	"pre DoCommitReadOnly":  true,
	"pre DoCommitWriter":    true,
	"lambda":                true,
}

// TestMeasureTMS2 prints, for each transaction-indexed invariant of TMS2,
// the solver's resource use and time per action with and without
// parametrized. It runs with LADDER_MEASURE=1.
func TestMeasureTMS2(t *testing.T) {
	if os.Getenv("LADDER_MEASURE") == "" {
		t.Skip("set LADDER_MEASURE=1")
	}
	strat := map[string]string{}
	for _, inv := range tms2Indexed {
		strat["TMS2.yaml/"+inv] = "[parametrized: [u]]"
	}
	set, _ := withStrategies(t, []string{"tm.yaml", "TMS2.yaml"}, strat)
	measure(t, generate(t, set, false), generate(t, set, true), tms2Indexed, "TMS2")
}

// TestMeasureSpecs is TestMeasureTMS2 for every transaction-indexed
// invariant of the automaton in LADDER_MEASURE_SPEC (a file of specs/),
// with the strategy LADDER_MEASURE_STRATEGY (default [parametrized]).
func TestMeasureSpecs(t *testing.T) {
	file := os.Getenv("LADDER_MEASURE_SPEC")
	if file == "" {
		t.Skip("set LADDER_MEASURE_SPEC=ReservationTMS2.yaml")
	}
	strategy := os.Getenv("LADDER_MEASURE_STRATEGY")
	if strategy == "" {
		strategy = "[parametrized]"
	}
	set, _ := withStrategies(t, []string{"tm.yaml", file}, nil)
	a := set.Automata[len(set.Automata)-1]
	strat := map[string]string{}
	var invs []string
	only := os.Getenv("LADDER_MEASURE_ONLY")
	for _, inv := range a.Invariants {
		if _, why := ioa.ParametrizedBinders(inv.Body); why == "" && (only == "" || contains(strings.Split(only, ","), inv.Name)) {
			strat[file+"/"+inv.Name] = strategy
			invs = append(invs, inv.Name)
		}
	}
	set, _ = withStrategies(t, []string{"tm.yaml", file}, strat)
	measure(t, generate(t, set, false), generate(t, set, true), invs, a.Name)
}

// measure decides the step obligations of the named invariants of
// automaton auto without and with strategies with the kernel, as ladder
// prove does (default rlimit and seed, a fresh Z3 context per obligation,
// 8 workers or LADDER_MEASURE_J), and prints the resource use and solver time (Z3's check
// alone) per invariant and action, summed over the obligations.
func measure(t *testing.T, plain, strat []*simulation.Obligation, invs []string, auto string) {
	type row struct {
		rlimit uint64
		secs   float64
		n      int
		status []string
	}
	run := func(obls []*simulation.Obligation) map[string]*row {
		var sel []*simulation.Obligation
		for _, o := range obls {
			if contains(invs, strings.TrimPrefix(o.Group, auto+" › invariant ")) && o.Clause != simulation.ClauseStart {
				sel = append(sel, o)
			}
		}
		type result struct {
			o    *simulation.Obligation
			st   kernel.Verdict
			rl   uint64
			secs float64
		}
		k, err := kernel.New(kernel.Config{}, t.TempDir(), refute.New())
		if err != nil {
			t.Fatal(err)
		}
		jobs, results := make(chan *simulation.Obligation), make(chan result)
		var wg sync.WaitGroup
		workers := 8
		if n, err := strconv.Atoi(os.Getenv("LADDER_MEASURE_J")); err == nil && n > 0 {
			workers = n
		}
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ss, err := k.NewSession()
				if err != nil {
					t.Error(err)
					return
				}
				defer ss.Close()
				for o := range jobs {
					q, err := k.Prepare(&kernel.Obligation{ID: o.ID, Pos: o.Pos, Problem: o.Problem, Replay: o.Replay})
					if err != nil {
						t.Error(err)
						continue
					}
					r := ss.Check(q)
					results <- result{o, r.Verdict(), r.RLimitUsed, r.SolverSeconds}
				}
			}()
		}
		go func() {
			for _, o := range sel {
				jobs <- o
			}
			close(jobs)
			wg.Wait()
			close(results)
		}()
		out := map[string]*row{}
		for r := range results {
			key := strings.TrimPrefix(r.o.Group, auto+" › invariant ") + " › " + r.o.Action
			x := out[key]
			if x == nil {
				x = &row{}
				out[key] = x
			}
			x.secs += r.secs
			x.rlimit += r.rl
			x.n++
			if r.st != kernel.Proved {
				x.status = append(x.status, fmt.Sprintf("[%s: %v]", strings.TrimPrefix(r.o.ID, r.o.Group+" › "), r.st))
			}
		}
		return out
	}
	before, after := run(plain), run(strat)
	var keys []string
	for k := range before {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type tot struct {
		rb, ra uint64
		tb, ta float64
		nb, na int
	}
	byInv := map[string]*tot{}
	var all tot
	t.Logf("%-44s %10s %8s | %3s %10s %8s", "invariant › action", "rlimit", "seconds", "n", "rlimit", "seconds")
	for _, k := range keys {
		b, a := before[k], after[k]
		if a == nil {
			a = &row{}
		}
		inv, _, _ := strings.Cut(k, " › ")
		x := byInv[inv]
		if x == nil {
			x = &tot{}
			byInv[inv] = x
		}
		for _, y := range []*tot{x, &all} {
			y.rb, y.ra, y.tb, y.ta, y.nb, y.na = y.rb+b.rlimit, y.ra+a.rlimit, y.tb+b.secs, y.ta+a.secs, y.nb+b.n, y.na+a.n
		}
		t.Logf("%-44s %10d %8.3f | %3d %10d %8.3f %s %s", k, b.rlimit, b.secs, a.n, a.rlimit, a.secs, strings.Join(b.status, " "), strings.Join(a.status, " "))
	}
	t.Logf("per invariant (obligations, rlimit, seconds): without | with")
	for _, inv := range invs {
		if x := byInv[inv]; x != nil {
			t.Logf("%-24s %4d %10d %8.3f | %4d %10d %8.3f", inv, x.nb, x.rb, x.tb, x.na, x.ra, x.ta)
		}
	}
	t.Logf("%-24s %4d %10d %8.3f | %4d %10d %8.3f", "total", all.nb, all.rb, all.tb, all.na, all.ra, all.ta)
}
