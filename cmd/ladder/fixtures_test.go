package main

import (
	"regexp"
	"testing"
)

// expectRefuted runs ladder with args and expects exit code 1 and stdout matching re.
func expectRefuted(t *testing.T, args []string, re string) {
	t.Helper()
	expectExit(t, exitFailure, args, re)
}

// expectExit runs ladder with args and expects exit code want and stdout
// matching re.
func expectExit(t *testing.T, want int, args []string, re string) {
	t.Helper()
	code, stdout, stderr := runLadder(args...)
	if code != want {
		t.Errorf("ladder %v: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, want, stdout, stderr)
	}
	if !regexp.MustCompile(re).MatchString(stdout) {
		t.Errorf("ladder %v: stdout does not match %s:\n%s", args, re, stdout)
	}
}
