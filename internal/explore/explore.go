// This file implements Explore: breadth-first search of the reachable states.

package explore

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"ladder/internal/nodestore"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
)

// Config configures Explore and Run.
type Config struct {
	// Instance gives the sizes of parameter sorts and the values of
	// constants (see ParseBounds). Sizes entries that name an Int, Nat or
	// parameter-sort constant of the automaton, rather than a parameter sort,
	// give that constant's value.
	Instance *eval.Instance
	// MaxStates stops the search after this many states (0: no limit);
	// Result.Complete is then false.
	MaxStates int
	// MaxDepth stops the search at this BFS depth (0: no limit).
	MaxDepth int
	// Invariants names the invariants to check; nil means all. The implicit
	// Nat conditions are always checked.
	Invariants []string
	// Workers is the number of goroutines computing successors (0 or 1:
	// sequential; negative: GOMAXPROCS).
	Workers int
	// Visitor, if set, sees every state and transition of the search.
	Visitor *Visitor
	// Progress, if set, is called about once per second during the search.
	Progress func(Progress)
	// Budget bounds the memory and time of the search, and lets a context
	// interrupt it; reaching a bound ends the search as incomplete, with
	// Result.Exhausted set.
	Budget Budget
	// Symmetry names parameter sorts whose elements the automaton treats
	// alike: each state is stored as the canonical representative of its
	// orbit under the permutations of their elements (symmetry.go).
	Symmetry []string
	// NatUnchecked says that the caller evaluates the automaton's
	// expressions in states whose Nat conditions it has not checked (a
	// cross-check's intermediate abstract states): the symmetry check
	// then takes no 0 <= x from a Nat variable (symmetry.go).
	NatUnchecked bool
	// ReduceDead stores each state with the entries of its dead registers
	// (ioa.DeadRegisters: per-process variables that no action or
	// invariant reads before overwriting them, at the process's current
	// control value) replaced by their sort's default value (dead.go).
	ReduceDead bool

	// NoFlat turns off the explorer's fastest path (fast.Flat), which
	// runs the automaton on encoded states, for comparisons.
	NoFlat bool

	// batch is the number of states a parallel level expands between
	// merges (0: batchSize); tests make it small.
	batch int
}

// Progress is a snapshot of a running search.
type Progress struct {
	Phase       string        // what is searched, when not the main search ("")
	States      int           // states found
	Transitions int64         // transitions followed
	Depth       int           // the BFS level being expanded
	Queued      int           // states found but not yet expanded
	Elapsed     time.Duration // since the search started
	Memory      int64         // bytes in use, as Budget.MaxMemory counts them
}

// Visitor receives the states and transitions of a search. The functions
// run on the searching goroutine, in a deterministic order that does not
// depend on Config.Workers: State for each state when it is found (start
// states first, then in BFS order), and Transition for each enabled
// transition of each expanded state, after the State call for its target if
// the transition found it. Returning an error stops the search, and Explore
// returns the error.
//
// The states handed to a visitor live in the explorer's scratch memory and
// are valid only during the call: use eval.State.Clone to keep one. (The
// explorer stores every state only in encoded form.)
type Visitor struct {
	State      func(id, depth int, s eval.State) error // a new state, its id and depth
	Transition func(t *Transition) error               // an enabled transition
}

// Transition is one step of a search. The struct and its Params are reused
// after the visitor returns: copy what you keep.
type Transition struct {
	From, To  int          // state ids
	Pre, Post eval.State   // the states
	Action    *ioa.Action  // the action taken
	Params    []eval.Value // its parameter values
	New       bool         // this transition found To
}

// Result is the outcome of Explore. Its exported fields marshal to JSON.
type Result struct {
	Automaton     string   `json:"automaton"`     // the automaton's name
	Instance      string   `json:"instance"`      // the instance, as "L=2,T=2,V=2"
	Invariants    []string `json:"invariants"`    // the invariants checked, Nat conditions excluded
	States        int      `json:"states"`        // distinct states found
	InitialStates int      `json:"initialStates"` // distinct start states
	Transitions   int64    `json:"transitions"`   // enabled transitions of the expanded states
	Deadlocks     int      `json:"deadlocks"`     // expanded states with no enabled transition
	// FinalChecked is set when the automaton declares its final states
	// (`final:`): a state with no enabled transition that is not final
	// is then a violation (Violation.Deadlock).
	FinalChecked    bool    `json:"finalChecked,omitempty"`
	MaxDepth        int     `json:"maxDepth"`        // the largest BFS depth of a state found
	Complete        bool    `json:"complete"`        // every reachable state was found and checked
	Limit           string  `json:"limit,omitempty"` // why the search stopped early, if it did
	Elapsed         float64 `json:"elapsedSeconds"`  // wall-clock time of the search
	StatesPerSecond float64 `json:"statesPerSecond"` // States / Elapsed
	Workers         int     `json:"workers"`         // goroutines computing successors
	MemoryBytes     int64   `json:"memoryBytes"`     // approximate size of the visited-state store
	PeakMemoryBytes int64   `json:"peakMemoryBytes"` // the most memory in use (as Budget.MaxMemory counts it) at a sample
	// Exhausted is set when a bound of Config.Budget (memory, time, an
	// interrupt) stopped the search; Limit then says which.
	Exhausted bool   `json:"exhausted,omitempty"`
	Violation *Trace `json:"violation,omitempty"` // a shortest trace to a violation, if one was found
	// Symmetry describes the symmetry reduction, if Config.Symmetry asked
	// for one: States then counts orbits (representatives).
	Symmetry *Symmetry `json:"symmetry,omitempty"`
	// Dead lists the registers that Config.ReduceDead reset where they
	// are dead: States then counts states up to the values of dead
	// entries.
	Dead []DeadRegister `json:"deadRegisters,omitempty"`
	// Flat is set when the search ran the automaton on encoded states
	// (fast.Flat) rather than on decoded ones only.
	Flat bool `json:"flat,omitempty"`
}

