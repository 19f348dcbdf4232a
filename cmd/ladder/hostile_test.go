package main

// The hostile-input suite: generated malformed files, absurd flags, special
// files, exhausted resources and cache faults. Every case runs ladder in a
// child process (this test binary, re-executed) with a deadline and an
// address-space limit, so that a hang, a runtime crash or a runaway
// allocation fails the case instead of the test run or the machine. No case
// may print a Go stack trace or "internal error".

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ladder/internal/explore"
	"ladder/internal/sign"
	"ladder/internal/source"
)

// childEnv marks the re-executed test binary as ladder itself.
const childEnv = "LADDER_HOSTILE_CHILD"

// childAddressSpace is the address-space limit of a child: enough for any
// case, small enough that a runaway allocation fails fast.
const childAddressSpace = 6 << 30

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		lim := syscall.Rlimit{Cur: childAddressSpace, Max: childAddressSpace}
		syscall.Setrlimit(syscall.RLIMIT_AS, &lim)
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The signing key of the runs is a test's own, made before any runs
	// (so that no output says it was created), never the user's.
	dir, err := os.MkdirTemp("", "ladder-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Unsetenv(sign.KeyFileEnv)
	if _, err := sign.OpenSigner(sign.Config{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// child is the result of one run of ladder in a child process.
type child struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	maxRSS         int64 // the peak resident set, in bytes (0 when unknown)
}

// hostile runs ladder with args in dir, with the deadline d, and fails the
// test if it does not finish in time, crashes, or prints a stack trace or
// "internal error".
func hostile(t *testing.T, dir string, d time.Duration, args ...string) child {
	t.Helper()
	return hostileCmd(t, dir, d, nil, args...)
}

// hostileCmd is hostile with a function called once the child has started
// (to signal it).
func hostileCmd(t *testing.T, dir string, d time.Duration, started func(*os.Process), args ...string) child {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	bin := os.Args[0]
	if b := os.Getenv("LADDER_HOSTILE_BIN"); b != "" {
		bin = b // another ladder executable, e.g. an older one to compare with
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), childEnv+"=1", "LADDER_DEBUG=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if started != nil {
		started(cmd.Process)
	}
	// The peak resident set of the child's own image: VmHWM of
	// /proc/PID/status, sampled until it exits (the rusage of a child
	// counts the resident set of the test process it was forked from).
	hwm := make(chan int64, 1)
	done := make(chan struct{})
	go func() {
		var peak int64
		defer func() { hwm <- peak }()
		for {
			if v := vmHWM(cmd.Process.Pid); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	c := child{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start), maxRSS: <-hwm}
	if ctx.Err() != nil {
		t.Fatalf("ladder %s did not finish within %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), d, tail(c.stdout), tail(c.stderr))
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		c.code = ee.ExitCode()
	default:
		t.Fatalf("ladder %s: %v\nstderr:\n%s", strings.Join(args, " "), err, tail(c.stderr))
	}
	for _, bad := range []string{"goroutine ", "fatal error", "panic:", "internal error", "runtime error"} {
		if strings.Contains(c.stdout+c.stderr, bad) {
			t.Errorf("ladder %s printed %q:\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), bad, tail(c.stdout), tail(c.stderr))
		}
	}
	return c
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// expect checks the exit code and that the output matches the pattern.
func (c child) expect(t *testing.T, code int, pattern string) {
	t.Helper()
	if c.code != code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", c.code, code, tail(c.stdout), tail(c.stderr))
	}
	if pattern != "" && !regexp.MustCompile(pattern).MatchString(c.stdout+c.stderr) {
		t.Errorf("output does not match %q:\nstdout:\n%s\nstderr:\n%s", pattern, tail(c.stdout), tail(c.stderr))
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// repoPath returns the absolute path of a file of the repository.
func repoPath(t *testing.T, parts ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"..", ".."}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// An automaton with a parameter-sort constant, for bound checks.
const regYAML = `automaton: Reg
sorts: {V: param}
constants:
  v0: V
state:
  x: {sort: V, init: v0}
actions:
  Set:
    kind: internal
    params: {v: V}
    eff: x := v
invariants:
  ok: true
`

// Refutable obligations whose models once did not decode: a parameter sort
// that appears only as a map index (the model has no element of it), and a
// Nat variable with a negative initial value.
func TestHostileRefuteWithoutUniverse(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sortidx.yaml"), `automaton: SortIdx
sorts: {P: param}
state:
  n: {sort: Int, init: 0}
  m: {sort: "Map[P, Bool]", init: const(false)}
actions: {}
invariants:
  wrong: n = 1
`)
	write(t, filepath.Join(dir, "natneg.yaml"), `automaton: NatNeg
sorts: {P: param}
state:
  x: {sort: Nat, init: -1}
  m: {sort: "Map[P, Nat]", init: const(-1)}
actions: {}
invariants:
  wrong: x = 1
`)
	for _, f := range []string{"sortidx.yaml", "natneg.yaml"} {
		c := hostile(t, dir, 2*time.Minute, "prove", "-j", "1", "--cache-dir", filepath.Join(dir, "cache-"+f), f)
		c.expect(t, exitFailure, `(?s)counterexample to .* › invariant wrong › start.*0 proved, \d+ trivial, \d+ refuted, 0 unknown`)
		if strings.Contains(c.stdout, "[internal]") {
			t.Errorf("%s: an internal error instead of a refutation:\n%s", f, c.stdout)
		}
	}
}

// Bad --bound values are usage errors (exit 2) with the reason, found before
// anything is allocated.
func TestHostileBounds(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "reg.yaml"), regYAML)
	tms2 := repoPath(t, "specs", "TMS2.yaml")
	tests := []struct {
		name    string
		args    []string
		pattern string
	}{
		{"zero size", []string{"explore", "reg.yaml", "--bound", "V=0"}, `size of V must be at least 1, not 0`},
		{"negative size", []string{"explore", "reg.yaml", "--bound", "V=-1"}, `size of V must be at least 1, not -1`},
		{"unknown name", []string{"explore", "reg.yaml", "--bound", "V=2,Q=2"}, `bound Q names neither a parameter sort nor a constant of Reg`},
		{"element out of range", []string{"explore", "reg.yaml", "--bound", "V=2,v0=7"}, `bound v0=7: V has 2 elements .*so v0 must be less than 2`},
		{"negative element", []string{"run", "reg.yaml", "--bound", "V=2,v0=-1"}, `bound v0=-1: v0 is an element of V, numbered from 0`},
		{"missing size", []string{"explore", "reg.yaml"}, `no size for parameter sort V`},
		{"int32 size", []string{"explore", tms2, "--bound", "T=2147483647,L=1,V=1"}, `size of T is 2147483647, more than the 1048576 elements`},
		{"int64 size", []string{"explore", tms2, "--bound", "T=9223372036854775807,L=1,V=1"}, `size of T is 9223372036854775807, more than`},
		{"state too large", []string{"explore", tms2, "--bound", "T=1000000,L=4,V=2"}, `cannot be represented: a state of TMS2 holds more than 4194304 values`},
		{"crosscheck bound", []string{"crosscheck", "--implements", "TMS2", tms2, "--automaton", "TMS2", "--bound", "T=0"}, `size of T must be at least 1, not 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hostile(t, dir, time.Minute, tt.args...).expect(t, exitUsage, tt.pattern)
		})
	}
}

// Absurd --workers values are capped with a message.
func TestHostileWorkers(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "reg.yaml"), regYAML)
	c := hostile(t, dir, time.Minute, "explore", "reg.yaml", "--bound", "V=2", "--workers", "99999999999")
	c.expect(t, exitOK, `--workers 99999999999 is more than the \d+ CPU\(s\) of this machine; using \d+`)
	if !strings.Contains(c.stdout, "OK: all 1 invariant") {
		t.Errorf("explore with capped workers: %s", c.stdout)
	}
	chanDir := repoPath(t, "internal", "crosscheck", "testdata", "chan")
	c = hostile(t, dir, time.Minute, "crosscheck", filepath.Join(chanDir, "ok_refinement.yaml"), chanDir, "--bound", "V=2", "--workers", "99999999999")
	c.expect(t, exitOK, `--workers 99999999999 is more than`)
	c = hostile(t, dir, 2*time.Minute, "prove", "-j", "99999999999", "--cache-dir", filepath.Join(dir, "cache"), "reg.yaml")
	c.expect(t, exitOK, `-j 99999999999 is more than 4 workers per CPU`)
	hostile(t, dir, time.Minute, "run", "reg.yaml", "--bound", "V=2", "--steps", "99999999999").expect(t, exitUsage, `--steps 99999999999: at most 1048576`)
}

// Bounded searches stop at their memory budget or deadline as INCOMPLETE
// (exit 1), with the figures reached, instead of being killed.
func TestHostileResourceLimits(t *testing.T) {
	dir := t.TempDir()
	tms2 := repoPath(t, "specs", "TMS2.yaml")
	c := hostile(t, dir, 3*time.Minute, "explore", tms2, "--bound", "T=50,L=50,V=50", "--max-memory", "200MiB")
	c.expect(t, exitFailure, `INCOMPLETE: stopped at the memory limit 200 MiB \(.* in use.*\) after \d+ states, depth \d+, [0-9.]+s, peak memory`)
	c = hostile(t, dir, time.Minute, "explore", tms2, "--bound", "T=3,L=2,V=2", "--timeout", "1s", "--json")
	c.expect(t, exitFailure, `"limit": "time limit 1s"`)
	if !strings.Contains(c.stdout, `"exhausted": true`) {
		t.Errorf("JSON lacks exhausted: %s", tail(c.stdout))
	}
	norec := repoPath(t, "algorithms", "NOrec.yaml")
	if _, err := os.Stat(norec); err == nil {
		c = hostile(t, dir, 3*time.Minute, "crosscheck", "--implements", tms2, norec, "--bound", "T=3,L=2,V=2", "--max-memory", "48MiB")
		c.expect(t, exitFailure, `INCOMPLETE: stopped at the memory limit 48 MiB .* after \d+ pairs`)
	}
	c = hostile(t, dir, time.Minute, "explore", tms2, "--bound", "T=2,L=1,V=2", "--max-memory", "lots")
	c.expect(t, exitUsage, `--max-memory: "lots" is not a size`)
	if m := explore.DefaultMaxMemory(); m < 256<<20 {
		t.Errorf("default memory budget %d bytes", m)
	}
}

// Special files and unbounded streams among the inputs are errors that
// name the file and what it is, never hangs or crashes.
func TestHostileSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "in", "b.yaml"), regYAML)
	mkfifo(t, filepath.Join(dir, "in", "a.yaml"))
	hostile(t, dir, time.Minute, "check", "in").expect(t, exitFailure, `in/a.yaml: cannot read file: not a regular file: a named pipe \(FIFO\)`)
	hostile(t, dir, time.Minute, "prove", "-j", "1", "--cache-dir", "c", "in").expect(t, exitUsage, `in/a.yaml: cannot read file: not a regular file: a named pipe`)
	if _, err := os.Stat("/dev/zero"); err == nil {
		hostile(t, dir, time.Minute, "check", "/dev/zero").expect(t, exitFailure, `/dev/zero: cannot read file: not a regular file: a character device`)
		write(t, filepath.Join(dir, "zi.yaml"), "automaton: Z\ninterface: /dev/zero\nstate: {}\nactions: {}\n")
		hostile(t, dir, time.Minute, "check", "zi.yaml").expect(t, exitFailure, `zi.yaml:2:12: cannot read /dev/zero: not a regular file: a character device`)
	}
	// A file larger than the limit.
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(65<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	hostile(t, dir, time.Minute, "check", "big.yaml").expect(t, exitFailure, `big.yaml: cannot read file: file too large: 68157441 bytes, over the limit of 64 MiB`)
	// A report read with --from is an input like any other: a FIFO is
	// refused at once, and so is a file over the limit.
	mkfifo(t, filepath.Join(dir, "rep.json"))
	hostile(t, dir, time.Minute, "report", "--from", "rep.json").expect(t, exitUsage, `rep.json: not a regular file: a named pipe`)
	hostile(t, dir, time.Minute, "report", "--from", "big.yaml").expect(t, exitUsage, `big.yaml: file too large: 68157441 bytes, over the limit of 64 MiB`)
	// A named pipe among the dumps an audit reads is an error for that
	// file, not a hang.
	if err := os.MkdirAll(filepath.Join(dir, "dumps"), 0o755); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(dir, "dumps", "pipe.smt2"))
	hostile(t, dir, time.Minute, "audit", "--dumps", "dumps", "--solvers", "z3").expect(t, exitFailure, `dumps/pipe.smt2: .*not a regular file: a named pipe`)
}

