// This file makes the search's problems ground (search.go). Z3 answers
// unknown ("incomplete quantifiers", or at its resource limit) on most
// satisfiable problems where quantifiers stay, and a search that meets
// unknown answers splits its checks down to single goals, each unknown
// costing its full resource limit: on TMS2, the definitions of lifted
// lambdas and the well-formedness of the sequence mems, left quantified,
// made the search many times slower, with the same result.

package infer

import (
	"slices"
	"strconv"
	"strings"

	"ladder/internal/logic"
)

// skolems is the number of constants per sort that stand for the bound
// variables of a goal: candidates quantify over at most two variables,
// and one more for a quantifier inside a candidate's body.
const skolems = 3

// skolem returns the constant that stands for the k-th bound variable of
// sort s in every goal.
func skolem(s *logic.Sort, k int) *logic.Term {
	return logic.Const("sk!"+s.Name()+"!"+strconv.Itoa(k), s)
}

// instantiate returns p with its quantifiers over parameter sorts made
// ground, as the parametrized strategy makes them (docs/proofs.md, SS
// rule P-INV), but in every solver alike:
//   - in the negated goal ¬φ, each quantifier in a positive position of
//     φ is replaced by its body at skolem constants (witness), the same
//     constants for every goal: in a disjunction of goals only one needs
//     a witness;
//   - in the hypothesis named hyp, the Nat conditions and the step's
//     precondition, each quantifier in a positive position is replaced by
//     its instances at the action's parameters (the constants p.*) and
//     the skolem constants of each variable's sort (ground).
//
// Then the quantifiers left in the background axioms and in those
// assertions are made ground at the problem's index terms
// (expandAxioms).
//
// The instances follow from the quantifiers, so an unsat answer still
// means the step preserves the candidates; a sat one may come from the
// weaker hypotheses, as with the strategy, and drops a candidate the
// search could have kept. Other quantifiers stay.
func instantiate(p *logic.Problem, hyp string) *logic.Problem {
	return instantiateAt(p, hyp, paramConsts(p))
}

// paramConsts returns the action's parameters of p (the constants p.* of
// a parameter sort) by sort name, each sort's sorted by name.
func paramConsts(p *logic.Problem) map[string][]*logic.Term {
	params := map[string][]*logic.Term{}
	for _, c := range logic.FreeConsts(problemTerms(p)...) { // sorted by name
		if strings.HasPrefix(c.Name(), "p.") && c.Sort().Kind() == logic.SortUninterpreted {
			params[c.Sort().Name()] = append(params[c.Sort().Name()], c)
		}
	}
	return params
}

// instantiateAt is instantiate with p's parameters given (paramConsts).
func instantiateAt(p *logic.Problem, hyp string, params map[string][]*logic.Term) *logic.Problem {
	out := &logic.Problem{Decls: p.Decls, Assertions: make([]logic.Named, len(p.Assertions))}
	for i, a := range p.Assertions {
		out.Assertions[i] = a
		t := a.Term
		switch {
		case a.Name == hyp || strings.HasPrefix(a.Name, natPrefix) || strings.HasPrefix(a.Name, prePrefix):
			out.Assertions[i].Term = ground(t, params)
		case a.Name == goalName && t.Kind() == logic.KindApp && t.Op() == logic.OpNot:
			used := map[string]int{}
			out.Assertions[i].Term = logic.Not(witness(t.Arg(0), used))
		}
	}
	return expandAxioms(out, hyp)
}

// goalName is the name package simulation gives the negated goal;
// natPrefix and prePrefix begin the names of its Nat conditions and of the
// step's precondition.
const (
	goalName  = "goal (negated)"
	natPrefix = "nat "
	prePrefix = "pre "
)

// ground replaces every groundable quantifier ∀x̄. ψ(x̄) in a positive
// position of t (under conjunctions, disjunctions, the conclusion of an
// implication, and other such quantifiers) by the conjunction of its
// instances at params (by sort name) and the skolem constants of each
// variable's sort. The instances follow from the quantifier.
func ground(t *logic.Term, params map[string][]*logic.Term) *logic.Term {
	return positive(t, func(q *logic.Term) *logic.Term { return instances(q, params) })
}

