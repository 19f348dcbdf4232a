package smt

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"ladder/internal/logic"
	"ladder/internal/z3"
)

// Status is a verdict.
type Status int

// The verdicts.
const (
	Unknown Status = iota
	Sat
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Config configures one check. Only RLimit and Seed may influence a cached
// verdict; TimeoutMS is a wall-clock safety net.
type Config struct {
	RLimit    uint64 // Z3's deterministic resource limit (0: none)
	Seed      uint   // the solver's random_seed
	TimeoutMS uint   // wall-clock limit in milliseconds (0: none)
	Model     bool   // on sat, keep the model in the Result
	// Simple checks with Z3's plain SMT solver (Z3_mk_simple_solver)
	// rather than its default combined solver, which runs a preprocessing
	// tactic on a query checked once.
	Simple bool
}

// Result is the outcome of a check.
type Result struct {
	Status     Status
	Reason     string  // Z3's reason for unknown
	RLimitUsed uint64  // resource units used by the check
	Seconds    float64 // wall-clock time of the check
	Model      *Model  // on sat with Config.Model; Close it when done
}

// Session translates problems into one Z3 context and checks them. It
// keeps the sorts and datatypes it declared, so that every problem checked
// in the context reuses them: Z3 4.8.12 must not see a datatype name
// declared twice in one context (its datatype plugin frees the first
// definition while terms still refer to it, and deleting the context then
// crashes). A datatype whose name was already declared with a different
// definition gets a fresh Z3 name (name!2, ...); models are read by
// constructor index, so names do not matter. Use one Session per context
// and never parse SMT-LIB2 text that declares datatypes into that context
// (CheckText uses a context of its own). A Session is not safe for
// concurrent use.
type Session struct {
	zc    *z3.Context
	sorts map[string]z3.Sort        // by logic sort text (uninterpreted, arrays, Bool, Int)
	dts   map[string][]declaredType // by logic datatype name
}

type declaredType struct {
	dt *logic.Datatype
	zd *z3.Datatype
}

// NewSession returns a Session over the caller-owned context zc.
func NewSession(zc *z3.Context) *Session {
	return &Session{zc: zc, sorts: map[string]z3.Sort{}, dts: map[string][]declaredType{}}
}

// Check decides p with the Z3 API. p must be lambda-free (see
// logic.LiftLambdas; package encode's problems are).
func (ss *Session) Check(goctx context.Context, p *logic.Problem, cfg Config) (*Result, error) {
	b, err := ss.newBuilder(p)
	if err != nil {
		return nil, err
	}
	var asts []z3.AST
	for _, a := range p.Assertions {
		x, err := b.term(a.Term)
		if err != nil {
			return nil, fmt.Errorf("assertion %s: %w", a.Name, err)
		}
		asts = append(asts, x)
	}
	return run(goctx, ss.zc, b, cfg, func(s *z3.Solver) ([]z3.AST, error) {
		for _, x := range asts {
			if err := s.Assert(x); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}, nil)
}

// CheckText decides p from its canonical SMT-LIB2 text through Z3's
// parser, as the z3 command line reads it, in a fresh Z3 context of its
// own (deleted before it returns). It returns no model.
func CheckText(goctx context.Context, p *logic.Problem, cfg Config) (*Result, error) {
	text, err := p.Text()
	if err != nil {
		return nil, err
	}
	return CheckScript(goctx, text, cfg)
}

// CheckScript is CheckText for a problem already printed: text is its
// canonical SMT-LIB2 text (logic.Problem.Text), as the kernel holds it.
func CheckScript(goctx context.Context, text string, cfg Config) (*Result, error) {
	zc, err := z3.NewContext(nil)
	if err != nil {
		return nil, err
	}
	defer zc.Close()
	cfg.Model = false
	return run(goctx, zc, nil, cfg, func(s *z3.Solver) ([]z3.AST, error) { return nil, s.AssertSMTLIB2(text) }, nil)
}

// CorePrefix begins the names of CoreScript's tracking literals. A text
// that mentions it must not be checked tracked: one of its own constants
// could be taken for a literal and assumed true.
const CorePrefix = "ladder!core!"

// CoreScript checks the SMT-LIB2 text of a problem with n assertions
// (logic.Problem.Text) in a fresh context, as CheckScript does, except
// that each of the problem's assertions is tracked by an assumption literal
// (the definitions the text adds for hoisted constant arrays are not); on
// unsat it also returns the indices of the assertions in the unsat core Z3
// reports. The core is Z3's account of which assertions its refutation
// used, a hint: a subset proves nothing until it is checked on its own.
func CoreScript(goctx context.Context, text string, n int, cfg Config) (*Result, []int, error) {
	zc, err := z3.NewContext(nil)
	if err != nil {
		return nil, nil, err
	}
	defer zc.Close()
	// The text asserts the definitions of the constant arrays it hoists
	// first (logic.Problem.Text), then the problem's n assertions in order:
	// only those are tracked.
	var core []int
	cfg.Model = false
	res, err := run(goctx, zc, nil, cfg, func(s *z3.Solver) ([]z3.AST, error) {
		return s.AssertSMTLIB2Tracked(text, n, CorePrefix)
	}, func(s *z3.Solver) error {
		used, err := s.UnsatCore()
		if err != nil {
			return err
		}
		for _, l := range used {
			i, err := strconv.Atoi(strings.TrimPrefix(l.String(), CorePrefix))
			if err != nil || !strings.HasPrefix(l.String(), CorePrefix) || i < 0 || i >= n {
				return fmt.Errorf("unsat core literal %s is not an assumption", l)
			}
			core = append(core, i)
		}
		sort.Ints(core)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res, core, nil
}

// run checks in a new solver of zc what assert asserts, under the
// assumption literals assert returns when there are any, and calls onUnsat
// (when not nil) on an unsat answer.
func run(goctx context.Context, zc *z3.Context, b *builder, cfg Config, assert func(*z3.Solver) ([]z3.AST, error), onUnsat func(*z3.Solver) error) (*Result, error) {
	s, err := zc.NewSolver(z3.SolverConfig{RLimit: cfg.RLimit, RandomSeed: cfg.Seed, TimeoutMS: cfg.TimeoutMS, Simple: cfg.Simple})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	assume, err := assert(s)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var r z3.Result
	if len(assume) > 0 {
		r, err = s.CheckAssumptionsContext(goctx, assume)
	} else {
		r, err = s.CheckContext(goctx)
	}
	secs := time.Since(start).Seconds()
	if err != nil {
		return nil, err
	}
	res := &Result{RLimitUsed: s.RLimitUsed(), Seconds: secs}
	switch r {
	case z3.Sat:
		res.Status = Sat
		if cfg.Model && b != nil {
			m, err := s.Model()
			if err != nil {
				return nil, err
			}
			res.Model = &Model{b: b, m: m, elems: map[string]z3.AST{}}
		}
	case z3.Unsat:
		res.Status = Unsat
		if onUnsat != nil {
			if err := onUnsat(s); err != nil {
				return nil, err
			}
		}
	default:
		res.Status = Unknown
		res.Reason = s.ReasonUnknown()
	}
	return res, nil
}

// builder translates the terms of one problem into Z3 ASTs.
type builder struct {
	ss     *Session
	zc     *z3.Context
	dts    map[string]*z3.Datatype // the problem's datatypes by logic name
	consts map[string]z3.AST       // free constants by name
	memo   map[*logic.Term]z3.AST
	model  *Model // when building for model evaluation: universe elements
}

func (ss *Session) newBuilder(p *logic.Problem) (*builder, error) {
	sig, err := p.Signature()
	if err != nil {
		return nil, err
	}
	for _, a := range p.Assertions {
		if logic.HasLambda(a.Term) {
			return nil, fmt.Errorf("assertion %s contains a lambda term, which Z3 4.8.12 mishandles: lift it with logic.LiftLambdas", a.Name)
		}
	}
	b := &builder{ss: ss, zc: ss.zc, dts: map[string]*z3.Datatype{}, consts: map[string]z3.AST{}, memo: map[*logic.Term]z3.AST{}}
	for _, s := range sig.Sorts {
		if _, err := b.sort(s); err != nil {
			return nil, err
		}
	}
	for _, dt := range sig.Datatypes {
		if _, err := b.declare(dt); err != nil {
			return nil, err
		}
	}
	for _, c := range sig.Consts {
		if _, err := b.constant(c.Name(), c.Sort()); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// declare returns the Z3 datatype for dt, declaring it in the session's
// context unless an identical definition was declared before.
func (b *builder) declare(dt *logic.Datatype) (*z3.Datatype, error) {
	if zd, ok := b.dts[dt.Name()]; ok {
		return zd, nil
	}
	list := b.ss.dts[dt.Name()]
	for _, d := range list {
		if sameDatatype(d.dt, dt) {
			b.dts[dt.Name()] = d.zd
			return d.zd, nil
		}
	}
	specs := make([]z3.ConstructorSpec, dt.NumConstructors())
	for i := range specs {
		c := dt.Constructor(i)
		specs[i] = z3.ConstructorSpec{Name: c.Name}
		for _, f := range c.Fields {
			fs, err := b.sort(f.Sort)
			if err != nil {
				return nil, err
			}
			specs[i].Fields = append(specs[i].Fields, z3.Field{Name: f.Name, Sort: fs})
		}
	}
	name := dt.Name()
	if len(list) > 0 {
		name += "!" + strconv.Itoa(len(list)+1)
	}
	zd, err := b.zc.DatatypeSort(name, specs)
	if err != nil {
		return nil, err
	}
	b.ss.dts[dt.Name()] = append(list, declaredType{dt: dt, zd: zd})
	b.dts[dt.Name()] = zd
	return zd, nil
}

// sameDatatype reports whether two datatypes have the same constructors,
// fields and field sorts.
func sameDatatype(a, b *logic.Datatype) bool {
	if a == b {
		return true
	}
	if a.Name() != b.Name() || a.NumConstructors() != b.NumConstructors() {
		return false
	}
	for i := 0; i < a.NumConstructors(); i++ {
		ca, cb := a.Constructor(i), b.Constructor(i)
		if ca.Name != cb.Name || len(ca.Fields) != len(cb.Fields) {
			return false
		}
		for j := range ca.Fields {
			if ca.Fields[j].Name != cb.Fields[j].Name || ca.Fields[j].Sort.String() != cb.Fields[j].Sort.String() {
				return false
			}
			if sa, sb := ca.Fields[j].Sort.Datatype(), cb.Fields[j].Sort.Datatype(); sa != nil && sb != nil && !sameDatatype(sa, sb) {
				return false
			}
		}
	}
	return true
}

func (b *builder) sort(s *logic.Sort) (z3.Sort, error) {
	if s.Kind() == logic.SortDatatype {
		zd, err := b.declare(s.Datatype())
		if err != nil {
			return z3.Sort{}, err
		}
		return zd.Sort, nil
	}
	if zs, ok := b.ss.sorts[s.String()]; ok {
		return zs, nil
	}
	var zs z3.Sort
	var err error
	switch s.Kind() {
	case logic.SortBool:
		zs, err = b.zc.BoolSort()
	case logic.SortInt:
		zs, err = b.zc.IntSort()
	case logic.SortUninterpreted:
		zs, err = b.zc.UninterpretedSort(s.Name())
	case logic.SortArray:
		d, err1 := b.sort(s.Domain())
		if err1 != nil {
			return z3.Sort{}, err1
		}
		r, err1 := b.sort(s.Range())
		if err1 != nil {
			return z3.Sort{}, err1
		}
		zs, err = b.zc.ArraySort(d, r)
		if err != nil {
			return z3.Sort{}, err
		}
		// arrays over datatypes depend on the problem's datatype versions:
		// do not cache them in the session
		return zs, nil
	default:
		return z3.Sort{}, fmt.Errorf("unknown sort %s", s)
	}
	if err != nil {
		return z3.Sort{}, err
	}
	b.ss.sorts[s.String()] = zs
	return zs, nil
}

func (b *builder) constant(name string, s *logic.Sort) (z3.AST, error) {
	if c, ok := b.consts[name]; ok {
		return c, nil
	}
	if b.model != nil {
		if e, ok := b.model.elems[name]; ok {
			return e, nil
		}
	}
	zs, err := b.sort(s)
	if err != nil {
		return z3.AST{}, err
	}
	c, err := b.zc.Const(name, zs)
	if err != nil {
		return z3.AST{}, err
	}
	b.consts[name] = c
	return c, nil
}

func (b *builder) datatype(t *logic.Term) (*z3.Datatype, error) {
	zd, err := b.declare(t.Datatype())
	if err != nil {
		return nil, err
	}
	if t.CtorIndex() >= len(zd.Constructors) {
		return nil, fmt.Errorf("datatype %s has no constructor %d", t.Datatype().Name(), t.CtorIndex())
	}
	return zd, nil
}

// term translates t; bound variables become constants "%name".
func (b *builder) term(t *logic.Term) (z3.AST, error) {
	if x, ok := b.memo[t]; ok {
		return x, nil
	}
	if t.Err() != nil {
		return z3.AST{}, t.Err()
	}
	x, err := b.term1(t)
	if err != nil {
		return z3.AST{}, err
	}
	b.memo[t] = x
	return x, nil
}

func (b *builder) args(t *logic.Term) ([]z3.AST, error) {
	out := make([]z3.AST, t.NumArgs())
	for i := range out {
		var err error
		if out[i], err = b.term(t.Arg(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (b *builder) boundVar(v *logic.Term) (z3.AST, error) {
	zs, err := b.sort(v.Sort())
	if err != nil {
		return z3.AST{}, err
	}
	return b.zc.Const("%"+v.Name(), zs)
}

func (b *builder) term1(t *logic.Term) (z3.AST, error) {
	zc := b.zc
	switch t.Kind() {
	case logic.KindConst:
		return b.constant(t.Name(), t.Sort())
	case logic.KindVar:
		return b.boundVar(t)
	case logic.KindInt:
		return zc.Int(t.Int64())
	case logic.KindBool:
		return zc.Bool(t.BoolValue())
	case logic.KindForall, logic.KindExists, logic.KindLambda:
		vars := t.Vars()
		bound := make([]z3.AST, len(vars))
		for i, v := range vars {
			var err error
			if bound[i], err = b.boundVar(v); err != nil {
				return z3.AST{}, err
			}
		}
		body, err := b.term(t.Body())
		if err != nil {
			return z3.AST{}, err
		}
		if t.Kind() == logic.KindLambda {
			return zc.Lambda(bound, body)
		}
		var pats []z3.Pattern
		for _, p := range t.Patterns() {
			terms := make([]z3.AST, len(p))
			for i, x := range p {
				if terms[i], err = b.term(x); err != nil {
					return z3.AST{}, err
				}
			}
			pat, err := zc.Pattern(terms...)
			if err != nil {
				return z3.AST{}, err
			}
			pats = append(pats, pat)
		}
		if t.Kind() == logic.KindForall {
			return zc.Forall(bound, body, pats...)
		}
		return zc.Exists(bound, body, pats...)
	case logic.KindApp:
	default:
		return z3.AST{}, fmt.Errorf("cannot translate term %s", t)
	}
	if t.Op() == logic.OpConstArray {
		v, err := b.term(t.Arg(0))
		if err != nil {
			return z3.AST{}, err
		}
		d, err := b.sort(t.Sort().Domain())
		if err != nil {
			return z3.AST{}, err
		}
		return zc.ConstArray(d, v)
	}
	a, err := b.args(t)
	if err != nil {
		return z3.AST{}, err
	}
	switch t.Op() {
	case logic.OpNot:
		return zc.Not(a[0])
	case logic.OpAnd:
		return zc.And(a...)
	case logic.OpOr:
		return zc.Or(a...)
	case logic.OpImplies:
		return zc.Implies(a[0], a[1])
	case logic.OpEq:
		return zc.Eq(a[0], a[1])
	case logic.OpDistinct:
		return zc.Distinct(a...)
	case logic.OpIte:
		return zc.Ite(a[0], a[1], a[2])
	case logic.OpAdd:
		return zc.Add(a...)
	case logic.OpSub:
		return zc.Sub(a...)
	case logic.OpNeg:
		return zc.Neg(a[0])
	case logic.OpMul:
		return zc.Mul(a...)
	case logic.OpDiv:
		return zc.Div(a[0], a[1])
	case logic.OpMod:
		return zc.Mod(a[0], a[1])
	case logic.OpLt:
		return zc.Lt(a[0], a[1])
	case logic.OpLe:
		return zc.Le(a[0], a[1])
	case logic.OpGt:
		return zc.Gt(a[0], a[1])
	case logic.OpGe:
		return zc.Ge(a[0], a[1])
	case logic.OpSelect:
		return zc.Select(a[0], a[1])
	case logic.OpStore:
		return zc.Store(a[0], a[1], a[2])
	case logic.OpCtor, logic.OpIs, logic.OpField:
		zd, err := b.datatype(t)
		if err != nil {
			return z3.AST{}, err
		}
		c := zd.Constructors[t.CtorIndex()]
		switch t.Op() {
		case logic.OpCtor:
			return zc.Apply(c.Constructor, a...)
		case logic.OpIs:
			return zc.Apply(c.Tester, a...)
		}
		if t.FieldIndex() >= len(c.Accessors) {
			return z3.AST{}, fmt.Errorf("constructor %s has no field %d", c.Name, t.FieldIndex())
		}
		return zc.Apply(c.Accessors[t.FieldIndex()], a...)
	}
	return z3.AST{}, fmt.Errorf("cannot translate operator %v", t.Op())
}
