// This file implements the printer: trees back to the language's notation.

package expr

import (
	"strconv"
	"strings"
)

// Precedence levels of docs/language.md (a higher level binds tighter).
const (
	lvBinder  = 1 // forall, exists, lambda, let, if: the body extends to the right
	lvIff     = 2
	lvImplies = 3
	lvOr      = 4
	lvAnd     = 5
	lvNot     = 6
	lvCmp     = 7
	lvAdd     = 8
	lvMul     = 9
	lvNeg     = 10
	lvPostfix = 11
	lvPrimary = 12
)

// opLevel returns the precedence level of a binary or unary operator.
func opLevel(op Op) int {
	switch op {
	case OpIff:
		return lvIff
	case OpImplies:
		return lvImplies
	case OpOr:
		return lvOr
	case OpAnd:
		return lvAnd
	case OpNot:
		return lvNot
	case OpEq, OpNeq, OpLt, OpLe, OpGt, OpGe, OpIn, OpNotIn, OpSubset:
		return lvCmp
	case OpAdd, OpSub, OpUnion, OpDiff:
		return lvAdd
	case OpMul, OpDiv, OpMod, OpInter:
		return lvMul
	case OpNeg:
		return lvNeg
	}
	return lvPrimary
}

// level returns the precedence level of e's outermost construct.
func level(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return opLevel(e.Op)
	case *Unary:
		return opLevel(e.Op)
	case *IntLit:
		if e.Value < 0 {
			return lvNeg
		}
	case *Quant, *Let, *Ite:
		return lvBinder
	case *Lambda:
		if !e.Set {
			return lvBinder
		}
	case *Index, *Update, *FieldSel, *Call, *RecordUpdate:
		return lvPostfix
	}
	return lvPrimary
}

// pctx is the context an expression is printed in.
type pctx struct {
	min  int  // the lowest level that may appear without parentheses
	last bool // nothing that could continue an expression follows
	noIn bool // a bare `in` would end the expression (the value of a let)
}

// top is the context of a whole expression, or of one between brackets.
var top = pctx{last: true}

type printer struct {
	b      strings.Builder
	indent int
}

// Print returns e in the language's notation, with the fewest parentheses
// that make ParseExpr return a tree Equal to e.
func Print(e Expr) string {
	var p printer
	p.expr(e, top)
	return p.b.String()
}

// PrintStmts returns the statements in the language's notation, one per line,
// with if statements spread over several lines; an empty list prints as skip.
func PrintStmts(ss []Stmt) string {
	var p printer
	p.stmts(ss)
	return p.b.String()
}

func (p *printer) str(s string) { p.b.WriteString(s) }

func (p *printer) expr(e Expr, c pctx) {
	if e == nil {
		p.str("<nil>")
		return
	}
	lv := level(e)
	paren := lv < c.min
	if lv == lvBinder {
		paren = !c.last
	}
	if b, ok := e.(*Binary); ok && b.Op == OpIn && c.noIn {
		paren = true
	}
	if paren {
		p.str("(")
		p.expr1(e, top)
		p.str(")")
		return
	}
	p.expr1(e, c)
}