// A broken file far below a checked directory is read and reported.
func TestHostileDeepDirectory(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "deep")
	for i := 0; i < 120; i++ {
		deep = filepath.Join(deep, "d")
	}
	write(t, filepath.Join(deep, "x.yaml"), "automaton: [\n")
	hostile(t, dir, time.Minute, "check", "deep").expect(t, exitFailure, `(d/){100,}x.yaml:2:1: malformed YAML`)
}

// File names and values with control characters are quoted.
func TestHostileControlCharacters(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "nl", "bad\nx.yaml:1:1: forged.yaml"), "automaton: A\nstate: {x: {sort: Int, init: zz}}\nactions: {}\n")
	c := hostile(t, dir, time.Minute, "check", "nl")
	c.expect(t, exitFailure, `"nl/bad\\nx.yaml:1:1: forged.yaml":2:30: undefined name "zz"`)
	for _, line := range strings.Split(c.stderr, "\n") {
		if strings.HasPrefix(line, "x.yaml") {
			t.Errorf("a file name forged a line: %q", line)
		}
	}
	write(t, filepath.Join(dir, "nul.yaml"), "automaton: \"A\\0B\"\nstate: {\"x\\0y\": {sort: Int, init: 0}}\nactions: {}\n")
	c = hostile(t, dir, time.Minute, "check", "nul.yaml")
	c.expect(t, exitFailure, `invalid automaton name "A\\x00B"`)
	if strings.ContainsRune(c.stdout+c.stderr, 0) {
		t.Errorf("a NUL byte printed raw: %q", c.stderr)
	}
}

