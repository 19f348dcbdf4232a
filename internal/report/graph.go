// This file implements the hierarchy graph: automata as nodes, proved and
// unproved edges between them, rendered as Graphviz dot, SVG or text.

package report

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
)

// GraphEdge is an edge of the hierarchy: Concrete implements Abstract by Kind.
type GraphEdge struct {
	Name     string // the proof's name
	Concrete string // automaton name
	Abstract string // automaton name
	Kind     string // refinement, simple-refinement, forward, backward, history
	Status   string // proved, refuted, unknown, not checked
}

// Graph is the hierarchy of automata and edges.
type Graph struct {
	Nodes []string
	Edges []GraphEdge
}

func (g *Graph) sorted() ([]string, []GraphEdge) {
	nodes := append([]string(nil), g.Nodes...)
	seen := map[string]bool{}
	for _, n := range nodes {
		seen[n] = true
	}
	for _, e := range g.Edges {
		for _, n := range []string{e.Concrete, e.Abstract} {
			if !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		}
	}
	sort.Strings(nodes)
	edges := append([]GraphEdge(nil), g.Edges...)
	sort.SliceStable(edges, func(i, j int) bool {
		if edges[i].Concrete != edges[j].Concrete {
			return edges[i].Concrete < edges[j].Concrete
		}
		return edges[i].Abstract < edges[j].Abstract
	})
	return nodes, edges
}

var statusColor = map[string]string{
	"proved":      "darkgreen",
	"refuted":     "red",
	"unknown":     "orange",
	"not checked": "gray50",
}

// WriteDot writes the graph in Graphviz dot. Edges point from the concrete
// automaton to the abstract one (for a history mapping, in the direction of
// the forward simulation, as in Figure 3 of LLM12, docs/references.md),
// labelled with the kind and the status.
func (g *Graph) WriteDot(w io.Writer) error {
	nodes, edges := g.sorted()
	var b bytes.Buffer
	b.WriteString("digraph ladder {\n  rankdir=BT;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for _, n := range nodes {
		fmt.Fprintf(&b, "  %q;\n", n)
	}
	for _, e := range edges {
		color := statusColor[e.Status]
		if color == "" {
			color = "black"
		}
		style := "solid"
		if e.Status != "proved" {
			style = "dashed"
		}
		extra := ""
		if e.Kind == "history" {
			extra = ", arrowtail=odot, dir=both"
		}
		fmt.Fprintf(&b, "  %q -> %q [label=%q, color=%s, fontcolor=%s, style=%s%s];\n",
			e.Concrete, e.Abstract, e.Kind+"\n"+e.Status, color, color, style, extra)
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteText writes one line per edge: "Concrete -> Abstract  kind  status  (proof)".
func (g *Graph) WriteText(w io.Writer) error {
	nodes, edges := g.sorted()
	var b strings.Builder
	fmt.Fprintf(&b, "automata: %s\n", strings.Join(nodes, ", "))
	width := 0
	for _, e := range edges {
		if n := len(e.Concrete) + len(e.Abstract) + 4; n > width {
			width = n
		}
	}
	for _, e := range edges {
		arrow := e.Concrete + " -> " + e.Abstract
		fmt.Fprintf(&b, "  %-*s  %-17s  %-11s  (%s)\n", width, arrow, e.Kind, e.Status, e.Name)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSVG renders the graph with Graphviz's dot command.
func (g *Graph) WriteSVG(w io.Writer, dotPath string) error {
	if dotPath == "" {
		dotPath = "dot"
	}
	var src bytes.Buffer
	if err := g.WriteDot(&src); err != nil {
		return err
	}
	cmd := exec.Command(dotPath, "-Tsvg")
	cmd.Stdin = &src
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("running %s -Tsvg: %v: %s", dotPath, err, strings.TrimSpace(errb.String()))
	}
	_, err := w.Write(out.Bytes())
	return err
}
