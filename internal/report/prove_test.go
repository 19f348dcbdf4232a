package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func testProve() *Prove {
	p := &Prove{
		Obligations: []Obligation{
			{ID: "C→A › forward › Inc › relation(R1)", Group: "C→A › forward", Verdict: Refuted, Pos: "proofs/p.yaml:9:5",
				Seconds: 0.5, SolverSeconds: 0.4, Counterexample: &Counterexample{Text: "pre-state: n = 3\nparameters: t = T#0"}},
			{ID: "A › invariant bounded › Inc", Group: "A › invariant bounded", Verdict: Proved, Seconds: 0.25, SolverSeconds: 0.2},
			{ID: "A › invariant bounded › start", Group: "A › invariant bounded", Verdict: Proved, Cached: true},
			{ID: "C→A › forward › Tick › pre(Tick)", Group: "C→A › forward", Verdict: Unknown, Reason: "timeout (rlimit 100)", Dump: ".ladder/unknown/x.smt2"},
		},
		Invariants: []Invariant{{Automaton: "A", Name: "bounded", Group: "A › invariant bounded", Status: Proved}},
		Edges:      []Edge{{Name: "C→A", Concrete: "C", Abstract: "A", Kind: "forward", Group: "C→A › forward", Status: Refuted}},
		Theorems:   []Theorem{{Statement: "A satisfies A.bounded", Rule: "invariant-induction", From: []string{"automaton:A/invariant:bounded"}}},
		Summary:    Summary{Seconds: 1.5},
	}
	p.Sort()
	p.Summarize()
	return p
}

func TestSummarize(t *testing.T) {
	s := testProve().Summary
	want := Summary{Obligations: 4, Proved: 2, Refuted: 1, Unknown: 1, Reused: 1, Rechecked: 3, Seconds: 1.5, SolverSeconds: 0.6000000000000001}
	if s != want {
		t.Errorf("Summary = %+v; want %+v", s, want)
	}
	if s.OK() {
		t.Error("OK() with a refutation")
	}
	if (Summary{}).OK() {
		t.Error("OK() with no obligations")
	}
	if !(Summary{Obligations: 2, Proved: 2}).OK() {
		t.Error("not OK() with everything proved")
	}
}

func TestWriteTextProve(t *testing.T) {
	var b bytes.Buffer
	if err := testProve().WriteText(&b, TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	want := `A › invariant bounded: proved
  A › invariant bounded › Inc         proved
  A › invariant bounded › start       proved  (cached)
C→A › forward: refuted
  C→A › forward › Inc › relation(R1)  refuted
  C→A › forward › Tick › pre(Tick)    unknown

Counterexamples

C→A › forward › Inc › relation(R1) (proofs/p.yaml:9:5): refuted
  pre-state: n = 3
  parameters: t = T#0

A refuted forward simulation may lack a relation clause; ladder infer looks for one (docs/infer.md):
  ladder infer --proof proofs/p.yaml

Unknown

C→A › forward › Tick › pre(Tick): unknown
  timeout (rlimit 100)
  query: .ladder/unknown/x.smt2

Theorems
  A satisfies A.bounded (invariant-induction: automaton:A/invariant:bounded)

4 obligations: 2 proved, 0 trivial, 1 refuted, 1 unknown; reused 1, re-checked 3
`
	if got := b.String(); got != want {
		t.Errorf("WriteText =\n%s\nwant\n%s", got, want)
	}
	b.Reset()
	if err := testProve().WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "proved    0.250s\n") || !strings.HasSuffix(b.String(), "re-checked 3; 1.50 s\n") {
		t.Errorf("times missing:\n%s", b.String())
	}
}

func TestWriteJSONProve(t *testing.T) {
	var b bytes.Buffer
	if err := testProve().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Obligations []map[string]any `json:"obligations"`
		Summary     map[string]any   `json:"summary"`
		Edges       []map[string]any `json:"edges"`
		Theorems    []map[string]any `json:"theorems"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Obligations) != 4 {
		t.Fatalf("%d obligations", len(got.Obligations))
	}
	o := got.Obligations[2]
	for _, k := range []string{"id", "group", "verdict", "seconds", "solver_seconds", "cached", "counterexample"} {
		if _, ok := o[k]; !ok {
			t.Errorf("refuted obligation lacks %q: %v", k, o)
		}
	}
	if _, ok := got.Obligations[0]["counterexample"]; ok {
		t.Errorf("proved obligation has a counterexample: %v", got.Obligations[0])
	}
	for _, k := range []string{"obligations", "proved", "refuted", "unknown", "reused", "rechecked", "seconds"} {
		if _, ok := got.Summary[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	for _, k := range []string{"name", "concrete", "abstract", "kind", "status"} {
		if _, ok := got.Edges[0][k]; !ok {
			t.Errorf("edge lacks %q", k)
		}
	}
	for _, k := range []string{"statement", "rule", "from"} {
		if _, ok := got.Theorems[0][k]; !ok {
			t.Errorf("theorem lacks %q", k)
		}
	}
	b.Reset()
	if err := (&Prove{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"obligations": []`) {
		t.Errorf("empty report writes null lists:\n%s", b.String())
	}
}

