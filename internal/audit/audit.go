// Package audit owns the re-checking of proved obligations by solvers
// other than the linked one: it runs each obligation's standalone SMT-LIB2
// file (the text the kernel checked, as `ladder prove --dump-smt` writes
// it) through the z3 command line and cvc5, and classifies their answers
// against the kernel's. An audit never changes a verdict: it is a second
// opinion, and a disagreement is a finding for people to look into (a bug
// in the linked solver, in the binding, or in the text the kernel hashes).
//
// Both solvers read each dump's text unchanged: it is portable SMT-LIB 2.6
// (package logic names every constant array over a non-value, which cvc5
// does not accept), and its Z3 options are ones cvc5 ignores. cvc5 gets the
// dump without the (push 1) that selects Z3's plain solver
// (kernel.Query.ScriptFor): a push needs cvc5's incremental mode, which
// aborts on some of the repository's problems.
package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"ladder/internal/safeio"
)

// Answer is one solver's answer on one obligation.
type Answer string

// The answers. Only Unsat agrees with a proof; Sat disagrees; the others
// neither agree nor disagree.
const (
	Unsat   Answer = "unsat"
	Sat     Answer = "sat"
	Unknown Answer = "unknown"
	Timeout Answer = "timeout"
	Error   Answer = "error" // the solver rejected the file or failed
)

// Solver is an external solver command.
type Solver struct {
	// Name is "z3" or "cvc5".
	Name string
	// Path is the executable (default: Name, looked up in $PATH).
	Path string
}

// Config configures an audit.
type Config struct {
	// Timeout is the wall-clock limit of one solver run (default 20 s).
	Timeout time.Duration
}

// Result is one solver's run on one obligation.
type Result struct {
	Solver  string  `json:"solver"`
	Answer  Answer  `json:"answer"`
	Seconds float64 `json:"seconds"`
	// Detail is the solver's message when Answer is Error.
	Detail string `json:"detail,omitempty"`
}

// Supported names the solvers Run knows.
var Supported = []string{"z3", "cvc5"}

// Check runs solver s on script (an obligation's dump, expected unsat) and
// classifies the answer.
func Check(ctx context.Context, cfg Config, s Solver, script []byte) Result {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	path := s.Path
	if path == "" {
		path = s.Name
	}
	var args []string
	switch s.Name {
	case "z3":
		// -in: the script on stdin; -T: z3's own wall-clock limit, a
		// little under ours so that it answers "timeout" itself.
		args = []string{"-in", fmt.Sprintf("-T:%d", int(timeout.Seconds())+1)}
	case "cvc5":
		// The (push 1) of a dump the plain solver proved selects a Z3
		// solver; it means nothing to cvc5, whose incremental mode (which
		// a push needs) aborts on some problems (cvc5 1.0.3).
		script = bytes.ReplaceAll(script, []byte("\n(push 1)\n"), []byte("\n"))
		args = []string{"--lang=smt2", fmt.Sprintf("--tlimit=%d", timeout.Milliseconds())}
	default:
		return Result{Solver: s.Name, Answer: Error, Detail: fmt.Sprintf("unknown solver %q (known: %s)", s.Name, strings.Join(Supported, ", "))}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Solver: s.Name, Seconds: time.Since(start).Seconds()}
	r.Answer, r.Detail = classify(out.String(), errb.String())
	switch {
	case ctx.Err() != nil:
		r.Answer, r.Detail = Timeout, ""
	case r.Answer == Error && err != nil:
		var ee *exec.Error
		if errors.As(err, &ee) {
			r.Detail = fmt.Sprintf("%s: %v", path, ee.Err)
		} else if r.Detail == "" {
			r.Detail = err.Error()
		}
	}
	return r
}

// classify reads a solver's output: the last line that is an answer
// decides; a timeout reported by the solver is Timeout; anything else
// with an (error …) is Error.
func classify(stdout, stderr string) (Answer, string) {
	var ans Answer
	var detail string
	for _, line := range strings.Split(stdout, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "unsat", line == "sat", line == "unknown":
			ans = Answer(line)
		case line == "timeout":
			ans = Timeout
		case strings.HasPrefix(line, "(error"):
			detail = line
		}
	}
	if ans == "" || (detail != "" && ans != Unsat && ans != Sat) {
		all := stderr + "\n" + stdout
		if strings.Contains(all, "interrupted by timeout") || strings.Contains(detail, "timeout") || strings.Contains(detail, "time limit") {
			return Timeout, ""
		}
		if detail == "" {
			detail = strings.TrimSpace(firstLine(all))
		}
		return Error, detail
	}
	return ans, ""
}

// firstLine returns the first line of s that is not blank nor one of
// cvc5's warnings about a missing set-logic, which every dump draws.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !strings.Contains(l, "set-logic") && !strings.Contains(l, "theories available") {
			return l
		}
	}
	return ""
}

// Verdict sums up one obligation's results.
type Verdict string

// The verdicts of an obligation: every solver said unsat; some solver
// said sat (a disagreement with the proof); or no solver said sat but not
// all said unsat (timeouts, unknowns, errors).
const (
	Agree      Verdict = "agree"
	Disagree   Verdict = "disagree"
	Incomplete Verdict = "incomplete"
)

// Sum returns the verdict of rs.
func Sum(rs []Result) Verdict {
	v := Agree
	for _, r := range rs {
		switch r.Answer {
		case Sat:
			return Disagree
		case Unsat:
		default:
			v = Incomplete
		}
	}
	return v
}

// Available reports whether s's executable can be found.
func (s Solver) Available() error {
	path := s.Path
	if path == "" {
		path = s.Name
	}
	if _, err := exec.LookPath(path); err != nil {
		return fmt.Errorf("%s is not installed (Debian: apt-get install %s)", s.Name, s.Name)
	}
	return nil
}

// ReadDump reads an obligation's dump and returns its ID (from the
// "; ladder obligation: " header) and text.
func ReadDump(path string) (id string, text []byte, err error) {
	// A named pipe or a device among the dumps is refused, not read
	// forever; a dump is no larger than an input file.
	text, err = safeio.ReadFile(path, safeio.MaxInputSize)
	if err != nil {
		return "", nil, err
	}
	const h = "; ladder obligation: "
	first, _, _ := strings.Cut(string(text), "\n")
	if !strings.HasPrefix(first, h) {
		return "", nil, fmt.Errorf("%s: not a ladder obligation dump (no %q line first)", path, strings.TrimSpace(h))
	}
	return strings.TrimPrefix(first, h), text, nil
}
