package ioa

import "testing"

func TestStepClauseRoundTrip(t *testing.T) {
	for _, s := range []string{"relation(mem)", "pre(DoRead)", "pre(DoRead#2)", "post(beginIdx)", "event"} {
		c, err := ParseStepClause(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if c.String() != s {
			t.Errorf("%s: round trip gives %s", s, c)
		}
	}
	if c, _ := ParseStepClause("pre(X#3)"); c.Kind != ClausePre || c.Arg != "X" || c.N != 3 {
		t.Errorf("pre(X#3) = %+v", c)
	}
	for _, s := range []string{"", "relation", "relation()", "guard(x)", "pre(X#0)", "pre(X#y)", "post(x", "events"} {
		if _, err := ParseStepClause(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}