// Loading is linear in the nodes on one line.
func TestHostileWideLine(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("automaton: Wide\nsorts:\n  E: {enum: [")
	for i := 0; i < 100000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "E%d", i)
	}
	b.WriteString("]}\nstate:\n  x: {sort: E, init: E0}\nactions: {}\n")
	write(t, filepath.Join(dir, "wide.yaml"), b.String())
	hostile(t, dir, 30*time.Second, "check", "wide.yaml").expect(t, exitOK, `checked 1 file: 1 automaton`)
}

// A cache snapshot that is a FIFO or an unbounded device gives one warning
// and is rebuilt; leftover temporary files of the cache and of the run
// memo are cleaned up.
func TestHostileCache(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "reg.yaml"), regYAML)
	for _, kind := range []string{"fifo", "devzero"} {
		t.Run(kind, func(t *testing.T) {
			cache := filepath.Join(dir, "cache-"+kind)
			if err := os.MkdirAll(cache, 0o755); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(cache, "cache.db")
			if kind == "fifo" {
				mkfifo(t, db)
			} else if err := os.Symlink("/dev/zero", db); err != nil {
				t.Skip(err)
			}
			c := hostile(t, dir, 2*time.Minute, "prove", "-j", "1", "--cache-dir", cache, "reg.yaml")
			c.expect(t, exitOK, `not a regular file`)
			if n := strings.Count(c.stderr, "warning"); n != 1 {
				t.Errorf("%d warnings, want 1:\n%s", n, c.stderr)
			}
			if fi, err := os.Lstat(db); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("cache.db not rebuilt as a regular file: %v, %v", fi, err)
			}
		})
	}
	cache := filepath.Join(dir, "cache-temps")
	hostile(t, dir, 2*time.Minute, "prove", "-j", "1", "--cache-dir", cache, "reg.yaml").expect(t, exitOK, "")
	// what a kill -9 at the rename leaves: a temporary snapshot, and a
	// temporary unit record of a process that is gone
	dead := deadPID(t)
	temps := []string{
		filepath.Join(cache, "cache.db.tmp-123456"),
		filepath.Join(cache, "units", "0123abcd.unit.tmp-"+strconv.Itoa(dead)+"-42"),
	}
	for _, p := range temps {
		write(t, p, "partial")
	}
	write(t, filepath.Join(dir, "reg.yaml"), strings.Replace(regYAML, "ok: true", "ok: x = x", 1))
	hostile(t, dir, 2*time.Minute, "prove", "-j", "1", "--cache-dir", cache, "reg.yaml").expect(t, exitOK, "")
	for _, p := range temps {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("stale temporary file %s not removed", p)
		}
	}
}

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return cmd.ProcessState.Pid()
}

