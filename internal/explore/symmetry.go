// This file implements symmetry reduction (Config.Symmetry): the static
// check that an automaton treats the elements of a parameter sort alike,
// and the canonical encodings the store keeps instead of states.
//
// A permutation π of the elements of some parameter sorts acts on states.
// When every action and every checked condition commutes with π (s —a(p)→ s'
// exactly when π(s) —a(π(p))→ π(s'), and P(s) exactly when P(π(s))), the
// states reachable from π(s0) are the images under π of those reachable from
// s0. Storing each state as the canonical representative of its orbit
// (eval.Symmetry.AppendCanonical) then visits exactly one state per orbit of
// the reachable states: a condition fails in a reachable state exactly when
// it fails in a visited representative, and the BFS depth of an orbit is the
// length of a shortest execution to any of its states. The start states
// need not be symmetric: the orbits reached are those of the states
// reachable from them.
//
// The check is conservative and syntactic. It reads every expression the
// search evaluates outside the start states: action parameter ranges,
// preconditions, effects, the checked invariants, `final:`, the views'
// event arguments (which the cross-checker compares and --implements
// follows), and the definitions and constants they use. The initial state (`init:` and
// `initially:`) may single out any element. Elsewhere:
//
//   - an element literal T#i of a symmetric sort is refused;
//   - a constant whose value is an element of a symmetric sort (`v0: V`) is
//     refused; a constant with a defining expression is read as that
//     expression;
//   - a value that can be the default value of its sort (get(o), last(s),
//     s[i] on a sequence: language.md, "Total semantics") fixes T#0 for each
//     symmetric T the default holds (the default of T is T#0, of a record its
//     fields' defaults, of Map[K, X] the constant map of X's default): the
//     permutations then fix T#0, and T is symmetric among its other elements.
//     A use that is guarded (below) does not.
//
// Guards (symmetry_guard.go). Read the semantics with the default of each
// sort whose T#0 is not fixed as a parameter d. If no expression's value
// depends on d, a permutation π commutes with the automaton: evaluating at
// π(s) with default T#0 is evaluating at s with default π⁻¹(T#0), renamed
// by π. A get(o), last(s) or s[i] whose operands are in range (o is Some,
// s is not empty, 0 <= i < len(s)) yields a value of the state, not d. So
// a use need not fix T#0 when facts of its context make it in range
// wherever it is evaluated. The evaluator (ioa/eval) evaluates `and`, `or`
// and `=>` left to right and stops as soon as the value is known, and `if`
// only the branch taken, so each rule below also never computes the
// default at all where its facts fail (which keeps run-time errors, such
// as an integer overflow, off values computed from it). The facts of a
// context:
//
//   - in B of `A and B` and `A => B`, the facts of A (B is evaluated only
//     when A holds); in B of `A or B`, those of `not A`; in the branches of
//     `if A then B else C`, in expressions and in effects, those of A in B
//     and of `not A` in C. (Facts of B in A are not used: A is evaluated
//     first, with the default, even when B's facts fail.)
//   - in the body of a quantifier with a range binder `x in lo..hi`, and
//     in the later binders' bounds: lo <= x and x < hi (the range is
//     half-open, language.md).
//   - in a top-level conjunct of a precondition: the facts of the ranges
//     of the action's parameters up to the last one it mentions, and of
//     the conjuncts written before it that mention no later parameter (the
//     machine checks a conjunct as soon as its parameters are bound, in
//     the order written, so those are checked first). In the effect: those
//     of every range and of the whole precondition: the effect is
//     evaluated only when they hold, and in the pre-state.
//   - effects are simultaneous: every right-hand side, index and condition
//     is evaluated in the pre-state, so an assignment invalidates no fact
//     of a later statement.
//
// The facts of A (when A holds; of `not A` when A fails) are its atomic
// conjuncts through and, or, =>, not and calls of definitions (the facts
// of the body with the parameters replaced by the arguments): isSome(o),
// isNone(o) false, integer comparisons a < b, a <= b, a > b, a >= b, a = b
// and their negations, len(s) != 0 and s != []. A fact is recorded only
// when its operands are simple: names, literals, operators, map lookups,
// fields and built-ins other than get and last, whose values are those of
// the variables they name, never a default. They are compared by
// structure and resolved object, so that a binder shadowing a name is
// another name. Then:
//
//   - get(o) is in range under isSome(o);
//   - s[i] is in range under i < len(s) with 0 <= i (a fact lo <= i with
//     lo a literal >= 0, or -1 < i, or i a non-negative literal, or len(...)),
//     or under i + k <= len(s) with k >= 1 instead of i < len(s);
//     s[k] for a literal k >= 0 under len(s) > k; s[len(s) - k] under
//     len(s) >= k;
//   - last(s) is in range under len(s) >= 1: s != [], len(s) != 0,
//     len(s) > k for a literal k >= 0 or a non-negative i, len(s) >= k for
//     a literal k >= 1.
//
// 0 <= i also holds for a sum or product of non-negative terms (the
// evaluator is exact: no sum wraps around).
//
// A definition's body is read per call, with the fact 0 <= p for each Int
// parameter p whose argument is non-negative at that call (by the rules
// above), once per set of such parameters: a body is evaluated only by
// calls, with the parameters bound to the arguments' values, so each
// evaluation is one that a reading with true facts covers. (memAt(n) in
// ReservationTMS2 indexes order[n] under n < len(order); its calls pass
// 0, i + 1, and parameters ranging from 0.)
//
// A Nat read from a state gives 0 <= i where the search checks the
// state's Nat conditions before it evaluates anything in it: a state
// variable of sort Nat, through map lookups, sequence indices (out of
// range: the default 0) and record fields. explore checks every state it
// stores first (Nat conditions before invariants, Runner.Violated), and
// computes successors only of stored states. A cross-check does so for
// the states of the automaton it explores, and checks the Nat conditions
// of a step's post-state before it checks the step, but never those of
// the abstract states a step computes on the way (u1, …, u_m−1), so it
// takes no such fact from the abstract automaton (Config.NatUnchecked)
// nor from a proof's abstract state objects. A violated Nat condition
// then stops the search at that state, before anything of it could
// differ between the reduced and the full search. A definition parameter
// of sort Nat gives no fact: its argument is not checked. Every other use
// fixes T#0, as does a use in a definition's body not guarded inside the
// body or by the facts of every call.
//
// Nothing else in the language can tell elements apart: the operators on
// parameter sorts are = and != (the sort checker refuses <, <=, …), and
// quantifiers, lambdas, comprehensions and parameters range over whole
// sorts.

