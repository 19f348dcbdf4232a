package expr

import (
	"fmt"
	"strings"
	"testing"

	"ladder/internal/source"
)

// testWorld is a small automaton scope, as the loader would build it.
type testWorld struct {
	sc      *Scope             // the automaton scope with the action parameters
	defs    *Scope             // what StateScope returns for the state sort
	state   *Sort              // the state record sort
	objects map[string]*Object // everything declared, by name
}

func newTestWorld() *testWorld {
	w := &testWorld{sc: NewScope(nil), objects: map[string]*Object{}}
	add := func(o *Object) *Object {
		w.sc.Insert(o)
		w.objects[o.Name] = o
		return o
	}
	T := &Sort{Kind: KParam, Name: "T"}
	L := &Sort{Kind: KParam, Name: "L"}
	V := &Sort{Kind: KParam, Name: "V"}
	phase := &Sort{Kind: KEnum, Name: "Phase", Elems: []string{"Idle", "Busy"}}
	R := &Sort{Kind: KRecord, Name: "R", Fields: []Field{{"f", IntSort}, {"g", BoolSort}}}
	cell := &Sort{Kind: KRecord, Name: "Cell", Fields: []Field{{"owner", T}, {"value", NatSort}}}
	for _, s := range []*Sort{T, L, V, phase, R, cell} {
		add(&Object{Kind: ObjSort, Name: s.Name, Sort: s})
	}
	for i, n := range phase.Elems {
		add(&Object{Kind: ObjEnum, Name: n, Sort: phase, Index: i})
	}
	add(&Object{Kind: ObjConst, Name: "v0", Sort: V})
	add(&Object{Kind: ObjConst, Name: "maxN", Sort: IntSort})
	mem := MapOf(L, V)
	part := MapOf(L, OptionOf(V))
	vars := []struct {
		name string
		s    *Sort
	}{
		{"n", NatSort}, {"phase", phase}, {"seen", MapOf(T, BoolSort)}, {"mems", SeqOf(mem)},
		{"rd", MapOf(T, part)}, {"wr", MapOf(T, part)}, {"s", SetOf(T)}, {"q", SeqOf(IntSort)},
		{"r", R}, {"o", OptionOf(V)}, {"cells", MapOf(T, cell)}, {"beginIdx", MapOf(T, NatSort)},
		{"ns", SetOf(NatSort)}, {"is", SetOf(IntSort)},
	}
	var fields []Field
	for i, v := range vars {
		add(&Object{Kind: ObjVar, Name: v.name, Sort: v.s, Index: i})
		fields = append(fields, Field{v.name, v.s})
	}
	w.state = &Sort{Kind: KRecord, Name: "A", Fields: fields, State: "A"}
	for i, p := range []struct {
		name string
		s    *Sort
	}{{"t", T}, {"l", L}, {"v", V}, {"k", IntSort}} {
		add(&Object{Kind: ObjParam, Name: p.name, Sort: p.s, Index: i})
	}
	param := func(name string, s *Sort) *Object { return &Object{Kind: ObjBound, Name: name, Sort: s} }
	full := add(&Object{Kind: ObjDef, Name: "full", Sort: BoolSort})
	below := add(&Object{Kind: ObjDef, Name: "below", Sort: BoolSort, Params: []*Object{param("k", IntSort)}})
	valid := add(&Object{Kind: ObjDef, Name: "validIdx", Sort: BoolSort,
		Params: []*Object{param("t", T), param("i", IntSort)}})
	latest := add(&Object{Kind: ObjDef, Name: "latest", Sort: mem})
	add(&Object{Kind: ObjDef, Name: "pending"}) // sort not known yet
	w.defs = NewScope(nil)
	for _, d := range []*Object{full, below, valid, latest} {
		w.defs.Insert(d)
	}
	add(&Object{Kind: ObjState, Name: "c", Sort: w.state})
	add(&Object{Kind: ObjState, Name: "a", Sort: w.state})
	add(&Object{Kind: ObjEvent, Name: "Inc", Params: []*Object{param("t", T), param("k", IntSort)}})
	add(&Object{Kind: ObjEvent, Name: "Tick"})
	return w
}

