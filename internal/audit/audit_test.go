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
	if !strings.Contains(string(Error), "error") {
		t.Error("Error")
	}
}
