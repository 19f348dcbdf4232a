// This file implements the one rewrite cvc5 needs to read a dump.

package audit

import (
	"fmt"
	"strconv"
	"strings"
)

// sexp is a parsed S-expression: an atom (Atom set) or a list.
type sexp struct {
	Atom string
	List []*sexp
	list bool
}

func (x *sexp) String() string {
	var b strings.Builder
	x.write(&b)
	return b.String()
}

func (x *sexp) write(b *strings.Builder) {
	if !x.list {
		b.WriteString(x.Atom)
		return
	}
	b.WriteByte('(')
	for i, y := range x.List {
		if i > 0 {
			b.WriteByte(' ')
		}
		y.write(b)
	}
	b.WriteByte(')')
}

// parse reads the top-level S-expressions of an SMT-LIB2 script, dropping
// comments.
func parse(text string) ([]*sexp, error) {
	p := &parser{s: text}
	var out []*sexp
	for {
		p.skip()
		if p.i >= len(p.s) {
			return out, nil
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
}

type parser struct {
	s string
	i int
}

func (p *parser) skip() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ';':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) expr() (*sexp, error) {
	p.skip()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("unexpected end of script")
	}
	start := p.i
	switch p.s[p.i] {
	case '(':
		p.i++
		x := &sexp{list: true}
		for {
			p.skip()
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("unclosed ( at byte %d", start)
			}
			if p.s[p.i] == ')' {
				p.i++
				return x, nil
			}
			y, err := p.expr()
			if err != nil {
				return nil, err
			}
			x.List = append(x.List, y)
		}
	case ')':
		return nil, fmt.Errorf("unexpected ) at byte %d", start)
	case '|':
		end := strings.IndexByte(p.s[p.i+1:], '|')
		if end < 0 {
			return nil, fmt.Errorf("unclosed | at byte %d", start)
		}
		p.i += end + 2
	case '"':
		p.i++
		for {
			if p.i >= len(p.s) {
				return nil, fmt.Errorf("unclosed string at byte %d", start)
			}
			if p.s[p.i] == '"' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '"' {
					p.i += 2
					continue
				}
				p.i++
				break
			}
			p.i++
		}
	default:
		for p.i < len(p.s) && !strings.ContainsRune(" \t\r\n()|\";", rune(p.s[p.i])) {
			p.i++
		}
	}
	return &sexp{Atom: p.s[start:p.i]}, nil
}

// ForCVC5 rewrites a dump for cvc5 (see the package documentation). The
// result is equisatisfiable with the script: a constant array k over a
// non-value e is replaced by a fresh constant c with the axiom
// (forall ((i D)) (= (select c i) e)), which says exactly that c is k.
func ForCVC5(script []byte) ([]byte, error) {
	top, err := parse(string(script))
	if err != nil {
		return nil, fmt.Errorf("reading the dump: %v", err)
	}
	values := map[string]bool{"true": true, "false": true}
	for _, x := range top { // nullary datatype constructors are values
		if head(x) == "declare-datatypes" && len(x.List) == 3 {
			for _, dt := range x.List[2].List {
				for _, c := range dt.List {
					if !c.list {
						values[c.Atom] = true
					} else if len(c.List) == 1 {
						values[c.List[0].Atom] = true
					}
				}
			}
		}
	}
	r := &rewriter{values: values, seen: map[string]string{}}
	var out strings.Builder
	out.WriteString("(set-logic ALL)\n")
	var body []*sexp
	for _, x := range top {
		if head(x) == "set-option" || head(x) == "set-logic" {
			continue // Z3's options; the logic is set above
		}
		body = append(body, r.rewrite(x, nil))
	}
	// The fresh constants are declared, with their axioms, before the
	// first assertion (after every declaration they may mention).
	done := false
	for _, x := range body {
		if !done && (head(x) == "assert" || head(x) == "check-sat") {
			for _, d := range r.decls {
				out.WriteString(d)
				out.WriteByte('\n')
			}
			done = true
		}
		out.WriteString(x.String())
		out.WriteByte('\n')
	}
	return []byte(out.String()), nil
}

func head(x *sexp) string {
	if !x.list || len(x.List) == 0 || x.List[0].list {
		return ""
	}
	return x.List[0].Atom
}

type rewriter struct {
	values map[string]bool
	seen   map[string]string // the text of a rewritten constant array → its constant
	decls  []string
}

// isValue reports whether x is a value for cvc5: a numeral, true or false,
// or a nullary datatype constructor.
func (r *rewriter) isValue(x *sexp) bool {
	if x.list {
		return false
	}
	if r.values[x.Atom] {
		return true
	}
	_, err := strconv.ParseUint(x.Atom, 10, 64)
	return err == nil
}

// rewrite rewrites x, in which the names in bound are bound by an
// enclosing quantifier or let: a constant array over a term that mentions
// one of them stays, since it cannot be hoisted out of its scope.
func (r *rewriter) rewrite(x *sexp, bound map[string]bool) *sexp {
	if !x.list {
		return x
	}
	y := &sexp{list: true, List: make([]*sexp, len(x.List))}
	switch h := head(x); {
	case (h == "forall" || h == "exists" || h == "let") && len(x.List) == 3 && x.List[1].list:
		inner := map[string]bool{}
		for k := range bound {
			inner[k] = true
		}
		y.List[0] = x.List[0]
		binds := &sexp{list: true}
		for _, b := range x.List[1].List {
			if b.list && len(b.List) == 2 && !b.List[0].list {
				inner[b.List[0].Atom] = true
				if h == "let" { // the bound terms are in the outer scope
					b = &sexp{list: true, List: []*sexp{b.List[0], r.rewrite(b.List[1], bound)}}
				}
			}
			binds.List = append(binds.List, b)
		}
		y.List[1] = binds
		y.List[2] = r.rewrite(x.List[2], inner)
		return y
	}
	for i, z := range x.List {
		y.List[i] = r.rewrite(z, bound)
	}
	// ((as const (Array D R)) e) with e not a value
	if len(y.List) == 2 && y.List[0].list && len(y.List[0].List) == 3 &&
		!y.List[0].List[0].list && y.List[0].List[0].Atom == "as" &&
		!y.List[0].List[1].list && y.List[0].List[1].Atom == "const" &&
		!r.isValue(y.List[1]) && !mentions(y.List[1], bound) {
		sort := y.List[0].List[2]
		if head(sort) != "Array" || len(sort.List) != 3 {
			return y
		}
		key := y.String()
		name, ok := r.seen[key]
		if !ok {
			name = fmt.Sprintf("|audit!const%d|", len(r.seen))
			r.seen[key] = name
			r.decls = append(r.decls,
				fmt.Sprintf("(declare-fun %s () %s)", name, sort),
				fmt.Sprintf("(assert (forall ((|audit!i| %s)) (= (select %s |audit!i|) %s)))", sort.List[1], name, y.List[1]))
		}
		return &sexp{Atom: name}
	}
	return y
}

// mentions reports whether x contains one of the names.
func mentions(x *sexp, names map[string]bool) bool {
	if !x.list {
		return names[x.Atom]
	}
	for _, y := range x.List {
		if mentions(y, names) {
			return true
		}
	}
	return false
}
