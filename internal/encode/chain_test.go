package encode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ladder/internal/logic"
	"ladder/ioa"
	"ladder/ioa/load"
)

// chainAutomaton loads an automaton whose invariant is a chain of n
// conjuncts (or disjuncts, with op "or").
func chainAutomaton(tb testing.TB, n int, op string) *ioa.Automaton {
	tb.Helper()
	var b strings.Builder
	b.WriteString("automaton: Chain\nstate:\n  n: {sort: Int, init: 0}\nactions: {}\ninvariants:\n  big: ")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(" " + op + " ")
		}
		fmt.Fprintf(&b, "n != %d", i+1)
	}
	b.WriteString("\n")
	path := filepath.Join(tb.TempDir(), "chain.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	set, errs := load.Files(path)
	if len(errs) > 0 || set.Automaton("Chain") == nil {
		tb.Fatalf("load: %v", errs)
	}
	return set.Automaton("Chain")
}

func chainFormula(tb testing.TB, a *ioa.Automaton) *logic.Term {
	e := New()
	s, err := e.NewState(a, "s")
	if err != nil {
		tb.Fatal(err)
	}
	f, err := e.Formula(a.Invariants[0].Body, &Env{State: s})
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// A chain of conjuncts encodes to one flat conjunction, in time linear in
// its length (40,000 conjuncts took most of a minute when each binary node copied
// the conjunction built so far).
func TestConjunctionChain(t *testing.T) {
	for _, op := range []string{"and", "or"} {
		a := chainAutomaton(t, 40000, op)
		done := make(chan *logic.Term, 1)
		go func() { done <- chainFormula(t, a) }()
		select {
		case f := <-done:
			if f.NumArgs() != 40000 {
				t.Errorf("%s chain: %d operands, want 40000", op, f.NumArgs())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("encoding 40000 %s operands took more than 10s", op)
		}
	}
	// the same term as folding the binary nodes one at a time
	a := chainAutomaton(t, 5, "and")
	if got, want := chainFormula(t, a).String(), "(and (not (= s.n 1)) (not (= s.n 2)) (not (= s.n 3)) (not (= s.n 4)) (not (= s.n 5)))"; got != want {
		t.Errorf("chain of 5: %s\nwant %s", got, want)
	}
}

func BenchmarkConjunctionChain(b *testing.B) {
	for _, n := range []int{4000, 8000, 16000} {
		a := chainAutomaton(b, n, "and")
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				chainFormula(b, a)
			}
		})
	}
}