// ParseBounds parses "T=2,L=2,V=2" into an instance whose Sizes hold every
// entry (see Config.Instance for entries naming constants). Spaces around
// entries are allowed; the empty string gives an empty instance.
func ParseBounds(s string) (*eval.Instance, error) {
	inst := &eval.Instance{Sizes: map[string]int{}}
	if strings.TrimSpace(s) == "" {
		return inst, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" || val == "" {
			return nil, fmt.Errorf("bad bound %q: want NAME=N", part)
		}
		if !isIdent(name) {
			return nil, fmt.Errorf("bad bound %q: %q is not a name", part, name)
		}
		n, err := strconv.Atoi(val)
		if err != nil {
			return nil, fmt.Errorf("bad bound %q: %q is not an integer", part, val)
		}
		if _, dup := inst.Sizes[name]; dup {
			return nil, fmt.Errorf("bound %s given twice", name)
		}
		inst.Sizes[name] = n
	}
	return inst, nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// resolveInstance returns a copy of inst for a in which Sizes entries that
// name constants of a are moved to Consts.
func resolveInstance(a *ioa.Automaton, inst *eval.Instance) (*eval.Instance, error) {
	return ResolveInstance([]*ioa.Automaton{a}, inst)
}

// ResolveInstance returns a copy of inst for the automata autos (an
// automaton, or the two of a proof edge): the Sizes entries that name
// parameter sorts of any of them stay sizes, checked by CheckSize; those
// that name constants (the first declaration of a name, when several
// automata declare it with different sorts) move to Consts, checked by
// CheckElem for parameter-sort constants. Anything else is a BoundError.
func ResolveInstance(autos []*ioa.Automaton, inst *eval.Instance) (*eval.Instance, error) {
	out := &eval.Instance{Sizes: map[string]int{}, Consts: map[string]eval.Value{}}
	if inst == nil {
		return out, nil
	}
	out.MaxEnum = inst.MaxEnum
	for k, v := range inst.Consts {
		out.Consts[k] = v
	}
	params := map[string]bool{}
	consts := map[string]*expr.Object{}
	var names []string
	for _, a := range autos {
		names = append(names, a.Name)
		for _, s := range a.Sorts {
			if s != nil && s.Kind == expr.KParam {
				params[s.Name] = true
			}
		}
		for _, c := range a.Consts {
			if c == nil {
				continue
			}
			if old, ok := consts[c.Name]; ok && old.Sort != nil && c.Sort != nil && !expr.Identical(old.Sort, c.Sort) {
				continue
			}
			consts[c.Name] = c
		}
	}
	var keys []string
	for k := range inst.Sizes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var elems []*expr.Object // the parameter-sort constants bound
	for _, k := range keys {
		v := inst.Sizes[k]
		if params[k] {
			if err := CheckSize(k, v); err != nil {
				return nil, err
			}
			out.Sizes[k] = v
			continue
		}
		c := consts[k]
		switch {
		case c == nil:
			return nil, boundErrorf("bound %s names neither a parameter sort nor a constant of %s", k, strings.Join(names, " or "))
		case c.Sort != nil && c.Sort.IsNumeric():
			if c.Sort.Kind == expr.KNat && v < 0 {
				return nil, boundErrorf("bound %s=%d: constant %s is a Nat", k, v, k)
			}
			out.Consts[k] = eval.Int(int64(v))
		case c.Sort != nil && c.Sort.Kind == expr.KParam:
			out.Consts[k] = eval.Elem(v)
			elems = append(elems, c)
		default:
			return nil, boundErrorf("bound %s: constant %s has sort %s; only Int, Nat and parameter-sort constants can be bound", k, k, c.Sort)
		}
	}
	for _, c := range elems {
		if err := CheckElem(c.Name, c.Sort, inst.Sizes[c.Name], out.Sizes[c.Sort.Name]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// explorer is the state of one search.
type explorer struct {
	m        *eval.Machine
	cfg      Config
	invs     []int // nil: all
	st       *nodestore.Store
	res      *Result
	start    time.Time
	meter    *Meter
	reporter *Reporter
	trans    Transition
	sym      *eval.Symmetry // the symmetry reduction, or nil
	dead     *eval.Dead     // the dead-register reduction, or nil
	// represented is the sum of the sizes of the orbits of the states
	// stored (their number without symmetry reduction).
	represented int64
	// lean is set when the parallel search need not keep successors
	// (expandPart): a worker then reuses its scratch memory for each
	// state it expands, and checkFresh checks a new state decoded from
	// its key (the state itself, or with symmetry reduction its
	// representative, which satisfies the same conditions).
	lean bool
	// flat runs the automaton on encoded states (fast.Flat), when it
	// compiles and nothing needs the states themselves: no visitor, no
	// dead-register reduction, and with symmetry reduction byte programs
	// for every permuted variable; fr is the sequential search's runner
	// of it.
	flat *fast.Flat
	fr   *fast.FlatRunner
	fset *flatSet // levelFlat's workers
	offs []int    // the variables' offsets in a key (canonical)
	// sets are the two worker sets of levelParallel: one expands a
	// batch while the other's batch is merged and checked.
	sets [2]*workerSet
	// ids is an empty slice whose memory the next level's ids reuse (a
	// level's ids take the slice of the level before the last)
	ids []int32
	// groupEnds is flatGroup's: the end of each state's successors
	groupEnds []int
	// buffers of levelSequential
	succs []pending
	kbuf  []byte
	pbuf  []eval.Value
	hs    []uint64
}

// Explore searches the reachable states of a in the instance of cfg
// breadth-first, checking the invariants and Nat conditions in every state.
// On a violation it returns a Result whose Violation is a shortest trace to
// a violating state (and a nil error): errors are for automata that cannot
// be explored in the instance, run-time evaluation errors, and errors from
// the visitor.
func Explore(a *ioa.Automaton, cfg Config) (*Result, error) {
	x, err := newExplorer(a, cfg)
	if err != nil {
		return nil, err
	}
	if err := x.run(); err != nil {
		return nil, err
	}
	return x.res, nil
}

// Machine compiles a for the instance of cfg, as Explore does.
func Machine(a *ioa.Automaton, cfg Config) (*eval.Machine, error) {
	if a == nil {
		return nil, errors.New("no automaton")
	}
	inst, err := resolveInstance(a, cfg.Instance)
	if err != nil {
		return nil, err
	}
	if err := checkStates(a, inst); err != nil {
		return nil, err
	}
	return eval.NewMachine(a, inst)
}

func newExplorer(a *ioa.Automaton, cfg Config) (*explorer, error) {
	m, err := Machine(a, cfg)
	if err != nil {
		return nil, err
	}
	x := &explorer{m: m, cfg: cfg, st: nodestore.New(), start: time.Now(), meter: NewMeter(cfg.Budget)}
	x.res = &Result{Automaton: a.Name, Instance: m.Inst.String(), FinalChecked: m.HasFinal()}
	if cfg.Invariants == nil {
		for _, inv := range a.Invariants {
			x.res.Invariants = append(x.res.Invariants, inv.Name)
		}
	} else {
		x.invs = []int{}
		for _, name := range cfg.Invariants {
			i := m.InvariantIndex(name)
			if i < 0 {
				return nil, fmt.Errorf("%s has no invariant %s", a.Name, name)
			}
			x.invs = append(x.invs, i)
			x.res.Invariants = append(x.res.Invariants, name)
		}
	}
	x.res.Workers = x.workers()
	if err := x.setupDead(); err != nil {
		return nil, err
	}
	if err := x.setupSymmetry(); err != nil {
		return nil, err
	}
	x.reporter = NewReporter(x.cfg.Progress, x.meter)
	// Without a visitor or dead-register reduction no one reads a
	// successor after it is encoded but the invariant check, which can
	// decode it from its key (lean).
	x.lean = x.dead == nil && cfg.Visitor == nil
	if x.lean && (x.sym == nil || x.sym.BytesOnly()) && !cfg.NoFlat {
		// an automaton outside the flat layout is run by the Runner alone
		if fl, err := fast.NewFlat(m); err == nil {
			x.flat, x.fr = fl, fl.NewRunner()
			x.offs = make([]int, len(a.Vars)+1)
			if w := x.workers(); w > 1 {
				// levelFlat inserts in parallel, two shards per
				// worker, which the workers take as they take parts:
				// one whose core the machine slows for a while leaves
				// a shard to the others (one shard per worker was as
				// fast on a quiet machine and slower on a busy one;
				// four were slower)
				x.st = nodestore.NewSharded(2 * w)
			}
		}
	}
	x.res.Flat = x.flat != nil
	return x, nil
}

func (x *explorer) workers() int {
	w := x.cfg.Workers
	if w < 0 {
		w = runtime.GOMAXPROCS(0)
	}
	if w < 1 {
		w = 1
	}
	return w
}

func (x *explorer) run() error {
	inits, err := x.m.Init()
	if err != nil {
		return err
	}
	runner := fast.NewRunner(x.m)
	runner.SetScratch(true)
	var buf []byte
	var cur []int32
	if x.sym != nil {
		switch {
		case x.dead != nil:
			x.res.Symmetry.NotRepresented = "dead-register reduction merges states that are not images of each other"
		case !x.startsClosed(inits):
			x.res.Symmetry.NotRepresented = "the start states are not closed under the permutations"
		}
	}
	for _, s := range inits {
		if x.full() {
			break
		}
		var orbit int32
		buf, orbit = x.stateKey(buf[:0], s)
		id, isNew := x.st.Insert(buf, x.st.Hash(buf), -1)
		if !isNew {
			continue
		}
		x.represented += int64(orbit)
		x.res.InitialStates++
		if stop, err := x.found(runner, id, 0, nil, s); stop || err != nil {
			return x.finish(err)
		}
		cur = append(cur, int32(id))
	}
	depth := 0
	for len(cur) > 0 && x.res.Violation == nil && x.res.Limit == "" {
		if x.cfg.MaxDepth > 0 && depth >= x.cfg.MaxDepth {
			x.res.Limit = fmt.Sprintf("depth limit %d", x.cfg.MaxDepth)
			break
		}
		if why := x.meter.Check(0); why != "" {
			x.res.Limit, x.res.Exhausted = why, true
			break
		}
		depth++
		var next []int32
		var err error
		switch {
		case x.workers() > 1 && len(cur) >= 64 && x.flat != nil:
			next, err = x.levelFlat(cur, depth)
		case x.workers() > 1 && len(cur) >= 64:
			next, err = x.levelParallel(cur, depth)
		default:
			next, err = x.levelSequential(runner, cur, depth)
		}
		if err != nil {
			return x.finish(err)
		}
		// the ids of the level just expanded are no longer needed: their
		// slice takes the next level's
		cur, x.ids = next, cur[:0]
	}
	return x.finish(nil)
}

// maxStore is the most states a search can hold (ids are int32).
const maxStore = 1<<31 - 2

// full reports whether the state limit is reached, and records it.
func (x *explorer) full() bool {
	limit := x.cfg.MaxStates
	if limit <= 0 || limit > maxStore {
		limit = maxStore
	}
	if x.st.Len() >= limit {
		x.res.Limit = fmt.Sprintf("state limit %d", limit)
		return true
	}
	if why := x.meter.Exceeded(x.st.PendingGrowth()); why != "" {
		x.res.Limit, x.res.Exhausted = why, true
		return true
	}
	return false
}

// errOverBudget stops a worker whose successors outgrow the budget.
var errOverBudget = errors.New("over the budget")

// found handles a new state s, a successor of pre (nil for a start
// state): the visitor, the depth and the checks. pre satisfies every
// condition (with symmetry, as its representative does; with dead-register
// reduction, as the dead entries it resets are read by no invariant), so
// only those that read a variable the step changed are evaluated again
// (Runner.ViolatedAfter). It reports whether the search must stop.
func (x *explorer) found(r *fast.Runner, id, depth int, pre, s eval.State) (bool, error) {
	if depth > x.res.MaxDepth {
		x.res.MaxDepth = depth
	}
	if v := x.cfg.Visitor; v != nil && v.State != nil {
		if err := v.State(id, depth, s); err != nil {
			return true, err
		}
	}
	var name string
	var err error
	if pre == nil {
		name, err = r.Violated(s, x.invs)
	} else {
		name, err = r.ViolatedAfter(pre, s, x.invs)
	}
	if err != nil {
		return true, err
	}
	if name != "" {
		return true, x.violation(id, name)
	}
	return false, nil
}

// canonical replaces the encoding of a state that Flat computed, in
// buf[k0:], by its key: with symmetry reduction, its least image
// (eval.Symmetry.LeastEncoded, using offs for the variables' offsets); it
// returns the size of its orbit (1 without symmetry), and false when the
// bytes do not suffice (the state is then expanded by the Runner).
func (x *explorer) canonical(buf []byte, k0 int, offs []int) ([]byte, int32, bool) {
	if x.sym == nil {
		return buf, 1, true
	}
	if !x.flat.Offsets(buf[k0:], offs) {
		return buf, 0, false
	}
	buf, n, ok := x.sym.LeastEncoded(buf, k0, offs)
	if !ok {
		return buf, 0, false
	}
	return buf, int32(x.sym.Order() / n), true
}

// foundFlat is found for a new state that Flat computed, with key, by a
// step of action act from a stored state: Flat checks the conditions the
// step can change (FlatRunner.HoldsAfterRow, with row the step's
// RowParam: the stored state satisfies them all), and when it cannot
// tell or finds one violated, the Runner
// checks them all again on the decoded state, and names the violated one.
func (x *explorer) foundFlat(fr *fast.FlatRunner, r *fast.Runner, id, depth, act int, row int64, key []byte) (bool, error) {
	if depth > x.res.MaxDepth {
		x.res.MaxDepth = depth
	}
	if holds, ok := fr.HoldsAfterRow(act, row, key, x.invs); holds && ok {
		return false, nil
	}
	return x.recheck(r, id, key)
}

// recheck checks state id, with encoding key, with the Runner, after Flat
// did not find every condition to hold in it, and records its violation:
// Flat decides no violation, and names none.
func (x *explorer) recheck(r *fast.Runner, id int, key []byte) (bool, error) {
	s, err := r.Decode(key)
	if err != nil {
		return true, err
	}
	name, err := r.Violated(s, x.invs)
	if err != nil {
		return true, err
	}
	if name != "" {
		return true, x.violation(id, name)
	}
	return false, nil
}

// violation records a shortest trace to state id, which violates name,
// or (name "") is a deadlock.
func (x *explorer) violation(id int, name string) error {
	t, err := x.trace(x.st.Path(id))
	if err != nil {
		return err
	}
	// a deadlock the search reports is a state that is not final
	t.Invariant, t.Deadlock, t.NotFinal = name, name == "", name == ""
	if err := x.checkReplay(t, name); err != nil {
		return err
	}
	x.res.Violation = t
	return nil
}

// deadlock checks state id, which enables no action: when the automaton
// declares its final states and s is not one of them, it records the
// deadlock and reports that the search must stop. States are expanded in
// breadth-first order, so the first deadlock found is a shortest one.
func (x *explorer) deadlock(r *fast.Runner, id int, s eval.State) (bool, error) {
	if !x.m.HasFinal() {
		return false, nil
	}
	ok, err := r.Final(s)
	if err != nil || ok {
		return err != nil, err
	}
	return true, x.violation(id, "")
}

// transition reports a transition to the visitor.
func (x *explorer) transition(from, to int, pre, post eval.State, act int, params []eval.Value, isNew bool) error {
	v := x.cfg.Visitor
	if v == nil || v.Transition == nil {
		return nil
	}
	t := &x.trans
	*t = Transition{From: from, To: to, Pre: pre, Post: post, Action: x.m.A.Actions[act], Params: params, New: isNew}
	return v.Transition(t)
}

func (x *explorer) progress(queued, depth int) {
	x.reporter.Report(x.st.Len(), x.res.Transitions, depth, queued)
}

// pending is a successor of the state being expanded, awaiting insertion.
type pending struct {
	act    int
	p0, p1 int // its parameters in the parameter buffer
	k0, k1 int // its encoding in the key buffer
	post   eval.State
	hash   uint64
	orbit  int32 // the size of its orbit (1 without symmetry)
	row    int64 // Flat's RowParam of its step, or -1
}

// rowParam returns fr.RowParam(act) for a successor Flat is visiting,
// or -1 with symmetry reduction, whose keys are images of the steps'
// post-states under permutations that may move the row.
func (x *explorer) rowParam(fr *fast.FlatRunner, act int) int64 {
	if x.sym != nil {
		return -1
	}
	return fr.RowParam(act)
}

// overBytes is how much a search's successor buffer may grow between two
// looks at the budget (Meter.Over), whatever the number of successors.
const overBytes = 8 << 20

// levelSequential expands the states of one level on this goroutine. The
// successors of each state are computed and encoded first, then their
// table slots and records are prefetched together, then they are inserted
// in order.
func (x *explorer) levelSequential(r *fast.Runner, cur []int32, depth int) ([]int32, error) {
	next := x.ids
	succs, kbuf, pbuf, hs := x.succs[:0], x.kbuf[:0], x.pbuf[:0], x.hs[:0]
	defer func() { x.succs, x.kbuf, x.pbuf, x.hs = succs, kbuf, pbuf, hs }()
	over := false
	atBytes := 0 // len(kbuf) when the budget was last looked at
	collect := func(act int, params []eval.Value, post eval.State) bool {
		k0, p0 := len(kbuf), len(pbuf)
		var orbit int32
		kbuf, orbit = x.encode(r, kbuf, post)
		pbuf = append(pbuf, params...)
		succs = append(succs, pending{act: act, p0: p0, p1: len(pbuf), k0: k0, k1: len(kbuf), post: post, orbit: orbit})
		if len(succs)&63 == 0 || len(kbuf)-atBytes >= overBytes {
			atBytes = len(kbuf)
			if x.meter.Over() {
				over = true
				return false
			}
		}
		return true
	}
	fallback := false // Flat gave up on cur[k]
	reported := 0
	for k := 0; k < len(cur); {
		if k-reported >= 1024 {
			x.progress(len(cur)-k+len(next), depth)
			reported = k
		}
		if x.fr != nil && !fallback {
			n, err := x.flatGroup(r, cur[k:], depth, &next)
			if err != nil || n < 0 {
				return next, err
			}
			k += n
			fallback = k < len(cur) && n < flatGroup
			continue
		}
		// the Runner expands the state: Flat gave up on it, or there is
		// no Flat
		fallback = false
		from := int(cur[k])
		r.Release()
		succs, kbuf, pbuf, hs = succs[:0], kbuf[:0], pbuf[:0], hs[:0]
		pre, err := r.Decode(x.st.Key(from))
		if err != nil {
			return nil, err
		}
		if err := r.Successors(pre, collect); err != nil {
			return nil, err
		}
		if over {
			// the successors of this state are incomplete: stop
			x.res.Limit, x.res.Exhausted = x.meter.Stop(), true
			return next, nil
		}
		if len(succs) == 0 {
			x.res.Deadlocks++
			if stop, err := x.deadlock(r, from, pre); stop || err != nil {
				return next, err
			}
		}
		for i := range succs {
			s := &succs[i]
			s.hash = x.st.Hash(kbuf[s.k0:s.k1])
			hs = append(hs, s.hash)
		}
		x.st.Prefetch(hs)
		for i := range succs {
			s := &succs[i]
			if x.full() {
				return next, nil
			}
			x.res.Transitions++
			id, isNew, err := x.insert(kbuf[s.k0:s.k1], s.hash, from)
			if err != nil {
				return nil, err
			}
			if isNew {
				x.represented += int64(s.orbit)
				next = append(next, int32(id))
				if stop, err := x.found(r, id, depth, pre, s.post); stop || err != nil {
					return next, err
				}
			}
			if err := x.transition(from, id, pre, s.post, s.act, pbuf[s.p0:s.p1], isNew); err != nil {
				return nil, err
			}
		}
		k++
	}
	return next, nil
}

// flatGroup is the group size of flatGroup: the successors of that many
// states are looked up together.
const flatGroup = 8

// flatGroup expands with Flat up to flatGroup states of cur, from the
// first, stopping before one that Flat gives up on, then looks up the
// successors of all of them together (their cache misses overlap across
// states, not only within one), and inserts them state by state in
// order, as levelSequential does one state at a time. It returns the
// states it handled (0 when Flat gives up on the first), or -1 when the
// search stops; new states are appended to *next.
func (x *explorer) flatGroup(r *fast.Runner, cur []int32, depth int, next *[]int32) (int, error) {
	succs, kbuf, hs := x.succs[:0], x.kbuf[:0], x.hs[:0]
	defer func() { x.succs, x.kbuf, x.hs = succs, kbuf, hs }()
	ends := x.groupEnds[:0]
	defer func() { x.groupEnds = ends }()
	over, gaveUp := false, false
	collect := func(act int, post []byte) bool {
		k0 := len(kbuf)
		kbuf = append(kbuf, post...)
		var orbit int32
		var ok bool
		if kbuf, orbit, ok = x.canonical(kbuf, k0, x.offs); !ok {
			gaveUp = true
			return false
		}
		succs = append(succs, pending{act: act, k0: k0, k1: len(kbuf), orbit: orbit, row: x.rowParam(x.fr, act)})
		if len(succs)&63 == 0 && x.meter.Over() {
			over = true
			return false
		}
		return true
	}
	n := 0
	for n < flatGroup && n < len(cur) && !over {
		s0, b0 := len(succs), len(kbuf)
		gaveUp = false
		if !x.fr.Successors(x.st.Key(int(cur[n])), collect) || gaveUp {
			// the Runner expands this one
			succs, kbuf, over = succs[:s0], kbuf[:b0], false
			break
		}
		ends = append(ends, len(succs))
		n++
	}
	complete := n
	if over {
		complete-- // the successors of the last state are incomplete
	}
	m := 0 // the successors of the complete states
	if complete > 0 {
		m = ends[complete-1]
	}
	for i := range succs[:m] {
		s := &succs[i]
		s.hash = x.st.Hash(kbuf[s.k0:s.k1])
		hs = append(hs, s.hash)
	}
	x.st.Prefetch(hs)
	i := 0
	for g := 0; g < complete; g++ {
		from := int(cur[g])
		if i == ends[g] {
			x.res.Deadlocks++
			var pre eval.State
			if x.m.HasFinal() {
				r.Release()
				var err error
				if pre, err = r.Decode(x.st.Key(from)); err != nil {
					return -1, err
				}
			}
			if stop, err := x.deadlock(r, from, pre); stop || err != nil {
				return -1, err
			}
		}
		for ; i < ends[g]; i++ {
			s := &succs[i]
			if x.full() {
				return -1, nil
			}
			x.res.Transitions++
			id, isNew, err := x.insert(kbuf[s.k0:s.k1], s.hash, from)
			if err != nil {
				return -1, err
			}
			if isNew {
				x.represented += int64(s.orbit)
				*next = append(*next, int32(id))
				if stop, err := x.foundFlat(x.fr, r, id, depth, s.act, s.row, kbuf[s.k0:s.k1]); stop || err != nil {
					return -1, err
				}
			}
		}
	}
	if over {
		// the successors of a state are incomplete: stop
		x.res.Limit, x.res.Exhausted = x.meter.Stop(), true
		return -1, nil
	}
	return n, nil
}

// insert stores the successor with key and hash, reached from state from,
// and returns its id and whether it is new.
func (x *explorer) insert(key []byte, hash uint64, from int) (int, bool, error) {
	if len(key) > nodestore.MaxKey {
		return 0, false, fmt.Errorf("a state of %s encodes in %d bytes, more than the %d the explorer can store", x.m.A.Name, len(key), nodestore.MaxKey)
	}
	id, isNew := x.st.Insert(key, hash, int32(from))
	return id, isNew, nil
}

// succ is a successor computed by a worker.
type succ struct {
	act    int
	p0, p1 int // its parameters in the worker's parameter buffer
	post   eval.State
	key    []byte
	hash   uint64
	orbit  int32 // the size of its orbit (1 without symmetry)
}

// batchSize is the number of states a parallel level expands between merges.
const batchSize = 4096

// levelParallel expands the states of one level with several workers: each
// batch of states is expanded in parallel, then merged in order on this
// goroutine (ids, parents and visitor calls are as in a sequential search),
// then the new states are checked in parallel. The next batch of the level
// is expanded meanwhile, by a second set of workers: a batch's successors
// live in its set's scratch memory until its new states are checked.
func (x *explorer) levelParallel(cur []int32, depth int) (next []int32, err error) {
	next = x.ids
	w := x.workers()
	if x.sets[0] == nil || len(x.sets[0].runners) != w {
		for i := range x.sets {
			x.sets[i] = newWorkerSet(x.m, w)
		}
	}
	bs := x.cfg.batch
	if bs <= 0 {
		bs = batchSize
	}
	var inflight *batchJob
	defer func() {
		// no worker outlives the level, whatever stopped it
		if inflight != nil {
			inflight.wg.Wait()
		}
	}()
	inflight = x.startBatch(x.sets[0], cur[:min(bs, len(cur))])
	for lo, k := 0, 0; lo < len(cur); lo, k = lo+bs, k+1 {
		job := inflight
		job.wg.Wait()
		inflight = nil
		if hi := lo + bs; hi < len(cur) {
			inflight = x.startBatch(x.sets[(k+1)%2], cur[hi:min(hi+bs, len(cur))])
		}
		for _, err := range job.errs {
			if errors.Is(err, errOverBudget) {
				// this batch is incomplete: none of it is kept
				x.res.Limit, x.res.Exhausted = x.meter.Stop(), true
				return next, nil
			}
		}
		for _, err := range job.errs {
			if err != nil && !errors.Is(err, errOverBudget) {
				return nil, err
			}
		}
		fresh, err := x.mergeBatch(job, depth)
		if err != nil || x.res.Violation != nil || x.res.Limit != "" {
			return appendIDs(next, fresh), err
		}
		if err := x.checkFresh(job.set.runners, nil, fresh, depth); err != nil || x.res.Violation != nil {
			return nil, err
		}
		next = appendIDs(next, fresh)
		x.progress(len(cur)-lo-len(job.batch)+len(next), depth)
	}
	return next, nil
}

// workerSet is the runners of a parallel search's workers and their
// buffers; a set expands one batch at a time.
type workerSet struct {
	runners []*fast.Runner // in scratch mode
	arenas  [][]byte       // their encoding buffers
	pbufs   [][]eval.Value // their parameter buffers
	parts   [][]succ       // their successors
	keys    []byte         // the batch's keys, copied from the store
}

func newWorkerSet(m *eval.Machine, w int) *workerSet {
	ws := &workerSet{runners: make([]*fast.Runner, w), arenas: make([][]byte, w), pbufs: make([][]eval.Value, w), parts: make([][]succ, w)}
	for i := range ws.runners {
		ws.runners[i] = fast.NewRunner(m)
		ws.runners[i].SetScratch(true)
	}
	return ws
}

// batchJob is the expansion of one batch by a worker set.
type batchJob struct {
	set    *workerSet
	batch  []int32
	keys   [][]byte     // the states' keys, in set.keys
	pres   []eval.State // the decoded states
	counts []int        // their successors
	dead   []bool       // no successor and not final
	errs   []error      // per worker
	wg     sync.WaitGroup
}

// startBatch starts the expansion of batch on the workers of set and
// returns at once; the job's wg says when it is done. The keys are copied
// first, on this goroutine: the store grows while the workers run.
func (x *explorer) startBatch(set *workerSet, batch []int32) *batchJob {
	w := len(set.runners)
	job := &batchJob{set: set, batch: batch, keys: make([][]byte, len(batch)), pres: make([]eval.State, len(batch)),
		counts: make([]int, len(batch)), dead: make([]bool, len(batch)), errs: make([]error, w)}
	set.keys = set.keys[:0]
	offs := make([]int, len(batch)+1)
	for i, id := range batch {
		set.keys = append(set.keys, x.st.Key(int(id))...)
		offs[i+1] = len(set.keys)
	}
	for i := range batch {
		job.keys[i] = set.keys[offs[i]:offs[i+1]:offs[i+1]]
	}
	for k := 0; k < w; k++ {
		job.wg.Add(1)
		go func(k int) {
			defer job.wg.Done()
			job.errs[k] = x.expandPart(job, k)
		}(k)
	}
	return job
}

// expandPart expands states k, k+w, … of a batch on worker k of its set.
// What the workers share (the job's slices, the set's per-worker slice
// headers) is written once per state or once per part, not per successor:
// neighbouring entries belong to different workers and share cache lines.
func (x *explorer) expandPart(job *batchJob, k int) error {
	set := job.set
	w := len(set.runners)
	r := set.runners[k]
	r.Release()
	arena, pbuf, part := set.arenas[k][:0], set.pbufs[k][:0], set.parts[k][:0]
	defer func() { set.arenas[k], set.pbufs[k], set.parts[k] = arena, pbuf, part }()
	// The budget is looked at every 64 successors of the part, and every
	// overBytes of new encodings: a part grows over all its states, each
	// of which may have fewer than 64 successors, or large ones.
	since, atBytes := 0, 0
	for i := k; i < len(job.batch); i += w {
		if x.lean {
			r.Release()
		}
		pre, err := r.Decode(job.keys[i])
		if err != nil {
			return err
		}
		job.pres[i] = pre
		over := false
		n := 0
		err = r.Successors(pre, func(act int, params []eval.Value, post eval.State) bool {
			n++
			start := len(arena)
			var orbit int32
			arena, orbit = x.encode(r, arena, post)
			key := arena[start:len(arena):len(arena)]
			p0 := len(pbuf)
			pbuf = append(pbuf, params...)
			part = append(part, succ{act: act, p0: p0, p1: len(pbuf), post: post, key: key, hash: x.st.Hash(key), orbit: orbit})
			if since++; since >= 64 || len(arena)-atBytes >= overBytes {
				since, atBytes = 0, len(arena)
				if x.meter.Over() {
					over = true
					return false
				}
			}
			return true
		})
		job.counts[i] = n
		if err == nil && over {
			err = errOverBudget
		}
		if err == nil && n == 0 && x.m.HasFinal() {
			var ok bool
			ok, err = r.Final(pre)
			job.dead[i] = !ok
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeBatch inserts the successors of an expanded batch in batch order
// (worker k holds states k, k+w, … in order) and returns the new states.
// It stops at a deadlock (a violation) or at the state limit.
func (x *explorer) mergeBatch(job *batchJob, depth int) ([]item, error) {
	set := job.set
	w := len(set.runners)
	pos := make([]int, w)
	var fresh []item
	var hs []uint64
	for i := range job.batch {
		k := i % w
		if job.counts[i] == 0 {
			x.res.Deadlocks++
			if job.dead[i] {
				return fresh, x.violation(int(job.batch[i]), "")
			}
		}
		hs = hs[:0]
		for _, s := range set.parts[k][pos[k] : pos[k]+job.counts[i]] {
			hs = append(hs, s.hash)
		}
		x.st.Prefetch(hs)
		for c := 0; c < job.counts[i]; c++ {
			s := &set.parts[k][pos[k]]
			pos[k]++
			if x.full() {
				return fresh, x.checkFresh(set.runners, nil, fresh, depth)
			}
			x.res.Transitions++
			from := int(job.batch[i])
			id, isNew, err := x.insert(s.key, s.hash, from)
			if err != nil {
				return nil, err
			}
			if isNew {
				x.represented += int64(s.orbit)
				post := s.post
				if x.lean {
					post = nil // released: checkFresh decodes it
				}
				fresh = append(fresh, item{id: id, s: post, k: k})
				if v := x.cfg.Visitor; v != nil && v.State != nil {
					if err := v.State(id, depth, s.post); err != nil {
						return nil, err
					}
				}
			}
			if err := x.transition(from, id, job.pres[i], s.post, s.act, set.pbufs[k][s.p0:s.p1], isNew); err != nil {
				return nil, err
			}
		}
	}
	return fresh, nil
}

// item is a new state of a parallel batch, found by worker k.
type item struct {
	id int
	s  eval.State
	k  int
}

func appendIDs(ids []int32, items []item) []int32 {
	for _, it := range items {
		ids = append(ids, int32(it.id))
	}
	return ids
}

// checkFresh checks the new states of a batch in parallel and records the
// violation of the first violating one. With flats (levelFlat), a state
// decoded from its key is first checked by Flat, and by the Runner only
// when Flat does not find every condition to hold.
func (x *explorer) checkFresh(runners []*fast.Runner, flats []*fast.FlatRunner, fresh []item, depth int) error {
	if len(fresh) > 0 && depth > x.res.MaxDepth {
		x.res.MaxDepth = depth
	}
	w := len(runners)
	names := make([]string, len(fresh))
	errs := make([]error, w)
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			// Each worker checks the states it computed, whose memory
			// its core has written (and may still cache).
			r := runners[k]
			for i := range fresh {
				if fresh[i].k != k {
					continue
				}
				s := fresh[i].s
				if s == nil && flats != nil {
					if holds, ok := flats[k].Holds(x.st.Key(fresh[i].id), x.invs); holds && ok {
						continue
					}
				}
				if s == nil {
					r.Release()
					var err error
					if s, err = r.Decode(x.st.Key(fresh[i].id)); err != nil {
						errs[k] = err
						return
					}
				}
				name, err := r.Violated(s, x.invs)
				if err != nil {
					errs[k] = err
					return
				}
				if name != "" {
					names[i] = name
				}
			}
		}(k)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i, name := range names {
		if name != "" {
			return x.violation(fresh[i].id, name)
		}
	}
	return nil
}

// finish fills in the statistics.
func (x *explorer) finish(err error) error {
	if err != nil {
		return err
	}
	r := x.res
	el := time.Since(x.start)
	r.States = x.st.Len()
	r.Elapsed = el.Seconds()
	if el > 0 {
		r.StatesPerSecond = float64(r.States) / el.Seconds()
	}
	r.MemoryBytes = x.st.Bytes()
	x.meter.sample()
	_, r.PeakMemoryBytes = x.meter.Memory()
	r.Complete = r.Violation == nil && r.Limit == ""
	if sy := r.Symmetry; sy != nil && sy.NotRepresented == "" {
		sy.Represented = x.represented
		if el > 0 {
			sy.RepresentedPerSecond = float64(x.represented) / el.Seconds()
		}
	}
	return nil
}
