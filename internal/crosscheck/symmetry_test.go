package crosscheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/load"
)

// TestSymmetryRefutedFixtures checks the refuted proof fixtures of
// algorithms/testdata with and without --symmetry T: the same obligation
// fails after an execution of the same length, the execution reported
// with symmetry is a real one (it replays from a start state), and the
// reduced search stores no more nodes than the full one.
func TestSymmetryRefutedFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	files, err := filepath.Glob("../../algorithms/testdata/*-*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			p := loadProof(t, f, "../../specs", "../../algorithms", "../../algorithms/testdata")
			bound, sorts := "T=2,L=1,V=2", []string{"T"}
			if strings.HasPrefix(filepath.Base(f), "DSTMCommitAtCas-") {
				// fails on two locations only
				bound, sorts = "T=2,L=2,V=2", []string{"T", "L"}
			}
			cfg := bounds(t, bound)
			cfg.Workers = 2
			plain, err := Check(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Symmetry = sorts
			sym, err := Check(p, cfg)
			var se *explore.SymmetryError
			if errors.As(err, &se) {
				t.Skipf("not symmetric: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if plain.Failure == nil || sym.Failure == nil {
				t.Fatalf("want a failure with and without symmetry; got %v and %v", plain.Failure != nil, sym.Failure != nil)
			}
			if plain.Failure.Obligation != sym.Failure.Obligation {
				t.Errorf("obligation %s without symmetry, %s with it", plain.Failure.Obligation, sym.Failure.Obligation)
			}
			if plain.Failure.Trace.Len() != sym.Failure.Trace.Len() {
				t.Errorf("a trace of %d steps without symmetry, %d with it", plain.Failure.Trace.Len(), sym.Failure.Trace.Len())
			}
			if sym.States > plain.States {
				t.Errorf("%d nodes with symmetry, %d without", sym.States, plain.States)
			}
			replays(t, p, cfg, sym.Failure.Trace)
			t.Logf("%s: %d steps; %d nodes, %d with symmetry", sym.Failure.Obligation, sym.Failure.Trace.Len(), plain.States, sym.States)
		})
	}
}

// replays checks that tr is an execution of the explored automaton of p
// (C, or A for history mappings) from one of its start states.
func replays(t *testing.T, p *ioa.Proof, cfg Config, tr *explore.Trace) {
	t.Helper()
	a := p.Concrete
	if p.Kind == ioa.ProofHistory {
		a = p.Abstract
	}
	m, err := explore.Machine(a, explore.Config{Instance: cfg.Instance})
	if err != nil {
		t.Fatal(err)
	}
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	enc := func(s eval.State) string { return string(m.AppendState(nil, s)) }
	start := false
	for _, s := range inits {
		start = start || enc(s) == enc(tr.Steps[0].State)
	}
	if !start {
		t.Fatalf("the trace does not begin in a start state")
	}
	for i := 1; i < len(tr.Steps); i++ {
		st := tr.Steps[i]
		post, ok, err := m.Step(st.Act, tr.Steps[i-1].State, st.Params)
		if err != nil || !ok || enc(post) != enc(st.State) {
			t.Fatalf("step %d (%s) does not replay: %v %v", i, st.Action, ok, err)
		}
	}
}

