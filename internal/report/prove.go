// This file implements the prover's report: one row per obligation, the
// status of every invariant and edge, the derived theorems and a summary,
// rendered as text for people (WriteText) and as JSON for tools (WriteJSON).
// docs/prove.md documents both formats.

package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The verdicts of an obligation, as printed and in JSON.
const (
	Proved  = "proved"  // Z3 answered unsat
	Refuted = "refuted" // a counterexample, replayed
	Unknown = "unknown" // neither, within the limits
	// Trivial: an assertion of the problem is the constant false (the goal
	// simplified to true when it was built), decided without the solver.
	// It discharges the obligation like Proved; it is counted apart.
	Trivial = "trivial"
)

// Discharged reports whether an obligation's verdict v discharges it:
// Proved or Trivial.
func Discharged(v string) bool { return v == Proved || v == Trivial }

// NotChecked is the status of an invariant or an edge some of whose
// obligations (or assumed invariants) were not checked, e.g. not selected
// by --only. Its other statuses are Proved, Refuted and Unknown.
const NotChecked = "not checked"

// Prove is the result of one `ladder prove` run. The driver computes it;
// WriteText and WriteJSON render it. Every slice is sorted as documented on
// its field, so two runs over the same input render identically apart from
// times.
type Prove struct {
	Solver      Solver       `json:"solver"`
	Obligations []Obligation `json:"obligations"` // by Group, then ID
	Invariants  []Invariant  `json:"invariants"`  // by Automaton, then Name
	Edges       []Edge       `json:"edges"`       // by Name
	Theorems    []Theorem    `json:"theorems"`    // by Statement
	Summary     Summary      `json:"summary"`
	// Errors are failures that are not obligations, e.g. a theorem a
	// proof file expects that is not derived ("file:line:col: message").
	Errors   []string `json:"errors,omitempty"`
	Warnings []string `json:"warnings,omitempty"` // e.g. the cache's one-line warning; not in WriteText
	// Changes says which source items changed since the last complete
	// run and what depends on them; nil when the cache holds no record of
	// an earlier run of these files (or with --no-cache).
	Changes *Changes `json:"changes,omitempty"`
}

// Changes are the source items (dependency items such as
// "automaton:A/action:X") added, removed or edited since the last complete
// run, and what the cache's dependency index says they affect. They only
// inform and order the work: verdicts are reused by the obligation's text,
// whatever this says.
type Changes struct {
	Items []ItemChange `json:"items"` // by Item; empty when nothing changed
	// Obligations are the obligations that depend on a changed item, now
	// or in the last run; Invariants ("A.p") and Edges those containing
	// them; Theorems those resting on those invariants and edges. Each is
	// sorted.
	Obligations []string `json:"obligations"`
	Invariants  []string `json:"invariants"`
	Edges       []string `json:"edges"`
	Theorems    []string `json:"theorems"`
}

// ItemChange is one changed source item.
type ItemChange struct {
	Item   string `json:"item"`
	Change string `json:"change"` // ItemAdded, ItemRemoved or ItemEdited
}

// The kinds of ItemChange.
const (
	ItemAdded   = "added"
	ItemRemoved = "removed"
	ItemEdited  = "edited"
)

// Empty reports whether no item changed (c may be nil).
func (c *Changes) Empty() bool { return c == nil || len(c.Items) == 0 }

// Lists of changed items and affected names longer than these are
// shortened in the text.
const (
	maxItemsShown = 10
	maxNamesShown = 6
)

