package encode

import (
	"fmt"
	"sort"
	"strconv"

	"ladder/internal/logic"
	"ladder/ioa"
	"ladder/ioa/expr"
)

// State is a symbolic state of an automaton: one Value per state variable,
// in the order of Automaton.Vars. It is either a copy of fresh symbols
// (NewState) or computed (Post, StateOf).
type State struct {
	Automaton *ioa.Automaton
	Name      string
	Vars      []Value
}

// Value returns the state as a value of the automaton's state record sort.
func (st *State) Value() Value {
	// Values are immutable (Parts copies), and a state's Vars are set
	// only when it is made: the record shares them.
	return Value{sort: st.Automaton.StateSort, parts: st.Vars[:len(st.Vars):len(st.Vars)]}
}

// Var returns the value of the named variable and whether it exists.
func (st *State) Var(name string) (Value, bool) {
	for i, v := range st.Automaton.Vars {
		if v.Name == name && i < len(st.Vars) {
			return st.Vars[i], true
		}
	}
	return Value{}, false
}

// NewState returns a state of fresh constants named name.x (with
// suffixes for flattened parts: name.x.f, name.x.len, name.x.elems, ...)
// for the variables x of a. Their structural well-formedness is recorded
// as a background fact (asserted by Problem when they occur); their Nat
// conditions are not (see NatFacts).
func (e *Encoder) NewState(a *ioa.Automaton, name string) (*State, error) {
	if a == nil {
		return nil, fmt.Errorf("NewState: no automaton")
	}
	st := &State{Automaton: a, Name: name, Vars: make([]Value, len(a.Vars))}
	for i, v := range a.Vars {
		x, err := e.freshSymbols(v.Sort, name+"."+v.Name, false)
		if err != nil {
			return nil, errAt(v.Pos, "state variable %s: %v", v.Name, err)
		}
		st.Vars[i] = x
	}
	return st, nil
}

// StateOf returns the state of a whose variables have the given values
// (for instance a witness state computed from expressions).
func (e *Encoder) StateOf(a *ioa.Automaton, name string, vals []Value) (*State, error) {
	if a == nil || len(vals) != len(a.Vars) {
		return nil, fmt.Errorf("StateOf: %d values for the variables of %v", len(vals), a)
	}
	st := &State{Automaton: a, Name: name, Vars: make([]Value, len(vals))}
	for i, v := range vals {
		if !expr.Assignable(v.sort, a.Vars[i].Sort) {
			return nil, fmt.Errorf("StateOf: value of sort %s for variable %s of sort %s", v.sort, a.Vars[i].Name, a.Vars[i].Sort)
		}
		st.Vars[i] = withSort(v, a.Vars[i].Sort)
	}
	return st, nil
}

// NewParams returns fresh constants name.p for the parameters p of act,
// with their background facts (well-formedness and Nat). Ranges of Int
// parameters are part of Pre, not of these facts.
func (e *Encoder) NewParams(act *ioa.Action, name string) ([]Value, error) {
	out := make([]Value, len(act.Params))
	for i, b := range act.Params {
		if b == nil || b.Var == nil {
			return nil, errAt(act.Pos, "malformed parameter %d of %s", i, act.Name)
		}
		s := b.Var.Sort
		if b.Lo != nil {
			s = expr.IntSort
		}
		v, err := e.freshSymbols(s, name+"."+b.Var.Name, true)
		if err != nil {
			return nil, errAt(b.P, "parameter %s: %v", b.Var.Name, err)
		}
		out[i] = v
	}
	return out, nil
}

// Init returns the initial condition of st: every variable with an init
// equals it (init expressions read no state), and every `initially`
// predicate holds in st.
func (e *Encoder) Init(st *State) (*logic.Term, error) {
	a := st.Automaton
	var cs []*logic.Term
	for i, v := range a.Vars {
		if v.Init == nil {
			continue
		}
		x, err := e.Expr(v.Init, &Env{})
		if err != nil {
			return nil, err
		}
		cs = append(cs, Eq(st.Vars[i], withSort(x, v.Sort)))
	}
	for _, p := range a.Initially {
		f, err := e.Formula(p, &Env{State: st})
		if err != nil {
			return nil, err
		}
		cs = append(cs, f)
	}
	return logic.And(cs...), nil
}

