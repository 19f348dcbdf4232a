// Package kernel is the only place in ladder that decides that an
// obligation is proved.
//
// # Verdicts
//
// A Verdict is Proved, Refuted, Unknown or Trivial; it is not an error.
// Kernel.Prepare prints the obligation's logic.Problem canonically;
// Session.Check (one Session per worker) sends exactly that text to Z3
// through package smt, in a fresh Z3 context so that no verdict depends on
// what was checked before, under a deterministic Config (fixed random seed,
// Z3's deterministic resource limit rlimit, and a wall-clock timeout as a
// safety net), and decides:
//
//   - unsat: Proved.
//   - sat: the obligation's Replay decodes the model into states and
//     re-evaluates the obligation with ladder's own evaluator. A replayed
//     counterexample gives Refuted, carrying it. When the replay disagrees
//     with the solver, the result is Unknown with Internal set and the
//     reason "[internal] solver model does not replay: …", and the query is
//     dumped: a disagreement is a bug in ladder, never a verdict. A
//     *counterexample.Unshowable (the evaluator has no value for a map over
//     Int) gives Unknown, not Internal: "z3 found a model that ladder …".
//   - unknown: Unknown, with Z3's reason_unknown, the limits in force, what
//     the bounded search (below) tried, and the path of the dumped .smt2
//     file (Kernel.UnknownDir, by default .ladder/unknown/).
//
// Any other failure (an ill-formed problem, a Z3 error) is likewise Unknown
// with Internal set and a reason starting with "[internal]".
//
// Before any of this, Kernel.Trivial looks at the printed problem: when one
// of its assertions is the literal false, the problem is unsat whatever
// else it says, and the verdict is Trivial without a call to the solver.
// This is how an obligation whose goal is true by construction is decided
// (the generator's simplifications in package logic turn, for example, the
// goal x = x of a post(x) clause whose abstract step leaves x alone into
// true, and its negation into false). Trivial discharges the obligation as
// Proved does; reports count it apart, so that "proved" always means that
// Z3 answered unsat. A cached Trivial record is admitted only when
// Kernel.Trivial holds for the fresh query.
//
// # The procedure for one obligation
//
// Check runs at most five steps, all under the one wall-clock Timeout:
//
//  0. When the caller names the check that proved an earlier text of the
//     obligation (Obligation.First, from PriorAttempt of its record),
//     that check first: the same slice or the whole problem, in the same
//     solver, with that step's limit but at most four times the units
//     the earlier proof used. A hint like a slice: only unsat counts, and
//     otherwise the steps below follow as without it.
//  1. The problem's text in Z3's plain SMT solver (Z3_mk_simple_solver),
//     with the small resource limit Config.FirstRLimit (default 100,000).
//     Only unsat counts here (a sat answer goes on to step 2, whose
//     default solver gives every counterexample). Most obligations end
//     here: the plain solver skips the default solver's preprocessing
//     tactic, which costs a few milliseconds even on a trivial problem
//     (median 1 ms against 5 ms over the repository's obligations).
//     Before it (1a), unless Config.NoSlices, the obligation's first
//     slice is checked the same way (see Slices below). These checks,
//     and those of step 0 in the plain solver with at most the first
//     limit, track each assertion by an assumption literal (the
//     assertion a becomes (=> l a), checked under the assumption l): an
//     unsat answer under assumptions that are all true is an unsat
//     answer for the assertions themselves, so the proof is the same,
//     and Z3's unsat core comes with it at no further cost
//     (Result.Used: the assertions the proof used, a hint for the next
//     text of the obligation, never part of the verdict). A text that
//     mentions the literals' prefix (smt.CorePrefix) is checked untracked,
//     so that none of its constants is taken for a literal and assumed.
//     When the tracked check of the whole problem exhausts the first limit
//     (neither unsat nor sat), it is repeated untracked (tracking changes
//     Z3's search), but only after the short round of step 2.
//  2. Otherwise, first the short round (2s): each slice that no check
//     found satisfiable, then the whole problem, in Z3's default solver
//     with Config.ShortRLimit (default 2 million), decided as below (a
//     slice's unsat proves, the whole problem's sat is replayed); then the
//     untracked check of step 1 that waited. Of the repository's 11,075
//     obligations, the 295 that got past step 1 in a cold run under
//     format 10 spent 99 s where the check that proved each of them,
//     alone, took 31 s: mostly slices that fail at the slice limit before
//     one that succeeds. A slice that a check found satisfiable is never
//     checked again: it stays satisfiable under any limit and in either
//     solver. Then the same text in Z3's default solver with
//     Config.PreSearchRLimit (default 5 million). unsat and sat are
//     decided as above: the text and the rules of a verdict are the same,
//     only the solver's search differs. A true obligation reaches this
//     step without paying for the search: of the repository's 10,822
//     obligations, the 73 that reached it in a cold run under format 9
//     were proved there with at most 3.4 million units. Before that (2a), unless
//     Config.NoSlices, each of the obligation's slices in the default
//     solver with Config.SliceRLimit (default 5 million). Only unsat
//     counts.
//  3. On unknown, unless SearchConfig.Off, the bounded counterexample
//     search (below). Then (3b), when it found nothing and step 2 had
//     less than the full Config.RLimit, the problem in the default solver
//     again with RLimit. A false obligation that Z3 leaves unknown so
//     pays the pre-search limit, not the full one, before the search
//     finds its counterexample (one of TL2Mod's: 110 million units in all
//     to 15 million). With the search off, step 2 has the full limit and
//     there is no step 3b.
//  4. Without a counterexample, the plain solver again, with
//     Config.RetryRLimit (default 20 million). Only unsat counts. Z3's
//     default solver gives up at 100 million units on some true
//     obligations after an edit that does not change their meaning (four
//     of DSTM's relation steps after `x >= 0` became `0 <= x` in one
//     clause), which the plain solver proves with 2 to 19 million; its
//     cost per unit grows steeply on hard problems, which is why it is not
//     the default solver's substitute, and it comes after the search so
//     that a wrong claim is refuted without paying for it.
//
// So only obligations the solver leaves unknown pay for the search.
//
// When step 2 (or 3b) refutes the obligation with a large model (a
// parameter sort with more than 2 elements, or an integer constant beyond
// ±8; Z3's direct models often have L=10, T=4, V=16), the kernel minimizes
// the counterexample (refuter.go, Session.minimize): it has the bounded search
// below run over the instances whose total size is at most the model's,
// smallest first, under the same SearchConfig limits and Budget, and stops
// at the first counterexample. That one is a model of the problem replayed by the
// obligation's Replay, exactly like the first (see Soundness below), so it
// is equally a genuine counterexample; it is reported instead when it is
// smaller (fewer elements in all, or as many and smaller integer
// constants), and the original is kept otherwise, also when the search
// finds nothing. A bounded model that does not replay is an internal
// error, as in the search. Proved obligations never pay for this.
//
// # Slices
//
// An obligation may propose slices (Obligation.Slices): proper subsets of
// its problem's assertions, printed with all of its declarations
// (Query.Slice). The slice's unsat proves the obligation by weakening: if
// a subset of the assertions has no model, the whole set has none. Its sat
// says nothing (the slice is weaker than the problem) and is never
// replayed. Which subsets are proposed is a hint from outside the kernel:
// the driver's narrow slice drops the assumed invariants and the relation
// clauses of the pre-states that share no state variable with the negated
// goal, its wide slice the invariants only. A result proved by its n-th
// slice has Slice = n, and the dump of the query is the slice's text.
//
// A slice is a query of its own, with its own fingerprint, and the proof
// of a slice is cached under it (Result.TakeSliceProof). Kernel.AdmitSlice
// admits a query as Proved when the cache holds a Proved record for
// exactly the fingerprint of one of its slices, freshly printed from the
// query: after an edit of a hypothesis that a slice leaves out, the
// obligation is proved again without a call to the solver, by the same
// weakening and under the same rule as any cached verdict, a record for
// exactly the text that was proved.
//
// Session.Core finds a further subset after a proof: it checks the problem
// that proved the query again with each assertion tracked by an assumption
// literal (check-sat under assumptions), takes the assertions of Z3's
// unsat core, and checks that subset as a problem of its own (Core.Query).
// The core itself is a hint, like a proposed slice; what counts is the
// subset's own unsat answer, which is an ordinary Proved result for the
// subset's text (Core.Proof). The driver caches it and proposes the same
// assertions, by name, as a slice of the obligation's next text, so that
// Kernel.AdmitSlice proves that text from it when the subset's text is
// unchanged.
//
// # Bounded counterexample search
//
// The search is not part of the kernel: package refute implements it, and
// the kernel calls it through the contract of package proposal (a
// proposal.Refuter, given to New). The refuter only proposes: it builds
// bounded problems, which the kernel's solver decides (the kernel's
// proposal.Oracle, refuter.go), and hands each model it finds back to the
// kernel, which replays it through the obligation's Replay and alone makes
// the verdict from that replay. The search's outcome names a replay the
// kernel made, a failure of the search (an internal error), or nothing
// (the verdict stays Unknown); no outcome of it is ever read as a proof.
// What follows describes the procedure of package refute, which is part
// of the kernel's procedure for an obligation (see Determinism).
//
// Wrong invariants and buggy automata quantify over the parameter sorts
// (uninterpreted in the encoding) and over Int, and Z3's model-based
// quantifier instantiation often gives up on them ("incomplete
// quantifiers"). Their counterexamples, though, live in small instances
// (two transactions, one location, two values). The search re-checks the
// problem restricted to small universes, in which Z3 decides it:
//
//   - Each uninterpreted sort S gets k elements (package refute, the
//     function bound): S is replaced by an enumeration, a datatype with k nullary
//     constructors, in every symbol, array and datatype of the problem, and
//     each quantifier over S is replaced by the conjunction (∀) or
//     disjunction (∃) of its k instances. Z3 knows the enumeration is
//     finite; the instances leave no quantifier over S.
//   - Each quantifier over Int is split into its instances at 0 … 3 and
//     the same quantifier restricted to the other integers. This is an
//     equivalence, not a bound; it gives Z3 the instances small sequences
//     need.
//   - The instances are tried smallest first (by the total number of
//     elements, every sort from 1 to SearchConfig.MaxSize elements), each
//     with the resource limit SearchConfig.RLimit, until one is sat, 64
//     instances were checked, or the search has used SearchConfig.Budget
//     units. A sat instance whose model
//     has a large integer constant is checked again with every integer
//     constant within ±2, ±4 or ±8 (a bound, with a fifth of the resource
//     limit), for a smaller counterexample; the first that is sat and
//     replays replaces it.
//
// Soundness. Read each enumeration as the uninterpreted sort it replaces:
// an interpretation of the bounded problem is then an interpretation of
// the original problem in which S has exactly k elements, and over a
// k-element sort a quantifier and the conjunction or disjunction of its k
// instances have the same value; splitting a quantifier over Int and
// bounding constants only add instances or assertions. So every model of
// a bounded problem is a model of the original problem (hypotheses ∧
// ¬goal), and the refuter hands it to the kernel as one (refute's
// boundedModel: the universe of S is k elements, terms are translated
// into the bounded sorts before evaluation and values translated back). It is then replayed by the
// obligation's Replay, exactly like a model of step 1: only a replayed
// counterexample gives Refuted, and a model that does not replay is an
// internal error. The converse does not hold: the original problem may
// have models only in larger universes. An unsat bounded instance
// therefore proves nothing and never gives Proved; the verdict stays
// Unknown, and its reason says what the search found: "bounded search: no
// counterexample in 27 of 27 instances (none with L<=3, T<=3, V<=3)",
// which is a fact about those universe sizes (with Int unbounded).
//
// A counterexample found this way ends with the line "found in the
// bounded instance L=1, T=2, V=2" (with ", Int constants within ±4" when
// the integers were bounded), and its JSON has the field "bounded". One
// that replaces a larger counterexample of step 1 adds what it was
// minimized from: "found in the bounded instance L=1, T=1, V=1
// (minimized: the solver's first counterexample had L=10, T=4, V=16, Int
// constants up to 3)", and its JSON the field "minimized_from".
//
// Determinism. The schedule, the bounded problems and the limits are
// functions of the query's text and Config; every bounded check runs in a
// fresh Z3 context with the fixed seed, and the budget is counted in
// rlimit units. The search is part of the kernel's procedure for the
// obligation and configuration: its parameters are in Config.Params, so
// in the solver identity and every cache key, and a verdict it gives is
// cached and admitted like any other; a change to what package refute
// proposes needs a new Format. Only the wall-clock Timeout can cut
// it short, and a result cut short that way is not cached (also a
// refutation whose minimization it cut short). Format 3 marks the kernel
// that minimizes: results cached by earlier kernels are misses.
//
// # Certificates and the cache
//
// A Result can be encoded (Result.Encode) and stored in the untrusted proof
// cache. Kernel.Admit accepts an encoded result only for the Query it was
// produced for: the record carries the query's fingerprint, the SHA-256 of
// the solver identity (name, version, every parameter of Config) and the
// canonical text of the problem, and Admit compares it with the
// fingerprint of the freshly printed query. A result that any other query,
// solver version or limit produced is refused. The cache itself keys
// results by cache.KeyOf over the same text and identity; the kernel does
// not import the cache, so the two checks are independent. A record is
// decoded by encoding/json with unknown fields refused, except that one
// whose bytes are exactly Encode's encoding of a record without a reason or
// counterexample is read by a scanner of that shape (canonicalRecord) and
// taken only when encoding it again gives the same bytes: the same record,
// at a fraction of the decoder's cost, which a run that restores every unit
// pays once per obligation.
//
// Only the functions of this package construct a Result whose Verdict is
// Proved: Session.Check on an unsat answer, and Admit on a record that
// matches the query.
//
// # Trust
//
// To believe a Proved verdict one reads the kernel and what it imports:
// internal/logic, internal/smt, internal/z3, internal/source,
// internal/counterexample (a replayed counterexample, as text) and
// internal/proposal (the types of the refuter's contract). That closure
// holds neither the model (ioa, ioa/expr), the evaluator (ioa/eval), the
// bounded search (internal/refute), simulation, the loader nor any module
// outside the standard library. trust_test.go runs `go list -deps` and
// fails if a package of the module outside that allowlist enters the
// closure (and shows that it rejects the loader, yaml.v3, the model, the
// evaluator and the search); closure_test.go fails if the closure grows
// beyond 15% of the module's non-test Go lines. A Refuted verdict needs
// the obligation's Replay besides (simulation and ioa/eval), which
// confirms the counterexample.
package kernel
