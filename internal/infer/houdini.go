// This file implements the rounds through the prover's own pipeline: the
// candidates are written as the `invariants:` section of the automaton's
// file (each assuming all of them), the file is loaded and its
// obligations generated and checked as `ladder prove` does
// (internal/driver, with its cache). finalize proves the set the search
// (search.go) kept, under the printed names, and drops what fails until
// every obligation is proved: only then is a candidate printed.

package infer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"ladder/internal/driver"
	"ladder/internal/kernel"
	"ladder/internal/source"
	"ladder/internal/theorems"
	"ladder/ioa/load"
	"ladder/simulation"
)

// session proves candidate sets of one automaton.
type session struct {
	path     string            // the automaton's file, absolute
	orig     []byte            // its text
	auto     string            // the automaton's name
	library  []string          // load.Config.Library
	overlays map[string][]byte // other files read with a replaced text (absolute paths)
	prover   *driver.Prover
	jobs     int  // the prover's workers (driver.Config.Jobs)
	param    bool // give quantified candidates the parametrized strategy
	cheap    bool // start the search with passes of cheap checks (settleCheap)
	progress func(string)
	phase    string

	// totals over every round
	obligations, proved, trivial, refuted, unknown, cached int
	solverSeconds                                          float64
	// the checks of the search (search.go)
	searchChecks int
}

// roundResult is the outcome of one round.
type roundResult struct {
	verdict map[*cand]theorems.Status // from the kernel's verdicts of its obligations; verdictInvalid: did not load or encode
	// nat lists the implicit Nat invariants that were not proved.
	nat []string
	// derived is the driver's derivation of the statuses (jointly, under
	// the assumptions) from the verdicts.
	derived *theorems.Derivation
	set     *load.Set
	in      *driver.Input
	// text is the automaton file as loaded.
	text []byte
}

// verdictInvalid marks a candidate whose text did not load or encode: a
// value no derived status takes.
const verdictInvalid theorems.Status = -1

// entry writes candidate c as an entry of `invariants:`, assuming all of
// names; with nil names the entry has no `assumes:` list, which assumes
// every invariant of the file (all the candidates) and keeps the text
// linear in their number.
func (s *session) entry(c *cand, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s:\n    body: |\n      %s\n", c.name, c.text)
	if names != nil {
		fmt.Fprintf(&b, "    assumes: [%s]\n", strings.Join(names, ", "))
	}
	if s.param && c.quantified() {
		b.WriteString("    strategy: [parametrized]\n")
	}
	return b.String()
}

// section returns the `invariants:` section holding cs, and the line
// ranges of the entries relative to its first line (1-based). With
// explicit set every entry lists the others in `assumes:`, as printed;
// otherwise it assumes them by default.
func (s *session) section(cs []*cand, explicit bool) (string, [][2]int) {
	var b strings.Builder
	b.WriteString("invariants:\n")
	line := 2
	ranges := make([][2]int, len(cs))
	for i, c := range cs {
		var names []string
		if explicit {
			names = assumeNames(c, cs)
		}
		ranges[i] = addEntry(&b, &line, s.entry(c, names))
	}
	return b.String(), ranges
}

// addEntry appends the entry e (whole lines) to b, whose next line is
// *line, and returns the entry's first and last lines.
func addEntry(b *strings.Builder, line *int, e string) [2]int {
	n := strings.Count(e, "\n")
	r := [2]int{*line, *line + n - 1}
	*line += n
	b.WriteString(e)
	return r
}

// assumeNames returns the names of the candidates of cs that c assumes,
// in the order of cs: c.assumes when all of them are in cs, else all of
// cs.
func assumeNames(c *cand, cs []*cand) []string {
	in := map[*cand]bool{}
	for _, x := range cs {
		in[x] = true
	}
	want := in
	if c.assumes != nil {
		want = map[*cand]bool{}
		for _, x := range c.assumes {
			if !in[x] {
				want = in
				break
			}
			want[x] = true
		}
	}
	var names []string
	for _, x := range cs {
		if want[x] {
			names = append(names, x.name)
		}
	}
	return names
}

// assumptions sets the assumes of every merged candidate: the merged
// candidates that hold a dependency of it or of one of its parts (deps,
// from the search), itself included; nil (all of them) when a dependency
// is unknown.
func assumptions(merged []*cand) {
	owner := map[*cand]*cand{}
	for _, m := range merged {
		owner[m] = m
		for _, p := range m.parts {
			owner[p] = m
		}
	}
	for _, m := range merged {
		parts := m.parts
		if parts == nil {
			parts = []*cand{m}
		}
		set := map[*cand]bool{m: true}
		known := true
		for _, p := range parts {
			known = known && p.deps != nil
			for _, d := range p.deps {
				o := owner[d]
				known = known && o != nil
				set[o] = true
			}
		}
		m.assumes = nil
		if !known {
			continue
		}
		for _, x := range merged {
			if set[x] {
				m.assumes = append(m.assumes, x)
			}
		}
	}
}

