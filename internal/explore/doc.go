// Package explore owns explicit-state exploration of finite instances of
// automata: breadth-first search over the reachable states with a check of
// every invariant (and the implicit Nat conditions) in each state, shortest
// counterexample traces, random executions, and a visitor interface over
// states and transitions for checks built on the search (such as bounded
// cross-checks of simulations).
//
// States are compiled and run by ioa/eval. The search stores each visited
// state once, as its canonical byte encoding (eval.Machine.AppendState) in a
// chunked arena, finds it with a 64-bit hash in an open-addressing table,
// and keeps only the parent of each state: a counterexample is rebuilt by
// replaying the path from its start state, matching encodings. Only the
// current and next BFS levels are held as decoded states. With
// Config.Workers > 1 the successors of each level are computed in parallel
// and merged in a fixed order, so results do not depend on the number of
// workers.
package explore
