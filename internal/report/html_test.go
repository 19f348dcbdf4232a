package report

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// htmlTestReport is a small report: a refuted invariant obligation with a
// counterexample, an unknown edge obligation with its dumped query, and a
// theorem; names carry characters HTML must escape.
func htmlTestReport() *Prove {
	data, _ := json.Marshal(map[string]any{
		"clause": "invariant", "action": "Stage", "goal": "invariant: bufRange(s') <x>", "step": "Stage(0)",
		"states": []map[string]string{
			{"name": "s", "automaton": "Buffered", "text": "Buffered{sum: 0, buf: [1, 2], full: false}"},
			{"name": "s'", "automaton": "Buffered", "text": "Buffered{buf: [5, 2], full: true}", "base": "s"},
		},
		"constants": []string{"k = 1"},
	})
	p := &Prove{
		Solver: Solver{Name: "z3", Version: "4.8.12"},
		Obligations: []Obligation{
			{ID: "Buffered › invariant bufRange › Stage", Group: "Buffered › invariant bufRange", Pos: "counter/impl.yaml:25:3",
				Verdict: Refuted, Seconds: 0.5, Counterexample: &Counterexample{Text: "counterexample to …", Data: data}},
			{ID: "Buffered › invariant bufRange › start", Group: "Buffered › invariant bufRange", Pos: "counter/impl.yaml:25:3",
				Verdict: Proved, Cached: true},
			{ID: "Buffered→Total<b> › refinement › Flush › event", Group: "Buffered→Total<b> › refinement", Pos: "counter/proof.yaml:9:5",
				Verdict: Unknown, Reason: "z3: max. resource limit exceeded", Dump: ".ladder/unknown/Flush-0123abcd.smt2"},
		},
		Invariants: []Invariant{{Automaton: "Buffered", Name: "bufRange", Group: "Buffered › invariant bufRange", Status: Refuted}},
		Edges: []Edge{{Name: "Buffered→Total<b>", Concrete: "Buffered", Abstract: "Total", Kind: "refinement",
			Group: "Buffered→Total<b> › refinement", Status: Unknown, Assumes: []string{"Buffered.bufRange"}}},
		Theorems: []Theorem{{Statement: "Total satisfies Total.nonNeg", Rule: "invariant-induction", From: []string{"Total.nonNeg"}}},
	}
	p.Summarize()
	return p
}

