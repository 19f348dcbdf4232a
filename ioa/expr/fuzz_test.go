package expr

import (
	"testing"

	"ladder/internal/source"
)

// fuzzSeeds are starting points for the fuzzers: the round-trip corpus plus
// statements, errors and odd spacing.
func fuzzSeeds() []string {
	seeds := append([]string(nil), corpus...)
	seeds = append(seeds,
		"", "(", "a +", "forall x. p", "let x = 1", "r. f", "--", "-9223372036854775808[0]",
		"x := 1; if c then y := 2 elif d then skip else z[i] := 3 end",
		"n + 1 > max and phase = Idle", "seen[t] or exists u: T. seen[u] and u != t",
		"p subset m and dom(p) = {}", "len(s) + abs(x) - min(a, b) * max(a, b)",
		"even(n) <=> not odd(n)", "isSome(o) => get(o) = 1", "isNone(None)",
		"override(m, p)[k] = m[k]", "const(0)[k := 1]", "append([], 1)", "last([1])",
		"R{f: 1, g: true}.f", "r with {g := false}", "st.n", "st.full()", "Phase#1",
		"{t: T | seen[t]}", "lambda t: T. not seen[t]", "let y = n + 1 in y * y",
		"∀ t: T. t ∈ {t}", "// comment\n1",
	)
	return seeds
}

// FuzzParseExpr checks that the parser never panics, never reports an
// internal error, and that printing a parsed tree reads back equal and
// prints the same again.
func FuzzParseExpr(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m := source.NewMapper(source.Pos{File: "fuzz", Line: 1, Col: 1}, in, 1)
		e, errs := ParseExpr(in, m)
		for _, err := range errs {
			if err.Code == source.ErrInternal {
				t.Fatalf("ParseExpr(%q): %v", in, err)
			}
		}
		if e == nil {
			t.Fatalf("ParseExpr(%q) returned nil", in)
		}
		// Statements and sorts must not panic either.
		ss, serrs := ParseStmts(in, m)
		for _, err := range serrs {
			if err.Code == source.ErrInternal {
				t.Fatalf("ParseStmts(%q): %v", in, err)
			}
		}
		if len(serrs) == 0 {
			out := PrintStmts(ss)
			back, errs := ParseStmts(out, nil)
			if len(errs) > 0 || !EqualStmts(ss, back) {
				t.Fatalf("PrintStmts(ParseStmts(%q)) = %q reads back as %q (%v)", in, out, PrintStmts(back), errs)
			}
		}
		ParseSortExpr(in, m)
		ParseParam(in, m)
		if len(errs) > 0 {
			if _, ok := e.(*BadExpr); !ok {
				t.Fatalf("ParseExpr(%q) returned %T with errors", in, e)
			}
			return
		}
		out := Print(e)
		e2, errs := ParseExpr(out, nil)
		if len(errs) > 0 {
			t.Fatalf("Print(ParseExpr(%q)) = %q does not parse: %v", in, out, errs)
		}
		if !Equal(e, e2) {
			t.Fatalf("Print(ParseExpr(%q)) = %q reads back differently", in, out)
		}
		if out2 := Print(e2); out2 != out {
			t.Fatalf("Print not stable on %q: %q then %q", in, out, out2)
		}
	})
}

// FuzzCheck parses its input as an expression and as statements and checks
// them against a small fixed scope: the checker must not panic or report an
// internal error, must sort every node and resolve every identifier, and
// must report an error whenever it returns the invalid sort.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	w := newTestWorld()
	f.Fuzz(func(t *testing.T, in string) {
		if e, errs := ParseExpr(in, nil); len(errs) == 0 {
			var cerrs source.ErrorList
			s := w.checker(&cerrs).CheckExpr(e, w.sc, nil)
			for _, err := range cerrs {
				if err.Code == source.ErrInternal {
					t.Fatalf("CheckExpr(%q): %v", in, err)
				}
			}
			if s.IsInvalid() && len(cerrs) == 0 {
				t.Fatalf("CheckExpr(%q) is invalid without an error", in)
			}
			Inspect(e, func(x Expr) bool {
				if x.Sort() == nil {
					t.Fatalf("CheckExpr(%q): %s has no sort", in, Print(x))
				}
				if id, ok := x.(*Ident); ok && id.Obj == nil {
					t.Fatalf("CheckExpr(%q): %s has no object", in, id.Name)
				}
				return true
			})
			// Checking again (as a loader might) gives the same result.
			var cerrs2 source.ErrorList
			if s2 := w.checker(&cerrs2).CheckExpr(e, w.sc, nil); !Identical(s, s2) || len(cerrs) != len(cerrs2) {
				t.Fatalf("CheckExpr(%q) not repeatable: %s (%d errors) then %s (%d errors)", in, s, len(cerrs), s2, len(cerrs2))
			}
		}
		if ss, errs := ParseStmts(in, nil); len(errs) == 0 {
			var cerrs source.ErrorList
			w.checker(&cerrs).CheckStmts(ss, w.sc)
			for _, err := range cerrs {
				if err.Code == source.ErrInternal {
					t.Fatalf("CheckStmts(%q): %v", in, err)
				}
			}
		}
	})
}
