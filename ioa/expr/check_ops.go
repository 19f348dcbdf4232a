// This file implements the sort checker's rules for the binary operators,
// lambdas and set comprehensions, indexing, updates, field selection and
// record fields.

package expr

import (
	"fmt"
	"strconv"

	"ladder/internal/source"
)

func (c *Checker) checkBinary(e *Binary, sc *Scope, hint *Sort) *Sort {
	pos := e.OpPos
	if !pos.IsValid() {
		pos = e.P
	}
	mismatch := func(xs, ys *Sort) {
		x, y := Distinct(xs, ys)
		c.errorf(pos, source.ErrSort, "mismatched sorts %s and %s in %s", x, y, e.Op)
	}
	switch e.Op {
	case OpIff, OpImplies, OpOr, OpAnd:
		c.expect(e.X, sc, BoolSort, "")
		c.expect(e.Y, sc, BoolSort, "")
		return BoolSort
	case OpEq, OpNeq:
		xs, ys := c.checkPair(e.X, e.Y, sc, nil)
		if !compatible(xs, ys) {
			mismatch(xs, ys)
		}
		return BoolSort
	case OpLt, OpLe, OpGt, OpGe, OpAdd, OpSub, OpMul, OpDiv, OpMod:
		xs, ys := c.check(e.X, sc, IntSort), c.check(e.Y, sc, IntSort)
		ok := false
		switch {
		case xs.IsInvalid() || ys.IsInvalid():
			// An operand with an error of its own (x + 1, x undefined) is
			// still a sum, unless it is a literal that cannot be a number
			// (None + 1, {} + 1): then the + was not meant as arithmetic.
			ok = !c.needsHint(e.X, sc) && !c.needsHint(e.Y, sc)
		case xs.IsNumeric() && ys.IsNumeric():
			ok = true
		case compatible(xs, ys):
			c.errorf(pos, source.ErrSort, "operator %s is not defined on %s", e.Op, xs)
		default:
			mismatch(xs, ys)
		}
		if e.Op < OpAdd {
			return BoolSort
		}
		if !ok {
			// The operator is applied to what is not a number (reported):
			// it may not have been meant as arithmetic (s + {x} for a
			// union), so the result's sort is unknown and the context
			// reports no follow-on error.
			return InvalidSort
		}
		return IntSort
	case OpUnion, OpDiff, OpInter:
		var h *Sort
		if hint != nil && hint.Kind == KSet {
			h = hint
		}
		xs, ys := c.checkPair(e.X, e.Y, sc, h)
		switch {
		case xs.IsInvalid() || ys.IsInvalid():
			if !xs.IsInvalid() && xs.Kind == KSet {
				return xs
			}
			if !ys.IsInvalid() && ys.Kind == KSet {
				return ys
			}
			return InvalidSort
		case xs.Kind == KSet && ys.Kind == KSet && compatible(xs, ys):
			return join(xs, ys)
		case xs.Kind != KSet && compatible(xs, ys):
			c.errorf(pos, source.ErrSort, "operator %s is not defined on %s", e.Op, xs)
		default:
			mismatch(xs, ys)
		}
		return InvalidSort
	case OpIn, OpNotIn:
		var xs, ys *Sort
		if c.needsHint(e.Y, sc) && !c.needsHint(e.X, sc) {
			xs = c.check(e.X, sc, nil)
			var h *Sort
			if !xs.IsInvalid() {
				h = SetOf(xs)
			}
			ys = c.check(e.Y, sc, h)
		} else {
			ys = c.check(e.Y, sc, nil)
			var h *Sort
			if !ys.IsInvalid() && ys.Kind == KSet {
				h = ys.Elem
			}
			xs = c.check(e.X, sc, h)
		}
		switch {
		case ys.IsInvalid():
		case ys.Kind != KSet:
			c.errorf(pos, source.ErrSort, "operator %s needs a set on the right, found %s", e.Op, ys)
		case !compatible(xs, ys.Elem):
			mismatch(xs, ys)
		}
		return BoolSort
	case OpSubset:
		xs, ys := c.checkPair(e.X, e.Y, sc, nil)
		switch {
		case xs.IsInvalid() || ys.IsInvalid():
		case xs.Kind == KSet && ys.Kind == KSet && compatible(xs, ys):
		case isPartialMap(xs) && ys.Kind == KMap && Identical(xs.Key, ys.Key) && compatible(xs.Elem.Elem, ys.Elem):
			// partial-map inclusion: p agrees with the total map m
		case isPartialMap(xs) && isPartialMap(ys) && compatible(xs, ys):
			// partial-map inclusion: every entry of p is an entry of q
		default:
			mismatch(xs, ys)
		}
		return BoolSort
	}
	c.errorf(pos, source.ErrInternal, "internal error: bad binary operator %v", e.Op)
	c.check(e.X, sc, nil)
	c.check(e.Y, sc, nil)
	return InvalidSort
}

// isPartialMap reports whether s is Map[K, Option[V]].
func isPartialMap(s *Sort) bool {
	return s != nil && s.Kind == KMap && s.Elem != nil && s.Elem.Kind == KOption
}

