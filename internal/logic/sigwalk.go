package logic

import "fmt"

// sigWalk collects what a problem declares (Problem.signature): the
// constants, uninterpreted sorts and datatypes its terms use, each kind
// of term checked on the way.
type sigWalk struct {
	consts map[string]*Term
	sorts  map[string]*Sort
	dts    map[string]*Datatype
	seen   termSet // the compound terms walked (a leaf is cheaper to look at again than to remember)
	// added lists the declared sorts and datatypes added so far: addSort's
	// answer for an uninterpreted sort depends only on its name, for a
	// datatype sort only on its datatype. A problem has a handful of
	// them, and array and uninterpreted sorts are made afresh at every
	// use: a list beats a map keyed by sort.
	added []*Sort
}

// walk adds t and its subterms, reporting the first error met: a term's
// own, or a conflict between declarations.
func (w *sigWalk) walk(t *Term) error {
	if !t.leaf() && !w.seen.add(t) {
		return nil
	}
	if t.err != nil {
		return t.err
	}
	if err := w.addSort(t.sort); err != nil {
		return err
	}
	if t.kind == KindConst {
		if old, ok := w.consts[t.name]; ok && !Same(old.sort, t.sort) {
			return fmt.Errorf("constant %s declared with sorts %s and %s", t.name, old.sort, t.sort)
		}
		w.consts[t.name] = t
	}
	for _, v := range t.vars {
		if err := w.addSort(v.sort); err != nil {
			return err
		}
	}
	for _, a := range t.args {
		if err := w.walk(a); err != nil {
			return err
		}
	}
	for _, pt := range t.pats {
		for _, x := range pt {
			if err := w.walk(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// known reports whether addSort has added s or a sort that declares the
// same.
func (w *sigWalk) known(s *Sort) bool {
	for _, x := range w.added {
		if x == s || x.kind == s.kind && (s.kind == SortDatatype && x.dt == s.dt || s.kind == SortUninterpreted && x.name == s.name) {
			return true
		}
	}
	return false
}

// addSort adds the sorts and datatypes s needs declared.
func (w *sigWalk) addSort(s *Sort) error {
	switch {
	case s.kind == SortBool || s.kind == SortInt:
		return nil // built in: most terms' sorts
	case s.kind == SortArray:
		// nothing to declare but its parts
		if err := w.addSort(s.dom); err != nil {
			return err
		}
		return w.addSort(s.rng)
	case w.known(s):
		return nil
	}
	w.added = append(w.added, s)
	switch s.kind {
	case SortUninterpreted:
		if err := CheckName(s.name); err != nil {
			return fmt.Errorf("sort: %v", err)
		}
		w.sorts[s.name] = s
	case SortDatatype:
		if old, ok := w.dts[s.name]; ok {
			if !sameDatatype(old, s.dt) {
				return fmt.Errorf("two different datatypes named %s", s.name)
			}
			return nil
		}
		if err := CheckName(s.name); err != nil {
			return fmt.Errorf("datatype: %v", err)
		}
		w.dts[s.name] = s.dt
		for _, c := range s.dt.ctors {
			for _, f := range c.Fields {
				if err := w.addSort(f.Sort); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