func (w *testWorld) checker(errs *source.ErrorList) *Checker {
	return &Checker{Errors: errs, StateScope: func(s *Sort) *Scope {
		if s == w.state {
			return w.defs
		}
		return nil
	}}
}

func mapper(text string) *source.Mapper {
	return source.NewMapper(source.Pos{File: "t", Line: 1, Col: 1}, text, 1)
}

// checkText parses and checks text against the test world.
func checkText(t *testing.T, w *testWorld, text string, want *Sort) (Expr, *Sort, source.ErrorList) {
	t.Helper()
	e, errs := ParseExpr(text, mapper(text))
	if len(errs) > 0 {
		t.Fatalf("ParseExpr(%q): %v", text, errs)
	}
	var cerrs source.ErrorList
	s := w.checker(&cerrs).CheckExpr(e, w.sc, want)
	assertChecked(t, text, e)
	return e, s, cerrs
}

// assertChecked verifies that the checker left no node without a sort and
// no identifier unresolved.
func assertChecked(t *testing.T, text string, e Expr) {
	t.Helper()
	Inspect(e, func(x Expr) bool {
		if x.Sort() == nil {
			t.Errorf("%q: node %s has no sort", text, Print(x))
		}
		if id, ok := x.(*Ident); ok && id.Obj == nil {
			t.Errorf("%q: identifier %s has no object", text, id.Name)
		}
		return true
	})
}