// replaceSection returns text with its top-level section key (the line
// `key:` at column 0 and the lines up to the next top-level key) removed
// and sec appended, and the line at which sec starts.
func replaceSection(text []byte, key string, sec string) ([]byte, int) {
	lines := strings.SplitAfter(string(text), "\n")
	var out []string
	skipping := false
	for _, l := range lines {
		top := len(l) > 0 && l[0] != ' ' && l[0] != '\t' && l[0] != '#' && l[0] != '\n' && l[0] != '\r'
		if top {
			k, _, ok := strings.Cut(l, ":")
			skipping = ok && strings.TrimSpace(k) == key
		}
		if !skipping {
			out = append(out, l)
		}
	}
	joined := strings.Join(out, "")
	if joined != "" && !strings.HasSuffix(joined, "\n") {
		joined += "\n"
	}
	start := strings.Count(joined, "\n") + 1
	return []byte(joined + sec), start
}

// say reports a step through progress, when set.
func (s *session) say(msg string) {
	if s.progress != nil {
		s.progress(msg)
	}
}

// overlaid returns the session's overlays with text as the automaton's
// file.
func (s *session) overlaid(text []byte) map[string][]byte {
	over := map[string][]byte{s.path: text}
	for k, v := range s.overlays {
		if k != s.path {
			over[k] = v
		}
	}
	return over
}

// loadConfig returns the loader configuration reading the overlays.
func loadConfig(library []string, over map[string][]byte) load.Config {
	return load.Config{
		Library: library,
		ReadDir: os.ReadDir,
		ReadFile: func(name string) ([]byte, error) {
			if abs, err := filepath.Abs(name); err == nil {
				if b, ok := over[abs]; ok {
					return b, nil
				}
			}
			return load.ReadFile(name)
		},
	}
}

// round proves the candidates cs (with names) together, each assuming
// all of them.
func (s *session) round(ctx context.Context, cs []*cand) (*roundResult, error) {
	sec, ranges := s.section(cs, true)
	text, start := replaceSection(s.orig, "invariants", sec)
	over := s.overlaid(text)
	res := &roundResult{verdict: map[*cand]theorems.Status{}, text: text}
	// blame maps errors in the written section to candidates.
	blame := func(errs source.ErrorList) error {
		return blameErrors(s.path, errs, start, ranges, func(i int) { res.verdict[cs[i]] = verdictInvalid })
	}
	set, errs := loadConfig(s.library, over).Files(s.path)
	if len(errs) > 0 {
		return res, blame(errs)
	}
	in, errs := driver.Generate(set)
	if len(errs) > 0 {
		return res, blame(errs)
	}
	res.set, res.in = set, in
	if len(in.Obligations) == 0 {
		return res, nil
	}
	if s.progress != nil {
		s.progress(fmt.Sprintf("%s: %d candidates, %d obligations", s.phase, len(cs), len(in.Obligations)))
	}
	byName := map[string]*cand{}
	for _, c := range cs {
		byName[c.name] = c
		res.verdict[c] = theorems.Proved
	}
	verdicts, err := s.prove(ctx, s.prover, in, in.Obligations, true)
	if err != nil {
		return nil, err
	}
	res.derived = derive(in, verdicts)
	nat := map[string]bool{}
	for _, o := range in.Obligations {
		name, ok := strings.CutPrefix(o.Invariant, "automaton:"+s.auto+"/invariant:")
		if !ok {
			continue
		}
		v, checked := verdicts[o.ID]
		st := theorems.FromVerdict(v, checked)
		c := byName[name]
		if c == nil {
			if st != theorems.Proved {
				nat[name] = true
			}
			continue
		}
		if checked && st != theorems.Proved && res.verdict[c] == theorems.Proved {
			res.verdict[c] = st
		}
	}
	for n := range nat {
		res.nat = append(res.nat, n)
	}
	sort.Strings(res.nat)
	return res, nil
}

// blameErrors calls bad with the index of every entry of the section
// written at line start of file path (ranges: the entries' lines,
// relative to start) that holds one of errs. It returns an error listing
// errs when none of them is in an entry: then the file is wrong, not a
// candidate.
func blameErrors(path string, errs source.ErrorList, start int, ranges [][2]int, bad func(int)) error {
	found := false
	var other []string
	for _, e := range errs {
		hit := false
		if abs, err := filepath.Abs(e.Pos.File); err == nil && abs == path {
			for i, r := range ranges {
				if e.Pos.Line >= start+r[0]-1 && e.Pos.Line <= start+r[1]-1 {
					bad(i)
					hit, found = true, true
				}
			}
		}
		if !hit {
			other = append(other, e.Error())
		}
	}
	if !found {
		return fmt.Errorf("%s", strings.Join(other, "\n"))
	}
	return nil
}

