// This file implements the selection steps of relation repair: the
// candidates false at a counterexample (excluding), the minimal set
// (minimize, hitting, sole) and the merge of guards (mergeGuards).

package infer

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"ladder/internal/crosscheck"
	"ladder/internal/kernel"
	"ladder/internal/theorems"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// perCounterexample is the number of candidates a counterexample selects:
// the first (smallest) of those false at it. A counterexample of an
// obligation satisfies every candidate already added (they are its
// hypotheses), so one of those selected must hold for it to go; the
// rest would only make each proof of the edge larger.
const perCounterexample = 4

// maxUnguided is the number of candidates added, the smallest first, when
// no failing obligation has a counterexample to select them (all
// unknown).
const maxUnguided = 40

// excluding returns the candidates among survivors that are false at the
// pre-state of some counterexample of failed, the first perCounterexample
// of them for each; the first maxUnguided of survivors when no failing
// obligation has a counterexample that can be evaluated (and own is set). own says that failed are obligations of the edge itself,
// which every set of added clauses keeps: their counterexamples count
// for sole.
func (r *repairer) excluding(q *ioa.Proof, survivors []int, bodies []expr.Expr, failed map[string]*cexData, own bool) []int {
	probes := make([]expr.Expr, len(survivors))
	for k, i := range survivors {
		probes[k] = bodies[i]
	}
	hit := map[int]bool{}
	evaluated := 0
	for _, id := range sortedKeys(failed) {
		d := failed[id]
		if d == nil {
			continue
		}
		var c, a string
		for _, s := range d.States {
			switch {
			case s.Name == "c" && !s.Changed:
				c = s.Text
			case s.Name == "a" && !s.Changed:
				a = s.Text
			}
		}
		if c == "" || a == "" {
			continue
		}
		holds, err := crosscheck.ProbeAt(q, d.Instance, probes, c, a)
		if err != nil {
			r.o.Progress(fmt.Sprintf("counterexample of %s not evaluated: %v", id, err))
			continue
		}
		evaluated++
		picked := 0
		for k, h := range holds {
			if !h {
				if picked < perCounterexample {
					hit[survivors[k]] = true
					picked++
				}
				if own {
					r.falseAt[survivors[k]] = append(r.falseAt[survivors[k]], r.ncex)
				}
			}
		}
		r.ncex++
	}
	r.res.Counterexamples += evaluated
	if evaluated == 0 {
		if !own || len(failed) == 0 {
			return nil
		}
		return survivors[:min(len(survivors), maxUnguided)]
	}
	var out []int
	for _, i := range survivors {
		if hit[i] {
			out = append(out, i)
		}
	}
	return out
}

// supporting returns, for each live candidate with an obligation refuted
// in candCex (by its ID), the candidates among survivors that compare the
// same terms under another guard and are false at the refutation's
// pre-state: a clause whose guard must cover several program counters
// (c.pc[t] in {A, B} => φ) is found as the clauses for A and for B, each
// preserved only with the other. Other candidates are not added for a
// candidate's refutation, which would add clauses to support clauses
// without end; Houdini drops a candidate no such clause supports.
func (r *repairer) supporting(q *ioa.Proof, texts []string, live, survivors []int, bodies []expr.Expr, candCex map[string]*cexData) []int {
	var out []int
	for _, id := range sortedKeys(candCex) {
		k, ok := r.candOf(id)
		if !ok || k >= len(live) {
			continue
		}
		atom := atomOf(texts[live[k]])
		var same []int
		for _, i := range survivors {
			if i != live[k] && atomOf(texts[i]) == atom {
				same = append(same, i)
			}
		}
		if len(same) == 0 {
			continue
		}
		out = append(out, r.excluding(q, same, bodies, map[string]*cexData{id: candCex[id]}, false)...)
	}
	return out
}

// atomOf returns a candidate's text without its guard: its binder and
// the comparison.
func atomOf(text string) string {
	prefix, rest := "", text
	if m := binder.FindStringSubmatch(text); m != nil {
		prefix, rest = m[1], text[len(m[1]):]
	}
	if _, after, ok := strings.Cut(rest, " => "); ok {
		return prefix + after
	}
	return prefix + rest
}

