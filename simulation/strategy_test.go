package simulation

import (
	"context"
	"strings"
	"testing"

	"ladder/internal/encode"
	"ladder/internal/logic"
	"ladder/internal/smt"
	"ladder/internal/source"
	"ladder/internal/z3"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/ioa/load"
)

// loadTxn loads testdata/strategy/txn.yaml.
func loadTxn(t *testing.T) (*load.Set, *ioa.Automaton) {
	t.Helper()
	set, errs := load.Files("testdata/strategy/txn.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return set, set.Automaton("Txn")
}

// checked parses text and sort-checks it in sc.
func checked(t *testing.T, text string, sc *expr.Scope) expr.Expr {
	t.Helper()
	x, errs := expr.ParseExpr(text, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var cerrs source.ErrorList
	load.NewChecker(&cerrs).CheckExpr(x, sc, nil)
	if len(cerrs) > 0 {
		t.Fatalf("%s: %v", text, cerrs)
	}
	return x
}

// hinted generates the obligations of set with a Strategist that gives
// hint(t) to the targets whose ID has the given prefix.
func hinted(t *testing.T, set *load.Set, prefix string, hint func(t *Target) *Hint) ([]*Obligation, []*Edge, source.ErrorList) {
	t.Helper()
	return Generate(&set.Hierarchy, Config{Strategist: func(tg *Target) (*Hint, error) {
		if !strings.HasPrefix(tg.ID, prefix) {
			return nil, nil
		}
		return hint(tg), nil
	}})
}

// byID indexes obligations.
func byID(obls []*Obligation) map[string]*Obligation {
	m := map[string]*Obligation{}
	for _, o := range obls {
		m[o.ID] = o
	}
	return m
}

// hyps returns the names of a problem's assertions.
func hyps(o *Obligation) string {
	var out []string
	for _, a := range o.Problem.Assertions {
		out = append(out, a.Name)
	}
	return strings.Join(out, "; ")
}

// decide checks o with Z3 in a fresh context and replays a model.
func decide(t *testing.T, o *Obligation) (smt.Status, *Counterexample) {
	t.Helper()
	zc, err := z3.NewContext(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zc.Close()
	r, err := smt.NewSession(zc).Check(context.Background(), o.Problem, solverCfg)
	if err != nil {
		t.Fatalf("%s: %v", o.ID, err)
	}
	if r.Status != smt.Sat || r.Model == nil {
		return r.Status, nil
	}
	defer r.Model.Close()
	cex, err := o.Replay(r.Model)
	if err != nil {
		t.Fatalf("%s: replay: %v", o.ID, err)
	}
	return r.Status, cex
}

func TestHintSplitEnum(t *testing.T) {
	set, a := loadTxn(t)
	finish := a.Action("Finish")
	split := checked(t, "pc[t]", finish.Scope)
	obls, _, errs := hinted(t, set, "Txn › invariant xDone › Finish", func(*Target) *Hint {
		return &Hint{Splits: []Split{{Text: "pc[t]", Expr: split}}}
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := byID(obls)
	if m["Txn › invariant xDone › Finish"] != nil {
		t.Errorf("the split obligation is still there")
	}
	var cases []*Obligation
	for _, v := range []string{"Idle", "Busy", "Done"} {
		id := "Txn › invariant xDone › Finish › case pc[t]=" + v
		o := m[id]
		if o == nil {
			t.Fatalf("no obligation %s", id)
		}
		cases = append(cases, o)
		if o.Invariant != InvariantKey(a, "xDone") || o.Action != "Finish" || o.Case != "case pc[t]="+v || o.Group != "Txn › invariant xDone" {
			t.Errorf("%s: Invariant %q Action %q Case %q Group %q", id, o.Invariant, o.Action, o.Case, o.Group)
		}
		if h := hyps(o); !strings.Contains(h, "pre Finish(s, p); case pc[t]="+v+"; goal (negated)") {
			t.Errorf("%s: hypotheses %s", id, h)
		}
		if st, cex := decide(t, o); st != smt.Unsat {
			t.Errorf("%s: %v\n%v", id, st, cex)
		}
	}
	// Every other obligation is unchanged: one more per split, two more in all.
	plain, _, _ := Generate(&set.Hierarchy, Config{})
	if len(obls) != len(plain)+2 {
		t.Errorf("%d obligations with the split, %d without", len(obls), len(plain))
	}
	if n := checkCoverage(t, stepPlan(a, "xDone", "Finish"), &Hint{Splits: []Split{{Text: "pc[t]", Expr: split}}}); n != len(cases) {
		t.Errorf("%d cases, %d obligations", n, len(cases))
	}
}

// checkCoverage generates the coverage obligation of hint h applied to
// the obligation of p, "the disjunction of the conditions of its cases",
// in the world of p's rule, checks that Z3 proves it (the cases cover
// every state) and returns the number of cases.
func checkCoverage(t *testing.T, p *plan, h *Hint) int {
	t.Helper()
	cases, err := expand(h, p)
	if err != nil {
		t.Fatal(err)
	}
	if st := coverage(t, p, cases); st != smt.Unsat {
		t.Errorf("coverage of the %d cases: %v, want unsat", len(cases), st)
	}
	// The check is not vacuous: without its last case, a split does not
	// cover every state.
	if len(cases) > 1 {
		if st := coverage(t, p, cases[:len(cases)-1]); st != smt.Sat {
			t.Errorf("coverage of %d of the %d cases: %v, want sat", len(cases)-1, len(cases), st)
		}
	}
	return len(cases)
}

// coverage decides the coverage obligation of cases.
func coverage(t *testing.T, p *plan, cases []*hintCase) smt.Status {
	t.Helper()
	w := newSymWorld()
	rec := &recWorld[*encode.State, encode.Value, *logic.Term]{hintWorld: w, states: map[string]*encode.State{}, params: map[string][]encode.Value{}}
	if _, err := run[*encode.State, encode.Value, *logic.Term](rec, p); err != nil {
		t.Fatal(err)
	}
	env := newEnv[*encode.State, encode.Value](rec.params["p"])
	st, bare := rec.states["s"], p.proof == nil
	if !bare {
		for obj, name := range map[*expr.Object]string{p.proof.C: "c", p.proof.A: "a", p.proof.CPost: "cpost"} {
			if s, ok := rec.states[name]; ok {
				env.with(obj, s)
			}
		}
	}
	var alts []*logic.Term
	var vars map[*expr.Object]encode.Value
	for i, c := range cases {
		if i == 0 {
			// The cases share the fresh index values of the first.
			hp := *p
			hp.hint = c
			var err error
			if vars, _, err = indexValues[*encode.State, encode.Value, *logic.Term](w, &hp); err != nil {
				t.Fatal(err)
			}
		}
		var conj []*logic.Term
		for _, cc := range c.conds {
			var b *logic.Term
			var err error
			if cc.ctor >= 0 {
				var v encode.Value
				if v, err = w.valueIn(cc.x, st, bare, env, vars); err == nil {
					b, err = w.ctorIs(v, cc.x.Sort(), cc.ctor)
				}
			} else if b, err = w.holdsIn(cc.x, st, bare, env, vars); cc.neg {
				b = logic.Not(b)
			}
			if err != nil {
				t.Fatal(err)
			}
			conj = append(conj, b)
		}
		alts = append(alts, logic.And(conj...))
	}
	prob, err := w.enc.Problem(nil, logic.Or(alts...))
	if err != nil {
		t.Fatal(err)
	}
	r, err := smt.CheckText(context.Background(), prob, solverCfg)
	if err != nil {
		t.Fatal(err)
	}
	return r.Status
}

// stepPlan returns the plan of invariant inv's step for action act.
func stepPlan(a *ioa.Automaton, inv, act string) *plan {
	i := a.Invariant(inv)
	return &plan{rule: ruleInvStep, auto: a, inv: i, natVar: -1, assume: assumed(a, i), action: a.Action(act)}
}

// quantified returns the names of o's assertions that contain a
// quantifier.
func quantified(o *Obligation) []string {
	var out []string
	for _, a := range o.Problem.Assertions {
		if hasQuantifier(a.Term, map[*logic.Term]bool{}) {
			out = append(out, a.Name)
		}
	}
	return out
}

func hasQuantifier(t *logic.Term, seen map[*logic.Term]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind() == logic.KindForall || t.Kind() == logic.KindExists {
		return true
	}
	for _, a := range t.Args() {
		if hasQuantifier(a, seen) {
			return true
		}
	}
	return false
}

func TestHintKeepAndInstance(t *testing.T) {
	set, a := loadTxn(t)
	finish := a.Action("Finish")
	key := func(n string) string { return InvariantKey(a, n) }
	inst := Instance{Automaton: a, Invariant: a.Invariant("xBusy"), Args: []expr.Expr{checked(t, "t", finish.Scope)}, Text: "xBusy(t)"}
	tests := []struct {
		keep    []string
		status  smt.Status
		assumes string
	}{
		// xDone(s) for the other transactions, xBusy(t) for the acting one.
		{[]string{key("xDone")}, smt.Unsat, "automaton:Txn/invariant:n:Nat automaton:Txn/invariant:xBusy automaton:Txn/invariant:xDone"},
		// Without xDone(s) the other transactions are unconstrained.
		{[]string{}, smt.Sat, "automaton:Txn/invariant:n:Nat automaton:Txn/invariant:xBusy"},
	}
	for _, tt := range tests {
		obls, _, errs := hinted(t, set, "Txn › invariant xDone › Finish", func(*Target) *Hint {
			return &Hint{Keep: tt.keep, Instances: []Instance{inst}}
		})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		o := byID(obls)["Txn › invariant xDone › Finish"]
		if o == nil {
			t.Fatal("no obligation Txn › invariant xDone › Finish: a hint without splits keeps the ID")
		}
		h := hyps(o)
		for _, inv := range []string{"xIdle", "xBusy", "ownerBusy", "logDone", "wrongDone"} {
			if strings.Contains(h, "assume Txn."+inv+"(s)") {
				t.Errorf("keep %v: hypothesis of %s kept: %s", tt.keep, inv, h)
			}
		}
		if !strings.Contains(h, "instance Txn.xBusy(t) at s") || !strings.Contains(h, "nat Txn.n:Nat(s)") {
			t.Errorf("keep %v: hypotheses %s", tt.keep, h)
		}
		if got := strings.Join(o.Assumes, " "); got != tt.assumes {
			t.Errorf("keep %v: Assumes = %s, want %s", tt.keep, got, tt.assumes)
		}
		deps := strings.Join(o.Deps, " ")
		if strings.Contains(deps, "invariant:xIdle") || !strings.Contains(deps, "invariant:xBusy") || !strings.Contains(deps, "invariant:xDone") {
			t.Errorf("keep %v: Deps = %s", tt.keep, deps)
		}
		st, cex := decide(t, o)
		if st != tt.status {
			t.Errorf("keep %v: %v, want %v\n%v", tt.keep, st, tt.status, cex)
		}
		if st == smt.Sat && (cex == nil || !strings.Contains(cex.Goal, "xDone(s')")) {
			t.Errorf("keep %v: counterexample %v", tt.keep, cex)
		}
	}
}

// parametrizedHint is the hint of SS's rule P-INV for an invariant of Txn
// at an action with parameter t, written by hand: index u, cases u = t
// and u ≠ t, support invariants instantiated at t and u.
func parametrizedHint(t *testing.T, a *ioa.Automaton, inv, act string, support ...string) *Hint {
	t.Helper()
	q := a.Invariant(inv).Body.(*expr.Quant)
	b := q.Binders[0].Var
	u := &expr.Object{Kind: expr.ObjBound, Name: "u", Sort: b.Sort}
	sc := expr.NewScope(a.Action(act).Scope)
	sc.Insert(u)
	h := &Hint{Generalize: 1, Aliases: []*expr.Object{u}, Keep: []string{},
		Splits: []Split{{Text: "parametrized", Guards: []expr.Expr{checked(t, "u = t", sc)}, Labels: []string{"u=t", "u≠t"}}}}
	for _, name := range support {
		for _, x := range []string{"t", "u"} {
			h.Instances = append(h.Instances, Instance{Automaton: a, Invariant: a.Invariant(name), Args: []expr.Expr{checked(t, x, sc)}, Text: name + "(" + x + ")"})
		}
	}
	return h
}

func TestHintParametrized(t *testing.T) {
	set, a := loadTxn(t)
	for _, act := range []string{"Start", "Finish", "Grab"} {
		h := parametrizedHint(t, a, "xDone", act, "xBusy", "xDone")
		obls, _, errs := hinted(t, set, "Txn › invariant xDone › "+act, func(*Target) *Hint { return h })
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		m := byID(obls)
		for _, c := range []string{"u=t", "u≠t"} {
			id := "Txn › invariant xDone › " + act + " › case " + c
			o := m[id]
			if o == nil {
				t.Fatalf("no obligation %s", id)
			}
			h := hyps(o)
			for _, want := range []string{"instance Txn.xBusy(t) at s", "instance Txn.xBusy(u) at s", "instance Txn.xDone(t) at s", "instance Txn.xDone(u) at s", "case " + c} {
				if !strings.Contains(h, want) {
					t.Errorf("%s: no hypothesis %q in %s", id, want, h)
				}
			}
			if strings.Contains(h, "assume ") {
				t.Errorf("%s: quantified invariants kept: %s", id, h)
			}
			// Quantifier-free but for the background facts of the Seq
			// variable log (well-formedness) and the effect's append.
			for _, q := range quantified(o) {
				if q != "wf(s.log)" {
					t.Errorf("%s: %s has a quantifier", id, q)
				}
			}
			if st, cex := decide(t, o); st != smt.Unsat {
				t.Errorf("%s: %v\n%v", id, st, cex)
			}
		}
		if n := checkCoverage(t, stepPlan(a, "xDone", act), h); n != 2 {
			t.Errorf("%d cases", n)
		}
	}
}

// TestHintRefutedCase is the negative test: the wrong invariant wrongDone,
// split on the acting transaction's pc, is refuted in exactly the case
// where Finish breaks it, with a replayed counterexample.
func TestHintRefutedCase(t *testing.T) {
	set, a := loadTxn(t)
	for _, act := range a.Actions {
		if len(act.Params) == 0 {
			continue
		}
		split := checked(t, "pc[t]", act.Scope)
		obls, _, errs := hinted(t, set, "Txn › invariant wrongDone › "+act.Name, func(*Target) *Hint {
			return &Hint{Splits: []Split{{Text: "pc[t]", Expr: split}}}
		})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, v := range []string{"Idle", "Busy", "Done"} {
			id := "Txn › invariant wrongDone › " + act.Name + " › case pc[t]=" + v
			o := byID(obls)[id]
			if o == nil {
				t.Fatalf("no obligation %s", id)
			}
			st, cex := decide(t, o)
			if act.Name == "Finish" && v == "Busy" {
				if st != smt.Sat || cex == nil {
					t.Fatalf("%s: %v, want a replayed counterexample", id, st)
				}
				text := cex.String()
				for _, want := range []string{"counterexample to " + id, "fails: invariant: wrongDone(s')", "concrete step: Finish(", "x: "} {
					if !strings.Contains(text, want) {
						t.Errorf("%s: counterexample lacks %q:\n%s", id, want, text)
					}
				}
				if cex.Case != "case pc[t]=Busy" {
					t.Errorf("counterexample case %q", cex.Case)
				}
				t.Logf("%s", text)
				continue
			}
			if st != smt.Unsat {
				t.Errorf("%s: %v, want unsat\n%v", id, st, cex)
			}
		}
	}
}

func TestHintOptionAndBoolSplits(t *testing.T) {
	set, a := loadTxn(t)
	grab := a.Action("Grab")
	for _, sp := range []struct {
		text  string
		cases []string
	}{
		{"owner", []string{"None", "Some"}},
		{"owner = None", []string{"true", "false"}},
		{"isSome(owner) and pc[t] = Busy", []string{"true", "false"}},
	} {
		x := checked(t, sp.text, grab.Scope)
		h := &Hint{Splits: []Split{{Text: sp.text, Expr: x}}}
		obls, _, errs := hinted(t, set, "Txn › invariant ownerBusy › Grab", func(*Target) *Hint { return h })
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		for _, c := range sp.cases {
			id := "Txn › invariant ownerBusy › Grab › case " + sp.text + "=" + c
			o := byID(obls)[id]
			if o == nil {
				t.Fatalf("no obligation %s", id)
			}
			if st, cex := decide(t, o); st != smt.Unsat {
				t.Errorf("%s: %v\n%v", id, st, cex)
			}
		}
		checkCoverage(t, stepPlan(a, "ownerBusy", "Grab"), h)
	}
}

// TestHintRejected checks that simulation refuses the hints it cannot
// apply soundly, reports them and generates the obligation as declared.
func TestHintRejected(t *testing.T) {
	set, a := loadTxn(t)
	finish := a.Action("Finish")
	tp := checked(t, "t", finish.Scope)
	tests := []struct {
		name, target string
		hint         *Hint
		want         string
	}{
		{"generalize a range", "Txn › invariant logDone › Finish", &Hint{Generalize: 1}, "cannot generalize invariant logDone: its bound variable i does not range over a parameter sort"},
		{"generalize too many", "Txn › invariant xDone › Finish", &Hint{Generalize: 2}, "invariant xDone binds 1 variables"},
		{"instance of no forall", "Txn › invariant xDone › Finish", &Hint{Instances: []Instance{{Automaton: a, Invariant: &ioa.Invariant{Name: "fake", Body: tp}, Args: []expr.Expr{tp}}}}, "fake is not an invariant of Txn"},
		{"instance in a proof state", "Txn › invariant xDone › Finish", &Hint{Instances: []Instance{{Automaton: a, Invariant: a.Invariant("xBusy"), State: &expr.Object{Kind: expr.ObjState, Name: "c"}, Args: []expr.Expr{tp}}}}, "in its pre-state only"},
		{"instance ill-sorted", "Txn › invariant xDone › Finish", &Hint{Instances: []Instance{{Automaton: a, Invariant: a.Invariant("xBusy"), Args: []expr.Expr{checked(t, "1", finish.Scope)}}}}, "term 1 of the instance of xBusy does not have sort T"},
		{"split on Int", "Txn › invariant xDone › Finish", &Hint{Splits: []Split{{Text: "x[t]", Expr: checked(t, "x[t]", finish.Scope)}}}, "cannot split on x[t] of sort Int"},
		{"guard not Bool", "Txn › invariant xDone › Finish", &Hint{Splits: []Split{{Guards: []expr.Expr{tp}}}}, "a split guard must be a Bool expression"},
	}
	for _, tt := range tests {
		obls, _, errs := hinted(t, set, tt.target, func(*Target) *Hint { return tt.hint })
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, tt.want) || !strings.Contains(errs[0].Msg, "strategy for "+tt.target) {
			t.Errorf("%s: errors %v, want one containing %q", tt.name, errs, tt.want)
		}
		if byID(obls)[tt.target] == nil {
			t.Errorf("%s: obligation %s not generated as declared", tt.name, tt.target)
		}
	}
}

// TestHintEdge applies hints to the step obligations of a forward
// simulation: split on a concrete variable, drop the invariants, and the
// edge lists the new obligations and assumptions.
func TestHintEdge(t *testing.T) {
	set := loadCounter(t, "ok_forward.yaml")
	var full expr.Expr
	var targets []*Target
	obls, edges, errs := hinted(t, set, "Impl→Spec › forward › Flush", func(tg *Target) *Hint {
		targets = append(targets, tg)
		if full == nil {
			full = checked(t, "c.full", tg.Step.Scope)
		}
		return &Hint{Keep: []string{}, Splits: []Split{{Text: "c.full", Expr: full}}, Deps: []string{"proof:test/strategy"}}
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, tg := range targets {
		if tg.Proof == nil || tg.Case == nil || tg.Action.Name != "Flush" || len(tg.Assumed) != 2 || tg.Assumed[0].State != tg.Proof.C {
			t.Errorf("target %s: %+v", tg.ID, tg)
		}
	}
	m := byID(obls)
	e := edges[0]
	ids := strings.Join(e.Obligations, "\n")
	for _, id := range []string{
		"Impl→Spec › forward › Flush › case 1 › relation(R1) › case c.full=true",
		"Impl→Spec › forward › Flush › case 2 › event › case c.full=false",
		"Impl→Spec › forward › Stage › relation(R1)",
	} {
		o := m[id]
		if o == nil || !strings.Contains(ids, id) {
			t.Fatalf("no obligation %s in the edge:\n%s", id, ids)
		}
		if strings.Contains(id, "Flush") {
			if strings.Contains(hyps(o), "assume ") || len(o.Assumes) != 0 || !strings.Contains(strings.Join(o.Deps, " "), "proof:test/strategy") {
				t.Errorf("%s: hypotheses %s, Assumes %v, Deps %v", id, hyps(o), o.Assumes, o.Deps)
			}
			if st, cex := decide(t, o); st != smt.Unsat {
				t.Errorf("%s: %v\n%v", id, st, cex)
			}
		}
	}
	if strings.Contains(ids, "Flush › case 1 › relation(R1)\n") {
		t.Errorf("the edge still lists the split obligation")
	}
	// Stage keeps the implicit assumptions of every concrete invariant.
	if got := strings.Join(e.Assumes, " "); got != "automaton:Impl/invariant:bufRange automaton:Impl/invariant:emptyBuf" {
		t.Errorf("edge Assumes = %s", got)
	}
	for _, id := range e.Obligations {
		if m[id] == nil {
			t.Errorf("edge lists unknown obligation %s", id)
		}
	}
}
