// Package crosscheck owns ladder's bounded cross-checks: the quick way to
// find a wrong relation, witness or specification before asking Z3. They
// run the reference evaluator (ioa/eval) over a finite instance and report
// a failure as a concrete, shortest execution.
//
// # Proof cross-check (Check)
//
// For an edge C → A of a proof file (docs/proofs.md), Check evaluates the
// edge's obligations at every reachable concrete step of the instance, with
// concrete values instead of Z3 terms:
//
//   - refinement, simple-refinement: the concrete automaton is explored
//     (package explore and its Visitor). At every start state c,
//     f(c) must be a start state of A (clause "start"). At every enabled
//     step c —α(p)→ cpost the case is the first whose `when` holds (none:
//     clause "cases"); the abstract steps β_j(θ_j) run from u_0 = f(c) and
//     each must be enabled in u_{j−1} ("pre(β_j)"); the last state u_m must
//     equal f(cpost) ("post(x)" names the first differing variable; every
//     differing one is listed); and the external abstract steps must show
//     the concrete event ("event").
//   - forward: the product of C with the step correspondence is explored
//     breadth-first: pairs (c, a) start at (c₀, a₀) with a₀ the `start:`
//     witness ("start › init", "start › R_i"), and each concrete step from
//     c is matched from a by its case, which must be enabled ("pre"), lead
//     to u_m with every R_i(cpost, u_m) ("relation(R_i)") and show the
//     event; the pair (cpost, u_m) is explored next. So every abstract state
//     a concrete execution can be matched with is tried, not only one per
//     concrete state.
//   - backward: the concrete automaton is explored. Every reachable c must
//     satisfy R_i(c, τ(c)) ("totality › R_i"). At every step, each
//     candidate abstract post-state a related to cpost is tried: the
//     totality witness τ(cpost) and, depending on Config.Abstract, every
//     state of A in the instance (AbstractAll, the default when A has few
//     enough states) or every reachable one (AbstractReachable) that R
//     relates to cpost, found through an index on the relation's conjuncts
//     `a.x = e(c)`. For each, the case's `pre:` witness apre must satisfy
//     every R_i(c, apre) ("relation(R_i)"), the abstract steps must be
//     enabled from apre, end in a ("post(x)") and show the event. At a start
//     state every candidate related to it must be a start state of A.
//   - history: the abstract automaton A (C with history variables) is
//     explored. Its start states map to start states of C; for each start
//     state c of C, a₀ is a start state of A with f(a₀) = c. At every
//     reachable a, the actions C enables in f(a) and those A enables in a
//     are the same ("guard"), and for each step f(Post_A(a, p)) =
//     Post_C(f(a), p) ("commute") with equal events.
//
// Every verdict above (start, totality, each step clause, guard, commute,
// event) is the value of the obligation of that name as package simulation
// builds it for Z3, evaluated at the concrete point by the same rule
// function (simulation.PointChecker): one run of the rule per step reads
// every goal of the case the guards select. This package searches for the
// points and explains a failure (the differing variables, the false
// conjuncts); it does not decide one. The edge is compiled once, by the
// point checker: the search applies its compiled state maps and relation
// (PointChecker.StateMap, Func), and a failure is explained by what the
// rule computed (Verdict.States, Run, Why: the case's abstract steps with
// their arguments, the witnesses, why a state is not a start state).
//
// The invariants an edge assumes (`assume:`) and the Nat conditions are
// checked too, by the point checker (PointChecker.Violated, the
// hypotheses its Eval takes as true of a point's states), in every state
// where the obligations assume them: a concrete
// invariant in every reachable concrete state, an abstract one in every
// abstract state the check builds from a reachable one (f(c), the forward
// partner a, a history state). A forward check checks the Nat conditions
// of a step's post-state before the step, so that no expression is
// evaluated in a concrete state that breaks one (the symmetry check relies
// on it: explore/symmetry.go). A violation is reported as a failure of
// clause "assume C.P", because every obligation that assumes it rests on it.
//
// A failure is a real counterexample to the Z3 obligation of the same
// name: its hypotheses hold (the states are reachable, so the assumed
// invariants hold in them, and this is checked; a forward pair (c, a) is
// explored only once the rules found R(c, a) at its start or the step
// that reached it), and its goal is false.
// The converse does not hold: a check that passes covers one finite
// instance, reachable states only, up to the limits, and (backward)
// the candidate abstract states only, while the obligations quantify over
// every state satisfying the invariants in every instance.
//
// # Probes
//
// A forward check also evaluates Config.Probes, Bool expressions over c
// and a in the proof's relation scope, at every pair it reaches, without
// requiring them; Result.ProbesFalse lists those false at some pair.
// ProbeAt evaluates them at a pair given as text, as a counterexample
// prints its states. Relation repair (package infer) chooses its
// candidate clauses with both; no verdict depends on them.
//
// # Trace inclusion (Implements)
//
// Implements checks that every trace of C in the instance (up to the
// limits) is a trace of A in the same instance, by a subset construction:
// it explores pairs (c, S) of a reachable concrete state and the set S of
// abstract states A can be in after the same events, closed under A's
// internal actions. A concrete step whose event no state of S can take
// (after internal steps) gives a trace A cannot produce; the first one
// found is at the end of a shortest concrete execution.
//
// # Execution
//
// The proof cross-checks share one breadth-first search (search.go): of
// the states of the explored automaton (refinement, backward, history) or
// of pairs (forward). Its nodes are kept encoded in an exact store
// (internal/nodestore: the encodings in a chunked arena, an open-addressing table of
// hashes that compares full encodings on a hit), with the node each was
// first reached from and nothing else; a shortest execution is rebuilt on
// failure by replaying that path. Workers (Config.Workers) decode a batch
// of nodes, compute their successors and run the step checks on copies of
// the checker, and evaluate the assumed invariants of the successors
// that the per-node check has not yet met; the searching goroutine merges
// the batch in node order, stores the new nodes, runs the per-node checks
// with the workers' verdicts and stops at the first failure in that
// order, which it builds again itself. The result does not
// depend on the number of workers. Trace inclusion keeps its states, sets
// and pairs encoded in the same kind of store, on one goroutine. Whatever
// a Failure keeps is cloned.
//
// With Config.Symmetry the nodes are canonical under the permutations of
// the elements of the sorts given, the same permutation applied to both
// states of a pair (symmetry.go, which also checks statically that both
// automata and the proof's expressions allow it). With Config.ReduceDead
// a forward check's pairs are stored with the dead entries of the
// abstract state's registers reset, and the read conditions of the
// proof's reads of registers are checked at every pair and step (dead.go):
// a forward check's extra pairs are mostly abstract states that differ in
// dead entries only (DSTM→ReservationTMS2 at T=3,L=1,V=2 with symmetry:
// 16.7 million pairs, 2.7 million reduced).
//
// # Cost
//
// The cost of a check is its number of nodes times the steps per node
// times the cost of a step check. The nodes of a refinement, backward or
// history check are the explored automaton's reachable states, as for
// explore; a forward check stores at least one pair per reachable concrete
// state and one more for every other abstract state a concrete state is
// matched with along some execution. Both grow much faster than the
// instance: an extra transaction multiplies the interleavings. The step
// check, not the search, dominates the time (evaluating the mapping,
// witnesses and relation, and running the abstract steps); the store costs
// one encoded node and about 40 bytes of index per node. A forward check
// evaluates its relation about once per pair, not once per step: the
// workers look the step's successor pair up in the store (read only while
// they run) and in the pairs whose step check passed on the same worker
// in the same batch, and the rules take R as holding at such a pair
// (simulation.Point.Related), both as the hypothesis R(c, a) and as the
// goal R(cpost, u_m); a pair is stored only once the rules found R true
// at it, and R depends on the two states alone. (On TL2→ReservationTMS2
// at T=3,L=1,V=2, of the steps whose successor a worker looks up, about
// one in seven finds it stored, one in two finds it checked earlier in
// its batch: interleavings that commute meet again one level down.) At a
// new pair, a clause R_i that reads only variables the concrete step and
// the abstract steps left alone (in the same memory) keeps its value at
// the stored pre-pair, true, and is not evaluated (simulation's
// world.framed; on DSTM→ReservationTMS2 at T=2,L=1,V=2, about four clause
// evaluations in ten).
//
// A backward check first explores the abstract automaton, up to symmetry
// when the check is reduced: one encoded state per orbit in a node store,
// and per image 4 bytes for its representative, 2 for its permutation, 8
// for the index and 4 per filter. ReservationTMS2→TxnOrdTMS2WithFailures
// at T=3,L=1,V=2 keeps 2,185,717 orbits for 13,068,065 candidates. It then
// pays, per step, for looking up the candidates R relates to the
// post-state: evaluating the pinned expressions e(c) and the guards of
// the pinned map entries, probing one index key per choice of the entries
// left open (usually one), evaluating each single-variable conjunct once
// per value met, and decoding and trying against R only the candidates
// that pass, and placing τ(cpost) among them. A lookup's result is kept
// with the post-state's node when the node is new (candidates.remember),
// as the entries and a permutation that maps the post-state to the
// node's state; a later step into any state of the orbit maps them
// instead of looking up again (candidates.memoOf), and the workers share
// the results of their batch by node key (relCache), since a new node is
// usually reached by several steps of its batch, of nodes that both
// workers expand: such a node is then usually looked up once, not once
// per worker that reaches it. The step check's rules compute the states
// and values of each step in scratch memory that the next step reuses
// (simulation.PointChecker.UseScratch), rather than allocating them. A
// candidate found related is not evaluated against R again in the step
// check, neither as the hypothesis R(cpost, a) nor, when the pre-state
// witness apre is one of the candidates related to the node being
// expanded, as the goal R(c, apre) (relatedToPre); a step that finds
// τ(cpost) among them vouches for the totality check at cpost, which the
// searching goroutine then skips. The abstract exploration and the
// index are built on one goroutine per core, in batches and parts joined
// in order. Symmetry reduction
// divides the nodes by up to the order of the group (3! for T=3), less when
// many states are their own images or an element is fixed; the canonical
// encoding encodes each state once per permutation, each image only up to
// its first variable larger than the least so far. The script
// scripts/bench-crosscheck.sh measures every edge of proofs/ (nodes,
// completeness, seconds and peak memory, with and without reduction).
package crosscheck