// positive returns t with f applied to every groundable quantifier in a
// positive position: under conjunctions, disjunctions and the conclusion
// of an implication (f applies it to the quantifiers of the bodies it
// builds).
func positive(t *logic.Term, f func(q *logic.Term) *logic.Term) *logic.Term {
	return positiveWhere(t, groundable, f)
}

// positiveWhere returns t with f applied to every quantifier q in a
// positive position for which ok(q).
func positiveWhere(t *logic.Term, ok func(q *logic.Term) bool, f func(q *logic.Term) *logic.Term) *logic.Term {
	switch {
	case t.Kind() == logic.KindApp && (t.Op() == logic.OpAnd || t.Op() == logic.OpOr):
		args := t.Args()
		for i, x := range args {
			args[i] = positiveWhere(x, ok, f)
		}
		if t.Op() == logic.OpAnd {
			return logic.And(args...)
		}
		return logic.Or(args...)
	case t.Kind() == logic.KindApp && t.Op() == logic.OpImplies:
		return logic.Implies(t.Arg(0), positiveWhere(t.Arg(1), ok, f))
	case t.Kind() != logic.KindForall || !ok(t):
		return t
	}
	return f(t)
}

// instances returns the conjunction of the instances of the quantifier t
// at params and the skolem constants, its quantifiers in positive
// positions made ground in turn.
func instances(t *logic.Term, params map[string][]*logic.Term) *logic.Term {
	return logic.And(instancesAt(t, func(v *logic.Term) []*logic.Term {
		s := v.Sort()
		opts := append([]*logic.Term(nil), params[s.Name()]...)
		for k := 1; k <= skolems; k++ {
			opts = append(opts, skolem(s, k))
		}
		return opts
	}, func(b *logic.Term) *logic.Term { return ground(b, params) })...)
}

// instancesAt returns f applied to the body of the quantifier q at every
// choice of terms, opts(v) for each variable v.
func instancesAt(q *logic.Term, opts func(v *logic.Term) []*logic.Term, f func(*logic.Term) *logic.Term) []*logic.Term {
	var inst []*logic.Term
	vars := q.Vars()
	choice := make([]logic.Pair, len(vars))
	var each func(j int)
	each = func(j int) {
		if j == len(vars) {
			inst = append(inst, f(logic.Subst(q.Body(), choice...)))
			return
		}
		for _, x := range opts(vars[j]) {
			choice[j] = logic.Pair{From: vars[j], To: x}
			each(j + 1)
		}
	}
	each(0)
	return inst
}

// witness returns φ with every groundable quantifier ∀x̄. ψ(x̄) in a
// positive position replaced by ψ at skolem constants, the next ones of
// each sort (used counts them), while there are: ¬φ is then satisfiable
// exactly when the negated goal is, each skolem constant standing for a
// witness. A quantifier that would need more than skolems constants of a
// sort stays.
func witness(t *logic.Term, used map[string]int) *logic.Term {
	return positive(t, func(q *logic.Term) *logic.Term { return skolemize(q, used) })
}

// skolemize returns the body of the quantifier t at the next skolem
// constants of each sort, or t when there are too few left.
func skolemize(t *logic.Term, used map[string]int) *logic.Term {
	need := map[string]int{}
	for _, v := range t.Vars() {
		need[v.Sort().Name()]++
	}
	for s, n := range need {
		if used[s]+n > skolems {
			return t
		}
	}
	var pairs []logic.Pair
	for _, v := range t.Vars() {
		used[v.Sort().Name()]++
		pairs = append(pairs, logic.Pair{From: v, To: skolem(v.Sort(), used[v.Sort().Name()])})
	}
	return witness(logic.Subst(t.Body(), pairs...), used)
}

// groundable reports whether the quantifier q binds at most skolems
// variables of each sort, all of parameter (uninterpreted) sorts.
func groundable(q *logic.Term) bool {
	n := map[string]int{}
	for _, v := range q.Vars() {
		if v.Sort().Kind() != logic.SortUninterpreted {
			return false
		}
		n[v.Sort().Name()]++
		if n[v.Sort().Name()] > skolems {
			return false
		}
	}
	return true
}

