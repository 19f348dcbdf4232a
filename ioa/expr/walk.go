// This file implements traversal and structural comparison of trees.

package expr

// Inspect traverses e in depth-first order: it calls f(e), and if f returns
// true, inspects each child of e in source order (binder bounds, call
// receivers and function names included). Nil children are skipped.
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Inspect(e.X, f)
	case *Binary:
		Inspect(e.X, f)
		Inspect(e.Y, f)
	case *Ite:
		Inspect(e.Cond, f)
		Inspect(e.Then, f)
		Inspect(e.Else, f)
	case *Let:
		Inspect(e.Value, f)
		Inspect(e.Body, f)
	case *Quant:
		for _, b := range e.Binders {
			inspectBinder(b, f)
		}
		Inspect(e.Body, f)
	case *Lambda:
		inspectBinder(e.Binder, f)
		Inspect(e.Body, f)
	case *Call:
		if e.Recv != nil {
			Inspect(e.Recv, f)
		}
		if e.Fun != nil {
			Inspect(e.Fun, f)
		}
		for _, a := range e.Args {
			Inspect(a, f)
		}
	case *Index:
		Inspect(e.X, f)
		Inspect(e.Index, f)
	case *Update:
		Inspect(e.X, f)
		Inspect(e.Index, f)
		Inspect(e.Value, f)
	case *FieldSel:
		Inspect(e.X, f)
	case *RecordUpdate:
		Inspect(e.X, f)
		for _, fi := range e.Fields {
			if fi != nil {
				Inspect(fi.Value, f)
			}
		}
	case *RecordLit:
		for _, fi := range e.Fields {
			if fi != nil {
				Inspect(fi.Value, f)
			}
		}
	case *SetLit:
		for _, x := range e.Elems {
			Inspect(x, f)
		}
	case *SeqLit:
		for _, x := range e.Elems {
			Inspect(x, f)
		}
	}
}

func inspectBinder(b *Binder, f func(Expr) bool) {
	if b != nil {
		Inspect(b.Lo, f)
		Inspect(b.Hi, f)
	}
}

// InspectStmts calls Inspect on every expression of the statements: targets,
// values and conditions, in source order.
func InspectStmts(ss []Stmt, f func(Expr) bool) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Assign:
			Inspect(s.Target, f)
			Inspect(s.Value, f)
		case *IfStmt:
			Inspect(s.Cond, f)
			InspectStmts(s.Then, f)
			InspectStmts(s.Else, f)
		}
	}
}