// Pre returns the enabling condition of act(params) in st: the ranges of
// its Int parameters (lo <= p < hi, bounds in st; also p >= 0 for a Nat
// parameter, as the evaluator requires) and its precondition.
func (e *Encoder) Pre(act *ioa.Action, st *State, params []Value) (*logic.Term, error) {
	if len(params) != len(act.Params) {
		return nil, errAt(act.Pos, "%s takes %d parameters, not %d", act.Name, len(act.Params), len(params))
	}
	env := &Env{State: st, Params: params}
	var cs []*logic.Term
	for i, b := range act.Params {
		if b.Lo == nil && b.Hi == nil {
			continue
		}
		if b.Lo == nil || b.Hi == nil {
			return nil, errAt(b.P, "malformed range parameter %s", b.Var.Name)
		}
		lo, err := e.Expr(b.Lo, env)
		if err != nil {
			return nil, err
		}
		hi, err := e.Expr(b.Hi, env)
		if err != nil {
			return nil, err
		}
		cs = append(cs, logic.Le(lo.leaf, params[i].leaf), logic.Lt(params[i].leaf, hi.leaf))
		if b.Var.Sort != nil && b.Var.Sort.Kind == expr.KNat {
			cs = append(cs, logic.Ge(params[i].leaf, logic.IntVal(0)))
		}
	}
	if act.Pre != nil {
		f, err := e.Formula(act.Pre, env)
		if err != nil {
			return nil, err
		}
		cs = append(cs, f)
	}
	return logic.And(cs...), nil
}

// Post returns the post-state of act(params) from st: the effect's
// assignments applied simultaneously (every right-hand side and index is
// read in st), if/else as ite per variable. It does not assume Pre.
func (e *Encoder) Post(act *ioa.Action, st *State, params []Value, name string) (*State, error) {
	if len(params) != len(act.Params) {
		return nil, errAt(act.Pos, "%s takes %d parameters, not %d", act.Name, len(act.Params), len(params))
	}
	env := &Env{State: st, Params: params}
	upd, err := e.stmts(act.Eff, env)
	if err != nil {
		return nil, err
	}
	post := &State{Automaton: st.Automaton, Name: name, Vars: append([]Value(nil), st.Vars...)}
	for i, v := range upd {
		post.Vars[i] = withSort(v, st.Automaton.Vars[i].Sort)
	}
	return post, nil
}

// stmts returns the new values of the variables a statement list assigns.
func (e *Encoder) stmts(list []expr.Stmt, env *Env) (map[int]Value, error) {
	out := map[int]Value{}
	for _, s := range list {
		switch s := s.(type) {
		case *expr.Assign:
			i, v, err := e.assign(s, env)
			if err != nil {
				return nil, err
			}
			if _, dup := out[i]; dup {
				return nil, errAt(s.P, "variable assigned twice on one path")
			}
			out[i] = v
		case *expr.IfStmt:
			c, err := e.Formula(s.Cond, env)
			if err != nil {
				return nil, err
			}
			th, err := e.stmts(s.Then, env)
			if err != nil {
				return nil, err
			}
			el, err := e.stmts(s.Else, env)
			if err != nil {
				return nil, err
			}
			keys := map[int]bool{}
			for k := range th {
				keys[k] = true
			}
			for k := range el {
				keys[k] = true
			}
			for k := range keys {
				if _, dup := out[k]; dup {
					return nil, errAt(s.P, "variable assigned twice on one path")
				}
				a, ok := th[k]
				if !ok {
					a = env.State.Vars[k]
				}
				b, ok := el[k]
				if !ok {
					b = env.State.Vars[k]
				}
				out[k] = ite(c, a, b)
			}
		default:
			if s != nil {
				return nil, errAt(s.Pos(), "unknown statement %T", s)
			}
		}
	}
	return out, nil
}

