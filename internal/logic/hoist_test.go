package logic

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestHoistConstArrays(t *testing.T) {
	dt := optionT(t)
	c := Const("c", tSort)
	d := Const("d", tSort)
	i := Const("i", lSort)
	arrC := ConstArray(lSort, c)
	nested := ConstArray(IntSort(), arrC) // (Array Int (Array L T)) over a named array
	x := Var("x", tSort)
	p := &Problem{Assertions: []Named{
		{"over a constant", Not(Eq(Select(arrC, i), c))},
		{"the same array again", Eq(Select(arrC, i), Select(ConstArray(lSort, c), i))},
		{"nested", Eq(Select(nested, IntVal(3)), arrC)},
		{"values stay", Eq(Select(ConstArray(lSort, Ctor(dt, 0)), i), Ctor(dt, 0))},
		{"bound element", Forall([]*Term{x}, Eq(Select(ConstArray(lSort, x), i), x))},
		{"closed under a binder", Forall([]*Term{x}, Or(Eq(x, d), Eq(Select(ConstArray(lSort, d), i), d)))},
	}}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(declare-fun %c0 () (Array L T))\n",
		"(declare-fun %c1 () (Array Int (Array L T)))\n",
		"(declare-fun %c3 () (Array L T))\n",
		"(assert (forall ((%0 L)) (! (= (select %c0 %0) c) :pattern ((select %c0 %0)))))\n",
		"(assert (forall ((%0 Int)) (! (= (select %c1 %0) %c0) :pattern ((select %c1 %0)))))\n",
		"(assert (forall ((%0 L)) (! (= (select %c3 %0) d) :pattern ((select %c3 %0)))))\n",
		"; over a constant\n(assert (not (= (select %c0 i) c)))\n",
		"((as const (Array L |Option[T]|)) |None[T]|)",
		"(declare-fun %c2 () (Array T (Array L T)))\n",
		"(assert (forall ((%0 T) (%1 L)) (! (= (select (select %c2 %0) %1) %0) :pattern ((select (select %c2 %0) %1)))))\n",
		"; bound element\n(assert (forall ((%0 T)) (= (select (select %c2 %0) i) %0)))\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "(declare-fun %c"); n != 4 {
		t.Errorf("%d constant arrays named, want 4 (equal arrays share a name):\n%s", n, text)
	}
	// The named arrays mean what the constant arrays meant: the first
	// assertion contradicts its definition.
	checkWithZ3(t, text, "unsat")
	p.Assertions[0] = Named{"consistent", Eq(Select(arrC, i), c)}
	text, _ = p.Text()
	checkWithZ3(t, text, "")
	checkWithCVC5(t, text)
}

// checkWithCVC5 checks that cvc5 parses text unchanged (cvc5 accepts a
// constant array only over a value). It is skipped without cvc5, unless
// LADDER_REQUIRE_AUDIT is set (make test installs cvc5 and sets it).
func checkWithCVC5(t *testing.T, text string) {
	t.Helper()
	path, err := exec.LookPath("cvc5")
	if err != nil {
		if os.Getenv("LADDER_REQUIRE_AUDIT") != "" {
			t.Fatalf("cvc5 is not installed (LADDER_REQUIRE_AUDIT is set)")
		}
		t.Logf("cvc5 not installed; skipping the parse check")
		return
	}
	cmd := exec.Command(path, "--parse-only", "--lang=smt2")
	cmd.Stdin = strings.NewReader("(set-logic ALL)\n" + text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("cvc5 --parse-only: %v\n%s\n%s", err, out, text)
	}
}

// TestTextFromMemo checks that a subset of a problem's assertions printed
// with the texts TextMemo kept is printed exactly as Text prints it, when
// some assertions hoist constant arrays (whose names depend on the
// assertions before them) and others do not.
func TestTextFromMemo(t *testing.T) {
	c := Const("c", tSort)
	d := Const("d", tSort)
	i := Const("i", lSort)
	x := Var("x", tSort)
	all := []Named{
		{"hoists c", Not(Eq(Select(ConstArray(lSort, c), i), c))},
		{"plain", Eq(c, d)},
		{"hoists d", Eq(Select(ConstArray(lSort, d), i), d)},
		{"shared twice", And(Eq(Select(ConstArray(lSort, c), i), d), Eq(Select(ConstArray(lSort, d), i), c))},
		{"binder", Forall([]*Term{x}, Or(Eq(x, d), Eq(x, c)))},
	}
	whole := &Problem{Assertions: all}
	text, memo, err := whole.TextMemo()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := whole.Text(); text != want {
		t.Fatalf("TextMemo printed\n%s\nText prints\n%s", text, want)
	}
	if len(memo) != 2 {
		t.Errorf("memo holds %d texts, want the 2 assertions that hoist nothing", len(memo))
	}
	for mask := 1; mask < 1<<len(all); mask++ {
		sub := &Problem{}
		for k, a := range all {
			if mask&(1<<k) != 0 {
				sub.Assertions = append(sub.Assertions, a)
			}
		}
		got, err := sub.TextFrom(memo)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := sub.Text(); got != want {
			t.Errorf("subset %05b: TextFrom printed\n%s\nText prints\n%s", mask, got, want)
		}
	}
}
