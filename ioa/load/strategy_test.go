package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/ioa/expr"
)

// strategyAutomaton is an automaton whose invariant idle takes the
// strategy inserted at STRATEGY.
const strategyAutomaton = `automaton: Strat
sorts:
  T: param
  PC: {enum: [Idle, Busy]}
state:
  pc: {sort: "Map[T, PC]", init: const(Idle)}
  n:  {sort: Int, init: 0}
  q:  {sort: "Seq[Int]", init: "[]"}
actions:
  Go:
    kind: internal
    params: {t: T}
    pre: pc[t] = Idle
    eff: pc[t] := Busy
invariants:
  pos: n >= 0
  idle:
    body: |
      forall t: T. pc[t] = Busy => n >= 0
    strategy:
STRATEGY
`

// TestStrategyExactErrors checks complete diagnostics of strategy lists:
// the position is the offending name or expression.
func TestStrategyExactErrors(t *testing.T) {
	tests := []struct {
		strategy string
		want     []string
	}{
		{"      - splitt: pc[t]", []string{`a.yaml:21:9: unknown strategy "splitt": expected one of split, assume, instantiate, parametrized (did you mean "split"?)`}},
		{"      - instantate: [pos]", []string{`a.yaml:21:9: unknown strategy "instantate": expected one of split, assume, instantiate, parametrized (did you mean "instantiate"?)`}},
		{"      - magic", []string{`a.yaml:21:9: unknown strategy "magic": expected one of split, assume, instantiate, parametrized`}},
		{"      - split: q", []string{`a.yaml:21:16: cannot split on q of sort Seq[Int]: a split expression must be Bool, an enum or an Option`}},
		{"      - split: n + 1", []string{`a.yaml:21:16: cannot split on n + 1 of sort Int: a split expression must be Bool, an enum or an Option`}},
		{"      - split: |\n          pc[t] = Idle and\n            pc[x] = Busy", []string{`a.yaml:23:16: undefined name "x"`}},
		{"      - split: pc[t] + 1", []string{`a.yaml:21:22: mismatched sorts PC and Int in +`}},
		{"      - assume: [pos, nope]", []string{`a.yaml:21:23: unknown invariant "nope": Strat has no invariant of that name`}},
		{"      - instantiate:\n          - idle(n)", []string{`a.yaml:22:18: expected T, found Int`}},
	}
	for _, tt := range tests {
		text := strings.Replace(strategyAutomaton, "STRATEGY", tt.strategy, 1)
		_, errs := memConfig(map[string]string{"a.yaml": text}).Files("a.yaml")
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("strategy %q:\ngot  %q\nwant %q", tt.strategy, got, tt.want)
		}
	}
}

