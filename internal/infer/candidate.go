// This file implements the candidates: the invariants built from the atoms
// that survived the filter, the redundancy rules that keep some of them in
// reserve, and the merging of the proved ones into fewer invariants.

package infer

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"ladder/ioa/expr"
)

// Candidate shapes.
const (
	shapeScalar = iota // A, over no bound variable
	shapeUnary         // forall x. A(x)
	shapeImpl          // forall x. G(x) => A(x)
	shapeImpl2         // forall x. G1(x) and G2(x) => A(x)
	shapePair          // forall x, y. x != y and G1(x) and G2(y) => P(x, y)
	shapeEquiv         // forall x. G(x) <=> A(x), A an atom the filter found equivalent to G
)

// cand is a candidate invariant.
type cand struct {
	name  string
	text  string
	ctx   *qctx
	shape int
	// g1, g2 are the guards (g1 an enum guard in shapeImpl2; in shapePair
	// either may be nil, standing for true); a is the atom (a pair atom
	// for shapePair).
	g1, g2, a *atom
	// impliedBy lists candidates that imply this one: it is kept in
	// reserve while one of them is alive, and becomes a candidate when
	// the last of them is dropped.
	impliedBy []*cand
	// parts are the candidates a merged one replaces; they come back when
	// it cannot be proved.
	parts []*cand
	state int
	// deps are the candidates the search found its preservation to need
	// (itself included; nil: not known); assumes are the candidates it is
	// proved assuming (nil: all of them).
	deps, assumes []*cand
}

// Candidate states.
const (
	stReserve = iota // implied by a live candidate
	stAlive          // in the current Houdini conjunction
	stDropped        // refuted, unknown, or not encodable
)

// quantified reports whether c has a quantifier: every shape but a
// scalar atom, except in the scalar context.
func (c *cand) quantified() bool {
	return c.shape != shapeScalar && (c.ctx == nil || c.ctx.sort != nil)
}

// buildText sets c.text from its shape, context and atoms.
func (c *cand) buildText() {
	x, y := c.ctx.x, c.ctx.y
	var guards []string
	switch c.shape {
	case shapeScalar:
		c.text = c.a.tmpl
		return
	case shapeUnary:
		c.text = fmt.Sprintf("forall %s. %s", c.ctx.binders(), fill2(c.a.tmpl, x, y))
		return
	case shapeEquiv:
		c.text = fill2(c.g1.tmpl, x, y) + " <=> " + fill2(c.a.tmpl, x, y)
		if c.ctx.sort != nil {
			c.text = fmt.Sprintf("forall %s. %s", c.ctx.binders(), c.text)
		}
		return
	case shapeImpl, shapeImpl2:
		guards = append(guards, fill2(c.g1.tmpl, x, y))
		if c.g2 != nil {
			guards = append(guards, fill2(c.g2.tmpl, x, y))
		}
		if c.ctx.sort == nil {
			c.text = fmt.Sprintf("%s => %s", strings.Join(guards, " and "), c.a.tmpl)
			return
		}
		c.text = fmt.Sprintf("forall %s. %s => %s", c.ctx.binders(), strings.Join(guards, " and "), fill2(c.a.tmpl, x, y))
		return
	}
	if !c.a.falsum {
		guards = append(guards, x+" != "+y)
	}
	if c.g1 != nil {
		guards = append(guards, fill(c.g1.tmpl, x))
	}
	if c.g2 != nil {
		guards = append(guards, fill(c.g2.tmpl, y))
	}
	concl := fill2(c.a.tmpl, x, y)
	if c.a.falsum {
		concl = x + " = " + y
	}
	c.text = fmt.Sprintf("forall %s: %s, %s: %s. %s => %s", x, c.ctx.sort.Name, y, c.ctx.sort.Name, strings.Join(guards, " and "), concl)
}

// subsetTerms reports whether every term of a is a term of g: an atom over
// the guard's own terms is implied or refuted by the guard alone, so the
// implication says nothing (pc[t] = X => pc[t] != Y).
func subsetTerms(a, g *atom) bool { return within(a.terms, g.terms) }

// sameTerms reports whether atoms a and b mention the same terms besides
// constants.
func sameTerms(a, b *atom) bool { return within(a.vterms, b.vterms) && within(b.vterms, a.vterms) }

// within reports whether every string of x is in y.
func within(x, y []string) bool {
	for _, t := range x {
		if !slices.Contains(y, t) {
			return false
		}
	}
	return true
}

