package infer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/driver"
	"ladder/internal/logic"
	"ladder/internal/smt"
)

// stepProblem is the step obligation of the candidate ∀t: T. a[t] ≥ 0
// (assuming only itself) for an action with parameter p.t that writes v
// to a[p.t] and whose precondition is ∀u: T. b[u] = 0.
func stepProblem(v int64) *logic.Problem {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	a, b := logic.Const("s.a", arr), logic.Const("s.b", arr)
	pt := logic.Const("p.t", T)
	t, u := logic.Var("t", T), logic.Var("u", T)
	body := func(x *logic.Term) *logic.Term {
		return logic.Forall([]*logic.Term{t}, logic.Ge(logic.Select(x, t), logic.IntVal(0)))
	}
	post := logic.Store(a, pt, logic.IntVal(v))
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "assume A.c(s)", Term: body(a)},
		// A quantifier in a negative position stays.
		{Name: "nat A.x:Nat(s)", Term: logic.Implies(logic.Forall([]*logic.Term{u}, logic.Eq(logic.Select(b, u), logic.IntVal(1))), logic.Ge(logic.Select(a, pt), logic.IntVal(0)))},
		{Name: "pre Act(s, p)", Term: logic.Forall([]*logic.Term{u}, logic.Eq(logic.Select(b, u), logic.IntVal(0)))},
		{Name: goalName, Term: logic.Not(body(post))},
	}}
}

// TestInstantiate checks how the search makes an obligation ground: the
// hypothesis, the precondition and the Nat conditions become instances
// at the parameters and the skolem constants, the negated goal a
// witness, and the answers stay those of the quantified problem.
func TestInstantiate(t *testing.T) {
	p := instantiate(stepProblem(1), "assume A.c(s)")
	hyp := p.Assertions[0].Term.String()
	for _, at := range []string{"p.t", "sk!T!1", "sk!T!2", "sk!T!3"} {
		if !strings.Contains(hyp, "(select s.a "+at+")") {
			t.Errorf("hypothesis %s has no instance at %s", hyp, at)
		}
	}
	for i, want := range []bool{false, true, false, false} {
		if got := strings.Contains(p.Assertions[i].Term.String(), "forall"); got != want {
			t.Errorf("%s: quantified %v, want %v: %s", p.Assertions[i].Name, got, want, p.Assertions[i].Term)
		}
	}
	if goal := p.Assertions[3].Term.String(); !strings.Contains(goal, "sk!T!1") {
		t.Errorf("the goal %s has no witness sk!T!1", goal)
	}
	// The step writing 1 preserves the candidate; writing -1 does not.
	for _, c := range []struct {
		v    int64
		want smt.Status
	}{{1, smt.Unsat}, {-1, smt.Sat}} {
		if r := check(t, instantiate(stepProblem(c.v), "assume A.c(s)")); r.Status != c.want {
			t.Errorf("writing %d: %v, want %v", c.v, r.Status, c.want)
		}
	}
}

