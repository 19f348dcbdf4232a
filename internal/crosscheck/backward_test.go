package crosscheck

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ladder/internal/explore"
	"ladder/internal/nodestore"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/simulation"
)

// TestCandidateLookup checks the backward check's candidates against brute
// force, with and without symmetry: the entries are exactly the reachable
// abstract states, each once, and a lookup from a concrete state gives
// exactly the reachable abstract states R relates to it (R evaluated on
// every one). The concrete states are reachable ones and, under symmetry,
// an image of each, since a step's post-state need not be a
// representative. ReservationTMS2→TxnOrdTMS2WithFailures pins most
// variables, pins a.pc where no reservation is pending and filters the
// rest (a.pc, a.okBefore); its related sets have up to several states.
func TestCandidateLookup(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force over every abstract state")
	}
	for _, tc := range []struct {
		file, bound string
		sym         []string
		every       int // sample every that many concrete states
	}{
		{"testdata/choice/ok_backward.yaml", "V=3", nil, 1},
		{"../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "T=2,L=1,V=2", nil, 700},
		{"../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "T=2,L=1,V=2", []string{"T"}, 700},
	} {
		p := loadProof(t, tc.file, "../../specs")
		cfg := bounds(t, tc.bound)
		cfg.Abstract, cfg.Symmetry = AbstractReachable, tc.sym
		x, err := newChecker(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if (x.sym != nil) != (tc.sym != nil) {
			t.Fatalf("%s %v: symmetry %v", tc.file, tc.sym, x.sym)
		}
		cs, err := x.newCandidates()
		if err != nil {
			t.Fatal(err)
		}
		if tc.every > 1 && (len(cs.keyVars) == 0 || len(cs.comps) != 1 || len(cs.filters) == 0) {
			t.Fatalf("%s: %d pinned variables, %d pinned in part, %d filters: the lookup under test does not use them all", tc.file, len(cs.keyVars), len(cs.comps), len(cs.filters))
		}
		meter := explore.NewMeter(explore.Budget{})
		all, complete, err := reachable(x.mA, nil, nodestore.MaxNodes, meter, explore.NewReporter(nil, meter))
		if err != nil || !complete {
			t.Fatal(err, complete)
		}
		// the entries are the reachable states, each once
		if len(cs.rep) != all.Len() {
			t.Fatalf("%s %v: %d entries, %d reachable abstract states", tc.file, tc.sym, len(cs.rep), all.Len())
		}
		entryOf := map[string]int32{}
		for e := range int32(len(cs.rep)) {
			a, err := cs.state(x, e)
			if err != nil {
				t.Fatal(err)
			}
			k := string(x.mA.AppendState(nil, a))
			if _, dup := entryOf[k]; dup || all.Find([]byte(k), all.Hash([]byte(k))) < 0 {
				t.Fatalf("%s %v: entry %d is a repeated or unreachable state", tc.file, tc.sym, e)
			}
			entryOf[k] = e
		}
		absStates := make([]eval.State, all.Len())
		for i := range absStates {
			if absStates[i], err = x.mA.DecodeState(all.Key(i)); err != nil {
				t.Fatal(err)
			}
		}
		conc, _, err := reachable(x.mC, nil, nodestore.MaxNodes, meter, explore.NewReporter(nil, meter))
		if err != nil {
			t.Fatal(err)
		}
		lookups, related, several := 0, 0, 0
		for i := 0; i < conc.Len(); i += tc.every {
			c, err := x.mC.DecodeState(conc.Key(i))
			if err != nil {
				t.Fatal(err)
			}
			probe := []eval.State{c}
			if x.sym != nil {
				probe = append(probe, x.sym.gC.Permute(c, x.sym.gC.Order()-1))
			}
			for _, c := range probe {
				want := map[int32]bool{}
				for _, a := range absStates {
					ok, err := x.relates(&env{c: c, a: a})
					if err != nil {
						t.Fatal(err)
					}
					if ok {
						want[entryOf[string(x.mA.AppendState(nil, a))]] = true
					}
				}
				l, err := x.cands.related(x, c)
				if err != nil {
					t.Fatal(err)
				}
				got := l.rel
				if len(got) != len(want) {
					t.Fatalf("%s %v: concrete state %d: %d related entries, brute force %d", tc.file, tc.sym, i, len(got), len(want))
				}
				for _, e := range got {
					if !want[e] {
						t.Fatalf("%s %v: concrete state %d: entry %d is not related", tc.file, tc.sym, i, e)
					}
				}
				lookups++
				related += len(want)
				if len(want) > 1 {
					several++
				}
			}
		}
		t.Logf("%s %v: %d entries (%d states kept), %d lookups, %d related, %d with several", tc.file, tc.sym, len(cs.rep), cs.enc.Len(), lookups, related, several)
		if several == 0 {
			t.Errorf("%s %v: no lookup has several related states", tc.file, tc.sym)
		}
		if x.sym != nil && cs.enc.Len() >= len(cs.rep) {
			t.Errorf("%s %v: symmetry keeps %d states for %d entries", tc.file, tc.sym, cs.enc.Len(), len(cs.rep))
		}
	}
}

// TestCandidateProgress checks that a backward check reports its progress
// while it explores and indexes its candidates, each under its own phase
// and before the concrete search, whose reports have none.
func TestCandidateProgress(t *testing.T) {
	p := loadProof(t, "../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "../../specs")
	cfg := bounds(t, "T=3,L=1,V=2")
	cfg.Symmetry, cfg.MaxStates, cfg.MaxAbstractStates = []string{"T"}, 2000, 100000
	cfg.progressEvery = time.Nanosecond
	var phases []string
	last := map[string]int{}
	cfg.Progress = func(pr explore.Progress) {
		if len(phases) == 0 || phases[len(phases)-1] != pr.Phase {
			phases = append(phases, pr.Phase)
		}
		if pr.States < last[pr.Phase] {
			t.Errorf("phase %q: %d states after %d", pr.Phase, pr.States, last[pr.Phase])
		}
		last[pr.Phase] = pr.States
	}
	if _, err := Check(p, cfg); err != nil {
		t.Fatal(err)
	}
	t.Logf("phases %q", phases)
	if len(phases) < 2 || phases[0] != "TxnOrdTMS2WithFailures, the candidates" || phases[1] != "TxnOrdTMS2WithFailures, indexing the candidates" {
		t.Fatalf("phases %q: the candidates' exploration and indexing did not report first", phases)
	}
	for i, ph := range phases {
		if ph != "" && i > 0 && phases[i-1] == "" {
			t.Errorf("phases %q: a phase of the candidates after the concrete search", phases)
		}
	}
}

// TestVouchedTotality checks what a backward step vouches for: after
// candidates.each at a concrete state c, vouched holds only where the
// rules find the totality clauses R(c, τ(c)) true, so that the node check
// may skip them there. It holds at most states of an edge that holds and
// at none where the wrong witness of bad_bwd_total fails.
func TestVouchedTotality(t *testing.T) {
	for _, tc := range []struct{ file, bound string }{
		{"testdata/choice/ok_backward.yaml", "V=3"},
		{"testdata/choice/bad_bwd_total.yaml", "V=3"},
		{"../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "T=2,L=1,V=2"},
	} {
		p := loadProof(t, tc.file, "../../specs")
		x, err := newChecker(p, bounds(t, tc.bound))
		if err != nil {
			t.Fatal(err)
		}
		x.totality = x.plansOf(simulation.ClauseTotality)
		cs, err := x.newCandidates()
		if err != nil {
			t.Fatal(err)
		}
		meter := explore.NewMeter(explore.Budget{})
		conc, _, err := reachable(x.mC, nil, 3000, meter, explore.NewReporter(nil, meter))
		if err != nil {
			t.Fatal(err)
		}
		vouched, failing := 0, 0
		for i := 0; i < conc.Len(); i++ {
			c, err := x.mC.DecodeState(conc.Key(i))
			if err != nil {
				t.Fatal(err)
			}
			x.vouched = false
			if err := cs.each(x, c, func(eval.State, int) error { return nil }); err != nil {
				t.Fatal(err)
			}
			v, err := x.firstFailing(map[string]eval.State{"c": c}, nil, x.totality)
			if err != nil {
				t.Fatal(err)
			}
			if v != nil {
				failing++
				if x.vouched {
					t.Fatalf("%s: state %d: vouched, but %s fails", tc.file, i, v.Plan.ID)
				}
			}
			if x.vouched {
				vouched++
			}
		}
		t.Logf("%s: %d states, %d vouched, %d failing totality", tc.file, conc.Len(), vouched, failing)
		if strings.Contains(tc.file, "bad_") == (failing == 0) || vouched == 0 {
			t.Errorf("%s: %d states vouched, %d failing totality", tc.file, vouched, failing)
		}
	}
}

// TestCandidateMemo checks the memo of the backward check's lookups
// against fresh lookups under symmetry: for a concrete state c and each of
// its images π_g(c), the entries the memo gives for π_g(c), from those
// kept for c, are those a lookup from π_g(c) finds, and τ(π_g(c)) is the
// one the memo says (if any); and relatedToPre, at the node's state,
// answers exactly for the states related to it.
func TestCandidateMemo(t *testing.T) {
	for _, tc := range []struct {
		bound       string
		maxAbstract int
		maxConcrete int
		every       int
	}{
		{"T=2,L=1,V=2", 0, nodestore.MaxNodes, 50},
		{"T=3,L=1,V=2", 100000, 3000, 10}, // 6 permutations; the candidates are a part, each orbit whole
	} {
		p := loadProof(t, "../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "../../specs")
		cfg := bounds(t, tc.bound)
		cfg.Abstract, cfg.Symmetry, cfg.MaxAbstractStates = AbstractReachable, []string{"T"}, tc.maxAbstract
		x, err := newChecker(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := x.newCandidates()
		if err != nil {
			t.Fatal(err)
		}
		meter := explore.NewMeter(explore.Budget{})
		conc, _, err := reachable(x.mC, nil, tc.maxConcrete, meter, explore.NewReporter(nil, meter))
		if err != nil {
			t.Fatal(err)
		}
		gC := x.sym.gC
		id, mappedSome, partial, preChecked, taus := 0, 0, 0, 0, 0
		for i := 0; i < conc.Len(); i += tc.every {
			c, err := x.mC.DecodeState(conc.Key(i))
			if err != nil {
				t.Fatal(err)
			}
			key, ties := gC.AppendLeast(nil, c, nil)
			l, err := cs.related(x, c)
			if err != nil {
				t.Fatal(err)
			}
			rel := l.rel
			cs.remember(id, found{rel: rel, tau: l.tau, g: uint16(ties[0]), ok: true})
			for g := 0; g < gC.Order(); g++ {
				cg := gC.Permute(c, g)
				lg, err := cs.related(x, cg)
				if err != nil {
					t.Fatal(err)
				}
				want := lg.rel
				_, tg := gC.AppendLeast(nil, cg, nil)
				f, ok := cs.memoOf(id)
				if !ok {
					t.Fatalf("%s: no memo of node %d", tc.bound, id)
				}
				lm, ok, err := cs.mapped(x, f, tg)
				if err != nil || !ok {
					t.Fatalf("%s: memo of node %d: %v %v", tc.bound, id, ok, err)
				}
				got, tau := lm.rel, lm.tau
				// τ(π_g(c)) is where the memo says among the entries
				tauG, err := x.stateOf(x.total, &env{c: cg})
				if err != nil {
					t.Fatal(err)
				}
				for k, e := range got {
					a, err := cs.state(x, e)
					if err != nil {
						t.Fatal(err)
					}
					if a.Equal(tauG) != (int32(k) == tau) {
						t.Fatalf("%s: concrete state %d, image %d: τ is entry %d of the memo's, but entry %d equals it: %v", tc.bound, i, g, tau, k, a.Equal(tauG))
					}
				}
				if tau >= 0 {
					taus++
				}
				if !sameEntries(got, want) {
					t.Fatalf("%s: concrete state %d, image %d: the memo gives entries %v, a lookup %v", tc.bound, i, g, got, want)
				}
				if len(rel) > 0 && !slices.Contains(tg, ties[0]) {
					mappedSome++
				}
			}
			for _, e := range rel {
				if int(cs.first[cs.rep[e]+1]-cs.first[cs.rep[e]]) < gC.Order() {
					partial++
				}
			}
			// the node's state, as a worker decodes it
			rep, err := x.mC.DecodeState(key)
			if err != nil {
				t.Fatal(err)
			}
			lr, err := cs.related(x, rep)
			if err != nil {
				t.Fatal(err)
			}
			want := lr.rel
			x.pre = preNode{id: id, s: rep}
			for e := int32(0); e < int32(len(cs.rep)); e += int32(max(1, len(cs.rep)/200)) {
				for _, e := range append([]int32{e}, want...) {
					a, err := cs.state(x, e)
					if err != nil {
						t.Fatal(err)
					}
					if got := cs.relatedToPre(x, rep, a); got != slices.Contains(want, e) {
						t.Fatalf("%s: relatedToPre(node %d, entry %d) = %v", tc.bound, id, e, got)
					}
					preChecked++
				}
			}
			if cs.relatedToPre(x, c, cs.base) && !sameState(c, rep) {
				t.Fatalf("%s: relatedToPre answers for a state other than the node's", tc.bound)
			}
			id++
		}
		t.Logf("%s: %d nodes, %d lookups mapped by a permutation, %d related entries of orbits with fewer images than permutations, %d answers of relatedToPre, %d with τ among the entries", tc.bound, id, mappedSome, partial, preChecked, taus)
		if mappedSome == 0 || partial == 0 || taus == 0 {
			t.Errorf("%s: the memo was never mapped (%d) or never met an orbit with fewer images (%d)", tc.bound, mappedSome, partial)
		}
	}
}

// sameEntries reports whether x and y hold the same entries.
func sameEntries(x, y []int32) bool {
	return len(x) == len(y) && !slices.ContainsFunc(x, func(e int32) bool { return !slices.Contains(y, e) })
}

// TestReachableMatchesExplore checks the backward check's exploration of
// the abstract automaton (reachable, batches expanded on several
// goroutines) against the explorer: the same number of states, or of
// orbits under symmetry; that it stores the same encodings in the same
// order whether it runs the automaton on encodings (fast.Flat) or with
// the Runner alone; and that a limit below it stops it, incomplete, at
// the limit.
func TestReachableMatchesExplore(t *testing.T) {
	p := loadProof(t, "../../proofs/ReservationTMS2-TxnOrdTMS2WithFailures.yaml", "../../specs")
	for _, sym := range [][]string{nil, {"T"}} {
		cfg := bounds(t, "T=2,L=1,V=2")
		cfg.Symmetry = sym
		x, err := newChecker(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var g *eval.Symmetry
		if sym != nil {
			g = x.sym.gA
		}
		want, err := explore.Explore(p.Abstract, explore.Config{Instance: cfg.Instance, Symmetry: sym, Invariants: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		meter := explore.NewMeter(explore.Budget{})
		st, complete, err := reachable(x.mA, g, nodestore.MaxNodes, meter, explore.NewReporter(nil, meter))
		if err != nil || !complete || st.Len() != want.States {
			t.Fatalf("%v: reachable finds %d states (complete %v, %v), the explorer %d", sym, st.Len(), complete, err, want.States)
		}
		if _, err := fast.NewFlat(x.mA); err != nil || g != nil && !g.BytesOnly() {
			t.Fatalf("%v: %s does not run on encodings (%v), so the comparison below compares the Runner with itself", sym, p.Abstract.Name, err)
		}
		plain, complete, err := reachableWith(x.mA, g, nodestore.MaxNodes, meter, explore.NewReporter(nil, meter), false)
		if err != nil || !complete || plain.Len() != st.Len() {
			t.Fatalf("%v: with the Runner alone reachable finds %d states (complete %v, %v), on encodings %d", sym, plain.Len(), complete, err, st.Len())
		}
		for i := 0; i < st.Len(); i++ {
			if !bytes.Equal(st.Key(i), plain.Key(i)) {
				t.Fatalf("%v: state %d is %x on encodings, %x with the Runner", sym, i, st.Key(i), plain.Key(i))
			}
		}
		limit := want.States / 3
		st, complete, err = reachable(x.mA, g, limit, meter, explore.NewReporter(nil, meter))
		if err != nil || complete || st.Len() != limit {
			t.Fatalf("%v: with limit %d reachable stops at %d states (complete %v, %v)", sym, limit, st.Len(), complete, err)
		}
		t.Logf("%v: %d states", sym, want.States)
	}
}

// TestMappedWithoutOrbits checks that the memo is not mapped when the
// candidates are states rather than images of orbits (the abstract mode
// all, whose entries have no permutation, under a symmetry of the concrete
// search): a state of the node's orbit other than the one looked up is
// then looked up afresh, and the same state takes the kept entries.
func TestMappedWithoutOrbits(t *testing.T) {
	cs := &candidates{}
	f := found{rel: []int32{3, 5}, tau: 1, g: 2, ok: true}
	if l, ok, err := cs.mapped(nil, f, []int{0, 1}); ok || err != nil {
		t.Fatalf("another state of the orbit: mapped gives %v, %v, %v; want a fresh lookup", l, ok, err)
	}
	l, ok, err := cs.mapped(nil, f, []int{2})
	if !ok || err != nil || !slices.Equal(l.rel, f.rel) || l.tau != 1 {
		t.Fatalf("the same state: mapped gives %v, %v, %v", l, ok, err)
	}
}

// TestRelCache checks the workers' shared cache of lookups: what was put
// is found under its key only, a shard holds at most maxKept entries
// (then it starts afresh), and goroutines may use it at once.
func TestRelCache(t *testing.T) {
	var rc relCache
	key := func(i int) []byte { return []byte(fmt.Sprintf("node-%d", i)) }
	hash := func(i int) uint64 { return uint64(i) * 0x9e3779b97f4a7c15 }
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < 4000; i += 4 {
				rc.put(hash(i), key(i), found{rel: []int32{int32(i)}, tau: -1, ok: true})
				if f, ok := rc.get(hash(i), key(i)); !ok || f.rel[0] != int32(i) {
					t.Errorf("entry %d: got %v, %v", i, f, ok)
				}
			}
		}(g)
	}
	wg.Wait()
	if _, ok := rc.get(hash(1), key(2)); ok {
		t.Errorf("found a key that was not put")
	}
	for i := range rc.shards {
		if n := len(rc.shards[i].m); n > maxKept {
			t.Errorf("shard %d holds %d entries, more than %d", i, n, maxKept)
		}
	}
	for i := 0; i < relShards*maxKept+1; i++ {
		rc.put(uint64(i), key(i), found{ok: true})
	}
	if _, ok := rc.get(0, key(0)); ok {
		t.Errorf("a full shard kept its oldest entry")
	}
	if _, ok := rc.get(uint64(relShards*maxKept), key(relShards*maxKept)); !ok {
		t.Errorf("the newest entry is not found")
	}
}
