// This file implements the HTML report: one self-contained page (inline CSS,
// no script, no network) rendered from a Prove, the same data as the JSON
// report. It shows the hierarchy as an inline SVG (drawn by Graphviz's dot,
// a plain list when dot is missing), every edge and invariant with its
// obligations, the counterexamples of refuted obligations as state tables,
// the reasons of unknown ones, and the theorems with their provenance.
// docs/prove.md documents it.

package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// HTMLOptions controls WriteHTML.
type HTMLOptions struct {
	// Title heads the page; "ladder report" when empty.
	Title string
	// Dot is the Graphviz dot command that draws the hierarchy ("dot" when
	// empty). When it cannot be run, the page lists the edges instead.
	Dot string
	// NoGraph leaves the drawing out: the hierarchy is a plain list.
	NoGraph bool
	// SourceDir is the directory the report's positions and dump paths are
	// relative to (the working directory of the run that made the report);
	// OutDir is the directory the page is written to. Links to YAML files
	// and queries are made relative from OutDir to SourceDir. When OutDir
	// is empty, paths are linked as they are written.
	SourceDir, OutDir string
	// NoTimes leaves times out, for golden files.
	NoTimes bool
}

// HTMLFile is the name of the page WriteHTMLDir writes.
const HTMLFile = "index.html"

// WriteHTMLDir creates dir (if needed) and writes the report into it as
// dir/index.html. opt.OutDir is set to dir.
func (p *Prove) WriteHTMLDir(dir string, opt HTMLOptions) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	opt.OutDir = dir
	path := filepath.Join(dir, HTMLFile)
	tmp, err := os.CreateTemp(dir, ".index-*.html")
	if err != nil {
		return "", err
	}
	werr := p.WriteHTML(tmp, opt)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", werr
	}
	return path, nil
}

// WriteHTML writes the report as one HTML page.
func (p *Prove) WriteHTML(w io.Writer, opt HTMLOptions) error {
	v := buildView(p, opt)
	return htmlPage.Execute(w, v)
}

// The view: what the template shows, computed from a Prove.

type htmlView struct {
	Title     string
	OK        bool
	Summary   Summary
	Solver    Solver
	NoTimes   bool
	Graph     template.HTML // the inline SVG, or "" for the list
	GraphNote string        // why there is no drawing
	Automata  []*autView
	Edges     []*groupView
	Failures  []*failView
	Theorems  []thmView
	Errors    []string
	Warnings  []string
	NotChkd   int // edges and invariants not checked
}

type autView struct {
	Name, Anchor, Status string
	Invariants           []*groupView
	Out, In              []*groupView // edges from and to it
}

// groupView is an edge or an invariant with its obligations.
type groupView struct {
	Name, Anchor, Status, Group string
	Automaton                   string // invariants: the automaton; edges: ""
	Concrete, Abstract, Kind    string // edges
	ConcreteAnchor, AbsAnchor   string
	Assumes                     []linkView
	Rows                        []*rowView
	Counts                      string // "3 proved, 1 refuted"
	ViaAssumption               string // failing though its own obligations are proved: what it assumes that is not
	Open                        bool   // show the table unfolded
}

type rowView struct {
	ID, Anchor, Action, Clause, Verdict, Time string
	Cached, Failing                           bool
	Pos                                       linkView
	Detail                                    string // anchor of the failure, if any
}

type linkView struct {
	Text, Href string
}

type failView struct {
	ID, Anchor, RowAnchor, Verdict, Group, GroupAnchor string
	Pos                                                linkView
	Goal, Step, Clause, Action, Case                   string
	Abstract, Constants                                []string
	Instance, Bounded, Minimized                       string
	Tables                                             []stateTable
	Text                                               string // the counterexample as printed
	Reason                                             string
	Dump                                               linkView
}

type stateTable struct {
	Automaton, Pre, Post string // state names; Post "" for a lone state
	Rows                 []stateRow
	Raw                  string // the state's text when it cannot be split into fields
}

type stateRow struct {
	Field, Pre, Post string
	Changed, InGoal  bool
}

type thmView struct {
	Statement, Anchor, Rule string
	From                    []linkView
}