// check asserts p in a solver of its own and checks it.
func check(t *testing.T, p *logic.Problem) *smt.Result {
	t.Helper()
	w, err := smt.OpenWorkspace("lambda!")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fs, err := w.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	s, err := w.NewSolver(smt.Config{RLimit: 10_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Assert(fs...); err != nil {
		t.Fatal(err)
	}
	r, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWitnessLimit checks that a goal needing more skolem constants of a
// sort than there are keeps its quantifier.
func TestWitnessLimit(t *testing.T) {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	a := logic.Const("s.a", arr)
	var vars []*logic.Term
	var sum []*logic.Term
	for _, n := range []string{"x", "y", "z", "w"} {
		v := logic.Var(n, T)
		vars = append(vars, v)
		sum = append(sum, logic.Ge(logic.Select(a, v), logic.IntVal(0)))
	}
	q := logic.Forall(vars, logic.And(sum...))
	if got := witness(q, map[string]int{}); got != q {
		t.Errorf("four variables of T were replaced: %s", got)
	}
	q3 := logic.Forall(vars[:3], logic.And(sum[:3]...))
	if got := witness(q3, map[string]int{}).String(); strings.Contains(got, "forall") || !strings.Contains(got, "sk!T!3") {
		t.Errorf("three variables of T: %s, want the body at sk!T!1..3", got)
	}
}

// commitProblem is the step obligation of the candidate ∀t: T. pc[t] = 3
// ⇒ todo[t] = {} for a commit that sets todo[p.t] to the domain of
// w[p.t] (a lifted lambda) and pc[p.t] to 3 when w[p.t] is empty; with
// checked unset, pc[p.t] becomes 3 in any case, which breaks the
// candidate.
func commitProblem(checked bool) *logic.Problem {
	T, L := logic.UninterpretedSort("T"), logic.UninterpretedSort("L")
	set := logic.ArraySort(L, logic.BoolSort())
	pc := logic.Const("s.pc", logic.ArraySort(T, logic.IntSort()))
	todo := logic.Const("s.todo", logic.ArraySort(T, set))
	w := logic.Const("s.w", logic.ArraySort(T, set))
	pt := logic.Const("p.t", T)
	dom := logic.Const("lambda!0", set)
	x, t := logic.Var("x", L), logic.Var("t", T)
	empty := logic.ConstArray(L, logic.False())
	cand := func(pc, todo *logic.Term) *logic.Term {
		return logic.Forall([]*logic.Term{t}, logic.Implies(logic.Eq(logic.Select(pc, t), logic.IntVal(3)), logic.Eq(logic.Select(todo, t), empty)))
	}
	pc2 := logic.Store(pc, pt, logic.IntVal(3))
	if checked {
		pc2 = logic.Ite(logic.Eq(logic.Select(w, pt), empty), pc2, logic.Store(pc, pt, logic.IntVal(2)))
	}
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "definition of lambda!0", Term: logic.Forall([]*logic.Term{x}, logic.Eq(logic.Select(dom, x), logic.Select(logic.Select(w, pt), x)), []*logic.Term{logic.Select(dom, x)})},
		{Name: "assume A.c(s)", Term: cand(pc, todo)},
		{Name: "pre Commit(s, p)", Term: logic.Eq(logic.Select(pc, pt), logic.IntVal(1))},
		{Name: goalName, Term: logic.Not(cand(pc2, logic.Store(todo, pt, dom)))},
	}}
}

// seqProblem asks whether writing the default value d at index k of a
// sequence (elems e, length n, no element past n but d) can change it; it
// cannot at k = n, and it can at k = n - 1.
func seqProblem(k func(n *logic.Term) *logic.Term) *logic.Problem {
	V := logic.UninterpretedSort("V")
	e := logic.Const("s.q.elems", logic.ArraySort(logic.IntSort(), V))
	n := logic.Const("s.q.len", logic.IntSort())
	d := logic.Const("V#0", V)
	i := logic.Var("i", logic.IntSort())
	inside := logic.And(logic.Le(logic.IntVal(0), i), logic.Lt(i, n))
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "wf(s.q)", Term: logic.And(logic.Ge(n, logic.IntVal(0)), logic.Forall([]*logic.Term{i}, logic.Or(inside, logic.Eq(logic.Select(e, i), d))))},
		{Name: goalName, Term: logic.Not(logic.Eq(e, logic.Store(e, k(n), d)))},
	}}
}