package explore

import (
	"fmt"
	"sort"
	"strings"

	"ladder/internal/source"
	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
	"ladder/ioa/expr"
)

// SymmetryError is a --symmetry request that the automaton does not
// support: it treats the elements of the sort differently at Pos.
type SymmetryError struct {
	Pos source.Pos
	Msg string
	// Sort is the sort whose elements are treated differently, when one
	// is: the search may still be reduced over the others.
	Sort string
}

// Error returns "file:line:col: message".
func (e *SymmetryError) Error() string {
	return (&source.Error{Pos: e.Pos, Code: source.ErrUsage, Msg: e.Msg}).Error()
}

// Symmetry describes the symmetry reduction of a search
// (Result.Symmetry).
type Symmetry struct {
	Sorts []SymmetricSort `json:"sorts"`
	// Permutations is the order of the group: the product over the sorts of
	// the factorial of their free elements.
	Permutations int `json:"permutations"`
	// Represented is the number of states of the orbits found, the sum of
	// their sizes (the order of the group over the order of the
	// representative's stabilizer): for a complete search, the number of
	// states a search without symmetry reduction finds. It is 0, and
	// NotRepresented says why, with dead-register reduction (which
	// merges states that are not images of each other) or when the start
	// states are not closed under the permutations (the orbits then hold
	// unreachable states).
	Represented int64 `json:"represented"`
	// RepresentedPerSecond is Represented over the search's wall-clock
	// time.
	RepresentedPerSecond float64 `json:"representedPerSecond"`
	NotRepresented       string  `json:"notRepresented,omitempty"`
	// Default is set when the sorts were chosen by default: every
	// parameter sort the static check accepts.
	Default bool `json:"default,omitempty"`
	// Declared says where the sorts were declared when they come from
	// the automaton's interface (`symmetry:`), not from the command
	// line: "interface TM at specs/tm.yaml:35:1".
	Declared string `json:"declared,omitempty"`
}