// HoudiniRound is the record of one round.
type HoudiniRound struct {
	Candidates int     `json:"candidates"`
	Refuted    int     `json:"refuted"`
	Unknown    int     `json:"unknown"`
	Invalid    int     `json:"invalid,omitempty"`
	Revived    int     `json:"revived,omitempty"` // reserve candidates that became candidates
	Widened    int     `json:"widened,omitempty"` // candidates proved again assuming all the others
	Cheap      bool    `json:"cheap,omitempty"`   // a search pass of cheap checks only (settleCheap)
	Seconds    float64 `json:"seconds"`
}

// tally counts a candidate's verdict in the round and reports whether it
// was proved.
func (hr *HoudiniRound) tally(v theorems.Status) bool {
	switch v {
	case theorems.Proved:
		return true
	case theorems.Refuted:
		hr.Refuted++
	case verdictInvalid:
		hr.Invalid++
	default:
		hr.Unknown++
	}
	return false
}

// revive makes alive every reserve candidate whose implicants are all
// dropped, to a fixpoint, and returns how many it revived.
func revive(pool []*cand) int {
	n := 0
	for changed := true; changed; {
		changed = false
		for _, c := range pool {
			if c.state != stReserve {
				continue
			}
			all := true
			for _, x := range c.impliedBy {
				all = all && x.state == stDropped
			}
			if all {
				c.state = stAlive
				changed = true
				n++
			}
		}
	}
	return n
}

// finalize proves the merged candidates under their output names; a
// merged candidate that fails is replaced by its parts, and a plain one
// is dropped, until a round proves all. It returns the proved set and the
// last round.
func (s *session) finalize(ctx context.Context, cs []*cand, name func(int) string) ([]*cand, *roundResult, []HoudiniRound, error) {
	next := 0
	for _, c := range cs {
		c.name = name(next)
		next++
	}
	var rounds []HoudiniRound
	for r := 1; ; r++ {
		if len(cs) == 0 {
			return nil, nil, rounds, nil
		}
		s.phase = fmt.Sprintf("final round %d", r)
		t := time.Now()
		res, err := s.round(ctx, cs)
		if err != nil {
			return nil, nil, rounds, err
		}
		hr := HoudiniRound{Candidates: len(cs)}
		var keep []*cand
		failed := false
		for _, c := range cs {
			if c.assumes != nil && res.verdict[c] != theorems.Proved && res.verdict[c] != verdictInvalid {
				// Not proved from the hypotheses the search found it to
				// need: try it again assuming all the others.
				c.assumes = nil
				hr.Widened++
				keep = append(keep, c)
				failed = true
				continue
			}
			if hr.tally(res.verdict[c]) {
				keep = append(keep, c)
				continue
			}
			failed = true
			for _, p := range c.parts {
				p.name = name(next)
				next++
				keep = append(keep, p)
				hr.Revived++
			}
		}
		hr.Seconds = time.Since(t).Seconds()
		rounds = append(rounds, hr)
		if !failed {
			return cs, res, rounds, nil
		}
		cs = keep
	}
}

// chunk is the number of obligations handed to the prover at once: the
// prover keeps every job's printed query until its run ends, and an
// obligation with all the candidates as hypotheses is large.
const chunk = 100

// prove checks obs (obligations of in) with prover pr, chunk by chunk,
// releasing each chunk's problems once checked when release is set, and
// returns the kernel's verdicts by obligation ID; with an error, those of
// the chunks checked before it.
func (s *session) prove(ctx context.Context, pr *driver.Prover, in *driver.Input, obs []*simulation.Obligation, release bool) (theorems.Verdicts, error) {
	verdicts := theorems.Verdicts{}
	for i := 0; i < len(obs); i += chunk {
		j := min(i+chunk, len(obs))
		part := &driver.Input{Automata: in.Automata, Obligations: obs[i:j], Files: in.Files}
		rep, err := pr.Prove(ctx, part)
		if err != nil {
			// the verdicts of the chunks before: compare uses them
			return verdicts, err
		}
		for id, v := range part.Verdicts() {
			verdicts[id] = v
			s.obligations++
			switch v {
			case kernel.Trivial:
				s.trivial++
			case kernel.Proved:
				s.proved++
			case kernel.Refuted:
				s.refuted++
			default:
				s.unknown++
			}
		}
		for _, o := range rep.Obligations {
			if o.Cached {
				s.cached++
			}
			s.solverSeconds += o.SolverSeconds
		}
		if release {
			for _, o := range obs[i:j] {
				o.Problem, o.Replay = nil, nil
			}
		}
	}
	return verdicts, nil
}

// derive is the theorems phase over every obligation of in.
func derive(in *driver.Input, verdicts theorems.Verdicts) *theorems.Derivation {
	return theorems.Derive(simulation.TheoremInput(in.Obligations, in.Edges), verdicts)
}

// statusOf returns the status derived for invariant name of automaton auto.
func statusOf(d *theorems.Derivation, auto, name string) string {
	if d == nil {
		return ""
	}
	st, ok := d.Invariants["automaton:"+auto+"/invariant:"+name]
	if !ok {
		return ""
	}
	return st.String()
}