// TestExpandAxioms checks that the search's problems keep no quantifier
// in their background axioms (a lifted lambda's definition, a sequence's
// well-formedness) and that Z3 then decides them as the quantified
// problems are decided: unsat where the step preserves the candidate, sat
// (not unknown) where it does not.
func TestExpandAxioms(t *testing.T) {
	last := func(n *logic.Term) *logic.Term { return logic.Sub(n, logic.IntVal(1)) }
	same := func(n *logic.Term) *logic.Term { return n }
	for _, c := range []struct {
		name string
		p    *logic.Problem
		want smt.Status
	}{
		{"commit", commitProblem(true), smt.Unsat},
		{"commit unchecked", commitProblem(false), smt.Sat},
		{"write past the end", seqProblem(same), smt.Unsat},
		{"write the last", seqProblem(last), smt.Sat},
	} {
		p := instantiate(c.p, "assume A.c(s)")
		ext := false
		for _, a := range p.Assertions {
			if strings.Contains(a.Term.String(), "forall") {
				t.Errorf("%s: %s keeps a quantifier: %s", c.name, a.Name, a.Term)
			}
			ext = ext || strings.HasPrefix(a.Name, extPrefix)
		}
		if !ext {
			t.Errorf("%s: no extensionality witness", c.name)
		}
		if r := check(t, p); r.Status != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, r.Status, r.Reason, c.want)
		}
	}
}

// comprehensionProblem is the step obligation of a candidate about the
// lifted set comprehension in = {x: T | ∃u: T. r[u][x]}, whose definition
// holds an ∃ in both polarities (as Opacity's readU does): with the
// hypothesis ∀t: T. r[t][t] (held), can p.t be outside in? It cannot; and
// without the hypothesis it can. mid makes the body a Boolean
// if-then-else of that ∃ and ∃u: T. r[x][u], which must be split as the
// equality is.
func comprehensionProblem(held, mid bool) *logic.Problem {
	T := logic.UninterpretedSort("T")
	r := logic.Const("s.r", logic.ArraySort(T, logic.ArraySort(T, logic.BoolSort())))
	in := logic.Const("lambda!0", logic.ArraySort(T, logic.BoolSort()))
	pt, flag := logic.Const("p.t", T), logic.Const("s.flag", logic.BoolSort())
	x, u, t := logic.Var("x", T), logic.Var("u", T), logic.Var("t", T)
	body := logic.Exists([]*logic.Term{u}, logic.Select(logic.Select(r, u), x))
	if mid {
		body = logic.Ite(flag, body, logic.Exists([]*logic.Term{u}, logic.Select(logic.Select(r, x), u)))
	}
	hyp := logic.True()
	if held {
		hyp = logic.Forall([]*logic.Term{t}, logic.Select(logic.Select(r, t), t))
	}
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "definition of lambda!0", Term: logic.Forall([]*logic.Term{x}, logic.Eq(logic.Select(in, x), body))},
		{Name: "assume A.c(s)", Term: hyp},
		{Name: goalName, Term: logic.Not(logic.Select(in, pt))},
	}}
}

// TestGroundComprehension checks that a definition whose body has an ∃
// (and a goal or hypothesis with a quantifier inside a Boolean equality)
// is made ground in both polarities: no quantifier Z3 would have to
// instantiate stays, and Z3 decides the problem as the quantified one is
// decided.
func TestGroundComprehension(t *testing.T) {
	for _, c := range []struct {
		held, mid bool
		want      smt.Status
	}{{true, false, smt.Unsat}, {false, false, smt.Sat}, {true, true, smt.Unsat}, {false, true, smt.Sat}} {
		name := fmt.Sprintf("held=%v ite=%v", c.held, c.mid)
		if r := check(t, comprehensionProblem(c.held, c.mid)); r.Status != c.want && r.Status != smt.Unknown {
			t.Fatalf("%s: the quantified problem is %v, want %v", name, r.Status, c.want)
		}
		p := instantiate(comprehensionProblem(c.held, c.mid), "assume A.c(s)")
		for _, a := range p.Assertions {
			if universal(a.Term, true) {
				t.Errorf("%s: %s keeps a universal quantifier: %s", name, a.Name, a.Term)
			}
		}
		if r := check(t, p); r.Status != c.want {
			t.Errorf("%s: %v (%s), want %v", name, r.Status, r.Reason, c.want)
		}
	}
}