// TestWriteTextNotChecked checks that a run that leaves an edge or an
// invariant not checked (e.g. --only) says so after the summary line,
// though every selected obligation is proved.
func TestWriteTextNotChecked(t *testing.T) {
	p := &Prove{
		Obligations: []Obligation{{ID: "C→A › forward › Inc › event", Group: "C→A › forward", Verdict: Proved}},
		Invariants:  []Invariant{{Automaton: "A", Name: "bounded", Group: "A › invariant bounded", Status: NotChecked}},
		Edges:       []Edge{{Name: "C→A", Concrete: "C", Abstract: "A", Kind: "forward", Group: "C→A › forward", Status: NotChecked}},
	}
	p.Sort()
	p.Summarize()
	var b bytes.Buffer
	if err := p.WriteText(&b, TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	const want = "1 obligations: 1 proved, 0 trivial, 0 refuted, 0 unknown; reused 0, re-checked 1\n" +
		"not checked: 1 edge and 1 invariant, some of whose obligations or assumptions were not selected or not decided; no theorem rests on them\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("WriteText ends\n%s\nwant\n%s", b.String(), want)
	}
	p.Edges[0].Status, p.Invariants[0].Status = Proved, Proved
	b.Reset()
	if err := p.WriteText(&b, TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "not checked:") {
		t.Errorf("a fully checked run says not checked:\n%s", b.String())
	}
}

// TestTrivialCountedApart checks that trivial obligations (decided
// without the solver) are counted apart from the proved ones, discharge
// their group like proved ones, and are neither reused nor re-checked.
func TestTrivialCountedApart(t *testing.T) {
	p := &Prove{Obligations: []Obligation{
		{ID: "a", Group: "g", Verdict: Trivial},
		{ID: "b", Group: "g", Verdict: Proved},
		{ID: "c", Group: "h", Verdict: Trivial, Cached: true},
	}}
	p.Sort()
	p.Summarize()
	s := p.Summary
	if s.Trivial != 2 || s.Proved != 1 || s.Reused != 0 || s.Rechecked != 1 || !s.OK() {
		t.Errorf("summary %+v: want 1 proved, 2 trivial, 0 reused, 1 re-checked, OK", s)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b, TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "3 obligations: 1 proved, 2 trivial, 0 refuted, 0 unknown; reused 0, re-checked 1\n") {
		t.Errorf("the text does not count the trivial obligations apart:\n%s", b.String())
	}
	p.Obligations = append(p.Obligations, Obligation{ID: "d", Group: "g", Verdict: Refuted})
	p.Summarize()
	if p.Summary.OK() {
		t.Errorf("a run with a refuted obligation is OK: %+v", p.Summary)
	}
}

// TestWriteTextViaAssumption checks that an invariant or edge whose own
// obligations are proved but which is not proved names each assumption
// that is not: one of this run with its status, one assumed by transfer
// whose theorem was not derived, and one of an automaton this run did not
// prove; an assumption that holds (proved here, or a derived theorem) is
// not named. The HTML report says the same.
func TestWriteTextViaAssumption(t *testing.T) {
	p := &Prove{
		Obligations: []Obligation{
			{ID: "C › invariant a › Inc", Group: "C › invariant a", Verdict: Proved},
			{ID: "C › invariant b › Inc", Group: "C › invariant b", Verdict: Refuted},
			{ID: "C › invariant ok › Inc", Group: "C › invariant ok", Verdict: Proved},
			{ID: "C→A › forward › Inc › event", Group: "C→A › forward", Verdict: Proved},
		},
		Invariants: []Invariant{
			{Automaton: "C", Name: "a", Group: "C › invariant a", Status: Unknown, Assumes: []string{"C.b", "C.ok"}},
			{Automaton: "C", Name: "b", Group: "C › invariant b", Status: Refuted},
			{Automaton: "C", Name: "ok", Group: "C › invariant ok", Status: Proved},
		},
		Edges: []Edge{{Name: "C→A", Concrete: "C", Abstract: "A", Kind: "forward", Group: "C→A › forward", Status: Unknown,
			Assumes: []string{"C satisfies A.inv", "C satisfies B.held", "C.ok", "D.q"}}},
		Theorems: []Theorem{{Statement: "C satisfies B.held", Rule: "invariant-transfer"}},
	}
	p.Sort()
	p.Summarize()
	var b bytes.Buffer
	if err := p.WriteText(&b, TextOptions{NoTimes: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"C › invariant a: not proved (its obligations are proved, but it assumes C.b, which is refuted)\n",
		"C→A › forward: not proved (its obligations are proved, but it assumes C satisfies A.inv, which is not derived, D.q, which is not proved in this run)\n",
		"C › invariant b: refuted\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("WriteText lacks %q:\n%s", want, b.String())
		}
	}
	page := renderHTML(t, p, HTMLOptions{Dot: "/nonexistent/dot", NoTimes: true})
	for _, want := range []string{
		"Its obligations are proved, but it assumes C.b, which is refuted.",
		"Its obligations are proved, but it assumes C satisfies A.inv, which is not derived, D.q, which is not proved in this run.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("WriteHTML lacks %q", want)
		}
	}
}
