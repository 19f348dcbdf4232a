// Package teamestimate tests scripts/team-estimate.sh, the estimate of a
// hierarchy's proof time on a remote-execution system (docs/team.md), on a
// small report whose schedules are worked out by hand.
package teamestimate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type estimate struct {
	Field       string             `json:"field"`
	JobsPer     string             `json:"jobs_per"`
	K           int                `json:"k"`
	Obligations int                `json:"obligations"`
	Trivial     int                `json:"trivial"`
	Cached      int                `json:"cached"`
	Jobs        int                `json:"jobs"`
	CPU         float64            `json:"cpu_seconds"`
	Critical    float64            `json:"critical_path_seconds"`
	Makespan    map[string]float64 `json:"makespan_seconds"`
	LowerBound  map[string]float64 `json:"lower_bound_seconds"`
}

// run runs the script; it skips the test when bash, awk or sort is missing.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	for _, tool := range []string{"bash", "awk", "sort"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	cmd := exec.Command("bash", append([]string{filepath.Join("..", "team-estimate.sh")}, args...)...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func parse(t *testing.T, out string) estimate {
	t.Helper()
	var e estimate
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("output is not one line: %q", out)
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("output is not JSON: %v: %q", err, out)
	}
	return e
}

// The small report has jobs of 4, 3, 2 and 1 solver seconds (a trivial
// obligation aside), in groups A (4+3), B (2) and C (1); its strings hold
// escaped quotes and brackets, and its counterexample fields named like the
// obligation's, which must be ignored.
func TestSchedules(t *testing.T) {
	for _, c := range []struct {
		args     []string
		jobs     int
		cpu      float64
		critical float64
		makespan map[string]float64
	}{
		// 4 | 3 | 2 | 1 on one core each.
		{[]string{"-k", "1", "-c", "1", "-m", "1 2 3 4"}, 4, 10, 4, map[string]float64{"1": 10, "2": 5, "3": 4, "4": 4}},
		// 4,4,3,3,2,2,1,1 on three cores: 4+2+1, 4+2+1, 3+3.
		{[]string{"-k", "2", "-c", "1", "-m", "1 2 3"}, 8, 20, 4, map[string]float64{"1": 20, "2": 10, "3": 7}},
		// Groups of 7.5, 2.5 and 1.5 seconds with the overhead.
		{[]string{"-g", "-k", "1", "-c", "1", "-m", "1 2", "-o", "0.5"}, 3, 11.5, 7.5, map[string]float64{"1": 11.5, "2": 7.5}},
		// The whole time: 4.5, 3.5, 2.5, 1.5 on two cores.
		{[]string{"-f", "seconds", "-k", "1", "-c", "2", "-m", "1"}, 4, 12, 4.5, map[string]float64{"1": 6}},
	} {
		for _, file := range []string{"small.json", "compact"} {
			report := filepath.Join("testdata", "small.json")
			if file == "compact" {
				// The same report on one line, as another tool writes it.
				data, err := os.ReadFile(report)
				if err != nil {
					t.Fatal(err)
				}
				report = filepath.Join(t.TempDir(), "compact.json")
				if err := os.WriteFile(report, []byte(strings.ReplaceAll(string(data), "\n", " ")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, stderr, err := run(t, append(c.args, report)...)
			if err != nil {
				t.Fatalf("%v (%s): %v\n%s", c.args, file, err, stderr)
			}
			e := parse(t, out)
			if e.Obligations != 5 || e.Trivial != 1 || e.Cached != 0 || e.Jobs != c.jobs || e.CPU != c.cpu || e.Critical != c.critical {
				t.Errorf("%v (%s): %+v", c.args, file, e)
			}
			for m, want := range c.makespan {
				if e.Makespan[m] != want || e.LowerBound[m] > want {
					t.Errorf("%v (%s): makespan on %s machines %v (bound %v), want %v", c.args, file, m, e.Makespan[m], e.LowerBound[m], want)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := filepath.Join("testdata", "small.json")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{write("cached.json", `{"obligations":[{"verdict":"proved","solver_seconds":0,"cached":true}]}`)}, "every obligation was reused"},
		{[]string{write("none.json", `{"summary":{}}`)}, `no "obligations" list`},
		{[]string{write("trunc.json", `{"obligations":[{"solver_seconds":1`)}, "truncated JSON"},
		{[]string{write("nofield.json", `{"obligations":[{"seconds":1}]}`)}, `without "solver_seconds"`},
		{[]string{"-k", "0", small}, "-k must be a positive integer"},
		{[]string{"-m", "1 x", small}, "-m must list positive integers"},
		{[]string{"-o", "-1", small}, "-o must be a number"},
		{[]string{"-f", "rlimit_used", small}, "-f must be"},
		{[]string{filepath.Join(dir, "absent.json")}, "not a readable file"},
	} {
		out, stderr, err := run(t, c.args...)
		if err == nil || out != "" || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: %v, stdout %q, stderr %q; want an error saying %q", c.args, err, out, stderr, c.msg)
		}
	}
	// Some obligations reused: an estimate and a warning.
	p := write("some.json", `{"obligations":[{"verdict":"proved","solver_seconds":2,"cached":false},{"verdict":"proved","solver_seconds":0,"cached":true}]}`)
	out, stderr, err := run(t, "-k", "1", "-c", "1", "-m", "1", p)
	if err != nil || parse(t, out).Cached != 1 || !strings.Contains(stderr, "warning: 1 obligations") {
		t.Errorf("partly cached report: %v, %q, %q", err, out, stderr)
	}
}
