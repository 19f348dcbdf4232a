// This file holds the HTML report's page template and style (html.go
// computes what it shows). Everything from the report is escaped by
// html/template; the one exception is the hierarchy's SVG, which dot wrote.

package report

import (
	"html/template"
	"strings"
)

var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"status": func(s string) string { return "s-" + strings.ReplaceAll(statusOr(s, "none"), " ", "-") },
	"label":  func(s string) string { return statusOr(s, "no invariants") },
}).Parse(htmlSource))

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
:root { --ok: #1b7a2e; --bad: #c62828; --unk: #d97706; --nc: #6b7280; --line: #d9dde3; --soft: #f5f6f8; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; margin: 0; }
header { padding: 16px 28px; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { margin: 0 0 4px; font-size: 20px; }
nav { margin-top: 8px; }
nav a { margin-right: 14px; }
main { padding: 8px 28px 40px; max-width: 1400px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
a { color: #0b5cad; text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); padding: 8px 10px; border-radius: 4px; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; color: #fff; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.s-proved { background: var(--ok); } .badge.s-refuted { background: var(--bad); }
.badge.s-unknown { background: var(--unk); } .badge.s-not-checked, .badge.s-none { background: var(--nc); }
.verdict.s-proved, .verdict.s-trivial { color: var(--ok); } .verdict.s-refuted { color: var(--bad); font-weight: 700; }
.verdict.s-unknown { color: var(--unk); font-weight: 700; }
tr.failing td { background: #fdecea; }
tr.failing.v-unknown td { background: #fff4e0; }
tr.failing td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.failing.v-unknown td:first-child { box-shadow: inset 4px 0 0 var(--unk); }
td.changed { background: #fff3b0; font-weight: 600; }
td.ingoal { outline: 2px solid var(--bad); outline-offset: -2px; }
td.same { color: #8a9099; }
.summary.ok { color: var(--ok); font-weight: 600; } .summary.fail { color: var(--bad); font-weight: 600; }
.graph { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
.graph svg { max-width: 100%; height: auto; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; margin: 12px 0; }
.card.s-refuted { border-left: 5px solid var(--bad); } .card.s-unknown { border-left: 5px solid var(--unk); }
.card.s-proved { border-left: 5px solid var(--ok); } .card.s-not-checked { border-left: 5px solid var(--nc); }
.meta { color: #57606a; }
details > summary { cursor: pointer; margin: 4px 0; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
dl.kv dt { color: #57606a; } dl.kv dd { margin: 0; }
.legend span { margin-right: 12px; }
:target { scroll-margin-top: 12px; }
.card:target, tr:target td { box-shadow: 0 0 0 3px #0b5cad55; }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
<div class="summary {{if .OK}}ok{{else}}fail{{end}}">
{{- .Summary.Obligations}} obligations: {{.Summary.Proved}} proved, {{.Summary.Trivial}} trivial, {{.Summary.Refuted}} refuted, {{.Summary.Unknown}} unknown; reused {{.Summary.Reused}}, re-checked {{.Summary.Rechecked}}
{{- if not .NoTimes}}; {{printf "%.2f" .Summary.Seconds}} s{{end}}</div>
{{- if .NotChkd}}<div class="meta">{{.NotChkd}} edges and invariants not checked: some of their obligations or assumptions were not selected or not decided.</div>{{end}}
<div class="meta">{{.Solver.Name}} {{.Solver.Version}}{{if .Solver.Cache}} · cache {{.Solver.Cache}}{{end}}</div>
<nav><a href="#hierarchy">Hierarchy</a>{{if .Failures}}<a href="#failures">Failures ({{len .Failures}})</a>{{end}}<a href="#edges">Edges ({{len .Edges}})</a><a href="#automata">Automata ({{len .Automata}})</a><a href="#theorems">Theorems ({{len .Theorems}})</a>{{if .Errors}}<a href="#errors">Errors ({{len .Errors}})</a>{{end}}</nav>
</header>
<main>
<h2 id="hierarchy">Hierarchy</h2>
<div class="legend meta"><span class="verdict s-proved">■ proved</span><span class="verdict s-refuted">■ refuted</span><span class="verdict s-unknown">■ unknown</span><span class="meta">■ not checked</span> — an automaton is coloured by its invariants, an edge by its obligations and the invariants it assumes; click one to go to it.</div>
{{if .Graph}}<div class="graph">{{.Graph}}</div>
{{else}}{{if .GraphNote}}<p class="meta">{{.GraphNote}}</p>{{end}}
<ul class="hierarchy">
{{range .Automata}}<li class="node"><a href="#{{.Anchor}}">{{.Name}}</a> <span class="badge {{status .Status}}">{{label .Status}}</span>
{{if .Out}}<ul>{{range .Out}}<li class="edge">→ <a href="#{{.AbsAnchor}}">{{.Abstract}}</a> by <a href="#{{.Anchor}}">{{.Name}}</a> ({{.Kind}}) <span class="badge {{status .Status}}">{{.Status}}</span></li>{{end}}</ul>{{end}}</li>
{{end}}</ul>
{{end}}
{{- if .Failures}}
<h2 id="failures">Failures</h2>
{{range .Failures}}<div class="card {{status .Verdict}}" id="{{.Anchor}}">
<h3><a href="#{{.RowAnchor}}">{{.ID}}</a> <span class="badge {{status .Verdict}}">{{.Verdict}}</span></h3>
<dl class="kv">
<dt>in</dt><dd><a href="#{{.GroupAnchor}}">{{.Group}}</a></dd>
{{if .Pos.Text}}<dt>source</dt><dd><a class="mono" href="{{.Pos.Href}}">{{.Pos.Text}}</a></dd>{{end}}
{{if .Goal}}<dt>fails</dt><dd class="mono">{{.Goal}}</dd>{{end}}
{{if .Step}}<dt>step</dt><dd class="mono">{{.Step}}</dd>{{end}}
{{range .Abstract}}<dt>abstract step</dt><dd class="mono">{{.}}</dd>{{end}}
{{if .Constants}}<dt>constants</dt><dd class="mono">{{range $i, $c := .Constants}}{{if $i}}, {{end}}{{$c}}{{end}}</dd>{{end}}
{{if .Instance}}<dt>instance</dt><dd class="mono">{{.Instance}}</dd>{{end}}
{{if .Bounded}}<dt>found in</dt><dd>the bounded instance <span class="mono">{{.Bounded}}</span>{{if .Minimized}} (minimized: the solver's first counterexample had {{.Minimized}}){{end}}</dd>{{end}}
{{if .Reason}}<dt>reason</dt><dd><pre>{{.Reason}}</pre></dd>{{end}}
{{if .Dump.Text}}<dt>query</dt><dd><a class="mono" href="{{.Dump.Href}}">{{.Dump.Text}}</a></dd>{{end}}
</dl>
{{range .Tables}}<table class="state">
<caption class="meta">{{.Automaton}}</caption>
<tr><th>field</th><th>{{.Pre}} (before)</th>{{if .Post}}<th>{{.Post}} (after)</th>{{end}}</tr>
{{if .Raw}}<tr><td colspan="3"><pre>{{.Raw}}</pre></td></tr>{{end}}
{{- $post := .Post}}{{range .Rows}}<tr{{if .Changed}} class="changed"{{end}}><td class="mono{{if .InGoal}} ingoal{{end}}">{{.Field}}</td><td class="mono">{{.Pre}}</td>{{if $post}}<td class="mono{{if .Changed}} changed{{else}} same{{end}}">{{.Post}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{if .Tables}}<div class="meta">Highlighted: the entries the step changed; outlined: the names the failed goal mentions.</div>{{end}}
{{if .Text}}<details><summary>as printed</summary><pre>{{.Text}}</pre></details>{{end}}
</div>
{{end}}{{end}}
<h2 id="edges">Edges</h2>
{{if not .Edges}}<p class="meta">No edges.</p>{{end}}
{{range .Edges}}<div class="card {{status .Status}}" id="{{.Anchor}}">
<h3>{{.Name}} <span class="badge {{status .Status}}">{{.Status}}</span></h3>
<div><a href="#{{.ConcreteAnchor}}">{{.Concrete}}</a> → <a href="#{{.AbsAnchor}}">{{.Abstract}}</a> by {{.Kind}} · {{.Counts}}</div>
{{if .ViaAssumption}}<div class="meta">Its obligations are proved, but {{.ViaAssumption}}.</div>{{end}}
{{if .Assumes}}<div class="meta">assumes {{range $i, $a := .Assumes}}{{if $i}}, {{end}}{{if $a.Href}}<a href="{{$a.Href}}">{{$a.Text}}</a>{{else}}{{$a.Text}}{{end}}{{end}}</div>{{end}}
{{template "rows" .}}
</div>
{{end}}
<h2 id="automata">Automata</h2>
{{range .Automata}}<div class="card {{status .Status}}" id="{{.Anchor}}">
<h3>{{.Name}} <span class="badge {{status .Status}}">{{label .Status}}</span></h3>
{{if .Out}}<div>implements: {{range $i, $e := .Out}}{{if $i}}, {{end}}<a href="#{{$e.AbsAnchor}}">{{$e.Abstract}}</a> (<a href="#{{$e.Anchor}}">{{$e.Name}}</a>, {{$e.Status}}){{end}}</div>{{end}}
{{if .In}}<div>implemented by: {{range $i, $e := .In}}{{if $i}}, {{end}}<a href="#{{$e.ConcreteAnchor}}">{{$e.Concrete}}</a> (<a href="#{{$e.Anchor}}">{{$e.Name}}</a>, {{$e.Status}}){{end}}</div>{{end}}
{{range .Invariants}}<div id="{{.Anchor}}">
<h3>invariant {{.Name}} <span class="badge {{status .Status}}">{{.Status}}</span> <span class="meta">{{.Counts}}</span></h3>
{{if .ViaAssumption}}<div class="meta">Its obligations are proved, but {{.ViaAssumption}}.</div>{{end}}
{{template "rows" .}}
</div>
{{end}}</div>
{{end}}
<h2 id="theorems">Theorems</h2>
{{if .Theorems}}<table class="theorems">
<tr><th>theorem</th><th>rule</th><th>derived from</th></tr>
{{range .Theorems}}<tr id="{{.Anchor}}"><td>{{.Statement}}</td><td class="mono">{{.Rule}}</td><td>{{range $i, $f := .From}}{{if $i}}, {{end}}{{if $f.Href}}<a href="{{$f.Href}}">{{$f.Text}}</a>{{else}}{{$f.Text}}{{end}}{{end}}</td></tr>
{{end}}</table>
{{else}}<p class="meta">No theorem is derived: the metatheorems apply to proved edges and invariants only.</p>{{end}}
{{if .Errors}}<h2 id="errors">Errors</h2>
<ul>{{range .Errors}}<li class="mono">{{.}}</li>{{end}}</ul>{{end}}
{{if .Warnings}}<h2 id="warnings">Warnings</h2>
<ul>{{range .Warnings}}<li class="mono">{{.}}</li>{{end}}</ul>{{end}}
</main>
</body>
</html>
{{define "rows"}}{{if .Rows}}<details{{if .Open}} open{{end}}><summary>{{len .Rows}} obligations</summary>
<table class="obligations">
<tr><th>action</th><th>clause</th><th>verdict</th><th>time</th><th>result</th><th>source</th></tr>
{{range .Rows}}<tr id="{{.Anchor}}" class="v-{{.Verdict}}{{if .Failing}} failing{{end}}" title="{{.ID}}"><td class="mono">{{.Action}}</td><td class="mono">{{.Clause}}</td><td class="verdict {{status .Verdict}}">{{if .Detail}}<a href="#{{.Detail}}">{{.Verdict}}</a>{{else}}{{.Verdict}}{{end}}</td><td>{{.Time}}</td><td>{{if .Cached}}cached{{else}}fresh{{end}}</td><td>{{if .Pos.Text}}<a class="mono" href="{{.Pos.Href}}">{{.Pos.Text}}</a>{{end}}</td></tr>
{{end}}</table></details>{{end}}{{end}}
`