func renderHTML(t *testing.T, p *Prove, opt HTMLOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteHTML(&b, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteHTML(t *testing.T) {
	out := renderHTML(t, htmlTestReport(), HTMLOptions{Dot: "/nonexistent/dot", SourceDir: "/src", OutDir: "/src/bin/report"})
	for _, want := range []string{
		// the refuted row and the unknown row are marked failing; the proved one is not
		`class="v-refuted failing" title="Buffered › invariant bufRange › Stage"`,
		`class="v-unknown failing" title="Buffered→Total&lt;b&gt; › refinement › Flush › event"`,
		`class="v-proved" title="Buffered › invariant bufRange › start"`,
		// action and clause columns; cached or fresh
		`<td class="mono">Flush</td><td class="mono">event</td>`,
		`<td>cached</td>`, `<td>fresh</td>`,
		// positions and dumps linked relative to the page
		`<a class="mono" href="../../counter/impl.yaml">counter/impl.yaml:25:3</a>`,
		`href="../../.ladder/unknown/Flush-0123abcd.smt2"`,
		// the counterexample: changed entries highlighted, unchanged ones carried over
		`<tr class="changed"><td class="mono">buf</td><td class="mono">[1, 2]</td><td class="mono changed">[5, 2]</td></tr>`,
		`<td class="mono">sum</td><td class="mono">0</td><td class="mono same">0</td>`,
		`<dd class="mono">Stage(0)</dd>`,
		// the reason of the unknown obligation
		`z3: max. resource limit exceeded`,
		// escaped names
		`Buffered→Total&lt;b&gt;`, `invariant: bufRange(s&#39;) &lt;x&gt;`,
		// theorems
		`<td class="mono">invariant-induction</td>`,
		// without dot: the hierarchy as a list, and why
		`needs Graphviz&#39;s dot`, `<li class="node"><a href="#a-Buffered-`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, "<b>") || strings.Contains(out, "<x>") {
		t.Errorf("unescaped text from the report in the page")
	}
	// every href="#id" has its id
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(out, -1) {
		if !strings.Contains(out, `id="`+m[1]+`"`) {
			t.Errorf("link to #%s has no target", m[1])
		}
	}
	// the assumed invariant links to its section
	if !regexp.MustCompile(`assumes <a href="#g-Buffered-invariant-bufRange-[0-9a-f]{8}">Buffered.bufRange</a>`).MatchString(out) {
		t.Errorf("the edge's assumption is not linked to the invariant")
	}
}

func TestWriteHTMLGraph(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("Graphviz's dot is not installed")
	}
	out := renderHTML(t, htmlTestReport(), HTMLOptions{})
	svg := out[strings.Index(out, "<svg"):strings.Index(out, "</svg>")]
	if n := strings.Count(svg, `class="node"`); n != 2 {
		t.Errorf("the SVG has %d nodes, want 2 (Buffered, Total)", n)
	}
	if n := strings.Count(svg, `class="edge"`); n != 1 {
		t.Errorf("the SVG has %d edges, want 1", n)
	}
	// the refuted automaton is drawn red, the unknown edge orange, and both link to their sections
	if !regexp.MustCompile(`(?s)<a xlink:href="#a-Buffered-[0-9a-f]{8}".*stroke="red"`).MatchString(svg) {
		t.Errorf("the node of Buffered is not linked or not red:\n%s", svg)
	}
	if !regexp.MustCompile(`<a xlink:href="#g-Buffered-Total-b-refinement-[0-9a-f]{8}"`).MatchString(svg) {
		t.Errorf("the edge is not linked to its section:\n%s", svg)
	}
	if !strings.Contains(svg, `stroke="orange"`) {
		t.Errorf("the unknown edge is not orange:\n%s", svg)
	}
	if strings.Contains(out, "<?xml") || strings.Contains(out, "<!DOCTYPE svg") {
		t.Errorf("dot's XML prologue is left in the page")
	}
}

func TestStateTables(t *testing.T) {
	d := cexData{Goal: "pre: full = false in a", States: []cexState{
		{Name: "c", Automaton: "A", Text: `A{x: f(1, [2, 3]), full: true, m: {k: 1}}`},
		{Name: "a", Automaton: "B", Text: `B{y: 0}`},
		{Name: "cpost", Automaton: "A", Text: `A{x: f(1, [2, 4])}`, Base: "c"},
		{Name: "apost", Automaton: "B", Text: `not a record`, Base: "a"},
	}}
	ts := stateTables(d)
	if len(ts) != 2 {
		t.Fatalf("%d tables, want 2: %+v", len(ts), ts)
	}
	a := ts[0]
	if a.Pre != "c" || a.Post != "cpost" || len(a.Rows) != 3 {
		t.Fatalf("first table %+v", a)
	}
	if r := a.Rows[0]; r.Field != "x" || r.Pre != "f(1, [2, 3])" || r.Post != "f(1, [2, 4])" || !r.Changed {
		t.Errorf("row x: %+v", r)
	}
	if r := a.Rows[1]; r.Field != "full" || r.Post != "true" || r.Changed || !r.InGoal {
		t.Errorf("row full: %+v", r)
	}
	if r := a.Rows[2]; r.Field != "m" || r.Pre != "{k: 1}" {
		t.Errorf("row m: %+v", r)
	}
	if b := ts[1]; b.Pre != "a" || b.Post != "apost" || b.Raw == "" {
		t.Errorf("a post-state that is not a record is shown as text: %+v", b)
	}
}

// TestStateTablesUnchangedCopy checks that an unchanged copy of a state
// (u0 = a, the abstract pre-state of the abstract steps) is named in the
// table of the state it copies, and that the states computed from the copy
// are paired with that state.
func TestStateTablesUnchangedCopy(t *testing.T) {
	d := cexData{Goal: "relation: R1(cpost, u1)", States: []cexState{
		{Name: "c", Automaton: "Impl", Text: `Impl{sum: 0, buf: 2}`},
		{Name: "a", Automaton: "Spec", Text: `Spec{total: 0, n: 1}`},
		{Name: "cpost", Automaton: "Impl", Text: `Impl{sum: 2, buf: 0}`, Base: "c"},
		{Name: "u0", Automaton: "Spec", Text: `Spec{}`, Base: "a"},
		{Name: "u1", Automaton: "Spec", Text: `Spec{total: 4}`, Base: "u0"},
	}}
	ts := stateTables(d)
	if len(ts) != 2 || ts[0].Pre != "c" || ts[0].Post != "cpost" {
		t.Fatalf("tables %+v; want c with cpost, then a with u1", ts)
	}
	if a := ts[1]; a.Pre != "a = u0" || a.Post != "u1" || len(a.Rows) != 2 ||
		a.Rows[0].Field != "total" || a.Rows[0].Post != "4" || !a.Rows[0].Changed || a.Rows[1].Post != "1" || a.Rows[1].Changed {
		t.Errorf("the abstract table is %+v; want a = u0 before, u1 after", a)
	}
}

func TestWriteHTMLDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	path, err := htmlTestReport().WriteHTMLDir(dir, HTMLOptions{NoGraph: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "<!DOCTYPE html>") {
		t.Fatalf("%s: %v %.40q", path, err, b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%s holds %d files, want index.html only", dir, len(ents))
	}
	if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
		t.Errorf("the page refers to the network")
	}
}