func problemTerms(p *logic.Problem) []*logic.Term {
	out := make([]*logic.Term, len(p.Assertions))
	for i, a := range p.Assertions {
		out[i] = a.Term
	}
	return out
}

// maxInstances bounds the instances of one quantifier made ground at the
// index terms (expandAxioms); a larger one stays quantified.
const maxInstances = 512

// expandAxioms returns p with the quantifiers left in its background
// axioms made ground: the definitions of lifted lambdas (logic.LiftLambdas:
// "definition of …") and the well-formedness of sequences (package
// encode: "wf(…)", no element past the length), and those left in the
// hypotheses, the Nat conditions, the precondition and the negated goal:
// a ∀ in a positive position and an ∃ in a negative one (polar). Each is
// replaced by its instances at the problem's index terms: its ground terms of each parameter sort, and the Int terms that
// index an array (read or written). Each equality of two arrays indexed
// by such a sort that the problem may make false gets a witness constant,
// a fresh index at which they differ unless they are equal, and it joins
// the index terms: a model that tells the arrays apart does so where the
// instances speak. Every instance follows from its
// quantifier and every witness is fresh, so an unsat answer still means
// the step preserves the candidates, and Z3 no longer meets quantifiers
// it cannot build a model for on the satisfiable ones.
func expandAxioms(p *logic.Problem, hyp string) *logic.Problem {
	ix := newIndexTerms()
	for _, a := range p.Assertions {
		ix.collect(a.Term)
	}
	out := &logic.Problem{Decls: p.Decls}
	// The witnesses, at most two levels deep (an array of arrays).
	var ext []logic.Named
	for level := 0; level < 2; level++ {
		eqs := ix.eqs
		ix.eqs = nil
		for _, e := range eqs {
			a, b := e.Arg(0), e.Arg(1)
			w := logic.Const("lambda!ext!"+strconv.Itoa(len(ext)), a.Sort().Domain())
			ix.add(w)
			t := logic.Or(e, logic.Not(logic.Eq(logic.Select(a, w), logic.Select(b, w))))
			ext = append(ext, logic.Named{Name: extPrefix + strconv.Itoa(len(ext)), Term: t})
			if level == 0 {
				ix.collect(t)
			}
		}
	}
	for _, a := range p.Assertions {
		switch {
		case strings.HasPrefix(a.Name, "definition of ") || strings.HasPrefix(a.Name, "wf(") ||
			a.Name == hyp || strings.HasPrefix(a.Name, natPrefix) || strings.HasPrefix(a.Name, prePrefix) ||
			a.Name == goalName:
			a.Term = ix.polar(a.Term, true)
		}
		out.Assertions = append(out.Assertions, a)
	}
	out.Assertions = append(out.Assertions, ext...)
	return out
}

// extPrefix begins the names of the extensionality assertions of
// expandAxioms; like the definitions of lifted lambdas, they constrain
// fresh constants only, and the search asserts them outright.
const extPrefix = "extensionality "

// indexTerms gathers the index terms of a problem by sort (Sort.String).
type indexTerms struct {
	terms map[string][]*logic.Term
	seen  map[uint64][]*logic.Term
	eqs   []*logic.Term // equalities of arrays over index sorts, each once
	quant map[*logic.Term]bool
}

func newIndexTerms() *indexTerms {
	return &indexTerms{terms: map[string][]*logic.Term{}, seen: map[uint64][]*logic.Term{}, quant: map[*logic.Term]bool{}}
}

// once reports whether t is met for the first time.
func (ix *indexTerms) once(t *logic.Term) bool {
	for _, x := range ix.seen[t.Hash()] {
		if logic.Equal(x, t) {
			return false
		}
	}
	ix.seen[t.Hash()] = append(ix.seen[t.Hash()], t)
	return true
}

// indexSort reports whether terms of sort s are index terms.
func indexSort(s *logic.Sort) bool {
	return s.Kind() == logic.SortUninterpreted || s.Kind() == logic.SortInt
}

func (ix *indexTerms) add(t *logic.Term) {
	if ix.once(t) {
		ix.terms[t.Sort().String()] = append(ix.terms[t.Sort().String()], t)
	}
}