// universal reports whether t, in a positive position when pos, has a
// quantifier Z3 would have to instantiate: a ∀ in a positive position or
// an ∃ in a negative one, anywhere a Boolean equality or if-then-else
// gives both.
func universal(t *logic.Term, pos bool) bool {
	switch t.Kind() {
	case logic.KindForall:
		return pos || universal(t.Body(), pos)
	case logic.KindExists:
		return !pos || universal(t.Body(), pos)
	case logic.KindApp:
	default:
		return false
	}
	switch t.Op() {
	case logic.OpNot:
		return universal(t.Arg(0), !pos)
	case logic.OpImplies:
		return universal(t.Arg(0), !pos) || universal(t.Arg(1), pos)
	case logic.OpAnd, logic.OpOr:
		for i := 0; i < t.NumArgs(); i++ {
			if universal(t.Arg(i), pos) {
				return true
			}
		}
		return false
	}
	for i := 0; i < t.NumArgs(); i++ {
		if universal(t.Arg(i), true) || universal(t.Arg(i), false) {
			return true
		}
	}
	return false
}

// TestExtensionalityPolarity checks that only an equality of arrays the
// problem may make false gets a witness: the start states' equalities
// hold outright.
func TestExtensionalityPolarity(t *testing.T) {
	T := logic.UninterpretedSort("T")
	arr := logic.ArraySort(T, logic.IntSort())
	a, b := logic.Const("s.a", arr), logic.Const("s.b", arr)
	zero := logic.ConstArray(T, logic.IntVal(0))
	p := &logic.Problem{Assertions: []logic.Named{
		{Name: "init(s)", Term: logic.And(logic.Eq(a, zero), logic.Eq(b, zero))},
		{Name: goalName, Term: logic.Not(logic.Implies(logic.Eq(a, zero), logic.Eq(a, b)))},
	}}
	var got []string
	for _, x := range instantiate(p, "assume A.c(s)").Assertions {
		if strings.HasPrefix(x.Name, extPrefix) {
			got = append(got, x.Term.String())
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "(= s.a s.b)") {
		t.Errorf("extensionality assertions %q, want one, for s.a = s.b", got)
	}
}

// TestAssumptions checks how the search's dependencies become assumes:
// lists: a merged candidate assumes the holders of its parts'
// dependencies, a candidate whose dependency is unknown assumes all, and
// a list naming a candidate no longer in the set falls back to all.
func TestAssumptions(t *testing.T) {
	a, b, c, d := &cand{name: "a"}, &cand{name: "b"}, &cand{name: "c"}, &cand{name: "d"}
	m := &cand{name: "m", parts: []*cand{b, c}}
	a.deps = []*cand{a}
	b.deps = []*cand{b, a}
	c.deps = []*cand{c, b}
	d.deps = nil // not known
	assumptions([]*cand{a, m, d})
	names := func(cs []*cand) []string {
		var out []string
		for _, x := range cs {
			out = append(out, x.name)
		}
		return out
	}
	if got := strings.Join(names(a.assumes), ","); got != "a" {
		t.Errorf("a assumes %s, want a", got)
	}
	if got := strings.Join(names(m.assumes), ","); got != "a,m" {
		t.Errorf("m assumes %s, want a,m", got)
	}
	if d.assumes != nil {
		t.Errorf("d assumes %v, want all (nil)", names(d.assumes))
	}
	all := []*cand{a, m, d}
	if got := strings.Join(assumeNames(m, all), ","); got != "a,m" {
		t.Errorf("assumeNames(m) = %s, want a,m", got)
	}
	if got := strings.Join(assumeNames(d, all), ","); got != "a,m,d" {
		t.Errorf("assumeNames(d) = %s, want a,m,d", got)
	}
	// a dropped: m's list names it, so m assumes all that are left.
	if got := strings.Join(assumeNames(m, []*cand{m, d}), ","); got != "m,d" {
		t.Errorf("assumeNames(m) without a = %s, want m,d", got)
	}
}

// TestFinalizeWidens gives the ticket lock's hand-written invariants
// assumes: lists naming only themselves: those not inductive alone are
// proved again assuming all the others (widened), and none is dropped.
func TestFinalizeWidens(t *testing.T) {
	dir := t.TempDir()
	stripCopy(t, dir, "docs/examples/mutex/TicketLock.yaml", "mutex/TicketLock.yaml")
	copyFile(t, dir, "docs/examples/mutex/lock.yaml", "mutex/lock.yaml")
	path, err := filepath.Abs(filepath.Join(dir, "mutex/TicketLock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := driver.NewProver(driver.Config{Jobs: 1, CacheDir: filepath.Join(dir, "cache")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := &session{path: path, orig: orig, auto: "TicketLock", prover: p, param: true}
	var cs []*cand
	for _, body := range []string{
		"forall p: P. pc[p] != Idle => ticket[p] < next",
		"forall p: P, q: P. p != q and pc[p] != Idle and pc[q] != Idle => ticket[p] != ticket[q]",
		"forall p: P. pc[p] = Critical => ticket[p] = serving",
		"forall p: P, q: P. pc[p] = Critical and pc[q] = Critical => p = q",
	} {
		c := &cand{text: body, shape: shapeImpl}
		c.assumes = []*cand{c}
		cs = append(cs, c)
	}
	final, last, rounds, err := s.finalize(context.Background(), cs, func(i int) string { return fmt.Sprintf("w%d", i+1) })
	if err != nil {
		t.Fatal(err)
	}
	if len(final) != len(cs) || last == nil {
		t.Fatalf("%d of %d invariants kept", len(final), len(cs))
	}
	widened := 0
	for _, r := range rounds {
		widened += r.Widened
	}
	if widened == 0 || len(rounds) < 2 {
		t.Fatalf("rounds %+v: want a widening round", rounds)
	}
	// The first is inductive alone and keeps its list; the mutual
	// exclusion is not, and assumes all in the end.
	if got := assumeNames(final[0], final); len(got) != 1 {
		t.Errorf("%s assumes %v, want itself only", final[0].name, got)
	}
	if got := assumeNames(final[3], final); len(got) != len(final) {
		t.Errorf("%s assumes %v, want all", final[3].name, got)
	}
	for _, c := range final {
		if st := statusOf(last.derived, "TicketLock", c.name); st != "proved" {
			t.Errorf("%s (%s): %s", c.name, c.text, st)
		}
	}
}

// TestAltGoals checks the other witnesses of a negated goal: the
// witness's skolem constant replaced by the action's parameter, kept for
// evaluation beside the goal itself, and nothing added to a problem
// without a goal.
func TestAltGoals(t *testing.T) {
	step := stepProblem(-1)
	p := altGoals(instantiate(step, "assume A.c(s)"), paramConsts(step))
	var alts []*logic.Term
	var goal *logic.Term
	for _, a := range p.Assertions {
		switch {
		case strings.HasPrefix(a.Name, altPrefix):
			alts = append(alts, a.Term)
		case a.Name == goalName:
			goal = a.Term
		}
	}
	if goal == nil || !strings.Contains(goal.String(), "sk!T!1") {
		t.Fatalf("negated goal %v, want one at sk!T!1", goal)
	}
	if len(alts) != 1 {
		t.Fatalf("%d other witnesses, want 1 (p.t): %v", len(alts), alts)
	}
	want := logic.Subst(goal, logic.Pair{From: logic.Const("sk!T!1", logic.UninterpretedSort("T")), To: logic.Const("p.t", logic.UninterpretedSort("T"))})
	if !logic.Equal(alts[0], want) {
		t.Errorf("other witness %s, want %s", alts[0], want)
	}
	noGoal := &logic.Problem{Assertions: []logic.Named{{Name: "assume A.c(s)", Term: logic.True()}}}
	if q := altGoals(noGoal, paramConsts(step)); len(q.Assertions) != 1 {
		t.Errorf("a problem without a goal got %d assertions", len(q.Assertions))
	}
}
