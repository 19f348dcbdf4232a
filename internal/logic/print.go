package logic

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// String returns t's SMT-LIB text with normalised bound-variable names and
// no let-sharing. An ill-formed term prints as "<error: ...>".
func (t *Term) String() string {
	if t == nil {
		return "<nil>"
	}
	if t.err != nil {
		return "<error: " + t.err.Error() + ">"
	}
	var b strings.Builder
	p := printer{b: &b}
	p.term(t)
	return b.String()
}

// printer writes terms. names maps bound variable names to their printed
// names; sh, when not nil, holds the let names of shared closed subterms
// (writeShared).
type printer struct {
	b     *strings.Builder
	names []varName // innermost last
	sh    *shareScratch
	skip  int32 // sh's node of the let definition being printed (not replaced by its own name); -1: none
}

type varName struct{ name, printed string }

func (p *printer) lookup(name string) string {
	for i := len(p.names) - 1; i >= 0; i-- {
		if p.names[i].name == name {
			return p.names[i].printed
		}
	}
	return Symbol(name) // a loose variable: printed as is
}

func writeInt(b *strings.Builder, v int64) {
	if v >= 0 {
		b.WriteString(strconv.FormatInt(v, 10))
		return
	}
	b.WriteString("(- ")
	b.WriteString(strconv.FormatUint(uint64(-(v+1))+1, 10))
	b.WriteString(")")
}

