package kernel_test

import (
	"encoding/json"
	"ladder/internal/kernel"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ladder/internal/refute"
	"ladder/ioa/load"
	"ladder/simulation"
)

// obligationsOf loads files (relative to the repository root, with
// specs/tm.yaml) and returns the obligations generated for them by ID.
func obligationsOf(t *testing.T, cfg simulation.Config, files ...string) map[string]*simulation.Obligation {
	t.Helper()
	paths := []string{filepath.Join("..", "..", "specs", "tm.yaml")}
	for _, f := range files {
		paths = append(paths, filepath.Join("..", "..", filepath.FromSlash(f)))
	}
	set, errs := load.Files(paths...)
	if len(errs) > 0 {
		t.Fatalf("loading %v:\n%v", files, errs)
	}
	obs, _, errs := simulation.Generate(&set.Hierarchy, cfg)
	if len(errs) > 0 {
		t.Fatalf("generating %v:\n%v", files, errs)
	}
	byID := map[string]*simulation.Obligation{}
	for _, ob := range obs {
		byID[ob.ID] = ob
	}
	return byID
}

// TestBoundedRefutations checks that the negative fixtures of
// specs/testdata (docs/tms2-family.md §8) are refuted in the obligation
// each one is expected to fail, with a replayed counterexample that the
// bounded search finds (Z3 answers unknown without it). The first check
// gets a small resource limit to keep the test short; the search is the
// default one.
func TestBoundedRefutations(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	const wrong = "specs/testdata/TMS2_wrong_invariant.yaml"
	tests := []struct {
		files []string
		inv   string // the automaton whose invariants to generate, "" for edges only
		id    string
		want  []string // substrings of the counterexample text
	}{
		{[]string{wrong}, "TMS2WrongInvariant", "TMS2WrongInvariant › invariant readsAreCurrent › DoRead",
			[]string{"counterexample to TMS2WrongInvariant › invariant readsAreCurrent › DoRead", "fails: invariant: readsAreCurrent(s')", "concrete step: DoRead(T#"}},
		{[]string{wrong}, "TMS2WrongInvariant", "TMS2WrongInvariant › invariant readsAreCurrent › DoCommitWriter",
			[]string{"fails: invariant: readsAreCurrent(s')", "concrete step: DoCommitWriter(T#"}},
		{[]string{"internal/kernel/testdata/TMS2ReadIgnoresValidIdx-TMS2.yaml"}, "", "TMS2ReadIgnoresValidIdx→TMS2 › forward › DoRead › pre(DoRead)",
			[]string{"fails: pre: precondition of DoRead", "concrete step: DoRead(T#"}},
		{[]string{"internal/kernel/testdata/TxnOrdTMS2NoCommitValidation-TMS2.yaml"}, "", "TxnOrdTMS2NoCommitValidation→TMS2 › refinement › DoCommitWriter › pre(DoCommitWriter)",
			[]string{"fails: pre: precondition of DoCommitWriter", "concrete step: DoCommitWriter(T#"}},
		{[]string{"internal/kernel/testdata/ReservationTMS2UnstableCommit-TxnOrdTMS2WithFailures.yaml"}, "", "ReservationTMS2UnstableCommit→TxnOrdTMS2WithFailures › backward › CommitReserved › relation(validated)",
			[]string{"fails: relation: validated", "concrete step: CommitReserved(T#"}},
	}
	k, s := newSession(t, kernel.Config{FirstRLimit: 200_000})
	loaded := map[string]map[string]*simulation.Obligation{}
	for _, tt := range tests {
		key := strings.Join(tt.files, ",") + "|" + tt.inv
		obs := loaded[key]
		if obs == nil {
			cfg := simulation.Config{NoInvariants: tt.inv == ""}
			if tt.inv != "" {
				cfg.Automata = []string{tt.inv}
			}
			obs = obligationsOf(t, cfg, tt.files...)
			loaded[key] = obs
		}
		ob := obs[tt.id]
		if ob == nil {
			t.Errorf("no obligation %s", tt.id)
			continue
		}
		q, err := k.Prepare(fromSim(ob))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r := s.Check(q)
		t.Logf("%s: %v in %.1fs, rlimit %d", tt.id, r.Verdict(), time.Since(start).Seconds(), r.RLimitUsed)
		if r.Verdict() != kernel.Refuted {
			t.Errorf("%s: %v %s; want refuted", tt.id, r.Verdict(), r.Reason)
			continue
		}
		text := r.Counterexample.Text
		for _, w := range append(tt.want, "\n  found in the bounded instance ") {
			if !strings.Contains(text, w) {
				t.Errorf("%s: counterexample lacks %q:\n%s", tt.id, w, text)
			}
		}
		if !r.Cacheable() {
			t.Errorf("%s: a bounded refutation is not cacheable", tt.id)
		}
	}
}

