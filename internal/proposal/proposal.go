// Package proposal is the contract between the kernel and a refuter: a
// procedure that looks for counterexamples the solver did not find, by
// proposing models of an obligation's problem (package refute, the bounded
// search over small universes, is the one ladder uses).
//
// A refuter can only propose. It asks the kernel (an Oracle) to decide the
// problems it builds, and hands every model it finds back to the kernel as
// a model of the obligation's own problem; the kernel replays it through
// the obligation's Replay and alone turns the replay into a verdict:
// Refuted when the evaluator confirms the counterexample, an internal
// error otherwise. Nothing a refuter returns is ever read as a proof: a
// Found names a replay the kernel made (by its number), a failure, or
// nothing, and the kernel keeps its verdict Unknown in the last two cases.
// A refuter need not be trusted to believe a Proved verdict, and this
// package, which the kernel imports, holds only the types of the contract.
package proposal

import "ladder/internal/logic"

// Status is the solver's answer for a problem a refuter proposed.
type Status int

// The answers.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// Answer is what the kernel's solver says about a proposed problem.
type Answer struct {
	Status  Status
	Model   logic.Model // Sat: valid until Release is called
	RLimit  uint64      // the resource units the check used
	Timeout bool        // Unknown: stopped by the wall clock or an interrupt
	Release func()      // frees the model; may be nil
}

// Limits bound one search (the kernel's SearchConfig).
type Limits struct {
	MaxSize int    // the largest universe tried for a sort
	RLimit  uint64 // the resource limit of one check
	Budget  uint64 // no check starts once the search's checks used this many units
}

// Oracle is the kernel's side of a search, for one obligation. It counts
// the costs of every check itself.
type Oracle interface {
	// Check decides p, a problem the refuter built, within rlimit
	// resource units and the wall-clock time left.
	Check(p *logic.Problem, rlimit uint64) (Answer, error)
	// Replay has the kernel replay m, read as a model of the
	// obligation's problem, through the obligation's Replay; instance
	// names where it was found, for the counterexample's text. It returns
	// the replay's number (from 1), for Found.Replay, and whether the
	// replay refutes the obligation (otherwise it is an internal error).
	Replay(m logic.Model, instance string) (n int, refuted bool)
	// Expired reports whether the wall-clock limit has passed.
	Expired() bool
}

// Extent is the size of a counterexample as a refuter measures it.
type Extent interface {
	// Large reports whether a counterexample of this size is worth
	// minimizing.
	Large() bool
	// String renders it for people: "L=10, T=4, V=16, Int constants up
	// to 3".
	String() string
}

// Found is the outcome of a search.
type Found struct {
	// Replay is the number of the replay whose result stands (see
	// Oracle.Replay), 0 for none.
	Replay int
	// Err is a failure of the search itself (a problem it could not
	// build, a solver error): an internal error. Instance names the
	// instance it is about, "" for the search as a whole.
	Err      error
	Instance string
	// Smaller is set, when the search minimized a counterexample of the
	// extent within, if the one of Replay is smaller.
	Smaller bool
	// Note says what was searched when nothing was found, for an
	// Unknown's reason.
	Note string
	// Timeout is set when the wall clock cut the search short.
	Timeout bool
}

// Refuter looks for counterexamples in problems the solver left unknown,
// and for smaller ones than the solver found.
type Refuter interface {
	// Measure returns the extent of m, a model of p the solver found.
	Measure(p *logic.Problem, m logic.Model) Extent
	// Search looks for a model of p that replays. within is nil for the
	// search of a problem the solver left unknown; otherwise it is the
	// extent of a counterexample the solver found (from Measure), and
	// the search tries only instances no larger than it.
	Search(p *logic.Problem, within Extent, lim Limits, o Oracle) Found
}
