package expr

import (
	"strings"
	"testing"

	"ladder/internal/source"
)

func TestNameClasses(t *testing.T) {
	for _, kw := range []string{"forall", "in", "elif", "skip", "with", "iff", "implies", "true"} {
		if !IsKeyword(kw) {
			t.Errorf("IsKeyword(%q) = false", kw)
		}
	}
	for _, n := range []string{"None", "len", "max", "x", "Forall"} {
		if IsKeyword(n) {
			t.Errorf("IsKeyword(%q) = true", n)
		}
	}
	names := BuiltinNames()
	if got := strings.Join(names, " "); got != "None Some abs append const dom even get isNone isSome last len max min odd override" {
		t.Errorf("BuiltinNames() = %s", got)
	}
	for _, n := range names {
		if !IsBuiltin(n) || IsKeyword(n) {
			t.Errorf("%q: IsBuiltin = %v, IsKeyword = %v", n, IsBuiltin(n), IsKeyword(n))
		}
	}
	if IsBuiltin("length") || !IsBuiltinSortName("Option") || IsBuiltinSortName("T") {
		t.Error("IsBuiltin or IsBuiltinSortName is wrong")
	}
}

// TestSortExprOf checks that SortExprOf(s) prints and resolves back to s.
func TestSortExprOf(t *testing.T) {
	w := newTestWorld()
	for _, text := range []string{"Bool", "Int", "Nat", "T", "Phase", "R", "Map[T, Option[V]]", "Seq[Set[Cell]]"} {
		se, _ := ParseSortExpr(text, nil)
		var errs source.ErrorList
		c := w.checker(&errs)
		s := c.ResolveSort(se, w.sc)
		back := SortExprOf(s)
		if back.String() != text {
			t.Errorf("SortExprOf(%s) = %s", s, back)
		}
		if s2 := c.ResolveSort(back, w.sc); !Identical(s, s2) || len(errs) > 0 {
			t.Errorf("SortExprOf(%s) resolves to %s (%v)", s, s2, errs)
		}
	}
	if SortExprOf(InvalidSort) != nil || SortExprOf(nil) != nil {
		t.Error("SortExprOf(invalid) != nil")
	}
}

func TestCheckConstructedBinders(t *testing.T) {
	w := newTestWorld()
	tests := []struct {
		e    Expr
		sort string
		err  string
	}{
		{NewLambda(NewRangeBinder("i", NewIntLit(0), NewIntLit(3)), NewBoolLit(true)), "Map[Int, Bool]",
			"the binder of a lambda needs a sort, not a range"},
		{NewSetComp(NewRangeBinder("i", NewIntLit(0), NewIntLit(3)), NewBoolLit(true)), "Set[Int]",
			"the binder of a set comprehension needs a sort, not a range"},
		{NewQuant(true, []*Binder{NewRangeBinder("i", NewIntLit(0), nil)}, NewBoolLit(true)), "Bool",
			`range binder "i" needs both bounds`},
		{NewLet("x", NewIntLit(1), NewBinary(OpAdd, NewIdent("x"), NewIdent("n"))), "Int", ""},
		{NewSetComp(NewBinder("u", NewSortExpr("T")), NewIndex(NewIdent("seen"), NewIdent("u"))), "Set[T]", ""},
	}
	for _, tt := range tests {
		var errs source.ErrorList
		s := w.checker(&errs).CheckExpr(tt.e, w.sc, nil)
		if s.String() != tt.sort {
			t.Errorf("Check(%s) = %s, want %s", Print(tt.e), s, tt.sort)
		}
		switch {
		case tt.err == "" && len(errs) > 0:
			t.Errorf("Check(%s): %v", Print(tt.e), errs)
		case tt.err != "" && (len(errs) != 1 || errs[0].Msg != tt.err):
			t.Errorf("Check(%s) errors = %v, want %q", Print(tt.e), errs, tt.err)
		}
	}
}