// SymmetricSort is one sort whose elements the reduction permutes.
type SymmetricSort struct {
	Sort  string   `json:"sort"`            // the parameter sort
	Size  int      `json:"size"`            // its elements in the instance
	Fixed []string `json:"fixed,omitempty"` // the elements every permutation fixes, as "V#0"
	// Why says why the Fixed elements are fixed: the first expression
	// that can yield them, "file:line:col: …".
	Why string `json:"why,omitempty"`
}

// String returns "T (3 elements)" or "V (2 elements, V#0 fixed)".
func (s SymmetricSort) String() string {
	elems := "elements"
	if s.Size == 1 {
		elems = "element"
	}
	if len(s.Fixed) == 0 {
		return fmt.Sprintf("%s (%d %s)", s.Sort, s.Size, elems)
	}
	return fmt.Sprintf("%s (%d %s, %s fixed)", s.Sort, s.Size, elems, strings.Join(s.Fixed, ", "))
}

// symChecker collects what breaks the symmetry of the requested sorts.
type symChecker struct {
	a     *ioa.Automaton
	inst  *eval.Instance
	sorts map[string]bool
	fixed map[string]string // sort → why its default element T#0 is fixed
	seen  map[*expr.Object]bool
	// seenDef: the definitions with parameters read, per set of
	// parameters known non-negative (defCall)
	seenDef map[defFacts]bool
	refuse  *SymmetryError
	// proof is set when the expressions are a proof's, which may name no
	// element anywhere (an automaton may, in its initial state).
	proof bool
	// natVars and natObjs are the state variables and the state objects
	// whose Nat conditions hold wherever an expression reads them
	// (natRead): the caller checks them in each state before evaluating
	// anything in it.
	natVars, natObjs map[*expr.Object]bool
}

// ExprChecker checks expressions of a proof edge for symmetry: the rules
// of CheckSymmetry for an automaton's expressions, except that no element
// of a symmetric sort may be named at all. The cross-checker runs it on a
// proof's relation, mapping and steps.
type ExprChecker struct{ c *symChecker }

// NewExprChecker returns a checker for the symmetric sorts of sorts in
// the instance inst; it records in fixed (sort → why) the sorts whose
// element T#0 an expression may yield as a default value. natChecked
// lists the proof's state objects, and the automata, whose states the
// caller checks for their Nat conditions before evaluating any
// expression in them: a Nat read from one is non-negative (the rules of
// CheckSymmetry, file comment).
func NewExprChecker(inst *eval.Instance, sorts []string, fixed map[string]string, natObjs []*expr.Object, natAutos []*ioa.Automaton) *ExprChecker {
	c := &symChecker{inst: inst, sorts: map[string]bool{}, fixed: fixed, seen: map[*expr.Object]bool{}, proof: true,
		natObjs: map[*expr.Object]bool{}, natVars: map[*expr.Object]bool{}}
	for _, s := range sorts {
		c.sorts[s] = true
	}
	for _, o := range natObjs {
		c.natObjs[o] = true
	}
	for _, a := range natAutos {
		for _, v := range a.Vars {
			c.natVars[v.Obj] = true
		}
	}
	return &ExprChecker{c}
}

// Expr checks e, with the definitions and constants it names.
func (x *ExprChecker) Expr(e expr.Expr) { x.c.expr(e) }

// ExprAt checks e, an expression of a proof's step correspondence for
// the concrete action act, where the facts of act's parameter ranges and
// precondition hold, each state variable x of act read as st.x (st is
// the proof's pre-state object c). The rules evaluate a step's
// expressions only once the hypothesis Pre_α(c, p) has been found true
// (package simulation, forwardStep and backwardStep), and a cross-check
// explains a failure only on an enabled step.
func (x *ExprChecker) ExprAt(e expr.Expr, act *ioa.Action, st *expr.Object) {
	x.c.check(e, x.c.enabledFacts(act, st))
}