func (p *printer) term(t *Term) {
	b := p.b
	if p.sh != nil && len(t.loose) == 0 && !t.leaf() {
		if i, ok := p.sh.find(t); ok {
			switch n := &p.sh.nodes[i]; {
			case i == p.skip:
				p.skip = -1 // only the outermost occurrence is the definition
			case n.shared:
				b.WriteString(n.let)
				return
			}
		}
	}
	switch t.kind {
	case KindConst:
		b.WriteString(Symbol(t.name))
	case KindVar:
		b.WriteString(p.lookup(t.name))
	case KindInt:
		writeInt(b, t.ival)
	case KindBool:
		if t.bval {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindApp:
		p.app(t)
	case KindForall, KindExists, KindLambda:
		p.binder(t)
	default:
		b.WriteString("<bad>")
	}
}

func (p *printer) app(t *Term) {
	b := p.b
	switch t.op {
	case OpConstArray:
		b.WriteString("((as const ")
		b.WriteString(t.sort.key)
		b.WriteString(") ")
		p.term(t.args[0])
		b.WriteString(")")
		return
	case OpCtor:
		if len(t.args) == 0 {
			b.WriteString(Symbol(t.name))
			return
		}
		b.WriteString("(")
		b.WriteString(Symbol(t.name))
	case OpIs:
		b.WriteString("((_ is ")
		b.WriteString(Symbol(t.name))
		b.WriteString(")")
	case OpField:
		b.WriteString("(")
		b.WriteString(Symbol(t.name))
	default:
		b.WriteString("(")
		b.WriteString(t.op.String())
	}
	for _, a := range t.args {
		b.WriteString(" ")
		p.term(a)
	}
	b.WriteString(")")
}

func (p *printer) binder(t *Term) {
	b := p.b
	switch t.kind {
	case KindForall:
		b.WriteString("(forall (")
	case KindExists:
		b.WriteString("(exists (")
	default:
		b.WriteString("(lambda (")
	}
	depth := len(p.names)
	for i, v := range t.vars {
		if i > 0 {
			b.WriteString(" ")
		}
		printed := "%" + strconv.Itoa(depth+i)
		b.WriteString("(")
		b.WriteString(printed)
		b.WriteString(" ")
		b.WriteString(v.sort.key)
		b.WriteString(")")
	}
	b.WriteString(") ")
	for i, v := range t.vars {
		p.names = append(p.names, varName{v.name, "%" + strconv.Itoa(depth+i)})
	}
	if len(t.pats) == 0 {
		p.term(t.args[0])
	} else {
		b.WriteString("(! ")
		p.term(t.args[0])
		sh := p.sh
		p.sh = nil // patterns are printed in full
		for _, pat := range t.pats {
			b.WriteString(" :pattern (")
			for j, x := range pat {
				if j > 0 {
					b.WriteString(" ")
				}
				p.term(x)
			}
			b.WriteString(")")
		}
		p.sh = sh
		b.WriteString(")")
	}
	p.names = p.names[:depth]
	b.WriteString(")")
}

// ---- problems ----

// Named is an assertion with a name (printed as a comment; used in reports).
type Named struct {
	Name string
	Term *Term
}

// Problem is a satisfiability problem: declarations and assertions.
// Obligations are stated as validity: the assertions are the hypotheses and
// the negated goal, and the expected verdict is unsat.
type Problem struct {
	// Decls lists constants (KindConst terms) to declare even if no
	// assertion mentions them. The free constants of the assertions are
	// always declared; a name may not be declared with two sorts.
	Decls []*Term
	// Assertions are asserted in order.
	Assertions []Named
}

// Signature is what a Problem declares, in canonical order.
type Signature struct {
	Sorts     []*Sort     // uninterpreted sorts, by name
	Datatypes []*Datatype // in dependency order, ties by name
	Consts    []*Term     // constants, by name
}

// Signature checks the problem and returns its declarations in the order
// Text prints them.
func (p *Problem) Signature() (*Signature, error) {
	return p.check()
}

// Check reports the first problem with p: an ill-formed or non-Bool
// assertion, an assertion with a free bound variable, a name declared
// twice with different meanings, or an invalid name.
func (p *Problem) Check() error {
	_, err := p.check()
	return err
}

// check is Check, returning the signature it computed on the way.
func (p *Problem) check() (*Signature, error) {
	for i, a := range p.Assertions {
		if a.Term == nil {
			return nil, fmt.Errorf("assertion %d (%s): nil term", i, a.Name)
		}
		if a.Term.err != nil {
			return nil, fmt.Errorf("assertion %d (%s): %w", i, a.Name, a.Term.err)
		}
		if !Same(a.Term.sort, boolSort) {
			return nil, fmt.Errorf("assertion %d (%s) has sort %s", i, a.Name, a.Term.sort)
		}
		if len(a.Term.loose) > 0 {
			return nil, fmt.Errorf("assertion %d (%s) has a free bound variable %s", i, a.Name, a.Term.loose[0].name)
		}
		if strings.ContainsAny(a.Name, "\n\r") {
			return nil, fmt.Errorf("assertion %d: name contains a line break", i)
		}
	}
	for _, d := range p.Decls {
		if d == nil || d.kind != KindConst {
			return nil, fmt.Errorf("declaration of a non-constant")
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	return p.signature()
}

func (p *Problem) signature() (*Signature, error) {
	var terms []*Term
	terms = append(terms, p.Decls...)
	for _, a := range p.Assertions {
		terms = append(terms, a.Term)
	}
	w := sigWalk{consts: map[string]*Term{}, sorts: map[string]*Sort{}, dts: map[string]*Datatype{}, seen: newTermSet(32 * len(terms))}
	for _, t := range terms {
		if err := w.walk(t); err != nil {
			return nil, err
		}
	}
	consts, sorts, dts := w.consts, w.sorts, w.dts
	sig := &Signature{}
	// global function names: constants, constructors, testers' constructors, fields
	fun := map[string]string{}
	claim := func(name, what string) error {
		if err := CheckName(name); err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
		if old, ok := fun[name]; ok {
			return fmt.Errorf("name %s is both %s and %s", name, old, what)
		}
		fun[name] = what
		return nil
	}
	for name := range sorts {
		if _, ok := dts[name]; ok {
			return nil, fmt.Errorf("%s is both an uninterpreted sort and a datatype", name)
		}
	}
	for _, name := range sortedKeys(sorts) {
		sig.Sorts = append(sig.Sorts, sorts[name])
	}
	for _, name := range sortedKeys(consts) {
		if err := claim(name, "a constant"); err != nil {
			return nil, err
		}
		sig.Consts = append(sig.Consts, consts[name])
	}
	// datatypes in dependency order, ties by name
	done := map[string]bool{}
	names := sortedKeys(dts)
	for len(sig.Datatypes) < len(names) {
		progress := false
		for _, name := range names {
			if done[name] {
				continue
			}
			dt := dts[name]
			ready := true
			for _, dep := range dtDeps(dt) {
				if !done[dep] {
					ready = false
				}
			}
			if !ready {
				continue
			}
			for _, c := range dt.ctors {
				if err := claim(c.Name, "a constructor of "+name); err != nil {
					return nil, err
				}
				for _, f := range c.Fields {
					if err := claim(f.Name, "a field of "+name); err != nil {
						return nil, err
					}
				}
			}
			done[name] = true
			sig.Datatypes = append(sig.Datatypes, dt)
			progress = true
			break
		}
		if !progress {
			return nil, fmt.Errorf("datatypes depend on each other cyclically")
		}
	}
	return sig, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// dtDeps returns the names of the datatypes dt's fields mention directly
// or inside arrays.
func dtDeps(dt *Datatype) []string {
	var out []string
	var walk func(s *Sort)
	walk = func(s *Sort) {
		switch s.kind {
		case SortArray:
			walk(s.dom)
			walk(s.rng)
		case SortDatatype:
			out = append(out, s.name)
		}
	}
	for _, c := range dt.ctors {
		for _, f := range c.Fields {
			walk(f.Sort)
		}
	}
	return out
}

// Text returns the canonical SMT-LIB2 text of p (see the package
// documentation), or the error of Check.
func (p *Problem) Text() (string, error) {
	return p.text(nil, nil)
}

// TextMemo is Text that also returns the printed text of each assertion
// whose text does not depend on the others (one with no constant array
// to hoist: hoisting numbers the arrays it names across the problem),
// keyed by its term: TextFrom reuses them for a problem that shares those
// terms, such as a subset of p's assertions.
func (p *Problem) TextMemo() (string, map[*Term]string, error) {
	memo := map[*Term]string{}
	text, err := p.text(nil, memo)
	return text, memo, err
}

// TextFrom is Text, with the text of each assertion that memo holds (from
// TextMemo) taken from it instead of printed again: the result is the
// same string Text returns.
func (p *Problem) TextFrom(memo map[*Term]string) (string, error) {
	return p.text(memo, nil)
}

// text prints p, reading assertions' texts from from and recording those
// it prints in to (either may be nil).
func (p *Problem) text(from, to map[*Term]string) (string, error) {
	sig, err := p.Signature()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, s := range sig.Sorts {
		fmt.Fprintf(&b, "(declare-sort %s 0)\n", Symbol(s.name))
	}
	for _, dt := range sig.Datatypes {
		fmt.Fprintf(&b, "(declare-datatypes ((%s 0)) (%s))\n", Symbol(dt.name), dt.decl())
	}
	for _, c := range sig.Consts {
		fmt.Fprintf(&b, "(declare-fun %s () %s)\n", Symbol(c.name), c.sort.key)
	}
	as, defs := hoistConstArrays(p.Assertions)
	var sc shareScratch
	for _, d := range defs {
		fmt.Fprintf(&b, "(declare-fun %s () %s)\n", Symbol(d.c.name), d.c.sort.key)
	}
	for _, d := range defs {
		fmt.Fprintf(&b, "; %s is a constant array\n(assert ", Symbol(d.c.name))
		writeShared(&b, d.axiom(), &sc)
		b.WriteString(")\n")
	}
	for i, a := range as {
		b.WriteString("; ")
		b.WriteString(a.Name)
		b.WriteString("\n(assert ")
		// an assertion that hoists nothing is printed as it is
		// (hoistConstArrays returns its term unchanged), whatever the
		// other assertions are
		own := !p.Assertions[i].Term.hoists
		if t, ok := from[a.Term]; own && ok {
			b.WriteString(t)
		} else {
			start := b.Len()
			writeShared(&b, a.Term, &sc)
			if own && to != nil {
				to[a.Term] = b.String()[start:]
			}
		}
		b.WriteString(")\n")
	}
	b.WriteString("(check-sat)\n")
	return b.String(), nil
}

// Hash returns the hex SHA-256 of p's canonical text.
func (p *Problem) Hash() (string, error) {
	text, err := p.Text()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:]), nil
}

// interner maps structurally equal terms to one representative, so that
// let-sharing depends on the structure of a term, not on how it was built.
type interner map[uint64][]*Term

func (in interner) canon(t *Term) *Term {
	for _, r := range in[t.hash] {
		if Equal(r, t) {
			return r
		}
	}
	in[t.hash] = append(in[t.hash], t)
	return t
}

// writeShared prints t with let-bindings for the closed compound subterms
// that occur more than once (up to structural equality), except operators
// applied to leaves only, which are cheap to repeat. sc is working memory,
// reused from one term to the next.
func writeShared(b *strings.Builder, t *Term, sc *shareScratch) {
	sc.reset()
	// Pass 1: the representatives of t's compound subterms, each with
	// the number of its occurrences and its compound arguments'
	// representatives, in post-order of first visits (order).
	var visit func(i int32)
	visit = func(i int32) {
		x := sc.nodes[i].t
		var buf [8]int32
		ks := buf[:0]
		for _, a := range x.args {
			if a.leaf() {
				continue // never shared (eligible), and nothing below
			}
			j, fresh := sc.node(a)
			ks = append(ks, j)
			if fresh {
				visit(j)
			}
		}
		n := &sc.nodes[i]
		n.kidsFrom = int32(len(sc.kids))
		sc.kids = append(sc.kids, ks...)
		n.kidsTo = int32(len(sc.kids))
		sc.order = append(sc.order, i)
	}
	root, _ := sc.node(t)
	visit(root)
	eligible := func(i int32) bool {
		n := &sc.nodes[i]
		x := n.t
		if i == root || n.refs < 2 || len(x.loose) > 0 {
			return false
		}
		switch x.kind {
		case KindLambda:
			return true
		case KindApp:
			for _, a := range x.args {
				switch a.kind {
				case KindApp, KindLambda, KindForall, KindExists:
					return true
				}
			}
		}
		return false
	}
	// Pass 2, children first: each term's depth (1 + the deepest let
	// level below it, 0 if none) and each shared term's let level.
	var shared []int32
	maxLevel := int32(-1)
	for _, i := range sc.order {
		d := int32(0)
		n := &sc.nodes[i]
		for _, k := range sc.kids[n.kidsFrom:n.kidsTo] {
			c := &sc.nodes[k]
			da := c.depth
			if c.shared {
				da = c.level + 1
			}
			if da > d {
				d = da
			}
		}
		n.depth = d
		if eligible(i) {
			n.shared, n.level = true, d
			n.let = "%l" + strconv.Itoa(len(shared))
			shared = append(shared, i)
			if d > maxLevel {
				maxLevel = d
			}
		}
	}
	p := printer{b: b, sh: sc, skip: -1}
	for lv := int32(0); lv <= maxLevel; lv++ {
		b.WriteString("(let (")
		first := true
		for _, i := range shared {
			n := &sc.nodes[i]
			if n.level != lv {
				continue
			}
			if !first {
				b.WriteString(" ")
			}
			first = false
			b.WriteString("(")
			b.WriteString(n.let)
			b.WriteString(" ")
			p.skip = i
			p.term(n.t)
			b.WriteString(")")
		}
		b.WriteString(") ")
	}
	p.skip = -1
	p.term(t)
	for lv := int32(0); lv <= maxLevel; lv++ {
		b.WriteString(")")
	}
}

// shareScratch is writeShared's working memory. Its maps and slices keep
// their capacity from one term to the next, so that printing a problem's
// assertions one after the other does not grow them again for each.
type shareScratch struct {
	nodes []shareNode
	kids  []int32 // the nodes' compound arguments, node by node
	order []int32 // the nodes in post-order of first visits
	// table finds a term's node up to structural equality: open
	// addressing on the term's hash, each slot a node or -1; a reset
	// shortens it (its capacity stays), so that it costs no more after
	// a large term than after a small one.
	table []int32
}

// shareNode is a representative of writeShared's term: the first of the
// structurally equal subterms met.
type shareNode struct {
	t                *Term
	refs             int32 // occurrences
	kidsFrom, kidsTo int32 // its compound arguments: kids[kidsFrom:kidsTo]
	depth, level     int32
	shared           bool   // let-bound, at level
	let              string // its let name, when shared
}

// tableMin is the size of shareScratch's table after a reset.
const tableMin = 64

func (sc *shareScratch) reset() {
	sc.nodes, sc.kids, sc.order = sc.nodes[:0], sc.kids[:0], sc.order[:0]
	sc.resize(tableMin)
}

// resize empties the table and makes it size slots (a power of two) long.
func (sc *shareScratch) resize(size int) {
	if cap(sc.table) < size {
		sc.table = make([]int32, size)
	}
	sc.table = sc.table[:size]
	for i := range sc.table {
		sc.table[i] = -1
	}
}

func (sc *shareScratch) slot(t *Term) int { return slotOf(t.hash, len(sc.table)) }

// find returns the node of the term structurally equal to t, if any.
func (sc *shareScratch) find(t *Term) (int32, bool) {
	mask := len(sc.table) - 1
	for i := sc.slot(t); ; i = (i + 1) & mask {
		j := sc.table[i]
		if j < 0 {
			return 0, false
		}
		if Equal(sc.nodes[j].t, t) {
			return j, true
		}
	}
}

// node returns the node of t (up to structural equality), counting one
// more occurrence of it, and whether it is new.
func (sc *shareScratch) node(t *Term) (int32, bool) {
	if j, ok := sc.find(t); ok {
		sc.nodes[j].refs++
		return j, false
	}
	if 2*(len(sc.nodes)+1) > len(sc.table) {
		sc.resize(2 * len(sc.table))
		for j := range sc.nodes {
			sc.table[sc.free(sc.nodes[j].t)] = int32(j)
		}
	}
	j := int32(len(sc.nodes))
	sc.nodes = append(sc.nodes, shareNode{t: t, refs: 1})
	sc.table[sc.free(t)] = j
	return j, true
}

// free returns the first empty slot of t's probe sequence.
func (sc *shareScratch) free(t *Term) int {
	mask := len(sc.table) - 1
	i := sc.slot(t)
	for sc.table[i] >= 0 {
		i = (i + 1) & mask
	}
	return i
}