// expr1 prints e without parentheses around it.
func (p *printer) expr1(e Expr, c pctx) {
	inner := pctx{min: 0, last: c.last, noIn: c.noIn} // a body extending to the right
	post := pctx{min: lvPostfix, noIn: c.noIn}        // the operand of a postfix operator
	switch e := e.(type) {
	case *Ident:
		p.str(e.Name)
	case *IntLit:
		p.str(strconv.FormatInt(e.Value, 10))
	case *BoolLit:
		p.str(strconv.FormatBool(e.Value))
	case *ElemLit:
		p.str(e.SortName)
		p.str("#")
		p.str(strconv.Itoa(e.Index))
	case *Unary:
		p.str(e.Op.String())
		if e.Op == OpNot {
			p.str(" ")
			p.expr(e.X, pctx{min: lvNot, last: c.last, noIn: c.noIn})
			return
		}
		if lit, ok := e.X.(*IntLit); ok && lit.Value >= 0 {
			// -3 would read back as a negative literal
			p.str("(")
			p.expr(lit, top)
			p.str(")")
			return
		}
		p.expr(e.X, pctx{min: lvNeg, last: c.last, noIn: c.noIn})
	case *Binary:
		lv := opLevel(e.Op)
		left := pctx{min: lv, noIn: c.noIn}
		right := pctx{min: lv + 1, last: c.last, noIn: c.noIn}
		switch lv {
		case lvImplies:
			left.min, right.min = lvImplies+1, lvImplies
		case lvCmp:
			left.min = lvAdd
		}
		p.expr(e.X, left)
		p.str(" ")
		p.str(e.Op.String())
		p.str(" ")
		p.expr(e.Y, right)
	case *Ite:
		p.str("if ")
		p.expr(e.Cond, top)
		p.str(" then ")
		p.expr(e.Then, top)
		p.str(" else ")
		p.expr(e.Else, inner)
	case *Let:
		p.str("let ")
		if e.Var != nil {
			p.str(e.Var.Name)
		}
		p.str(" = ")
		p.expr(e.Value, pctx{last: true, noIn: true})
		p.str(" in ")
		p.expr(e.Body, inner)
	case *Quant:
		if e.Forall {
			p.str("forall ")
		} else {
			p.str("exists ")
		}
		for i, b := range e.Binders {
			if i > 0 {
				p.str(", ")
			}
			p.binder(b)
		}
		p.str(". ")
		p.expr(e.Body, inner)
	case *Lambda:
		if e.Set {
			p.str("{")
			p.binder(e.Binder)
			p.str(" | ")
			p.expr(e.Body, top)
			p.str("}")
			return
		}
		p.str("lambda ")
		p.binder(e.Binder)
		p.str(". ")
		p.expr(e.Body, inner)
	case *Call:
		if e.Recv != nil {
			p.str(e.Recv.Name)
			p.str(".")
		}
		if e.Fun != nil {
			p.str(e.Fun.Name)
		}
		p.str("(")
		p.list(e.Args)
		p.str(")")
	case *Index:
		p.expr(e.X, post)
		p.str("[")
		p.expr(e.Index, top)
		p.str("]")
	case *Update:
		p.expr(e.X, post)
		p.str("[")
		p.expr(e.Index, top)
		p.str(" := ")
		p.expr(e.Value, top)
		p.str("]")
	case *FieldSel:
		p.expr(e.X, post)
		p.str(".")
		p.str(e.Name)
	case *RecordUpdate:
		p.expr(e.X, post)
		p.str(" with {")
		p.fields(e.Fields, " := ")
		p.str("}")
	case *RecordLit:
		p.str(e.SortName)
		p.str("{")
		p.fields(e.Fields, ": ")
		p.str("}")
	case *SetLit:
		p.str("{")
		p.list(e.Elems)
		p.str("}")
	case *SeqLit:
		p.str("[")
		p.list(e.Elems)
		p.str("]")
	case *BadExpr:
		p.str("<bad expression>")
	default:
		p.str("<unknown expression>")
	}
}

func (p *printer) list(es []Expr) {
	for i, a := range es {
		if i > 0 {
			p.str(", ")
		}
		p.expr(a, top)
	}
}

func (p *printer) fields(fs []*FieldInit, sep string) {
	for i, f := range fs {
		if i > 0 {
			p.str(", ")
		}
		if f == nil {
			p.str("<nil>")
			continue
		}
		p.str(f.Name)
		p.str(sep)
		p.expr(f.Value, top)
	}
}

func (p *printer) binder(b *Binder) {
	if b == nil {
		p.str("<nil>")
		return
	}
	if b.Var != nil {
		p.str(b.Var.Name)
	}
	if b.Lo != nil || b.Hi != nil {
		bound := pctx{min: lvAdd, last: true}
		p.str(" in ")
		p.expr(b.Lo, bound)
		p.str("..")
		p.expr(b.Hi, bound)
		return
	}
	p.str(": ")
	p.str(b.SortExpr.String())
}

// ---- statements ----

func (p *printer) newline() {
	p.str("\n")
	for i := 0; i < p.indent; i++ {
		p.str("  ")
	}
}

func (p *printer) stmts(ss []Stmt) {
	if len(ss) == 0 {
		p.str("skip")
		return
	}
	for i, s := range ss {
		if i > 0 {
			p.newline()
		}
		p.stmt(s)
	}
}

func (p *printer) block(ss []Stmt) {
	p.indent++
	p.newline()
	p.stmts(ss)
	p.indent--
	p.newline()
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Assign:
		p.expr(s.Target, top)
		p.str(" := ")
		p.expr(s.Value, top)
	case *IfStmt:
		p.str("if ")
		for {
			p.expr(s.Cond, top)
			p.str(" then")
			p.block(s.Then)
			if len(s.Else) == 1 {
				if elif, ok := s.Else[0].(*IfStmt); ok {
					p.str("elif ")
					s = elif
					continue
				}
			}
			if len(s.Else) > 0 {
				p.str("else")
				p.block(s.Else)
			}
			p.str("end")
			return
		}
	default:
		p.str("skip")
	}
}
