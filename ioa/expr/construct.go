// This file implements constructors for other packages, which cannot set the
// position and sort of a node in a composite literal (base is unexported).
// Constructed nodes have no position (NoPos) and no sort until SetPos and
// SetSort, or the Checker, give them one.

package expr

// NewIdent returns the identifier name.
func NewIdent(name string) *Ident { return &Ident{Name: name} }

// NewIntLit returns the integer literal v (printed as -3 when negative).
func NewIntLit(v int64) *IntLit { return &IntLit{Value: v} }

// NewBoolLit returns true or false.
func NewBoolLit(v bool) *BoolLit { return &BoolLit{Value: v} }

// NewElemLit returns the parameter-sort element sortName#index.
func NewElemLit(sortName string, index int) *ElemLit {
	return &ElemLit{SortName: sortName, Index: index}
}

// NewUnary returns `op x` (op is OpNot or OpNeg).
func NewUnary(op Op, x Expr) *Unary { return &Unary{Op: op, X: x} }

// NewBinary returns `x op y`.
func NewBinary(op Op, x, y Expr) *Binary { return &Binary{Op: op, X: x, Y: y} }

// NewIte returns `if c then a else b`.
func NewIte(c, a, b Expr) *Ite { return &Ite{Cond: c, Then: a, Else: b} }

// NewLet returns `let name = value in body`, with a fresh ObjBound variable.
// body should refer to the variable through identifiers named name.
func NewLet(name string, value, body Expr) *Let {
	return &Let{Var: &Object{Kind: ObjBound, Name: name}, Value: value, Body: body}
}

// NewBinder returns the binder `name: se`, with a fresh ObjBound variable.
func NewBinder(name string, se *SortExpr) *Binder {
	b := &Binder{Var: &Object{Kind: ObjBound, Name: name}}
	if se != nil {
		b.SortExpr = *se
	}
	return b
}

// NewRangeBinder returns the binder `name in lo..hi`, with a fresh ObjBound variable.
func NewRangeBinder(name string, lo, hi Expr) *Binder {
	return &Binder{Var: &Object{Kind: ObjBound, Name: name}, Lo: lo, Hi: hi}
}

// NewQuant returns `forall bs. body` (or exists when forall is false).
func NewQuant(forall bool, bs []*Binder, body Expr) *Quant {
	return &Quant{Forall: forall, Binders: bs, Body: body}
}

// NewLambda returns `lambda b. body`.
func NewLambda(b *Binder, body Expr) *Lambda { return &Lambda{Binder: b, Body: body} }

// NewSetComp returns the set comprehension `{b | body}`.
func NewSetComp(b *Binder, body Expr) *Lambda { return &Lambda{Binder: b, Body: body, Set: true} }

// NewCall returns `fun(args)`.
func NewCall(fun string, args ...Expr) *Call { return &Call{Fun: NewIdent(fun), Args: args} }

// NewRecvCall returns `recv.fun(args)`, a definition of another automaton's state.
func NewRecvCall(recv, fun string, args ...Expr) *Call {
	return &Call{Recv: NewIdent(recv), Fun: NewIdent(fun), Args: args}
}

// NewIndex returns `x[i]`.
func NewIndex(x, i Expr) *Index { return &Index{X: x, Index: i} }

// NewUpdate returns `x[i := v]`.
func NewUpdate(x, i, v Expr) *Update { return &Update{X: x, Index: i, Value: v} }

// NewFieldSel returns `x.name`.
func NewFieldSel(x Expr, name string) *FieldSel { return &FieldSel{X: x, Name: name, Field: -1} }

// NewFieldInit returns the field initializer `name: v` (or `name := v` in a record update).
func NewFieldInit(name string, v Expr) *FieldInit { return &FieldInit{Name: name, Value: v, Field: -1} }

// NewRecordUpdate returns `x with {f := v, ...}`.
func NewRecordUpdate(x Expr, fields ...*FieldInit) *RecordUpdate {
	return &RecordUpdate{X: x, Fields: fields}
}

// NewRecordLit returns `sortName{f: v, ...}`.
func NewRecordLit(sortName string, fields ...*FieldInit) *RecordLit {
	return &RecordLit{SortName: sortName, Fields: fields}
}

// NewSetLit returns `{elems}`.
func NewSetLit(elems ...Expr) *SetLit { return &SetLit{Elems: elems} }

// NewSeqLit returns `[elems]`.
func NewSeqLit(elems ...Expr) *SeqLit { return &SeqLit{Elems: elems} }

// NewBadExpr returns a placeholder for an expression that could not be built.
func NewBadExpr() *BadExpr { return &BadExpr{} }

// NewSortExpr returns the sort expression `name[args]`.
func NewSortExpr(name string, args ...*SortExpr) *SortExpr {
	return &SortExpr{Name: name, Args: args}
}

// SortExprOf returns a sort expression that denotes s, for printing and for
// building binders over a known sort (nil for nil or the invalid sort).
func SortExprOf(s *Sort) *SortExpr {
	if s.IsInvalid() {
		return nil
	}
	switch s.Kind {
	case KBool:
		return NewSortExpr("Bool")
	case KInt:
		return NewSortExpr("Int")
	case KNat:
		return NewSortExpr("Nat")
	case KMap:
		return NewSortExpr("Map", SortExprOf(s.Key), SortExprOf(s.Elem))
	case KSet:
		return NewSortExpr("Set", SortExprOf(s.Elem))
	case KSeq:
		return NewSortExpr("Seq", SortExprOf(s.Elem))
	case KOption:
		return NewSortExpr("Option", SortExprOf(s.Elem))
	}
	return NewSortExpr(s.Name)
}
