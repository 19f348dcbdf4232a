package expr

import (
	"testing"
)

// corpus holds expressions covering every node kind and the tricky
// combinations of precedence, binder bodies and `in`.
var corpus = []string{
	"42", "-7", "true", "x", "T#3", "None", "{}", "{a, b}", "[]", "[1, 2]",
	"R{f: 1, g: x}", "{x: T | x in s}", "f()", "f(a, b)", "c.f(a)", "c.x.y",
	"m[k]", "m[i := a][j := b]", "r with {f := 1, g := 2}", "(r with {f := 1}).f",
	"const(V#0)[L#1 := V#1]", "Some(get(o))",
	"-(3)", "--3", "-x", "-3[i]", "-3 * x", "x - -3", "-(x + y)", "-(-x)",
	"a <=> b => c", "(a <=> b) => c", "a => b => c", "(a => b) => c",
	"a or b and c", "(a or b) and c", "not a = b", "(not a) = b", "not (a and b)",
	"a = b + c", "(a = b) = c", "a + b * c", "(a + b) * c", "a - (b - c)", "a - b - c",
	"a * (b div c)", "a union b inter c", "(a union b) inter c", "a \\ (b \\ c)",
	"x in s union t", "(x in s) = (y in t)", "p subset m", "x notin s",
	"forall x: T. p and q", "(forall x: T. p) and q", "a and (forall x: T. p)",
	"a and forall x: T. p", "(exists x: T. p) => q", "exists x: T, y: Map[T, Option[V]]. p",
	"forall i in 0..len(s). s[i] > 0", "forall i in a + 1..n - 1, j in 0..i. p",
	"forall i in 0..c.n. p", "forall i in (if c then 0 else 1)..n. p",
	"forall i in 0..(forall x: T. p). q",
	"lambda l: L. V#0", "(lambda l: L. V#0)[l0]", "let x = a + 1 in x * x",
	"let x = (a in s) in x", "let x = a in b in s", "let x = let y = 1 in y in x",
	"let x = (let y = 1 in y in s) in x", "let x = (if c then a else b in s) in x",
	"let x = if a in s then b else c in x", "let x = (a in s) and b in x",
	"let x = not (a in s) in x", "let x = (forall y: T. y in s) in x",
	"let x = [a in s] in x", "let x = f(a in s) in x",
	"if c then a else b + 1", "(if c then a else b) + 1", "if a then b else if c then d else e",
	"1 + if c then 1 else 2", "f(forall x: T. p, q)", "{forall x: T. p}",
	"(if c then a else b)[i]", "(forall x: T. p) = q", "x = (forall y: T. p)",
	"not forall x: T. p", "-(if c then 1 else 2)", "- if c then 1 else 2",
	"∀ x: T. ∃ y: T. x ≠ y", "a ∧ b ∨ ¬c", "größe + 1",
	"rdSet[t] subset last(mems) and beginIdx[t] <= n",
	"mems = append(mems, override(last(mems), wrSet[t]))",
	"l in dom(wrSet[t]) or (beginIdx[t] <= n and n < len(mems) and rdSet[t] subset mems[n])",
	"let x = {y: T | y in s} in x",
	"r with {f := if c then 1 else 2}", "R{f: forall x: T. p}",
	"-9223372036854775808", "9223372036854775807",
}

func TestPrintRoundTrip(t *testing.T) {
	for _, in := range corpus {
		e, errs := ParseExpr(in, nil)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", in, errs)
			continue
		}
		out := Print(e)
		e2, errs := ParseExpr(out, nil)
		if len(errs) > 0 {
			t.Errorf("Print(%q) = %q does not parse: %v", in, out, errs)
			continue
		}
		if !Equal(e, e2) {
			t.Errorf("Print(%q) = %q reads back as %s, want %s", in, out, sexpr(e2), sexpr(e))
		}
		if out2 := Print(e2); out2 != out {
			t.Errorf("Print is not stable on %q: %q then %q", in, out, out2)
		}
	}
}

