// Package explore owns explicit-state exploration of finite instances of
// automata: breadth-first search over the reachable states with a check of
// every invariant (and the implicit Nat conditions) in each state, shortest
// counterexample traces, random executions, and a visitor over states and
// transitions for checks built on the search (such as bounded cross-checks
// of simulations).
//
// Automata are compiled and run by ioa/eval (eval.Machine). The search
// works as follows.
//
//   - Every visited state is stored once, as its canonical byte encoding
//     (eval.Machine.AppendState), in a chunked byte arena, with its parent's
//     id. An open-addressing hash table (maphash) maps encodings to ids; its
//     slots point straight at the arena records, and the slots and records
//     a state's successors will probe are touched together before they are
//     inserted, so that their cache misses overlap.
//   - The BFS queue holds ids only. Expanding a state decodes it into the
//     scratch memory of an fast.Runner, computes its successors there,
//     encodes them incrementally (the variables an action leaves alone are
//     copied from the parent's encoding), inserts them in order and checks
//     the invariants of the new ones; the scratch memory is then reused. The
//     search allocates nothing per state beyond the store's growth, so the
//     garbage collector has little to do.
//   - A new state's conditions are checked when it is inserted; a
//     sequential search evaluates again only those that read a variable
//     the step changed (fast.Runner.ViolatedAfter), since the expanded
//     state satisfies them all.
//   - A violation is found when the violating state is inserted; since ids
//     are given in BFS order the trace is a shortest one. It is rebuilt from
//     the parent ids by replaying the path from its start state, matching
//     encodings.
//   - With Config.Workers > 1, the successors of each batch of a level are
//     computed by several goroutines and merged in a fixed order, so the
//     ids, the result, the trace and the visitor's calls do not depend on the
//     number of workers. Without a visitor or dead-register reduction a
//     worker reuses its scratch memory for each state it expands, and the
//     new states are checked decoded from their keys (with symmetry, their
//     representatives, which satisfy the same conditions).
//   - Without a visitor or dead-register reduction, an automaton whose
//     encodings have a fixed layout is run on them (fast.Flat): a state is
//     expanded from its key into its successors' keys, and checked from
//     its key, with no decoding; with symmetry reduction, a successor's
//     canonical key is computed from its bytes (eval.Symmetry.LeastEncoded)
//     when the group's byte programs cover every permuted variable. The
//     Runner expands and checks a state Flat gives up on. A sequential
//     search expands a group of states (flatGroup) before it looks up
//     their successors together. A new state's invariants are checked by
//     fast.FlatRunner.HoldsAfterRow: only those the step can change, and
//     those of the form forall x. B that it can change only at its
//     parameter's row, at that row alone.
//     Such a search on several workers is parallel_flat.go: the store's
//     table is sharded by hash, and the workers take contiguous parts of
//     a batch (their own first, then those left), expand them, set aside
//     the successors a part repeats, look the others up shard by shard,
//     store and check the new states, with the ids of a sequential search.
//   - With Config.Symmetry, each new state adds the size of its orbit to
//     Symmetry.Represented: the state count without reduction when the
//     start states are closed under the permutations.
//   - With Config.Symmetry, the store keys are canonical encodings: the
//     least encoding of a state's images under the permutations of the
//     symmetric sorts' elements (eval.Symmetry), so that one state per
//     orbit is stored and expanded; symmetry.go checks that the automaton
//     treats those elements alike, and a trace is rebuilt by replaying
//     concrete steps whose canonical encodings follow the path.
//   - With Config.ReduceDead, the store keys write the entries of the
//     registers that ioa.DeadRegisters finds dead at their process's
//     control value as the default value (eval.Dead), alone or inside the
//     canonical encoding, so that one state is stored for all that differ
//     only in dead entries; they are bisimilar, and traces are replayed as
//     under symmetry.
package explore
