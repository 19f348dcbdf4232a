// This file implements item fingerprints: a hash of the content of every
// dependency item (deps.go), so that a later run can tell which items an
// edit changed (docs/proofs.md, "Dependencies").

package simulation

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"ladder/ioa"
	"ladder/ioa/eval"
	"ladder/ioa/expr"
)

// Fingerprints returns the fingerprint of every dependency item of the
// automata and proofs, by item name ("automaton:A/action:X",
// "proof:P/clause:R", ...; the names Obligation.Deps uses). A fingerprint
// is the lowercase hex SHA-256 of the item's canonical printed form: its
// expressions as expr.Print spells them and its sorts spelled out in full,
// so that an edit of layout or comments changes none, and an edit of the
// item's meaning changes its own fingerprint only (a definition it calls is
// an item of its own).
//
// The items of an automaton A are automaton:A/state (the declared sorts
// and the state variables with their sorts), init (the variables' initial
// values and `initially`), action:X (kind, parameters, precondition,
// effect), view:X (the event and its arguments), invariant:P (formula and
// `assumes:` list), invariant:v:Nat (the implicit invariant of a variable
// with a Nat inside: the variable's sort), definition:d (parameters,
// result sort, body) and constant:k (sort and value). The items of a proof
// P are proof:P/mapping, start and total (their entries), clause:R (its
// formula) and step:X for every `steps:` entry (cases, guards, abstract
// steps with their arguments, `pre:` witnesses). Strategies are not in the
// ioa model; a caller that has them adds proof:P/strategy and folds the
// other `strategy:` lists in with Fold.
func Fingerprints(autos []*ioa.Automaton, proofs []*ioa.Proof) map[string]string {
	out := map[string]string{}
	for _, a := range autos {
		automatonFingerprints(out, a)
	}
	for _, p := range proofs {
		proofFingerprints(out, p)
	}
	return out
}

// ItemOwner returns the automaton or proof an item belongs to: "automaton:A"
// for "automaton:A/action:X", "proof:P" for "proof:P/clause:R".
func ItemOwner(item string) string {
	owner, _, _ := strings.Cut(item, "/")
	return owner
}

// AutomatonOwner and ProofOwner return the owner (ItemOwner) of the items of
// a and p.
func AutomatonOwner(a *ioa.Automaton) string { return "automaton:" + a.Name }

// ProofOwner returns the owner of the items of proof p.
func ProofOwner(p *ioa.Proof) string { return "proof:" + p.Name }

// Fold returns the fingerprint of fp with extra text folded in, for an item
// whose content reaches beyond the ioa model (an invariant's or a case's
// `strategy:` list). An empty extra leaves fp as it is.
func Fold(fp, extra string) string {
	if extra == "" {
		return fp
	}
	return hashFields("ladder-item-fold/v1", fp, extra)
}

// HashText returns the fingerprint of an item given by its canonical text.
func HashText(text string) string { return hashFields("ladder-item/v1", text) }

