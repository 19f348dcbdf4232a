package expr

import (
	"fmt"
	"strings"
	"testing"

	"ladder/internal/source"
)

// sexpr renders a tree fully parenthesized, so that tests state the expected
// structure independently of the printer.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "nil"
	case *Ident:
		return e.Name
	case *IntLit:
		return fmt.Sprint(e.Value)
	case *BoolLit:
		return fmt.Sprint(e.Value)
	case *ElemLit:
		return fmt.Sprintf("%s#%d", e.SortName, e.Index)
	case *Unary:
		if e.Op == OpNeg {
			return "(neg " + sexpr(e.X) + ")"
		}
		return "(" + e.Op.String() + " " + sexpr(e.X) + ")"
	case *Binary:
		return "(" + e.Op.String() + " " + sexpr(e.X) + " " + sexpr(e.Y) + ")"
	case *Ite:
		return "(if " + sexpr(e.Cond) + " " + sexpr(e.Then) + " " + sexpr(e.Else) + ")"
	case *Let:
		return "(let " + e.Var.Name + " " + sexpr(e.Value) + " " + sexpr(e.Body) + ")"
	case *Quant:
		s := "(exists"
		if e.Forall {
			s = "(forall"
		}
		for _, b := range e.Binders {
			s += " " + sbinder(b)
		}
		return s + " " + sexpr(e.Body) + ")"
	case *Lambda:
		if e.Set {
			return "(setcomp " + sbinder(e.Binder) + " " + sexpr(e.Body) + ")"
		}
		return "(lambda " + sbinder(e.Binder) + " " + sexpr(e.Body) + ")"
	case *Call:
		s := "(call "
		if e.Recv != nil {
			s += e.Recv.Name + "."
		}
		s += e.Fun.Name
		for _, a := range e.Args {
			s += " " + sexpr(a)
		}
		return s + ")"
	case *Index:
		return "(idx " + sexpr(e.X) + " " + sexpr(e.Index) + ")"
	case *Update:
		return "(upd " + sexpr(e.X) + " " + sexpr(e.Index) + " " + sexpr(e.Value) + ")"
	case *FieldSel:
		return "(sel " + sexpr(e.X) + " " + e.Name + ")"
	case *RecordUpdate:
		s := "(with " + sexpr(e.X)
		for _, f := range e.Fields {
			s += " (" + f.Name + " " + sexpr(f.Value) + ")"
		}
		return s + ")"
	case *RecordLit:
		s := "(rec " + e.SortName
		for _, f := range e.Fields {
			s += " (" + f.Name + " " + sexpr(f.Value) + ")"
		}
		return s + ")"
	case *SetLit:
		return "(set" + slist(e.Elems) + ")"
	case *SeqLit:
		return "(seq" + slist(e.Elems) + ")"
	case *BadExpr:
		return "BAD"
	}
	return "?"
}

func slist(es []Expr) string {
	s := ""
	for _, x := range es {
		s += " " + sexpr(x)
	}
	return s
}

func sbinder(b *Binder) string {
	if b.Lo != nil {
		return "(" + b.Var.Name + " in " + sexpr(b.Lo) + " " + sexpr(b.Hi) + ")"
	}
	return "(" + b.Var.Name + " " + b.SortExpr.String() + ")"
}

func sstmts(ss []Stmt) string {
	var parts []string
	for _, s := range ss {
		switch s := s.(type) {
		case *Assign:
			parts = append(parts, "(:= "+sexpr(s.Target)+" "+sexpr(s.Value)+")")
		case *IfStmt:
			parts = append(parts, "(if "+sexpr(s.Cond)+" ["+sstmts(s.Then)+"] ["+sstmts(s.Else)+"])")
		}
	}
	return strings.Join(parts, " ")
}

func TestParseExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		// literals and primaries
		{"42", "42"},
		{"true", "true"},
		{"false", "false"},
		{"x", "x"},
		{"_x1", "_x1"},
		{"T#3", "T#3"},
		{"T # 0", "T#0"},
		{"None", "None"},
		{"(x)", "x"},
		{"{}", "(set)"},
		{"{a, b}", "(set a b)"},
		{"[]", "(seq)"},
		{"[1, 2, 3]", "(seq 1 2 3)"},
		{"R{f: 1, g: x}", "(rec R (f 1) (g x))"},
		{"R{}", "(rec R)"},
		{"{x: T | x in s}", "(setcomp (x T) (in x s))"},
		{"f()", "(call f)"},
		{"f(a, b)", "(call f a b)"},
		{"c.f(a)", "(call c.f a)"},
		{"c.x", "(sel c x)"},
		{"c.x.y", "(sel (sel c x) y)"},
		{"m[k]", "(idx m k)"},
		{"m[k := v]", "(upd m k v)"},
		{"m[i := a][j := b]", "(upd (upd m i a) j b)"},
		{"m[i][j]", "(idx (idx m i) j)"},
		{"r with {f := 1, g := 2}", "(with r (f 1) (g 2))"},
		{"r with {f := 1}.f", "(sel (with r (f 1)) f)"},
		{"const(V#0)[L#1 := V#1]", "(upd (call const V#0) L#1 V#1)"},
		{"Some(x)", "(call Some x)"},
		// negative literals fold, other minus signs do not
		{"-3", "-3"},
		{"- 3", "-3"},
		{"-(3)", "(neg 3)"},
		{"--3", "(neg -3)"},
		{"-x", "(neg x)"},
		{"-3[i]", "(neg (idx 3 i))"},
		{"-3 * x", "(* -3 x)"},
		{"x - 3", "(- x 3)"},
		{"x - -3", "(- x -3)"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"9223372036854775807", "9223372036854775807"},
		// precedence, lowest to highest
		{"a <=> b => c", "(<=> a (=> b c))"},
		{"a => b or c", "(=> a (or b c))"},
		{"a or b and c", "(or a (and b c))"},
		{"a and not b", "(and a (not b))"},
		{"not a = b", "(not (= a b))"},
		{"not not a", "(not (not a))"},
		{"a = b + c", "(= a (+ b c))"},
		{"a + b * c", "(+ a (* b c))"},
		{"a * -b", "(* a (neg b))"},
		{"-a[i]", "(neg (idx a i))"},
		{"-a.f", "(neg (sel a f))"},
		{"a union b inter c", "(union a (inter b c))"},
		{"a \\ b union c", "(union (\\ a b) c)"},
		{"x in s union t", "(in x (union s t))"},
		{"p subset m", "(subset p m)"},
		{"x notin s", "(notin x s)"},
		{"a div b mod c", "(mod (div a b) c)"},
		{"a != b", "(!= a b)"},
		{"a < b", "(< a b)"},
		{"a <= b", "(<= a b)"},
		{"a > b", "(> a b)"},
		{"a >= b", "(>= a b)"},
		// associativity
		{"a <=> b <=> c", "(<=> (<=> a b) c)"},
		{"a => b => c", "(=> a (=> b c))"},
		{"a or b or c", "(or (or a b) c)"},
		{"a and b and c", "(and (and a b) c)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a - (b - c)", "(- a (- b c))"},
		{"a * b div c", "(div (* a b) c)"},
		{"(a = b) = c", "(= (= a b) c)"},
		// word spellings
		{"a iff b", "(<=> a b)"},
		{"a implies b", "(=> a b)"},
		// binder forms extend as far right as possible
		{"forall x: T. p and q", "(forall (x T) (and p q))"},
		{"a and forall x: T. p or q", "(and a (forall (x T) (or p q)))"},
		{"exists x: T, y: Map[T, Option[V]]. p", "(exists (x T) (y Map[T, Option[V]]) p)"},
		{"forall i in 0..len(s). s[i] > 0", "(forall (i in 0 (call len s)) (> (idx s i) 0))"},
		{"forall i in 0..n. p", "(forall (i in 0 n) p)"},
		{"forall i in 0..c.n. p", "(forall (i in 0 (sel c n)) p)"},
		{"forall i in a + 1..n - 1, j in 0..i. p", "(forall (i in (+ a 1) (- n 1)) (j in 0 i) p)"},
		{"lambda l: L. V#0", "(lambda (l L) V#0)"},
		// `x in S` is the YAML-friendly spelling of `x: S`
		{"forall t in T. p", "(forall (t T) p)"},
		{"exists t in T, i in 0..n. p", "(exists (t T) (i in 0 n) p)"},
		{"lambda l in L. V#0", "(lambda (l L) V#0)"},
		{"{l in L | p}", "(setcomp (l L) p)"},
		{"let x = a + 1 in x * x", "(let x (+ a 1) (* x x))"},
		{"let x = (a in s) in x", "(let x (in a s) x)"},
		{"let x = a in b in s", "(let x a (in b s))"},
		{"let x = let y = 1 in y in x", "(let x (let y 1 y) x)"},
		{"let x = [a in s] in x", "(let x (seq (in a s)) x)"},
		{"let x = if a in s then 1 else 2 in x", "(let x (if (in a s) 1 2) x)"},
		{"if c then a else b + 1", "(if c a (+ b 1))"},
		{"if a then b else if c then d else e", "(if a b (if c d e))"},
		{"1 + if c then 1 else 2", "(+ 1 (if c 1 2))"},
		{"(if c then 1 else 2) + 1", "(+ (if c 1 2) 1)"},
		{"f(forall x: T. p, q)", "(call f (forall (x T) p) q)"},
		// unicode spellings
		{"∀ x: T. ∃ y: T. x ≠ y", "(forall (x T) (exists (y T) (!= x y)))"},
		{"λ l: L. v0", "(lambda (l L) v0)"},
		{"a ∧ b ∨ ¬c", "(or (and a b) (not c))"},
		{"a ⇒ b ⇔ c", "(<=> (=> a b) c)"},
		{"a ≤ b ∧ a ≥ c", "(and (<= a b) (>= a c))"},
		{"x ∈ s ∪ t ∩ u", "(in x (union s (inter t u)))"},
		{"x ∉ s", "(notin x s)"},
		{"p ⊆ m", "(subset p m)"},
		{"∀x:T.p", "(forall (x T) p)"},
		{"größe + 1", "(+ größe 1)"},
		// comments and layout
		{"a // the first\n+ b // the second", "(+ a b)"},
		{"// only a comment\nx", "x"},
		{"f(\n  a,\n  b\n)", "(call f a b)"},
	}
	for _, tt := range tests {
		e, errs := ParseExpr(tt.in, nil)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", tt.in, errs)
			continue
		}
		if got := sexpr(e); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "1:1: expected expression, found end of text"},
		{"a +", "1:4: expected expression, found end of text"},
		{"a b", `1:3: expected operator or end of expression, found "b"`},
		{"(a", `1:3: expected ")", found end of text`},
		{"a = b = c", `1:7: comparison operators do not chain: add parentheses before "="`},
		{"a < b in s", `1:7: comparison operators do not chain: add parentheses before "in"`},
		{"f(a,)", `1:5: expected expression, found ")"`},
		{"x @ y", `1:3: unexpected character '@'`},
		{"a ! b", `1:3: unexpected character '!' (write not or !=)`},
		{"forall x. p", `1:9: expected ":" or "in", found "."`},
		{"forall x: T p", `1:13: expected ".", found "p"`},
		{"lambda i in 0..3. i", `1:10: expected a sort name after "in"`},
		{"forall x in a + 1. p", `1:10: expected a sort name or a range lo..hi after "in"`},
		{"if a then b", `1:12: expected "else", found end of text`},
		{"let x := 1 in x", `1:7: expected "=", found ":="`},
		{"let x = a in", `1:13: expected expression, found end of text`},
		{"T#x", `1:3: expected integer, found "x"`},
		{"9223372036854775808", "1:1: integer literal too large"},
		{"99999999999999999999", "1:1: integer literal too large"},
		{"r. f", `1:2: expected operator or end of expression, found "." (a field name follows the dot without space)`},
		{"x[1](b)", `1:5: expected name before "(": only definitions and built-ins can be called`},
		{"{a: T}", `1:6: expected "|", found "}"`},
		{"R{f := 1}", `1:5: expected ":", found ":="`},
		{"r with {f: 1}", `1:10: expected ":=", found ":"`},
		{"a\xffb", "1:2: invalid UTF-8 encoding"},
		{"forall", "1:7: expected name, found end of text"},
		{"then", `1:1: expected expression, found "then"`},
	}
	for _, tt := range tests {
		e, errs := ParseExpr(tt.in, source.NewMapper(source.Pos{File: "f", Line: 1, Col: 1}, tt.in, 1))
		if len(errs) == 0 {
			t.Errorf("ParseExpr(%q) = %s, want error %q", tt.in, sexpr(e), tt.want)
			continue
		}
		if _, ok := e.(*BadExpr); !ok {
			t.Errorf("ParseExpr(%q) returned %T with errors, want *BadExpr", tt.in, e)
		}
		if got := errs[0].Error(); got != "f:"+tt.want {
			t.Errorf("ParseExpr(%q) error = %q, want %q", tt.in, got, "f:"+tt.want)
		}
		for _, err := range errs {
			if err.Code != source.ErrSyntax {
				t.Errorf("ParseExpr(%q) error %v has code %v, want syntax", tt.in, err, err.Code)
			}
		}
	}
}

