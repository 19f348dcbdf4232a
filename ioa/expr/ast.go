// This file implements the abstract syntax of expressions, sort expressions,
// binders and effect statements, and the scopes that names resolve in.

package expr

import "ladder/internal/source"

// An Expr is an expression. After sort checking, Sort returns its sort;
// before, it returns nil.
type Expr interface {
	Pos() source.Pos
	Sort() *Sort
	setSort(*Sort)
	exprNode()
}

// base is embedded in every expression node.
type base struct {
	P source.Pos // position of the node's first token (for Binary, of its left operand; see Binary.OpPos)
	S *Sort      // set by the sort checker
}

// Pos returns the position of the node's first token.
func (b *base) Pos() source.Pos { return b.P }

// Sort returns the node's sort, nil before sort checking.
func (b *base) Sort() *Sort { return b.S }

func (b *base) setSort(s *Sort) { b.S = s }
func (b *base) exprNode()       {}

// SetSort sets the node's sort; it lets other packages build sorted nodes.
func (b *base) SetSort(s *Sort) { b.S = s }

// SetPos sets the node's position.
func (b *base) SetPos(p source.Pos) { b.P = p }

// Op is a unary or binary operator.
type Op int

// The operators, from lowest to highest precedence group.
const (
	OpInvalid Op = iota
	OpIff        // <=>, iff
	OpImplies    // =>, implies (right associative)
	OpOr         // or
	OpAnd        // and
	OpNot        // not (unary)
	OpEq         // =
	OpNeq        // !=
	OpLt         // <
	OpLe         // <=
	OpGt         // >
	OpGe         // >=
	OpIn         // in: element of a set
	OpNotIn      // notin
	OpSubset     // subset: set inclusion (not necessarily strict)
	OpAdd        // +
	OpSub        // -
	OpUnion      // union
	OpDiff       // \ : set difference
	OpMul        // *
	OpDiv        // div: Euclidean division, as SMT-LIB
	OpMod        // mod: Euclidean remainder, as SMT-LIB
	OpInter      // inter
	OpNeg        // - (unary)
)

var opNames = [...]string{
	OpInvalid: "?", OpIff: "<=>", OpImplies: "=>", OpOr: "or", OpAnd: "and", OpNot: "not",
	OpEq: "=", OpNeq: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=", OpIn: "in",
	OpNotIn: "notin", OpSubset: "subset", OpAdd: "+", OpSub: "-", OpUnion: "union",
	OpDiff: "\\", OpMul: "*", OpDiv: "div", OpMod: "mod", OpInter: "inter", OpNeg: "-",
}

// String returns the operator's concrete syntax.
func (o Op) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// ObjKind says what a name stands for.
type ObjKind int

// The object kinds.
const (
	ObjBad     ObjKind = iota
	ObjVar             // a state variable of the automaton in scope (Index: its position)
	ObjParam           // an action parameter (Index: its position)
	ObjBound           // a variable bound by forall, exists, let or lambda, or a definition parameter
	ObjConst           // a declared constant (Value may hold its defining expression)
	ObjEnum            // an enum constant (Index: its position in the enum)
	ObjDef             // a named definition (Params, Body)
	ObjState           // a whole automaton state, as `c` and `a` in proof files (Sort: the state record sort)
	ObjEvent           // an event of the interface (Params)
	ObjBuiltin         // a built-in function (len, last, append, ...)
	ObjSort            // a sort name
)

// Object is what an identifier resolves to. Objects are shared by all
// identifiers that refer to them: the evaluator and the SMT encoder key their
// environments by *Object.
type Object struct {
	Kind   ObjKind
	Name   string
	Sort   *Sort      // the object's sort; for ObjDef and ObjBuiltin, the result sort (nil if polymorphic)
	Pos    source.Pos // declaration
	Index  int        // ObjVar, ObjParam: position in the declaration; ObjEnum: ordinal
	Params []*Object  // ObjDef, ObjEvent: parameters (ObjBound objects)
	Body   Expr       // ObjDef: body; ObjConst: defining expression or nil (an arbitrary value)
	Owner  any        // the declaring automaton or proof (*ioa.Automaton, ...), when there is one
}

// Ambiguous is the Owner of an ObjBad object that stands for a name two
// declarations share in one scope (a proof's concrete and abstract
// automata): every use of the name reports the message.
type Ambiguous string

// Scope maps names to objects. Lookups walk to the parent. The zero value is
// an empty scope with no parent.
type Scope struct {
	Parent *Scope
	names  map[string]*Object
	order  []*Object
}

// NewScope returns an empty scope whose lookups fall back to parent.
func NewScope(parent *Scope) *Scope { return &Scope{Parent: parent} }

// Insert adds obj. If the scope (not its parents) already has the name, Insert
// leaves it and returns the existing object.
func (s *Scope) Insert(obj *Object) *Object {
	if old, ok := s.names[obj.Name]; ok {
		return old
	}
	if s.names == nil {
		s.names = make(map[string]*Object)
	}
	s.names[obj.Name] = obj
	s.order = append(s.order, obj)
	return nil
}

// Lookup returns the object named name in s or its parents, or nil.
func (s *Scope) Lookup(name string) *Object {
	for ; s != nil; s = s.Parent {
		if o, ok := s.names[name]; ok {
			return o
		}
	}
	return nil
}

// LookupLocal returns the object named name in s itself, or nil.
func (s *Scope) LookupLocal(name string) *Object { return s.names[name] }

// Objects returns the objects of s itself in insertion order.
func (s *Scope) Objects() []*Object { return s.order }

// ---- expression nodes ----

