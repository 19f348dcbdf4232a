package simulation

import (
	"ladder/internal/theorems"
	"slices"
	"strings"
	"testing"

	"ladder/internal/smt"
	"ladder/ioa/load"
)

// The transfer fixture (testdata/transfer): Low refines Mid refines Mono,
// Mono proves nonneg (total >= 0), and the forward simulation Top → Low
// needs Low's guard l >= 0, which it assumes as Mono.nonneg by transfer.
const transferKey = "automaton:Low/invariant:Mono.nonneg"

func loadTransfer(t *testing.T, extra ...string) *load.Set {
	t.Helper()
	files := []string{"testdata/transfer"}
	set, errs := load.Files(append(files, extra...)...)
	if len(errs) > 0 {
		t.Fatalf("loading: %v", errs)
	}
	return set
}

func edgeNamed(edges []*Edge, name string) *Edge {
	for _, e := range edges {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// TestTransferredInvariantProves checks that the transferred predicate
// P∘g is assumed of the abstract state (the edge proves with it), that
// the edge records the assumption with its chain, and that the
// metatheorems derive the transfer the edge relies on.
func TestTransferredInvariantProves(t *testing.T) {
	set := loadTransfer(t)
	obls, edges, errs := Generate(&set.Hierarchy, Config{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	vs := check(t, obls)
	for _, o := range obls {
		if vs[o.ID].status != smt.Unsat {
			t.Errorf("%s: %s", o.ID, vs[o.ID].status)
		}
	}
	e := edgeNamed(edges, "Top→Low")
	if e == nil {
		t.Fatal("no edge Top→Low")
	}
	if !slices.Contains(e.Assumes, transferKey) {
		t.Errorf("Top→Low does not record %s among %v", transferKey, e.Assumes)
	}
	if len(e.Transfers) != 1 || len(e.Transfers[0].Chain) != 2 || e.Transfers[0].Chain[0].Name != "Low-Mid" || e.Transfers[0].Chain[1].Name != "Mid-Mono" {
		t.Fatalf("Top→Low transfers: %+v", e.Transfers)
	}
	d := derive(obls, edges, vs, nil)
	if d.Edges["Top→Low"] != theorems.Proved {
		t.Errorf("Top→Low is %s", d.Edges["Top→Low"])
	}
	th := d.Theorem("Low satisfies Mono.nonneg")
	if th == nil || th.Rule != theorems.RuleTransfer || th.Premises[0].Rule != theorems.RuleComposition {
		t.Fatalf("Low satisfies Mono.nonneg is not derived by composition, then transfer: %v", th)
	}
	if d.Theorem("Top implements Mono") == nil {
		t.Error("Top implements Mono not derived")
	}
	if errs := CheckClaims(set.Proofs, d); len(errs) > 0 {
		t.Errorf("claims: %v", errs)
	}

	// The hypothesis is P∘g over the abstract state: Low's l >= 0.
	for _, o := range obls {
		if strings.HasPrefix(o.ID, "Top→Low › forward › Add › pre") && !slices.Contains(o.Assumes, transferKey) {
			t.Errorf("%s does not assume %s: %v", o.ID, transferKey, o.Assumes)
		}
	}

	// The edge is proved only when the whole chain and the source
	// invariant are: an unknown obligation of either leaves it unproved.
	for _, weak := range []string{"Low→Mid › refinement › Add › post(m)", "Mono › invariant nonneg › Add"} {
		d := derive(obls, edges, vs, map[string]bool{weak: true})
		if st := d.Edges["Top→Low"]; st == theorems.Proved {
			t.Errorf("with %s unknown, Top→Low is still proved", weak)
		}
		if d.Theorem("Low satisfies Mono.nonneg") != nil {
			t.Errorf("with %s unknown, the transfer is still derived", weak)
		}
	}
}

// TestTransferNeeded checks that the fixture is honest: without the
// transferred invariant, the abstract guard is refuted.
func TestTransferNeeded(t *testing.T) {
	set, errs := load.Files("testdata/transfer/iface.yaml", "testdata/transfer/Top.yaml", "testdata/transfer/Low.yaml",
		"testdata/transfer-bad/Top-Low-noassume.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	obls, _, gerrs := Generate(&set.Hierarchy, Config{})
	if len(gerrs) > 0 {
		t.Fatal(gerrs)
	}
	vs := check(t, obls)
	const id = "Top→Low › forward › Add › pre(Add)"
	v := vs[id]
	if v.status != smt.Sat || v.cex == nil {
		t.Fatalf("%s: %s, want a replayed counterexample (%v)", id, v.status, v.err)
	}
}

// TestTransferErrors checks the loader's errors for qualified names: an
// unknown automaton or invariant, an invariant of the automaton itself,
// and a missing chain.
func TestTransferErrors(t *testing.T) {
	_, errs := load.Files("testdata/transfer", "testdata/transfer-bad/Top-Low-nochain.yaml")
	want := []string{
		`Top-Low-nochain.yaml:7:27: unknown automaton "Nowhere" in "Nowhere.x"`,
		`Top-Low-nochain.yaml:7:38: unknown invariant "negative": Mono has no such invariant`,
		`Top-Low-nochain.yaml:7:53: "Low.nonneg" is an invariant of Low itself: write "nonneg"`,
	}
	var b strings.Builder
	errs.Print(&b, 0)
	got := b.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing error %q in:\n%s", w, got)
		}
	}
	_, errs = load.Files("testdata/transfer/iface.yaml", "testdata/transfer/Top.yaml", "testdata/transfer/Low.yaml",
		"testdata/transfer/Mono.yaml", "testdata/transfer/Top-Low.yaml")
	if got := errs.Error(); !strings.Contains(got, "Top-Low.yaml:10:14: cannot assume Mono.nonneg of Low: no chain of refinement mappings") {
		t.Errorf("missing the no-chain error in:\n%s", got)
	}
}
