package eval

import (
	"strings"
	"testing"

	"ladder/ioa/expr"
)

// TestRepresentable checks which sorts have values in the evaluator: maps
// and sets over finite key sorts, at any depth, and not over Int or Seq.
func TestRepresentable(t *testing.T) {
	rec := &expr.Sort{Kind: expr.KRecord, Name: "R", Fields: []expr.Field{{Name: "a", Sort: sInt}, {Name: "m", Sort: expr.MapOf(sInt, sBool)}}}
	tests := []struct {
		s    *expr.Sort
		want string // "" when representable, else a part of the error
	}{
		{sInt, ""},
		{expr.MapOf(sT, sInt), ""},
		{expr.SeqOf(expr.MapOf(sT, expr.SetOf(sT))), ""},
		{expr.MapOf(expr.OptionOf(sT), sV), ""},
		{expr.MapOf(sInt, sV), "map sort Map[Int, V] has the infinite key sort Int"},
		{expr.SetOf(sInt), "set sort Set[Int] has the infinite element sort Int"},
		{expr.MapOf(sT, expr.MapOf(expr.SeqOf(sT), sBool)), "infinite key sort Seq[T]"},
		{expr.SeqOf(expr.OptionOf(expr.SetOf(sInt))), "infinite element sort Int"},
		{rec, "map sort Map[Int, Bool]"},
	}
	for _, tc := range tests {
		err := Representable(tc.s)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want representable", tc.s, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.s, err, tc.want)
		}
	}
}