// Ident is a name: a variable, parameter, constant, enum constant,
// nullary definition, or `None`.
type Ident struct {
	base
	Name string
	Obj  *Object // set by the checker
}

// IntLit is an integer literal.
type IntLit struct {
	base
	Value int64
}

// BoolLit is true or false.
type BoolLit struct {
	base
	Value bool
}

// ElemLit is an element of a parameter sort, written `T#0`: distinct indices
// are distinct elements. Counterexamples and explorer traces print parameter
// values this way.
type ElemLit struct {
	base
	SortName string
	Index    int
}

// Unary is `not X` or `-X`.
type Unary struct {
	base
	Op Op
	X  Expr
}

// Binary is `X op Y`.
type Binary struct {
	base
	Op    Op
	X, Y  Expr
	OpPos source.Pos // position of the operator (NoPos for constructed nodes)
}

// Ite is `if Cond then Then else Else`.
type Ite struct {
	base
	Cond, Then, Else Expr
}

// Let is `let Name = Value in Body`.
type Let struct {
	base
	Var   *Object // ObjBound; Var.Name is the bound name
	Value Expr
	Body  Expr
}

// Binder binds one variable: `x: S` (SortExpr set) or `x in Lo..Hi`
// (integer range Lo <= x < Hi, sort Int).
type Binder struct {
	P        source.Pos
	Var      *Object  // ObjBound (ObjParam for action parameters)
	SortExpr SortExpr // the zero SortExpr (Name == "") for a range binder
	Lo, Hi   Expr     // non-nil for a range binder
}

// Quant is `forall b1, b2. Body` or `exists b1, b2. Body`.
type Quant struct {
	base
	Forall  bool
	Binders []*Binder
	Body    Expr
}

// Lambda is `lambda b. Body`: the total map of sort Map[S, sort(Body)] sending
// each x of S to Body. Its binder may not be a range binder.
//
// With Set true it is the set comprehension `{x: S | Body}`, of sort Set[S]
// (Body is then Bool): the checker gives it a KSet sort, so evaluators may
// dispatch on either Set or the sort's kind.
type Lambda struct {
	base
	Binder *Binder
	Body   Expr
	Set    bool // a set comprehension {x: S | Body}
}

// Call is `Fun(Args)`, or `Recv.Fun(Args)` for a definition of another
// automaton's state in a proof file (Recv is an ObjState identifier).
type Call struct {
	base
	Recv *Ident // nil unless qualified
	Fun  *Ident // resolves to ObjDef, ObjBuiltin or ObjEvent
	Args []Expr
}

// Index is `X[Index]`: a map lookup or a sequence element (0-based).
type Index struct {
	base
	X, Index Expr
}

// Update is `X[Index := Value]`: a map or sequence with one entry replaced.
type Update struct {
	base
	X, Index, Value Expr
}

// FieldSel is `X.Name`: a record field, or a state variable of a whole state.
type FieldSel struct {
	base
	X     Expr
	Name  string
	Field int // index into the record sort's Fields, set by the checker
}

// StateField reports whether e is `o.x` for a state object o (a state
// variable read), and returns o and x's field number, which the checker
// set (the variable's index in o's state).
func StateField(e Expr) (*Object, int, bool) {
	fs, ok := e.(*FieldSel)
	if !ok || fs.Field < 0 {
		return nil, 0, false
	}
	id, ok := fs.X.(*Ident)
	if !ok || id.Obj == nil || id.Obj.Kind != ObjState {
		return nil, 0, false
	}
	return id.Obj, fs.Field, true
}

// FieldInit is `Name := Value` in a record update, or `Name: Value` in a record literal.
type FieldInit struct {
	P     source.Pos
	Name  string
	Value Expr
	Field int // index into the record sort's Fields, set by the checker
}

// RecordUpdate is `X with {f := v, ...}`.
type RecordUpdate struct {
	base
	X      Expr
	Fields []*FieldInit
}

// RecordLit is `Name{f: v, ...}`; every field must be given.
type RecordLit struct {
	base
	SortName string
	Fields   []*FieldInit
}

// SetLit is `{a, b, ...}`; `{}` takes its sort from the context.
type SetLit struct {
	base
	Elems []Expr
}

// SeqLit is `[a, b, ...]`; `[]` takes its sort from the context.
type SeqLit struct {
	base
	Elems []Expr
}

// BadExpr stands for unparsable text, so that later phases can continue.
type BadExpr struct {
	base
}

// ---- sort expressions ----

// SortExpr is a sort as written: a name, or a constructor applied to sorts.
type SortExpr struct {
	P    source.Pos
	Name string      // Bool, Int, Nat, a declared name, or Map, Set, Seq, Option
	Args []*SortExpr // constructor arguments
}

// ---- statements (action effects) ----

// Stmt is an effect statement.
type Stmt interface {
	Pos() source.Pos
	stmtNode()
}

// Assign is `Target := Value`. Target is an lvalue: a state variable
// identifier followed by any number of `[index]` and `.field` selectors.
// All right-hand sides and indices are evaluated in the pre-state
// (simultaneous assignment).
type Assign struct {
	P      source.Pos
	Target Expr
	Value  Expr
}

// IfStmt is `if Cond then Then [else Else] end`. `elif c then …` is
// represented as an Else holding a single IfStmt; `skip` is no statement.
type IfStmt struct {
	P          source.Pos
	Cond       Expr
	Then, Else []Stmt
}

// Pos returns the position of the assignment's target.
func (s *Assign) Pos() source.Pos { return s.P }

// Pos returns the position of the `if` (or `elif`) keyword.
func (s *IfStmt) Pos() source.Pos { return s.P }

func (*Assign) stmtNode() {}
func (*IfStmt) stmtNode() {}