// hashFields hashes length-prefixed fields, so that no two lists of fields
// share a byte stream.
func hashFields(fields ...string) string {
	h := sha256.New()
	for _, f := range fields {
		h.Write([]byte(strconv.Itoa(len(f)) + ":" + f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// itemText accumulates the canonical text of one item.
type itemText struct{ b strings.Builder }

func (t *itemText) line(parts ...string) {
	t.b.WriteString(strings.Join(parts, " "))
	t.b.WriteByte('\n')
}

func (t *itemText) expr(label string, e expr.Expr) {
	if e == nil {
		t.line(label, "-")
		return
	}
	t.line(label, expr.Print(e))
}

func (t *itemText) sum() string { return HashText(t.b.String()) }

// sortText spells s in full: an enum with its constants, a record with its
// fields, the state record by its automaton.
func sortText(s *expr.Sort) string {
	var b strings.Builder
	writeSort(&b, s)
	return b.String()
}

func writeSort(b *strings.Builder, s *expr.Sort) {
	if s == nil {
		b.WriteString("-")
		return
	}
	switch s.Kind {
	case expr.KEnum:
		b.WriteString("enum " + s.Name + " {" + strings.Join(s.Elems, ", ") + "}")
	case expr.KParam:
		b.WriteString("param " + s.Name)
	case expr.KRecord:
		if a, ok := s.State.(*ioa.Automaton); ok {
			b.WriteString("state " + a.Name)
			return
		}
		b.WriteString("record " + s.Name + " {")
		for i, f := range s.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": ")
			writeSort(b, f.Sort)
		}
		b.WriteString("}")
	case expr.KMap:
		b.WriteString("Map[")
		writeSort(b, s.Key)
		b.WriteString(", ")
		writeSort(b, s.Elem)
		b.WriteString("]")
	case expr.KSet, expr.KSeq, expr.KOption:
		b.WriteString([...]string{expr.KSet: "Set", expr.KSeq: "Seq", expr.KOption: "Option"}[s.Kind] + "[")
		writeSort(b, s.Elem)
		b.WriteString("]")
	default:
		b.WriteString(s.String())
	}
}

func automatonFingerprints(out map[string]string, a *ioa.Automaton) {
	var st itemText
	for _, s := range a.Sorts {
		st.line("sort", sortText(s))
	}
	for _, v := range a.Vars {
		st.line("var", v.Name, sortText(v.Sort))
	}
	out[autoItem(a, "state")] = st.sum()

	var in itemText
	for _, v := range a.Vars {
		in.expr("init "+v.Name, v.Init)
	}
	for _, x := range a.Initially {
		in.expr("initially", x)
	}
	out[autoItem(a, "init")] = in.sum()

	for _, act := range a.Actions {
		var t itemText
		t.line("kind", act.Kind.String())
		for _, b := range act.Params {
			t.line("param", binderText(b))
		}
		t.expr("pre", act.Pre)
		t.line("eff", expr.PrintStmts(act.Eff))
		out[autoItem(a, "action:"+act.Name)] = t.sum()
		if v := act.View; v != nil {
			var t itemText
			if v.Event != nil {
				t.line("event", v.Event.Name)
				for _, p := range v.Event.Params {
					t.line("event param", p.Name, sortText(p.Sort))
				}
			}
			for _, x := range v.Args {
				t.expr("arg", x)
			}
			out[autoItem(a, "view:"+act.Name)] = t.sum()
		}
	}
	for _, inv := range a.Invariants {
		var t itemText
		t.expr("body", inv.Body)
		if inv.Assumes != nil {
			t.line("assumes", strings.Join(inv.Assumes, ", "))
		}
		out[InvariantKey(a, inv.Name)] = t.sum()
	}
	for _, v := range a.Vars {
		if v.Sort.HasNat() {
			var t itemText
			t.line("var", v.Name, sortText(v.Sort))
			out[InvariantKey(a, eval.NatInvariant(v.Name))] = t.sum()
		}
	}
	for _, d := range a.Defs {
		var t itemText
		for _, p := range d.Params {
			t.line("param", p.Name, sortText(p.Sort))
		}
		t.line("sort", sortText(d.Sort))
		t.expr("body", d.Body)
		out[autoItem(a, "definition:"+d.Name)] = t.sum()
	}
	for _, c := range a.Consts {
		var t itemText
		t.line("sort", sortText(c.Sort))
		t.expr("value", c.Body)
		out[autoItem(a, "constant:"+c.Name)] = t.sum()
	}
}

// binderText spells an action parameter: `x: S` or `n in lo..hi`.
func binderText(b *expr.Binder) string {
	if b.Lo != nil || b.Hi != nil {
		lo, hi := "-", "-"
		if b.Lo != nil {
			lo = expr.Print(b.Lo)
		}
		if b.Hi != nil {
			hi = expr.Print(b.Hi)
		}
		return b.Var.Name + " in " + lo + ".." + hi
	}
	return b.Var.Name + ": " + sortText(b.Var.Sort)
}

func stateMapText(t *itemText, label string, m *ioa.StateMap) {
	if m == nil {
		t.line(label, "-")
		return
	}
	for _, e := range m.Entries {
		def := ""
		if e.Default {
			def = " (default)"
		}
		t.expr(label+" "+e.Var.Name+def, e.Value)
	}
}

func proofFingerprints(out map[string]string, p *ioa.Proof) {
	if p.Mapping != nil {
		var t itemText
		stateMapText(&t, "map", p.Mapping)
		out[proofItem(p, "mapping")] = t.sum()
	}
	if p.Start != nil {
		var t itemText
		stateMapText(&t, "start", p.Start)
		out[proofItem(p, "start")] = t.sum()
	}
	if p.Total != nil {
		var t itemText
		stateMapText(&t, "total", p.Total)
		out[proofItem(p, "total")] = t.sum()
	}
	for _, c := range p.Relation {
		var t itemText
		t.expr("body", c.Body)
		out[proofItem(p, "clause:"+c.Name)] = t.sum()
	}
	for _, sm := range p.Steps {
		if sm.Implicit {
			continue
		}
		var t itemText
		for _, c := range sm.Cases {
			t.line("case", strconv.Itoa(c.Index))
			t.expr("when", c.When)
			for _, s := range c.Steps {
				args := make([]string, len(s.Args))
				for i, x := range s.Args {
					args[i] = expr.Print(x)
				}
				t.line("step", s.Action.Name+"("+strings.Join(args, ", ")+")")
				if lp := s.Loop; lp != nil {
					t.line("repeat", lp.Var.Name)
					t.expr("from", lp.From)
					t.expr("to", lp.To)
					t.expr("invariant", lp.Invariant)
				}
			}
			if c.Pre != nil {
				stateMapText(&t, "pre", c.Pre)
			}
		}
		out[proofItem(p, "step:"+sm.Action.Name)] = t.sum()
	}
}