// candidates builds the candidates of one context from the filter's
// statistics: every combination that held at every point, with the
// redundancy links. It returns them in a deterministic order.
func candidates(c *qctx, st *stats) []*cand {
	n := len(c.atoms)
	always := func(i int) bool { return st.points > 0 && st.always.has(i) }
	never := func(i int) bool { return st.support[i] == 0 }
	// On-states equivalence: atoms that are neither always true nor never
	// true and hold at exactly the same points are represented by the
	// first of them.
	type key struct {
		h uint64
		n int
	}
	first := map[key]int{}
	for i, at := range c.atoms {
		at.eq = i
	}
	// Guards first, so that a class with a guard is represented by one.
	order := make([]int, 0, n)
	for i, at := range c.atoms {
		if at.guard {
			order = append(order, i)
		}
	}
	for i, at := range c.atoms {
		if !at.guard {
			order = append(order, i)
		}
	}
	for _, i := range order {
		at := c.atoms[i]
		if always(i) || never(i) {
			continue
		}
		k := key{st.hash[i], st.support[i]}
		if j, ok := first[k]; ok {
			at.eq = j
		} else {
			first[k] = i
		}
	}
	canon := func(i int) bool { return c.atoms[i].eq == i }
	var out []*cand
	// G <=> A for an atom A that holds at exactly the points where the
	// atom G representing its class does: the candidates below use G
	// alone, so this is the only one that says what A is
	// (odd(glb) <=> pc[writer] = C4). Two atoms over the same terms
	// (loc[t] != 0 and loc[t] >= 1 of a Nat) are equivalent by their
	// sorts, not by the automaton.
	for i, at := range c.atoms {
		if j := at.eq; j != i && !sameTerms(at, c.atoms[j]) && c.spans(c.atoms[j], at) {
			out = append(out, &cand{ctx: c, shape: shapeEquiv, g1: c.atoms[j], a: at})
		}
	}
	unary := make([]*cand, n)
	for i, at := range c.atoms {
		if !always(i) || !canon(i) || !c.spans(at) {
			continue
		}
		shape := shapeUnary
		if c.sort == nil {
			shape = shapeScalar
		}
		cd := &cand{ctx: c, shape: shape, a: at}
		unary[i] = cd
		out = append(out, cd)
	}
	for i, at := range c.atoms {
		if unary[i] == nil {
			continue
		}
		for _, j := range at.implies {
			if unary[j] != nil {
				unary[j].impliedBy = append(unary[j].impliedBy, unary[i])
			}
		}
	}
	// G => A.
	impl := make([][]*cand, len(st.guards))
	for gi, g := range st.guards {
		impl[gi] = make([]*cand, n)
		if !st.seen[gi] || !canon(g) || always(g) {
			continue
		}
		for i := range c.atoms {
			if i == g || !canon(i) || never(i) || st.viol[gi].has(i) || !c.consequent(i, g) || !c.spans(c.atoms[g], c.atoms[i]) {
				continue
			}
			cd := &cand{ctx: c, shape: shapeImpl, g1: c.atoms[g], a: c.atoms[i]}
			if unary[i] != nil {
				cd.impliedBy = append(cd.impliedBy, unary[i])
			}
			impl[gi][i] = cd
			out = append(out, cd)
		}
	}
	// No implication holds another in reserve for what the points say
	// here (reserveOnPoints, past a budget).
	// G1 and G2 => A, G1 an enum guard and G2 another guard.
	for e, g1 := range st.enums {
		if !canon(g1) || always(g1) {
			continue
		}
		for o, g2 := range st.others {
			if !st.seen2[e][o] || !canon(g2) || always(g2) {
				continue
			}
			for i := range c.atoms {
				if i == g1 || i == g2 || !canon(i) || never(i) || st.viol2[e][o].has(i) ||
					!c.consequent(i, g1) || !c.consequent(i, g2) || !c.spans(c.atoms[g1], c.atoms[g2], c.atoms[i]) {
					continue
				}
				cd := &cand{ctx: c, shape: shapeImpl2, g1: c.atoms[g1], g2: c.atoms[g2], a: c.atoms[i]}
				for _, x := range []*cand{unary[i], impl[st.gpos[g1]][i], impl[st.gpos[g2]][i]} {
					if x != nil {
						cd.impliedBy = append(cd.impliedBy, x)
					}
				}
				out = append(out, cd)
			}
		}
	}
	return append(out, pairCandidates(c, st, canon)...)
}

