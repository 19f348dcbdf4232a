package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"ladder/internal/safeio"
)

// TestExploreMemoryBudget checks that explore stops at a small
// --max-memory budget and says so (INCOMPLETE, exit 1) rather than
// overshooting it, on each path of the search: in parallel with Flat (no
// dead-register reduction), in parallel with the Runner (the default
// reductions), and on one worker. TMS2 with 16 transactions has large
// states with about 20 successors each: a batch of the parallel search
// with Flat once held 90 MiB of successors, and the part's budget was
// looked at only every 64 successors of one state, so that it stopped at
// 170 MiB of a 64 MiB budget. The peak memory the explorer reports (its
// own accounting) and the peak resident set of the process must stay
// within a small factor of the budget.
func TestExploreMemoryBudget(t *testing.T) {
	dir := t.TempDir()
	tms2 := repoPath(t, "specs", "TMS2.yaml")
	const budget = 64 << 20
	incomplete := regexp.MustCompile(`INCOMPLETE: stopped at the memory limit 64 MiB \([^)]* in use[^)]*\) after \d+ states, depth \d+, [0-9.]+s, peak memory ([0-9.]+ [KMG]iB); no violation among the states found`)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"flat", []string{"--reduce-dead=false", "--workers", "2"}},
		{"parallel", []string{"--workers", "2"}},
		{"sequential", []string{"--workers", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"explore", tms2, "--bound", "T=16,L=3,V=2", "--max-memory", "64MiB"}, tc.args...)
			c := hostile(t, dir, time.Minute, args...)
			c.expect(t, exitFailure, incomplete.String())
			m := incomplete.FindStringSubmatch(c.stdout)
			if m == nil {
				return
			}
			peak, err := safeio.ParseBytes(strings.ReplaceAll(m[1], " ", ""))
			if err != nil {
				t.Fatal(err)
			}
			if peak > budget*3/2 {
				t.Errorf("peak memory %s, more than 1.5 times the budget of 64 MiB", m[1])
			}
			// the resident set holds the program and the runtime too
			if c.maxRSS > 2*budget {
				t.Errorf("peak resident set %s, more than twice the budget of 64 MiB", safeio.FormatBytes(c.maxRSS))
			}
			t.Logf("%s: peak memory %s, peak resident set %s, %v", strings.Join(tc.args, " "), m[1], safeio.FormatBytes(c.maxRSS), c.elapsed.Round(time.Millisecond))
		})
	}
}
