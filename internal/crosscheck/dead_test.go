package crosscheck

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/explore"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

// TestReduceDeadFixtures checks the dead-register reduction of forward
// pairs on testdata/dead: a relation that reads a register only where it
// is live is checked on fewer pairs with the same verdict; a register
// read whole is stored whole; and a relation that reads a dead entry,
// where a search that trusted the reduction would miss the failure, has
// its read condition found false and is checked again whole, which finds
// the failure; so does an invariant assumed by transfer that reads a dead
// entry. A register read through a definition of A is stored whole.
func TestReduceDeadFixtures(t *testing.T) {
	tests := []struct {
		file       string
		pairs      int    // pairs with the reduction
		plain      int    // pairs without it
		reset      string // the registers reset, comma-separated
		whole      string // a substring of DeadRefused, or ""
		obligation string // the failure's obligation, or ""
		note       string // a substring of a note, or ""
	}{
		{file: "ok.yaml", pairs: 17, plain: 29, reset: "val"},
		{file: "shapes.yaml", pairs: 17, plain: 29, reset: "val"},
		{file: "whole.yaml", pairs: 29, plain: 29, whole: "val: relation clause some reads a.val whole"},
		{file: "calls.yaml", pairs: 29, plain: 29, whole: "val: relation clause val calls stored, which reads val"},
		{file: "bad_transfer.yaml", pairs: 11, plain: 11,
			whole:      "val: the invariant CellSpec.doneKeepsV0 assumed by transfer reads a.val[p] where it is dead at a pair reached",
			obligation: "CellC→CellA › forward › assume CellA.CellSpec.doneKeepsV0",
			note:       "the invariant CellSpec.doneKeepsV0 assumed by transfer reads a.val[p] where the register val of CellA may be dead"},
		{file: "bad_dead_read.yaml", pairs: 26, plain: 26,
			whole:      "val: relation clause closedVal reads a.val[p] where it is dead at a pair reached",
			obligation: "CellC→CellA › forward › Close › relation(closedVal)",
			note:       "relation clause closedVal reads a.val[p] where the register val of CellA may be dead (the read condition is false: c.closed => forall p: P. a.pc[p] in {Full}); the edge was checked again with val stored whole"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			p := loadProof(t, filepath.Join("testdata/dead", tc.file), "testdata/dead")
			cfg := bounds(t, "P=2,V=2")
			plain, err := Check(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.ReduceDead = true
			res, err := Check(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			res.WriteText(&out)
			if plain.States != tc.plain || res.States != tc.pairs {
				t.Errorf("%d pairs without the reduction, %d with it; want %d and %d", plain.States, res.States, tc.plain, tc.pairs)
			}
			var reset []string
			for _, d := range res.DeadAbstract {
				reset = append(reset, d.Var)
			}
			if got := strings.Join(reset, ","); got != tc.reset {
				t.Errorf("registers reset: %q, want %q", got, tc.reset)
			}
			if tc.whole != "" && !strings.Contains(strings.Join(res.DeadRefused, "\n"), tc.whole) {
				t.Errorf("stored whole: %q, want %q", res.DeadRefused, tc.whole)
			}
			for _, r := range []*Result{plain, res} {
				got := ""
				if r.Failure != nil {
					got = r.Failure.Obligation
				}
				if got != tc.obligation {
					t.Errorf("failure %q, want %q\n%s", got, tc.obligation, out.String())
				}
			}
			if tc.obligation != "" {
				if plain.Failure.Trace.Len() != res.Failure.Trace.Len() {
					t.Errorf("a trace of %d steps without the reduction, %d with it", plain.Failure.Trace.Len(), res.Failure.Trace.Len())
				}
				replays(t, p, cfg, res.Failure.Trace)
			}
			notes := strings.Join(res.Notes, "\n")
			if tc.note == "" && strings.Contains(notes, "dead-register reduction") || !strings.Contains(notes, tc.note) {
				t.Errorf("notes:\n%s\nwant %q", notes, tc.note)
			}
		})
	}
}

// TestReadConditions checks the read conditions derived from each kind
// of context (testdata/dead/shapes.yaml) and from DSTM→ReservationTMS2's
// relation, and the registers refused.
func TestReadConditions(t *testing.T) {
	conds := func(t *testing.T, p *ioa.Proof, bound string) (map[string][]string, []string) {
		t.Helper()
		cfg := bounds(t, bound)
		cfg.ReduceDead = true
		x, err := newChecker(p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if x.dead == nil {
			t.Fatal("no reduction")
		}
		out := map[string][]string{}
		for _, rc := range x.dead.rel {
			out[rc.where] = append(out[rc.where], rc.read+": "+oneLine(expr.Print(rc.cond)))
		}
		return out, x.res.DeadRefused
	}
	sameConds := func(t *testing.T, got map[string][]string, want map[string]string) {
		t.Helper()
		for where, w := range want {
			if g := strings.Join(got[where], "; "); g != w {
				t.Errorf("%s:\n got %s\nwant %s", where, g, w)
			}
		}
	}
	t.Run("shapes", func(t *testing.T) {
		got, refused := conds(t, loadProof(t, "testdata/dead/shapes.yaml", "testdata/dead"), "P=2,V=2")
		want := map[string]string{
			"relation clause imp":   "a.val[p]: forall p: P. c.pc[p] = CFull => a.pc[p] in {Full}",
			"relation clause conj":  "a.val[p]: forall p: P. a.pc[p] = Full => a.pc[p] in {Full}",
			"relation clause disj":  "a.val[p]: forall p: P. not a.pc[p] != Full => a.pc[p] in {Full}",
			"relation clause ite":   "a.val[p]: forall p: P. c.pc[p] = CFull => a.pc[p] in {Full}",
			"relation clause bound": "a.val[p]: forall p: P. let full = a.pc[p] = Full in full => a.pc[p] in {Full}",
			"relation clause ex":    "a.val[p]: forall p: P. a.pc[p] = Full => a.pc[p] in {Full}",
			"relation clause lam":   "a.val[p]: forall p: P. a.pc[p] = Full => a.pc[p] in {Full}",
		}
		sameConds(t, got, want)
		if len(got) != len(want) {
			t.Errorf("conditions of %d clauses, want %d: %v", len(got), len(want), got)
		}
		if len(refused) != 0 {
			t.Errorf("refused %v", refused)
		}
	})
	t.Run("DSTM", func(t *testing.T) {
		if testing.Short() {
			t.Skip("loads the repository")
		}
		p := loadProof(t, "../../proofs/DSTM-ReservationTMS2.yaml", "../../specs", "../../algorithms")
		got, refused := conds(t, p, "T=2,L=1,V=2")
		want := map[string]string{
			"relation clause argL":    "a.argL[t]: forall t: T. c.pc[t] in {R1, RVal, W1} => a.pc[t] in {ReadPending, ReadResponding, WritePending}",
			"relation clause argV":    "a.argV[t]: forall t: T. c.pc[t] = W1 => a.pc[t] in {WritePending}",
			"relation clause valRead": "a.valRead[t]: forall t: T. c.pc[t] = RResp => a.pc[t] in {ReadResponding}",
		}
		sameConds(t, got, want)
		if len(refused) != 1 || refused[0] != "rdSet: relation clause rd reads a.rdSet whole" {
			t.Errorf("refused %q", refused)
		}
	})
}

// TestReduceDeadSameVerdict checks, on every forward simulation of the
// repository and every refuted forward fixture, that the reduction gives
// the verdict of the plain search, also under symmetry: the same
// obligation after as many steps on a real execution, on at most as many
// pairs; DSTM's relation reads its registers only where they are live, so
// its pairs shrink.
func TestReduceDeadSameVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	set, errs := load.Files("../../specs", "../../algorithms", "../../proofs")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fixtures, err := filepath.Glob("../../algorithms/testdata/*-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var proofs []*ioa.Proof
	for _, p := range set.Proofs {
		if p.Kind == ioa.ProofForward && explorable(p) {
			proofs = append(proofs, p)
		}
	}
	for _, f := range fixtures {
		fs, errs := load.Files(f, "../../specs", "../../algorithms", "../../algorithms/testdata")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, p := range fs.Proofs {
			if filepath.Clean(p.File) == filepath.Clean(f) && p.Kind == ioa.ProofForward {
				proofs = append(proofs, p)
			}
		}
	}
	if len(proofs) < 10 {
		t.Fatalf("%d forward proofs", len(proofs))
	}
	shrunk := map[string]bool{}
	for _, p := range proofs {
		t.Run(p.Name, func(t *testing.T) {
			cfg := bounds(t, "T=2,L=1,V=2")
			plain, err := Check(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.ReduceDead, cfg.Workers = true, 2
			var res *Result
			// with the reduction alone, and with symmetry too
			for _, sym := range [][]string{nil, {"T"}} {
				cfg.Symmetry = sym
				r, err := Check(p, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if (plain.Failure == nil) != (r.Failure == nil) || plain.Complete != r.Complete {
					t.Fatalf("symmetry %v: failure %v, complete %v without the reduction; %v, %v with it", sym, plain.Failure != nil, plain.Complete, r.Failure != nil, r.Complete)
				}
				if plain.Failure != nil {
					if plain.Failure.Obligation != r.Failure.Obligation {
						t.Errorf("symmetry %v: obligation %s without the reduction, %s with it", sym, plain.Failure.Obligation, r.Failure.Obligation)
					}
					if plain.Failure.Trace.Len() != r.Failure.Trace.Len() {
						t.Errorf("symmetry %v: a trace of %d steps without the reduction, %d with it", sym, plain.Failure.Trace.Len(), r.Failure.Trace.Len())
					}
					replays(t, p, cfg, r.Failure.Trace)
				}
				if r.States > plain.States {
					t.Errorf("symmetry %v: %d pairs with the reduction, %d without", sym, r.States, plain.States)
				}
				if res == nil {
					res = r
				}
			}
			shrunk[p.Name] = res.States < plain.States
			t.Logf("%d pairs, %d with the reduction (%v reset; stored whole: %v)", plain.States, res.States, explore.DeadNames(res.DeadAbstract), res.DeadRefused)
		})
	}
	for _, name := range []string{"DSTM-ReservationTMS2", "TML-TMS2"} {
		if !shrunk[name] {
			t.Errorf("%s: the reduction stored as many pairs as the plain search", name)
		}
	}
}