func TestParseDepthLimit(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("(", 5000) + "x" + strings.Repeat(")", 5000),
		strings.Repeat("not ", 5000) + "x",
		strings.Repeat("-", 5000) + "x",
		strings.Repeat("a => ", 5000) + "x",
		strings.Repeat("[", 5000),
	} {
		_, errs := ParseExpr(in, nil)
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, "nested too deeply") {
			t.Errorf("ParseExpr(%.20q...) errors = %v, want one nesting error", in, errs)
		}
	}
	// A long flat chain is not nested.
	in := strings.Repeat("a + ", 5000) + "a"
	if _, errs := ParseExpr(in, nil); len(errs) != 0 {
		t.Errorf("long sum: %v", errs)
	}
}

// TestPositions checks that every node is positioned at its first token and
// that errors in multi-line literal blocks point at the right file position.
func TestPositions(t *testing.T) {
	// A literal block starting at f.yaml:10:5, later lines at column 5.
	text := "forall t: T.\n  pc[t] = Ready and\n  n + m[t] > 0"
	m := source.NewMapper(source.Pos{File: "f.yaml", Line: 10, Col: 5}, text, 5)
	e, errs := ParseExpr(text, m)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]string{
		"(forall (t T) (and (= (idx pc t) Ready) (> (+ n (idx m t)) 0)))": "f.yaml:10:5",
		"(and (= (idx pc t) Ready) (> (+ n (idx m t)) 0))":                "f.yaml:11:7",
		"(= (idx pc t) Ready)":  "f.yaml:11:7",
		"(idx pc t)":            "f.yaml:11:7",
		"Ready":                 "f.yaml:11:15",
		"(> (+ n (idx m t)) 0)": "f.yaml:12:7",
		"(idx m t)":             "f.yaml:12:11",
		"0":                     "f.yaml:12:18",
	}
	seen := 0
	Inspect(e, func(x Expr) bool {
		if w, ok := want[sexpr(x)]; ok {
			seen++
			if got := x.Pos().String(); got != w {
				t.Errorf("%s at %s, want %s", sexpr(x), got, w)
			}
		}
		return true
	})
	if seen != len(want) {
		t.Errorf("saw %d of %d nodes", seen, len(want))
	}
	b := e.(*Quant).Body.(*Binary)
	if got := b.OpPos.String(); got != "f.yaml:11:21" {
		t.Errorf("and operator at %s, want f.yaml:11:21", got)
	}
	if got := e.(*Quant).Binders[0].P.String(); got != "f.yaml:10:12" {
		t.Errorf("binder at %s, want f.yaml:10:12", got)
	}

	errTests := []struct{ text, want string }{
		{"a and\n  b +\n  ", "f.yaml:12:3: expected expression, found end of text"},
		{"x = 1\n  y", `f.yaml:11:3: expected operator or end of expression, found "y"`},
		{"// comment\n  (a +\n   # b)", `f.yaml:12:4: expected expression, found "#"`},
		{"f(a,\n  b ≠ c,\n  d @)", `f.yaml:12:5: unexpected character '@'`},
		{"1 +\n  2 +\n  99999999999999999999", "f.yaml:12:3: integer literal too large"},
	}
	for _, tt := range errTests {
		m := source.NewMapper(source.Pos{File: "f.yaml", Line: 10, Col: 5}, tt.text, 1)
		_, errs := ParseExpr(tt.text, m)
		if len(errs) == 0 || errs[0].Error() != tt.want {
			t.Errorf("ParseExpr(%q) errors = %v, want %q", tt.text, errs, tt.want)
		}
	}
}

