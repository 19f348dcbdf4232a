package ioa_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/load"
)

// deadText describes the registers of a as "x@c: K1 K2", the control
// values at which x is dead.
func deadText(a *ioa.Automaton) []string {
	out := []string{}
	for _, r := range ioa.DeadRegisters(a) {
		var dead []string
		for k, l := range r.Live {
			if !l {
				dead = append(dead, r.Control.Sort.Elem.Elems[k])
			}
		}
		out = append(out, fmt.Sprintf("%s@%s: %s", r.Var.Name, r.Control.Name, strings.Join(dead, " ")))
	}
	sort.Strings(out)
	return out
}

func TestDeadRegistersTMS2(t *testing.T) {
	set, errs := load.Files("../specs/TMS2.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// argL is read by DoRead and DoWrite, and by the invariant
	// readRespValue at ReadResponding; argV by DoWrite; valRead by ReadResp
	// and readRespValue; rdSet and wrSet by the commits and the reads, and by
	// emptyBeforeBegin before the begin. beginIdx is read by the invariant
	// beginIdxBound at every control value, so it is not a register.
	want := []string{
		"argL@pc: NotStarted BeginPending Ready WriteResponding CommitPending CommitResponding Committed Aborted",
		"argV@pc: NotStarted BeginPending Ready ReadPending ReadResponding WriteResponding CommitPending CommitResponding Committed Aborted",
		"rdSet@pc: CommitResponding Committed Aborted",
		"valRead@pc: NotStarted BeginPending Ready ReadPending WritePending WriteResponding CommitPending CommitResponding Committed Aborted",
		"wrSet@pc: CommitResponding Committed Aborted",
	}
	if got := deadText(set.Automaton("TMS2")); !reflect.DeepEqual(got, want) {
		t.Errorf("TMS2 registers:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// liveFixture is a process automaton: Start sets r[t] and moves to Mid,
// Use reads r[t] at Mid, Finish moves to Done. Each test case below edits
// one part of it.
const liveFixture = `
automaton: P
sorts:
  T: param
  Pc: {enum: [Idle, Mid, Done]}
state:
  pc: {sort: "Map[T, Pc]", init: const(Idle)}
  r:  {sort: "Map[T, Int]", init: const(0)}
  n:  {sort: Int, init: 0}
actions:
  Start:
    kind: internal
    params: {t: T}
    pre: pc[t] = Idle
    eff: |
      r[t] := 1
      pc[t] := Mid
  Use:
    kind: internal
    params: {t: T}
    pre: pc[t] = Mid
    eff: |
      n := r[t]
      pc[t] := Done
  Finish:
    kind: internal
    params: {t: T}
    pre: pc[t] in {Mid, Done}
    eff: pc[t] := Done
`

func TestDeadRegistersRules(t *testing.T) {
	for _, c := range []struct {
		name, old, new string
		want           []string
	}{
		{name: "base", want: []string{"r@pc: Idle Done"}},
		// read by another process's action: not a register
		{name: "foreign read", old: "n := r[t]", new: "n := r[u]", want: []string{}},
		// the control written for another process: no reduction at all
		{name: "foreign control", old: "    eff: pc[t] := Done", new: "    eff: pc[u] := Done", want: []string{}},
		// a control written with a computed value
		{name: "computed control", old: "    eff: pc[t] := Done", new: "    eff: pc[t] := if n = 0 then Done else Mid", want: []string{}},
		// an action that is not owned (no guard on pc) reading r
		{name: "unowned read", old: "    pre: pc[t] in {Mid, Done}\n", new: "    pre: n >= 0 and r[t] >= 0\n", want: []string{}},
		// an invariant reading r at Done keeps it live there, and at Mid
		// (Finish moves there without writing r)
		{name: "invariant at Done", old: "", new: "invariants:\n  inv: |\n    forall t: T. pc[t] = Done => r[t] >= 0\n", want: []string{"r@pc: Idle"}},
		// an invariant reading r in any other form
		{name: "invariant whole", old: "", new: "invariants:\n  inv: r = r\n", want: []string{}},
		// a conditional write overwrites nothing: Start's r[t] := 1 under
		// a condition keeps r live at Idle
		{name: "conditional write", old: "      r[t] := 1\n", new: "      if n = 0 then r[t] := 1 end\n", want: []string{"r@pc: Done"}},
		// a write on both branches overwrites
		{name: "both branches", old: "      r[t] := 1\n", new: "      if n = 0 then r[t] := 1 else r[t] := 2 end\n", want: []string{"r@pc: Idle Done"}},
		// a definition reading r[t] through its parameter
		{name: "definition", old: "n := r[t]", new: "n := get(t)", want: []string{"r@pc: Idle Done"}},
		// a definition reading every entry
		{name: "definition whole", old: "n := r[t]", new: "n := sum", want: []string{}},
		// the negation of a constraint that is not on c[p] alone says
		// nothing about where Finish runs: it is not owned, and it writes
		// the control
		{name: "negated partial guard", old: "    pre: pc[t] in {Mid, Done}\n", new: "    pre: not (pc[t] = Idle and n >= 0)\n", want: []string{}},
		// an invariant whose guard reads r reads it at every control value
		{name: "invariant guard reads", old: "", new: "invariants:\n  inv: |\n    forall t: T. pc[t] = Done and r[t] > 0 => n >= 0\n", want: []string{}},
		// the owner's guard inside a definition the precondition calls
		{name: "guard in a definition", old: "    pre: pc[t] in {Mid, Done}\n", new: "    pre: late(t) and n >= 0\n", want: []string{"r@pc: Idle Done"}},
		// a definition that does not constrain c[p]: Finish is not owned,
		// and it writes the control
		{name: "no guard in a definition", old: "    pre: pc[t] in {Mid, Done}\n", new: "    pre: free(t)\n", want: []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := liveFixture
			switch {
			case c.old == "" && c.new != "":
				text += c.new
			case c.old != "":
				if !strings.Contains(text, c.old) {
					t.Fatalf("fixture has no %q", c.old)
				}
				text = strings.Replace(text, c.old, c.new, 1)
			}
			if strings.Contains(c.new, "r[u]") || strings.Contains(c.new, "pc[u]") {
				text = strings.ReplaceAll(text, "params: {t: T}\n    pre: pc[t] in {Mid, Done}", "params: {t: T, u: T}\n    pre: pc[t] in {Mid, Done}")
				text = strings.Replace(text, "params: {t: T}\n    pre: pc[t] = Mid", "params: {t: T, u: T}\n    pre: pc[t] = Mid", 1)
			}
			if strings.Contains(c.new, "late(t)") || strings.Contains(c.new, "free(t)") {
				text = strings.Replace(text, "state:", "definitions:\n  late:\n    params: {x: T}\n    sort: Bool\n    body: pc[x] = Mid or pc[x] = Done\n  free:\n    params: {x: T}\n    sort: Bool\n    body: pc[x] = Mid or n = 0\nstate:", 1)
			}
			if strings.Contains(c.new, "get(t)") || strings.Contains(c.new, "sum") {
				text = strings.Replace(text, "state:", "definitions:\n  get:\n    params: {x: T}\n    sort: Int\n    body: r[x]\n  sum:\n    sort: Bool\n    body: r = r\nstate:", 1)
				text = strings.Replace(text, "n := sum", "n := if sum then 1 else 0", 1)
			}
			cfg := load.Config{ReadFile: func(string) ([]byte, error) { return []byte(text), nil }}
			set, errs := cfg.Files("p.yaml")
			if len(errs) > 0 {
				t.Fatalf("%v\n%s", errs, text)
			}
			if got := deadText(set.Automaton("P")); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestDeadRegistersControlKept: mode is dead once pc is Done, and is the
// control of r (r is overwritten at mode X and read at mode Y); a control
// is never reset, since the deadness of its registers' entries is read
// from it.
func TestDeadRegistersControlKept(t *testing.T) {
	text := `
automaton: Q
sorts:
  T: param
  M: {enum: [X, Y]}
  Pc: {enum: [A, B, Done]}
state:
  mode: {sort: "Map[T, M]", init: const(X)}
  pc:   {sort: "Map[T, Pc]", init: const(A)}
  r:    {sort: "Map[T, Int]", init: const(0)}
  n:    {sort: Int, init: 0}
actions:
  First:
    kind: internal
    params: {t: T}
    pre: mode[t] = X and pc[t] = A
    eff: |
      mode[t] := Y
      r[t] := 1
      pc[t] := B
  Second:
    kind: internal
    params: {t: T}
    pre: mode[t] = Y and pc[t] = B
    eff: |
      n := r[t]
      pc[t] := Done
`
	cfg := load.Config{ReadFile: func(string) ([]byte, error) { return []byte(text), nil }}
	set, errs := cfg.Files("q.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	// without the rule, mode@pc (dead at Done) would be listed too
	if got, want := deadText(set.Automaton("Q")), []string{"r@mode: X"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
