// This file implements the four strategies. Each doc comment states why
// the obligations the strategy asks for jointly imply the obligation it
// is applied to; package simulation enforces the same argument when it
// applies the hint (simulation/strategy.go), so the argument here is
// documentation, not a premise of soundness.

package strategies

import (
	"strings"

	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// Split is `split: EXPR`: a case split of the obligation H ⇒ G on the
// value of EXPR, a Bool, enum or Option expression over the obligation's
// names (an invariant's pre-state and the action's parameters, or a
// proof's c, a, cpost, apre and parameters). It gives one obligation per
// value v, H ∧ EXPR = v ⇒ G, named "… › case EXPR=v" (for an Option,
// v is None or Some).
//
// Soundness: the cases cover every model of H, because simulation
// enumerates the constructors of EXPR's sort itself: Bool has true and
// false, an enum is encoded as an SMT-LIB datatype with one nullary
// constructor per constant, and Option as the datatype None | Some(x);
// SMT-LIB's theory of datatypes makes every value of a datatype sort the
// value of one of its constructors (exhaustiveness), so ⋁_v EXPR = v is
// valid and needs no obligation of its own. If every H ∧ EXPR = v ⇒ G is
// valid, so is H ⇒ G. The evaluator agrees (a replayed counterexample of
// a case satisfies its case hypothesis), and a test generates the
// coverage obligation anyway and checks it with Z3.
func Split(st *ioa.StrategyStep, act *ioa.Action) simulation.Split {
	return simulation.Split{Text: st.Text, Expr: st.Args[act].Split}
}

// Assume is `assume: [names]`: the obligation keeps the hypotheses of the
// named invariants only (and the Nat conditions), instead of every
// invariant it may assume (an invariant's `assumes:` list or all of its
// automaton's; a proof's `assume:` lists). Several assume steps of one
// list add up; a case's list replaces its proof's. It returns the keys
// kept.
//
// Soundness: weakening. The obligation H' ⇒ G with H' ⊆ H implies H ⇒ G.
// The obligation records only the invariants it keeps in its assumptions,
// so joint induction needs only those proved; the others are not used.
// Smaller queries are the point: Z3 instantiates fewer quantifiers.
func Assume(steps ...*ioa.StrategyStep) map[string]bool {
	keep := map[string]bool{}
	for _, st := range steps {
		for _, si := range st.Invariants {
			keep[keyOf(si.Automaton, si.Invariant)] = true
		}
	}
	return keep
}

// Instantiate is `instantiate: [inv(terms), …]`: for an invariant
// forall x1, …, xn. Q that the obligation may assume, it adds the
// hypothesis Q(θ1, …, θk) (k <= n), a ground instance when k = n: in an
// invariant's strategy at the step's pre-state, in a proof's at c, cpost
// (c.inv, cpost.inv) or a (a.inv, not in backward simulations). The terms
// are over the obligation's names, e.g. beginIdxBound(t) at the acting
// transaction t.
//
// Soundness: ∀-elimination. The invariant holds in that state (c and
// cpost are reachable concrete states, a is related to a reachable one
// in the forward kinds, the pre-state of an invariant step satisfies the
// invariants proved jointly), so its instance at any term does; the
// instance keeps the binder's condition (lo <= θ < hi, θ >= 0 for Nat).
// Adding a true hypothesis changes no validity, and the invariant is
// recorded among the obligation's assumptions.
func Instantiate(st *ioa.StrategyStep, act *ioa.Action) []simulation.Instance {
	var out []simulation.Instance
	for _, in := range st.Args[act].Instances {
		out = append(out, simulation.Instance{Automaton: in.Automaton, Invariant: in.Invariant, State: in.State, Args: in.Args, Text: in.Text})
	}
	return out
}

// Parametrized is `parametrized` (or `parametrized: [u]`, naming the
// index variables for the list's other steps), for a transaction-indexed
// invariant P = forall u: T. φ(u) (several leading variables of parameter
// sorts are allowed). It turns the inductive step of P for an action α
// whose acting parameter is t: T into quantifier-free obligations
// (quantifier-free when φ, Pre_α, Post_α and the support invariants are),
// following Sánchez and Sánchez, "Parametrized Invariance for Infinite
// State Processes" (SS in docs/references.md), rule P-INV (Fig. 4),
// premises S2 and S3:
//
//	S2. φ ▷ τ^(i) → φ'                               for all τ and all i ∈ k̄
//	S3. φ ▷ (⋀_{x ∈ Var(φ)} j ≠ x ∧ τ^(j) → φ')       for all τ and one fresh j ∉ k̄
//
// where ψ ▷ (A → B) (Definition 3, support) is (⋀_{σ ∈ S} σ(ψ)) ∧ A → B
// for S the partial substitutions from Var(ψ) into Var(A → B); and, for
// the support invariants ψ of the obligation (the other assumed
// invariants), rule SP-INV (Fig. 5, premises R2 and R3, "ψ, φ ▷ …").
//
// Here the index variables k̄ of φ become fresh values u (simulation's
// Generalize), and the acting transaction of the seed's τ^(i) is α's
// parameter t. The obligations are:
//
//	case u=t:  ⋀ σ(ψ) ∧ ⋀ σ(φ) ∧ Pre_α(s, p) ∧ u = t ⇒ φ(u)(s')   (S2/R2: the acting transaction is the indexed one)
//	case u≠t:  ⋀ σ(ψ) ∧ ⋀ σ(φ) ∧ Pre_α(s, p) ∧ u ≠ t ⇒ φ(u)(s')   (S3/R3: another transaction acts)
//
// with ψ and φ instantiated at every substitution of their index
// variables by t and u (the total substitutions of S; a partial one
// leaves a variable free, which adds nothing a total one does not), in
// place of their quantified hypotheses. With several acting parameters
// t1, t2 of the index sort the cases are u = t1; u ≠ t1 ∧ u = t2; …; u
// distinct from all, and with several index variables every pair is
// compared. An action with no parameter of the index sort has the single
// case S3 (no acting transaction among the indices). Invariants whose
// leading variables are not all of parameter sorts keep their quantified
// hypothesis. The obligations are named "… › case u=t" and "… › case
// u≠t" (u the index name, "index x" when unnamed and clashing with t).
//
// Soundness (the seed's Theorem 1 argument, in one automaton with arrays
// indexed by T): the cases u = t and u ≠ t cover every u (the decision
// list is exhaustive by construction); the instances are implied by the
// quantified invariants they replace, which are recorded as assumed; and
// since u is fresh, proving φ(u)(s') for it proves forall u. φ(u)(s'), the
// original goal. Unlike the seed, the pre-state hypotheses here are
// invariants proved jointly by induction (docs/proofs.md, Invariants),
// which is the seed's G-INV proof graph with the assumed invariants as
// its edges.
func Parametrized(st *ioa.StrategyStep, t *simulation.Target) *parametrizedPlan {
	p := &parametrizedPlan{generalize: len(st.Binders), aliases: st.Index}
	for i, b := range st.Binders {
		name := b.Name
		if i < len(st.Index) && st.Index[i] != nil {
			name = st.Index[i].Name
		}
		x := ident(b)
		p.index = append(p.index, term{x: x, name: name, sort: b.Sort})
	}
	var acting []term
	for _, pb := range t.Action.Params {
		if pb.Lo != nil || pb.Var == nil || pb.Var.Sort == nil || pb.Var.Sort.Kind != expr.KParam {
			continue
		}
		for _, ix := range p.index {
			if expr.Identical(ix.sort, pb.Var.Sort) {
				acting = append(acting, term{x: ident(pb.Var), name: pb.Var.Name, sort: pb.Var.Sort})
				break
			}
		}
	}
	// Display names: an unnamed index that clashes with an acting
	// parameter is written "index x".
	for i := range p.index {
		for _, a := range acting {
			if p.index[i].name == a.name && (i >= len(st.Index) || st.Index[i] == nil) {
				p.index[i].name = "index " + p.index[i].name
			}
		}
	}
	p.terms = append(append([]term(nil), acting...), p.index...)
	var guards []expr.Expr
	var labels, none []string
	for _, ix := range p.index {
		for _, a := range acting {
			if !expr.Identical(ix.sort, a.sort) {
				continue
			}
			eq := expr.NewBinary(expr.OpEq, ix.x, a.x)
			eq.SetSort(expr.BoolSort)
			eq.SetPos(st.Pos)
			guards = append(guards, eq)
			labels = append(labels, ix.name+"="+a.name)
			none = append(none, ix.name+"≠"+a.name)
		}
	}
	if len(guards) > 0 {
		p.split = &simulation.Split{Text: "parametrized", Guards: guards, Labels: append(labels, strings.Join(none, ", "))}
	}
	return p
}

// parametrizedPlan is the parametrized rule for one obligation.
type parametrizedPlan struct {
	generalize int
	aliases    []*expr.Object
	index      []term // the index values, as the invariant's bound variables
	terms      []term // the acting parameters and the index values
	split      *simulation.Split
}

// term is a term of a parameter sort the rule substitutes for index
// variables.
type term struct {
	x    expr.Expr
	name string
	sort *expr.Sort
}

// support returns the instances of the support invariants (the kept
// assumed invariants whose leading variables all have parameter sorts) at
// every substitution of those variables by the rule's terms, and removes
// them from keep: their quantified hypotheses are replaced.
func (p *parametrizedPlan) support(t *simulation.Target, keep map[string]bool) []simulation.Instance {
	var out []simulation.Instance
	for _, a := range t.Assumed {
		if a.State != nil || !keep[a.Key()] {
			continue
		}
		bs, why := ioa.ParametrizedBinders(a.Invariant.Body)
		if why != "" {
			continue
		}
		pools := make([][]term, len(bs))
		ok := true
		for i, b := range bs {
			for _, tm := range p.terms {
				if expr.Identical(tm.sort, b.Var.Sort) {
					pools[i] = append(pools[i], tm)
				}
			}
			ok = ok && len(pools[i]) > 0
		}
		if !ok {
			continue
		}
		for _, combo := range product(pools) {
			args := make([]expr.Expr, len(combo))
			names := make([]string, len(combo))
			for i, tm := range combo {
				args[i], names[i] = tm.x, tm.name
			}
			out = append(out, simulation.Instance{Automaton: a.Automaton, Invariant: a.Invariant, Args: args,
				Text: a.Invariant.Name + "(" + strings.Join(names, ", ") + ")"})
		}
		delete(keep, a.Key())
	}
	return out
}

// product returns every choice of one term per pool.
func product(pools [][]term) [][]term {
	out := [][]term{nil}
	for _, pool := range pools {
		var next [][]term
		for _, prefix := range out {
			for _, tm := range pool {
				next = append(next, append(append([]term(nil), prefix...), tm))
			}
		}
		out = next
	}
	return out
}

// ident returns an identifier denoting obj.
func ident(obj *expr.Object) *expr.Ident {
	x := expr.NewIdent(obj.Name)
	x.Obj = obj
	x.SetSort(obj.Sort)
	x.SetPos(obj.Pos)
	return x
}