// reserveOnPoints holds in reserve the implications that another implies
// on the points of the instances: G => A1 implies G => A2 when A2 holds
// wherever A1 does, and G2 => A implies G1 => A when G2 holds wherever G1
// does. It is applied only to a pool past a budget (reserveLarge): a
// candidate in reserve is no hypothesis of the search, so one held back
// behind a candidate that is only true on the points is missing when the
// search drops the candidates that need it, and a dropped candidate never
// comes back; without it, a large pool is more than the search can hold.
func reserveOnPoints(pool []*cand, statsOf func(*qctx) *stats) {
	type key struct {
		c    *qctx
		g, a int
	}
	impl := map[key]*cand{}
	for _, cd := range pool {
		if cd.shape == shapeImpl {
			impl[key{cd.ctx, cd.g1.id, cd.a.id}] = cd
		}
	}
	for k, x := range impl {
		st := statsOf(k.c)
		// included(j, i): atom i holds at every point where atom j
		// holds, for distinct atoms (a strict inclusion: the atoms are
		// the canonical ones of their classes).
		included := func(j, i int) bool { return i != j && !st.excl[j].has(i) }
		for j := range k.c.atoms {
			if y := impl[key{k.c, k.g, j}]; y != nil && included(j, k.a) {
				x.impliedBy = append(x.impliedBy, y)
			}
		}
		for _, g2 := range st.guards {
			if y := impl[key{k.c, g2, k.a}]; y != nil && included(k.g, g2) {
				x.impliedBy = append(x.impliedBy, y)
			}
		}
	}
}

// mergeKey groups candidates that differ only in the constant of an enum
// guard on one term.
type mergeKey struct {
	ctx  *qctx
	term string // the enum term
	rest string // the other guard and the atom
}

// merge returns the proved candidates as fewer invariants: the
// implications G => A that differ only in the constant C of an enum guard
// e = C become one implication `e in {C, …} => A` (or `e = C`, or A alone
// when every constant is listed); the pair candidates with the guards
// e(x) = C and e(y) = D over a product S × S become one with `e(x) in S
// and e(y) in S`. The others are kept as they are. Each merged
// candidate's parts are the candidates it replaces.
func merge(cands []*cand) []*cand {
	// falsum[k] lists the guard pairs of the proved exclusion candidates
	// (G1(x) and G2(y) => x = y) over enum term k: they imply every pair
	// atom at those guards, so a merge may count them.
	falsum := map[mergeKey][][2]string{}
	for _, c := range cands {
		if c.shape == shapePair && c.a.falsum && c.g1 != nil && c.g2 != nil && c.g1.enumTerm == c.g2.enumTerm {
			k := mergeKey{c.ctx, c.g1.enumTerm, ""}
			falsum[k] = append(falsum[k], [2]string{c.g1.enumConst, c.g2.enumConst})
		}
	}
	groups := map[mergeKey][]*cand{}
	var order []mergeKey
	var out []*cand
	for _, c := range cands {
		var k mergeKey
		switch {
		case (c.shape == shapeImpl || c.shape == shapeImpl2) && c.g1.enumTerm != "":
			rest := c.a.tmpl
			if c.g2 != nil {
				rest = c.g2.tmpl + " => " + rest
			}
			k = mergeKey{c.ctx, c.g1.enumTerm, rest}
		case c.shape == shapePair && c.g1 != nil && c.g2 != nil && c.g1.enumTerm == c.g2.enumTerm:
			k = mergeKey{c.ctx, c.g1.enumTerm, "pair " + c.a.tmpl}
		default:
			out = append(out, c)
			continue
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) == 1 {
			out = append(out, g[0])
			continue
		}
		es := g[0].g1.enumSort
		if g[0].shape == shapePair {
			// The relation must be S × S (closed under symmetry).
			in := map[[2]string]bool{}
			set := map[string]bool{}
			for _, c := range g {
				in[[2]string{c.g1.enumConst, c.g2.enumConst}] = true
				in[[2]string{c.g2.enumConst, c.g1.enumConst}] = true
				set[c.g1.enumConst], set[c.g2.enumConst] = true, true
			}
			if !g[0].a.falsum {
				for _, p := range falsum[mergeKey{k.ctx, k.term, ""}] {
					in[p], in[[2]string{p[1], p[0]}] = true, true
				}
			}
			product := true
			for x := range set {
				for y := range set {
					product = product && in[[2]string{x, y}]
				}
			}
			if !product {
				out = append(out, g...)
				continue
			}
			s := enumSet(es, set)
			m := &cand{ctx: k.ctx, shape: shapePair, a: g[0].a, parts: g,
				g1: &atom{tmpl: memberText(k.term, s), enumTerm: k.term},
				g2: &atom{tmpl: memberText(k.term, s), enumTerm: k.term}}
			out = append(out, m)
			continue
		}
		set := map[string]bool{}
		for _, c := range g {
			set[c.g1.enumConst] = true
		}
		s := enumSet(es, set)
		m := &cand{ctx: k.ctx, shape: g[0].shape, g2: g[0].g2, a: g[0].a, parts: g}
		if len(s) == len(es.Elems) {
			// Every constant: the guard says nothing.
			if m.g2 != nil {
				m.shape, m.g1, m.g2 = shapeImpl, m.g2, nil
			} else {
				m.shape = shapeUnary
			}
		} else {
			m.g1 = &atom{tmpl: memberText(k.term, s), enumTerm: k.term}
		}
		out = append(out, m)
	}
	return out
}

