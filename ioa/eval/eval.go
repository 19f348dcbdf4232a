// This file implements evaluating single expressions: Eval, for one-off
// evaluation, and Func, a compiled expression for repeated evaluation.

package eval

import (
	"fmt"
	"sync"

	"ladder/internal/source"
	"ladder/ioa/expr"
)

// Env gives the values of the free names of an expression.
type Env struct {
	Inst   *Instance              // sizes and constants; nil means no parameter sorts and no constant values
	State  State                  // the values of state variables (ObjVar identifiers, by Index)
	Params []Value                // the values of action parameters (ObjParam identifiers, by Index)
	Vars   map[*expr.Object]Value // the values of free bound variables (ObjBound)
	States map[*expr.Object]State // named whole states (ObjState), as `c` and `a` in proof files
	Consts map[*expr.Object]Value // optional: constant values by object, overriding Inst and the definitions
}

// RecoverInternal turns a panic into an internal error. The evaluator does
// not panic on values it built itself; this guards against malformed values
// passed in from outside.
func RecoverInternal(err *error) {
	if r := recover(); r != nil {
		*err = &source.Error{Code: source.ErrInternal, Msg: fmt.Sprintf("evaluator: malformed value or internal error: %v", r)}
	}
}

// Eval returns the value of e in env. e must be sort-checked. The error
// reports what cannot be evaluated in a finite instance (a quantifier over
// Int, a map with an integer key, a parameter sort without a size, a
// constant without a value, a name without a value) and integer overflow;
// every other expression has a value (docs/language.md, "Total semantics").
// Eval compiles e each time: use Compile or a Machine to evaluate an
// expression often.
func Eval(e expr.Expr, env *Env) (v Value, err error) {
	return evalWith(e, env, false)
}

// evalWith is Eval, optionally without constant folding (for tests).
func evalWith(e expr.Expr, env *Env, noFold bool) (v Value, err error) {
	defer RecoverInternal(&err)
	if env == nil {
		env = &Env{}
	}
	var free []*expr.Object
	var args []Value
	for obj, x := range env.Vars {
		free = append(free, obj)
		args = append(args, x)
	}
	for obj, s := range env.States {
		free = append(free, obj)
		args = append(args, s.AsValue())
	}
	c := newCompiler(env.Inst)
	c.noFold = noFold
	for obj, x := range env.Consts {
		c.consts[obj] = x
	}
	c.nstate = len(env.State)
	c.nparams = len(env.Params)
	f, err := compileFunc(c, e, free)
	if err != nil {
		return Value{}, err
	}
	return f.Eval(env.State, env.Params, args...)
}

// Func is a compiled expression. It is safe for concurrent use.
type Func struct {
	body    fn
	nlocals int
	free    []int // slots of the free objects
	sort    *expr.Sort
	frames  sync.Pool // *frame with nlocals locals, reused across calls of Eval
}

// Compile compiles e for instance inst. free lists the objects that each
// call of Eval gives values for, in order: bound variables (ObjBound) and
// whole states (ObjState, given as State.AsValue()).
func Compile(e expr.Expr, inst *Instance, free ...*expr.Object) (f *Func, err error) {
	defer RecoverInternal(&err)
	return compileFunc(newCompiler(inst), e, free)
}

func compileFunc(c *compiler, e expr.Expr, free []*expr.Object) (*Func, error) {
	if e == nil {
		return nil, fmt.Errorf("no expression")
	}
	f := &Func{sort: e.Sort()}
	for _, obj := range free {
		if obj == nil {
			return nil, fmt.Errorf("nil free object")
		}
		s, undo := c.bind(obj)
		defer undo()
		f.free = append(f.free, s)
	}
	body, err := c.expr(e)
	if err != nil {
		return nil, err
	}
	f.body = body
	f.nlocals = c.nlocals
	return f, nil
}

// Sort returns the sort of the compiled expression.
func (f *Func) Sort() *expr.Sort { return f.sort }

// Eval evaluates the expression with state s (for state variables), action
// parameters params, and the values of the free objects given to Compile.
func (f *Func) Eval(s State, params []Value, args ...Value) (v Value, err error) {
	return f.EvalIn(nil, s, params, args...)
}

// EvalIn is Eval with the values the expression builds in ar (nil:
// allocated); the value it returns is valid until ar's next Release.
func (f *Func) EvalIn(ar *Arena, s State, params []Value, args ...Value) (v Value, err error) {
	defer RecoverInternal(&err)
	if len(args) != len(f.free) {
		return Value{}, fmt.Errorf("expression takes %d free values, not %d", len(f.free), len(args))
	}
	fr, _ := f.frames.Get().(*frame)
	if fr == nil {
		fr = &frame{locals: make([]Value, f.nlocals)}
	}
	fr.state, fr.params = s, params
	if ar != nil {
		fr.ar = &ar.ar
	}
	for i, slot := range f.free {
		fr.locals[slot] = args[i]
	}
	v = f.body(fr)
	err = fr.err
	// The frame goes back to the pool only after a normal return; nothing
	// the body returns refers to its locals.
	*fr = frame{locals: fr.locals}
	clear(fr.locals)
	f.frames.Put(fr)
	if err != nil {
		return Value{}, err
	}
	return v, nil
}
