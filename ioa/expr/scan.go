// This file implements the scanner: it turns a text into tokens.

package expr

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"ladder/internal/source"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt

	// punctuation
	tLParen    // (
	tRParen    // )
	tLBrack    // [
	tRBrack    // ]
	tLBrace    // {
	tRBrace    // }
	tComma     // ,
	tDot       // .
	tDotDot    // ..
	tColon     // :
	tAssign    // :=
	tSemi      // ;
	tHash      // #
	tBar       // |
	tIff       // <=> iff ⇔
	tImplies   // => implies ⇒
	tEq        // =
	tNeq       // != ≠
	tLt        // <
	tLe        // <= ≤
	tGt        // >
	tGe        // >= ≥
	tPlus      // +
	tMinus     // -
	tStar      // *
	tBackslash // \

	// keywords (and their unicode spellings)
	tTrue
	tFalse
	tForall // forall ∀
	tExists // exists ∃
	tLambda // lambda λ
	tLet
	tIn // in ∈
	tIf
	tThen
	tElse
	tElif
	tEnd
	tSkip
	tNot    // not ¬
	tAnd    // and ∧
	tOr     // or ∨
	tNotIn  // notin ∉
	tSubset // subset ⊆
	tUnion  // union ∪
	tInter  // inter ∩
	tDiv
	tMod
	tWith
)

// keywords maps reserved words to their token kinds.
var keywords = map[string]tokKind{
	"true": tTrue, "false": tFalse, "forall": tForall, "exists": tExists,
	"lambda": tLambda, "let": tLet, "in": tIn, "if": tIf, "then": tThen,
	"else": tElse, "elif": tElif, "end": tEnd, "skip": tSkip, "not": tNot,
	"and": tAnd, "or": tOr, "notin": tNotIn, "subset": tSubset,
	"union": tUnion, "inter": tInter, "div": tDiv, "mod": tMod, "with": tWith,
	"iff": tIff, "implies": tImplies,
}

// unicodeOps maps the accepted unicode spellings to token kinds.
var unicodeOps = map[rune]tokKind{
	'∀': tForall, '∃': tExists, 'λ': tLambda, '∧': tAnd, '∨': tOr, '¬': tNot,
	'⇒': tImplies, '⇔': tIff, '≠': tNeq, '≤': tLe, '≥': tGe, '∈': tIn,
	'∉': tNotIn, '⊆': tSubset, '∪': tUnion, '∩': tInter,
}

// IsKeyword reports whether name is a reserved word of the expression
// language (and so cannot name a variable, sort, constant or definition).
func IsKeyword(name string) bool {
	_, ok := keywords[name]
	return ok
}

// token is one token of a text.
type token struct {
	kind tokKind
	off  int    // byte offset of the first byte
	end  int    // byte offset just after the token
	text string // the token as written
}

// scan splits text into tokens, ending with a tEOF token. Errors (illegal
// characters, invalid UTF-8) are added to errs with positions from m.
func scan(text string, m *source.Mapper, errs *source.ErrorList) []token {
	var toks []token
	i := 0
	for {
		// skip white space and comments
		for i < len(text) {
			c := text[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
				i++
				continue
			}
			if c == '/' && i+1 < len(text) && text[i+1] == '/' {
				for i < len(text) && text[i] != '\n' {
					i++
				}
				continue
			}
			break
		}
		if i >= len(text) {
			toks = append(toks, token{kind: tEOF, off: len(text), end: len(text)})
			return toks
		}
		start := i
		c := text[i]
		emit := func(k tokKind, n int) {
			i += n
			toks = append(toks, token{kind: k, off: start, end: i, text: text[start:i]})
		}
		next := byte(0)
		if i+1 < len(text) {
			next = text[i+1]
		}
		switch {
		case c >= '0' && c <= '9':
			j := i
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			emit(tInt, j-i)
		case c < utf8.RuneSelf && (c == '_' || isASCIILetter(c)):
			j := i
			for j < len(text) {
				r, n := utf8.DecodeRuneInString(text[j:])
				if !IsIdentRune(r) {
					break
				}
				j += n
			}
			word := text[i:j]
			if k, ok := keywords[word]; ok {
				emit(k, j-i)
			} else {
				emit(tIdent, j-i)
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && n <= 1 {
				errs.Add(m.Pos(i), source.ErrSyntax, "invalid UTF-8 encoding")
				i++
				continue
			}
			if k, ok := unicodeOps[r]; ok {
				emit(k, n)
				continue
			}
			if IsIdentRune(r) && !unicode.IsDigit(r) {
				j := i + n
				for j < len(text) {
					r2, n2 := utf8.DecodeRuneInString(text[j:])
					if !IsIdentRune(r2) {
						break
					}
					j += n2
				}
				emit(tIdent, j-i)
				continue
			}
			errs.Add(m.Pos(i), source.ErrSyntax, "unexpected character %s", strconv.QuoteRune(r))
			i += n
		default:
			switch c {
			case '(':
				emit(tLParen, 1)
			case ')':
				emit(tRParen, 1)
			case '[':
				emit(tLBrack, 1)
			case ']':
				emit(tRBrack, 1)
			case '{':
				emit(tLBrace, 1)
			case '}':
				emit(tRBrace, 1)
			case ',':
				emit(tComma, 1)
			case ';':
				emit(tSemi, 1)
			case '#':
				emit(tHash, 1)
			case '|':
				emit(tBar, 1)
			case '+':
				emit(tPlus, 1)
			case '-':
				emit(tMinus, 1)
			case '*':
				emit(tStar, 1)
			case '\\':
				emit(tBackslash, 1)
			case '.':
				if next == '.' {
					emit(tDotDot, 2)
				} else {
					emit(tDot, 1)
				}
			case ':':
				if next == '=' {
					emit(tAssign, 2)
				} else {
					emit(tColon, 1)
				}
			case '=':
				if next == '>' {
					emit(tImplies, 2)
				} else {
					emit(tEq, 1)
				}
			case '!':
				if next == '=' {
					emit(tNeq, 2)
				} else {
					errs.Add(m.Pos(i), source.ErrSyntax, "unexpected character '!' (write not or !=)")
					i++
				}
			case '<':
				switch {
				case next == '=' && i+2 < len(text) && text[i+2] == '>':
					emit(tIff, 3)
				case next == '=':
					emit(tLe, 2)
				default:
					emit(tLt, 1)
				}
			case '>':
				if next == '=' {
					emit(tGe, 2)
				} else {
					emit(tGt, 1)
				}
			default:
				errs.Add(m.Pos(i), source.ErrSyntax, "unexpected character %s", strconv.QuoteRune(rune(c)))
				i++
			}
		}
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// IsIdentRune reports whether r may appear in an identifier (after its first
// character). λ is a letter but spells lambda, so it is excluded.
func IsIdentRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || isASCIILetter(byte(r)) || r >= '0' && r <= '9'
	}
	if _, op := unicodeOps[r]; op {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// describe returns how a token is named in "found X" messages.
func (t token) describe() string {
	if t.kind == tEOF {
		return "end of text"
	}
	return strconv.Quote(t.text)
}
