// This file implements the parser: a recursive-descent parser with one
// function per precedence level of docs/language.md.

package expr

import (
	"strconv"

	"ladder/internal/source"
)

// maxDepth bounds the nesting of expressions, so that hostile input cannot
// exhaust the stack of the parser, the checker or the printer.
const maxDepth = 1000

// tokSpelling is how an expected token is named in messages.
var tokSpelling = map[tokKind]string{
	tEOF: "end of text", tIdent: "name", tInt: "integer",
	tLParen: `"("`, tRParen: `")"`, tLBrack: `"["`, tRBrack: `"]"`, tLBrace: `"{"`,
	tRBrace: `"}"`, tComma: `","`, tDot: `"."`, tDotDot: `".."`, tColon: `":"`,
	tAssign: `":="`, tSemi: `";"`, tHash: `"#"`, tBar: `"|"`, tEq: `"="`,
	tThen: `"then"`, tElse: `"else"`, tEnd: `"end"`, tIn: `"in"`,
}

// bailout is the panic value that aborts a parse after a syntax error.
type bailout struct{}

// parser holds the state of one parse.
type parser struct {
	toks   []token
	pos    int   // index of tok in toks
	tok    token // current token
	m      *source.Mapper
	errs   *source.ErrorList
	noIn   bool    // `in` ends the expression (in the value of a let)
	depth  int     // nesting depth, bounded by maxDepth
	bigLit *IntLit // a literal 9223372036854775808 not yet negated
	bigTok int     // its offset
}

// parse runs f on the tokens of text. It returns the errors; f's results are
// only meaningful when there are none. Scanner errors stop before parsing.
func parse(text string, m *source.Mapper, f func(p *parser)) (errs source.ErrorList) {
	p := &parser{m: m, errs: &errs}
	p.toks = scan(text, m, p.errs)
	if len(errs) > 0 {
		return errs
	}
	p.tok = p.toks[0]
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				errs.Add(m.Pos(p.tok.off), source.ErrInternal, "internal error: parser panic: %v", r)
			}
		}
	}()
	f(p)
	p.checkBig()
	return errs
}

// ParseExpr parses text as an expression. m maps byte offsets of text to file
// positions (nil gives NoPos everywhere). On a syntax error the result is a
// *BadExpr and errs holds one error.
func ParseExpr(text string, m *source.Mapper) (Expr, source.ErrorList) {
	var e Expr
	errs := parse(text, m, func(p *parser) {
		e = p.parseExpr()
		p.expectEnd("operator or end of expression")
	})
	if len(errs) > 0 {
		b := &BadExpr{}
		b.P = m.Pos(0)
		return b, errs
	}
	return e, nil
}

