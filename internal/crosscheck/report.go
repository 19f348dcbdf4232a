// This file implements the text output of cross-check results.

package crosscheck

import (
	"fmt"
	"io"
	"strings"

	"ladder/internal/explore"
	"ladder/internal/safeio"
)

// errWriter writes until the first error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// WriteText writes the result: what was explored, the case counts, and
// the failure if any, with its execution and states.
func (r *Result) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	inst := r.Instance
	if inst == "" {
		inst = "no parameters"
	}
	ew.printf("%s (%s, proof %s) in %s\n", r.Edge, r.Kind, r.Proof, inst)
	ew.printf("explored %s: %d found, %d steps checked", r.Explored, r.States, r.Transitions)
	if r.Checks != r.Transitions {
		ew.printf(" (%d checks)", r.Checks)
	}
	ew.printf(", depth %d", r.MaxDepth)
	if r.AbstractStates > 0 {
		ew.printf(", %d candidate abstract states", r.AbstractStates)
	}
	ew.printf(", %.3fs\n", r.Elapsed)
	if r.Symmetry != nil {
		ew.printf("symmetry: %s; the nodes counted are orbit representatives\n", r.Symmetry)
		for _, s := range r.Symmetry.Sorts {
			if s.Why != "" {
				ew.printf("  %s fixed: %s\n", strings.Join(s.Fixed, ", "), s.Why)
			}
		}
	}
	describeDead(ew, r)
	writeCases(ew, r.Cases, r.Failure == nil)
	for _, n := range r.Notes {
		ew.printf("note: %s\n", n)
	}
	switch {
	case r.Failure != nil:
		if ew.err == nil {
			ew.err = r.Failure.WriteText(w)
		}
	case r.Exhausted:
		ew.printf("INCOMPLETE: stopped at the %s after %d states, depth %d, %.1fs, peak memory %s; every step checked holds\n",
			r.Limit, r.States, r.MaxDepth, r.Elapsed, safeio.FormatBytes(r.PeakMemoryBytes))
	case r.Limit != "":
		ew.printf("INCOMPLETE: stopped at the %s; every step checked holds\n", r.Limit)
	default:
		ew.printf("OK: every obligation holds at every reachable state and step of the instance\n")
	}
	return ew.err
}

// writeCases prints the counts of the actions with several cases, and the
// cases no checked step took.
func writeCases(ew *errWriter, cases []CaseCount, untestedToo bool) {
	var multi, untested []string
	for i := 0; i < len(cases); {
		j := i
		var parts []string
		for j < len(cases) && cases[j].Action == cases[i].Action {
			parts = append(parts, fmt.Sprintf("case %d: %d", cases[j].Case, cases[j].Taken))
			if cases[j].Taken == 0 {
				if cases[j].Of > 1 {
					untested = append(untested, fmt.Sprintf("%s case %d", cases[j].Action, cases[j].Case))
				} else {
					untested = append(untested, cases[j].Action)
				}
			}
			j++
		}
		if j-i > 1 {
			multi = append(multi, cases[i].Action+" "+strings.Join(parts, ", "))
		}
		i = j
	}
	if len(multi) > 0 {
		ew.printf("cases taken: %s\n", strings.Join(multi, "; "))
	}
	if len(untested) > 0 && untestedToo {
		ew.printf("not exercised (no checked step took them): %s\n", strings.Join(untested, ", "))
	}
}

// WriteText writes the failure: the obligation and what fails, a shortest
// execution to it, the abstract steps and the states of the failing check.
func (f *Failure) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("FAILED: %s\n", f.Obligation)
	ew.printf("  %s\n", f.Message)
	for _, d := range f.Details {
		ew.printf("    %s\n", d)
	}
	if f.Trace != nil {
		what := "a shortest execution of " + f.Trace.Automaton
		switch {
		case f.Step != "" && f.Trace.Len() > 0 && f.Trace.Steps[len(f.Trace.Steps)-1].Action == f.Step:
			what += "; its last step is the failing step"
		case f.Step != "":
			what += " to the state of the failing step " + f.Step
		}
		ew.printf("%s:\n", what)
		writeTrace(ew, f.Trace, f.Abstract)
	}
	if f.Step != "" {
		ew.printf("failing step: %s", f.Step)
		if f.Case > 0 {
			ew.printf(", case %d of %d", f.Case, f.Cases)
		}
		ew.printf("\n")
	}
	switch {
	case len(f.Steps) > 0:
		ew.printf("abstract steps: %s\n", strings.Join(f.Steps, ", "))
	case f.Steps != nil:
		ew.printf("abstract steps: none (a stutter)\n")
	}
	for _, s := range f.States {
		if s.Base != "" && (len(s.Vars) < len(s.Value) || len(s.Value) == 0) {
			// a difference from Base that leaves some variable out
			ew.printf("  %s (otherwise as %s):\n", s.Name, s.Base)
		} else {
			ew.printf("  %s:\n", s.Name)
		}
		if len(s.Vars) == 0 {
			ew.printf("       (no change)\n")
		}
		for _, v := range s.Vars {
			ew.printf("       %s = %s\n", v.Name, v.Value)
		}
	}
	return ew.err
}

// writeTrace writes a trace as package explore does, with the abstract
// steps matched to each step when given.
func writeTrace(ew *errWriter, t *explore.Trace, matched []MatchedStep) {
	if len(t.Steps) == 0 {
		ew.printf("  (no start state)\n")
		return
	}
	for i, st := range t.Steps {
		if ew.err == nil {
			ew.err = st.WriteText(ew.w, i)
		}
		if i < len(matched) {
			m := matched[i]
			switch {
			case i == 0:
				ew.printf("     abstract start a₀:\n")
			case len(m.Steps) == 0:
				ew.printf("     abstract: no step (case %d)\n", m.Case)
			default:
				ew.printf("     abstract: %s (case %d)\n", strings.Join(m.Steps, ", "), m.Case)
			}
			if i > 0 && len(m.State.Vars) == 0 && len(m.Steps) > 0 {
				ew.printf("       (no change)\n")
			}
			for _, v := range m.State.Vars {
				ew.printf("       a.%s = %s\n", v.Name, v.Value)
			}
		}
	}
}
