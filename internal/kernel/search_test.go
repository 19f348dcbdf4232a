package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"ladder/internal/counterexample"
	"ladder/internal/logic"
	"ladder/internal/proposal"
	"ladder/internal/refute"
	"ladder/internal/smt"
	"ladder/internal/source"
)

// flowSolver scripts the kernel's procedure: full answers the checks of
// the problem's text (by resource limit), bounded the API checks of
// bounded problems (by the size of T).
type flowSolver struct {
	full   map[uint64]answer
	plain  map[uint64]answer // the checks in the plain solver (Config.plain)
	sliced map[uint64]answer // the checks of a slice of tProblem (one assertion)
	// goalSliced, when set, answers instead the checks of the slice
	// that keeps the goal alone
	goalSliced map[uint64]answer

	bounded  map[int]answer
	log      *[]string
	universe int // > 0: the universe of T in a model of the problem's text

	coreAnswer answer // the tracked check of Session.Core
	coreIdx    []int  // its core, as indices into the problem checked
	// used is the core of the procedure's tracked checks (Config.track),
	// which are otherwise answered and logged as check does, unless
	// tracked is set: their answer then
	used    []int
	tracked *answer
}

func (f *flowSolver) core(p *logic.Problem, text string, cfg Config) (answer, []int, error) {
	if cfg.track && f.tracked != nil {
		*f.log = append(*f.log, "tracked "+itoa(cfg.RLimit))
		return *f.tracked, nil, nil
	}
	if cfg.track {
		a, err := f.check(p, text, cfg)
		if a.status != statusUnsat {
			return a, nil, err
		}
		return a, f.used, err
	}
	how := "core "
	if cfg.plain {
		how = "plain core "
	}
	*f.log = append(*f.log, how+itoa(cfg.RLimit)+" of "+itoa(uint64(len(p.Assertions))))
	return f.coreAnswer, f.coreIdx, nil
}

func (f *flowSolver) check(p *logic.Problem, _ string, cfg Config) (answer, error) {
	a := f.full[cfg.RLimit]
	if len(p.Assertions) == 1 {
		how := "slice "
		if cfg.plain {
			how = "plain slice "
		}
		*f.log = append(*f.log, how+itoa(cfg.RLimit))
		a = f.sliced[cfg.RLimit]
		if f.goalSliced != nil && p.Assertions[0].Name == "goal" {
			a = f.goalSliced[cfg.RLimit]
		}
	} else if cfg.plain {
		*f.log = append(*f.log, "plain "+itoa(cfg.RLimit))
		a = f.plain[cfg.RLimit]
	} else {
		*f.log = append(*f.log, "check "+itoa(cfg.RLimit))
	}
	if a.status == statusSat {
		a.model = noModel{}
		if f.universe > 0 {
			a.model = sizedModel{f.universe}
		}
	}
	return a, nil
}

func (f *flowSolver) model(p *logic.Problem, cfg Config) (answer, error) {
	sig, err := p.Signature()
	if err != nil {
		return answer{}, err
	}
	size := 0
	for _, dt := range sig.Datatypes {
		if dt.Name() == "bound!T" {
			size = dt.NumConstructors()
		}
	}
	*f.log = append(*f.log, "bounded T="+itoa(uint64(size)))
	a := f.bounded[size]
	if a.status == statusSat {
		a.model = noModel{}
	}
	return a, nil
}

func (f *flowSolver) close() {}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// noModel is a model in which nothing can be evaluated.
type noModel struct{}

func (noModel) Universe(*logic.Sort) ([]*logic.Term, error) { return nil, nil }
func (noModel) Eval(*logic.Term) (*logic.Term, error)       { return nil, errors.New("no model") }

// sizedModel is a model in which T has n elements and nothing can be
// evaluated.
type sizedModel struct{ n int }

func (m sizedModel) Universe(*logic.Sort) ([]*logic.Term, error) {
	u := make([]*logic.Term, m.n)
	for i := range u {
		u[i] = logic.Const("T!"+strconv.Itoa(i), sortT)
	}
	return u, nil
}
func (sizedModel) Eval(*logic.Term) (*logic.Term, error) { return nil, errors.New("no model") }

// sortT is the parameter sort of tProblem.
var sortT = logic.UninterpretedSort("T")

// tProblem is a problem over the sort T.
func tProblem() *logic.Problem {
	x := logic.Var("x", sortT)
	p := logic.Const("p", logic.ArraySort(sortT, logic.BoolSort()))
	return &logic.Problem{Assertions: []logic.Named{
		{Name: "hyp", Term: logic.Forall([]*logic.Term{x}, logic.Select(p, x))},
		{Name: "goal", Term: logic.Not(logic.Select(p, logic.Const("c", sortT)))},
	}}
}