func buildView(p *Prove, opt HTMLOptions) *htmlView {
	v := &htmlView{Title: opt.Title, OK: p.OK(), Summary: p.Summary, Solver: p.Solver, NoTimes: opt.NoTimes,
		Errors: p.Errors, Warnings: p.Warnings}
	if v.Title == "" {
		v.Title = "ladder report"
	}
	v.NotChkd = countNotChecked(p)
	links := newLinker(opt)

	byGroup := map[string][]Obligation{}
	for _, o := range p.Obligations {
		byGroup[o.Group] = append(byGroup[o.Group], o)
	}
	// anchors of what can be referred to by name: edges by name,
	// invariants as "A.p", theorems by statement, automata by name.
	ref := map[string]string{}
	auts := map[string]*autView{}
	automaton := func(name string) *autView {
		a := auts[name]
		if a == nil {
			a = &autView{Name: name, Anchor: anchor("a", name)}
			auts[name] = a
			ref[name] = "#" + a.Anchor
		}
		return a
	}
	failAnchor := map[string]string{}
	for _, o := range p.Obligations {
		if !Discharged(o.Verdict) {
			failAnchor[o.ID] = anchor("x", o.ID)
		}
	}
	via := p.viaAssumption()
	group := func(name, status, groupName string) *groupView {
		g := &groupView{Name: name, Anchor: anchor("g", groupName), Status: status, Group: groupName}
		counts := map[string]int{}
		failing := false
		for _, o := range byGroup[groupName] {
			counts[o.Verdict]++
			r := &rowView{ID: o.ID, Anchor: anchor("o", o.ID), Verdict: o.Verdict, Cached: o.Cached,
				Failing: !Discharged(o.Verdict), Pos: links.pos(o.Pos), Detail: failAnchor[o.ID]}
			r.Action, r.Clause = splitID(o.ID, groupName)
			if !opt.NoTimes {
				r.Time = fmt.Sprintf("%.3f s", o.Seconds)
			}
			failing = failing || r.Failing
			g.Rows = append(g.Rows, r)
		}
		var parts []string
		for _, verdict := range []string{Proved, Trivial, Refuted, Unknown} {
			if n := counts[verdict]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, verdict))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, "no obligation checked")
		}
		g.Counts = strings.Join(parts, ", ")
		g.ViaAssumption = via[groupName]
		g.Open = failing
		return g
	}
	for _, inv := range p.Invariants {
		a := automaton(inv.Automaton)
		g := group(inv.Name, inv.Status, inv.Group)
		g.Automaton = inv.Automaton
		a.Invariants = append(a.Invariants, g)
		ref[inv.Automaton+"."+inv.Name] = "#" + g.Anchor
	}
	for _, e := range p.Edges {
		g := group(e.Name, e.Status, e.Group)
		g.Concrete, g.Abstract, g.Kind = e.Concrete, e.Abstract, e.Kind
		c, a := automaton(e.Concrete), automaton(e.Abstract)
		g.ConcreteAnchor, g.AbsAnchor = c.Anchor, a.Anchor
		c.Out = append(c.Out, g)
		a.In = append(a.In, g)
		v.Edges = append(v.Edges, g)
		ref[e.Name] = "#" + g.Anchor
	}
	for _, t := range p.Theorems {
		ref[t.Statement] = "#" + anchor("t", t.Statement)
	}
	for i, e := range p.Edges {
		for _, name := range e.Assumes {
			v.Edges[i].Assumes = append(v.Edges[i].Assumes, linkView{Text: name, Href: ref[name]})
		}
	}
	names := make([]string, 0, len(auts))
	for n := range auts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := auts[n]
		a.Status = automatonStatus(a)
		v.Automata = append(v.Automata, a)
	}
	for _, t := range p.Theorems {
		tv := thmView{Statement: t.Statement, Anchor: anchor("t", t.Statement), Rule: t.Rule}
		for _, f := range t.From {
			tv.From = append(tv.From, linkView{Text: f, Href: ref[f]})
		}
		v.Theorems = append(v.Theorems, tv)
	}
	groupAnchor := map[string]string{}
	for _, inv := range p.Invariants {
		groupAnchor[inv.Group] = anchor("g", inv.Group)
	}
	for _, e := range p.Edges {
		groupAnchor[e.Group] = anchor("g", e.Group)
	}
	for _, o := range p.Obligations {
		if Discharged(o.Verdict) {
			continue
		}
		v.Failures = append(v.Failures, failure(o, failAnchor[o.ID], groupAnchor[o.Group], links))
	}
	if !opt.NoGraph {
		svg, err := hierarchySVG(p, auts, opt.Dot)
		if err != nil {
			v.GraphNote = "The drawing needs Graphviz's dot (" + err.Error() + "); the hierarchy is listed instead."
		} else {
			v.Graph = template.HTML(svg) // dot's output: names are escaped by dot
		}
	}
	return v
}