func TestCheckSorts(t *testing.T) {
	w := newTestWorld()
	tests := []struct{ in, sort string }{
		{"1", "Int"}, {"-1", "Int"}, {"true", "Bool"}, {"T#2", "T"}, {"n", "Nat"},
		{"n + 1", "Int"}, {"n * n - 1 div 2 mod 3", "Int"}, {"-n", "Int"}, {"n + k", "Int"},
		{"Idle", "Phase"}, {"phase = Idle", "Bool"}, {"v0", "V"}, {"t", "T"},
		{"seen[t]", "Bool"}, {"mems[0]", "Map[L, V]"}, {"mems[n][l]", "V"},
		{"rd[t][l]", "Option[V]"}, {"seen[t := true]", "Map[T, Bool]"},
		{"q[n := -1]", "Seq[Int]"}, {"r.f", "Int"}, {"r.g", "Bool"}, {"r with {f := 2}", "R"},
		{"R{f: 1, g: false}", "R"}, {"R{g: false, f: n}", "R"}, {"cells[t].value", "Nat"},
		{"cells[t := Cell{owner: t, value: 0}]", "Map[T, Cell]"},
		{"{t}", "Set[T]"}, {"{1, n}", "Set[Int]"}, {"{n, n}", "Set[Nat]"}, {"[n, 1]", "Seq[Int]"},
		{"[mems[0], const(v0)]", "Seq[Map[L, V]]"}, {"[None, Some(v)]", "Seq[Option[V]]"},
		{"{x: T | seen[x]}", "Set[T]"}, {"lambda x: T. not seen[x]", "Map[T, Bool]"},
		{"lambda x: L. None", ""}, // no context for None: see errors
		{"forall x: T. seen[x]", "Bool"}, {"exists i in 0..len(mems). i = n", "Bool"},
		{"forall i in 0..len(q), j in 0..i. q[j] <= q[i]", "Bool"},
		{"let y = n + 1 in y * y", "Int"}, {"let m = latest in m[l]", "V"},
		{"if full then 1 else n", "Int"}, {"if full then n else n", "Nat"},
		{"if full then {} else s", "Set[T]"}, {"if full then None else o", "Option[V]"},
		{"full", "Bool"}, {"full()", "Bool"}, {"below(3)", "Bool"}, {"validIdx(t, n)", "Bool"},
		{"latest[l] = v", "Bool"}, {"t in s", "Bool"}, {"t notin s union {t}", "Bool"},
		{"s inter {t} \\ {}", "Set[T]"}, {"{} union s", "Set[T]"}, {"ns union is", "Set[Int]"},
		{"s subset {t}", "Bool"}, {"{} subset s", "Bool"}, {"rd[t] subset last(mems)", "Bool"}, {"wr[t] subset rd[t]", "Bool"},
		{"x = y", ""}, // undefined: see errors
		{"s = {}", "Bool"}, {"{} = s", "Bool"}, {"o = None", "Bool"}, {"None = o", "Bool"},
		{"[] = q", "Bool"}, {"rd[t] = const(None)", "Bool"}, {"const(None) = rd[t]", "Bool"},
		{"n = -1", "Bool"}, {"n < k", "Bool"}, {"a = c", "Bool"}, {"c.n + a.n", "Int"},
		{"c.full()", "Bool"}, {"c.validIdx(t, c.n)", "Bool"}, {"a.phase = Busy", "Bool"},
		{"a.mems[0]", "Map[L, V]"}, {"a <=> c", ""},
		{"full <=> true => false or true and not full", "Bool"},
		// built-ins
		{"len(q)", "Int"}, {"last(mems)", "Map[L, V]"}, {"last(mems)[l]", "V"},
		{"append(q, 1)", "Seq[Int]"}, {"append(mems, latest)", "Seq[Map[L, V]]"},
		{"append([], 1)", "Seq[Int]"}, {"append([], mems[0])", "Seq[Map[L, V]]"},
		{"append(mems, override(last(mems), wr[t]))", "Seq[Map[L, V]]"},
		{"mems = append(mems, const(v0))", "Bool"},
		{"Some(v)", "Option[V]"}, {"Some(Some(1))", "Option[Option[Int]]"},
		{"isSome(o)", "Bool"}, {"isNone(rd[t][l])", "Bool"}, {"get(o)", "V"},
		{"get(rd[t][l]) = v", "Bool"}, {"dom(wr[t])", "Set[L]"}, {"l in dom(wr[t])", "Bool"},
		{"dom(wr[t]) = {}", "Bool"}, {"override(latest, wr[t])", "Map[L, V]"},
		{"override(const(v0), wr[t])", "Map[L, V]"}, {"override(latest, const(None))", "Map[L, V]"},
		{"min(n, k)", "Int"}, {"max(1, 2)", "Int"}, {"abs(-n)", "Int"}, {"even(n)", "Bool"},
		{"odd(n + 1)", "Bool"}, {"wr[t := const(None)]", "Map[T, Map[L, Option[V]]]"},
		{"rd[t][l := Some(v)]", "Map[L, Option[V]]"}, {"const(0)[t := 1] = const(1)", ""},
	}
	for _, tt := range tests {
		_, s, errs := checkText(t, w, tt.in, nil)
		if tt.sort == "" {
			if len(errs) == 0 {
				t.Errorf("Check(%q) = %s, want an error", tt.in, s)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("Check(%q): %v", tt.in, errs)
			continue
		}
		if s.String() != tt.sort {
			t.Errorf("Check(%q) = %s, want %s", tt.in, s, tt.sort)
		}
	}
}

func TestCheckWant(t *testing.T) {
	w := newTestWorld()
	T := w.objects["T"].Sort
	V := w.objects["V"].Sort
	L := w.objects["L"].Sort
	tests := []struct {
		in   string
		want *Sort
		sort string // "" when an error is expected
		err  string
	}{
		{"{}", SetOf(T), "Set[T]", ""},
		{"[]", SeqOf(IntSort), "Seq[Int]", ""},
		{"None", OptionOf(V), "Option[V]", ""},
		{"const(v0)", MapOf(L, V), "Map[L, V]", ""},
		{"const(0)", MapOf(T, NatSort), "Map[T, Int]", ""},
		{"const(None)", MapOf(L, OptionOf(V)), "Map[L, Option[V]]", ""},
		{"const({})", MapOf(T, SetOf(L)), "Map[T, Set[L]]", ""},
		{"lambda x: T. {}", MapOf(T, SetOf(L)), "Map[T, Set[L]]", ""},
		{"[[], [1]]", nil, "Seq[Seq[Int]]", ""},
		{"{None, Some(v)}", nil, "Set[Option[V]]", ""},
		{"if full then [] else []", SeqOf(BoolSort), "Seq[Bool]", ""},
		{"let x = 1 in {}", SetOf(IntSort), "Set[Int]", ""},
		{"const(0)[t := 1]", MapOf(T, IntSort), "Map[T, Int]", ""},
		{"Some(None)", OptionOf(OptionOf(V)), "Option[Option[V]]", ""},
		{"get(None)", V, "V", ""},
		{"n", IntSort, "Nat", ""},
		{"-1", NatSort, "Int", ""},
		{"{}", nil, "", "t:1:1: cannot infer the sort of {}"},
		{"[]", nil, "", "t:1:1: cannot infer the sort of []"},
		{"None", nil, "", "t:1:1: cannot infer the sort of None"},
		{"const(v0)", nil, "", "t:1:1: cannot infer the sort of const(v0)"},
		{"{}", IntSort, "", "t:1:1: expected Int, found {}"},
		{"const(1)", SetOf(T), "", "t:1:1: expected Set[T], found const(1)"},
		{"n", BoolSort, "", "t:1:1: expected Bool, found Nat"},
		{"s", SetOf(L), "", "t:1:1: expected Set[L], found Set[T]"},
		{"{} = {}", nil, "", "t:1:1: cannot infer the sort of {}"},
		{"len([])", nil, "", "t:1:5: cannot infer the sort of []"},
	}
	for _, tt := range tests {
		_, s, errs := checkText(t, w, tt.in, tt.want)
		if tt.err != "" {
			if len(errs) != 1 || errs[0].Error() != tt.err {
				t.Errorf("Check(%q, %v) errors = %v, want %q", tt.in, tt.want, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("Check(%q, %v): %v", tt.in, tt.want, errs)
			continue
		}
		if s.String() != tt.sort {
			t.Errorf("Check(%q, %v) = %s, want %s", tt.in, tt.want, s, tt.sort)
		}
	}
}

// TestCheckErrors checks each error message, its position and that it
// causes no follow-on errors.
func TestCheckErrors(t *testing.T) {
	w := newTestWorld()
	tests := []struct {
		in   string
		errs []string
	}{
		{"x", []string{`1:1: undefined name "x"`}},
		{"x + y", []string{`1:1: undefined name "x"`, `1:5: undefined name "y"`}},
		{"x + 1 = true", []string{`1:1: undefined name "x"`, `1:7: mismatched sorts Int and Bool in =`}},
		{"f(n)", []string{`1:1: undefined name "f"`}},
		{"f(x)", []string{`1:1: undefined name "f"`, `1:3: undefined name "x"`}},
		{"n = true", []string{`1:3: mismatched sorts Nat and Bool in =`}},
		{"s != q", []string{`1:3: mismatched sorts Set[T] and Seq[Int] in !=`}},
		{"n < true", []string{`1:3: mismatched sorts Nat and Bool in <`}},
		{"full + 1", []string{`1:6: mismatched sorts Bool and Int in +`}},
		{"full * full", []string{`1:6: operator * is not defined on Bool`}},
		{"(n + 1) and full", []string{`1:2: expected Bool, found Int`}},
		{"not n", []string{`1:5: expected Bool, found Nat`}},
		{"-full", []string{`1:1: operator - is not defined on Bool`}},
		{"if n then 1 else 2", []string{`1:4: expected Bool, found Nat`}},
		{"if full then 1 else true", []string{`1:21: mismatched sorts Int and Bool in if-then-else`}},
		{"s union q", []string{`1:3: mismatched sorts Set[T] and Seq[Int] in union`}},
		{"n union n", []string{`1:3: operator union is not defined on Nat`}},
		{"l in s", []string{`1:3: mismatched sorts L and Set[T] in in`}},
		{"t in q", []string{`1:3: operator in needs a set on the right, found Seq[Int]`}},
		{"wr[t] subset mems", []string{`1:7: mismatched sorts Map[L, Option[V]] and Seq[Map[L, V]] in subset`}},
		{"T#0 = t and Phase#1 = phase", []string{`1:13: Phase#1 needs a param sort, and "Phase" is not one`}},
		{"X#1", []string{`1:1: undefined sort "X"`}},
		{"seen[l]", []string{`1:6: expected T, found L in index`}},
		{"q[true]", []string{`1:3: expected Int, found Bool`}},
		{"n[0]", []string{`1:1: cannot index a value of sort Nat`}},
		{"n[0 := 1]", []string{`1:1: cannot update a value of sort Nat`}},
		{"seen[t := 1]", []string{`1:11: expected Bool, found Int in update`}},
		{"r.h", []string{`1:1: "h" is not a field of R`}},
		{"n.f", []string{`1:1: cannot select field "f" of a value of sort Nat`}},
		{"c.nope", []string{`1:1: "nope" is not a state variable of A`}},
		{"c.full", []string{`1:1: "full" is not a state variable of A; call the definition as c.full()`}},
		{"c.nope()", []string{`1:3: c has no definition "nope"`}},
		{"n.full()", []string{`1:1: cannot call "full" on "n": it is not an automaton state`}},
		{"r with {f := true}", []string{`1:14: expected Int, found Bool in field "f"`}},
		{"r with {h := 1}", []string{`1:9: "h" is not a field of R`}},
		{"r with {f := 1, f := 2}", []string{`1:17: field "f" given twice`}},
		{"n with {f := 1}", []string{`1:1: cannot update fields of a value of sort Nat`}},
		{"R{f: 1}", []string{`1:1: missing field "g" in R literal`}},
		{"R{f: 1, g: true, h: 2}", []string{`1:18: "h" is not a field of R`}},
		{"T{f: 1}", []string{`1:1: "T" is not a record sort`}},
		{"Q{f: 1}", []string{`1:1: undefined sort "Q"`}},
		{"{1, true}", []string{`1:5: mismatched sorts Int and Bool in set literal`}},
		{"[s, q]", []string{`1:5: mismatched sorts Set[T] and Seq[Int] in sequence literal`}},
		{"forall x: Q. true", []string{`1:11: undefined sort "Q"`}},
		{"forall x: n. true", []string{`1:11: "n" is not a sort`}},
		{"forall x: T. x", []string{`1:14: expected Bool, found T`}},
		{"forall x: T, x: L. true", []string{`1:14: "x" bound twice (first at t:1:8)`}},
		{"forall i in 0..full. true", []string{`1:16: expected Int, found Bool`}},
		{"forall x: Map[T]. true", []string{`1:11: Map takes 2 sort arguments, found 1`}},
		{"forall x: Int[T]. true", []string{`1:11: Int takes no sort arguments`}},
		{"forall x: T[T]. true", []string{`1:11: T takes no sort arguments`}},
		{"{x: T | 1}", []string{`1:9: expected Bool, found Int`}},
		{"let y = {} in y", []string{`1:9: cannot infer the sort of {}`}},
		{"T", []string{`1:1: "T" is a sort, not a value`}},
		{"below", []string{`1:1: missing arguments to "below" (it takes 1)`}},
		{"below(1, 2)", []string{`1:1: wrong number of arguments to "below": want 1, have 2`}},
		{"below(full)", []string{`1:7: expected Int, found Bool in argument 1 of "below"`}},
		{"validIdx(l, 0)", []string{`1:10: expected T, found L in argument 1 of "validIdx"`}},
		{"pending", []string{`1:1: definition "pending" is used before its sort is known`}},
		{"n(1)", []string{`1:1: "n" is not a function`}},
		{"Inc(t, 1) = Tick", []string{`1:1: event "Inc" cannot be used inside an expression`, `1:13: event "Tick" is not a value`}},
		// built-ins
		{"len", []string{`1:1: missing arguments to "len"`}},
		{"len(q, q)", []string{`1:1: wrong number of arguments to "len": want 1, have 2`}},
		{"None(1)", []string{`1:1: wrong number of arguments to "None": want 0, have 1`}},
		{"len(s) + 1", []string{`1:5: len expects a Seq, found Set[T]`}},
		{"last(s)", []string{`1:6: last expects a Seq, found Set[T]`}},
		{"append(s, t)", []string{`1:8: append expects a Seq, found Set[T]`}},
		{"append(q, t)", []string{`1:11: expected Int, found T in argument 2 of "append"`}},
		{"const(1)", []string{`1:1: cannot infer the sort of const(1)`}},
		{"Some(x)", []string{`1:6: undefined name "x"`}},
		{"isSome(n) or isNone(s)", []string{`1:8: isSome expects an Option, found Nat`, `1:21: isNone expects an Option, found Set[T]`}},
		{"get(s)", []string{`1:5: get expects an Option, found Set[T]`}},
		{"dom(latest)", []string{`1:5: dom expects a Map[K, Option[V]], found Map[L, V]`}},
		{"override(s, wr[t])", []string{`1:10: override expects a Map, found Set[T]`}},
		{"override(latest, latest)", []string{`1:18: override expects a Map[K, Option[V]], found Map[L, V]`}},
		{"override(seen, wr[t])", []string{`1:16: mismatched sorts Map[T, Bool] and Map[L, Option[V]] in override`}},
		{"min(n, full)", []string{`1:8: expected Int, found Bool`}},
		{"abs(s)", []string{`1:5: expected Int, found Set[T]`}},
		{"even(full) and odd(s)", []string{`1:6: expected Int, found Bool`, `1:20: expected Int, found Set[T]`}},
		// an ill-sorted operand of an arithmetic operator leaves the
		// result's sort unknown: no follow-on error in the context
		{"len(q + [t])", []string{`1:7: mismatched sorts Seq[Int] and Seq[T] in +`}},
		{"t in s + {t}", []string{`1:8: operator + is not defined on Set[T]`}},
		{"(s - {t}) = s", []string{`1:4: operator - is not defined on Set[T]`}},
		{"isSome(o + 1)", []string{`1:10: mismatched sorts Option[V] and Int in +`}},
		{"isSome(None + 1)", []string{`1:8: expected Int, found None`}},
		{"not -full", []string{`1:5: operator - is not defined on Bool`}},
		{"(if full then n * full else s) = s", []string{`1:17: mismatched sorts Nat and Bool in *`}},
		// several independent errors are all reported
		{"x and n = true and r.h", []string{`1:1: undefined name "x"`, `1:9: mismatched sorts Nat and Bool in =`, `1:20: "h" is not a field of R`}},
	}
	for _, tt := range tests {
		_, _, errs := checkText(t, w, tt.in, nil)
		var got []string
		for _, e := range errs {
			got = append(got, strings.TrimPrefix(e.Error(), "t:"))
		}
		if strings.Join(got, "\n") != strings.Join(tt.errs, "\n") {
			t.Errorf("Check(%q) errors:\n  %s\nwant:\n  %s", tt.in, strings.Join(got, "\n  "), strings.Join(tt.errs, "\n  "))
		}
	}
}

func TestCheckResolution(t *testing.T) {
	w := newTestWorld()
	e, _, errs := checkText(t, w, "forall x: T. let y = seen[x] in y and len(q) > n and c.full() and cells[x].value = r.f", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var binder, let *Object
	Inspect(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Quant:
			binder = x.Binders[0].Var
		case *Let:
			let = x.Var
		}
		return true
	})
	kinds := map[string]ObjKind{}
	objs := map[string]*Object{}
	Inspect(e, func(x Expr) bool {
		if id, ok := x.(*Ident); ok {
			kinds[id.Name] = id.Obj.Kind
			objs[id.Name] = id.Obj
		}
		if f, ok := x.(*FieldSel); ok {
			want := map[string]int{"value": 1, "f": 0}[f.Name]
			if f.Field != want {
				t.Errorf("field %s has index %d, want %d", f.Name, f.Field, want)
			}
		}
		return true
	})
	want := map[string]ObjKind{"x": ObjBound, "y": ObjBound, "seen": ObjVar, "len": ObjBuiltin,
		"q": ObjVar, "n": ObjVar, "c": ObjState, "full": ObjDef, "cells": ObjVar, "r": ObjVar}
	for n, k := range want {
		if kinds[n] != k {
			t.Errorf("%s resolved to kind %d, want %d", n, kinds[n], k)
		}
	}
	if objs["x"] != binder || binder.Sort.String() != "T" {
		t.Errorf("x resolves to %v, want the binder %v of sort T", objs["x"], binder)
	}
	if objs["y"] != let || let.Sort != BoolSort && let.Sort.Kind != KBool {
		t.Errorf("y resolves to %v, want the let variable of sort Bool", objs["y"])
	}
	if objs["full"] != w.objects["full"] {
		t.Errorf("c.full resolves to %v, want the definition", objs["full"])
	}
	// Built-in objects are per checker and shared within one.
	var errs2 source.ErrorList
	c := w.checker(&errs2)
	e1, _ := ParseExpr("len(q)", nil)
	e2, _ := ParseExpr("len(q) + 1", nil)
	c.CheckExpr(e1, w.sc, nil)
	c.CheckExpr(e2, w.sc, nil)
	if e1.(*Call).Fun.Obj != e2.(*Binary).X.(*Call).Fun.Obj {
		t.Error("one checker made two objects for len")
	}
	// A declaration shadows a built-in name.
	sc := NewScope(w.sc)
	sc.Insert(&Object{Kind: ObjConst, Name: "max", Sort: BoolSort})
	e3, _ := ParseExpr("max", nil)
	if s := c.CheckExpr(e3, sc, nil); s != BoolSort || len(errs2) > 0 {
		t.Errorf("max declared as Bool checks as %s (%v)", s, errs2)
	}
}

func TestCheckEvents(t *testing.T) {
	w := newTestWorld()
	tests := []struct{ in, err string }{
		{"Inc(t, k)", ""},
		{"Inc(t, n + 1)", ""},
		{"Tick", ""},
		{"Tick()", ""},
		{"Inc(t)", `t:1:1: wrong number of arguments to "Inc": want 2, have 1`},
		{"Inc(l, 0)", `t:1:5: expected T, found L in argument 1 of "Inc"`},
	}
	for _, tt := range tests {
		e, s, errs := checkText(t, w, tt.in, nil)
		if tt.err == "" {
			if len(errs) > 0 || s != EventSort {
				t.Errorf("Check(%q) = %s, %v; want the event sort", tt.in, s, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Error() != tt.err {
			t.Errorf("Check(%q) errors = %v, want %q", tt.in, errs, tt.err)
		}
		_ = e
	}
	// An event resolved beforehand (the interface's object) need not be in scope.
	ev := &Object{Kind: ObjEvent, Name: "Other", Params: []*Object{{Kind: ObjBound, Name: "x", Sort: BoolSort}}}
	call := NewCall("Other", NewIdent("full"))
	call.Fun.Obj = ev
	var errs source.ErrorList
	if s := w.checker(&errs).CheckExpr(call, w.sc, nil); s != EventSort || len(errs) > 0 || call.Fun.Obj != ev {
		t.Errorf("pre-resolved event checks as %s, %v", s, errs)
	}
}

func TestResolveSort(t *testing.T) {
	w := newTestWorld()
	tests := []struct{ in, want, err string }{
		{"Bool", "Bool", ""}, {"Nat", "Nat", ""}, {"T", "T", ""}, {"Phase", "Phase", ""},
		{"Map[T, Option[V]]", "Map[T, Option[V]]", ""}, {"Seq[Map[L, V]]", "Seq[Map[L, V]]", ""},
		{"Set[Cell]", "Set[Cell]", ""},
		{"Map[T, Q]", "", `t:1:8: undefined sort "Q"`},
		{"Set[T, L]", "", `t:1:1: Set takes 1 sort argument, found 2`},
		{"Option", "", `t:1:1: Option takes 1 sort argument, found 0`},
		{"n", "", `t:1:1: "n" is not a sort`},
	}
	for _, tt := range tests {
		se, perrs := ParseSortExpr(tt.in, mapper(tt.in))
		if len(perrs) > 0 {
			t.Fatal(perrs)
		}
		var errs source.ErrorList
		s := w.checker(&errs).ResolveSort(se, w.sc)
		if tt.err != "" {
			if len(errs) != 1 || errs[0].Error() != tt.err || !s.IsInvalid() {
				t.Errorf("ResolveSort(%q) = %s, %v; want error %q", tt.in, s, errs, tt.err)
			}
			continue
		}
		if len(errs) > 0 || s.String() != tt.want {
			t.Errorf("ResolveSort(%q) = %s, %v; want %s", tt.in, s, errs, tt.want)
		}
	}
}

// TestNewBinderScope builds action parameters as the loader does.
func TestNewBinderScope(t *testing.T) {
	w := newTestWorld()
	var bs []*Binder
	for i, spec := range []struct{ name, text string }{{"u", "T"}, {"i", "in 0..n"}, {"j", "in i..len(q) + i"}} {
		se, lo, hi, errs := ParseParam(spec.text, mapper(spec.text))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		b := &Binder{Var: &Object{Kind: ObjParam, Name: spec.name, Index: i}, Lo: lo, Hi: hi}
		if se != nil {
			b.SortExpr = *se
		}
		bs = append(bs, b)
	}
	var errs source.ErrorList
	c := w.checker(&errs)
	inner := c.NewBinderScope(bs, w.sc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for name, want := range map[string]string{"u": "T", "i": "Int", "j": "Int"} {
		o := inner.LookupLocal(name)
		if o == nil || o.Kind != ObjParam || o.Sort.String() != want {
			t.Errorf("param %s = %+v, want an ObjParam of sort %s", name, o, want)
		}
	}
	if inner.Parent != w.sc || w.sc.LookupLocal("u") != nil {
		t.Error("binder scope must be a child scope")
	}
	// A range bound must be an integer.
	se, lo, hi, _ := ParseParam("in 0..full", mapper("in 0..full"))
	_ = se
	c.NewBinderScope([]*Binder{{Var: &Object{Kind: ObjParam, Name: "z"}, Lo: lo, Hi: hi}}, w.sc)
	if len(errs) != 1 || errs[0].Error() != "t:1:7: expected Int, found Bool" {
		t.Errorf("errors = %v", errs)
	}
}

func TestCheckerZeroValue(t *testing.T) {
	w := newTestWorld()
	var c Checker
	e, _ := ParseExpr("x", nil)
	if s := c.CheckExpr(e, w.sc, nil); !s.IsInvalid() {
		t.Errorf("undefined x checks as %s", s)
	}
	if c.Errors == nil || len(*c.Errors) != 1 {
		t.Errorf("zero Checker errors = %v, want one", c.Errors)
	}
	// Constructed trees with missing parts give errors, not panics.
	bad := []Expr{
		&Call{}, NewLambda(nil, NewBoolLit(true)), &Let{Value: NewIntLit(1), Body: NewIntLit(2)},
		NewQuant(true, []*Binder{nil, {}}, NewBoolLit(true)), NewUnary(OpInvalid, NewIntLit(1)),
		NewBinary(OpInvalid, NewIntLit(1), NewIntLit(2)), NewRecordLit("R", nil),
	}
	for _, b := range bad {
		var errs source.ErrorList
		c := Checker{Errors: &errs}
		c.CheckExpr(b, w.sc, nil)
		if len(errs) == 0 {
			t.Errorf("no error for %s", fmt.Sprintf("%#v", b))
		}
	}
}
