package report

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

func testGraph() *Graph {
	return &Graph{
		Nodes: []string{"TMS2"},
		Edges: []GraphEdge{
			{Name: "p2", Concrete: "TxnOrdTMS2", Abstract: "ReservationTMS2", Kind: "refinement", Status: "refuted"},
			{Name: "p1", Concrete: "TMS2", Abstract: "TxnOrdTMS2", Kind: "history", Status: "proved"},
		},
	}
}

func TestWriteDot(t *testing.T) {
	var b bytes.Buffer
	if err := testGraph().WriteDot(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`"TMS2" -> "TxnOrdTMS2" [label="history\nproved", color=darkgreen`,
		`"TxnOrdTMS2" -> "ReservationTMS2" [label="refinement\nrefuted", color=red`,
		`"ReservationTMS2";`,
		"arrowtail=odot",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dot output lacks %q:\n%s", want, out)
		}
	}
	// Edges are sorted by concrete automaton: TMS2 before TxnOrdTMS2.
	if strings.Index(out, `"TMS2" -> `) > strings.Index(out, `"TxnOrdTMS2" -> `) {
		t.Errorf("edges not sorted:\n%s", out)
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := testGraph().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), b.String())
	}
	if !strings.HasPrefix(lines[0], "automata: ReservationTMS2, TMS2, TxnOrdTMS2") {
		t.Errorf("nodes line = %q", lines[0])
	}
	if !strings.Contains(lines[1], "TMS2 -> TxnOrdTMS2") || !strings.Contains(lines[1], "proved") {
		t.Errorf("first edge line = %q", lines[1])
	}
}

func TestWriteSVG(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("graphviz dot not installed")
	}
	var b bytes.Buffer
	if err := testGraph().WriteSVG(&b, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<svg") || !strings.Contains(b.String(), "ReservationTMS2") {
		t.Errorf("not an SVG of the graph: %.200s", b.String())
	}
	if err := testGraph().WriteSVG(&b, "/nonexistent/dot"); err == nil {
		t.Errorf("WriteSVG with a missing dot succeeded")
	}
}
