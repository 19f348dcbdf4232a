package eval

import (
	"strings"
	"testing"

	"ladder/ioa/load"
)

// guardsFile is the fixture of the compiled guards.
const guardsFile = "testdata/guards.yaml"

// guardsMachine compiles Guards from file for T=2 (plain: without folding
// or specialised code).
func guardsMachine(t *testing.T, file string, plain bool) *Machine {
	t.Helper()
	set, errs := load.Files(file)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m, err := newMachine(set.Automaton("Guards"), &Instance{Sizes: map[string]int{"T": 2}}, plain)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLeadingTests checks which conjuncts become bit tests or bindings,
// and that the successors are those of the plain machine, errors included.
func TestLeadingTests(t *testing.T) {
	file := guardsFile
	m := guardsMachine(t, file, false)
	want := map[string]struct {
		masks []uint64 // per parameter 0: the masks
		bind  bool     // parameter 1 is bound
		pre0  int      // conjuncts left at parameter 0
	}{
		"Eq":    {masks: []uint64{1 << 0, 1 << 0}},
		"Neq":   {masks: []uint64{^uint64(1 << 0)}},
		"In":    {masks: []uint64{1<<1 | 1<<2}},
		"NotIn": {masks: []uint64{^uint64(1 << 0)}},
		"Bind":  {bind: true},
		"Later": {pre0: 2},
	}
	for _, ac := range m.acts {
		w := want[ac.act.Name]
		p0 := &ac.params[0]
		var got []uint64
		for _, mk := range p0.masks {
			got = append(got, mk.mask)
		}
		if len(got) != len(w.masks) {
			t.Errorf("%s: masks %x, want %x", ac.act.Name, got, w.masks)
		}
		for i := range min(len(got), len(w.masks)) {
			if got[i] != w.masks[i] {
				t.Errorf("%s: mask %d is %x, want %x", ac.act.Name, i, got[i], w.masks[i])
			}
		}
		if len(p0.pre) != w.pre0 {
			t.Errorf("%s: %d conjuncts left, want %d", ac.act.Name, len(p0.pre), w.pre0)
		}
		if bound := len(ac.params) > 1 && ac.params[1].bind != nil; bound != w.bind {
			t.Errorf("%s: parameter 1 bound %v, want %v", ac.act.Name, bound, w.bind)
		}
	}

	// The same successors as the plain machine on every reachable state,
	// and the same overflow from Later's first conjunct when x = 2, though
	// its second one is false.
	plain := guardsMachine(t, file, true)
	inits, err := m.Init()
	if err != nil {
		t.Fatal(err)
	}
	succ := func(m *Machine, s State) ([]string, error) {
		labels, _, err := successors(m, s)
		return labels, err
	}
	over := append(State{}, inits[0]...)
	over[0] = Value{vs: []Value{Int(1), Int(1)}} // pc = const(B)
	over[3] = Int(2)
	_, err1 := succ(m, over)
	_, err2 := succ(plain, over)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || !strings.Contains(err1.Error(), "overflow") {
		t.Fatalf("errors differ or missing: %v / %v", err1, err2)
	}
	s := inits[0]
	seen := map[string]bool{}
	queue := []State{s}
	for len(queue) > 0 && len(seen) < 500 {
		s := queue[0]
		queue = queue[1:]
		a, posts, err1 := successors(m, s)
		b, err2 := succ(plain, s)
		if (err1 == nil) != (err2 == nil) || strings.Join(a, "|") != strings.Join(b, "|") {
			t.Fatalf("successors differ in %v:\n%v %v\n%v %v", s, a, err1, b, err2)
		}
		for _, post := range posts {
			if k := string(m.AppendState(nil, post)); !seen[k] {
				seen[k] = true
				queue = append(queue, post)
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d states reached", len(seen))
	}
}