// collect adds the closed subterms of t that are index terms: those of a
// parameter sort, and the Int indices of selects and stores; and the
// equalities of arrays over an index sort that t may make false
// (negative).
func (ix *indexTerms) collect(t *logic.Term) {
	done := map[*logic.Term]bool{}
	var walk func(t *logic.Term)
	walk = func(t *logic.Term) {
		if done[t] {
			return
		}
		done[t] = true
		switch t.Kind() {
		case logic.KindForall, logic.KindExists, logic.KindLambda:
			walk(t.Body())
			return
		case logic.KindApp:
			for i := 0; i < t.NumArgs(); i++ {
				walk(t.Arg(i))
			}
		}
		if !t.IsClosed() {
			return
		}
		switch {
		case t.Sort().Kind() == logic.SortUninterpreted:
			ix.add(t)
		case t.Kind() == logic.KindApp && (t.Op() == logic.OpSelect || t.Op() == logic.OpStore) && t.Arg(1).Sort().Kind() == logic.SortInt:
			ix.add(t.Arg(1))
		}
	}
	walk(t)
	ix.negative(t)
}

// Polarities of an occurrence, as bits.
const (
	polPos = 1 << iota
	polNeg
)

// negative adds to ix.eqs the closed equalities of arrays over an index
// sort that occur in t in a negative position (under an odd number of
// negations, an implication's premise, or where both count: an ite's
// condition, an equivalence, an argument of a function): only there can
// the model make one false, and need a witness of the difference.
func (ix *indexTerms) negative(t *logic.Term) {
	done := map[*logic.Term]int{}
	var walk func(t *logic.Term, pol int)
	walk = func(t *logic.Term, pol int) {
		if done[t]&pol == pol {
			return
		}
		done[t] |= pol
		flip := (pol&polPos)<<1 | (pol&polNeg)>>1
		switch t.Kind() {
		case logic.KindForall, logic.KindExists:
			walk(t.Body(), pol)
			return
		case logic.KindLambda:
			walk(t.Body(), polPos|polNeg)
			return
		case logic.KindApp:
		default:
			return
		}
		switch t.Op() {
		case logic.OpNot:
			walk(t.Arg(0), flip)
		case logic.OpAnd, logic.OpOr:
			for i := 0; i < t.NumArgs(); i++ {
				walk(t.Arg(i), pol)
			}
		case logic.OpImplies:
			walk(t.Arg(0), flip)
			walk(t.Arg(1), pol)
		case logic.OpIte:
			walk(t.Arg(0), polPos|polNeg)
			walk(t.Arg(1), pol)
			walk(t.Arg(2), pol)
		default:
			if t.Op() == logic.OpEq && pol&polNeg != 0 && t.IsClosed() && t.Arg(0).Sort().Kind() == logic.SortArray &&
				indexSort(t.Arg(0).Sort().Domain()) && ix.once(t) {
				ix.eqs = append(ix.eqs, t)
			}
			for i := 0; i < t.NumArgs(); i++ {
				walk(t.Arg(i), polPos|polNeg)
			}
		}
	}
	walk(t, polPos)
}

// instances returns the conjunction of the instances of the quantifier q
// at the index terms of its variables' sorts (true when a sort has none:
// nothing in the problem reads q's arrays at a term of that sort), or q
// when a variable is of another sort or there would be more than
// maxInstances. With pos false, q is an ∃ in a negative position, and
// the result the disjunction of its instances (false when a sort has
// none).
func (ix *indexTerms) instances(q *logic.Term, pos bool) *logic.Term {
	vars := q.Vars()
	n := 1
	for _, v := range vars {
		if !indexSort(v.Sort()) {
			return q
		}
		n *= len(ix.terms[v.Sort().String()])
		if n > maxInstances {
			return q
		}
	}
	inst := instancesAt(q, func(v *logic.Term) []*logic.Term { return ix.terms[v.Sort().String()] },
		func(b *logic.Term) *logic.Term { return ix.polar(b, pos) })
	if pos {
		return logic.And(inst...)
	}
	return logic.Or(inst...)
}

