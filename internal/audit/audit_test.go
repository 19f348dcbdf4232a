package audit

import (
	"strings"
	"testing"
)

func TestForCVC5(t *testing.T) {
	in := `; ladder obligation: X
(set-option :rlimit 5)
(declare-sort V 0)
(declare-datatypes ((Option<V> 0)) (((None<V>) (Some<V> (Some<V>.val V)))))
(declare-fun |V#0| () V)
(declare-fun m () (Array Int V))
(declare-fun n () (Array Int Option<V>))
; a comment with ) and (
(assert (= m ((as const (Array Int V)) |V#0|)))
(assert (= n ((as const (Array Int Option<V>)) None<V>)))
(assert (forall ((x V)) (= m ((as const (Array Int V)) x))))
(assert (let ((%l0 |V#0|)) (= m ((as const (Array Int V)) %l0))))
(assert (= m ((as const (Array Int V)) |V#0|)))
(check-sat)
`
	out, err := ForCVC5([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `(set-logic ALL)
(declare-sort V 0)
(declare-datatypes ((Option<V> 0)) (((None<V>) (Some<V> (Some<V>.val V)))))
(declare-fun |V#0| () V)
(declare-fun m () (Array Int V))
(declare-fun n () (Array Int Option<V>))
(declare-fun |audit!const0| () (Array Int V))
(assert (forall ((|audit!i| Int)) (= (select |audit!const0| |audit!i|) |V#0|)))
(assert (= m |audit!const0|))
(assert (= n ((as const (Array Int Option<V>)) None<V>)))
(assert (forall ((x V)) (= m ((as const (Array Int V)) x))))
(assert (let ((%l0 |V#0|)) (= m ((as const (Array Int V)) %l0))))
(assert (= m |audit!const0|))
(check-sat)
`
	if string(out) != want {
		t.Errorf("ForCVC5:\n%s\nwant:\n%s", out, want)
	}
	for _, bad := range []string{"(assert (", "(assert |x)", "(assert \"x)", ")"} {
		if _, err := ForCVC5([]byte(bad)); err == nil {
			t.Errorf("ForCVC5(%q) accepted", bad)
		}
	}
}

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