// automatonStatus is the worst status of an automaton's invariants, or ""
// when it has none.
func automatonStatus(a *autView) string {
	rank := map[string]int{Proved: 1, NotChecked: 2, Unknown: 3, Refuted: 4}
	s := ""
	for _, g := range a.Invariants {
		if rank[g.Status] > rank[s] {
			s = g.Status
		}
	}
	return s
}

func countNotChecked(p *Prove) int {
	e, i := p.notChecked()
	return e + i
}

// splitID splits an obligation's ID after its group into the action (or
// "start") and the clause ("case 2 › pre(DoCommitWriter)", "event"); an
// invariant's obligations have no clause beyond the action.
func splitID(id, group string) (action, clause string) {
	rest, ok := strings.CutPrefix(id, group+" › ")
	if !ok {
		return id, ""
	}
	action, clause, _ = strings.Cut(rest, " › ")
	return action, clause
}

// anchor returns an HTML id for name: a readable part and a short hash,
// so that distinct names never share an id.
func anchor(kind, name string) string {
	var b strings.Builder
	b.WriteString(kind)
	b.WriteByte('-')
	dash := false
	for _, r := range name {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	sum := sha256.Sum256([]byte(name))
	b.WriteByte('-')
	b.WriteString(hex.EncodeToString(sum[:4]))
	return b.String()
}

// linker turns the report's paths into links relative to the page.
type linker struct {
	src, out string // absolute, or "" when links are the paths themselves
}

func newLinker(opt HTMLOptions) linker {
	if opt.OutDir == "" {
		return linker{}
	}
	src := opt.SourceDir
	if src == "" {
		src = "."
	}
	s, err1 := filepath.Abs(src)
	o, err2 := filepath.Abs(opt.OutDir)
	if err1 != nil || err2 != nil {
		return linker{}
	}
	return linker{src: s, out: o}
}

// href returns the relative URL of the file path (relative to the source
// directory, or absolute).
func (l linker) href(path string) string {
	if path == "" {
		return ""
	}
	target := path
	if l.out != "" {
		if !filepath.IsAbs(target) {
			target = filepath.Join(l.src, target)
		}
		if rel, err := filepath.Rel(l.out, target); err == nil {
			target = rel
		}
	}
	segs := strings.Split(filepath.ToSlash(target), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := strings.Join(segs, "/")
	if strings.HasPrefix(u, "/") {
		return "file://" + u
	}
	return u
}

// pos links "file:line:col" to the file.
func (l linker) pos(pos string) linkView {
	if pos == "" {
		return linkView{}
	}
	return linkView{Text: pos, Href: l.href(posFile(pos))}
}

// posFile returns the file of a position "file:line:col": pos without its
// numeric suffixes.
func posFile(pos string) string {
	file := pos
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 {
			break
		}
		if _, err := strconv.Atoi(file[i+1:]); err != nil {
			break
		}
		file = file[:i]
	}
	return file
}

// The counterexample's structured form (internal/kernel's render).
type cexData struct {
	Clause    string     `json:"clause"`
	Action    string     `json:"action"`
	Case      string     `json:"case"`
	Goal      string     `json:"goal"`
	Step      string     `json:"step"`
	Abstract  []string   `json:"abstract"`
	States    []cexState `json:"states"`
	Constants []string   `json:"constants"`
	Instance  string     `json:"instance"`
	Bounded   string     `json:"bounded"`
	Minimized string     `json:"minimized_from"`
}

type cexState struct {
	Name      string `json:"name"`
	Automaton string `json:"automaton"`
	Text      string `json:"text"`
	Base      string `json:"base"`
}

func failure(o Obligation, anc, groupAnchor string, links linker) *failView {
	f := &failView{ID: o.ID, Anchor: anc, RowAnchor: anchor("o", o.ID), Verdict: o.Verdict, Group: o.Group,
		GroupAnchor: groupAnchor, Pos: links.pos(o.Pos), Reason: o.Reason}
	if o.Dump != "" {
		f.Dump = linkView{Text: o.Dump, Href: links.href(o.Dump)}
	}
	if o.Counterexample == nil {
		return f
	}
	f.Text = o.Counterexample.Text
	var d cexData
	if len(o.Counterexample.Data) == 0 || json.Unmarshal(o.Counterexample.Data, &d) != nil {
		return f
	}
	f.Goal, f.Step, f.Clause, f.Action, f.Case = d.Goal, d.Step, d.Clause, d.Action, d.Case
	f.Abstract, f.Constants, f.Instance, f.Bounded, f.Minimized = d.Abstract, d.Constants, d.Instance, d.Bounded, d.Minimized
	f.Tables = stateTables(d)
	return f
}

// stateTables pairs each state with the states computed from it (its
// post-states) and lists their fields side by side. A state that equals
// the one it was computed from ("u0 = a (unchanged)") has no table: its
// name is added to that state's ("a = u0"), and the states computed from
// it are paired with that state.
func stateTables(d cexData) []stateTable {
	goalWords := map[string]bool{}
	for _, w := range identRE.FindAllString(d.Goal, -1) {
		goalWords[w] = true
	}
	// same maps the name of an unchanged copy to the state it copies.
	same := map[string]string{}
	for _, s := range d.States {
		if s.Base != "" && strings.HasSuffix(s.Text, "{}") && stateIndex(d.States, s.Base) >= 0 {
			same[s.Name] = s.Base
		}
	}
	orig := func(name string) string {
		for i := 0; i < len(d.States) && same[name] != ""; i++ {
			name = same[name]
		}
		return name
	}
	states := make([]cexState, 0, len(d.States))
	aka := map[string][]string{} // a state's name → the names of its copies
	for _, s := range d.States {
		if _, ok := same[s.Name]; ok {
			o := orig(s.Name)
			aka[o] = append(aka[o], s.Name)
			continue
		}
		if s.Base != "" {
			s.Base = orig(s.Base)
		}
		states = append(states, s)
	}
	d.States = states
	named := func(name string) string {
		return strings.Join(append([]string{name}, aka[name]...), " = ")
	}
	used := map[int]bool{}
	var tables []stateTable
	for i, s := range d.States {
		if used[i] || s.Base != "" && stateIndex(d.States, s.Base) >= 0 {
			continue
		}
		used[i] = true
		post := -1
		for j, q := range d.States {
			if !used[j] && q.Base == s.Name {
				post = j
				break
			}
		}
		t := stateTable{Automaton: s.Automaton, Pre: named(s.Name)}
		pre, ok := splitState(s.Text)
		var postFields []field
		if post >= 0 {
			used[post] = true
			t.Post = named(d.States[post].Name)
			var ok2 bool
			postFields, ok2 = splitState(d.States[post].Text)
			ok = ok && ok2
		}
		if !ok {
			t.Raw = s.Text
			if post >= 0 {
				t.Raw += "\n" + d.States[post].Name + " = " + d.States[post].Text
			}
			tables = append(tables, t)
			continue
		}
		postOf := map[string]string{}
		for _, f := range postFields {
			postOf[f.name] = f.value
		}
		seen := map[string]bool{}
		for _, f := range pre {
			seen[f.name] = true
			r := stateRow{Field: f.name, Pre: f.value, InGoal: goalWords[f.name]}
			if post >= 0 {
				r.Post = f.value
				if pv, ok := postOf[f.name]; ok {
					r.Post = pv
					r.Changed = pv != f.value
				}
			}
			t.Rows = append(t.Rows, r)
		}
		for _, f := range postFields {
			if !seen[f.name] {
				t.Rows = append(t.Rows, stateRow{Field: f.name, Post: f.value, Changed: true, InGoal: goalWords[f.name]})
			}
		}
		tables = append(tables, t)
	}
	// states whose base is not in the list, shown alone
	for i, s := range d.States {
		if used[i] {
			continue
		}
		t := stateTable{Automaton: s.Automaton, Pre: named(s.Name)}
		if fs, ok := splitState(s.Text); ok {
			for _, f := range fs {
				t.Rows = append(t.Rows, stateRow{Field: f.name, Pre: f.value, InGoal: goalWords[f.name]})
			}
		} else {
			t.Raw = s.Text
		}
		tables = append(tables, t)
	}
	return tables
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

func stateIndex(states []cexState, name string) int {
	for i, s := range states {
		if s.Name == name {
			return i
		}
	}
	return -1
}

type field struct{ name, value string }

// splitState splits a state's text "Name{f: v, g: w}" into its fields, at
// the commas outside brackets and quotes.
func splitState(text string) ([]field, bool) {
	open := strings.IndexByte(text, '{')
	if open < 0 || !strings.HasSuffix(text, "}") {
		return nil, false
	}
	body := text[open+1 : len(text)-1]
	if strings.TrimSpace(body) == "" {
		return nil, true
	}
	var parts []string
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth < 0 {
				return nil, false
			}
		case c == ',' && depth == 0:
			parts = append(parts, body[start:i])
			start = i + 1
		}
	}
	if depth != 0 || quoted {
		return nil, false
	}
	parts = append(parts, body[start:])
	fields := make([]field, 0, len(parts))
	for _, p := range parts {
		name, value, ok := strings.Cut(strings.TrimSpace(p), ": ")
		if !ok || !identRE.MatchString(name) {
			return nil, false
		}
		fields = append(fields, field{name: name, value: value})
	}
	return fields, true
}