// polar returns t, in a positive position when pos (else a negative one),
// with the quantifiers that their instances at the index terms can
// replace so replaced: a ∀ in a positive position by the conjunction of
// its instances, an ∃ in a negative position by their disjunction (an
// ∃ in a positive position is left to Z3, which makes it a skolem
// constant). Each replacement is implied by what it replaces, so the
// result follows from t. A Boolean equality or if-then-else that holds a
// quantifier, such as the definition of a lifted set comprehension whose
// body has an ∃, is first written as the conjunction of two
// implications, which gives the quantifier both polarities.
func (ix *indexTerms) polar(t *logic.Term, pos bool) *logic.Term {
	if !ix.hasQuantifier(t) {
		return t
	}
	switch t.Kind() {
	case logic.KindForall:
		if pos {
			return ix.instances(t, true)
		}
		return t
	case logic.KindExists:
		if !pos {
			return ix.instances(t, false)
		}
		return t
	case logic.KindApp:
	default:
		return t
	}
	switch t.Op() {
	case logic.OpAnd, logic.OpOr:
		args := t.Args()
		for i, x := range args {
			args[i] = ix.polar(x, pos)
		}
		if t.Op() == logic.OpAnd {
			return logic.And(args...)
		}
		return logic.Or(args...)
	case logic.OpNot:
		return logic.Not(ix.polar(t.Arg(0), !pos))
	case logic.OpImplies:
		return logic.Implies(ix.polar(t.Arg(0), !pos), ix.polar(t.Arg(1), pos))
	case logic.OpEq:
		if t.Arg(0).Sort().Kind() == logic.SortBool {
			a, b := t.Arg(0), t.Arg(1)
			return ix.polar(logic.And(logic.Implies(a, b), logic.Implies(b, a)), pos)
		}
	case logic.OpIte:
		if t.Sort().Kind() == logic.SortBool {
			c, a, b := t.Arg(0), t.Arg(1), t.Arg(2)
			return ix.polar(logic.And(logic.Implies(c, a), logic.Implies(logic.Not(c), b)), pos)
		}
	}
	return t
}

// hasQuantifier reports whether t has a quantifier outside lambdas (the
// encoder lifts those), remembering the answer for each term.
func (ix *indexTerms) hasQuantifier(t *logic.Term) bool {
	if q, ok := ix.quant[t]; ok {
		return q
	}
	q := false
	switch t.Kind() {
	case logic.KindForall, logic.KindExists:
		q = true
	case logic.KindApp:
		for i := 0; i < t.NumArgs() && !q; i++ {
			q = ix.hasQuantifier(t.Arg(i))
		}
	}
	ix.quant[t] = q
	return q
}

// altPrefix begins the names of the assertions altGoals adds.
const altPrefix = "goal at "

// maxAlts bounds the witnesses altGoals tries for one goal.
const maxAlts = 4

// altGoals returns p with, for evaluation only, its negated goal at other
// witnesses: each skolem constant the goal's witness uses (witness)
// replaced by one of params, the action's parameters (paramConsts), of its
// sort (at most maxAlts
// of them). Those assertions are never asserted (addLive): a model of the
// step and the hypotheses that makes one of them true breaks the
// candidate at the parameter, as one making the goal true does at the
// skolem constant. A step mostly changes what its parameter owns, so
// that is where a candidate Z3 did not choose is most often broken.
func altGoals(p *logic.Problem, params map[string][]*logic.Term) *logic.Problem {
	var goal *logic.Term
	for _, a := range p.Assertions {
		if a.Name == goalName {
			goal = a.Term
		}
	}
	if goal == nil {
		return p
	}
	var sks []*logic.Term
	for _, c := range logic.FreeConsts(goal) {
		if strings.HasPrefix(c.Name(), "sk!") {
			sks = append(sks, c)
		}
	}
	out := &logic.Problem{Decls: p.Decls, Assertions: slices.Clone(p.Assertions)}
	n := 0
	for _, sk := range sks {
		for _, x := range params[sk.Sort().Name()] {
			if n == maxAlts {
				return out
			}
			n++
			out.Assertions = append(out.Assertions, logic.Named{Name: altPrefix + strconv.Itoa(n), Term: logic.Subst(goal, logic.Pair{From: sk, To: x})})
		}
	}
	return out
}
