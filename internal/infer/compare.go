// This file implements Options.Compare: each invariant written in the
// automaton's file is proved with the inferred invariants as its only
// assumptions, which says how much of a hand-written proof the inferred
// set recovers.

package infer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"ladder/internal/driver"
	"ladder/internal/kernel"
	"ladder/internal/report"
	"ladder/internal/theorems"
	"ladder/ioa"
	"ladder/ioa/expr"
	"ladder/simulation"
)

// Compared is an invariant of the automaton's file, proved (or not) with
// the inferred invariants as its only assumptions.
type Compared struct {
	Name string `json:"name"`
	// Status is the status the prover derived for it ("proved",
	// "refuted", "unknown", ...; "invalid" when its text, printed back,
	// does not load).
	Status string `json:"status"`
	// Strategy is the strategy of the attempt reported: the parametrized
	// strategy for a quantified invariant is tried first, then none.
	Strategy []string `json:"strategy,omitempty"`
}

// notChecked is the status of an invariant whose comparison the time
// limit cut short.
const notChecked = "not checked (time limit)"

// given is a hand-written invariant as compare writes it, and what
// compare found.
type given struct {
	Compared
	body    string
	indexed bool // forall over parameter sorts: the parametrized strategy applies
}

// givenOf returns the invariants written in a's file: its invariants
// without the implicit ones.
func givenOf(a *ioa.Automaton) []*given {
	var out []*given
	for _, inv := range a.Invariants {
		if strings.Contains(inv.Name, ":") {
			continue
		}
		_, why := ioa.ParametrizedBinders(inv.Body)
		out = append(out, &given{Compared: Compared{Name: inv.Name}, body: expr.Print(inv.Body), indexed: why == ""})
	}
	return out
}

// compare proves each of gs with the invariants of res as its only
// assumptions, under a name that no inferred invariant has, and returns
// what it found in the order of gs. When ctx reaches its time limit
// (errTimeLimit) the invariants it was proving are notChecked. A quantified invariant is tried with
// the parametrized strategy first (when Options.NoParametrized is not
// set), and with none when that does not prove it.
func (s *session) compare(ctx context.Context, res *Result, gs []*given) ([]Compared, error) {
	var names []string
	taken := map[string]bool{}
	for _, inv := range res.Invariants {
		names = append(names, inv.Name)
		taken[inv.Name] = true
	}
	label := func(g *given) string {
		n := "given_" + g.Name
		for taken[n] {
			n += "_"
		}
		return n
	}
	section := res.section
	if section == "" {
		section = "invariants:\n"
	}
	todo := gs
	var carry []*given // refuted in this attempt, for the next one
	for attempt := 0; attempt < 2 && len(todo) > 0; {
		param := func(g *given) bool { return attempt == 0 && g.indexed && s.param }
		// found sets g's status, and its strategy in this attempt.
		found := func(g *given, st string) {
			g.Status, g.Strategy = st, nil
			if param(g) {
				g.Strategy = []string{"parametrized"}
			}
		}
		in, bad, err := s.givenInput(todo, section, names, label, param)
		if err != nil {
			return nil, err
		}
		if len(bad) > 0 {
			// Again without the entries that do not load.
			var keep []*given
			for _, g := range todo {
				if bad[g] {
					g.Status = "invalid"
				} else {
					keep = append(keep, g)
				}
			}
			todo = keep
			continue
		}
		s.say(fmt.Sprintf("compare: %d invariants of the file, %d obligations", len(todo), len(in.Obligations)))
		verdicts, err := s.proveGiven(ctx, in, todo, label)
		cut := err != nil && errors.Is(context.Cause(ctx), errTimeLimit)
		if err != nil && !cut {
			return nil, err
		}
		d := derive(in, verdicts)
		if cut {
			// Out of time: an invariant with an obligation not checked is
			// not checked, unless it is already refuted.
			open := map[string]bool{}
			for _, o := range in.Obligations {
				if _, ok := verdicts[o.ID]; !ok {
					open[o.Invariant] = true
				}
			}
			for _, g := range todo {
				switch st := statusOf(d, s.auto, label(g)); {
				case st == report.Refuted || !open["automaton:"+s.auto+"/invariant:"+label(g)]:
					found(g, st)
				case attempt == 0:
					g.Status = notChecked
				}
			}
			break
		}
		// The implicit Nat conditions assume every invariant of the file,
		// the refuted ones included, and every invariant assumes them:
		// with one refuted, the others that are not refuted are not
		// proved either. They are checked again without the refuted ones
		// (their obligations' texts are the same, and cached).
		status := make([]string, len(todo))
		var again []*given // not refuted
		open := false      // one of them not proved either
		for i, g := range todo {
			status[i] = statusOf(d, s.auto, label(g))
			if status[i] != report.Refuted {
				again = append(again, g)
				open = open || status[i] != report.Proved
			}
		}
		if open && len(again) < len(todo) {
			for i, g := range todo {
				if status[i] == report.Refuted {
					found(g, report.Refuted)
					if param(g) {
						carry = append(carry, g)
					}
				}
			}
			todo = again
			continue
		}
		next := carry
		carry = nil
		for i, g := range todo {
			found(g, status[i])
			if g.Status != report.Proved && param(g) {
				next = append(next, g)
			}
		}
		todo = next
		attempt++
	}
	out := make([]Compared, len(gs))
	for i, g := range gs {
		out[i] = g.Compared
	}
	return out, nil
}