func TestSearchProcedure(t *testing.T) {
	unknown := answer{status: statusUnknown, reason: "incomplete quantifiers", rlimit: 10}
	unsat := answer{status: statusUnsat, rlimit: 1}
	sat := answer{status: statusSat, rlimit: 2}
	good := func(logic.Model) (*counterexample.Counterexample, error) {
		return &counterexample.Counterexample{Obligation: "o", Goal: "invariant: p(s')"}, nil
	}
	bad := func(logic.Model) (*counterexample.Counterexample, error) { return nil, errors.New("goal holds") }
	tests := []struct {
		name       string
		cfg        Config
		full       map[uint64]answer
		plain      map[uint64]answer
		sliced     map[uint64]answer
		slices     [][]int           // the obligation's slices; nil: none
		goalSliced map[uint64]answer // see flowSolver
		slice      int               // the slice that proves it
		first      *Attempt          // Obligation.First
		bounded    map[int]answer
		replay     replayer
		verdict    Verdict
		internal   bool
		reason     string // substring
		text       string // substring of the counterexample
		log        string
	}{
		{name: "proved first", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unsat}, replay: good, verdict: Proved, log: "plain 100"},
		{name: "refuted in T=2", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unknown}, bounded: map[int]answer{1: unsat, 2: sat}, replay: good,
			verdict: Refuted, text: "found in the bounded instance T=2",
			log: "plain 100, plain 100, check 1000, bounded T=1, bounded T=2"},
		{name: "proved by the default solver", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 1000"},
		{name: "the plain solver's sat is left to the default solver", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: sat}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain 100, check 1000"},
		{name: "bounded unsat is not a proof", cfg: Config{RLimit: 100, FirstRLimit: 100},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{100: unknown}, bounded: map[int]answer{1: unsat, 2: unsat, 3: unsat}, replay: good,
			verdict: Unknown, reason: "z3: incomplete quantifiers (rlimit 100, timeout 2m0s, seed 0); bounded search: no counterexample in 3 of 3 instances (none with T<=3)",
			log: "plain 100, plain 100, check 100, bounded T=1, bounded T=2, bounded T=3"},
		{name: "full check before the search", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unsat}, bounded: map[int]answer{1: unsat, 2: unknown, 3: unsat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 1000"},
		{name: "unknown after all", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unknown}, bounded: map[int]answer{1: unsat, 2: unknown, 3: unsat}, replay: good,
			verdict: Unknown, reason: "(rlimit 1000, timeout 2m0s, seed 0); bounded search: no counterexample in 2 of 3 instances; unknown in T=2",
			log: "plain 100, plain 100, check 1000, bounded T=1, bounded T=2, bounded T=3, plain 1000"},
		{name: "budget", cfg: Config{FirstRLimit: 100, RLimit: 100, Search: SearchConfig{Budget: 10}},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{100: unknown}, bounded: map[int]answer{1: unknown}, replay: good,
			verdict: Unknown, reason: "no counterexample in 0 of 3 instances; unknown in T=1; 2 not checked (search budget spent)",
			log: "plain 100, plain 100, check 100, bounded T=1"},
		{name: "bounded model does not replay", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unknown}, bounded: map[int]answer{1: sat}, replay: bad,
			verdict: Unknown, internal: true, reason: "[internal] solver model does not replay: goal holds (a model of the bounded instance T=1)",
			log: "plain 100, plain 100, check 1000, bounded T=1"},
		{name: "search off", cfg: Config{FirstRLimit: 100, RLimit: 1000, Search: SearchConfig{Off: true}},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unknown}, replay: good, verdict: Unknown, reason: "z3: incomplete quantifiers (rlimit 1000",
			log: "plain 100, plain 100, check 1000, plain 1000"},
		{name: "proved by the plain solver's retry", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown, 1000: unsat}, full: map[uint64]answer{1000: unknown}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 1000, bounded T=1, bounded T=2, bounded T=3, plain 1000"},
		{name: "proved by the slice in the plain solver", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, sliced: map[uint64]answer{100: unsat}, replay: good,
			verdict: Proved, slice: 1, log: "plain slice 100"},
		{name: "proved by the slice", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{1}}, sliced: map[uint64]answer{500: unsat}, replay: good,
			verdict: Proved, slice: 1, log: "plain slice 100, plain 100, plain 100, slice 500"},
		{name: "the slice's sat is no counterexample", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{1}}, sliced: map[uint64]answer{100: sat, 500: sat}, full: map[uint64]answer{1000: unsat}, replay: bad,
			verdict: Proved, log: "plain slice 100, plain 100, plain 100, check 1000"},
		{name: "the second slice proves it", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{0}, {1}}, sliced: map[uint64]answer{500: unknown}, goalSliced: map[uint64]answer{500: unsat}, replay: good,
			verdict: Proved, slice: 2, log: "plain slice 100, plain 100, plain 100, slice 500, slice 500"},
		{name: "a slice that is not a proper subset", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{0, 1}}, replay: good,
			verdict: Unknown, internal: true, reason: "not a proper subset", log: ""},
		{name: "no slice check in the default solver without a larger limit", cfg: Config{FirstRLimit: 100, SliceRLimit: 100, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{1}}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain slice 100, plain 100, plain 100, check 1000"},
		{name: "no slices", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000, NoSlices: true},
			plain: map[uint64]answer{100: unknown}, slices: [][]int{{1}}, sliced: map[uint64]answer{100: unsat, 500: unsat}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 1000"},
		{name: "the prior attempt first", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{0}, {1}}, first: &Attempt{Slice: 2, Solver: SolverDefault, RLimit: 50}, goalSliced: map[uint64]answer{200: unsat}, replay: good,
			verdict: Proved, slice: 2, log: "slice 200"},
		{name: "the prior attempt in the plain solver", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			first: &Attempt{Solver: SolverPlain, RLimit: 30}, plain: map[uint64]answer{120: unsat}, replay: good,
			verdict: Proved, log: "plain 120"},
		{name: "the prior attempt at the step's limit", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			first: &Attempt{Solver: SolverDefault, RLimit: 900}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "check 1000"},
		{name: "a failed prior attempt", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			first: &Attempt{Solver: SolverDefault, RLimit: 1000}, full: map[uint64]answer{1000: unknown}, plain: map[uint64]answer{100: unsat}, replay: good,
			verdict: Proved, log: "check 1000, plain 100"},
		{name: "the prior attempt's sat is no counterexample", cfg: Config{FirstRLimit: 100, RLimit: 1000},
			first: &Attempt{Solver: SolverDefault}, full: map[uint64]answer{1000: sat}, plain: map[uint64]answer{100: unknown}, replay: good,
			verdict: Refuted, log: "check 1000, plain 100, plain 100, check 1000"},
		{name: "a prior slice the obligation no longer has", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, first: &Attempt{Slice: 2, Solver: SolverDefault}, sliced: map[uint64]answer{100: unsat}, replay: good,
			verdict: Proved, slice: 1, log: "plain slice 100"},
		{name: "a prior slice with slices off", cfg: Config{FirstRLimit: 100, SliceRLimit: 500, RLimit: 1000, NoSlices: true},
			slices: [][]int{{1}}, first: &Attempt{Slice: 1, Solver: SolverDefault}, sliced: map[uint64]answer{500: unsat}, plain: map[uint64]answer{100: unsat}, replay: good,
			verdict: Proved, log: "plain 100"},
		{name: "staged: proved before the search", cfg: Config{FirstRLimit: 100, PreSearchRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{500: unsat}, bounded: map[int]answer{1: sat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 500"},
		{name: "staged: refuted by the search without the full limit", cfg: Config{FirstRLimit: 100, PreSearchRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{500: unknown, 1000: unsat}, bounded: map[int]answer{1: unsat, 2: sat}, replay: good,
			verdict: Refuted, text: "found in the bounded instance T=2",
			log: "plain 100, plain 100, check 500, bounded T=1, bounded T=2"},
		{name: "staged: proved with the full limit after the search", cfg: Config{FirstRLimit: 100, PreSearchRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{500: unknown, 1000: unsat}, bounded: map[int]answer{1: unsat, 2: unsat, 3: unsat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 500, bounded T=1, bounded T=2, bounded T=3, check 1000"},
		{name: "staged: unknown after all", cfg: Config{FirstRLimit: 100, PreSearchRLimit: 500, RLimit: 1000},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{500: unknown, 1000: unknown}, bounded: map[int]answer{1: unsat, 2: unsat, 3: unsat}, replay: good,
			verdict: Unknown, reason: "z3: incomplete quantifiers (rlimit 1000, timeout 2m0s, seed 0); bounded search: no counterexample in 3 of 3 instances",
			log: "plain 100, plain 100, check 500, bounded T=1, bounded T=2, bounded T=3, check 1000, plain 1000"},
		{name: "staged: not without the search", cfg: Config{FirstRLimit: 100, PreSearchRLimit: 500, RLimit: 1000, Search: SearchConfig{Off: true}},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{500: unknown, 1000: unsat}, replay: good,
			verdict: Proved, log: "plain 100, plain 100, check 1000"},
		{name: "short round: the slice", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, sliced: map[uint64]answer{300: unsat}, replay: good,
			verdict: Proved, slice: 1, log: "plain slice 100, plain 100, slice 300"},
		{name: "short round: the whole problem", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, full: map[uint64]answer{300: unsat}, replay: good,
			verdict: Proved, log: "plain slice 100, plain 100, slice 300, check 300"},
		{name: "short round: then the larger limits", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain slice 100, plain 100, slice 300, check 300, plain 100, slice 500, check 1000"},
		{name: "short round: the untracked check after it", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, RLimit: 1000},
			full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain 100, check 300, plain 100, check 1000"},
		{name: "short round: refuted", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, RLimit: 1000},
			full: map[uint64]answer{300: sat}, replay: good,
			verdict: Refuted, log: "plain 100, check 300"},
		{name: "short round: a sat slice is not checked again", cfg: Config{FirstRLimit: 100, ShortRLimit: 300, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, sliced: map[uint64]answer{100: sat}, full: map[uint64]answer{1000: unsat}, replay: good,
			verdict: Proved, log: "plain slice 100, plain 100, check 300, plain 100, check 1000"},
		{name: "short round: none when not below step 2b's limit", cfg: Config{FirstRLimit: 100, ShortRLimit: 500, PreSearchRLimit: 500, SliceRLimit: 500, RLimit: 1000},
			slices: [][]int{{1}}, full: map[uint64]answer{500: unsat}, replay: good,
			verdict: Proved, log: "plain slice 100, plain 100, plain 100, slice 500, check 500"},
		{name: "no retry without a larger limit", cfg: Config{FirstRLimit: 100, RLimit: 1000, RetryRLimit: 100},
			plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{1000: unknown}, bounded: map[int]answer{1: sat}, replay: good,
			verdict: Refuted, log: "plain 100, plain 100, check 1000, bounded T=1"},
	}
	for _, tt := range tests {
		var log []string
		k, err := newKernel(tt.cfg, t.TempDir(), "z3", "4.8.12", func() (solver, error) {
			return &flowSolver{full: tt.full, plain: tt.plain, sliced: tt.sliced, goalSliced: tt.goalSliced, bounded: tt.bounded, log: &log}, nil
		}, refute.New())
		if err != nil {
			t.Fatal(err)
		}
		ob := &Obligation{ID: "o", Problem: tProblem(), Replay: tt.replay, Pos: source.Pos{File: "a.yaml", Line: 1, Col: 1}}
		if tt.slices != nil {
			ob.Slices = func() [][]int { return tt.slices }
		}
		ob.First = tt.first
		q, err := k.Prepare(ob)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := k.NewSession()
		r := s.Check(q)
		s.Close()
		if r.Verdict() != tt.verdict || r.Internal != tt.internal || !strings.Contains(r.Reason, tt.reason) {
			t.Errorf("%s: %v internal=%v %q; want %v internal=%v reason~%q", tt.name, r.Verdict(), r.Internal, r.Reason, tt.verdict, tt.internal, tt.reason)
		}
		if got := strings.Join(log, ", "); got != tt.log {
			t.Errorf("%s: checks %q; want %q", tt.name, got, tt.log)
		}
		if tt.verdict == Unknown && r.Dump == "" {
			t.Errorf("%s: unknown without a dump", tt.name)
		}
		if r.Slice != tt.slice {
			t.Errorf("%s: Slice = %d; want %d", tt.name, r.Slice, tt.slice)
		}
		if r.Slice > 0 {
			checkSliceProof(t, tt.name, k, q, r)
		}
		if tt.text == "" {
			continue
		}
		if r.Counterexample == nil || !strings.Contains(r.Counterexample.Text, tt.text) {
			t.Errorf("%s: counterexample %+v; want text ~%q", tt.name, r.Counterexample, tt.text)
			continue
		}
		var data struct{ Bounded string }
		if err := json.Unmarshal(r.Counterexample.Data, &data); err != nil || data.Bounded != "T=2" {
			t.Errorf("%s: data %s: bounded = %q (%v); want T=2", tt.name, r.Counterexample.Data, data.Bounded, err)
		}
		// A refutation found by the search is cached and admitted like any other.
		enc, err := r.Encode()
		if err != nil {
			t.Fatalf("%s: Encode: %v", tt.name, err)
		}
		a, err := k.Admit(q, enc)
		if err != nil || a.Verdict() != Refuted || a.Counterexample.Text != r.Counterexample.Text {
			t.Errorf("%s: admitted %v %v (%v)", tt.name, a.Verdict(), a.Counterexample, err)
		}
		if r.RLimitUsed != 10+10+10+1+2 { // plain tracked and untracked, default, bounded
			t.Errorf("%s: RLimitUsed = %d; want the sum over the checks, 33", tt.name, r.RLimitUsed)
		}
	}
}

// TestMinimizeProcedure checks when a counterexample from the first check
// is minimized by the bounded search, and what is reported.
func TestMinimizeProcedure(t *testing.T) {
	unsat := answer{status: statusUnsat, rlimit: 1}
	sat := answer{status: statusSat, rlimit: 2}
	unknown := answer{status: statusUnknown, reason: "incomplete quantifiers", rlimit: 10}
	good := func(logic.Model) (*counterexample.Counterexample, error) {
		return &counterexample.Counterexample{Obligation: "o", Goal: "invariant: p(s')"}, nil
	}
	// goodDirect replays a model of the text only: a bounded model (of
	// another type) does not replay.
	goodDirect := func(m logic.Model) (*counterexample.Counterexample, error) {
		if _, ok := m.(sizedModel); !ok {
			return nil, errors.New("goal holds")
		}
		return good(m)
	}
	const minimized = "found in the bounded instance T=2 (minimized: the solver's first counterexample had T=5)"
	tests := []struct {
		name     string
		cfg      Config
		universe int
		bounded  map[int]answer
		replay   replayer
		internal bool
		text     string // substring of the counterexample; "-" for none found by the search
		log      string
		rlimit   uint64
		cache    bool
	}{
		{name: "minimized to T=2", universe: 5, bounded: map[int]answer{1: unsat, 2: sat}, replay: good,
			text: minimized, log: "plain 100, plain 100, check 100, bounded T=1, bounded T=2", rlimit: 2 + 1 + 2, cache: true},
		{name: "small: not minimized", universe: 2, bounded: map[int]answer{1: sat}, replay: good,
			text: "-", log: "plain 100, plain 100, check 100", rlimit: 2, cache: true},
		{name: "nothing smaller: the original stays", universe: 3, bounded: map[int]answer{1: unsat, 2: unknown, 3: unsat}, replay: good,
			text: "-", log: "plain 100, plain 100, check 100, bounded T=1, bounded T=2, bounded T=3", rlimit: 2 + 1 + 10 + 1, cache: true},
		{name: "only instances no larger", universe: 3, bounded: map[int]answer{1: unsat, 2: unsat, 3: sat}, replay: good,
			text: "-", log: "plain 100, plain 100, check 100, bounded T=1, bounded T=2, bounded T=3", rlimit: 2 + 1 + 1 + 2, cache: true},
		{name: "budget", cfg: Config{Search: SearchConfig{Budget: 5}}, universe: 5, bounded: map[int]answer{1: unknown, 2: sat}, replay: good,
			text: "-", log: "plain 100, plain 100, check 100, bounded T=1", rlimit: 2 + 10, cache: true},
		{name: "bounded model does not replay", universe: 5, bounded: map[int]answer{1: sat}, replay: goodDirect,
			internal: true, log: "plain 100, plain 100, check 100, bounded T=1", rlimit: 2 + 2},
		{name: "search off", cfg: Config{Search: SearchConfig{Off: true}}, universe: 5, bounded: map[int]answer{1: sat}, replay: good,
			text: "-", log: "plain 100, plain 100, check 100", rlimit: 2, cache: true},
	}
	for _, tt := range tests {
		var log []string
		tt.cfg.RLimit, tt.cfg.FirstRLimit = 100, 100
		k, err := newKernel(tt.cfg, t.TempDir(), "z3", "4.8.12", func() (solver, error) {
			return &flowSolver{full: map[uint64]answer{100: sat}, bounded: tt.bounded, log: &log, universe: tt.universe}, nil
		}, refute.New())
		if err != nil {
			t.Fatal(err)
		}
		ob := &Obligation{ID: "o", Problem: tProblem(), Replay: tt.replay, Pos: source.Pos{File: "a.yaml", Line: 1, Col: 1}}
		q, err := k.Prepare(ob)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := k.NewSession()
		r := s.Check(q)
		s.Close()
		if got := strings.Join(log, ", "); got != tt.log {
			t.Errorf("%s: checks %q; want %q", tt.name, got, tt.log)
		}
		if r.RLimitUsed != tt.rlimit || r.Cacheable() != tt.cache {
			t.Errorf("%s: RLimitUsed = %d, cacheable %v; want %d, %v", tt.name, r.RLimitUsed, r.Cacheable(), tt.rlimit, tt.cache)
		}
		if tt.internal {
			if !r.Internal || !strings.Contains(r.Reason, "(a model of the bounded instance T=1)") {
				t.Errorf("%s: %v %q; want an internal failure of the bounded model", tt.name, r.Verdict(), r.Reason)
			}
			continue
		}
		if r.Verdict() != Refuted || r.Counterexample == nil {
			t.Errorf("%s: %v %q; want refuted", tt.name, r.Verdict(), r.Reason)
			continue
		}
		text := r.Counterexample.Text
		switch {
		case tt.text == "-" && strings.Contains(text, "found in the bounded instance"):
			t.Errorf("%s: counterexample %q; want the first check's", tt.name, text)
		case tt.text != "-" && !strings.Contains(text, tt.text):
			t.Errorf("%s: counterexample %q; want ~%q", tt.name, text, tt.text)
		}
	}
}

// checkSliceProof checks what a query proved by a slice gives the cache:
// its dump is the slice's text, its record is admitted for it, and the
// slice's own record proves it again through AdmitSlice, which takes
// nothing else.
func checkSliceProof(t *testing.T, name string, k *Kernel, q *Query, r Result) {
	t.Helper()
	script := q.ScriptFor(r)
	if !strings.Contains(script, fmt.Sprintf("; on its slice %d: the 1 of its 2 assertions below", r.Slice)) || strings.Count(script, "(assert") != 1 {
		t.Errorf("%s: script of a sliced proof:\n%s", name, script)
	}
	enc, _ := r.Encode()
	if a, err := k.Admit(q, enc); err != nil || a.Slice != r.Slice || a.Verdict() != Proved {
		t.Errorf("%s: admitted %v slice=%d (%v)", name, a.Verdict(), a.Slice, err)
	}
	sq, sr, ok := r.TakeSliceProof()
	if !ok {
		t.Fatalf("%s: no slice proof", name)
	}
	if want, _ := q.Slice(r.Slice); want == nil || sq.Text() != want.Text() || sq.Fingerprint() == q.Fingerprint() {
		t.Errorf("%s: the slice proof's query is not the slice", name)
	}
	senc, err := sr.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if a, err := k.AdmitSlice(q, r.Slice, senc); err != nil || a.Verdict() != Proved || a.Slice != r.Slice || a.fingerprint != q.Fingerprint() {
		t.Errorf("%s: AdmitSlice = %v slice %d (%v)", name, a.Verdict(), a.Slice, err)
	}
	if _, _, ok := r.TakeSliceProof(); ok {
		t.Errorf("%s: the slice proof is taken twice", name)
	}
	// The whole query's record is no proof of its slice, nor is the
	// slice's record one of another slice.
	if _, err := k.AdmitSlice(q, r.Slice, enc); err == nil {
		t.Errorf("%s: AdmitSlice took the whole query's record", name)
	}
	other := 3 - r.Slice
	if sq2, _ := q.Slice(other); sq2 != nil {
		if _, err := k.AdmitSlice(q, other, senc); err == nil {
			t.Errorf("%s: AdmitSlice took slice %d's record for slice %d", name, r.Slice, other)
		}
	}
	if _, err := k.AdmitSlice(q, 7, senc); err == nil {
		t.Errorf("%s: AdmitSlice of a slice that does not exist", name)
	}
}

// TestPriorAttempt checks that the hint read from a record names the check
// that proved its query, and that only a Proved record gives one.
func TestPriorAttempt(t *testing.T) {
	proved := Result{verdict: Proved, fingerprint: "f", Solver: SolverDefault, Slice: 2, RLimitUsed: 77}
	data, err := proved.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := PriorAttempt(data); !ok || a != (Attempt{Slice: 2, Solver: SolverDefault, RLimit: 77}) {
		t.Errorf("PriorAttempt(proved) = %+v, %v", a, ok)
	}
	unknown, _ := Result{verdict: Unknown, fingerprint: "f", Reason: "r"}.Encode()
	refuted, _ := Result{verdict: Refuted, fingerprint: "f", Counterexample: &Counterexample{Text: "x"}}.Encode()
	for _, d := range [][]byte{unknown, refuted, []byte("{"), []byte(`{"kernel":1,"verdict":"proved","solver":"plain"}`),
		[]byte(fmt.Sprintf(`{"kernel":%d,"verdict":"proved","solver":"other"}`, Format))} {
		if a, ok := PriorAttempt(d); ok {
			t.Errorf("PriorAttempt(%s) = %+v, true; want no attempt", d, a)
		}
	}
}

// TestCore checks Session.Core: the tracked check of the problem that
// proved the query, the subset of the core checked on its own, and that
// its proof is admitted for a later query that proposes the same subset as
// a slice, while no core, an improper core or an unproved subset gives
// nothing.
func TestCore(t *testing.T) {
	unsat := answer{status: statusUnsat, rlimit: 1000}
	unknown := answer{status: statusUnknown, reason: "incomplete quantifiers", rlimit: 10}
	tests := []struct {
		name    string
		plain   map[uint64]answer // the proof of the query
		slices  [][]int
		sliced  map[uint64]answer // the proof of the slice, and the subset's checks
		core    answer
		coreIdx []int
		ok      bool
		idx     []int
		log     string
		slimit  uint64 // the slice limit, when not 5000
	}{
		{name: "the core of the whole", plain: map[uint64]answer{100: unsat}, sliced: map[uint64]answer{100: unsat},
			core: unsat, coreIdx: []int{1}, ok: true, idx: []int{1}, log: "plain core 2000 of 2, plain slice 100"},
		{name: "the subset in the default solver", plain: map[uint64]answer{100: unsat}, sliced: map[uint64]answer{100: unknown, 2000: unsat},
			core: unsat, coreIdx: []int{1}, ok: true, idx: []int{1}, log: "plain core 2000 of 2, plain slice 100, slice 2000"},
		{name: "the core of a slice, as indices of the query", slices: [][]int{{1}}, sliced: map[uint64]answer{100: unsat},
			core: unsat, coreIdx: []int{0}, ok: true, idx: []int{1}, log: "plain core 2000 of 1, plain slice 100"},
		{name: "no core", plain: map[uint64]answer{100: unsat}, core: unknown, log: "plain core 2000 of 2"},
		{name: "an improper core", plain: map[uint64]answer{100: unsat}, core: unsat, coreIdx: []int{0, 1}, log: "plain core 2000 of 2"},
		{name: "a subset not proved", plain: map[uint64]answer{100: unsat}, sliced: map[uint64]answer{100: unknown, 2000: unknown},
			core: unsat, coreIdx: []int{1}, log: "plain core 2000 of 2, plain slice 100, slice 2000"},
		{name: "no core of a proof over twice the slice limit", plain: map[uint64]answer{100: {status: statusUnsat, rlimit: 10001}},
			core: unsat, coreIdx: []int{1}, log: ""},
		{name: "no more than the slice limit", slimit: 700, plain: map[uint64]answer{100: unsat}, sliced: map[uint64]answer{100: unknown, 700: unsat},
			core: unsat, coreIdx: []int{1}, ok: true, idx: []int{1}, log: "plain core 700 of 2, plain slice 100, slice 700"},
	}
	for _, tt := range tests {
		var log []string
		cfg := Config{FirstRLimit: 100, SliceRLimit: 5000, RLimit: 10000}
		if tt.slimit > 0 {
			cfg.SliceRLimit = tt.slimit
		}
		k, q := flowQuery(t, cfg, &flowSolver{plain: tt.plain, sliced: tt.sliced, log: &log, coreAnswer: tt.core, coreIdx: tt.coreIdx}, refute.New(), tt.slices)
		ob := q.ob
		s, _ := k.NewSession()
		r := s.Check(q)
		if r.Verdict() != Proved {
			t.Fatalf("%s: %v", tt.name, r.Verdict())
		}
		log = nil
		c, ok := s.Core(q, r)
		s.Close()
		if got := strings.Join(log, ", "); got != tt.log {
			t.Errorf("%s: checks %q; want %q", tt.name, got, tt.log)
		}
		if ok != tt.ok || fmt.Sprint(c.Indices) != fmt.Sprint(tt.idx) {
			t.Errorf("%s: Core = %v %v; want %v %v", tt.name, c.Indices, ok, tt.idx, tt.ok)
		}
		if !ok {
			continue
		}
		if c.Proof.Verdict() != Proved || c.Proof.fingerprint != c.Query.Fingerprint() || c.Query.Fingerprint() == q.Fingerprint() {
			t.Errorf("%s: proof %v of %s; the core's query is %s, the obligation's %s", tt.name, c.Proof.Verdict(), c.Proof.fingerprint, c.Query.Fingerprint(), q.Fingerprint())
		}
		// A later text that proposes the core as a slice is proved from
		// the core's proof, and only from it.
		rec, err := c.Proof.Encode()
		if err != nil {
			t.Fatal(err)
		}
		later := &Obligation{ID: "o", Problem: tProblem(), Pos: ob.Pos, Slices: func() [][]int { return [][]int{{0}, c.Indices} }}
		lq, err := k.Prepare(later)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := k.AdmitSlice(lq, 2, rec); err != nil || a.Verdict() != Proved || a.Slice != 2 {
			t.Errorf("%s: AdmitSlice of the core = %v, %v", tt.name, a.Verdict(), err)
		}
		if _, err := k.AdmitSlice(lq, 1, rec); err == nil {
			t.Errorf("%s: the core's proof admitted for another slice", tt.name)
		}
	}
}

// TestUsed checks Result.Used: the plain solver's checks with the first
// limit are tracked, and the core of the one that proves the query comes
// with the verdict, as indices of the query's assertions (those of a slice
// mapped back); checks with a larger limit are not tracked, an improper
// core is dropped, and a tracked first check that ends unknown (not sat) is
// made again untracked.
func TestUsed(t *testing.T) {
	unsat := answer{status: statusUnsat, rlimit: 1}
	unknown := answer{status: statusUnknown, reason: "incomplete quantifiers", rlimit: 10}
	tests := []struct {
		name    string
		plain   map[uint64]answer
		sliced  map[uint64]answer
		full    map[uint64]answer
		slices  [][]int
		used    []int
		tracked *answer
		want    string
		log     string
	}{
		{name: "the whole problem", plain: map[uint64]answer{100: unsat}, used: []int{1}, want: "[1]"},
		{name: "a slice, as indices of the query", slices: [][]int{{1}}, sliced: map[uint64]answer{100: unsat}, used: []int{0}, want: "[1]"},
		{name: "an improper core", plain: map[uint64]answer{100: unsat}, used: []int{1, 0}, want: "[]"},
		{name: "an index out of range", plain: map[uint64]answer{100: unsat}, used: []int{2}, want: "[]"},
		{name: "not the default solver's", plain: map[uint64]answer{100: unknown}, full: map[uint64]answer{10000: unsat}, used: []int{1}, want: "[]"},
		{name: "the first check again untracked", plain: map[uint64]answer{100: unsat}, tracked: &unknown, used: []int{1}, want: "[]", log: "tracked 100, plain 100"},
		{name: "no untracked check after sat", plain: map[uint64]answer{100: unsat}, tracked: &answer{status: statusSat}, full: map[uint64]answer{10000: unsat}, used: []int{1}, want: "[]", log: "tracked 100, check 10000"},
		{name: "not the retry's", plain: map[uint64]answer{100: unknown, 10000: unsat}, full: map[uint64]answer{10000: unknown}, used: []int{1}, want: "[]"},
	}
	for _, tt := range tests {
		var log []string
		cfg := Config{FirstRLimit: 100, SliceRLimit: 5000, RLimit: 10000, RetryRLimit: 20000, Search: SearchConfig{Off: true}}
		k, q := flowQuery(t, cfg, &flowSolver{plain: tt.plain, sliced: tt.sliced, full: tt.full, log: &log, used: tt.used, tracked: tt.tracked}, nil, tt.slices)
		s, _ := k.NewSession()
		r := s.Check(q)
		s.Close()
		if r.Verdict() != Proved {
			t.Fatalf("%s: %v (%s)", tt.name, r.Verdict(), strings.Join(log, ", "))
		}
		if got := fmt.Sprint(r.Used); got != tt.want {
			t.Errorf("%s: Used = %s; want %s", tt.name, got, tt.want)
		}
		if got := strings.Join(log, ", "); tt.log != "" && got != tt.log {
			t.Errorf("%s: checks %q; want %q", tt.name, got, tt.log)
		}
	}
}

// flowQuery returns a kernel under cfg whose sessions check with f, and the
// query of tProblem's obligation "o", with slices when not nil.
func flowQuery(t *testing.T, cfg Config, f *flowSolver, refuter proposal.Refuter, slices [][]int) (*Kernel, *Query) {
	t.Helper()
	k, err := newKernel(cfg, t.TempDir(), "z3", "4.8.12", func() (solver, error) { return f, nil }, refuter)
	if err != nil {
		t.Fatal(err)
	}
	ob := &Obligation{ID: "o", Problem: tProblem(), Pos: source.Pos{File: "a.yaml", Line: 1, Col: 1}}
	if slices != nil {
		ob.Slices = func() [][]int { return slices }
	}
	q, err := k.Prepare(ob)
	if err != nil {
		t.Fatal(err)
	}
	return k, q
}

// TestTrackedNameClash checks that a problem mentioning a constant named
// like a tracking literal is checked untracked: its constant could
// otherwise be assumed true along with the literals.
func TestTrackedNameClash(t *testing.T) {
	unsat := answer{status: statusUnsat, rlimit: 1}
	p := tProblem()
	clash := logic.Const(smt.CorePrefix+"0", logic.BoolSort())
	p.Assertions = append(p.Assertions, logic.Named{Name: "clash", Term: logic.Or(clash, logic.Not(clash))})
	for _, tt := range []struct {
		name string
		p    *logic.Problem
		want string
	}{{"no clash", tProblem(), "[1]"}, {"a constant named like a literal", p, "[]"}} {
		var log []string
		f := &flowSolver{plain: map[uint64]answer{100: unsat}, log: &log, used: []int{1}}
		k, err := newKernel(Config{FirstRLimit: 100, RLimit: 1000, Search: SearchConfig{Off: true}}, t.TempDir(), "z3", "4.8.12", func() (solver, error) { return f, nil }, nil)
		if err != nil {
			t.Fatal(err)
		}
		q, err := k.Prepare(&Obligation{ID: "o", Problem: tt.p, Pos: source.Pos{File: "a.yaml", Line: 1, Col: 1}})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := k.NewSession()
		r := s.Check(q)
		s.Close()
		if r.Verdict() != Proved || fmt.Sprint(r.Used) != tt.want {
			t.Errorf("%s: %v, Used %v; want proved with %s", tt.name, r.Verdict(), r.Used, tt.want)
		}
	}
}
