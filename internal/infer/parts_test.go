package infer

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestPartition checks how a pool is cut: non-redundant candidates in
// order, at most size per part, and each reserve candidate with the last
// of its impliers, through chains of them.
func TestPartition(t *testing.T) {
	a, b, c, d, e := &cand{}, &cand{}, &cand{}, &cand{}, &cand{}
	r1 := &cand{impliedBy: []*cand{a, d}} // implied across parts: the last one's
	r2 := &cand{impliedBy: []*cand{r1}}   // a chain
	r3 := &cand{impliedBy: []*cand{b}}
	pool := []*cand{a, r1, b, r2, c, d, r3, e}
	got := partition(pool, 2)
	want := [][]*cand{{a, b, r3}, {c, d, r1, r2}, {e}}
	if len(got) != len(want) {
		t.Fatalf("%d parts, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("part %d has %d candidates, want %d", i, len(got[i]), len(want[i]))
		}
		in := map[*cand]bool{}
		for _, x := range got[i] {
			in[x] = true
		}
		for _, x := range want[i] {
			if !in[x] {
				t.Errorf("part %d misses a candidate", i)
			}
		}
	}
	if n := len(partition(pool, 100)); n != 1 {
		t.Errorf("%d parts for a pool under the size, want 1", n)
	}
}

// bodies returns the bodies of res's invariants, sorted.
func bodies(res *Result) []string {
	var out []string
	for _, inv := range res.Invariants {
		out = append(out, inv.Body)
	}
	sort.Strings(out)
	return out
}

// TestInferInParts infers the ticket lock's invariants (27 non-redundant
// candidates) in parts of nine: the parts and sweeps are reported, the
// kept sets only grow, every printed invariant is proved (runInfer), the
// invariants are those of a search of all the candidates at once, and each
// hand-written invariant proves from them. (In parts of six, candidates
// of different parts that hold only together are lost, as docs/infer.md
// says parts may lose them.)
func TestInferInParts(t *testing.T) {
	dir := t.TempDir()
	hw := stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	infer := func(size int) (*Result, []string, string) {
		cache := filepath.Join(t.TempDir(), "cache")
		o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), cache, nil)
		o.PartSize = size
		res := runInfer(t, o)
		return res, bodies(res), cache
	}
	parts, inParts, cache := infer(9)
	whole, atOnce, _ := infer(100)
	if len(whole.Parts) != 0 {
		t.Errorf("27 candidates searched in %d parts of 100", len(whole.Parts))
	}
	if len(parts.Parts) < 4 || parts.Parts[len(parts.Parts)-1].Sweep < 2 {
		t.Fatalf("parts %+v: want at least four parts of nine over the sweeps, and a second sweep", parts.Parts)
	}
	kept := 0
	for i, p := range parts.Parts {
		if p.Kept != kept || p.Inductive < p.Kept || p.Inductive > p.Kept+p.Candidates {
			t.Errorf("part %d: %+v after %d kept", i, p, kept)
		}
		kept = p.Inductive
	}
	if !slices.Equal(inParts, atOnce) {
		t.Errorf("invariants in parts:\n%s\nat once:\n%s", strings.Join(inParts, "\n"), strings.Join(atOnce, "\n"))
	}
	provesFromInferred(t, parts, hw, nil, cache)
}

// TestInferOnPoints checks that the implications others imply on the
// points are held in reserve only past Options.OnPoints: with a budget of
// ten, the ticket lock has fewer non-redundant candidates than without,
// and the phase says why; below the budget, none is held back so.
func TestInferOnPoints(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	nonRedundantPhase := func(budget int) Phase {
		o := options(t, filepath.Join(dir, "mutex/TicketLock.yaml"), filepath.Join(t.TempDir(), "cache"), nil)
		o.MaxCandidates = 1 // stop before the search
		o.OnPoints = budget
		res, err := Run(context.Background(), o)
		if !errors.Is(err, ErrTooMany) {
			t.Fatalf("err = %v, want ErrTooMany", err)
		}
		p := res.Phases[len(res.Phases)-1]
		if p.Name != "non-redundant" {
			t.Fatalf("last phase %+v", p)
		}
		return p
	}
	all, held := nonRedundantPhase(0), nonRedundantPhase(10)
	if all.Candidates <= 10 || strings.Contains(all.Note, "on the points") {
		t.Fatalf("default budget: %+v", all)
	}
	if held.Candidates >= all.Candidates || !strings.Contains(held.Note, "implied by others on the points") {
		t.Fatalf("budget 10: %+v, against %+v", held, all)
	}
	t.Logf("%d non-redundant, %d past a budget of 10 (%s)", all.Candidates, held.Candidates, held.Note)
}