// binder matches the binder of a quantified candidate.
var binder = regexp.MustCompile(`^(forall [a-z][A-Za-z0-9_]*: [A-Za-z_][A-Za-z0-9_]*\. )`)

// minimize returns a minimal subset of live with which the edge proves,
// live being one and last its proof. It tries first the clauses the unsat
// cores of that proof name (neededCands), then a small set of clauses that
// together are false at every counterexample of the edge's own
// obligations, then leaves out chunks of clauses, halving their size down
// to single clauses. A clause that alone among those left is false at such a
// counterexample is never left out: without it, that counterexample
// satisfies every hypothesis of its obligation again.
func (r *repairer) minimize(ctx context.Context, texts []string, live []int, last *edgeRun) ([]int, error) {
	proves := func(set []int, phase string) (bool, error) {
		run, err := r.proveTexts(ctx, texts, set, phase)
		if err != nil {
			return false, err
		}
		last = run
		return len(run.failed) == 0 && len(run.candFailed) == 0, nil
	}
	// cored tries the candidates the last proof's unsat cores name (and
	// those never left out), when that is fewer
	cored := func() error {
		if last == nil || last.needed == nil {
			return nil
		}
		var set []int
		for k, i := range live {
			if last.needed[k] || r.sole(live, i) {
				set = append(set, i)
			}
		}
		if len(set) == 0 || len(set) == len(live) {
			return nil
		}
		ok, err := proves(set, "cores")
		if ok {
			live = set
		}
		return err
	}
	if err := cored(); err != nil {
		return nil, err
	}
	var uses map[int]int
	if last != nil {
		uses = last.uses
	}
	if h := r.hitting(live, uses); len(h) > 0 && len(h) < len(live) {
		ok, err := proves(h, "minimize")
		if err != nil {
			return nil, err
		}
		if ok {
			live = h
		}
	}
	for size := max(1, len(live)/2); ; size /= 2 {
		removed := false
		for start := 0; start < len(live); {
			end := min(start+size, len(live))
			var without []int
			left := 0
			for k, i := range live {
				if k >= start && k < end && !r.sole(live, i) {
					left++
					continue
				}
				without = append(without, i)
			}
			if left == 0 {
				start = end
				continue
			}
			ok, err := proves(without, "minimize")
			if err != nil {
				return nil, err
			}
			if ok {
				live, removed = without, true
			} else {
				start = end
			}
		}
		// A clause kept at size 1 was tried with the clauses after it;
		// when one of those went, it is tried again: a proof without it
		// may have failed only at an obligation of a clause gone since.
		if size == 1 && !removed {
			return live, nil
		}
		size = max(size, 2)
	}
}

// hitting returns a small subset of live that has, for every
// counterexample of the edge's own obligations some clause of live is
// false at, a clause false at it: greedily, the clause false at the most
// counterexamples not yet covered (on a tie, the one the last proof's
// unsat cores name most, uses, by position in live; then the smaller, as
// the candidates are ordered by size), in live's order.
func (r *repairer) hitting(live []int, uses map[int]int) []int {
	uncovered := map[int]bool{}
	for _, i := range live {
		for _, e := range r.falseAt[i] {
			uncovered[e] = true
		}
	}
	picked := map[int]bool{}
	for len(uncovered) > 0 {
		best, most, bestUses := -1, 0, 0
		for k, i := range live {
			n := 0
			for _, e := range r.falseAt[i] {
				if uncovered[e] {
					n++
				}
			}
			// among those that exclude as many, the one the last proof's
			// cores name most, then the first
			if n > most || n == most && n > 0 && (uses[k] > bestUses || uses[k] == bestUses && i < best) {
				best, most, bestUses = i, n, uses[k]
			}
		}
		if best < 0 {
			break
		}
		picked[best] = true
		for _, e := range r.falseAt[best] {
			delete(uncovered, e)
		}
	}
	var out []int
	for _, i := range live {
		if picked[i] {
			out = append(out, i)
		}
	}
	return out
}

