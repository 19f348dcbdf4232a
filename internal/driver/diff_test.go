package driver

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ladder/internal/report"
)

func ids(os []report.Obligation) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.ID)
	}
	return out
}

func statements(ts []report.Theorem) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Statement)
	}
	return out
}

func TestCompare(t *testing.T) {
	old := &report.Prove{
		Obligations: []report.Obligation{
			{ID: "a", Verdict: report.Proved},
			{ID: "b", Verdict: report.Refuted},
			{ID: "c", Verdict: report.Proved},
			{ID: "d", Verdict: report.Unknown},
			{ID: "gone", Verdict: report.Proved},
			{ID: "same-fail", Verdict: report.Refuted},
		},
		Edges:    []report.Edge{{Name: "P", Status: report.Proved}, {Name: "Q", Status: report.Refuted}},
		Theorems: []report.Theorem{{Statement: "C implements A"}, {Statement: "C implements B"}},
	}
	new := &report.Prove{
		Obligations: []report.Obligation{
			{ID: "a", Verdict: report.Proved},
			{ID: "b", Verdict: report.Proved},
			{ID: "c", Verdict: report.Refuted, Counterexample: &report.Counterexample{Text: "n = 4"}},
			{ID: "d", Verdict: report.Refuted},
			{ID: "fresh", Verdict: report.Proved},
			{ID: "fresh-fail", Verdict: report.Unknown, Reason: "timeout"},
			{ID: "same-fail", Verdict: report.Refuted},
		},
		Edges:    []report.Edge{{Name: "P", Status: report.Refuted}, {Name: "Q", Status: report.Refuted}},
		Theorems: []report.Theorem{{Statement: "C implements B"}, {Statement: "D implements B", Rule: "trace-inclusion", From: []string{"R"}}},
	}
	// The same obligations in another order: paired by ID, not position.
	reversed := &report.Prove{Obligations: slices.Clone(old.Obligations), Edges: old.Edges, Theorems: old.Theorems}
	slices.Reverse(reversed.Obligations)
	if d := Compare(old, reversed); !d.Empty() {
		t.Errorf("the same report in another order differs: %+v", d)
	}
	d := Compare(old, new)
	check := func(what string, got, want []string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %q; want %q", what, got, want)
		}
	}
	check("NewlyProved", ids(d.NewlyProved), []string{"b", "fresh"})
	check("NewlyFailing", ids(d.NewlyFailing), []string{"c", "d", "fresh-fail"})
	check("Removed", d.Removed, []string{"gone"})
	check("Stale", statements(d.Stale), []string{"C implements A"})
	check("Derived", statements(d.Derived), []string{"D implements B"})
	if len(d.Edges) != 1 || d.Edges[0].Name != "P" {
		t.Errorf("Edges = %v; want [P]", d.Edges)
	}
	var b bytes.Buffer
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"+ proved   b\n", "- refuted  c\n      n = 4\n", "- theorem  C implements A (stale)", "+ theorem  D implements B (trace-inclusion: R)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("diff text lacks %q:\n%s", want, b.String())
		}
	}
	if Compare(new, new).Empty() != true {
		t.Errorf("Compare(r, r) is not empty: %+v", Compare(new, new))
	}
}

// TestOnlyIn compares the side-by-side walk over sorted theorems with the
// set it stands for, on random lists sorted and not, with repeats.
func TestOnlyIn(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	statements := []string{"A implements B", "A refines B", "B implements C", "C satisfies C.p", "D implements A"}
	list := func() []report.Theorem {
		var ts []report.Theorem
		for range r.IntN(6) {
			ts = append(ts, report.Theorem{Statement: statements[r.IntN(len(statements))]})
		}
		if r.IntN(3) > 0 {
			slices.SortFunc(ts, func(x, y report.Theorem) int { return strings.Compare(x.Statement, y.Statement) })
		}
		return ts
	}
	for range 2000 {
		a, b := list(), list()
		in := map[string]bool{}
		for _, t := range b {
			in[t.Statement] = true
		}
		var want []string
		for _, t := range a {
			if !in[t.Statement] {
				want = append(want, t.Statement)
			}
		}
		var got []string
		for _, t := range onlyIn(a, b) {
			got = append(got, t.Statement)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("onlyIn(%v, %v) = %v, want %v", a, b, got, want)
		}
	}
}
