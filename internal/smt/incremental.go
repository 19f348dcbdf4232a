// This file implements Workspace and Solver: many problems translated into
// one Z3 context and checked incrementally, under assumption literals, by
// solvers that keep their assertions across checks. Inference uses them
// to search (internal/infer); no verdict of theirs reaches the kernel.

package smt

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ladder/internal/logic"
	"ladder/internal/z3"
)

// Workspace translates the assertions of many problems into its session's
// context. A constant is one Z3 constant across the problems, by name and
// sort, except those whose name begins with the Local prefix, which are
// renamed apart per problem (the constants package encode gives to lifted
// lambdas are numbered per problem: "lambda!0" means something else in
// every problem). A Workspace is not safe for concurrent use.
type Workspace struct {
	ss       *Session
	owned    *z3.Context // the context OpenWorkspace made, or nil
	local    string
	problems int
	sorts    map[string]*logic.Sort // the sort of every constant translated, by Z3 name
	defs     map[string]string      // shared local constants by the key of their definition
}

// Formula is an assertion translated by a Workspace; the zero Formula
// (a duplicate definition) asserts nothing.
type Formula struct{ a z3.AST }

// NewWorkspace returns a Workspace over ss. local is the prefix of the
// constants renamed apart per problem ("" : none).
func (ss *Session) NewWorkspace(local string) *Workspace {
	return &Workspace{ss: ss, local: local, sorts: map[string]*logic.Sort{}, defs: map[string]string{}}
}

// OpenWorkspace returns a Workspace over a new Z3 context of its own;
// Close it when done (after its solvers).
func OpenWorkspace(local string) (*Workspace, error) {
	zc, err := z3.NewContext(nil)
	if err != nil {
		return nil, err
	}
	w := NewSession(zc).NewWorkspace(local)
	w.owned = zc
	return w, nil
}

// Close releases the context of a Workspace that OpenWorkspace returned.
func (w *Workspace) Close() {
	if w.owned != nil {
		w.owned.Close()
		w.owned = nil
	}
}

// Translate returns the assertions of p, in order, as formulas. p must be
// lambda-free (logic.LiftLambdas).
func (w *Workspace) Translate(p *logic.Problem) ([]Formula, error) {
	b, err := w.ss.newBuilder(&logic.Problem{Decls: p.Decls})
	if err != nil {
		return nil, err
	}
	sig, err := p.Signature()
	if err != nil {
		return nil, err
	}
	w.problems++
	suffix := "!" + strconv.Itoa(w.problems)
	rename, dup := w.shareDefinitions(p, sig)
	for _, c := range sig.Consts {
		name := c.Name()
		if r, ok := rename[name]; ok {
			name = r
		} else if w.local != "" && strings.HasPrefix(name, w.local) {
			name += suffix
		}
		if s, ok := w.sorts[name]; ok && s.String() != c.Sort().String() {
			return nil, fmt.Errorf("constant %s has sort %s in one problem and %s in another", name, s, c.Sort())
		}
		w.sorts[name] = c.Sort()
		zs, err := b.sort(c.Sort())
		if err != nil {
			return nil, err
		}
		x, err := w.ss.zc.Const(name, zs)
		if err != nil {
			return nil, err
		}
		b.consts[c.Name()] = x
	}
	out := make([]Formula, len(p.Assertions))
	for i, a := range p.Assertions {
		if dup[i] {
			continue
		}
		if logic.HasLambda(a.Term) {
			return nil, fmt.Errorf("assertion %s contains a lambda term, which Z3 4.8.12 mishandles: lift it with logic.LiftLambdas", a.Name)
		}
		x, err := b.term(a.Term)
		if err != nil {
			return nil, fmt.Errorf("assertion %s: %w", a.Name, err)
		}
		out[i] = Formula{x}
	}
	return out, nil
}