func TestPrintMinimalParens(t *testing.T) {
	tests := []struct{ in, want string }{
		{"((x))", "x"},
		{"(a and b) or c", "a and b or c"},
		{"a or (b and c)", "a or b and c"},
		{"(a or b) and c", "(a or b) and c"},
		{"(a + b) + c", "a + b + c"},
		{"a + (b + c)", "a + (b + c)"},
		{"a => (b => c)", "a => b => c"},
		{"(a => b) => c", "(a => b) => c"},
		{"(a <=> b) <=> c", "a <=> b <=> c"},
		{"a <=> (b <=> c)", "a <=> (b <=> c)"},
		{"not (a = b)", "not a = b"},
		{"(not a) = b", "(not a) = b"},
		{"a and (forall x: T. p)", "a and forall x: T. p"},
		{"(forall x: T. p) and q", "(forall x: T. p) and q"},
		{"a + (if c then 1 else 2)", "a + if c then 1 else 2"},
		{"(a + (if c then 1 else 2)) * 3", "(a + if c then 1 else 2) * 3"},
		{"f((a), (b + c))", "f(a, b + c)"},
		{"(m)[(k)]", "m[k]"},
		{"(-x)[i]", "(-x)[i]"},
		{"(-3)[i]", "(-3)[i]"},
		{"(x.f)[i]", "x.f[i]"},
		{"let x = (a in s) in x", "let x = (a in s) in x"},
		{"let x = (a + 1) in (x)", "let x = a + 1 in x"},
		{"(let x = 1 in x) = 1", "(let x = 1 in x) = 1"},
		{"∀x:T.p∧q", "forall x: T. p and q"},
		{"{ x : T | p }", "{x: T | p}"},
		{"if c then (forall x: T. p) else q", "if c then forall x: T. p else q"},
		{"if (forall x: T. p) then a else b", "if forall x: T. p then a else b"},
	}
	for _, tt := range tests {
		e, errs := ParseExpr(tt.in, nil)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", tt.in, errs)
			continue
		}
		if got := Print(e); got != tt.want {
			t.Errorf("Print(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPrintConstructed prints trees built with the constructors, as the
// prover does for counterexample values.
func TestPrintConstructed(t *testing.T) {
	tests := []struct {
		e    Expr
		want string
	}{
		{NewIntLit(-3), "-3"},
		{NewUnary(OpNeg, NewIntLit(3)), "-(3)"},
		{NewUnary(OpNeg, NewIntLit(-3)), "--3"},
		{NewIndex(NewIntLit(-3), NewIdent("i")), "(-3)[i]"},
		{NewBinary(OpMul, NewIntLit(-3), NewIdent("x")), "-3 * x"},
		{NewBinary(OpSub, NewIdent("x"), NewIntLit(-3)), "x - -3"},
		{NewCall("Some", NewElemLit("V", 1)), "Some(V#1)"},
		{NewUpdate(NewCall("const", NewElemLit("V", 0)), NewElemLit("L", 1), NewElemLit("V", 1)),
			"const(V#0)[L#1 := V#1]"},
		{NewSeqLit(NewCall("const", NewElemLit("V", 0)), NewCall("const", NewElemLit("V", 0))),
			"[const(V#0), const(V#0)]"},
		{NewSetLit(NewElemLit("L", 0)), "{L#0}"},
		{NewRecordLit("R", NewFieldInit("f", NewIntLit(1))), "R{f: 1}"},
		{NewRecordUpdate(NewIdent("r"), NewFieldInit("f", NewBoolLit(true))), "r with {f := true}"},
		{NewRecvCall("c", "validIdx", NewIdent("t"), NewIntLit(0)), "c.validIdx(t, 0)"},
		{NewFieldSel(NewIdent("a"), "mems"), "a.mems"},
		{NewQuant(true, []*Binder{NewBinder("t", NewSortExpr("T")), NewRangeBinder("i", NewIntLit(0), NewIdent("n"))},
			NewBinary(OpIn, NewIdent("t"), NewIdent("s"))), "forall t: T, i in 0..n. t in s"},
		{NewBinary(OpAnd, NewQuant(false, []*Binder{NewBinder("t", NewSortExpr("T"))}, NewIdent("p")), NewIdent("q")),
			"(exists t: T. p) and q"},
		{NewLet("x", NewBinary(OpIn, NewIdent("a"), NewIdent("s")), NewIdent("x")), "let x = (a in s) in x"},
		{NewLambda(NewBinder("l", NewSortExpr("L")), NewElemLit("V", 0)), "lambda l: L. V#0"},
		{NewSetComp(NewBinder("l", NewSortExpr("L")), NewBoolLit(true)), "{l: L | true}"},
		{NewIte(NewIdent("c"), NewIntLit(1), NewIntLit(2)), "if c then 1 else 2"},
		{NewBinary(OpAdd, NewIte(NewIdent("c"), NewIntLit(1), NewIntLit(2)), NewIntLit(3)), "(if c then 1 else 2) + 3"},
		{NewBinary(OpEq, NewIdent("x"), NewBinary(OpEq, NewIdent("y"), NewIdent("z"))), "x = (y = z)"},
		{NewBinary(OpEq, NewBinary(OpEq, NewIdent("y"), NewIdent("z")), NewIdent("x")), "(y = z) = x"},
		{NewUnary(OpNot, NewUnary(OpNot, NewIdent("p"))), "not not p"},
		{NewBinary(OpLt, NewUnary(OpNot, NewIdent("p")), NewIdent("q")), "(not p) < q"},
		{NewBadExpr(), "<bad expression>"},
	}
	for _, tt := range tests {
		got := Print(tt.e)
		if got != tt.want {
			t.Errorf("Print(%s) = %q, want %q", sexpr(tt.e), got, tt.want)
		}
		if _, bad := tt.e.(*BadExpr); bad {
			continue
		}
		back, errs := ParseExpr(got, nil)
		if len(errs) > 0 {
			t.Errorf("Print(%s) = %q does not parse: %v", sexpr(tt.e), got, errs)
			continue
		}
		if !Equal(back, tt.e) {
			t.Errorf("Print(%s) = %q reads back as %s", sexpr(tt.e), got, sexpr(back))
		}
	}
}

func TestPrintStmts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "skip"},
		{"x := 1; y[t] := 2", "x := 1\ny[t] := 2"},
		{"if c then x := 1 elif d then skip else r.f := 2 end",
			"if c then\n  x := 1\nelif d then\n  skip\nelse\n  r.f := 2\nend"},
		{"if c then if d then x := 1 end end",
			"if c then\n  if d then\n    x := 1\n  end\nend"},
		{"if c then x := 1 else if d then x := 2 end end",
			"if c then\n  x := 1\nelif d then\n  x := 2\nend"},
		{"x := if c then 1 else 2; y := forall t: T. p",
			"x := if c then 1 else 2\ny := forall t: T. p"},
	}
	for _, tt := range tests {
		ss, errs := ParseStmts(tt.in, nil)
		if len(errs) > 0 {
			t.Errorf("ParseStmts(%q): %v", tt.in, errs)
			continue
		}
		got := PrintStmts(ss)
		if got != tt.want {
			t.Errorf("PrintStmts(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, errs := ParseStmts(got, nil)
		if len(errs) > 0 || !EqualStmts(back, ss) {
			t.Errorf("PrintStmts(%q) = %q reads back as %s (%v)", tt.in, got, sstmts(back), errs)
		}
	}
}

func TestEqual(t *testing.T) {
	same := [][2]string{
		{"a + b", "(a) + (b)"},
		{"forall x: T. p", "∀ x : T . p"},
		{"{x: T | p}", "{x:T|p}"},
	}
	for _, p := range same {
		a, _ := ParseExpr(p[0], nil)
		b, _ := ParseExpr(p[1], nil)
		if !Equal(a, b) {
			t.Errorf("Equal(%q, %q) = false", p[0], p[1])
		}
	}
	diff := [][2]string{
		{"a + b", "b + a"}, {"a - b", "a + b"}, {"forall x: T. p", "exists x: T. p"},
		{"forall x: T. p", "forall y: T. p"}, {"forall x: T. p", "forall x: L. p"},
		{"{x: T | p}", "lambda x: T. p"}, {"f(a)", "c.f(a)"}, {"f(a)", "f(a, a)"},
		{"R{f: 1}", "R{g: 1}"}, {"T#0", "T#1"}, {"-3", "-(3)"}, {"m[i]", "m[i := i]"},
		{"forall i in 0..n. p", "forall i in 0..m. p"}, {"{a}", "[a]"},
	}
	for _, p := range diff {
		a, _ := ParseExpr(p[0], nil)
		b, _ := ParseExpr(p[1], nil)
		if Equal(a, b) {
			t.Errorf("Equal(%q, %q) = true", p[0], p[1])
		}
	}
}
