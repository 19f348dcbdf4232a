// This file implements what finish records of a term's content once, so
// that the walks of printing, hoisting and lifting can skip the subterms
// that hold nothing for them.

package logic

// leaf reports whether t has no subterms: a constant, a variable or a
// literal.
func (t *Term) leaf() bool {
	return t.kind == KindConst || t.kind == KindVar || t.kind == KindInt || t.kind == KindBool
}

// valueAndHoists returns t.value and t.hoists from those of t's
// arguments and patterns.
func valueAndHoists(t *Term) (value, hoists bool) {
	switch t.kind {
	case KindBool, KindInt:
		return true, false
	case KindApp:
		value = t.op == OpCtor || t.op == OpConstArray
		for _, a := range t.args {
			value = value && a.value
			hoists = hoists || a.hoists
		}
		if t.op == OpConstArray && len(t.args) == 1 && !t.args[0].value {
			hoists = true
		}
		return value, hoists
	}
	for _, a := range t.args {
		hoists = hoists || a.hoists
	}
	for _, p := range t.pats {
		for _, x := range p {
			hoists = hoists || x.hoists
		}
	}
	return false, hoists
}

// hasLambdas returns t.lambdas from those of t's arguments and patterns.
func hasLambdas(t *Term) bool {
	if t.kind == KindLambda {
		return true
	}
	for _, a := range t.args {
		if a.lambdas {
			return true
		}
	}
	for _, p := range t.pats {
		for _, x := range p {
			if x.lambdas {
				return true
			}
		}
	}
	return false
}