// TestSymmetryPasses checks that an edge that holds still holds with
// symmetry reduction, on fewer nodes, for each kind of search.
func TestSymmetryPasses(t *testing.T) {
	for _, tc := range []struct{ file, bound, sorts string }{
		{"testdata/chan/ok_forward.yaml", "V=3", "V"},
		{"testdata/chan/ok_refinement.yaml", "V=3", "V"},
		{"testdata/chan/ok_history.yaml", "V=3", "V"},
	} {
		p := loadProof(t, tc.file)
		cfg := bounds(t, tc.bound)
		plain, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Symmetry = strings.Split(tc.sorts, ",")
		sym, err := Check(p, cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !plain.Complete || !sym.Complete {
			t.Errorf("%s: want complete passes, got %v and %v", tc.file, plain.Complete, sym.Complete)
		}
		if sym.States >= plain.States || sym.Symmetry == nil {
			t.Errorf("%s: %d nodes with symmetry, %d without", tc.file, sym.States, plain.States)
		}
	}
}

// TestSymmetryRefused checks that a proof expression naming an element of
// a symmetric sort is refused at its position.
func TestSymmetryRefused(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"chan.yaml", "relay.yaml", "queue.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata/chan", f))
		if err != nil {
			t.Skipf("fixture %s: %v", f, err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("testdata/chan/ok_forward.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "  buf: a.buf = (if isSome(c.inq) then c.inq else c.outq)\n",
		"  buf: a.buf = (if isSome(c.inq) then c.inq else c.outq)\n  odd: a.buf != Some(V#1) or true\n", 1)
	if src == string(b) {
		t.Fatal("the fixture changed: cannot add a clause")
	}
	proof := filepath.Join(dir, "sym_literal.yaml")
	if err := os.WriteFile(proof, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := loadProof(t, proof)
	cfg := bounds(t, "V=2")
	if _, err := Check(p, cfg); err != nil {
		t.Fatalf("without symmetry: %v", err)
	}
	cfg.Symmetry = []string{"V"}
	_, err = Check(p, cfg)
	var se *explore.SymmetryError
	if !errors.As(err, &se) {
		t.Fatalf("want a symmetry error, got %v", err)
	}
	if want := "sym_literal.yaml:9:"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "V#1") {
		t.Errorf("want an error at %s naming V#1, got %v", want, err)
	}
}

// TestSymmetryWorkers checks that the result with symmetry reduction does
// not depend on the number of workers.
func TestSymmetryWorkers(t *testing.T) {
	p := loadProof(t, "../../algorithms/testdata/NOrecCommitNoCheck-TMS2.yaml", "../../specs", "../../algorithms/testdata")
	var outs []string
	for _, w := range []int{1, 3} {
		cfg := bounds(t, "T=2,L=1,V=2")
		cfg.Workers, cfg.Symmetry = w, []string{"T"}
		outs = append(outs, reportOf(t, p, cfg))
	}
	if outs[0] != outs[1] {
		t.Errorf("the report depends on the number of workers:\n%s\n---\n%s", outs[0], outs[1])
	}
}

// TestNatPostState checks that a forward step whose post-state violates a
// Nat condition fails as the assumption of that condition, on the
// execution that ends in the post-state, before the step's own check
// (which, with symmetry, may take a Nat of it as non-negative): with and
// without symmetry and on one or two workers.
func TestNatPostState(t *testing.T) {
	p := loadProof(t, "testdata/chan/bad_fwd_nat.yaml")
	for _, sym := range []bool{false, true} {
		for _, w := range []int{1, 2} {
			cfg := bounds(t, "V=3")
			cfg.Workers = w
			if sym {
				cfg.Symmetry = []string{"V"}
			}
			res, err := Check(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil {
				t.Fatalf("symmetry %v, %d workers: no failure", sym, w)
			}
			if f.Clause != "assume RelayNat.credit:Nat" || f.Trace.Len() != 2 || lastAction(f.Trace) != "Move" {
				t.Errorf("symmetry %v, %d workers: %s after %d steps ending in %s; want assume RelayNat.credit:Nat after Send, Move",
					sym, w, f.Clause, f.Trace.Len(), lastAction(f.Trace))
			}
			replays(t, p, cfg, f.Trace)
		}
	}
}

// TestSymmetryProofFacts checks the facts the symmetry check of a proof
// takes from a Nat of the concrete state (c.rv[t] in TL2→ReservationTMS2's
// a.memAt(c.rv[t])), from a definition called through a state object
// (c.heldBySucc(k) says isSome(c.lck[k])) and from the concrete action's
// precondition (DSTM's Kill(t, l) is enabled only when l is owned): with
// them every transaction is permuted; each near miss fixes T#0 where it
// reads the default.
func TestSymmetryProofFacts(t *testing.T) {
	// the proofs name their automata as ../specs/… and ../algorithms/…
	root := t.TempDir()
	dir := filepath.Join(root, "proofs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"specs", "algorithms"} {
		abs, err := filepath.Abs(filepath.Join("../..", d))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(abs, filepath.Join(root, d)); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	for _, tc := range []struct {
		edge, from, to, fixed string
	}{
		{"TL2-ReservationTMS2", "", "", ""},
		{"TL2-ReservationTMS2", "a.memAt(c.rv[t])[c.addr[t]]", "a.memAt(c.rv[t] - 1)[c.addr[t]]", "order[n]"},
		{"TL2-ReservationTMS2", "c.heldBySucc(k) and c.wv[get(c.lck[k])] < c.wv[x]", "c.wv[get(c.lck[k])] < c.wv[x] and c.heldBySucc(k)", "get(c.lck[k])"},
		{"DSTM-ReservationTMS2", "", "", ""},
		{"DSTM-ReservationTMS2", "- when: c.pendingRes(get(c.owner[l]))", "- when: c.pendingRes(get(c.owner[c.addr[t]]))", "get(c.owner[c.addr[t]])"},
	} {
		src, err := os.ReadFile(filepath.Join("../../proofs", tc.edge+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(src), tc.from, tc.to, 1)
		if tc.from != "" && text == string(src) {
			t.Fatalf("%s: the proof changed: no %q", tc.edge, tc.from)
		}
		file := filepath.Join(dir, tc.edge+".yaml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		p := loadProof(t, file, filepath.Join(root, "specs"), filepath.Join(root, "algorithms"))
		cfg := bounds(t, "T=3,L=1,V=2")
		cfg.Symmetry, cfg.MaxStates = []string{"T"}, 1
		res, err := Check(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var why string
		for _, s := range res.Symmetry.Sorts {
			if s.Sort == "T" {
				why = s.Why
			}
		}
		switch {
		case tc.fixed == "" && why != "":
			t.Errorf("%s: T#0 fixed: %s", tc.edge, why)
		case tc.fixed != "" && !strings.Contains(why, tc.fixed):
			t.Errorf("%s with %s: T#0 fixed by %q, want by %s", tc.edge, tc.to, why, tc.fixed)
		}
	}
}

// TestImplementsNatUnchecked checks that trace inclusion, which checks no
// Nat condition, takes no lower bound from a Nat variable: explore, which
// checks them first, permutes every element of NatIndex, but --implements
// fixes V#0 because of its s[k].
func TestImplementsNatUnchecked(t *testing.T) {
	set, errs := load.Files("testdata/chan/nat_index.yaml", "testdata/chan/chan.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := set.Automaton("NatIndex")
	cfg := bounds(t, "V=3")
	res, err := explore.Explore(a, explore.Config{Instance: cfg.Instance, Symmetry: []string{"V"}})
	if err != nil {
		t.Fatal(err)
	}
	if why := res.Symmetry.Sorts[0].Why; why != "" {
		t.Errorf("explore: V#0 fixed: %s", why)
	}
	cfg.Symmetry = []string{"V"}
	ires, err := Implements(a, a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ires.Symmetry == nil || !strings.Contains(ires.Symmetry.Sorts[0].Why, "s[k]") {
		t.Errorf("--implements: want V#0 fixed by s[k], got %+v", ires.Symmetry)
	}
}

// TestSymmetryAssumeFailure checks that an assumed invariant that fails
// at an orbit representative is reported on the real pair the replay
// reaches: the node check runs again there (it once found the state
// already checked, and the search reported an internal error).
func TestSymmetryAssumeFailure(t *testing.T) {
	p := loadProof(t, "testdata/dead/bad_transfer.yaml", "testdata/dead")
	cfg := bounds(t, "P=2,V=2")
	cfg.Symmetry = []string{"P"}
	res, err := Check(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure == nil || res.Failure.Obligation != "CellC→CellA › forward › assume CellA.CellSpec.doneKeepsV0" {
		t.Fatalf("want the failure of the assumed invariant, got %+v", res.Failure)
	}
	if n := res.Failure.Trace.Len(); n != 2 {
		t.Errorf("a trace of %d steps, want 2", n)
	}
	replays(t, p, cfg, res.Failure.Trace)
}
