package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ladder/internal/report"
)

// TestReportHTML renders the HTML report of a proved example
// (docs/examples/mutex, through prove --html) and of a refuted fixture
// (NOrecCommitNoCheck, through prove --json and report --from), checks the
// pages, and then, when Debian's chromium is installed, loads each in
// headless Chromium and checks what a reader sees: the page loads, the
// drawing has one node per automaton, and the refuted clause's row is
// highlighted.
func TestReportHTML(t *testing.T) {
	const td = "../../algorithms/testdata/"
	tests := []struct {
		name    string
		prove   []string // a prove command printing JSON
		failing []string // IDs of the rows that must be highlighted
	}{
		{"mutex", []string{"prove", "--no-cache", "-j", "1", "--json", "../../docs/examples/mutex"}, nil},
		{"refuted", []string{"prove", "--no-cache", "-j", "1", "--json", "--only", `NOrecCommitNoCheck→TMS2 › forward › Commit › case 2`,
			td + "NOrecCommitNoCheck.yaml", td + "NOrecCommitNoCheck-TMS2.yaml", "../../specs"},
			[]string{"NOrecCommitNoCheck→TMS2 › forward › Commit › case 2 › pre(DoCommitWriter)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			_, stdout, stderr := runLadder(tc.prove...)
			var rep report.Prove
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("prove --json: %v\nstderr:\n%s", err, stderr)
			}
			jsonPath := filepath.Join(tmp, "report.json")
			if err := os.WriteFile(jsonPath, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			// the same report through both entry points
			out := filepath.Join(tmp, "html")
			if code, so, se := runLadder("report", "--html", out, "--from", jsonPath); code != exitOK {
				t.Fatalf("report --html: exit %d\n%s%s", code, so, se)
			}
			page := readFile(t, filepath.Join(out, "index.html"))
			if tc.name == "mutex" {
				out2 := filepath.Join(tmp, "html2")
				code, _, se := runLadder(append([]string{"prove", "--no-cache", "-j", "1", "--html", out2}, tc.prove[len(tc.prove)-1])...)
				if code != exitOK {
					t.Fatalf("prove --html: exit %d\n%s", code, se)
				}
				want := fmt.Sprintf("%d obligations: %d proved, %d trivial, 0 refuted, 0 unknown", rep.Summary.Obligations, rep.Summary.Proved, rep.Summary.Trivial)
				if p2 := readFile(t, filepath.Join(out2, "index.html")); !rep.OK() || !strings.Contains(p2, want) {
					t.Errorf("prove --html: the page lacks %q", want)
				}
			}
			automata := reportAutomata(&rep)
			checkReportPage(t, page, out, automata, tc.failing, rep.Summary.Proved)
			checkReportInBrowser(t, filepath.Join(out, "index.html"), len(automata), tc.failing)
		})
	}
}

// reportAutomata lists the automata a report names.
func reportAutomata(rep *report.Prove) map[string]bool {
	m := map[string]bool{}
	for _, inv := range rep.Invariants {
		m[inv.Automaton] = true
	}
	for _, e := range rep.Edges {
		m[e.Concrete], m[e.Abstract] = true, true
	}
	return m
}

// checkReportPage checks the generated HTML as text.
func checkReportPage(t *testing.T, page, dir string, automata map[string]bool, failing []string, proved int) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.HasSuffix(strings.TrimSpace(page), "</html>") {
		t.Errorf("not a whole HTML page")
	}
	if regexp.MustCompile(`(?i)<script|<link |src="http|href="http`).MatchString(page) {
		t.Errorf("the page loads scripts or network resources")
	}
	i, j := strings.Index(page, "<svg"), strings.Index(page, "</svg>")
	if _, err := exec.LookPath("dot"); err == nil {
		if i < 0 || j < i {
			t.Fatalf("no inline SVG although dot is installed")
		}
		svg := page[i:j]
		if n := strings.Count(svg, `class="node"`); n != len(automata) {
			t.Errorf("the SVG has %d nodes, want %d (one per automaton)", n, len(automata))
		}
		for a := range automata {
			if !strings.Contains(svg, "<title>"+a+"</title>") {
				t.Errorf("no node for %s in the SVG", a)
			}
		}
	} else if n := strings.Count(page, `<li class="node">`); n != len(automata) {
		t.Errorf("without dot, the list has %d automata, want %d", n, len(automata))
	}
	rows := regexp.MustCompile(`<tr id="[^"]+" class="([^"]*)" title="([^"]*)">`).FindAllStringSubmatch(page, -1)
	var got []string
	nproved := 0
	for _, r := range rows {
		if strings.Contains(r[1], "failing") {
			got = append(got, htmlUnescape(r[2]))
		}
		if r[1] == "v-proved" {
			nproved++
		}
	}
	if strings.Join(got, "\n") != strings.Join(failing, "\n") {
		t.Errorf("highlighted rows %q, want %q", got, failing)
	}
	if nproved != proved {
		t.Errorf("%d proved rows, want %d", nproved, proved)
	}
	// every YAML position links to the file, relative to the page
	links := regexp.MustCompile(`<a class="mono" href="([^"]+)">[^<]*\.yaml:\d+:\d+</a>`).FindAllStringSubmatch(page, -1)
	if len(links) == 0 {
		t.Errorf("no link to a YAML position")
	}
	for _, l := range links {
		p, err := url.PathUnescape(l[1])
		if err != nil || filepath.IsAbs(p) {
			t.Errorf("link %q is not a relative path", l[1])
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("link %q: %v", l[1], err)
		}
	}
	if len(failing) > 0 && !strings.Contains(page, `<tr class="changed">`) {
		t.Errorf("the counterexample highlights no changed entry")
	}
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// chromiumArgs are the flags of a headless Chromium that touches nothing
// outside its temporary profile and nothing on the network.
func chromiumArgs(profile string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profile, "--window-size=1280,1600"}
}

