package encode

import (
	"strings"
	"testing"

	"ladder/internal/logic"
	"ladder/ioa/expr"
)

func problemText(t *testing.T, p *logic.Problem) string {
	t.Helper()
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func TestStateSymbolsAndFacts(t *testing.T) {
	a := loadAutomaton(t, "testdata/small.yaml", "Small")
	e := New()
	_, err := e.NewState(a, "s")
	if err == nil || !strings.Contains(err.Error(), "map key") {
		t.Fatalf("Map[Seq[Int], Int] accepted: %v", err)
	}
	// without the bad variable
	a.Vars = a.Vars[:4]
	a.StateSort.Fields = a.StateSort.Fields[:4]
	e = New()
	s, err := e.NewState(a, "s")
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.NewState(a, "u")
	if err != nil {
		t.Fatal(err)
	}
	nf, err := e.NatFacts(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := nf.String(); got != "(and (>= s.n 0) (forall ((%0 T)) (>= (select s.ages %0) 0)))" {
		t.Errorf("NatFacts = %s", got)
	}
	p, err := e.Problem(nil, logic.Ge(s.Vars[2].Parts()[0].Term(), logic.IntVal(0)))
	if err != nil {
		t.Fatal(err)
	}
	text := problemText(t, p)
	if !strings.Contains(text, "; wf(s.log)") || strings.Contains(text, "u.") {
		t.Errorf("background facts: want wf(s.log) only for s:\n%s", text)
	}
	// mentioning u's sequence brings its well-formedness
	p, _ = e.Problem(nil, Eq(other.Vars[2], s.Vars[2]))
	if text := problemText(t, p); !strings.Contains(text, "; wf(u.log)") {
		t.Errorf("no wf(u.log):\n%s", text)
	}
	// Nat facts are not background facts of states
	if strings.Contains(text, ">= s.n 0") {
		t.Errorf("Nat fact of a state assumed:\n%s", text)
	}
}

func TestActionEncoding(t *testing.T) {
	a := loadAutomaton(t, "testdata/small.yaml", "Small")
	a.Vars = a.Vars[:4]
	a.StateSort.Fields = a.StateSort.Fields[:4]
	e := New()
	s, _ := e.NewState(a, "s")
	act := a.Action("Tick")
	ps, err := e.NewParams(act, "p")
	if err != nil {
		t.Fatal(err)
	}
	pre, err := e.Pre(act, s, ps)
	if err != nil {
		t.Fatal(err)
	}
	want := "(and (<= 0 p.k) (< p.k s.n) (= s.phase Phase.Idle) (not (= |T#1| p.t)))"
	if pre.String() != want {
		t.Errorf("Pre = %s\nwant %s", pre, want)
	}
	post, err := e.Post(act, s, ps, "s'")
	if err != nil {
		t.Fatal(err)
	}
	if got := post.Vars[0].Term().String(); got != "(+ s.n p.k)" {
		t.Errorf("n' = %s", got)
	}
	if got := post.Vars[3].Term().String(); got != "(ite (> p.k 0) Phase.Busy s.phase)" {
		t.Errorf("phase' = %s", got)
	}
	if got := post.Vars[1].Term().String(); got != "(ite (> p.k 0) s.ages (ite (= p.k 0) (store s.ages p.t |Small::c0|) s.ages))" {
		t.Errorf("ages' = %s", got)
	}
	lg := post.Vars[2].Parts()
	if lg[0].Term().String() != "(+ s.log.len 1)" || lg[1].Term().String() != "(store s.log.elems s.log.len p.k)" {
		t.Errorf("log' = %s, %s", lg[0].Term(), lg[1].Term())
	}
	// the problem: T#1 and the default T#0 would be distinct; constants
	// and parameters of Nat sort are >= 0 in the background
	p, err := e.Problem([]logic.Named{{Name: "pre", Term: pre}}, logic.Eq(post.Vars[1].Term(), s.Vars[1].Term()))
	if err != nil {
		t.Fatal(err)
	}
	text := problemText(t, p)
	for _, w := range []string{"; nat(Small::c0)\n(assert (>= |Small::c0| 0))", "(declare-fun |T#1| () T)"} {
		if !strings.Contains(text, w) {
			t.Errorf("problem lacks %q:\n%s", w, text)
		}
	}
}

func TestDeclaredNames(t *testing.T) {
	e := New()
	s1 := &expr.Sort{Kind: expr.KEnum, Name: "PC", Elems: []string{"A", "B"}}
	s2 := &expr.Sort{Kind: expr.KEnum, Name: "PC", Elems: []string{"A", "C"}}
	s3 := &expr.Sort{Kind: expr.KEnum, Name: "PC", Elems: []string{"A", "B"}}
	d1, _ := e.enumDatatype(s1)
	d2, _ := e.enumDatatype(s2)
	d3, _ := e.enumDatatype(s3)
	if d1.Name() != "PC" || d2.Name() != "PC~2" || d3 != d1 {
		t.Errorf("datatype names %s %s %s", d1.Name(), d2.Name(), d3.Name())
	}
	if d2.Constructor(1).Name != "PC~2.C" {
		t.Errorf("constructor %s", d2.Constructor(1).Name)
	}
	// total division
	x, y := logic.Const("x", logic.IntSort()), logic.Const("y", logic.IntSort())
	if got := Div(x, y).String(); got != "(ite (= y 0) 0 (div x y))" {
		t.Errorf("div = %s", got)
	}
	if got := Mod(x, y).String(); got != "(ite (= y 0) x (mod x y))" {
		t.Errorf("mod = %s", got)
	}
	if got := Div(x, logic.IntVal(-2)).String(); got != "(div x (- 2))" {
		t.Errorf("div by literal = %s", got)
	}
}