// Err returns the first refusal (a *SymmetryError), or nil.
func (x *ExprChecker) Err() error {
	if x.c.refuse != nil {
		return x.c.refuse
	}
	return nil
}

// CheckSymmetry checks that a treats the elements of each of sorts alike
// in the instance inst (resolved, as Machine uses it) where the search
// evaluates it, with the invariants invs (nil: all) checked, and returns
// the sorts with the elements each permutation must fix. An automaton that
// singles out an element gives a *SymmetryError at the expression that does.
// natChecked says that the search checks the Nat conditions of each state
// before it evaluates anything in it (explore's does), so that a Nat
// variable read is non-negative.
func CheckSymmetry(a *ioa.Automaton, inst *eval.Instance, sorts, invs []string, natChecked bool) ([]eval.SymSort, error) {
	out, _, err := checkSymmetry(a, inst, sorts, invs, natChecked)
	return out, err
}

// checkSymmetry is CheckSymmetry; it also returns, per sort with a fixed
// element, why it is fixed.
func checkSymmetry(a *ioa.Automaton, inst *eval.Instance, sorts, invs []string, natChecked bool) ([]eval.SymSort, map[string]string, error) {
	c := &symChecker{a: a, inst: inst, sorts: map[string]bool{}, fixed: map[string]string{}, seen: map[*expr.Object]bool{}, natVars: map[*expr.Object]bool{}}
	if natChecked {
		for _, v := range a.Vars {
			c.natVars[v.Obj] = true
		}
	}
	for _, name := range sorts {
		found := false
		for _, s := range a.Sorts {
			if s != nil && s.Kind == expr.KParam && s.Name == name {
				found = true
			}
		}
		if !found {
			return nil, nil, boundErrorf("--symmetry %s: %s is not a parameter sort of %s", name, name, a.Name)
		}
		if c.sorts[name] {
			return nil, nil, boundErrorf("--symmetry: %s given twice", name)
		}
		c.sorts[name] = true
	}
	for _, act := range a.Actions {
		c.action(act.Params, act.Pre, act.Eff)
	}
	// The views' arguments: the events a cross-check compares and the
	// traces --implements follows.
	for _, v := range a.View {
		for _, e := range v.Args {
			c.expr(e)
		}
	}
	for _, inv := range a.Invariants {
		if invs == nil || contains(invs, inv.Name) {
			c.expr(inv.Body)
		}
	}
	for _, f := range a.Final {
		c.expr(f)
	}
	if c.refuse != nil {
		return nil, nil, c.refuse
	}
	var out []eval.SymSort
	for _, name := range sorts {
		ss := eval.SymSort{Name: name}
		if _, ok := c.fixed[name]; ok {
			ss.Fixed = []int{0}
		}
		out = append(out, ss)
	}
	return out, c.fixed, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rule says where the elements of a symmetric sort may be named.
func (c *symChecker) rule() string {
	if c.proof {
		return "the proof's expressions must treat the elements of a symmetric sort alike"
	}
	return "a symmetric sort's elements may be named only in the initial state (init:, initially:)"
}

// fail records the first refusal.
func (c *symChecker) fail(pos source.Pos, sort string, format string, args ...any) {
	if c.refuse == nil {
		c.refuse = &SymmetryError{Pos: pos, Msg: fmt.Sprintf(format, args...), Sort: sort}
	}
}

// defaults fixes T#0 for each symmetric sort T whose element the default
// value of s holds, because what (at pos) may evaluate to that default.
func (c *symChecker) defaults(s *expr.Sort, pos source.Pos, what string) {
	c.defaults1(s, s, pos, what)
}

func (c *symChecker) defaults1(top, s *expr.Sort, pos source.Pos, what string) {
	if s == nil {
		return
	}
	switch s.Kind {
	case expr.KParam:
		if c.sorts[s.Name] {
			if _, ok := c.fixed[s.Name]; !ok {
				c.fixed[s.Name] = fmt.Sprintf("%s: %s can evaluate to the default value of %s, which holds %s#0", pos, what, top, s.Name)
			}
		}
	case expr.KRecord:
		for _, f := range s.Fields {
			c.defaults1(top, f.Sort, pos, what)
		}
	case expr.KMap:
		c.defaults1(top, s.Elem, pos, what)
	}
}

// holds reports whether values of s can hold an element of a symmetric sort.
func (c *symChecker) holds(s *expr.Sort) bool {
	if s == nil {
		return false
	}
	switch s.Kind {
	case expr.KParam:
		return c.sorts[s.Name]
	case expr.KRecord:
		for _, f := range s.Fields {
			if c.holds(f.Sort) {
				return true
			}
		}
	case expr.KMap:
		return c.holds(s.Key) || c.holds(s.Elem)
	case expr.KSet, expr.KSeq, expr.KOption:
		return c.holds(s.Elem)
	}
	return false
}

// expr reads e where no fact holds.
func (c *symChecker) expr(e expr.Expr) { c.check(e, nil) }

// object reads what a name used at pos stands for: the body of a
// definition, the value of a constant.
func (c *symChecker) object(pos source.Pos, o *expr.Object) {
	if o == nil {
		return
	}
	switch o.Kind {
	case expr.ObjDef:
		if !c.seen[o] {
			c.seen[o] = true
			c.expr(o.Body)
		}
	case expr.ObjConst:
		if !c.holds(o.Sort) {
			return
		}
		_, bound := c.inst.Consts[o.Name]
		switch {
		case o.Body != nil && !bound:
			if !c.seen[o] {
				c.seen[o] = true
				c.expr(o.Body)
			}
		case o.Sort.Kind == expr.KParam && c.proof:
			c.fail(pos, o.Sort.Name, "--symmetry %s: the constant %s is an element of %s; %s",
				o.Sort.Name, o.Name, o.Sort.Name, c.rule())
		case o.Sort.Kind == expr.KParam:
			c.fail(pos, o.Sort.Name, "--symmetry %s: the constant %s is an element of %s, used outside the initial state; %s",
				o.Sort.Name, o.Name, o.Sort.Name, c.rule())
		default:
			// an arbitrary value of a composite sort: its default
			c.defaults(o.Sort, pos, "the constant "+o.Name)
		}
	}
}

// setupSymmetry compiles the group of cfg.Symmetry for the search.
func (x *explorer) setupSymmetry() error {
	if len(x.cfg.Symmetry) == 0 {
		return nil
	}
	if x.cfg.Visitor != nil {
		return fmt.Errorf("symmetry reduction cannot be combined with a visitor: the search would show representatives, not the states reached")
	}
	sorts, why, err := checkSymmetry(x.m.A, x.m.Inst, x.cfg.Symmetry, x.cfg.Invariants, !x.cfg.NatUnchecked)
	if err != nil {
		return err
	}
	g, err := x.m.NewSymmetry(sorts)
	if err != nil {
		return boundErrorf("--symmetry: %v", err)
	}
	info := &Symmetry{Permutations: g.Order()}
	for _, ss := range sorts {
		s := SymmetricSort{Sort: ss.Name, Size: x.m.Inst.Sizes[ss.Name], Why: why[ss.Name]}
		for _, i := range ss.Fixed {
			s.Fixed = append(s.Fixed, fmt.Sprintf("%s#%d", ss.Name, i))
		}
		info.Sorts = append(info.Sorts, s)
	}
	sort.SliceStable(info.Sorts, func(i, j int) bool { return info.Sorts[i].Sort < info.Sorts[j].Sort })
	if x.dead != nil {
		g = g.WithDead(x.dead)
	}
	x.sym, x.res.Symmetry = g, info
	return nil
}

// encode appends the key under which the store keeps s: its encoding (r
// copies the variables s shares with the state r last decoded), or with
// symmetry reduction its canonical encoding. It also returns the number of
// states of the orbit of s (1 without symmetry reduction).
func (x *explorer) encode(r *fast.Runner, buf []byte, s eval.State) ([]byte, int32) {
	if x.sym == nil {
		if x.dead != nil {
			return r.EncodeDead(buf, s, x.dead), 1
		}
		return r.Encode(buf, s), 1
	}
	buf, n := x.sym.EncodeCanonical(r, buf, s)
	return buf, int32(x.sym.Order() / n)
}

// stateKey is encode without a runner.
func (x *explorer) stateKey(buf []byte, s eval.State) ([]byte, int32) {
	if x.sym == nil {
		if x.dead != nil {
			return x.dead.AppendState(buf, s), 1
		}
		return x.m.AppendState(buf, s), 1
	}
	buf, n := x.sym.AppendCanonical(buf, s)
	return buf, int32(x.sym.Order() / n)
}

// startsClosed reports whether the set of start states is closed under
// the symmetry group: then so is the set of reachable states (every
// action commutes with the permutations), each orbit found lies wholly
// in it, and the orbits' sizes add up to the number of reachable states
// the search represents. The start states are closed exactly when their
// orbits hold no more states than there are distinct start states.
func (x *explorer) startsClosed(inits []eval.State) bool {
	plain := map[string]bool{}
	orbits := map[string]int32{}
	var buf []byte
	for _, s := range inits {
		plain[string(x.m.AppendState(buf[:0], s))] = true
		var n int32
		buf, n = x.stateKey(buf[:0], s)
		orbits[string(buf)] = n
	}
	sum := 0
	for _, n := range orbits {
		sum += int(n)
	}
	return sum == len(plain)
}

// checkReplay re-checks, with symmetry or dead-register reduction, that
// the last state of a trace rebuilt from representatives violates name
// (or, for name "", is a deadlock that is not final): the trace is a real
// execution from a start state (trace replays every step with the
// evaluator), and its last state must fail the condition itself, not only
// its representative.
func (x *explorer) checkReplay(t *Trace, name string) error {
	if x.sym == nil && x.dead == nil || len(t.Steps) == 0 {
		return nil
	}
	last := t.Steps[len(t.Steps)-1].State
	r := fast.NewRunner(x.m)
	if name != "" {
		got, err := r.Violated(last, x.invs)
		if err != nil {
			return err
		}
		if got != name {
			return fmt.Errorf("internal error: state reduction: the representative violates %s but the last state of the replayed trace does not", name)
		}
		return nil
	}
	n := 0
	if err := r.Successors(last, func(int, []eval.Value, eval.State) bool { n++; return false }); err != nil {
		return err
	}
	final := false
	if x.m.HasFinal() {
		ok, err := r.Final(last)
		if err != nil {
			return err
		}
		final = ok
	}
	if n > 0 || final {
		return fmt.Errorf("internal error: state reduction: the representative is a deadlock but the last state of the replayed trace is not")
	}
	return nil
}

// writeText writes the reduction's line (nothing for a nil s), and why
// elements are fixed.
func (s *Symmetry) writeText(ew *errWriter) {
	if s == nil {
		return
	}
	var parts []string
	for _, ss := range s.Sorts {
		parts = append(parts, ss.String())
	}
	ew.printf("symmetry: %s: %d permutations; the states counted are orbit representatives\n", strings.Join(parts, ", "), s.Permutations)
	if s.Declared != "" {
		ew.printf("  declared by %s\n", s.Declared)
	}
	if s.Default {
		ew.printf("  by default: the parameter sorts the static check accepts (--symmetry none turns it off)\n")
	}
	if s.NotRepresented != "" {
		ew.printf("  the orbits' states are not counted: %s\n", s.NotRepresented)
	} else {
		ew.printf("  the orbits hold %d states (%.0f states/s)\n", s.Represented, s.RepresentedPerSecond)
	}
	for _, ss := range s.Sorts {
		if ss.Why != "" {
			ew.printf("  %s fixed: %s\n", strings.Join(ss.Fixed, ", "), ss.Why)
		}
	}
}
