package expr

import (
	"strings"
	"testing"

	"ladder/internal/source"
)

func TestCheckStmts(t *testing.T) {
	w := newTestWorld()
	tests := []struct {
		in   string
		errs []string
	}{
		{"n := n + 1", nil},
		{"n := 0; phase := Busy; seen[t] := true", nil},
		{"seen := const(false)", nil},
		{"s := {}", nil},
		{"o := None", nil},
		{"wr[t] := const(None)", nil},
		{"wr[t][l] := Some(v)", nil},
		{"rd[t] := rd[t][l := Some(latest[l])]", nil},
		{"mems := append(mems, override(last(mems), wr[t]))", nil},
		{"r.f := 1", nil},
		{"cells[t].value := n", nil},
		{"q := []; n := len(q)", nil},
		{"if even(n) then phase := Busy else phase := Idle end", nil},
		{"if full then n := 1 elif below(2) then n := 2 else n := 3 end; phase := Idle", nil},
		{"if full then seen[t] := true end; if not full then seen[t] := false end", []string{
			`1:52: "seen" assigned twice on one path (first at t:1:14)`}},
		{"n := 1; n := 2", []string{`1:9: "n" assigned twice on one path (first at t:1:1)`}},
		{"seen[t] := true\nseen[t] := false", []string{`2:1: "seen" assigned twice on one path (first at t:1:1)`}},
		{"r.f := 1; r.g := true", []string{`1:11: "r" assigned twice on one path (first at t:1:1)`}},
		{"n := 1; if full then n := 2 end", []string{`1:22: "n" assigned twice on one path (first at t:1:1)`}},
		{"if full then n := 2 end; n := 1", []string{`1:26: "n" assigned twice on one path (first at t:1:14)`}},
		{"if full then n := 2 else n := 3 end; n := 1", []string{`1:38: "n" assigned twice on one path (first at t:1:14)`}},
		{"if full then skip else n := 3 end; n := 1", []string{`1:36: "n" assigned twice on one path (first at t:1:24)`}},
		{"if full then if below(1) then n := 1 else n := 2 end else n := 3 end", nil},
		{"if full then n := 1; if below(1) then n := 2 end end", []string{`1:39: "n" assigned twice on one path (first at t:1:14)`}},
		{"n := 1; phase := Idle; n := 2; phase := Busy", []string{
			`1:24: "n" assigned twice on one path (first at t:1:1)`,
			`1:32: "phase" assigned twice on one path (first at t:1:9)`}},
		{"t := t", []string{`1:1: cannot assign to "t": not a state variable`}},
		{"maxN := 1", []string{`1:1: cannot assign to "maxN": not a state variable`}},
		{"full := true", []string{`1:1: cannot assign to "full": not a state variable`}},
		{"Idle := Busy", []string{`1:1: cannot assign to "Idle": not a state variable`}},
		{"zz := 1", []string{`1:1: undefined name "zz"`}},
		{"zz[t] := 1; zz[l] := 2", []string{`1:1: undefined name "zz"`, `1:13: undefined name "zz"`}},
		{"n := true", []string{`1:6: expected Nat, found Bool in assignment to n`}},
		{"seen[t] := 1", []string{`1:12: expected Bool, found Int in assignment to seen[t]`}},
		{"seen[l] := true", []string{`1:6: expected T, found L in index`}},
		{"r.h := 1", []string{`1:1: "h" is not a field of R`}},
		{"s := {}; q := {}", []string{`1:15: expected Seq[Int], found {}`}},
		{"if n then skip end", []string{`1:4: expected Bool, found Nat`}},
		{"if zz then n := 1 end", []string{`1:4: undefined name "zz"`}},
		{"n := -1", nil}, // Nat targets carry an implicit check, not a sort error
	}
	for _, tt := range tests {
		ss, perrs := ParseStmts(tt.in, mapper(tt.in))
		if len(perrs) > 0 {
			t.Errorf("ParseStmts(%q): %v", tt.in, perrs)
			continue
		}
		var errs source.ErrorList
		w.checker(&errs).CheckStmts(ss, w.sc)
		var got []string
		for _, e := range errs {
			got = append(got, strings.TrimPrefix(e.Error(), "t:"))
		}
		if strings.Join(got, "\n") != strings.Join(tt.errs, "\n") {
			t.Errorf("CheckStmts(%q) errors:\n  %s\nwant:\n  %s", tt.in, strings.Join(got, "\n  "), strings.Join(tt.errs, "\n  "))
		}
		InspectStmts(ss, func(x Expr) bool {
			if x.Sort() == nil {
				t.Errorf("%q: %s has no sort", tt.in, Print(x))
			}
			return true
		})
	}
}

// TestCheckStmtsConstructed checks statements that the parser cannot make.
func TestCheckStmtsConstructed(t *testing.T) {
	w := newTestWorld()
	var errs source.ErrorList
	w.checker(&errs).CheckStmts([]Stmt{
		&Assign{Target: NewCall("len", NewIdent("q")), Value: NewIntLit(1)},
		&Assign{Target: NewIdent("n")},
		nil,
	}, w.sc)
	if len(errs) != 2 || errs[0].Msg != "cannot assign to len(q): not a state variable" {
		t.Errorf("errors = %v", errs)
	}
}

// TestCheckPositionsLiteralBlock checks checker errors in a literal block
// scalar that starts at f.yaml:10:5.
func TestCheckPositionsLiteralBlock(t *testing.T) {
	w := newTestWorld()
	text := "n := n + 1\nif full then\n  seen[t] := 1\nend\nn := 2 // again"
	m := source.NewMapper(source.Pos{File: "f.yaml", Line: 10, Col: 5}, text, 5)
	ss, perrs := ParseStmts(text, m)
	if len(perrs) > 0 {
		t.Fatal(perrs)
	}
	var errs source.ErrorList
	w.checker(&errs).CheckStmts(ss, w.sc)
	want := []string{
		"f.yaml:12:18: expected Bool, found Int in assignment to seen[t]",
		`f.yaml:14:5: "n" assigned twice on one path (first at f.yaml:10:5)`,
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	text = "forall u: T.\n  seen[u] and\n  u in q"
	m = source.NewMapper(source.Pos{File: "f.yaml", Line: 10, Col: 5}, text, 5)
	e, _ := ParseExpr(text, m)
	errs = nil
	w.checker(&errs).CheckExpr(e, w.sc, BoolSort)
	if len(errs) != 1 || errs[0].Error() != "f.yaml:12:9: operator in needs a set on the right, found Seq[Int]" {
		t.Errorf("errors = %v", errs)
	}
}