func TestInvariantStrategyModel(t *testing.T) {
	text := strings.Replace(strategyAutomaton, "STRATEGY", `      - parametrized: [u]
      - split: pc[u]
      - assume: [idle]
      - instantiate:
          - idle(t)
        actions: [Go]`, 1)
	set, errs := memConfig(map[string]string{"a.yaml": text}).Files("a.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := set.Automaton("Strat")
	idle := a.Invariant("idle")
	s := idle.Strategy
	if s == nil || len(s.Steps) != 4 {
		t.Fatalf("idle.Strategy = %+v, want 4 steps", s)
	}
	if a.Invariant("pos").Strategy != nil {
		t.Errorf("pos has a strategy")
	}
	var names []string
	for _, st := range s.Steps {
		names = append(names, st.Name)
	}
	if got := strings.Join(names, " "); got != "parametrized split assume instantiate" {
		t.Errorf("steps = %s", got)
	}
	par, split, assume, inst := s.Steps[0], s.Steps[1], s.Steps[2], s.Steps[3]
	q := idle.Body.(*expr.Quant)
	if len(par.Index) != 1 || par.Index[0].Name != "u" || par.Binders[0] != q.Binders[0].Var || par.Index[0].Sort != q.Binders[0].Var.Sort {
		t.Errorf("parametrized: Index %v Binders %v", par.Index, par.Binders)
	}
	go_ := a.Action("Go")
	x := split.Args[go_].Split
	if split.Text != "pc[u]" || x == nil || x.Sort().Name != "PC" {
		t.Errorf("split: %q %v", split.Text, x)
	}
	// u resolves to the index name's object.
	if ix := x.(*expr.Index).Index.(*expr.Ident); ix.Obj != par.Index[0] {
		t.Errorf("u resolves to %+v, want the index object", ix.Obj)
	}
	if len(assume.Invariants) != 1 || assume.Invariants[0].Invariant != idle {
		t.Errorf("assume: %+v", assume.Invariants)
	}
	if !inst.AppliesTo(go_) || len(inst.Actions) != 1 {
		t.Errorf("instantiate applies to %v", inst.Actions)
	}
	in := inst.Args[go_].Instances
	if len(in) != 1 || in[0].Invariant != idle || in[0].State != nil || len(in[0].Args) != 1 || in[0].Text != "idle(t)" {
		t.Errorf("instances: %+v", in)
	}
}

// proofFiles returns the example automata of testdata/proofs with a proof
// file a.yaml.
func proofFiles(t *testing.T, proof string) map[string]string {
	t.Helper()
	files := map[string]string{"a.yaml": proof}
	for _, f := range []string{"iface.yaml", "impl.yaml", "spec.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/proofs", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(data)
	}
	return files
}

const strategyProof = `proof: S
kind: KIND
concrete: Impl
abstract: Spec
relation:
  R1: a.total = c.sum
STRATEGY
`

func TestProofStrategies(t *testing.T) {
	tests := []struct {
		kind, strategy string
		want           []string // "line:col: substring"
	}{
		{"backward", `total: {total: c.sum}
strategy:
  - split: c.full
  - assume: [bufRange]
steps:
  Stage: []
  Flush:
    - when: k = 0
      steps: Add(0)
      strategy:
        - split: k = c.buf
        - instantiate:
            - cpost.emptyBuf
    - steps:
        - Add(k)
      pre: {total: a.total - k}`, []string{
			`19:15: expected an instance c.inv(terms), cpost.inv(terms) or a.inv(terms)`,
		}},
		{"backward", `total: {total: c.sum}
assume:
  concrete: [bufRange]
strategy:
  - parametrized                 # not for proofs
  - assume: [emptyBuf]           # not assumed by the proof
  - split: c.full
    actions: [Nope]
steps:
  Stage: []
  Flush:
    - steps:
        - Add(k)
      pre: {total: a.total - k}
      strategy:
        - split: c.buf
        - assume: [bufRange]
          actions: [Flush]`, []string{
			`11:5: strategy "parametrized" applies to invariants`,
			`12:14: invariant "emptyBuf" is not assumed by proof S`,
			`14:15: unknown action "Nope"`,
			`22:18: cannot split on c.buf of sort Int`,
			`24:11: a case's strategy applies to its action only: "actions" is not allowed here`,
		}},
		{"forward", `start: {total: 0}
strategy:
  - instantiate:
      - z.bufRange(1)
      - a.bufRange(1)
  - assume: [emptyBuf]
    clauses: [relation(R9), pre(Add), post(total), event, foo(x)]
steps:
  Stage: []
  Flush: Add(k)`, []string{
			`10:9: cannot instantiate an invariant in z: expected c, cpost or a`,
			`11:11: unknown invariant "bufRange": Spec has no invariant of that name`,
			`13:15: unknown clause "relation(R9)" in the clauses of a strategy: the proof has no relation clause R9`,
			`13:59: unknown clause "foo(x)" in the clauses of a strategy: expected relation(R), pre(β), post(x), loop(start), loop(pre), loop(step) or event`,
		}},
	}
	for _, tt := range tests {
		text := strings.Replace(strings.Replace(strategyProof, "KIND", tt.kind, 1), "STRATEGY", tt.strategy, 1)
		_, errs := memConfig(proofFiles(t, text)).Files("iface.yaml", "impl.yaml", "spec.yaml", "a.yaml")
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		for _, w := range tt.want {
			found := false
			for _, g := range got {
				found = found || strings.HasPrefix(g, "a.yaml:"+w[:strings.Index(w, ": ")]+": ") && strings.Contains(g, w[strings.Index(w, ": ")+2:])
			}
			if !found {
				t.Errorf("%s proof: missing error %q in\n%s", tt.kind, w, strings.Join(got, "\n"))
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s proof: got %d errors, want %d:\n%s", tt.kind, len(got), len(tt.want), strings.Join(got, "\n"))
		}
	}
}

func TestProofStrategyModel(t *testing.T) {
	text := strings.Replace(strings.Replace(strategyProof, "KIND", "backward", 1), "STRATEGY", `total: {total: c.sum}
strategy:
  - split: c.full
  - assume: [c.bufRange]
steps:
  Stage: []
  Flush:
    - when: k = 0
      steps: Add(0)
      strategy:
        - split: k = c.buf
        - instantiate:
            - cpost.emptyBuf
    - steps:
        - Add(k)
      pre: {total: a.total - k}`, 1)
	text = strings.Replace(text, "cpost.emptyBuf", "cpost.bufRange(1)", 1)
	set, errs := memConfig(proofFiles(t, text)).Files("iface.yaml", "impl.yaml", "spec.yaml", "a.yaml")
	// bufRange is not quantified: instantiating it is an error.
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `a.yaml:19:21: cannot instantiate invariant "bufRange": its body is not of the form forall`) {
		t.Fatalf("errors: %v", errs)
	}
	p := set.Proofs[0]
	ps := p.Strategy
	if ps == nil || len(ps.Steps) != 2 || ps.Steps[1].Invariants[0].Invariant != p.Concrete.Invariant("bufRange") {
		t.Fatalf("p.Strategy = %+v", ps)
	}
	flush := p.Step("Flush")
	for _, act := range []string{"Stage", "Flush"} {
		if ps.Steps[0].Args[p.Concrete.Action(act)] == nil {
			t.Errorf("the proof's split is not checked for action %s", act)
		}
	}
	if cs := flush.Cases[0].Strategy; cs == nil || len(cs.Steps) != 1 || cs.Steps[0].Text != "k = c.buf" {
		t.Errorf("the strategy of Flush case 1 = %+v", cs)
	}
	if flush.Cases[1].Strategy != nil {
		t.Errorf("case 2 has a strategy")
	}
}