// WriteText writes the changes as a short block, or nothing when no item
// changed:
//
//	Changed since the last run
//	  edited   automaton:Impl/action:Stage
//	  affects 3 obligations, 2 invariants, 1 edge, 2 theorems
//	    invariants: Impl.bufRange, Impl.emptyBuf
//	    …
func (c *Changes) WriteText(w io.Writer) error {
	if c.Empty() {
		return nil
	}
	var b strings.Builder
	b.WriteString("Changed since the last run\n")
	for i, it := range c.Items {
		if i == maxItemsShown {
			fmt.Fprintf(&b, "  … and %d more %s\n", len(c.Items)-i, plural(len(c.Items)-i, "item", "items"))
			break
		}
		fmt.Fprintf(&b, "  %-8s %s\n", it.Change, it.Item)
	}
	fmt.Fprintf(&b, "  affects %d %s, %d %s, %d %s, %d %s\n",
		len(c.Obligations), plural(len(c.Obligations), "obligation", "obligations"),
		len(c.Invariants), plural(len(c.Invariants), "invariant", "invariants"),
		len(c.Edges), plural(len(c.Edges), "edge", "edges"),
		len(c.Theorems), plural(len(c.Theorems), "theorem", "theorems"))
	for _, l := range []struct {
		label string
		names []string
	}{{"obligations", c.Obligations}, {"invariants", c.Invariants}, {"edges", c.Edges}, {"theorems", c.Theorems}} {
		if len(l.names) > 0 && len(l.names) <= maxNamesShown {
			fmt.Fprintf(&b, "    %s: %s\n", l.label, strings.Join(l.names, ", "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// OK reports whether the run succeeded: at least one obligation, all
// proved, and no errors.
func (p *Prove) OK() bool { return p.Summary.OK() && len(p.Errors) == 0 }

// Solver records the solver configuration of a run.
type Solver struct {
	Name    string `json:"name"`    // "z3"
	Version string `json:"version"` // e.g. "4.8.12"
	Params  string `json:"params"`  // canonical parameters: seed, rlimit, timeout, encoding
	Workers int    `json:"workers"` // size of the worker pool
	Cache   string `json:"cache"`   // the cache directory, or "" with --no-cache
}

// Obligation is the outcome of one obligation.
type Obligation struct {
	ID    string `json:"id"`            // stable name, e.g. "TMS2/invariant:beginIdxBound/DoRead"
	Group string `json:"group"`         // the invariant or edge it belongs to
	Pos   string `json:"pos,omitempty"` // file:line:col of the YAML it was generated from
	// Verdict is Proved, Refuted, Unknown or Trivial.
	Verdict string `json:"verdict"`
	// Seconds is the wall-clock time this run spent on the obligation
	// (printing, hashing, cache lookup, solving, replay); SolverSeconds is
	// the part spent inside the solver. Both are 0-ish for a reused result.
	Seconds       float64 `json:"seconds"`
	SolverSeconds float64 `json:"solver_seconds"`
	// Z3Seconds is the part spent in any call into Z3: creating and
	// deleting its context, parsing and asserting the problem, checking
	// (SolverSeconds), building a model, and checking the unsat core the
	// driver finds after an edit (a search that finds none is not
	// counted). The rest of Seconds is ladder's own.
	Z3Seconds float64 `json:"z3_seconds"`
	// RLimitUsed is the solver's resource count (deterministic for a
	// problem and configuration; for a reused verdict, the original one).
	RLimitUsed uint64 `json:"rlimit_used"`
	// Cached is set when the verdict was reused from the cache.
	Cached bool `json:"cached"`
	// Slice is n > 0 when the obligation was proved by its n-th slice, a
	// subset of its hypotheses (docs/prove.md, "Slices"); with Cached, the
	// cache held the proof of that slice, perhaps for an earlier text of
	// the obligation that differed only outside it.
	Slice int `json:"slice,omitempty"`
	// Counterexample is set for Refuted.
	Counterexample *Counterexample `json:"counterexample,omitempty"`
	// Reason explains Unknown: Z3's reason_unknown and the limits, or
	// "[internal] …" for a failure of ladder itself; for Trivial, it names
	// the assertion that is the constant false.
	Reason string `json:"reason,omitempty"`
	// Dump is the path of the .smt2 file written for an Unknown (or an
	// internal failure), or with --dump-smt.
	Dump string `json:"dump,omitempty"`
}

// Counterexample is a replayed counterexample, ready to print.
type Counterexample struct {
	// Text renders the counterexample in the language's notation, one
	// fact per line (parameters, pre-state, post-state, the failed goal).
	Text string `json:"text"`
	// Data is the structured form, when the generator provides one.
	Data json.RawMessage `json:"data,omitempty"`
}

// Invariant is the status of one invariant of an automaton.
type Invariant struct {
	Automaton string `json:"automaton"`
	Name      string `json:"name"`
	Group     string `json:"group"`  // the Group of its obligations
	Status    string `json:"status"` // Proved, Refuted, Unknown or NotChecked
	// Assumes are the other invariants its obligations assume ("A.p"); it
	// is proved only when they are.
	Assumes []string `json:"assumes,omitempty"`
}

// Edge is the status of one edge of the hierarchy.
type Edge struct {
	Name     string `json:"name"`     // the proof's name
	Concrete string `json:"concrete"` // automaton
	Abstract string `json:"abstract"` // automaton
	Kind     string `json:"kind"`     // refinement, simple-refinement, forward, backward, history
	Group    string `json:"group"`    // the Group of its obligations
	Status   string `json:"status"`   // Proved, Refuted, Unknown or NotChecked
	// Assumes are the invariants the edge assumes ("A.p"); it is
	// proved only when they are.
	Assumes []string `json:"assumes,omitempty"`
}

// Theorem is a result derived by a metatheorem.
type Theorem struct {
	Statement string   `json:"statement"` // e.g. "ReservationTMS2 implements TMS2"
	Rule      string   `json:"rule"`      // e.g. "transitivity"
	From      []string `json:"from"`      // the edges and theorems it was derived from
}

// Summary counts the obligations of a run.
type Summary struct {
	Obligations   int     `json:"obligations"`
	Proved        int     `json:"proved"`
	Refuted       int     `json:"refuted"`
	Unknown       int     `json:"unknown"`
	Trivial       int     `json:"trivial"`        // obligations decided without the solver: an assertion is the constant false
	Reused        int     `json:"reused"`         // solver verdicts taken from the cache
	Rechecked     int     `json:"rechecked"`      // obligations sent to the solver (Obligations = Trivial + Reused + Rechecked)
	Built         int     `json:"built"`          // obligations whose problems the run built and printed; the others were decided from their generation records
	Seconds       float64 `json:"seconds"`        // wall clock of the whole run
	SolverSeconds float64 `json:"solver_seconds"` // sum of the obligations' solver time
	Z3Seconds     float64 `json:"z3_seconds"`     // sum of the obligations' time in Z3 (Obligation.Z3Seconds)
}

// OK reports whether every obligation is discharged (proved or trivial)
// and there is at least one.
func (s Summary) OK() bool {
	return s.Obligations > 0 && s.Proved+s.Trivial == s.Obligations
}

// Summarize recomputes p.Summary's counts from p.Obligations. It leaves
// Seconds and Built alone.
func (p *Prove) Summarize() {
	s := Summary{Seconds: p.Summary.Seconds, Built: p.Summary.Built}
	for _, o := range p.Obligations {
		s.Obligations++
		switch o.Verdict {
		case Proved:
			s.Proved++
		case Trivial:
			s.Trivial++
		case Refuted:
			s.Refuted++
		default:
			s.Unknown++
		}
		switch {
		case o.Verdict == Trivial: // neither reused nor sent to the solver
		case o.Cached:
			s.Reused++
		default:
			s.Rechecked++
		}
		s.SolverSeconds += o.SolverSeconds
		s.Z3Seconds += o.Z3Seconds
	}
	p.Summary = s
}

// Sort puts every slice of p in its documented order.
func (p *Prove) Sort() {
	// The driver assembles the obligations in this order already.
	byGroup := func(a, b Obligation) int {
		if c := strings.Compare(a.Group, b.Group); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	if !slices.IsSortedFunc(p.Obligations, byGroup) {
		slices.SortStableFunc(p.Obligations, byGroup)
	}
	slices.SortStableFunc(p.Invariants, func(a, b Invariant) int {
		if c := strings.Compare(a.Automaton, b.Automaton); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortStableFunc(p.Edges, func(a, b Edge) int { return strings.Compare(a.Name, b.Name) })
	slices.SortStableFunc(p.Theorems, func(a, b Theorem) int { return strings.Compare(a.Statement, b.Statement) })
}

// TextOptions controls WriteText.
type TextOptions struct {
	// NoTimes leaves times out, for golden files.
	NoTimes bool
}

// WriteText writes the report for people: the obligations grouped by
// invariant and edge (one line each: name, verdict, time, "(cached)"), the
// refuted obligations' counterexamples in full, the unknown ones with their
// reasons, the derived theorems with their provenance, the errors, and the
// summary line, preceded by the changes since the last run when an item
// changed (Warnings are not repeated: they went to stderr as they
// happened)
//
//	N obligations: P proved, T trivial, R refuted, U unknown; reused X, re-checked Y; S s
func (p *Prove) WriteText(w io.Writer, opt TextOptions) error {
	var b strings.Builder
	status := map[string]string{}
	for _, inv := range p.Invariants {
		status[inv.Group] = inv.Status
	}
	for _, e := range p.Edges {
		status[e.Group] = e.Status
		if e.Status == Proved && len(e.Assumes) > 0 {
			status[e.Group] += ", assuming " + strings.Join(e.Assumes, ", ")
		}
	}
	// A group whose own obligations are all proved but which is not proved
	// fails through an assumption: say which. Not "unknown": nothing of its
	// own is in doubt.
	for g, not := range p.viaAssumption() {
		status[g] = "not proved (its obligations are proved, but " + not + ")"
	}
	width := 0
	for _, o := range p.Obligations {
		width = max(width, len([]rune(o.ID)))
	}
	group := "\x00"
	for _, o := range p.Obligations {
		if o.Group != group {
			group = o.Group
			if s := status[group]; s != "" {
				fmt.Fprintf(&b, "%s: %s\n", group, s)
			} else {
				fmt.Fprintf(&b, "%s\n", group)
			}
		}
		line := fmt.Sprintf("  %s%s  %-7s", o.ID, strings.Repeat(" ", width-len([]rune(o.ID))), o.Verdict)
		if !opt.NoTimes {
			line += fmt.Sprintf(" %7.3fs", o.Seconds)
		}
		if o.Cached {
			line += " (cached)"
		}
		if o.Verdict == Unknown && strings.HasPrefix(o.Reason, "[internal]") {
			line += " [internal]"
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}

	var refuted, unknown []Obligation
	for _, o := range p.Obligations {
		switch o.Verdict {
		case Refuted:
			refuted = append(refuted, o)
		case Unknown:
			unknown = append(unknown, o)
		}
	}
	if len(refuted) > 0 {
		b.WriteString("\nCounterexamples\n")
		for _, o := range refuted {
			fmt.Fprintf(&b, "\n%s", o.ID)
			if o.Pos != "" {
				fmt.Fprintf(&b, " (%s)", o.Pos)
			}
			b.WriteString(": refuted\n")
			if o.Counterexample != nil {
				writeIndented(&b, o.Counterexample.Text, "  ")
			}
		}
	}
	if files := repairable(p, refuted); len(files) > 0 {
		b.WriteString("\nA refuted forward simulation may lack a relation clause; ladder infer looks for one (docs/infer.md):\n")
		for _, f := range files {
			fmt.Fprintf(&b, "  ladder infer --proof %s\n", f)
		}
	}
	if len(unknown) > 0 {
		b.WriteString("\nUnknown\n")
		for _, o := range unknown {
			fmt.Fprintf(&b, "\n%s", o.ID)
			if o.Pos != "" {
				fmt.Fprintf(&b, " (%s)", o.Pos)
			}
			b.WriteString(": unknown\n")
			if o.Reason != "" {
				writeIndented(&b, o.Reason, "  ")
			}
			if o.Dump != "" {
				fmt.Fprintf(&b, "  query: %s\n", o.Dump)
			}
		}
	}
	if len(p.Theorems) > 0 {
		b.WriteString("\nTheorems\n")
		for _, t := range p.Theorems {
			fmt.Fprintf(&b, "  %s (%s: %s)\n", t.Statement, t.Rule, strings.Join(t.From, ", "))
		}
	}
	if len(p.Errors) > 0 {
		b.WriteString("\nErrors\n")
		for _, e := range p.Errors {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	if !p.Changes.Empty() {
		b.WriteByte('\n')
		p.Changes.WriteText(&b)
	}
	s := p.Summary
	fmt.Fprintf(&b, "\n%d obligations: %d proved, %d trivial, %d refuted, %d unknown; reused %d, re-checked %d",
		s.Obligations, s.Proved, s.Trivial, s.Refuted, s.Unknown, s.Reused, s.Rechecked)
	if !opt.NoTimes {
		fmt.Fprintf(&b, "; %.2f s", s.Seconds)
	}
	b.WriteByte('\n')
	if e, i := p.notChecked(); e+i > 0 {
		fmt.Fprintf(&b, "not checked: %d %s and %d %s, some of whose obligations or assumptions were not selected or not decided; no theorem rests on them\n",
			e, plural(e, "edge", "edges"), i, plural(i, "invariant", "invariants"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// repairable returns the proof files of the forward simulations with an
// obligation among refuted, in order, once each: the files of the
// obligations' positions (an edge's obligations blame its proof file).
func repairable(p *Prove, refuted []Obligation) []string {
	forward := map[string]bool{}
	for _, e := range p.Edges {
		if e.Kind == "forward" {
			forward[e.Group] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, o := range refuted {
		if !forward[o.Group] || o.Pos == "" {
			continue
		}
		file := posFile(o.Pos)
		if !seen[file] {
			seen[file] = true
			out = append(out, file)
		}
	}
	return out
}

// notChecked counts the edges and invariants whose status is NotChecked.
func (p *Prove) notChecked() (edges, invariants int) {
	for _, e := range p.Edges {
		if e.Status == NotChecked {
			edges++
		}
	}
	for _, inv := range p.Invariants {
		if inv.Status == NotChecked {
			invariants++
		}
	}
	return edges, invariants
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func writeIndented(b *strings.Builder, text, indent string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(indent)
		b.WriteString(line)
		b.WriteByte('\n')
	}
}

// viaAssumption returns, for each group of an invariant or edge that is
// refuted or unknown though every obligation of its own is discharged, what
// it assumes that is not proved: "it assumes Counter.notDone, which is
// refuted". An assumption is named with its status when this run has one,
// as not derived when it is an invariant assumed by transfer ("A satisfies
// X.P") and no such theorem was derived, as not proved in this run when it
// is an invariant of an automaton whose invariants the run did not prove.
func (p *Prove) viaAssumption() map[string]string {
	invStatus := map[string]string{} // "A.p" → status
	for _, inv := range p.Invariants {
		invStatus[inv.Automaton+"."+inv.Name] = inv.Status
	}
	derived := map[string]bool{}
	for _, t := range p.Theorems {
		derived[t.Statement] = true
	}
	failing := map[string]bool{}
	for _, o := range p.Obligations {
		if !Discharged(o.Verdict) {
			failing[o.Group] = true
		}
	}
	out := map[string]string{}
	explain := func(group, status string, assumes []string) {
		if status != Unknown && status != Refuted || failing[group] {
			return
		}
		var not []string
		for _, a := range assumes {
			st, ok := invStatus[a]
			switch {
			case ok && st != Proved:
				not = append(not, a+", which is "+st)
			case ok || derived[a]:
			case strings.Contains(a, " satisfies "):
				not = append(not, a+", which is not derived")
			default:
				not = append(not, a+", which is not proved in this run")
			}
		}
		if len(not) == 0 {
			out[group] = "an invariant it assumes is not proved"
			return
		}
		out[group] = "it assumes " + strings.Join(not, ", ")
	}
	for _, inv := range p.Invariants {
		explain(inv.Group, inv.Status, inv.Assumes)
	}
	for _, e := range p.Edges {
		explain(e.Group, e.Status, e.Assumes)
	}
	return out
}