// hierarchySVG draws the hierarchy with dot: nodes and edges coloured by
// status and linked to their sections. It returns the <svg> element.
func hierarchySVG(p *Prove, auts map[string]*autView, dot string) (string, error) {
	if dot == "" {
		dot = "dot"
	}
	g := &Graph{}
	for n := range auts {
		g.Nodes = append(g.Nodes, n)
	}
	for _, e := range p.Edges {
		g.Edges = append(g.Edges, GraphEdge{Name: e.Name, Concrete: e.Concrete, Abstract: e.Abstract, Kind: e.Kind, Status: e.Status})
	}
	nodes, edges := g.sorted()
	var b strings.Builder
	b.WriteString("digraph ladder {\n  rankdir=BT;\n  bgcolor=transparent;\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", penwidth=2];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=10, penwidth=1.5];\n")
	for _, n := range nodes {
		color := statusColor[auts[n].Status]
		if color == "" {
			color = "black"
		}
		fmt.Fprintf(&b, "  %q [URL=%q, tooltip=%q, color=%s];\n", n, "#"+auts[n].Anchor, n+": "+statusOr(auts[n].Status, "no invariants"), color)
	}
	for _, e := range edges {
		color := statusColor[e.Status]
		if color == "" {
			color = "black"
		}
		style := "solid"
		if e.Status != Proved {
			style = "dashed"
		}
		extra := ""
		if e.Kind == "history" {
			extra = ", arrowtail=odot, dir=both"
		}
		fmt.Fprintf(&b, "  %q -> %q [label=%q, URL=%q, tooltip=%q, color=%s, fontcolor=%s, style=%s%s];\n",
			e.Concrete, e.Abstract, e.Kind+"\n"+e.Status, "#"+anchor("g", groupOf(p, e.Name)), e.Name+": "+e.Status, color, color, style, extra)
	}
	b.WriteString("}\n")
	svg, err := runDot(dot, b.String())
	if err != nil {
		return "", err
	}
	i := strings.Index(svg, "<svg")
	if i < 0 {
		return "", fmt.Errorf("%s wrote no <svg> element", dot)
	}
	return svg[i:], nil
}

func groupOf(p *Prove, edge string) string {
	for _, e := range p.Edges {
		if e.Name == edge {
			return e.Group
		}
	}
	return edge
}

func statusOr(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// runDot runs dot -Tsvg on src.
func runDot(dot, src string) (string, error) {
	path, err := exec.LookPath(dot)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(path, "-Tsvg")
	cmd.Stdin = strings.NewReader(src)
	var out, errb strings.Builder
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("running %s -Tsvg: %v: %s", dot, err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}
