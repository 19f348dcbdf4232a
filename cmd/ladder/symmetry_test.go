package main

import (
	"regexp"
	"testing"
)

func TestExploreSymmetry(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout string // a regexp
		stderr string // a regexp
	}{
		{"refused", []string{"explore", "testdata/symmetry/leader.yaml", "--bound", "T=3", "--symmetry", "T"}, exitUsage, `^$`,
			`^testdata/symmetry/leader\.yaml:13:14: --symmetry T: the constant leader is an element of T, used outside the initial state; a symmetric sort's elements may be named only in the initial state \(init:, initially:\)\n$`},
		{"unknown sort", []string{"explore", "testdata/symmetry/lock.yaml", "--bound", "T=3", "--symmetry", "T,Q"}, exitUsage, `^$`,
			`--symmetry Q: Q is not a parameter sort of Lock`},
		{"empty entry", []string{"explore", "testdata/symmetry/lock.yaml", "--bound", "T=3", "--symmetry", "T,"}, exitUsage, `^$`,
			`--symmetry "T,": want comma-separated parameter sorts`},
		{"with --proof", []string{"explore", "--proof", "../../proofs/TML-TMS2.yaml", "../../specs", "../../algorithms", "--bound", "T=2,L=1,V=2", "--symmetry", "T"}, exitOK,
			`(?s)symmetry: T \(2 elements\): 2 permutations; the nodes counted are orbit representatives\n.*OK: every obligation holds`, `^$`},
		{"with --implements", []string{"explore", "--implements", "TMS2", "../../algorithms/TML.yaml", "../../specs", "--bound", "T=2,L=1,V=2", "--symmetry", "T"}, exitOK,
			`(?s)symmetry: T \(2 elements\): 2 permutations; the pairs counted are orbit representatives\n.*OK: every trace of TML`, `^$`},
		{"violation", []string{"explore", "testdata/symmetry/lock.yaml", "--bound", "T=3", "--symmetry", "T"}, exitFailure,
			`(?s)symmetry: T \(3 elements\): 6 permutations; .*VIOLATION of mutex after 4 steps.*Enter\(T#\d\).*Enter\(T#\d\)`, `^$`},
		{"TMS2", []string{"explore", "../../specs/TMS2.yaml", "--bound", "T=2,L=1,V=2", "--symmetry", "T,L,V"}, exitOK,
			`(?s)symmetry: L \(1 element\), T \(2 elements\), V \(2 elements, V#0 fixed\): 2 permutations; .*\n  V#0 fixed: \.\./\.\./specs/TMS2\.yaml:\d+:\d+: .* can evaluate to the default value of .*OK: all 4 invariant`, `^$`},
		{"dead registers", []string{"explore", "../../specs/TMS2.yaml", "--bound", "T=2,L=1,V=2", "--symmetry", "T", "--reduce-dead"}, exitOK,
			`(?s)TMS2 \(L=1,T=2,V=2\): 1404 states.*symmetry: T \(2 elements\).*\ndead registers: rdSet, wrSet, argL, argV, valRead reset where dead.*\n  argL\[t\] dead when pc\[t\] in \{NotStarted, BeginPending, Ready, WriteResponding, .*OK: all 4 invariant`, `^$`},
		{"no dead registers", []string{"explore", "testdata/symmetry/lock.yaml", "--bound", "T=2", "--reduce-dead"}, exitFailure,
			`(?s)dead registers: none found; every state is stored whole\nVIOLATION of mutex after 4 steps`, `^$`},
		{"dead registers with --proof", []string{"explore", "--proof", "../../proofs/TML-TMS2.yaml", "../../specs", "../../algorithms", "--bound", "T=2,L=1,V=2", "--reduce-dead", "--symmetry", "none"}, exitOK,
			`(?s)6984 found.*\ndead registers: argL, argV, valRead of the abstract state reset where dead; the pairs counted are pairs up to dead entries\n` +
				`  a\.argL\[t\] dead when a\.pc\[t\] in \{NotStarted, .*  stored whole: rdSet: relation clause snapshot reads a\.rdSet\[t\] where it is dead at a pair reached .*` +
				`note: dead-register reduction: \.\./\.\./proofs/TML-TMS2\.yaml:45:36: relation clause readOnly reads a\.wrSet\[t\] where the register wrSet of TMS2 may be dead .*the edge was checked again with wrSet stored whole\n.*OK: every obligation holds`, `^$`},
		{"dead registers, refinement", []string{"crosscheck", "../../proofs/TMS2-TxnOrdTMS2.yaml", "../../specs", "--bound", "T=2,L=1,V=2", "--reduce-dead"}, exitOK,
			`(?s)note: dead-register reduction applies to the pairs of forward simulations; the states of this [a-z-]+ edge are stored whole\nOK: every obligation holds`, `^$`},
		{"dead registers with --implements", []string{"crosscheck", "--implements", "TMS2", "../../algorithms/TML.yaml", "../../specs", "--bound", "T=2,L=1,V=2", "--reduce-dead"}, exitOK,
			`(?s)dead registers reset where dead: addr, val of TML, rdSet, wrSet, argL, argV, valRead of TMS2; the states counted are states up to dead entries\nOK: every trace of TML`, `^$`},
		// symmetry by default: the parameter sorts the static check accepts
		{"default", []string{"explore", "testdata/symmetry/lock.yaml", "--bound", "T=3"}, exitFailure,
			`(?s)symmetry: T \(3 elements\): 6 permutations; the states counted are orbit representatives\n  by default: the parameter sorts the static check accepts \(--symmetry none turns it off\)\n.*VIOLATION of mutex after 4 steps`, `^$`},
		{"default, refused", []string{"explore", "testdata/symmetry/leader.yaml", "--bound", "T=3"}, exitOK,
			`(?s)^Leader \(T=3\): 5 states.*OK: all 1 invariant`,
			`^ladder explore: note: no symmetry reduction over T: testdata/symmetry/leader\.yaml:13:14: the constant leader is an element of T, used outside the initial state; [^\n]*\n$`},
		{"default, proof", []string{"crosscheck", "../../proofs/TML-TMS2.yaml", "../../specs", "../../algorithms", "--bound", "T=2,L=1,V=2"}, exitOK,
			`(?s)symmetry: L \(1 element\), T \(2 elements\), V \(2 elements, V#0 fixed\): 2 permutations \(by default: .*dead registers: argL, argV, valRead of the abstract state reset where dead.*OK: every obligation holds`, notesOnly},
		// symmetry: declared by the interface (testdata/symmetry/declared)
		{"declared", []string{"explore", "testdata/symmetry/declared/lock.yaml", "--bound", "T=3"}, exitFailure,
			`(?s)symmetry: T \(3 elements\): 6 permutations; the states counted are orbit representatives\n  declared by interface Procs at testdata/symmetry/declared/procs\.yaml:5:1\n.*VIOLATION of mutex after 4 steps`, `^$`},
		{"declared, json", []string{"explore", "testdata/symmetry/declared/lock.yaml", "--bound", "T=3", "--json"}, exitFailure,
			`"declared": "interface Procs at testdata/symmetry/declared/procs\.yaml:5:1"`, `^$`},
		{"declared, turned off", []string{"explore", "testdata/symmetry/declared/lock.yaml", "--bound", "T=3", "--symmetry", "none", "--reduce-dead=false"}, exitFailure,
			`^Lock \(T=3\): 21 states, 28 transitions[^\n]*\n[^\n]*\nVIOLATION of mutex after 4 steps`, `^$`},
		{"declared, refused", []string{"explore", "testdata/symmetry/declared/leader.yaml", "--bound", "T=3", "--reduce-dead=false"}, exitOK,
			`^Leader \(T=3\): 5 states[^\n]*\n[^\n]*\nOK: all 1 invariant`,
			`^testdata/symmetry/declared/leader\.yaml:12:14: symmetry T: the constant leader is an element of T, used outside the initial state; [^\n]*\nladder explore: note: the symmetry declared by interface Procs at testdata/symmetry/declared/procs\.yaml:5:1 is not used: the search runs without it\n$`},
		{"declared, group too large", []string{"explore", "testdata/symmetry/declared/atomic.yaml", "--bound", "T=9", "--reduce-dead=false"}, exitOK,
			`^AtomicLock \(T=9\): 10 states[^\n]*\n[^\n]*\nOK:`,
			`^ladder explore: symmetry: the permutations of T and the sorts before it are more than 40320[^\n]*\nladder explore: note: the symmetry declared by interface Procs at [^\n]* is not used: the search runs without it\n$`},
		{"declared, proof", []string{"crosscheck", "testdata/symmetry/declared/atomic-lock.yaml", "testdata/symmetry/declared", "--bound", "T=3"}, exitOK,
			`(?s)symmetry: T \(3 elements\): 6 permutations \(declared by interface Procs at testdata/symmetry/declared/procs\.yaml:5:1\); the nodes counted.*OK: every obligation holds`, `^$`},
		{"declared, implements", []string{"crosscheck", "--implements", "Lock", "testdata/symmetry/declared/atomic.yaml", "testdata/symmetry/declared/lock.yaml", "--bound", "T=3"}, exitOK,
			`(?s)symmetry: T \(3 elements\): 6 permutations \(declared by interface Procs at testdata/symmetry/declared/procs\.yaml:5:1\); the pairs counted.*OK: every trace of AtomicLock`, `^$`},
		{"declared, implements refused", []string{"crosscheck", "--implements", "Leader", "testdata/symmetry/declared/lock.yaml", "testdata/symmetry/declared/leader.yaml", "--bound", "T=2", "--reduce-dead=false"}, exitFailure,
			`(?s)^traces of Lock ⊆ traces of Leader\? in T=2\n[^\n]*\nFAILED: Leader cannot produce this trace`,
			`ladder crosscheck: note: the symmetry declared by interface Procs at testdata/symmetry/declared/procs\.yaml:5:1 is not used`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runLadder(c.args...)
			if code != c.code || !regexp.MustCompile(c.stdout).MatchString(stdout) || !regexp.MustCompile(c.stderr).MatchString(stderr) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
		})
	}
}