func TestParseStmts(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"skip", ""},
		{"skip; skip", ""},
		{"x := 1", "(:= x 1)"},
		{"x := 1; y := 2", "(:= x 1) (:= y 2)"},
		{"x := 1\ny := 2", "(:= x 1) (:= y 2)"},
		{"x := 1;\n;y := 2;", "(:= x 1) (:= y 2)"},
		{"m[t] := v", "(:= (idx m t) v)"},
		{"m[t][l] := v", "(:= (idx (idx m t) l) v)"},
		{"r.f := v", "(:= (sel r f) v)"},
		{"a[t].f[i] := v", "(:= (idx (sel (idx a t) f) i) v)"},
		{"x := if c then 1 else 2\ny := 3", "(:= x (if c 1 2)) (:= y 3)"},
		{"x := forall t: T. p\ny := 3", "(:= x (forall (t T) p)) (:= y 3)"},
		{"if c then x := 1 end", "(if c [(:= x 1)] [])"},
		{"if c then skip end", "(if c [] [])"},
		{"if c then x := 1 else x := 2 end", "(if c [(:= x 1)] [(:= x 2)])"},
		{"if c then x := 1 elif d then x := 2 end", "(if c [(:= x 1)] [(if d [(:= x 2)] [])])"},
		{"if c then x := 1 elif d then x := 2 elif e then x := 3 else x := 4 end",
			"(if c [(:= x 1)] [(if d [(:= x 2)] [(if e [(:= x 3)] [(:= x 4)])])])"},
		{"if c then if d then x := 1 end else y := 2 end", "(if c [(if d [(:= x 1)] [])] [(:= y 2)])"},
		{"if c then x := if d then 1 else 2 else x := 3 end", "(if c [(:= x (if d 1 2))] [(:= x 3)])"},
		{"if even(n) then phase := Busy else phase := Idle end; n := n + 1",
			"(if (call even n) [(:= phase Busy)] [(:= phase Idle)]) (:= n (+ n 1))"},
		{"pc[t] := ReadPending // remember l\nargL[t] := l", "(:= (idx pc t) ReadPending) (:= (idx argL t) l)"},
	}
	for _, tt := range tests {
		ss, errs := ParseStmts(tt.in, nil)
		if len(errs) > 0 {
			t.Errorf("ParseStmts(%q): %v", tt.in, errs)
			continue
		}
		if got := sstmts(ss); got != tt.want {
			t.Errorf("ParseStmts(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseStmtsErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x = 1", `1:3: expected ":=", found "=" (assignment is written :=)`},
		{"x := ", "1:6: expected expression, found end of text"},
		{"if c then x := 1", `1:17: expected "elif", "else" or "end", found end of text`},
		{"if c x := 1 end", `1:6: expected "then", found "x"`},
		{"end", `1:1: expected statement, found "end"`},
		{"x := 1 end", `1:8: expected statement, found "end"`},
		{"1 := x", `1:1: expected statement, found "1"`},
		{"x := 1\n# a YAML comment", `2:1: expected statement, found "#" (a comment starts with //, not #)`},
		{"x[i := 1] := 2", `1:5: expected "]", found ":="`},
		{"if c then x := 1 else y := 2 elif d then end", `1:30: expected "end", found "elif"`},
		{"x := 1\n  y := 2 +\n  z := 3", `3:5: expected statement, found ":="`},
	}
	for _, tt := range tests {
		ss, errs := ParseStmts(tt.in, source.NewMapper(source.Pos{File: "e", Line: 1, Col: 1}, tt.in, 1))
		if len(errs) == 0 {
			t.Errorf("ParseStmts(%q) = %s, want error", tt.in, sstmts(ss))
			continue
		}
		if ss != nil {
			t.Errorf("ParseStmts(%q) returned statements with errors", tt.in)
		}
		if got := errs[0].Error(); got != "e:"+tt.want {
			t.Errorf("ParseStmts(%q) error = %q, want %q", tt.in, got, "e:"+tt.want)
		}
	}
}