// prove on SIGINT saves the verdicts decided so far, and says so.
func TestHostileInterruptedProve(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	specs := repoPath(t, "specs")
	c := hostileCmd(t, dir, 3*time.Minute, func(p *os.Process) {
		time.AfterFunc(8*time.Second, func() { p.Signal(os.Interrupt) })
	}, "prove", "-j", "1", "--cache-dir", cache, specs)
	if c.code == exitOK {
		t.Skip("the proof finished before the interrupt")
	}
	c.expect(t, exitFailure, `ladder prove: interrupted: \d+ of \d+ obligations decided`)
	m := regexp.MustCompile(`interrupted: (\d+) of`).FindStringSubmatch(c.stderr)
	if m != nil && m[1] != "0" {
		if !strings.Contains(c.stderr, "saved in the cache") {
			t.Errorf("verdicts not saved: %s", c.stderr)
		}
		if _, err := os.Stat(filepath.Join(cache, "cache.db")); err != nil {
			t.Errorf("no cache after the interrupt: %v", err)
		}
	}
}

// An internal error of a search exits with 3, as documented.
func TestSearchErrorCodes(t *testing.T) {
	var out, errOut bytes.Buffer
	e := &env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	if code := e.searchError("explore", "A", &source.Error{Code: source.ErrInternal, Msg: "evaluator: malformed value"}); code != exitInternal {
		t.Errorf("internal error: exit %d, want %d", code, exitInternal)
	}
	if code := e.searchError("explore", "A", &explore.BoundError{Msg: "size of T must be at least 1, not 0"}); code != exitUsage {
		t.Errorf("bound error: exit %d, want %d", code, exitUsage)
	}
	if code := e.searchError("explore", "A", errors.New("map key sort Int is not finite")); code != exitFailure {
		t.Errorf("other error: exit %d, want %d", code, exitFailure)
	}
}

// vmHWM returns the peak resident set of process pid in bytes, from
// /proc/PID/status (Linux), or 0 when it cannot be read.
func vmHWM(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// watch interrupted during a proof says how far it got and exits 1, as
// docs/cli.md promises, rather than 0 with nothing printed.
func TestHostileInterruptedWatch(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	// specs/ and algorithms/ together take far longer than 5 s cold.
	specs, algorithms := repoPath(t, "specs"), repoPath(t, "algorithms")
	c := hostileCmd(t, dir, 3*time.Minute, func(p *os.Process) {
		time.AfterFunc(5*time.Second, func() { p.Signal(os.Interrupt) })
	}, "watch", "-j", "1", "--cache-dir", cache, specs, algorithms)
	c.expect(t, exitFailure, `ladder watch: interrupted: \d+ of \d+ obligations decided`)
}
