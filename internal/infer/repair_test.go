package infer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/driver"
	"ladder/internal/kernel"
	"ladder/internal/theorems"
	"ladder/ioa"
	"ladder/ioa/load"
	"ladder/simulation"
)

// brokenCopy copies specs/, algorithms/ and the proof rel of the
// repository into dir, with the relation clause named clause removed from
// the proof, and returns the copied proof's path and the clause's text as
// written (its lines after the name, trimmed and joined).
func brokenCopy(t *testing.T, dir, rel, clause string) (string, string) {
	t.Helper()
	for _, d := range []string{"specs", "algorithms"} {
		ents, err := os.ReadDir(filepath.Join(root, d))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".yaml") {
				copyFile(t, dir, filepath.Join(d, e.Name()), filepath.Join(d, e.Name()))
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i, inRelation := -1, false
	for k, l := range lines {
		if l != "" && l[0] != ' ' && l[0] != '#' {
			inRelation = strings.HasPrefix(l, "relation:")
		}
		if inRelation && i < 0 && strings.HasPrefix(l, "  "+clause+":") {
			i = k
		}
	}
	if i < 0 {
		t.Fatalf("%s has no relation clause %s", rel, clause)
	}
	j := i + 1
	for j < len(lines) && strings.HasPrefix(lines[j], "    ") {
		j++
	}
	body := strings.TrimSpace(strings.TrimPrefix(lines[i], "  "+clause+":"))
	if body == "|" {
		var parts []string
		for _, l := range lines[i+1 : j] {
			parts = append(parts, strings.TrimSpace(l))
		}
		body = strings.Join(parts, " ")
	}
	out := append(append([]string(nil), lines[:i]...), lines[j:]...)
	path := filepath.Join(dir, rel)
	write(t, path, []byte(strings.Join(out, "\n")))
	return path, body
}

// edgeProves proves the edge of the proof file path (with the automata of
// lib) from a fresh load and reports the obligations not proved.
func edgeProves(t *testing.T, path string, lib []string, cache string) []string {
	t.Helper()
	set, errs := loadConfig(lib, nil).Files(path)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in, errs := driver.Generate(set)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	edge := simulation.EdgeName(set.Proofs[0])
	var obs []*simulation.Obligation
	for _, o := range in.Obligations {
		if o.Edge == edge {
			obs = append(obs, o)
		}
	}
	if len(obs) == 0 {
		t.Fatalf("%s: no obligation", edge)
	}
	p, err := driver.NewProver(driver.Config{Jobs: 2, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	part := &driver.Input{Automata: in.Automata, Obligations: obs, Files: in.Files}
	if _, err := p.Prove(context.Background(), part); err != nil {
		t.Fatal(err)
	}
	var failed []string
	for id, v := range part.Verdicts() {
		if theorems.FromVerdict(v, true) != theorems.Proved {
			failed = append(failed, id)
		}
	}
	return failed
}

// TestRepairRelation removes one relation clause from the TL2 and DSTM
// proofs, which makes each edge fail, and checks that relation repair
// finds clauses with which the edge proves: the proof file with the
// printed clauses added proves, loaded and generated afresh.
func TestRepairRelation(t *testing.T) {
	if testing.Short() {
		t.Skip("proves two large edges")
	}
	for _, tc := range []struct{ proof, clause string }{
		{"proofs/TL2-ReservationTMS2.yaml", "valRead"},
		{"proofs/DSTM-ReservationTMS2.yaml", "argV"},
	} {
		t.Run(tc.clause, func(t *testing.T) {
			dir := t.TempDir()
			path, removed := brokenCopy(t, dir, tc.proof, tc.clause)
			lib := []string{filepath.Join(dir, "specs"), filepath.Join(dir, "algorithms")}
			cache := filepath.Join(dir, "cache")
			res, err := Repair(context.Background(), RepairOptions{Proof: path, Bounds: []string{"T=2,L=1,V=2"},
				Library: lib, Prover: driver.Config{Jobs: 2, CacheDir: cache}, Progress: func(s string) { t.Log(s) }})
			if err != nil {
				t.Fatal(err)
			}
			var sum strings.Builder
			res.WriteSummary(&sum)
			t.Log("\n" + sum.String() + res.Section)
			if len(res.Failed) == 0 {
				t.Fatalf("the edge without %s proved: the test removes nothing it needs", tc.clause)
			}
			if res.Status != "repaired" || len(res.Clauses) == 0 {
				t.Fatalf("status %q, %d clauses; want repaired", res.Status, len(res.Clauses))
			}
			// The clauses printed, pasted into the relation, make the
			// edge prove.
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r := &repairer{o: RepairOptions{Proof: path, Prefix: "fix"}, orig: b}
			var bodies []string
			for _, c := range res.Clauses {
				bodies = append(bodies, c.Body)
			}
			fixed, _, err := r.withClauses(bodies)
			if err != nil {
				t.Fatal(err)
			}
			write(t, path, fixed)
			// (the cache repair filled holds verdicts for exactly the texts
			// it proved, which is all a cached verdict vouches for)
			if failed := edgeProves(t, path, lib, cache); len(failed) > 0 {
				t.Fatalf("with the repaired relation %d obligations fail: %v", len(failed), failed)
			}
			found := false
			for _, c := range res.Clauses {
				found = found || c.Body == removed
			}
			t.Logf("removed %s: %s; restored it: %v", tc.clause, removed, found)
		})
	}
}

// TestRepairRefused checks repair's answers on an edge that proves, on one
// that the cross-check refutes at a reachable pair, and on a proof that is
// not a forward simulation.
func TestRepairRefused(t *testing.T) {
	lib := []string{filepath.Join(root, "specs"), filepath.Join(root, "algorithms")}
	cache := t.TempDir()
	opts := func(proof string) RepairOptions {
		return RepairOptions{Proof: filepath.Join(root, proof), Bounds: []string{"T=2,L=1,V=2"}, Library: lib,
			Prover: driver.Config{Jobs: 2, CacheDir: cache}}
	}
	res, err := Repair(context.Background(), opts("proofs/TML-TMS2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "proved" || len(res.Failed) != 0 || len(res.Clauses) != 0 {
		t.Fatalf("an edge that proves: status %q, failed %v, clauses %v", res.Status, res.Failed, res.Clauses)
	}
	// The coin's forward simulation needs a prophecy variable, not a
	// clause: the cross-check refutes it at a reachable pair, and repair
	// says so and stops.
	coin := RepairOptions{Proof: filepath.Join(root, "docs/examples/prophecy/testdata/LazyCoin-EagerCoin.yaml"),
		Library: []string{filepath.Join(root, "docs/examples/prophecy")}, Prover: driver.Config{Jobs: 2, CacheDir: cache}}
	res, err = Repair(context.Background(), coin)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "not repaired" || res.CrossCheckFailure != "LazyCoin→EagerCoin › forward › Show › pre(Show)" || len(res.Rounds) != 0 {
		t.Fatalf("the coin: status %q, cross-check failure %q, %d proofs", res.Status, res.CrossCheckFailure, len(res.Rounds))
	}
	_, err = Repair(context.Background(), opts("proofs/TMS2-CommitSer.yaml"))
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "forward simulations") {
		t.Fatalf("a refinement mapping: err %v, want a usage error naming forward simulations", err)
	}
}

// TestMergeGuards checks the merge of clauses that differ only in the
// constant of an enum guard.
func TestMergeGuards(t *testing.T) {
	in := []string{
		"forall t: T. c.pc[t] = RLookup => a.argL[t] = c.addr[t]",
		"len(a.order) = c.clock",
		"forall t: T. c.pc[t] = RRead => a.argL[t] = c.addr[t]",
		"forall t: T. c.pc[t] = RRead => a.argV[t] = c.val[t]",
		"forall t: T. c.pc[t] = RCheck => a.argL[t] = c.addr[t]",
		"c.phase = Shown => a.pr = c.out",
	}
	want := []string{
		"forall t: T. c.pc[t] in {RLookup, RRead, RCheck} => a.argL[t] = c.addr[t]",
		"len(a.order) = c.clock",
		"forall t: T. c.pc[t] = RRead => a.argV[t] = c.val[t]",
		"c.phase = Shown => a.pr = c.out",
	}
	if got := mergeGuards(in); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("mergeGuards:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRelationCandidates checks the templates on the TL2 edge: the
// candidates compare the relevant abstract variables only, each clause of
// the hand-written relation of that shape is among them, and every
// candidate loads as a relation clause.
func TestRelationCandidates(t *testing.T) {
	set, errs := load.Files(filepath.Join(root, "proofs/TL2-ReservationTMS2.yaml"), filepath.Join(root, "specs"), filepath.Join(root, "algorithms"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var p *ioa.Proof
	for _, q := range set.Proofs {
		if q.Name == "TL2-ReservationTMS2" {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no proof TL2-ReservationTMS2")
	}
	cands := relationCandidates(p, map[string]bool{"valRead": true, "argL": true, "order": true})
	texts := map[string]bool{}
	for _, c := range cands {
		texts[c.text] = true
		if strings.Contains(c.text, "a.pc") || strings.Contains(c.text, "a.rdSet") {
			t.Fatalf("%s reads an abstract variable that is not relevant", c.text)
		}
	}
	for _, want := range []string{
		"forall t: T. c.pc[t] = RResp => a.valRead[t] = c.val[t]",
		"forall t: T. c.pc[t] = RCheck => a.argL[t] = c.addr[t]",
		"len(a.order) = c.clock",
	} {
		if !texts[want] {
			t.Errorf("%s is not among the %d candidates", want, len(cands))
		}
	}
	r := &repairer{o: RepairOptions{Proof: filepath.Join(root, "proofs/TL2-ReservationTMS2.yaml"), Prefix: "fix"},
		lib: []string{filepath.Join(root, "specs"), filepath.Join(root, "algorithms")}}
	b, err := os.ReadFile(r.o.Proof)
	if err != nil {
		t.Fatal(err)
	}
	r.orig = b
	r.path = mustAbs(t, r.o.Proof)
	var all []string
	for _, c := range cands {
		all = append(all, c.text)
	}
	q, invalid, err := r.load(all)
	if err != nil {
		t.Fatal(err)
	}
	if len(invalid) > 0 || len(q.Relation) != len(p.Relation)+len(all) {
		t.Fatalf("%d candidates refused, %d clauses", len(invalid), len(q.Relation))
	}
}

// TestCandOf checks that only the obligations of a candidate's own clause
// name it, by its index.
func TestCandOf(t *testing.T) {
	r := &repairer{o: RepairOptions{Prefix: "fix"}}
	for id, want := range map[string]int{
		"C→A › forward › Step › relation(fix_c3)":          2,
		"C→A › forward › Step › case 2 › relation(fix_c1)": 0,
		"C→A › forward › start › fix_c12":                  11,
		"C→A › forward › Step › relation(fix_c0)":          -1,
		"C→A › forward › Step › relation(fix_c03)":         -1,
		"C→A › forward › Step › relation(pc)":              -1,
		"C→A › forward › Step › pre(fix_c1)":               -1,
	} {
		k, ok := r.candOf(id)
		if !ok {
			k = -1
		}
		if k != want {
			t.Errorf("candOf(%q) = %d, want %d", id, k, want)
		}
	}
}

// TestNeededCands checks which candidates the unsat cores of an edge's
// proof name: those in the cores of the edge's own obligations, then those
// in the cores of a needed candidate's obligations, never a candidate for
// its own obligations, and nothing when a proved obligation has no core.
func TestNeededCands(t *testing.T) {
	r := &repairer{o: RepairOptions{Prefix: "fix"}}
	obs := []*simulation.Obligation{
		{ID: "C→A › forward › Step › relation(pc)"},
		{ID: "C→A › forward › Step › relation(fix_c1)"},
		{ID: "C→A › forward › Step › relation(fix_c3)"},
		{ID: "C→A › forward › Other › relation(pc)"},
		{ID: "C→A › forward › Step › post(x)"},
	}
	verdicts := theorems.Verdicts{}
	for _, o := range obs {
		verdicts[o.ID] = kernel.Proved
	}
	verdicts[obs[4].ID] = kernel.Trivial
	used := map[string][]string{
		obs[0].ID: {"assume C.inv(c)", "fix_c1(c, a)", "goal (negated)"},
		obs[1].ID: {"fix_c1(c, a)", "fix_c2(c, a)", "goal (negated)"}, // c1 needs c2
		obs[2].ID: {"fix_c3(c, a)", "fix_c4(c, a)", "goal (negated)"}, // c3 is needed by none
		obs[3].ID: {"pc(c, a)", "fix_c1(c, a)", "goal (negated)"},
	}
	got, uses := r.neededCands(obs, verdicts, used)
	if fmt.Sprint(got) != "map[0:true 1:true]" {
		t.Errorf("needed = %v; want fix_c1 and, through it, fix_c2 (indices 0 and 1)", got)
	}
	// the edge's own obligations whose cores name each: c1 two of them
	if fmt.Sprint(uses) != "map[0:2]" {
		t.Errorf("uses = %v; want fix_c1 named by 2 of the edge's own obligations", uses)
	}
	// a start obligation without a core (a cached verdict) needs no
	// candidate
	start := &simulation.Obligation{ID: "C→A › forward › start › pc", Clause: simulation.ClauseStart}
	verdicts[start.ID] = kernel.Proved
	if got, _ := r.neededCands(append(obs, start), verdicts, used); fmt.Sprint(got) != "map[0:true 1:true]" {
		t.Errorf("needed = %v with a start obligation without a core; want fix_c1 and fix_c2", got)
	}
	delete(used, obs[3].ID)
	if got, uses := r.neededCands(obs, verdicts, used); got != nil || fmt.Sprint(uses) != "map[0:1]" {
		t.Errorf("needed = %v, uses = %v with a proof without a core; want nil, and fix_c1 named once", got, uses)
	}
}

// TestHittingPrefersCores checks that among clauses that exclude the same
// counterexamples, the hitting set takes the one the last proof's cores
// name most (then the first).
func TestHittingPrefersCores(t *testing.T) {
	r := &repairer{falseAt: map[int][]int{3: {0}, 5: {0}, 7: {1}}}
	live := []int{3, 5, 7}
	if got := r.hitting(live, nil); fmt.Sprint(got) != "[3 7]" {
		t.Errorf("hitting without cores = %v, want [3 7] (the first on a tie)", got)
	}
	if got := r.hitting(live, map[int]int{1: 4, 0: 1}); fmt.Sprint(got) != "[5 7]" {
		t.Errorf("hitting = %v, want [5 7] (5 is named by more cores than 3)", got)
	}
}