// assign returns the variable an assignment writes and its new value:
// `x[i].f := v` is `x := x[i := x[i] with {f := v}]`.
func (e *Encoder) assign(s *expr.Assign, env *Env) (int, Value, error) {
	// the selector path from the variable to the assigned place
	var path []expr.Expr
	t := s.Target
	for {
		switch x := t.(type) {
		case *expr.Index:
			path = append(path, x)
			t = x.X
			continue
		case *expr.FieldSel:
			path = append(path, x)
			t = x.X
			continue
		}
		break
	}
	id, ok := t.(*expr.Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != expr.ObjVar {
		return 0, Value{}, errAt(s.P, "the target of an assignment must be a state variable")
	}
	st := env.State
	if st == nil || id.Obj.Index < 0 || id.Obj.Index >= len(st.Vars) {
		return 0, Value{}, errAt(s.P, "no state variable %s", id.Name)
	}
	rhs, err := e.expr(s.Value, env)
	if err != nil {
		return 0, Value{}, err
	}
	// reverse: outermost selector first
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	v, err := e.updatePath(st.Vars[id.Obj.Index], path, rhs, env)
	if err != nil {
		return 0, Value{}, err
	}
	return id.Obj.Index, v, nil
}

func (e *Encoder) updatePath(base Value, path []expr.Expr, rhs Value, env *Env) (Value, error) {
	if len(path) == 0 {
		return withSort(rhs, base.sort), nil
	}
	switch sel := path[0].(type) {
	case *expr.Index:
		i, err := e.expr(sel.Index, env)
		if err != nil {
			return Value{}, err
		}
		var cur Value
		switch base.sort.Kind {
		case expr.KMap:
			cur, err = e.mapSelect(base, i)
		case expr.KSeq:
			cur, err = e.seqIndex(base, i)
		default:
			return Value{}, errAt(sel.Pos(), "cannot index a value of sort %s", base.sort)
		}
		if err != nil {
			return Value{}, err
		}
		nv, err := e.updatePath(cur, path[1:], rhs, env)
		if err != nil {
			return Value{}, err
		}
		return e.updateAt(sel.Pos(), base, i, nv)
	case *expr.FieldSel:
		cur, err := fieldOf(sel.Pos(), base, sel.Name)
		if err != nil {
			return Value{}, err
		}
		nv, err := e.updatePath(cur, path[1:], rhs, env)
		if err != nil {
			return Value{}, err
		}
		parts := base.Parts()
		parts[base.sort.FieldIndex(sel.Name)] = nv
		return Value{sort: base.sort, parts: parts}, nil
	}
	return Value{}, fmt.Errorf("malformed assignment target")
}

// StateEq returns the formula that two states of one automaton are equal
// (extensionally, variable by variable).
func StateEq(a, b *State) (*logic.Term, error) {
	if a.Automaton != b.Automaton || len(a.Vars) != len(b.Vars) {
		return nil, fmt.Errorf("StateEq: states of different automata")
	}
	cs := make([]*logic.Term, len(a.Vars))
	for i := range a.Vars {
		cs[i] = Eq(a.Vars[i], b.Vars[i])
	}
	return logic.And(cs...), nil
}

// NatFact returns the implicit condition of state variable i of st: for a
// Nat variable, x >= 0 (nested Nats included: map values, sequence
// elements within the length, record fields, Some payloads); true for
// variables without Nat. The prover proves it as the invariant `x:Nat`;
// only then may it be assumed of a pre-state.
func (e *Encoder) NatFact(st *State, i int) (*logic.Term, error) {
	if i < 0 || i >= len(st.Vars) {
		return nil, fmt.Errorf("NatFact: no variable %d", i)
	}
	return e.natFacts(st.Vars[i])
}

// NatFacts returns the conjunction of the NatFact of every variable of st.
func (e *Encoder) NatFacts(st *State) (*logic.Term, error) {
	var cs []*logic.Term
	for i := range st.Vars {
		f, err := e.NatFact(st, i)
		if err != nil {
			return nil, err
		}
		cs = append(cs, f)
	}
	return logic.And(cs...), nil
}

// WellFormed returns the structural well-formedness of st's values (see
// doc.go). For states from NewState it is already a background fact; it is
// exported for callers that want to assert it of other states.
func (e *Encoder) WellFormed(st *State) (*logic.Term, error) {
	var cs []*logic.Term
	for _, v := range st.Vars {
		w, err := e.wellFormed(v)
		if err != nil {
			return nil, err
		}
		cs = append(cs, w)
	}
	return logic.And(cs...), nil
}

// Problem returns the validity problem "hyps imply goal": the assertions
// are the background facts about the symbols that occur (each constrains
// only fresh symbols), the hypotheses in order, and the negated goal. The
// expected verdict is unsat. Background facts are: T#i constants of one
// sort are pairwise distinct; fresh states, parameters and constants are
// structurally well formed; fresh parameters and constants of Nat sorts are
// >= 0. Lambda terms are lifted to array constants with quantified
// definitions (logic.LiftLambdas), asserted first. A nil goal means false (the problem checks that the hypotheses are
// unsatisfiable).
func (e *Encoder) Problem(hyps []logic.Named, goal *logic.Term) (*logic.Problem, error) {
	p, _, err := e.ProblemConsts(hyps, goal)
	return p, err
}

// ProblemConsts is Problem, and also returns the names of the constants the
// problem's assertions mention, other than the lifted lambdas' (the
// constants of logic.FreeConsts over the assertions before lifting).
func (e *Encoder) ProblemConsts(hyps []logic.Named, goal *logic.Term) (*logic.Problem, map[string]bool, error) {
	if goal == nil {
		goal = logic.False()
	}
	main := append(append([]logic.Named(nil), hyps...), logic.Named{Name: "goal (negated)", Term: logic.Not(goal)})
	for _, h := range main {
		if h.Term == nil {
			return nil, nil, fmt.Errorf("assertion %s: nil term", h.Name)
		}
		if h.Term.Err() != nil {
			return nil, nil, fmt.Errorf("assertion %s: %w", h.Name, h.Term.Err())
		}
	}
	var terms []*logic.Term
	for _, h := range main {
		terms = append(terms, h.Term)
	}
	present := map[string]bool{}
	logic.ConstNames(present, terms...)
	// add facts about present symbols until nothing changes
	used := make([]bool, len(e.facts))
	var bg []logic.Named
	for changed := true; changed; {
		changed = false
		for i, f := range e.facts {
			if used[i] {
				continue
			}
			for _, a := range f.about {
				if present[a] {
					used[i], changed = true, true
					bg = append(bg, logic.Named{Name: f.name, Term: f.term})
					logic.ConstNames(present, f.term)
					break
				}
			}
		}
	}
	// distinctness of the T#i constants that occur
	var distinct []logic.Named
	sorts := make([]string, 0, len(e.elems))
	for s := range e.elems {
		sorts = append(sorts, s)
	}
	sort.Strings(sorts)
	for _, s := range sorts {
		var idx []int
		for i := range e.elems[s] {
			if present[s+"#"+strconv.Itoa(i)] {
				idx = append(idx, i)
			}
		}
		if len(idx) < 2 {
			continue
		}
		sort.Ints(idx)
		cs := make([]*logic.Term, len(idx))
		for j, i := range idx {
			cs[j] = e.elem(s, i)
		}
		distinct = append(distinct, logic.Named{Name: "distinct " + s + "#i", Term: logic.Distinct(cs...)})
	}
	p := &logic.Problem{Assertions: append(append(distinct, bg...), main...)}
	// Z3 4.8.12 mishandles lambda terms (see logic.LiftLambdas): replace
	// them by constants with quantified definitions. The problem is
	// well-formed by construction of its terms (each carries its own sort
	// error, checked above); Problem.Text, which the kernel prints every
	// problem with, checks the rest (declarations, names, loose variables).
	lifted, err := logic.LiftLambdas(p, "lambda!")
	if err != nil {
		return nil, nil, err
	}
	return lifted, present, nil
}
