package logic

import (
	"os/exec"
	"strings"
	"testing"
)

var (
	tSort = UninterpretedSort("T")
	lSort = UninterpretedSort("L")
)

func optionT(t *testing.T) *Datatype {
	t.Helper()
	dt, err := NewDatatype("Option[T]",
		Constructor{Name: "None[T]"},
		Constructor{Name: "Some[T]", Fields: []Field{{Name: "Some[T].val", Sort: tSort}}})
	if err != nil {
		t.Fatal(err)
	}
	return dt
}

func TestSymbolQuoting(t *testing.T) {
	cases := map[string]string{
		"x": "x", "s.pc": "s.pc", "T#0": "|T#0|", "0x": "|0x|", "let": "|let|",
		"Option[T]": "|Option[T]|", "a-b": "a-b", "with space": "|with space|",
	}
	for in, want := range cases {
		if got := Symbol(in); got != want {
			t.Errorf("Symbol(%q) = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "%0", "@x", ".x", "a|b", `a\b`, "a\nb"} {
		if CheckName(bad) == nil {
			t.Errorf("CheckName(%q) accepted", bad)
		}
	}
	if CheckName("T#0") != nil {
		t.Errorf("CheckName(T#0) rejected")
	}
}

func TestSimplifications(t *testing.T) {
	x := Const("x", BoolSort())
	y := Const("y", BoolSort())
	n := Const("n", IntSort())
	checks := []struct {
		got  *Term
		want string
	}{
		{And(), "true"},
		{Or(), "false"},
		{And(x, True(), y), "(and x y)"},
		{And(x, False()), "false"},
		{Or(x, True()), "true"},
		{And(And(x, y), x), "(and x y x)"},
		{Not(Not(x)), "x"},
		{Not(True()), "false"},
		{Implies(True(), x), "x"},
		{Implies(x, False()), "(not x)"},
		{Implies(False(), x), "true"},
		{Eq(n, n), "true"},
		{Eq(IntVal(1), IntVal(2)), "false"},
		{Ite(True(), n, IntVal(0)), "n"},
		{Ite(x, n, n), "n"},
		{Add(), "0"},
		{Add(n), "n"},
		{IntVal(-5), "(- 5)"},
		{IntVal(-9223372036854775808), "(- 9223372036854775808)"},
		{Distinct(n), "true"},
		{Forall([]*Term{Var("v", IntSort())}, True()), "true"},
	}
	for _, c := range checks {
		if c.got.Err() != nil {
			t.Errorf("unexpected error %v", c.got.Err())
			continue
		}
		if s := c.got.String(); s != c.want {
			t.Errorf("got %s, want %s", s, c.want)
		}
	}
}

func TestSortErrorsPropagate(t *testing.T) {
	b := Const("b", BoolSort())
	n := Const("n", IntSort())
	a := Const("a", ArraySort(tSort, IntSort()))
	bads := []*Term{
		Add(n, b),
		Not(n),
		Eq(n, b),
		Ite(n, n, n),
		Ite(b, n, b),
		Select(n, n),
		Select(a, n),
		Store(a, Const("t", tSort), b),
		Const("%x", IntSort()),
		Forall([]*Term{Const("c", IntSort())}, b),
		Forall([]*Term{Var("v", IntSort())}, n),
		Lambda(Var("v", IntSort()), n), // fine: not an error
	}
	for i, x := range bads[:len(bads)-1] {
		if x.Err() == nil {
			t.Errorf("case %d: %s: no error", i, x)
		}
		// errors propagate through every constructor
		if And(b, Eq(x, x)).Err() == nil && Same(x.Sort(), x.Sort()) {
			t.Errorf("case %d: error lost", i)
		}
	}
	if bads[len(bads)-1].Err() != nil {
		t.Errorf("lambda: %v", bads[len(bads)-1].Err())
	}
	p := &Problem{Assertions: []Named{{"bad", Eq(Add(n, b), n)}}}
	if _, err := p.Text(); err == nil {
		t.Errorf("Text accepted an ill-sorted assertion")
	}
}

func TestDatatypeOps(t *testing.T) {
	dt := optionT(t)
	x := Const("x", tSort)
	some := Ctor(dt, 1, x)
	if got := Access(dt, 1, 0, some); !Equal(got, x) {
		t.Errorf("field of constructor = %s", got)
	}
	if got := Is(dt, 0, some); !got.IsFalse() {
		t.Errorf("is-None(Some x) = %s", got)
	}
	o := Const("o", DatatypeSort(dt))
	if got := Is(dt, 1, o).String(); got != "((_ is |Some[T]|) o)" {
		t.Errorf("tester prints %s", got)
	}
	if got := Ctor(dt, 0).String(); got != "|None[T]|" {
		t.Errorf("nullary constructor prints %s", got)
	}
	if Ctor(dt, 1).Err() == nil || Ctor(dt, 1, IntVal(1)).Err() == nil || Access(dt, 1, 0, x).Err() == nil {
		t.Errorf("ill-formed datatype op accepted")
	}
	if _, err := NewDatatype("R", Constructor{Name: "mk", Fields: []Field{{Name: "f", Sort: ArraySort(IntSort(), DatatypeSort(dt))}}}); err != nil {
		t.Errorf("nested datatype rejected: %v", err)
	}
	if _, err := NewDatatype("E"); err == nil {
		t.Errorf("empty datatype accepted")
	}
}

func TestEqualAndHash(t *testing.T) {
	mk := func() *Term {
		v := Var("v", tSort)
		a := Const("a", ArraySort(tSort, IntSort()))
		return Forall([]*Term{v}, Le(IntVal(0), Select(a, v)))
	}
	a, b := mk(), mk()
	if a == b || !Equal(a, b) || a.Hash() != b.Hash() {
		t.Errorf("structurally equal terms differ")
	}
	c := Forall([]*Term{Var("v", tSort)}, Lt(IntVal(0), Select(Const("a", ArraySort(tSort, IntSort())), Var("v", tSort))))
	if Equal(a, c) {
		t.Errorf("different terms Equal")
	}
	if !a.IsClosed() || Select(Const("a", ArraySort(tSort, IntSort())), Var("v", tSort)).IsClosed() {
		t.Errorf("IsClosed wrong")
	}
}

func TestSubst(t *testing.T) {
	x := Const("x", IntSort())
	y := Const("y", IntSort())
	v := Var("v", IntSort())
	// x + v under a binder of v, with x := v + 1 (captures v unless renamed)
	body := Lt(x, v)
	q := Forall([]*Term{v}, body)
	got := Subst(q, Pair{x, Add(v, IntVal(1))})
	if got.Err() != nil {
		t.Fatal(got.Err())
	}
	// The result must have a free variable v (the replacement's), bound var renamed.
	fv := FreeVars(got)
	if len(fv) != 1 || fv[0].Name() != "v" {
		t.Fatalf("free vars of %s: %v", got, fv)
	}
	if bv := got.Vars()[0].Name(); bv == "v" {
		t.Errorf("bound variable not renamed: %s", got)
	}
	// shadowing: substituting v does not touch a bound v
	if got := Subst(q, Pair{v, y}); got != q {
		t.Errorf("bound occurrence substituted: %s", got)
	}
	// simultaneous: x := y, y := x swaps
	sw := Subst(Sub(x, y), Pair{x, y}, Pair{y, x})
	if sw.String() != "(- y x)" {
		t.Errorf("swap gives %s", sw)
	}
	// sort mismatch
	if Subst(x, Pair{x, True()}).Err() == nil {
		t.Errorf("ill-sorted substitution accepted")
	}
	// simplification after substitution
	b := Const("b", BoolSort())
	if got := Subst(And(b, Lt(x, y)), Pair{b, False()}); !got.IsFalse() {
		t.Errorf("and(false, ...) = %s", got)
	}
	consts := FreeConsts(Add(x, y, x), Select(Const("a", ArraySort(IntSort(), IntSort())), x))
	var names []string
	for _, c := range consts {
		names = append(names, c.Name())
	}
	if strings.Join(names, ",") != "a,x,y" {
		t.Errorf("FreeConsts = %v", names)
	}
}

func TestCanonicalText(t *testing.T) {
	dt := optionT(t)
	mk := func(varName string, order bool) *Problem {
		v := Var(varName, tSort)
		m := Const("m", ArraySort(tSort, DatatypeSort(dt)))
		z := Const("z", lSort)
		a1 := Named{"a1", Forall([]*Term{v}, Is(dt, 1, Select(m, v)))}
		a2 := Named{"a2", Eq(z, z)}
		a3 := Named{"a3", Eq(Const("b", BoolSort()), Eq(Const("q", lSort), z))}
		p := &Problem{Assertions: []Named{a1, a2, a3}}
		if order {
			p.Decls = []*Term{Const("zz", IntSort()), Const("aa", IntSort())}
		} else {
			p.Decls = []*Term{Const("aa", IntSort()), Const("zz", IntSort())}
		}
		return p
	}
	t1, err := mk("x", true).Text()
	if err != nil {
		t.Fatal(err)
	}
	t2, _ := mk("other", false).Text()
	if t1 != t2 {
		t.Errorf("alpha-variants or declaration order change the text:\n%s\n%s", t1, t2)
	}
	want := `(declare-sort L 0)
(declare-sort T 0)
(declare-datatypes ((|Option[T]| 0)) (((|None[T]|) (|Some[T]| (|Some[T].val| T)))))
(declare-fun aa () Int)
(declare-fun b () Bool)
(declare-fun m () (Array T |Option[T]|))
(declare-fun q () L)
(declare-fun z () L)
(declare-fun zz () Int)
; a1
(assert (forall ((%0 T)) ((_ is |Some[T]|) (select m %0))))
; a2
(assert true)
; a3
(assert (= b (= q z)))
(check-sat)
`
	if t1 != want {
		t.Errorf("text:\n%s\nwant:\n%s", t1, want)
	}
	h1, _ := mk("x", true).Hash()
	h2, _ := mk("y", false).Hash()
	if h1 != h2 || len(h1) != 64 {
		t.Errorf("hashes %s %s", h1, h2)
	}
	if strings.Contains(t1, "set-option") || strings.Contains(t1, "set-logic") {
		t.Errorf("text sets options")
	}
}

func TestDatatypeDependencyOrder(t *testing.T) {
	inner, _ := NewDatatype("Z", Constructor{Name: "Za"}, Constructor{Name: "Zb"})
	outer, _ := NewDatatype("A", Constructor{Name: "mkA", Fields: []Field{{Name: "A.z", Sort: DatatypeSort(inner)}}})
	p := &Problem{Assertions: []Named{{"x", Is(outer, 0, Const("c", DatatypeSort(outer)))}}}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Index(text, "((Z 0))") > strings.Index(text, "((A 0))") {
		t.Errorf("dependency declared after its user:\n%s", text)
	}
}

func TestCheckRejects(t *testing.T) {
	dt := optionT(t)
	cases := map[string]*Problem{
		"two sorts": {Assertions: []Named{{"a", Lt(Const("x", IntSort()), IntVal(0))}},
			Decls: []*Term{Const("x", BoolSort())}},
		"non-bool":   {Assertions: []Named{{"a", IntVal(1)}}},
		"loose var":  {Assertions: []Named{{"a", Eq(Var("v", IntSort()), IntVal(1))}}},
		"ctor clash": {Assertions: []Named{{"a", Eq(Const("None[T]", DatatypeSort(dt)), Ctor(dt, 0))}}},
		"name":       {Assertions: []Named{{"a\nb", True()}}},
	}
	for name, p := range cases {
		if err := p.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	other, _ := NewDatatype("Option[T]", Constructor{Name: "X"})
	p := &Problem{Assertions: []Named{{"a", Is(dt, 0, Const("o", DatatypeSort(dt)))}, {"b", Is(other, 0, Const("p", DatatypeSort(other)))}}}
	if p.Check() == nil {
		t.Errorf("two datatypes of one name accepted")
	}
}

// TestLetSharing checks that a DAG with exponentially many paths prints in
// linear size, and that sharing does not depend on pointer identity.
func TestLetSharing(t *testing.T) {
	x := Const("x", IntSort())
	build := func() *Term {
		e := x
		for i := 0; i < 40; i++ {
			e = Add(Add(e, e), IntVal(1))
		}
		return Eq(e, IntVal(0))
	}
	p := &Problem{Assertions: []Named{{"big", build()}}}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	if len(text) > 20000 {
		t.Fatalf("shared DAG printed in %d bytes", len(text))
	}
	if !strings.Contains(text, "(let ((%l0 ") {
		t.Errorf("no let in:\n%s", text)
	}
	// Rebuilding the same structure without sharing (two separate builds
	// combined) prints the same let structure.
	x1 := Add(Mul(x, x), IntVal(1))
	x2 := Add(Mul(x, x), IntVal(1))
	q1 := &Problem{Assertions: []Named{{"s", Eq(Mul(x1, x1), IntVal(0))}}}
	q2 := &Problem{Assertions: []Named{{"s", Eq(Mul(x1, x2), IntVal(0))}}}
	s1, _ := q1.Text()
	s2, _ := q2.Text()
	if s1 != s2 {
		t.Errorf("sharing depends on pointers:\n%s\n%s", s1, s2)
	}
	// A closed shared term under a binder is hoisted; one with the bound
	// variable is not.
	v := Var("v", IntSort())
	sh := Add(Mul(x, x), IntVal(2))
	q3 := &Problem{Assertions: []Named{{"q", Forall([]*Term{v}, Or(Lt(v, sh), Gt(v, sh)))}}}
	s3, err := q3.Text()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s3, "(assert (let ((%l0 (+ (* x x) 2))) (forall ((%0 Int)) (or (< %0 %l0) (> %0 %l0)))))") {
		t.Errorf("binder sharing:\n%s", s3)
	}
	checkWithZ3(t, text, "")
	checkWithZ3(t, s3, "unsat")
}

// checkWithZ3 runs the z3 command line on text when it is installed and
// checks its verdict (any verdict when want is "").
func checkWithZ3(t *testing.T, text, want string) {
	t.Helper()
	path, err := exec.LookPath("z3")
	if err != nil {
		t.Logf("z3 command line not installed; skipping the cross-check")
		return
	}
	cmd := exec.Command(path, "-in", "-T:20")
	cmd.Stdin = strings.NewReader(text)
	out, err := cmd.CombinedOutput()
	got := strings.TrimSpace(string(out))
	if err != nil && got == "" {
		t.Fatalf("z3: %v", err)
	}
	if strings.Contains(got, "error") {
		t.Fatalf("z3 rejected the text: %s\n%s", got, text)
	}
	if want != "" && got != want {
		t.Errorf("z3 says %s, want %s", got, want)
	}
}

func TestZ3AcceptsText(t *testing.T) {
	dt := optionT(t)
	v := Var("v", tSort)
	m := Const("m", ArraySort(tSort, DatatypeSort(dt)))
	c := Const("c", tSort)
	lam := Lambda(v, Ctor(dt, 1, v))
	p := &Problem{Assertions: []Named{
		{"m is lam", Eq(m, lam)},
		{"at c", Forall([]*Term{v}, Is(dt, 1, Select(m, v)), []*Term{Select(m, v)})},
		{"goal negated", Not(Eq(Access(dt, 1, 0, Select(m, c)), c))},
		{"arith", Eq(Mod(IntVal(-7), IntVal(2)), IntVal(1))},
		{"const", Eq(Select(ConstArray(IntSort(), IntVal(-3)), IntVal(5)), IntVal(-3))},
		{"store", Eq(Select(Store(ConstArray(IntSort(), IntVal(0)), IntVal(1), IntVal(9)), IntVal(1)), IntVal(9))},
		{"distinct", Distinct(Const("a1", tSort), Const("a2", tSort))},
	}}
	text, err := p.Text()
	if err != nil {
		t.Fatal(err)
	}
	checkWithZ3(t, text, "unsat")
	p.Assertions[2] = Named{"sat now", Eq(Access(dt, 1, 0, Select(m, c)), c)}
	text, _ = p.Text()
	checkWithZ3(t, text, "sat")
}