func TestParseStmtPositions(t *testing.T) {
	text := "n := n + 1\nif even(n) then\n  phase := Busy\nelif odd(n) then\n  skip\nend"
	m := source.NewMapper(source.Pos{File: "a.yaml", Line: 20, Col: 7}, text, 7)
	ss, errs := ParseStmts(text, m)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := ss[0].Pos().String(); got != "a.yaml:20:7" {
		t.Errorf("assign at %s", got)
	}
	ifs := ss[1].(*IfStmt)
	if got := ifs.Pos().String(); got != "a.yaml:21:7" {
		t.Errorf("if at %s", got)
	}
	if got := ifs.Then[0].Pos().String(); got != "a.yaml:22:9" {
		t.Errorf("then-assign at %s", got)
	}
	if got := ifs.Else[0].Pos().String(); got != "a.yaml:23:7" {
		t.Errorf("elif at %s", got)
	}
	if got := ifs.Else[0].(*IfStmt).Cond.Pos().String(); got != "a.yaml:23:12" {
		t.Errorf("elif condition at %s", got)
	}
}

func TestParseSortExpr(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"T", "T", ""},
		{"Map[T, Option[V]]", "Map[T, Option[V]]", ""},
		{" Seq[ Map[L,V] ] // memories", "Seq[Map[L, V]]", ""},
		{"Map[T,", "", `1:7: expected sort, found end of text`},
		{"Map[T] x", "", `1:8: expected end of sort, found "x"`},
		{"", "", `1:1: expected sort, found end of text`},
		{"in", "", `1:1: expected sort, found "in"`},
	}
	for _, tt := range tests {
		se, errs := ParseSortExpr(tt.in, source.NewMapper(source.Pos{File: "s", Line: 1, Col: 1}, tt.in, 1))
		if tt.err != "" {
			if len(errs) == 0 || errs[0].Error() != "s:"+tt.err {
				t.Errorf("ParseSortExpr(%q) errors = %v, want %q", tt.in, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("ParseSortExpr(%q): %v", tt.in, errs)
			continue
		}
		if got := se.String(); got != tt.want {
			t.Errorf("ParseSortExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseParam(t *testing.T) {
	tests := []struct{ in, sort, lo, hi, err string }{
		{"T", "T", "", "", ""},
		{"Option[V]", "Option[V]", "", "", ""},
		{"in 0..n", "", "0", "n", ""},
		{"in 0..len(mems) - 1", "", "0", "(- (call len mems) 1)", ""},
		{"in a + 1..b", "", "(+ a 1)", "b", ""},
		{"in 0", "", "", "", `expected "..", found end of text`},
		{"0..3", "", "", "", `expected sort or "in lo..hi", found "0"`},
		{"in 0..3 4", "", "", "", `expected end of range, found "4"`},
	}
	for _, tt := range tests {
		se, lo, hi, errs := ParseParam(tt.in, nil)
		if tt.err != "" {
			if len(errs) != 1 || errs[0].Msg != tt.err {
				t.Errorf("ParseParam(%q) errors = %v, want %q", tt.in, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("ParseParam(%q): %v", tt.in, errs)
			continue
		}
		if tt.sort != "" {
			if se == nil || se.String() != tt.sort || lo != nil || hi != nil {
				t.Errorf("ParseParam(%q) = %v, %v, %v, want sort %s", tt.in, se, lo, hi, tt.sort)
			}
			continue
		}
		if se != nil || sexpr(lo) != tt.lo || sexpr(hi) != tt.hi {
			t.Errorf("ParseParam(%q) = %v, %s, %s, want range %s..%s", tt.in, se, sexpr(lo), sexpr(hi), tt.lo, tt.hi)
		}
	}
}
