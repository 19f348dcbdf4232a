package audit

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		stdout, stderr string
		want           Answer
	}{
		{"unsat\n", "", Unsat},
		{"unsupported\nsat\n", "", Sat},
		{"unknown\n", "", Unknown},
		{"timeout\n", "", Timeout},
		{"", "cvc5 interrupted by timeout.\n", Timeout},
		{"", "f.smt2:8.13: No set-logic command was given before this point.\nf.smt2:8.13: cvc5 will make all theories available.\ncvc5 interrupted by timeout.\n", Timeout},
		{"(error \"Parse Error: x\")\n", "", Error},
		{"", "", Error},
	}
	for _, tt := range tests {
		if got, _ := classify(tt.stdout, tt.stderr); got != tt.want {
			t.Errorf("classify(%q, %q) = %s; want %s", tt.stdout, tt.stderr, got, tt.want)
		}
	}
	if Sum([]Result{{Answer: Unsat}, {Answer: Timeout}}) != Incomplete ||
		Sum([]Result{{Answer: Unsat}, {Answer: Sat}}) != Disagree ||
		Sum([]Result{{Answer: Unsat}, {Answer: Unsat}}) != Agree {
		t.Error("Sum")
	}
	warn := "f.smt2:8.13: No set-logic command was given before this point.\n"
	if got, detail := classify("", warn+"f.smt2:9.1: Parse Error: bad\n"); got != Error || !strings.Contains(detail, "Parse Error") {
		t.Errorf("an error after the set-logic warning: %s %q", got, detail)
	}
	if !strings.Contains(string(Error), "error") {
		t.Error("Error")
	}
}