func (c *Checker) checkLambda(e *Lambda, sc *Scope, hint *Sort) *Sort {
	if e.Binder == nil {
		c.errorf(e.P, source.ErrInternal, "internal error: lambda without a binder")
		c.check(e.Body, sc, nil)
		return InvalidSort
	}
	if e.Binder.Lo != nil || e.Binder.Hi != nil {
		what := "lambda"
		if e.Set {
			what = "set comprehension"
		}
		c.errorf(e.Binder.P, source.ErrSort, "the binder of a %s needs a sort, not a range", what)
	}
	inner := c.NewBinderScope([]*Binder{e.Binder}, sc)
	vs := sortOf(e.Binder.Var)
	if e.Set {
		c.expect(e.Body, inner, BoolSort, "")
		if vs.IsInvalid() {
			return InvalidSort
		}
		return SetOf(vs)
	}
	var bh *Sort
	if hint != nil && hint.Kind == KMap {
		bh = hint.Elem
	}
	bs := c.check(e.Body, inner, bh)
	if vs.IsInvalid() || bs.IsInvalid() {
		return InvalidSort
	}
	return MapOf(vs, bs)
}

func (c *Checker) checkIndex(e *Index, sc *Scope) *Sort {
	xs := c.check(e.X, sc, nil)
	switch {
	case xs.IsInvalid():
		c.check(e.Index, sc, nil)
		return InvalidSort
	case xs.Kind == KMap:
		c.expect(e.Index, sc, xs.Key, "index")
		return xs.Elem
	case xs.Kind == KSeq:
		c.expectNum(e.Index, sc)
		return xs.Elem
	}
	c.errorf(e.P, source.ErrSort, "cannot index a value of sort %s", xs)
	c.check(e.Index, sc, nil)
	return InvalidSort
}

func (c *Checker) checkUpdate(e *Update, sc *Scope, hint *Sort) *Sort {
	xs := c.check(e.X, sc, hint)
	switch {
	case xs.IsInvalid():
	case xs.Kind == KMap:
		c.expect(e.Index, sc, xs.Key, "index")
		c.expect(e.Value, sc, xs.Elem, "update")
		return xs
	case xs.Kind == KSeq:
		c.expectNum(e.Index, sc)
		c.expect(e.Value, sc, xs.Elem, "update")
		return xs
	default:
		c.errorf(e.P, source.ErrSort, "cannot update a value of sort %s", xs)
	}
	c.check(e.Index, sc, nil)
	c.check(e.Value, sc, nil)
	return InvalidSort
}

func (c *Checker) checkFieldSel(e *FieldSel, sc *Scope) *Sort {
	e.Field = -1
	xs := c.check(e.X, sc, nil)
	switch {
	case xs.IsInvalid():
		return InvalidSort
	case xs.Kind != KRecord:
		c.errorf(e.P, source.ErrSort, "cannot select field %q of a value of sort %s", e.Name, xs)
		return InvalidSort
	}
	i := xs.FieldIndex(e.Name)
	if i < 0 {
		if xs.State != nil {
			msg := fmt.Sprintf("%q is not a state variable of %s", e.Name, xs)
			if c.StateScope != nil {
				if o := c.StateScope(xs).Lookup(e.Name); o != nil && o.Kind == ObjDef {
					msg += fmt.Sprintf("; call the definition as %s", Print(&Call{Recv: identOf(e.X), Fun: &Ident{Name: e.Name}}))
				}
			}
			c.errorf(e.P, source.ErrSort, "%s", msg)
		} else {
			c.errorf(e.P, source.ErrSort, "%q is not a field of %s", e.Name, xs)
		}
		return InvalidSort
	}
	e.Field = i
	return orInvalid(xs.Fields[i].Sort)
}

// identOf returns e if it is an identifier, else one named "_".
func identOf(e Expr) *Ident {
	if id, ok := e.(*Ident); ok {
		return id
	}
	return &Ident{Name: "_"}
}

// checkFields checks field initializers against record sort rs (nil when
// unknown). recordName is set for a record literal at pos, which needs
// every field.
func (c *Checker) checkFields(pos source.Pos, fs []*FieldInit, rs *Sort, sc *Scope, recordName string) {
	seen := map[string]bool{}
	for _, f := range fs {
		if f == nil {
			continue
		}
		f.Field = -1
		if rs == nil {
			c.check(f.Value, sc, nil)
			continue
		}
		i := rs.FieldIndex(f.Name)
		switch {
		case i < 0:
			c.errorf(f.P, source.ErrSort, "%q is not a field of %s", f.Name, rs)
			c.check(f.Value, sc, nil)
			continue
		case seen[f.Name]:
			c.errorf(f.P, source.ErrSort, "field %q given twice", f.Name)
		}
		seen[f.Name] = true
		f.Field = i
		c.expect(f.Value, sc, orInvalid(rs.Fields[i].Sort), "field "+strconv.Quote(f.Name))
	}
	if recordName != "" && rs != nil {
		for _, fd := range rs.Fields {
			if !seen[fd.Name] {
				c.errorf(pos, source.ErrSort, "missing field %q in %s literal", fd.Name, recordName)
			}
		}
	}
}