// checkReportInBrowser loads the page in headless Chromium. The page
// itself has no script; the test loads a copy with one appended that
// writes what the browser computed into the DOM: the number of SVG nodes
// drawn and, for each highlighted row, its background colour.
func checkReportInBrowser(t *testing.T, page string, nodes int, failing []string) {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (make deps installs it): the page was checked as text only")
	}
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := `<script>
var out = document.createElement("pre"); out.id = "probe";
var rows = document.querySelectorAll("tr.failing td:first-child"), bg = [];
for (var i = 0; i < rows.length; i++) bg.push(getComputedStyle(rows[i]).backgroundColor);
var ok = document.querySelectorAll("tr.v-proved td:first-child"), okbg = ok.length ? getComputedStyle(ok[0]).backgroundColor : "none";
out.textContent = JSON.stringify({nodes: document.querySelectorAll("svg g.node").length, failing: rows.length, bg: bg, okbg: okbg});
document.body.appendChild(out);
</script>`
	probed := filepath.Join(filepath.Dir(page), "probe.html")
	if err := os.WriteFile(probed, []byte(strings.Replace(string(src), "</body>", probe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, append(chromiumArgs(t.TempDir()), "--dump-dom", "file://"+probed)...)
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	m := regexp.MustCompile(`<pre id="probe">([^<]*)</pre>`).FindStringSubmatch(string(dom))
	if m == nil {
		t.Fatalf("the page did not load in chromium (no probe in the DOM):\n%.2000s", dom)
	}
	var seen struct {
		Nodes, Failing int
		Bg             []string
		OKBg           string `json:"okbg"`
	}
	if err := json.Unmarshal([]byte(htmlUnescape(m[1])), &seen); err != nil {
		t.Fatalf("probe %q: %v", m[1], err)
	}
	if _, err := exec.LookPath("dot"); err == nil && seen.Nodes != nodes {
		t.Errorf("chromium shows %d SVG nodes, want %d", seen.Nodes, nodes)
	}
	if seen.Failing != len(failing) {
		t.Errorf("chromium shows %d highlighted rows, want %d", seen.Failing, len(failing))
	}
	for _, bg := range seen.Bg {
		if bg == seen.OKBg || bg == "rgba(0, 0, 0, 0)" {
			t.Errorf("a failing row is not highlighted: background %s (a proved row: %s)", bg, seen.OKBg)
		}
	}
	t.Logf("chromium: %s", m[1])
	shot := filepath.Join(t.TempDir(), "report.png")
	cmd = exec.CommandContext(ctx, chromium, append(chromiumArgs(t.TempDir()), "--screenshot="+shot, "file://"+page)...)
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium --screenshot: %v", err)
	}
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 10000 {
		t.Errorf("chromium's screenshot is missing or blank: %v", err)
	}
}

// TestReportFromCache checks that report PATHS reads the verdicts of the
// last prove run from the cache (without the solver) and renders the same
// statuses, and the command's usage errors.
func TestReportFromCache(t *testing.T) {
	const ex = "../../docs/examples/mutex"
	cache := filepath.Join(t.TempDir(), "cache")
	code, stdout, stderr := runLadder("prove", "-j", "1", "--cache-dir", cache, "--json", ex)
	var rep report.Prove
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitOK {
		t.Fatalf("prove: exit %d, %v\n%s", code, err, stderr)
	}
	out := filepath.Join(t.TempDir(), "html")
	if code, so, se := runLadder("report", "--cache-dir", cache, "--html", out, ex); code != exitOK || !strings.Contains(so, "index.html") {
		t.Fatalf("report: exit %d\n%s%s", code, so, se)
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	want := fmt.Sprintf("%d obligations: %d proved, %d trivial, 0 refuted, 0 unknown; reused %d, re-checked 0", rep.Summary.Obligations, rep.Summary.Proved, rep.Summary.Trivial, rep.Summary.Proved)
	if !strings.Contains(page, want) {
		t.Errorf("the page from the cache lacks %q", want)
	}
	for _, e := range rep.Edges {
		if !regexp.MustCompile(regexp.QuoteMeta(e.Name) + ` <span class="badge s-proved">proved</span>`).MatchString(page) {
			t.Errorf("edge %s is not shown proved", e.Name)
		}
	}
	// without --html: the text report
	if code, so, _ := runLadder("report", "--cache-dir", cache, ex); code != exitOK || !strings.Contains(so, want) {
		t.Errorf("report (text): exit %d\n%s", code, so)
	}
	for _, args := range [][]string{
		{"report", "--from", filepath.Join(t.TempDir(), "nope.json"), "--html", out},
		{"report", "--from", "x.json", ex},
		{"report", "--no-cache", ex},
	} {
		if code, _, _ := runLadder(args...); code != exitUsage && code != exitFailure {
			t.Errorf("%q: exit %d, want an error", args, code)
		}
	}
}
