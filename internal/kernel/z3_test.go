package kernel

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"ladder/internal/counterexample"
	"ladder/internal/logic"
	"ladder/internal/refute"
)

// xProblem asserts hyp and ¬goal over the Int constants x and y.
func xProblem(hyp, goal *logic.Term) *logic.Problem {
	return &logic.Problem{Assertions: []logic.Named{{Name: "hyp", Term: hyp}, {Name: "goal", Term: logic.Not(goal)}}}
}

var (
	x = logic.Const("x", logic.IntSort())
	y = logic.Const("y", logic.IntSort())
)

// replayX re-checks a model of xProblem(x > n, x > 0) with Go arithmetic.
func replayX(n int64) replayer {
	return func(m logic.Model) (*counterexample.Counterexample, error) {
		v, err := m.Eval(x)
		if err != nil {
			return nil, err
		}
		if v.Kind() != logic.KindInt {
			return nil, fmt.Errorf("x = %v is not an integer", v)
		}
		if xv := v.Int64(); xv > n && xv <= 0 {
			return &counterexample.Counterexample{}, nil
		}
		return nil, fmt.Errorf("x = %d does not violate the goal", v.Int64())
	}
}

func TestZ3Verdicts(t *testing.T) {
	k, err := New(Config{RLimit: 2_000_000}, t.TempDir(), refute.New())
	if err != nil {
		t.Fatal(err)
	}
	if v := k.Identity().Version; !strings.HasPrefix(v, "4.") {
		t.Errorf("identity version %q", v)
	}
	s, err := k.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// A nonlinear problem Z3 cannot finish within a tiny rlimit:
	// x*x*x + y*y*y = 33 has no small solution (and the goal false).
	hard := xProblem(logic.Eq(logic.Add(logic.Mul(x, x, x), logic.Mul(y, y, y)), logic.IntVal(33)), logic.False())
	tests := []struct {
		name    string
		ob      *Obligation
		cfg     Config
		verdict Verdict
		reason  string
	}{
		{"valid", &Obligation{ID: "valid", Problem: xProblem(logic.Gt(x, logic.IntVal(1)), logic.Gt(x, logic.IntVal(0))), Replay: replayX(1)}, Config{}, Proved, ""},
		{"invalid", &Obligation{ID: "invalid", Problem: xProblem(logic.Gt(x, logic.IntVal(-5)), logic.Gt(x, logic.IntVal(0))), Replay: replayX(-5)}, Config{}, Refuted, ""},
		{"lying replay", &Obligation{ID: "lying", Problem: xProblem(logic.Gt(x, logic.IntVal(-5)), logic.Gt(x, logic.IntVal(0))), Replay: replayX(100)}, Config{}, Unknown, "[internal] solver model does not replay"},
		{"rlimit", &Obligation{ID: "hard", Problem: hard}, Config{RLimit: 1000}, Unknown, "z3: max. resource limit exceeded (rlimit 1000"},
	}
	for _, tt := range tests {
		kk := k
		if tt.cfg != (Config{}) {
			if kk, err = New(tt.cfg, t.TempDir(), refute.New()); err != nil {
				t.Fatal(err)
			}
		}
		ss, err := kk.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		q, err := kk.Prepare(tt.ob)
		if err != nil {
			t.Fatal(err)
		}
		r := ss.Check(q)
		ss.Close()
		if r.Verdict() != tt.verdict || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%s: %v %q; want %v %q", tt.name, r.Verdict(), r.Reason, tt.verdict, tt.reason)
		}
		if tt.verdict == Unknown && r.Dump == "" {
			t.Errorf("%s: unknown without a dump", tt.name)
		}
		if tt.verdict != Unknown && r.RLimitUsed == 0 {
			t.Errorf("%s: no resource count", tt.name)
		}
	}
}

// TestScriptAgreesWithCLI checks that the z3 command line answers a dumped
// script as the kernel does.
func TestScriptAgreesWithCLI(t *testing.T) {
	z3bin, err := exec.LookPath("z3")
	if err != nil {
		t.Skip("no z3 command line")
	}
	dir := t.TempDir()
	hard := xProblem(logic.Eq(logic.Add(logic.Mul(x, x, x), logic.Mul(y, y, y)), logic.IntVal(33)), logic.False())
	cases := []struct {
		ob   *Obligation
		cfg  Config
		want string
	}{
		{&Obligation{ID: "valid", Problem: xProblem(logic.Gt(x, logic.IntVal(1)), logic.Gt(x, logic.IntVal(0)))}, Config{}, "unsat"},
		{&Obligation{ID: "invalid", Problem: xProblem(logic.Gt(x, logic.IntVal(-5)), logic.Gt(x, logic.IntVal(0))), Replay: replayX(-5)}, Config{}, "sat"},
		{&Obligation{ID: "hard", Problem: hard}, Config{RLimit: 1000}, "unknown"},
	}
	for _, c := range cases {
		k, err := New(c.cfg, dir, refute.New())
		if err != nil {
			t.Fatal(err)
		}
		q, err := k.Prepare(c.ob)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := k.NewSession()
		r := s.Check(q)
		s.Close()
		kernelAnswer := map[Verdict]string{Proved: "unsat", Refuted: "sat", Unknown: "unknown"}[r.Verdict()]
		path, err := q.WriteScriptFor(dir, r)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command(z3bin, path).CombinedOutput()
		cli := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		if cli != c.want || kernelAnswer != c.want {
			t.Errorf("%s: z3 %s says %q, kernel says %q; want %q\n%s", c.ob.ID, path, cli, kernelAnswer, c.want, out)
		}
	}
}
