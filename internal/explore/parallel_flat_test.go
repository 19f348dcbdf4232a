package explore

import (
	"fmt"
	"strings"
	"testing"

	"ladder/ioa"
)

// setsFixture: processes set their flag one at a time, at most five of
// them; a state with five flags is final only when T#0's is among them,
// so the first deadlock is at depth 5, and `fewerThanFour` fails at
// depth 4. With T=10 the levels before both hold more than 64 states, so
// that a parallel search expands them in parallel.
const setsFixture = `
automaton: Sets
sorts:
  T: param
state:
  flag: {sort: "Map[T, Bool]", init: const(false)}
  n:    {sort: Nat, init: 0}
actions:
  Set:
    kind: internal
    params: {t: T}
    pre: not flag[t] and n < 5
    eff: |
      flag[t] := true
      n := n + 1
final: n = 5 and flag[T#0]
invariants:
  fewerThanFour: n < 4
  bounded: n <= 5
`

// TestFlatParallel checks that the parallel search with Flat (levelFlat)
// gives the sequential search's result: on TMS2 (counts, depth,
// deadlocks; also against the Runner alone), and on a fixture with a
// violated invariant, a deadlock and a state limit that falls inside a
// batch: traces of the same steps, and the same counts except after an
// invariant's violation (a parallel search checks the new states of a
// batch after storing them all, as levelParallel does).
func TestFlatParallel(t *testing.T) {
	if a := loadTMS2(t); a != nil {
		first := exploreAlike(t, a, "T=2,L=1,V=2", []Config{
			{Workers: 1, NoFlat: true},
			{Workers: 1},
			{Workers: 2, batch: 100},
			{Workers: 3, batch: 1000},
			{Workers: 2, batch: 7, MaxStates: 5000},
		})
		if first.States < 1000 || !first.Complete {
			t.Fatalf("TMS2: %d states, complete %v", first.States, first.Complete)
		}
	}

	fixtures["sets.yaml"] = setsFixture
	a := loadFixture(t, "sets.yaml", "Sets")
	for _, c := range []struct {
		name       string
		invariants []string
		maxStates  int
		steps      int // of the violation (-1: none)
		deadlock   bool
	}{
		{"invariant", nil, 0, 4, false},
		{"deadlock", []string{"bounded"}, 0, 5, true},
		{"limit", []string{"bounded"}, 500, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var results []*Result
			for _, cfg := range []Config{
				{Workers: 1, NoFlat: true},
				{Workers: 1},
				{Workers: 2, batch: 16},
				{Workers: 3},
			} {
				cfg.Instance, cfg.Invariants, cfg.MaxStates = bounds(t, "T=10"), c.invariants, c.maxStates
				res, err := Explore(a, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if res.Flat == cfg.NoFlat {
					t.Errorf("%d workers: Flat used %v", cfg.Workers, res.Flat)
				}
				results = append(results, res)
			}
			for _, res := range results {
				v := res.Violation
				switch {
				case c.steps < 0 && v != nil:
					t.Errorf("%d workers: violation %+v", res.Workers, v)
				case c.steps >= 0 && (v == nil || v.Len() != c.steps || v.Deadlock != c.deadlock):
					t.Errorf("%d workers: violation %+v, want %d steps (deadlock %v)", res.Workers, v, c.steps, c.deadlock)
				case v != nil && fmt.Sprint(v.Steps) != fmt.Sprint(results[0].Violation.Steps):
					t.Errorf("%d workers: trace %v, sequential %v", res.Workers, v.Steps, results[0].Violation.Steps)
				}
				if c.deadlock == (c.steps >= 0) && (res.States != results[0].States || res.Transitions != results[0].Transitions || res.Deadlocks != results[0].Deadlocks) {
					t.Errorf("%d workers: %d states, %d transitions, %d deadlocks; sequential %d %d %d", res.Workers,
						res.States, res.Transitions, res.Deadlocks, results[0].States, results[0].Transitions, results[0].Deadlocks)
				}
			}
		})
	}
}

// metersFixture is countersFixture with meters that count to 7: two full
// ones violate oneFull after 14 steps; with T=6 and symmetry reduction
// the levels before hold more than 64 orbits, which a parallel search
// expands in parallel.
var metersFixture = strings.NewReplacer("Counters", "Meters", "< 3", "< 7", "= 3", "= 7").Replace(countersFixture)

