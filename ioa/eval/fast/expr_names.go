// This file implements Flat's compilation of names: state variables,
// action parameters, bound variables and definitions without arguments,
// read from the encoded state or the runner's slots and registers.

package fast

import "ladder/ioa/expr"

// bind allocates the slot or register of a bound object.
func (c *flatCompiler) bind(o *expr.Object) (slot int, scalar bool) {
	if c.isScalar(o.Sort) {
		if k, ok := c.bound[o]; ok {
			return k, true
		}
		c.bound[o] = c.nslots
		c.nslots++
		return c.nslots - 1, true
	}
	if k, ok := c.bound[o]; ok {
		return k, false
	}
	c.bound[o] = c.nregs
	c.nregs++
	return c.nregs - 1, false
}

func (c *flatCompiler) identScalar(e *expr.Ident, s *expr.Sort) (sfn, error) {
	o := e.Obj
	switch o.Kind {
	case expr.ObjVar:
		i := o.Index
		if i < 0 || i >= len(c.fl.vars) || c.fl.vars[i].seq {
			return nil, notFlat(e, "variable %s", o.Name)
		}
		rd := reader(s)
		return func(f *flatCtx) int64 { return rd(f.st[f.offs[i]]) }, nil
	case expr.ObjParam:
		i := o.Index
		return func(f *flatCtx) int64 { return f.params[i] }, nil
	case expr.ObjBound:
		k, ok := c.bound[o]
		if !ok {
			return nil, notFlat(e, "unbound %s", o.Name)
		}
		return func(f *flatCtx) int64 { return f.slots[k] }, nil
	case expr.ObjDef:
		d, err := c.def(e, o)
		if err != nil {
			return nil, err
		}
		if d.s == nil {
			return nil, notFlat(e, "definition %s", o.Name)
		}
		return d.s, nil
	}
	return nil, notFlat(e, "name %s", o.Name)
}

func (c *flatCompiler) identRegion(e *expr.Ident, s *expr.Sort) (rfn, error) {
	o := e.Obj
	switch o.Kind {
	case expr.ObjVar:
		i := o.Index
		if i < 0 || i >= len(c.fl.vars) {
			return nil, notFlat(e, "variable %s", o.Name)
		}
		return func(f *flatCtx) []byte { return f.st[f.offs[i]:f.offs[i+1]] }, nil
	case expr.ObjBound:
		k, ok := c.bound[o]
		if !ok {
			return nil, notFlat(e, "unbound %s", o.Name)
		}
		return func(f *flatCtx) []byte { return f.regs[k] }, nil
	case expr.ObjDef:
		d, err := c.def(e, o)
		if err != nil {
			return nil, err
		}
		if d.r == nil {
			return nil, notFlat(e, "definition %s", o.Name)
		}
		return d.r, nil
	}
	return nil, notFlat(e, "name %s", o.Name)
}