// shareDefinitions finds the assertions "definition of X" of p that
// define a local constant X (logic.LiftLambdas) by an axiom that an
// earlier problem gave another local constant: X is then that constant,
// and its definition a duplicate. It returns the names given to p's
// defined local constants, and which assertions are duplicates.
func (w *Workspace) shareDefinitions(p *logic.Problem, sig *logic.Signature) (map[string]string, []bool) {
	rename := map[string]string{}
	dup := make([]bool, len(p.Assertions))
	if w.local == "" {
		return rename, dup
	}
	consts := map[string]*logic.Term{}
	for _, c := range sig.Consts {
		consts[c.Name()] = c
	}
	for i, a := range p.Assertions {
		x, ok := strings.CutPrefix(a.Name, "definition of ")
		self := consts[x]
		if !ok || self == nil || !strings.HasPrefix(x, w.local) {
			continue
		}
		// The axiom with X and the local constants defined before it
		// under their shared names: equal keys, equal definitions.
		pairs := []logic.Pair{{From: self, To: logic.Const(w.local+"self", self.Sort())}}
		for from, to := range rename {
			pairs = append(pairs, logic.Pair{From: consts[from], To: logic.Const(to, consts[from].Sort())})
		}
		key := logic.Subst(a.Term, pairs...).String()
		if name, ok := w.defs[key]; ok {
			rename[x] = name
			dup[i] = true
			continue
		}
		name := w.local + "shared!" + strconv.Itoa(len(w.defs))
		w.defs[key] = name
		rename[x] = name
	}
	return rename, dup
}

// And returns the conjunction of fs.
func (w *Workspace) And(fs ...Formula) (Formula, error) {
	xs := make([]z3.AST, 0, len(fs))
	for _, f := range fs {
		if !f.a.IsNil() {
			xs = append(xs, f.a)
		}
	}
	if len(xs) == 1 {
		return Formula{xs[0]}, nil
	}
	if len(xs) == 0 {
		x, err := w.ss.zc.True()
		return Formula{x}, err
	}
	x, err := w.ss.zc.And(xs...)
	return Formula{x}, err
}

// Solver is a Z3 solver of a Workspace's context that keeps its
// assertions: formulas asserted outright or under named Boolean literals,
// checked under assumptions of such literals. Not safe for concurrent use.
type Solver struct {
	w    *Workspace
	s    *z3.Solver
	lits map[string]z3.AST
	cfg  Config
}

// NewSolver returns a solver of w's context with cfg's limits (applied to
// every check).
func (w *Workspace) NewSolver(cfg Config) (*Solver, error) {
	s, err := w.ss.zc.NewSolver(z3.SolverConfig{RLimit: cfg.RLimit, RandomSeed: cfg.Seed, TimeoutMS: cfg.TimeoutMS, Simple: true})
	if err != nil {
		return nil, err
	}
	return &Solver{w: w, s: s, lits: map[string]z3.AST{}, cfg: cfg}, nil
}

// Close releases the solver.
func (s *Solver) Close() { s.s.Close() }

// SetRLimit sets the resource limit of the next checks.
func (s *Solver) SetRLimit(n uint64) error { return s.s.SetRLimit(n) }

// literal returns the Boolean constant of literal name.
func (s *Solver) literal(name string) (z3.AST, error) {
	if x, ok := s.lits[name]; ok {
		return x, nil
	}
	bs, err := s.w.ss.zc.BoolSort()
	if err != nil {
		return z3.AST{}, err
	}
	x, err := s.w.ss.zc.Const("ladder!lit!"+name, bs)
	if err != nil {
		return z3.AST{}, err
	}
	s.lits[name] = x
	return x, nil
}

// Assert asserts the conjunction of fs.
func (s *Solver) Assert(fs ...Formula) error {
	for _, f := range fs {
		if f.a.IsNil() {
			continue
		}
		if err := s.s.Assert(f.a); err != nil {
			return err
		}
	}
	return nil
}

// AssertUnder asserts that literal lit implies the conjunction of fs.
func (s *Solver) AssertUnder(lit string, fs ...Formula) error {
	l, err := s.literal(lit)
	if err != nil {
		return err
	}
	xs := make([]z3.AST, 0, len(fs))
	for _, f := range fs {
		if !f.a.IsNil() {
			xs = append(xs, f.a)
		}
	}
	var body z3.AST
	switch len(xs) {
	case 0:
		return nil
	case 1:
		body = xs[0]
	default:
		if body, err = s.w.ss.zc.And(xs...); err != nil {
			return err
		}
	}
	imp, err := s.w.ss.zc.Implies(l, body)
	if err != nil {
		return err
	}
	return s.s.Assert(imp)
}