// enumSet returns the constants of es in set, in declaration order.
func enumSet(es *expr.Sort, set map[string]bool) []string {
	var out []string
	for _, e := range es.Elems {
		if set[e] {
			out = append(out, e)
		}
	}
	return out
}

func memberText(term string, s []string) string {
	if len(s) == 1 {
		return term + " = " + s[0]
	}
	return term + " in {" + strings.Join(s, ", ") + "}"
}

// sortCands orders candidates by context, shape and text, for stable
// output.
func sortCands(cs []*cand, ctxIndex map[*qctx]int) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if ctxIndex[a.ctx] != ctxIndex[b.ctx] {
			return ctxIndex[a.ctx] < ctxIndex[b.ctx]
		}
		if a.shape != b.shape {
			return a.shape < b.shape
		}
		return a.text < b.text
	})
}

// pairCandidates returns the pair candidates of context c: G1(x) and
// G2(y) => P(x, y), G1 and G2 enum guards, Bool definitions or true (P
// is symmetric, so g1 <= g2), with their redundancy links. canon tells the atoms that
// represent their class on the points.
func pairCandidates(c *qctx, st *stats, canon func(int) bool) []*cand {
	var out []*cand
	if st.pn == 0 {
		return nil
	}
	k := len(st.pguards) + 1
	pairs := make([][][]*cand, k)
	for i := range pairs {
		pairs[i] = make([][]*cand, k)
		for j := range pairs[i] {
			pairs[i][j] = make([]*cand, st.pn)
		}
	}
	guard := func(i int) *atom {
		if i == 0 {
			return nil
		}
		return c.atoms[st.pguards[i-1]]
	}
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			// Both guards hold somewhere (a falsum candidate says
			// they never hold together at distinct elements).
			if i > 0 && (!canon(st.pguards[i-1]) || !st.seen[st.gpos[st.pguards[i-1]]]) ||
				j > 0 && (!canon(st.pguards[j-1]) || !st.seen[st.gpos[st.pguards[j-1]]]) {
				continue
			}
			for p, pa := range c.pairs {
				if st.pviol[i][j].has(p) || pa.falsum && (i == 0 || j == 0) {
					continue
				}
				if !pa.falsum && !st.pseen[i][j] {
					continue // vacuous
				}
				cd := &cand{ctx: c, shape: shapePair, g1: guard(i), g2: guard(j), a: pa}
				for _, x := range []*cand{pairs[0][0][p], pairs[0][i][p], pairs[0][j][p]} {
					if x != nil && x != cd {
						cd.impliedBy = append(cd.impliedBy, x)
					}
				}
				pairs[i][j][p] = cd
				out = append(out, cd)
			}
		}
	}
	return out
}

// spans reports whether one of the atoms ats relates the two bound
// variables of a product context (mentions both, and not only through a
// singleton: under a guard over t alone, rs[t] subset {l} says
// rs[t] = {}): what does not relate them is the other contexts' to say,
// or says it with an unrelated guard; always true elsewhere.
func (c *qctx) spans(ats ...*atom) bool {
	if c.sort2 == nil {
		return true
	}
	for _, at := range ats {
		if at.mask == 3 && !at.single {
			return true
		}
	}
	return false
}

// consequent reports whether atom i may follow guard g: not an atom over
// the guard's own terms, and not an enum equality under another guard
// (G => e = C says what e = D => not G says for every D != C) unless, in
// a product context, the guard is over both variables (l in todo[t] =>
// pc[t] = C2: not G has no atom there).
func (c *qctx) consequent(i, g int) bool {
	at, gd := c.atoms[i], c.atoms[g]
	if subsetTerms(at, gd) {
		return false
	}
	return at.enumTerm == "" || gd.enumTerm != "" || c.sort2 != nil && gd.mask == 3
}
