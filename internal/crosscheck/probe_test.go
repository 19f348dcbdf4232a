package crosscheck

import (
	"reflect"
	"testing"

	"ladder/ioa/expr"
)

// TestProbes checks that a forward check evaluates its probes at every
// pair it reaches without requiring them, and that ProbeAt evaluates
// them at a pair given as text.
func TestProbes(t *testing.T) {
	p := loadProof(t, "testdata/probe/probes.yaml")
	q := *p
	q.Relation = p.Relation[:1]
	var probes []expr.Expr
	for _, cl := range p.Relation[1:] {
		probes = append(probes, cl.Body)
	}
	cfg := bounds(t, "V=2")
	cfg.Probes = probes
	res, err := Check(&q, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || !res.Complete {
		t.Fatalf("the check without the probes failed: %+v", res.Failure)
	}
	if want := []int{1}; !reflect.DeepEqual(res.ProbesFalse, want) {
		t.Fatalf("probes false: %v, want %v (p2 only)", res.ProbesFalse, want)
	}
	// Required, the same clauses fail the check.
	if res, err := Check(p, bounds(t, "V=2")); err != nil || res.Failure == nil {
		t.Fatalf("with p2 in the relation: err %v, failure %v; want a failure", err, res.Failure)
	}

	for _, tc := range []struct {
		c, a string
		want []bool
	}{
		{"Relay{inq: Some(V#1), outq: None}", "Queue1{buf: None}", []bool{true, true, true}},
		{"Relay{inq: Some(V#1), outq: None}", "Queue1{buf: Some(V#0)}", []bool{false, false, true}},
		{"Relay{inq: None, outq: Some(V#1)}", "Queue1{buf: Some(V#0)}", []bool{true, false, false}},
	} {
		got, err := ProbeAt(&q, "V=2", probes, tc.c, tc.a)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("at c = %s, a = %s: %v, want %v", tc.c, tc.a, got, tc.want)
		}
	}
	for _, bad := range []struct{ c, a string }{
		{"Relay{inq: None}", "Queue1{buf: None}"},                        // a variable missing
		{"Relay{inq: None, outq: None, x: 1}", "Queue1{buf: None}"},      // no such variable
		{"Relay{inq: 1, outq: None}", "Queue1{buf: None}"},               // ill-sorted
		{"Relay{inq: None, outq: None}", "Relay{inq: None, outq: None}"}, // another automaton
		{"Relay{inq: Some(V#3), outq: None}", "Queue1{buf: None}"},       // outside the instance
	} {
		if _, err := ProbeAt(&q, "V=2", probes, bad.c, bad.a); err == nil {
			t.Errorf("ProbeAt(%s, %s): no error", bad.c, bad.a)
		}
	}
}