// TestFlatSymmetry checks that a search with Flat and symmetry reduction
// (canonical keys from the bytes, eval.Symmetry.LeastEncoded) finds the
// orbits, the states they hold, and the violations that the search with
// the Runner alone finds, on one worker and on several.
func TestFlatSymmetry(t *testing.T) {
	if a := loadTMS2(t); a != nil {
		var want *Result
		for _, c := range []Config{
			{Workers: 1, NoFlat: true},
			{Workers: 1},
			{Workers: 2, batch: 100},
		} {
			c.Instance, c.Symmetry = bounds(t, "T=2,L=1,V=2"), []string{"T", "V"}
			res, err := Explore(a, c)
			if err != nil {
				t.Fatal(err)
			}
			if res.Flat == c.NoFlat {
				t.Errorf("%+v: Flat used %v", c, res.Flat)
			}
			if want == nil {
				want = res
				if res.Symmetry == nil || res.Symmetry.Represented <= int64(res.States) {
					t.Fatalf("TMS2: %d orbits, symmetry %+v", res.States, res.Symmetry)
				}
				continue
			}
			if res.States != want.States || res.Symmetry.Represented != want.Symmetry.Represented || res.Transitions != want.Transitions ||
				res.Deadlocks != want.Deadlocks || res.MaxDepth != want.MaxDepth {
				t.Errorf("TMS2 %d workers: %d orbits holding %d states, %d transitions, %d deadlocks, depth %d; want %d %d %d %d %d",
					c.Workers, res.States, res.Symmetry.Represented, res.Transitions, res.Deadlocks, res.MaxDepth,
					want.States, want.Symmetry.Represented, want.Transitions, want.Deadlocks, want.MaxDepth)
			}
		}
	}

	fixtures["meters.yaml"] = metersFixture
	a := loadFixture(t, "meters.yaml", "Meters")
	var steps string
	for _, cfg := range []Config{
		{Workers: 1, NoFlat: true},
		{Workers: 1},
		{Workers: 2, batch: 16},
	} {
		cfg.Instance, cfg.Symmetry = bounds(t, "T=6"), []string{"T"}
		res, err := Explore(a, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Flat == cfg.NoFlat {
			t.Errorf("%d workers: Flat used %v", cfg.Workers, res.Flat)
		}
		v := res.Violation
		if v == nil || v.Invariant != "oneFull" || v.Len() != 14 {
			t.Fatalf("%d workers: violation %+v, want oneFull after 14 steps", cfg.Workers, v)
		}
		if steps == "" {
			steps = fmt.Sprint(v.Steps)
		} else if fmt.Sprint(v.Steps) != steps {
			t.Errorf("%d workers: trace %v, with the Runner alone %v", cfg.Workers, v.Steps, steps)
		}
	}
}

// TestRepeated feeds a part's set of successors (flatPart.repeated)
// encodings with repeats, under a hash that gives many encodings one
// value, and enough of them that the set grows: a successor is a repeat
// exactly when an earlier one has its encoding, and only the others are
// kept.
func TestRepeated(t *testing.T) {
	wk := &flatPart{}
	wk.resetSeen()
	seen := map[string]bool{}
	for j := 0; j < 20000; j++ {
		n := j * 7 % 5003 // every encoding comes back
		key := fmt.Sprintf("s%d", n)
		h := uint64(len(key)) // half the encodings collide
		if n%2 == 0 {
			h = uint64(n) << 32
		}
		if got := wk.repeated([]byte(key), h, len(wk.ends)); got != seen[key] {
			t.Fatalf("successor %d (%q, hash %#x): repeated = %v, want %v", j, key, h, got, seen[key])
		} else if !got {
			wk.arena = append(wk.arena, key...)
			wk.ends = append(wk.ends, len(wk.arena))
			wk.hs = append(wk.hs, h)
		}
		seen[key] = true
	}
	if len(wk.ends) != len(seen) {
		t.Fatalf("%d successors kept, want the %d encodings", len(wk.ends), len(seen))
	}
	if len(wk.seen) <= 1<<12 {
		t.Fatalf("the set did not grow: %d slots", len(wk.seen))
	}
	wk.resetSeen()
	if wk.nseen != 0 || wk.repeated(wk.keyAt(0), wk.hs[0], len(wk.ends)) {
		t.Fatal("a reset set still holds successors")
	}
}

// TestDrop adds successors to a part, drops those of the last state (as
// expandFlat does when Flat gives up on it), with and without the set
// growing meanwhile, and checks that the set then holds exactly the
// successors kept before, under a hash that makes probe paths long.
func TestDrop(t *testing.T) {
	for _, later := range []int{3, 3000} { // the second grows the set
		wk := &flatPart{shard: make([][]int32, 2)}
		wk.resetSeen()
		add := func(n int) bool {
			key := fmt.Sprintf("k%d", n)
			h := uint64(n%7) << 32 // seven probe paths
			if wk.repeated([]byte(key), h, len(wk.ends)) {
				return true
			}
			wk.arena = append(wk.arena, key...)
			wk.ends = append(wk.ends, len(wk.arena))
			wk.hs = append(wk.hs, h)
			wk.orbits, wk.acts, wk.rows, wk.pos = append(wk.orbits, 1), append(wk.acts, 0), append(wk.rows, -1), append(wk.pos, 0)
			wk.shard[n%2] = append(wk.shard[n%2], int32(len(wk.ends)-1))
			return false
		}
		for n := 0; n < 1000; n++ {
			add(n)
		}
		n0, size := len(wk.ends), len(wk.seen)
		for n := 1000; n < 1000+later; n++ {
			add(n)
		}
		if grew := len(wk.seen) != size; grew != (later > 1000) {
			t.Fatalf("%d later successors: the set grew %v", later, grew)
		}
		wk.drop(n0, size)
		if len(wk.ends) != n0 || wk.nseen != n0 || len(wk.shard[0])+len(wk.shard[1]) != n0 {
			t.Fatalf("%d later successors: %d kept, %d in the set, %d in shards; want %d", later, len(wk.ends), wk.nseen, len(wk.shard[0])+len(wk.shard[1]), n0)
		}
		wk.arena = wk.arena[:wk.ends[n0-1]]
		for n := 0; n < 1000+later; n++ {
			if got := add(n); got != (n < 1000) {
				t.Fatalf("%d later successors: successor %d repeated = %v after the drop", later, n, got)
			}
		}
	}
}

// climbFixture: counters that climb from 50 past 63, where Flat's
// one-byte integers end, so that Flat gives up on some states half way
// through their successors (Inc of one counter is computed, Inc of
// another leaves the layout) and on every state with a counter above 63;
// with T=3 most levels hold more than 64 states, which a parallel search
// expands with Flat on its workers (levelFlat).
const climbFixture = `
automaton: Climb
sorts:
  T: param
state:
  c: {sort: "Map[T, Int]", init: const(50)}
actions:
  Inc:
    kind: internal
    params: {t: T}
    pre: c[t] < 70
    eff: c[t] := c[t] + 1
  Back:
    kind: internal
    params: {t: T}
    pre: c[t] > 60
    eff: c[t] := c[t] - 3
invariants:
  bounded: c[T#0] <= 70
`

// TestFlatParallelGivesUp checks that a parallel search with Flat, whose
// workers drop what Flat noted of a state it gives up on and expand it
// with the Runner, gives the counts of a search with the Runner alone.
func TestFlatParallelGivesUp(t *testing.T) {
	fixtures["climb.yaml"] = climbFixture
	a := loadFixture(t, "climb.yaml", "Climb")
	first := exploreAlike(t, a, "T=3", []Config{
		{Workers: 1, NoFlat: true},
		{Workers: 1},
		{Workers: 2, batch: 50},
		{Workers: 3, batch: 1000},
	})
	if first.States != 21*21*21 || !first.Complete {
		t.Fatalf("%d states, complete %v", first.States, first.Complete)
	}
}

// exploreAlike explores a at instance with each of configs and checks
// that Flat runs unless NoFlat, and that every result has the counts, the
// depth, the completeness and the limit of the first, or, for a config
// with a state limit, of a sequential search with that limit. It returns
// the first result.
func exploreAlike(t *testing.T, a *ioa.Automaton, instance string, configs []Config) *Result {
	t.Helper()
	var first *Result
	for _, c := range configs {
		c.Instance = bounds(t, instance)
		want := first
		if c.MaxStates > 0 {
			seq, err := Explore(a, Config{Instance: c.Instance, Workers: 1, MaxStates: c.MaxStates})
			if err != nil {
				t.Fatal(err)
			}
			want = seq
		}
		res, err := Explore(a, c)
		if err != nil {
			t.Fatal(err)
		}
		if res.Flat == c.NoFlat {
			t.Errorf("%s %+v: Flat used %v", a.Name, c, res.Flat)
		}
		if first == nil {
			first = res
			continue
		}
		if res.States != want.States || res.Transitions != want.Transitions || res.Deadlocks != want.Deadlocks ||
			res.MaxDepth != want.MaxDepth || res.Complete != want.Complete || res.Limit != want.Limit {
			t.Errorf("%s %+v: %d states, %d transitions, %d deadlocks, depth %d, complete %v %q; want %d %d %d %d %v %q",
				a.Name, c, res.States, res.Transitions, res.Deadlocks, res.MaxDepth, res.Complete, res.Limit,
				want.States, want.Transitions, want.Deadlocks, want.MaxDepth, want.Complete, want.Limit)
		}
	}
	return first
}