// Equal reports whether a and b are the same tree: the same node types,
// operators, names, literals and children. Positions, sorts, resolved
// objects and field indices are ignored; bound variables compare by name.
func Equal(a, b Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch a := a.(type) {
	case *Ident:
		b, ok := b.(*Ident)
		return ok && a.Name == b.Name
	case *IntLit:
		b, ok := b.(*IntLit)
		return ok && a.Value == b.Value
	case *BoolLit:
		b, ok := b.(*BoolLit)
		return ok && a.Value == b.Value
	case *ElemLit:
		b, ok := b.(*ElemLit)
		return ok && a.SortName == b.SortName && a.Index == b.Index
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && Equal(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && Equal(a.X, b.X) && Equal(a.Y, b.Y)
	case *Ite:
		b, ok := b.(*Ite)
		return ok && Equal(a.Cond, b.Cond) && Equal(a.Then, b.Then) && Equal(a.Else, b.Else)
	case *Let:
		b, ok := b.(*Let)
		return ok && objName(a.Var) == objName(b.Var) && Equal(a.Value, b.Value) && Equal(a.Body, b.Body)
	case *Quant:
		b, ok := b.(*Quant)
		if !ok || a.Forall != b.Forall || len(a.Binders) != len(b.Binders) {
			return false
		}
		for i := range a.Binders {
			if !equalBinder(a.Binders[i], b.Binders[i]) {
				return false
			}
		}
		return Equal(a.Body, b.Body)
	case *Lambda:
		b, ok := b.(*Lambda)
		return ok && a.Set == b.Set && equalBinder(a.Binder, b.Binder) && Equal(a.Body, b.Body)
	case *Call:
		b, ok := b.(*Call)
		if !ok || (a.Recv == nil) != (b.Recv == nil) || (a.Fun == nil) != (b.Fun == nil) {
			return false
		}
		if a.Recv != nil && a.Recv.Name != b.Recv.Name || a.Fun != nil && a.Fun.Name != b.Fun.Name {
			return false
		}
		return equalList(a.Args, b.Args)
	case *Index:
		b, ok := b.(*Index)
		return ok && Equal(a.X, b.X) && Equal(a.Index, b.Index)
	case *Update:
		b, ok := b.(*Update)
		return ok && Equal(a.X, b.X) && Equal(a.Index, b.Index) && Equal(a.Value, b.Value)
	case *FieldSel:
		b, ok := b.(*FieldSel)
		return ok && a.Name == b.Name && Equal(a.X, b.X)
	case *RecordUpdate:
		b, ok := b.(*RecordUpdate)
		return ok && Equal(a.X, b.X) && equalFields(a.Fields, b.Fields)
	case *RecordLit:
		b, ok := b.(*RecordLit)
		return ok && a.SortName == b.SortName && equalFields(a.Fields, b.Fields)
	case *SetLit:
		b, ok := b.(*SetLit)
		return ok && equalList(a.Elems, b.Elems)
	case *SeqLit:
		b, ok := b.(*SeqLit)
		return ok && equalList(a.Elems, b.Elems)
	case *BadExpr:
		_, ok := b.(*BadExpr)
		return ok
	}
	return false
}

// EqualStmts reports whether two statement lists are the same, as Equal does
// for expressions.
func EqualStmts(a, b []Stmt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case *Assign:
			y, ok := b[i].(*Assign)
			if !ok || !Equal(x.Target, y.Target) || !Equal(x.Value, y.Value) {
				return false
			}
		case *IfStmt:
			y, ok := b[i].(*IfStmt)
			if !ok || !Equal(x.Cond, y.Cond) || !EqualStmts(x.Then, y.Then) || !EqualStmts(x.Else, y.Else) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// EqualSortExpr reports whether two sort expressions are the same, ignoring positions.
func EqualSortExpr(a, b *SortExpr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Name != b.Name || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if !EqualSortExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

func objName(o *Object) string {
	if o == nil {
		return ""
	}
	return o.Name
}

func equalBinder(a, b *Binder) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return objName(a.Var) == objName(b.Var) && EqualSortExpr(&a.SortExpr, &b.SortExpr) &&
		Equal(a.Lo, b.Lo) && Equal(a.Hi, b.Hi)
}

func equalList(a, b []Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func equalFields(a, b []*FieldInit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == nil || b[i] == nil {
			if a[i] != b[i] {
				return false
			}
			continue
		}
		if a[i].Name != b[i].Name || !Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// Conjuncts appends the top-level conjuncts of e to out: e split at its
// `and`s, in order.
func Conjuncts(e Expr, out []Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == OpAnd {
		return Conjuncts(b.Y, Conjuncts(b.X, out))
	}
	return append(out, e)
}

// MaxParam returns the largest Index of an action parameter (an ObjParam
// object) that e mentions, or -1. The machine checks each top-level
// conjunct of a precondition as soon as the parameters it mentions are
// bound, and the symmetry check reads the conjuncts in that order.
func MaxParam(e Expr) int {
	last := -1
	Inspect(e, func(x Expr) bool {
		if id, ok := x.(*Ident); ok && id.Obj != nil && id.Obj.Kind == ObjParam && id.Obj.Index > last {
			last = id.Obj.Index
		}
		return true
	})
	return last
}

// VarReads calls read(o, i) for each state variable that e reads, directly
// or through the definitions it calls (each definition once per state it
// is called on): o.x (a StateField) reads variable i of the state object
// o; a bare variable reads variable i of the state a definition was
// called on (c.d(…) in a proof), or of nil in an automaton's own
// expressions. It returns false when e uses a whole state otherwise (a
// state object alone, or a qualified call that is not a definition):
// then the variables read are not known.
func VarReads(e Expr, read func(o *Object, i int)) bool {
	type defAt struct{ def, owner *Object }
	seen := map[defAt]bool{}
	ok := true
	var walk func(e Expr, owner *Object)
	walk = func(e Expr, owner *Object) {
		Inspect(e, func(x Expr) bool {
			switch x := x.(type) {
			case *FieldSel:
				if o, i, isField := StateField(x); isField {
					read(o, i)
					return false
				}
			case *Call:
				if x.Recv == nil || x.Recv.Obj == nil || x.Recv.Obj.Kind != ObjState {
					return true
				}
				for _, arg := range x.Args {
					walk(arg, owner)
				}
				d := x.Fun.Obj
				if d == nil || d.Kind != ObjDef {
					ok = false
				} else if k := (defAt{d, x.Recv.Obj}); !seen[k] {
					seen[k] = true
					walk(d.Body, x.Recv.Obj)
				}
				return false
			case *Ident:
				if x.Obj == nil {
					return true
				}
				switch x.Obj.Kind {
				case ObjVar:
					read(owner, x.Obj.Index)
				case ObjState:
					ok = false
				case ObjDef:
					if k := (defAt{x.Obj, owner}); !seen[k] {
						seen[k] = true
						walk(x.Obj.Body, owner)
					}
				}
			}
			return true
		})
	}
	walk(e, nil)
	return ok
}