// ParseStmts parses text as an effect: a sequence of statements (see
// docs/language.md, "Effects"). `skip` produces no statement; `elif` produces
// an IfStmt whose Else is a single IfStmt. On a syntax error the result is
// nil and errs holds one error.
func ParseStmts(text string, m *source.Mapper) ([]Stmt, source.ErrorList) {
	var ss []Stmt
	errs := parse(text, m, func(p *parser) {
		ss = p.parseStmts()
		p.expectEnd("statement")
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return ss, nil
}

// ParseSortExpr parses text as a sort expression such as "Map[T, Option[V]]".
func ParseSortExpr(text string, m *source.Mapper) (*SortExpr, source.ErrorList) {
	var se *SortExpr
	errs := parse(text, m, func(p *parser) {
		se = p.parseSortExpr()
		p.expectEnd("end of sort")
	})
	if len(errs) > 0 {
		return nil, errs
	}
	return se, nil
}

// ParseParam parses an action-parameter spec: a sort ("T", se non-nil) or a
// range ("in lo..hi", lo and hi non-nil).
func ParseParam(text string, m *source.Mapper) (se *SortExpr, lo, hi Expr, errs source.ErrorList) {
	errs = parse(text, m, func(p *parser) {
		if p.tok.kind == tIn {
			p.next()
			lo = p.parseAdd()
			p.expect(tDotDot)
			hi = p.parseAdd()
			p.expectEnd("end of range")
			return
		}
		if p.tok.kind != tIdent {
			p.errorf(p.tok.off, "expected sort or \"in lo..hi\", found %s", p.tok.describe())
		}
		se = p.parseSortExpr()
		p.expectEnd("end of sort")
	})
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	return se, lo, hi, nil
}

// ---- helpers ----

func (p *parser) next() {
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	p.tok = p.toks[p.pos]
}

// peek returns the token k places after the current one (EOF past the end).
func (p *parser) peek(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) at(off int) source.Pos { return p.m.Pos(off) }

// errorf reports a syntax error at byte offset off and aborts the parse.
func (p *parser) errorf(off int, format string, args ...any) {
	p.errs.Add(p.at(off), source.ErrSyntax, format, args...)
	panic(bailout{})
}

// expect consumes a token of kind k or reports "expected k, found t".
func (p *parser) expect(k tokKind) token {
	t := p.tok
	if t.kind != k {
		p.errorf(t.off, "expected %s, found %s", tokSpelling[k], t.describe())
	}
	p.next()
	return t
}

// expectEnd reports an error unless the whole text was consumed.
func (p *parser) expectEnd(what string) {
	if p.tok.kind != tEOF {
		msg := "expected %s, found %s"
		if p.tok.kind == tDot {
			// `r. f`: a field name must follow the dot directly.
			msg = "expected %s, found %s (a field name follows the dot without space)"
		}
		p.errorf(p.tok.off, msg, what, p.tok.describe())
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.tok.off, "expression nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// checkBig reports a literal 9223372036854775808 that was not negated.
func (p *parser) checkBig() {
	if p.bigLit != nil {
		p.bigLit = nil
		p.errorf(p.bigTok, "integer literal too large")
	}
}

// ---- expressions, by precedence level ----

// parseExpr parses a whole expression (level 1 and up).
func (p *parser) parseExpr() Expr { return p.parseIff() }

func (p *parser) binary(op Op, x, y Expr, opOff int) *Binary {
	b := &Binary{Op: op, X: x, Y: y, OpPos: p.at(opOff)}
	b.P = x.Pos()
	return b
}

// level 2: <=> (left associative)
func (p *parser) parseIff() Expr {
	x := p.parseImplies()
	for p.tok.kind == tIff {
		off := p.tok.off
		p.next()
		y := p.parseImplies()
		x = p.binary(OpIff, x, y, off)
	}
	return x
}

// level 3: => (right associative)
func (p *parser) parseImplies() Expr {
	p.enter()
	defer p.leave()
	x := p.parseOr()
	if p.tok.kind == tImplies {
		off := p.tok.off
		p.next()
		y := p.parseImplies()
		return p.binary(OpImplies, x, y, off)
	}
	return x
}

// level 4: or
func (p *parser) parseOr() Expr {
	x := p.parseAnd()
	for p.tok.kind == tOr {
		off := p.tok.off
		p.next()
		x = p.binary(OpOr, x, p.parseAnd(), off)
	}
	return x
}

// level 5: and
func (p *parser) parseAnd() Expr {
	x := p.parseNot()
	for p.tok.kind == tAnd {
		off := p.tok.off
		p.next()
		x = p.binary(OpAnd, x, p.parseNot(), off)
	}
	return x
}

// level 6: not (prefix)
func (p *parser) parseNot() Expr {
	if p.tok.kind == tNot {
		p.enter()
		defer p.leave()
		off := p.tok.off
		p.next()
		u := &Unary{Op: OpNot, X: p.parseNot()}
		u.P = p.at(off)
		return u
	}
	return p.parseCmp()
}

var cmpOps = map[tokKind]Op{
	tEq: OpEq, tNeq: OpNeq, tLt: OpLt, tLe: OpLe, tGt: OpGt, tGe: OpGe,
	tIn: OpIn, tNotIn: OpNotIn, tSubset: OpSubset,
}

// cmpOp returns the comparison operator of the current token, if any.
func (p *parser) cmpOp() (Op, bool) {
	if p.tok.kind == tIn && p.noIn {
		return OpInvalid, false
	}
	op, ok := cmpOps[p.tok.kind]
	return op, ok
}

// level 7: comparisons (not associative)
func (p *parser) parseCmp() Expr {
	x := p.parseAdd()
	op, ok := p.cmpOp()
	if !ok {
		return x
	}
	off := p.tok.off
	p.next()
	y := p.parseAdd()
	if _, again := p.cmpOp(); again {
		p.errorf(p.tok.off, "comparison operators do not chain: add parentheses before %s", p.tok.describe())
	}
	return p.binary(op, x, y, off)
}

var addOps = map[tokKind]Op{tPlus: OpAdd, tMinus: OpSub, tUnion: OpUnion, tBackslash: OpDiff}

// level 8: + - union \ (left associative)
func (p *parser) parseAdd() Expr {
	x := p.parseMul()
	for {
		op, ok := addOps[p.tok.kind]
		if !ok {
			return x
		}
		off := p.tok.off
		p.next()
		x = p.binary(op, x, p.parseMul(), off)
	}
}

var mulOps = map[tokKind]Op{tStar: OpMul, tDiv: OpDiv, tMod: OpMod, tInter: OpInter}

// level 9: * div mod inter (left associative)
func (p *parser) parseMul() Expr {
	x := p.parseNeg()
	for {
		op, ok := mulOps[p.tok.kind]
		if !ok {
			return x
		}
		off := p.tok.off
		p.next()
		x = p.binary(op, x, p.parseNeg(), off)
	}
}

// level 10: - (prefix). A minus directly followed by an integer literal (and
// nothing postfix) is folded into a negative IntLit.
func (p *parser) parseNeg() Expr {
	if p.tok.kind != tMinus {
		return p.parsePostfix()
	}
	p.enter()
	defer p.leave()
	off := p.tok.off
	p.next()
	start := p.pos
	litNext := p.tok.kind == tInt
	x := p.parseNeg()
	if lit, ok := x.(*IntLit); ok && litNext && p.pos == start+1 {
		if lit == p.bigLit {
			p.bigLit = nil // -9223372036854775808 is math.MinInt64
		} else {
			lit.Value = -lit.Value
		}
		lit.P = p.at(off)
		return lit
	}
	u := &Unary{Op: OpNeg, X: x}
	u.P = p.at(off)
	return u
}

// level 11: postfix e[i], e[i := v], e.f, e with {...}, f(args)
func (p *parser) parsePostfix() Expr {
	x := p.parsePrimary()
	for {
		switch p.tok.kind {
		case tLBrack:
			saved := p.noIn
			p.noIn = false
			p.next()
			i := p.parseExpr()
			if p.tok.kind == tAssign {
				p.next()
				v := p.parseExpr()
				p.expect(tRBrack)
				u := &Update{X: x, Index: i, Value: v}
				u.P = x.Pos()
				x = u
			} else {
				p.expect(tRBrack)
				ix := &Index{X: x, Index: i}
				ix.P = x.Pos()
				x = ix
			}
			p.noIn = saved
		case tDot:
			// A field selector's name follows the dot directly; a dot
			// followed by space ends a binder list (`forall i in 0..n. p`).
			nt := p.peek(1)
			if nt.kind != tIdent || nt.off != p.tok.end {
				return x
			}
			p.next()
			p.next()
			f := &FieldSel{X: x, Name: nt.text, Field: -1}
			f.P = x.Pos()
			x = f
		case tLParen:
			x = p.parseCall(x)
		case tWith:
			p.next()
			p.expect(tLBrace)
			fields := p.parseFieldInits(tAssign)
			r := &RecordUpdate{X: x, Fields: fields}
			r.P = x.Pos()
			x = r
		default:
			return x
		}
	}
}

// parseCall parses the arguments of a call whose function part is fun.
func (p *parser) parseCall(fun Expr) Expr {
	c := &Call{}
	switch f := fun.(type) {
	case *Ident:
		c.Fun = f
	case *FieldSel:
		recv, ok := f.X.(*Ident)
		if !ok {
			p.errorf(p.tok.off, "expected name before \"(\": only definitions and built-ins can be called")
		}
		fn := &Ident{Name: f.Name}
		fn.P = p.at(p.toks[p.pos-1].off)
		c.Recv, c.Fun = recv, fn
	default:
		p.errorf(p.tok.off, "expected name before \"(\": only definitions and built-ins can be called")
	}
	c.P = fun.Pos()
	saved := p.noIn
	p.noIn = false
	p.next()
	if p.tok.kind != tRParen {
		for {
			c.Args = append(c.Args, p.parseExpr())
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
	}
	p.expect(tRParen)
	p.noIn = saved
	return c
}

// parseFieldInits parses `f sep v, ...}` after the opening brace.
func (p *parser) parseFieldInits(sep tokKind) []*FieldInit {
	saved := p.noIn
	p.noIn = false
	var fs []*FieldInit
	if p.tok.kind != tRBrace {
		for {
			name := p.expect(tIdent)
			p.expect(sep)
			v := p.parseExpr()
			fs = append(fs, &FieldInit{P: p.at(name.off), Name: name.text, Value: v, Field: -1})
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
	}
	p.expect(tRBrace)
	p.noIn = saved
	return fs
}

// parsePrimary parses a primary expression, including the binder forms of
// level 1, whose bodies extend as far right as possible.
func (p *parser) parsePrimary() Expr {
	p.enter()
	defer p.leave()
	t := p.tok
	pos := p.at(t.off)
	switch t.kind {
	case tInt:
		p.next()
		lit := &IntLit{}
		lit.P = pos
		v, err := strconv.ParseUint(t.text, 10, 64)
		switch {
		case err == nil && v < 1<<63:
			lit.Value = int64(v)
		case err == nil && v == 1<<63:
			p.checkBig()
			lit.Value = -1 << 63
			p.bigLit, p.bigTok = lit, t.off
		default:
			p.errorf(t.off, "integer literal too large")
		}
		return lit
	case tTrue, tFalse:
		p.next()
		b := &BoolLit{Value: t.kind == tTrue}
		b.P = pos
		return b
	case tIdent:
		p.next()
		switch p.tok.kind {
		case tHash:
			p.next()
			nt := p.expect(tInt)
			v, err := strconv.ParseUint(nt.text, 10, 31)
			if err != nil {
				p.errorf(nt.off, "element index too large")
			}
			e := &ElemLit{SortName: t.text, Index: int(v)}
			e.P = pos
			return e
		case tLBrace:
			p.next()
			r := &RecordLit{SortName: t.text, Fields: p.parseFieldInits(tColon)}
			r.P = pos
			return r
		}
		id := &Ident{Name: t.text}
		id.P = pos
		return id
	case tLParen:
		saved := p.noIn
		p.noIn = false
		p.next()
		x := p.parseExpr()
		p.expect(tRParen)
		p.noIn = saved
		return x
	case tLBrace:
		return p.parseBrace()
	case tLBrack:
		saved := p.noIn
		p.noIn = false
		p.next()
		s := &SeqLit{}
		s.P = pos
		s.Elems = p.parseList(tRBrack)
		p.noIn = saved
		return s
	case tForall, tExists:
		p.next()
		q := &Quant{Forall: t.kind == tForall}
		q.P = pos
		for {
			q.Binders = append(q.Binders, p.parseBinder(true))
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
		p.expect(tDot)
		q.Body = p.parseExpr()
		return q
	case tLambda:
		p.next()
		l := &Lambda{Binder: p.parseBinder(false)}
		l.P = pos
		p.expect(tDot)
		l.Body = p.parseExpr()
		return l
	case tLet:
		p.next()
		name := p.expect(tIdent)
		p.expect(tEq)
		saved := p.noIn
		p.noIn = true
		v := p.parseExpr()
		p.noIn = saved
		p.expect(tIn)
		l := &Let{Var: &Object{Kind: ObjBound, Name: name.text, Pos: p.at(name.off)}, Value: v}
		l.P = pos
		l.Body = p.parseExpr()
		return l
	case tIf:
		p.next()
		saved := p.noIn
		p.noIn = false
		c := p.parseExpr()
		p.expect(tThen)
		a := p.parseExpr()
		p.expect(tElse)
		p.noIn = saved
		b := p.parseExpr()
		ite := &Ite{Cond: c, Then: a, Else: b}
		ite.P = pos
		return ite
	}
	p.errorf(t.off, "expected expression, found %s", t.describe())
	return nil
}

// parseList parses `e, e, ... close` after the opening bracket.
func (p *parser) parseList(close tokKind) []Expr {
	var es []Expr
	if p.tok.kind != close {
		for {
			es = append(es, p.parseExpr())
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
	}
	p.expect(close)
	return es
}

// parseBrace parses a set literal or a set comprehension.
func (p *parser) parseBrace() Expr {
	pos := p.at(p.tok.off)
	saved := p.noIn
	p.noIn = false
	defer func() { p.noIn = saved }()
	p.next()
	comp := p.tok.kind == tIdent && p.peek(1).kind == tColon
	comp = comp || p.tok.kind == tIdent && p.peek(1).kind == tIn && p.peek(2).kind == tIdent && p.peek(3).kind == tBar
	if comp {
		l := &Lambda{Binder: p.parseBinder(false), Set: true}
		l.P = pos
		p.expect(tBar)
		l.Body = p.parseExpr()
		p.expect(tRBrace)
		return l
	}
	s := &SetLit{}
	s.P = pos
	s.Elems = p.parseList(tRBrace)
	return s
}

// parseBinder parses `x: S` or `x in S`, or `x in lo..hi` if allowRange.
func (p *parser) parseBinder(allowRange bool) *Binder {
	name := p.expect(tIdent)
	b := &Binder{P: p.at(name.off), Var: &Object{Kind: ObjBound, Name: name.text, Pos: p.at(name.off)}}
	switch {
	case p.tok.kind == tColon:
		p.next()
		b.SortExpr = *p.parseSortExpr()
	case p.tok.kind == tIn:
		// `x in S` names a sort, `x in lo..hi` a range. The sort form keeps
		// ": " out of YAML plain scalars, where it would start a mapping.
		inOff := p.tok.off
		p.next()
		saved := p.noIn
		p.noIn = false
		lo := p.parseAdd()
		switch id, isIdent := lo.(*Ident); {
		case p.tok.kind == tDotDot && allowRange:
			p.next()
			b.Lo = lo
			b.Hi = p.parseAdd()
		case isIdent && p.tok.kind != tDotDot:
			b.SortExpr = SortExpr{P: id.P, Name: id.Name}
		case allowRange:
			p.errorf(inOff, "expected a sort name or a range lo..hi after \"in\"")
		default:
			p.errorf(inOff, "expected a sort name after \"in\"")
		}
		p.noIn = saved
	case allowRange:
		p.errorf(p.tok.off, "expected \":\" or \"in\", found %s", p.tok.describe())
	default:
		p.errorf(p.tok.off, "expected \":\", found %s", p.tok.describe())
	}
	return b
}

// parseSortExpr parses `Name` or `Name[S, ...]`.
func (p *parser) parseSortExpr() *SortExpr {
	p.enter()
	defer p.leave()
	t := p.tok
	if t.kind != tIdent {
		p.errorf(t.off, "expected sort, found %s", t.describe())
	}
	p.next()
	se := &SortExpr{P: p.at(t.off), Name: t.text}
	if p.tok.kind == tLBrack {
		p.next()
		for {
			se.Args = append(se.Args, p.parseSortExpr())
			if p.tok.kind != tComma {
				break
			}
			p.next()
		}
		p.expect(tRBrack)
	}
	return se
}

// ---- statements ----

// parseStmts parses statements up to (not including) end, else, elif or the
// end of the text.
func (p *parser) parseStmts() []Stmt {
	var ss []Stmt
	for {
		switch p.tok.kind {
		case tEOF, tEnd, tElse, tElif:
			return ss
		case tSemi:
			p.next()
			continue
		case tSkip:
			p.next()
		case tIf:
			off := p.tok.off
			p.next()
			ss = append(ss, p.parseIfRest(off))
		case tIdent:
			ss = append(ss, p.parseAssign())
		case tHash:
			// A YAML habit: in the expression language a comment starts
			// with //.
			p.errorf(p.tok.off, "expected statement, found %s (a comment starts with //, not #)", p.tok.describe())
		default:
			p.errorf(p.tok.off, "expected statement, found %s", p.tok.describe())
		}
		if p.tok.kind == tSemi {
			p.next()
		}
	}
}

// parseIfRest parses the rest of an if statement after `if` or `elif` at off.
func (p *parser) parseIfRest(off int) *IfStmt {
	p.enter()
	defer p.leave()
	s := &IfStmt{P: p.at(off)}
	s.Cond = p.parseExpr()
	p.expect(tThen)
	s.Then = p.parseStmts()
	switch p.tok.kind {
	case tElif:
		eoff := p.tok.off
		p.next()
		s.Else = []Stmt{p.parseIfRest(eoff)}
	case tElse:
		p.next()
		s.Else = p.parseStmts()
		p.expect(tEnd)
	case tEnd:
		p.next()
	default:
		p.errorf(p.tok.off, "expected \"elif\", \"else\" or \"end\", found %s", p.tok.describe())
	}
	return s
}

// parseAssign parses `lvalue := expr`.
func (p *parser) parseAssign() *Assign {
	t := p.expect(tIdent)
	id := &Ident{Name: t.text}
	id.P = p.at(t.off)
	var target Expr = id
	for {
		switch p.tok.kind {
		case tLBrack:
			p.next()
			i := p.parseExpr()
			p.expect(tRBrack)
			ix := &Index{X: target, Index: i}
			ix.P = id.P
			target = ix
			continue
		case tDot:
			p.next()
			f := p.expect(tIdent)
			fs := &FieldSel{X: target, Name: f.text, Field: -1}
			fs.P = id.P
			target = fs
			continue
		}
		break
	}
	if p.tok.kind != tAssign {
		hint := ""
		if p.tok.kind == tEq {
			hint = " (assignment is written :=)"
		}
		p.errorf(p.tok.off, "expected \":=\", found %s%s", p.tok.describe(), hint)
	}
	p.next()
	v := p.parseExpr()
	return &Assign{P: id.P, Target: target, Value: v}
}

// String returns the sort expression in the language's notation, e.g.
// "Map[T, Option[V]]".
func (se *SortExpr) String() string {
	if se == nil {
		return "<nil>"
	}
	if len(se.Args) == 0 {
		return se.Name
	}
	s := se.Name + "["
	for i, a := range se.Args {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	return s + "]"
}