// AssertAny asserts that literal lit implies one of the literals of some.
func (s *Solver) AssertAny(lit string, some []string) error {
	l, err := s.literal(lit)
	if err != nil {
		return err
	}
	xs := make([]z3.AST, len(some))
	for i, n := range some {
		if xs[i], err = s.literal(n); err != nil {
			return err
		}
	}
	var body z3.AST
	if len(xs) == 0 {
		body, err = s.w.ss.zc.False()
	} else {
		body, err = s.w.ss.zc.Or(xs...)
	}
	if err != nil {
		return err
	}
	imp, err := s.w.ss.zc.Implies(l, body)
	if err != nil {
		return err
	}
	return s.s.Assert(imp)
}

// Check checks the assertions with the literals of assume true, and
// returns the status, Z3's reason for unknown, the resource units and the
// time.
func (s *Solver) Check(goctx context.Context, assume []string) (*Result, error) {
	xs := make([]z3.AST, len(assume))
	for i, n := range assume {
		var err error
		if xs[i], err = s.literal(n); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	r, err := s.s.CheckAssumptionsContext(goctx, xs)
	res := &Result{Seconds: time.Since(start).Seconds()}
	if err != nil {
		return nil, err
	}
	res.RLimitUsed = s.s.RLimitUsed()
	switch r {
	case z3.Sat:
		res.Status = Sat
	case z3.Unsat:
		res.Status = Unsat
	default:
		res.Reason = s.s.ReasonUnknown()
	}
	return res, nil
}

// Conj is a conjunction of formulas, evaluated conjunct by conjunct by
// True: a conjunct several Conjs share (the same term, by Z3's
// hash-consing) is evaluated once per model, and a false conjunct ends
// the evaluation, so put the conjunct most likely false first.
type Conj struct {
	parts []Formula
	ids   []uint
}

// NewConj returns the conjunction of fs (without the zero formulas).
func NewConj(fs ...Formula) Conj {
	var c Conj
	for _, f := range fs {
		if !f.a.IsNil() {
			c.parts = append(c.parts, f)
			c.ids = append(c.ids, f.a.ID())
		}
	}
	return c
}

// True evaluates the model of the last check, which must have answered
// sat: it returns those of names (literals) that are true in it, and
// which of cs it makes true with model completion (a conjunct the model
// evaluator cannot reduce to true, such as one with a quantifier, counts
// as not true; the empty conjunction is true).
func (s *Solver) True(names []string, cs []Conj) ([]string, []bool, error) {
	m, err := s.s.Model()
	if err != nil {
		return nil, nil, err
	}
	defer m.Close()
	holds := func(a z3.AST, completion bool) (bool, error) {
		v, err := m.Eval(a, completion)
		return err == nil && v.BoolValue() == z3.True, err
	}
	memo := map[uint]bool{}
	conj := func(c Conj) (bool, error) {
		for i, f := range c.parts {
			v, ok := memo[c.ids[i]]
			if !ok {
				var err error
				if v, err = holds(f.a, true); err != nil {
					return false, err
				}
				memo[c.ids[i]] = v
			}
			if !v {
				return false, nil
			}
		}
		return true, nil
	}
	var lits []string
	for _, n := range names {
		l, err := s.literal(n)
		if err != nil {
			return nil, nil, err
		}
		ok, err := holds(l, false)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			lits = append(lits, n)
		}
	}
	out := make([]bool, len(cs))
	for i, c := range cs {
		if out[i], err = conj(c); err != nil {
			return nil, nil, err
		}
	}
	return lits, out, nil
}

// Core returns the literals of the unsat core of the last check, which
// must have answered unsat.
func (s *Solver) Core() ([]string, error) {
	core, err := s.s.UnsatCore()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(core))
	for _, x := range core {
		n, ok := strings.CutPrefix(strings.Trim(x.String(), "|"), "ladder!lit!")
		if !ok {
			return nil, fmt.Errorf("unsat core literal %s is not an assumption", x)
		}
		out = append(out, n)
	}
	return out, nil
}

// Text returns the solver's assertions as SMT-LIB2 text.
func (s *Solver) Text() (string, error) { return s.s.ToSMT2() }