// TestBoundedSearchNeverProves checks that a valid obligation the first
// check cannot decide is not proved by the bounded search, whose instances
// are all unsat, and is proved by the full check after it.
func TestBoundedSearchNeverProves(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	const id = "TMS2 › invariant emptyBeforeBegin › DoRead" // about 6300 rlimit units
	ob := obligationsOf(t, simulation.Config{Automata: []string{"TMS2"}}, "specs/TMS2.yaml")[id]
	if ob == nil {
		t.Fatalf("no obligation %s", id)
	}
	for _, tt := range []struct {
		cfg     kernel.Config
		verdict kernel.Verdict
		reason  string
	}{
		{kernel.Config{RLimit: 1000}, kernel.Unknown, "bounded search: no counterexample in 27 of 27 instances (none with L<=3, T<=3, V<=3)"},
		{kernel.Config{FirstRLimit: 1000}, kernel.Proved, ""},
	} {
		k, s := newSession(t, tt.cfg)
		q, err := k.Prepare(fromSim(ob))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Check(q)
		if r.Verdict() != tt.verdict || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%+v: %v %q; want %v %q", tt.cfg, r.Verdict(), r.Reason, tt.verdict, tt.reason)
		}
	}
}

// TestMinimizedRefutation checks that the counterexample to the wrong
// invariant committedWrote, which Z3 finds directly over large universes
// (L=10, T=4, V=16 with Z3 4.8.12), is replaced by one the bounded search
// finds with at most two elements per parameter sort, that it is replayed
// (Refuted, cacheable) and that its text names the invariant and what it
// was minimized from.
func TestMinimizedRefutation(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	r := checkCommittedWrote(t, kernel.Config{})
	if r.Verdict() != kernel.Refuted {
		t.Fatalf("%v %s; want refuted", r.Verdict(), r.Reason)
	}
	text := r.Counterexample.Text
	for _, w := range []string{"committedWrote", "\n  found in the bounded instance ", "(minimized: the solver's first counterexample had "} {
		if !strings.Contains(text, w) {
			t.Errorf("counterexample lacks %q:\n%s", w, text)
		}
	}
	var data struct {
		Bounded   string `json:"bounded"`
		Minimized string `json:"minimized_from"`
	}
	if err := json.Unmarshal(r.Counterexample.Data, &data); err != nil {
		t.Fatalf("data %s: %v", r.Counterexample.Data, err)
	}
	if data.Minimized == "" {
		t.Errorf("data %s: no minimized_from", r.Counterexample.Data)
	}
	sizes := 0
	for _, part := range strings.Split(data.Bounded, ", ") {
		name, n, ok := strings.Cut(part, "=")
		if !ok || strings.HasPrefix(name, "Int") {
			continue
		}
		sizes++
		if k, err := strconv.Atoi(n); err != nil || k > 2 {
			t.Errorf("bounded instance %q: %s has %q elements; want at most 2", data.Bounded, name, n)
		}
	}
	if sizes != 3 {
		t.Errorf("bounded instance %q: want the sizes of L, T and V", data.Bounded)
	}
	if !r.Cacheable() {
		t.Errorf("a minimized refutation is not cacheable")
	}
}

// fromSim turns an obligation generated by package simulation into the
// kernel's, as the driver does.
func fromSim(o *simulation.Obligation) *kernel.Obligation {
	if o == nil {
		return nil
	}
	return &kernel.Obligation{ID: o.ID, Pos: o.Pos, Problem: o.Problem, Replay: o.Replay}
}

// TestNoMinimize checks that with SearchConfig.NoMinimize the refutation
// of the obligation of TestMinimizedRefutation keeps the solver's
// counterexample, replayed, with no bounded instance and nothing it was
// minimized from.
func TestNoMinimize(t *testing.T) {
	if testing.Short() {
		t.Skip("solver test")
	}
	r := checkCommittedWrote(t, kernel.Config{Search: kernel.SearchConfig{NoMinimize: true}})
	if r.Verdict() != kernel.Refuted || !r.Cacheable() {
		t.Fatalf("%v %s (cacheable %v); want a cacheable refutation", r.Verdict(), r.Reason, r.Cacheable())
	}
	if text := r.Counterexample.Text; !strings.Contains(text, "committedWrote") || strings.Contains(text, "minimized") {
		t.Errorf("counterexample, not minimized:\n%s", text)
	}
	var data struct {
		Minimized string `json:"minimized_from"`
	}
	if err := json.Unmarshal(r.Counterexample.Data, &data); err != nil || data.Minimized != "" {
		t.Errorf("data %s: %v, minimized_from %q", r.Counterexample.Data, err, data.Minimized)
	}
}

// checkCommittedWrote checks, with a kernel of configuration cfg, the
// obligation of the wrong invariant committedWrote at CommitResp, which Z3
// refutes over large universes.
func checkCommittedWrote(t *testing.T, cfg kernel.Config) kernel.Result {
	t.Helper()
	const id = "TMS2WrongInvariant › invariant committedWrote › CommitResp"
	ob := obligationsOf(t, simulation.Config{Automata: []string{"TMS2WrongInvariant"}}, "specs/testdata/TMS2_wrong_invariant.yaml")[id]
	if ob == nil {
		t.Fatalf("no obligation %s", id)
	}
	k, s := newSession(t, cfg)
	q, err := k.Prepare(fromSim(ob))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := s.Check(q)
	t.Logf("%s: %v in %.1fs, rlimit %d", id, r.Verdict(), time.Since(start).Seconds(), r.RLimitUsed)
	return r
}

// newSession returns a kernel of configuration cfg, with the bounded
// search, and a session of it, closed when the test ends.
func newSession(t testing.TB, cfg kernel.Config) (*kernel.Kernel, *kernel.Session) {
	t.Helper()
	k, err := kernel.New(cfg, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	s, err := k.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return k, s
}