// guarded matches a candidate `forall x: K. c.v[x] = E => φ` (or its
// scalar form): the prefix, the guard's term and constant, and φ.
var guarded = regexp.MustCompile(`^((?:forall [a-z][A-Za-z0-9_]*: [A-Za-z_][A-Za-z0-9_]*\. )?)(c\.[^ ]+) = ([A-Za-z_][A-Za-z0-9_]*) => (.+)$`)

// mergeGuards merges the clauses of cs that differ only in the constant of
// an enum guard into one clause with the guard `term in {…}`, in the place
// of the first of them.
func mergeGuards(cs []string) []string {
	type key struct{ prefix, term, body string }
	groups := map[key][]string{}
	for _, c := range cs {
		if m := guarded.FindStringSubmatch(c); m != nil {
			k := key{m[1], m[2], m[4]}
			groups[k] = append(groups[k], m[3])
		}
	}
	var out []string
	done := map[key]bool{}
	for _, c := range cs {
		m := guarded.FindStringSubmatch(c)
		if m == nil {
			out = append(out, c)
			continue
		}
		k := key{m[1], m[2], m[4]}
		switch g := groups[k]; {
		case len(g) < 2:
			out = append(out, c)
		case !done[k]:
			done[k] = true
			out = append(out, fmt.Sprintf("%s%s in {%s} => %s", k.prefix, k.term, strings.Join(g, ", "), k.body))
		}
	}
	return out
}

// sole reports whether candidate i is the only one of live false at some
// counterexample.
func (r *repairer) sole(live []int, i int) bool {
	for _, e := range r.falseAt[i] {
		others := false
		for _, j := range live {
			if j != i && slices.Contains(r.falseAt[j], e) {
				others = true
			}
		}
		if !others {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// neededCands returns the candidates that the proofs of the edge's
// obligations obs used, by the unsat cores of their proofs (used, by
// obligation ID; driver.Input.Used): those in the core of an obligation
// of the edge's own, then, until nothing changes, those in the core of an
// obligation of a candidate needed. It returns nil when a proved
// obligation has no core. A candidate the cores leave out may still be
// needed (a core is Z3's account of one proof), so a set without it is
// proved before it is taken. It also counts, per candidate, the edge's
// own obligations whose cores name it, over the cores there are (a
// preference only, so counted even when needed is nil).
func (r *repairer) neededCands(obs []*simulation.Obligation, verdicts theorems.Verdicts, used map[string][]string) (map[int]bool, map[int]int) {
	refs := map[int][]int{} // candidate (-1: the edge's own) → candidates its obligations' cores name
	missing := false        // a proved obligation without a core
	for _, o := range obs {
		if verdicts[o.ID] == kernel.Trivial {
			continue
		}
		names, ok := used[o.ID]
		if !ok && o.Clause == simulation.ClauseStart {
			// a start obligation (Init_C(c) ⇒ R_i(c, a₀)) has no other
			// relation clause among its hypotheses: it needs no
			// candidate; its verdict often comes from the cache, without
			// a core, as its text does not change between rounds
			continue
		}
		if !ok {
			missing = true
			continue
		}
		owner := -1
		if k, isCand := r.candOf(o.ID); isCand {
			owner = k
		}
		for _, n := range names {
			m := coreClause.FindStringSubmatch(n)
			if m == nil {
				continue
			}
			var k int
			if _, err := fmt.Sscanf(m[1], r.o.Prefix+"_c%d", &k); err == nil && k >= 1 && m[1] == r.candName(k-1) && k-1 != owner {
				refs[owner] = append(refs[owner], k-1)
			}
		}
	}
	needed := map[int]bool{}
	var visit func(int)
	visit = func(owner int) {
		for _, k := range refs[owner] {
			if !needed[k] {
				needed[k] = true
				visit(k)
			}
		}
	}
	visit(-1)
	uses := map[int]int{}
	for _, k := range refs[-1] {
		uses[k]++
	}
	if missing {
		return nil, uses
	}
	return needed, uses
}

// coreClause finds the relation clause an assertion of an obligation's
// problem states: its name, then the states it relates, as in fix_c3(c, a).
var coreClause = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\(`)
