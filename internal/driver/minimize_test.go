package driver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMinimize minimizes the assumptions of every obligation of the
// ticket lock and its edge to the mutex, and checks what it finds: the
// kept and dropped invariants split the assumed ones; the kernel proves
// each obligation with the kept ones alone and not without any one of
// them (the problems are small enough to be decided); and the strategy
// names exactly the kept ones. Then one printed strategy is pasted into
// the proof file, and the edge is still proved.
func TestMinimize(t *testing.T) {
	dir := copyTestdata(t, "kinds")
	ctx := context.Background()
	p, err := NewProver(Config{CacheDir: filepath.Join(t.TempDir(), "cache"), Jobs: 2, Only: "TicketLock"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	in := loadDir(t, dir)
	found, err := p.Minimize(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for i, o := range in.Obligations {
		byID[o.ID] = i
	}
	check, err := p.checker(0)
	if err != nil {
		t.Fatal(err)
	}
	defer check.s.Close()
	someKept, someDropped := false, false
	var paste *Minimal
	for i, m := range found {
		if m.Err != "" {
			if !strings.Contains(m.Err, "assumes no invariant") {
				t.Errorf("%s: %s", m.ID, m.Err)
			}
			continue
		}
		ob := in.Obligations[byID[m.ID]]
		concrete, abstract, _ := strings.Cut(ob.Edge, "→")
		var all []string
		for _, a := range ob.Problem.Assertions {
			if name, ok := assumedName(a.Name, concrete, abstract); ok && !slices.Contains(all, name) {
				all = append(all, name)
			}
		}
		split := append(append([]string(nil), m.Keep...), m.Dropped...)
		slices.Sort(split)
		slices.Sort(all)
		if !slices.Equal(split, all) {
			t.Errorf("%s: kept %q and dropped %q; it assumes %q", m.ID, m.Keep, m.Dropped, all)
		}
		drop := map[string]bool{}
		for _, d := range m.Dropped {
			drop[d] = true
		}
		if _, ok := check.check(ctx, ob, drop, concrete, abstract); !ok {
			t.Errorf("%s: not proved with %q alone", m.ID, m.Keep)
		}
		for _, k := range m.Keep {
			drop[k] = true
			if _, ok := check.check(ctx, ob, drop, concrete, abstract); ok {
				t.Errorf("%s: proved without %s too; kept %q", m.ID, k, m.Keep)
			}
			delete(drop, k)
		}
		if !strings.Contains(m.Strategy, "- assume: ["+strings.Join(m.Keep, ", ")+"]") {
			t.Errorf("%s: strategy %q does not assume %q", m.ID, m.Strategy, m.Keep)
		}
		someKept = someKept || len(m.Keep) > 0
		someDropped = someDropped || len(m.Dropped) > 0
		if ob.Edge != "" && ob.Case == "" && len(m.Dropped) > 0 && strings.Contains(m.ID, "relation(") && paste == nil {
			paste = &found[i]
		}
	}
	if !someKept || !someDropped {
		t.Fatalf("nothing kept (%v) or nothing dropped (%v): the test tests nothing", someKept, someDropped)
	}
	if paste == nil {
		t.Fatal("no relation obligation of the edge drops an invariant")
	}
	// Pasting the strategy keeps the edge proved.
	file := filepath.Join(dir, "TicketLock-Mutex.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	entry := "strategy:\n  " + strings.ReplaceAll(paste.Strategy, "\n", "\n  ") + "\n"
	if err := os.WriteFile(file, append(data, entry...), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("pasted for %s:\n%s", paste.ID, entry)
	q := newProver(t, 2)
	rep, err := q.Prove(ctx, loadDir(t, dir))
	if err != nil || !rep.OK() {
		t.Fatalf("with the strategy of %s pasted:\n%s\n%v %+v", paste.ID, entry, err, rep.Summary)
	}
}