// proveGiven proves the obligations of in: those of the inferred set
// (from the cache of their final proof), then those of gs (named by label)
// a few of each invariant at a time, and no more of an invariant once one
// of its obligations is refuted: a refuted obligation makes its invariant
// refuted whatever the others' verdicts (theorems.InvariantStatus), so the
// statuses are those a proof of every obligation gives. It returns the
// verdicts, and with an error those found before it.
func (s *session) proveGiven(ctx context.Context, in *driver.Input, gs []*given, label func(*given) string) (theorems.Verdicts, error) {
	mine := map[string][]*simulation.Obligation{}
	for _, g := range gs {
		mine["automaton:"+s.auto+"/invariant:"+label(g)] = nil
	}
	var theirs []*simulation.Obligation
	for _, o := range in.Obligations {
		if _, ok := mine[o.Invariant]; ok {
			mine[o.Invariant] = append(mine[o.Invariant], o)
		} else {
			theirs = append(theirs, o)
		}
	}
	verdicts, err := s.prove(ctx, s.prover, in, theirs, true)
	if err != nil {
		return verdicts, err
	}
	// Rounds of up to batch obligations of every open invariant, so
	// that the workers stay busy while the invariants stop one by one.
	batch := max(1, s.jobs)
	open := slices.Sorted(maps.Keys(mine))
	for len(open) > 0 {
		var obs []*simulation.Obligation
		for _, k := range open {
			n := min(batch, len(mine[k]))
			obs = append(obs, mine[k][:n]...)
			mine[k] = mine[k][n:]
		}
		vs, err := s.prove(ctx, s.prover, in, obs, true)
		for id, v := range vs {
			verdicts[id] = v
		}
		if err != nil {
			return verdicts, err
		}
		refuted := map[string]bool{}
		for _, o := range obs {
			if verdicts[o.ID] == kernel.Refuted {
				refuted[o.Invariant] = true
			}
		}
		open = slices.DeleteFunc(open, func(k string) bool { return refuted[k] || len(mine[k]) == 0 })
	}
	return verdicts, nil
}

// givenInput loads the automaton's file with its invariants section
// replaced by section and an entry for each of gs (named by label,
// assuming names, with the parametrized strategy where param says), and
// generates its obligations. When entries do not load it returns them
// instead, and no input.
func (s *session) givenInput(gs []*given, section string, names []string, label func(*given) string, param func(*given) bool) (*driver.Input, map[*given]bool, error) {
	var b strings.Builder
	b.WriteString(section)
	line := strings.Count(section, "\n") + 1
	ranges := make([][2]int, len(gs))
	for i, g := range gs {
		e := fmt.Sprintf("  %s:\n    body: |\n      %s\n    assumes: [%s]\n", label(g),
			strings.ReplaceAll(g.body, "\n", "\n      "), strings.Join(names, ", "))
		if param(g) {
			e += "    strategy: [parametrized]\n"
		}
		ranges[i] = addEntry(&b, &line, e)
	}
	text, start := replaceSection(s.orig, "invariants", b.String())
	set, errs := loadConfig(s.library, s.overlaid(text)).Files(s.path)
	var in *driver.Input
	if len(errs) == 0 {
		in, errs = driver.Generate(set)
	}
	if len(errs) == 0 {
		return in, nil, nil
	}
	bad := map[*given]bool{}
	if err := blameErrors(s.path, errs, start, ranges, func(i int) { bad[gs[i]] = true }); err != nil {
		return nil, nil, err
	}
	return nil, bad, nil
}
