// This file implements `ladder new algorithm`: the skeleton of a new TM
// algorithm and of its forward simulation to TMS2, as a starting point.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"ladder/internal/driver"
	"ladder/ioa/expr"
)

func init() {
	register(&command{
		name:  "new",
		args:  "algorithm NAME [--dir DIR]",
		short: "write the skeleton of a TM algorithm and its proof to TMS2",
		long: `New algorithm writes DIR/algorithms/NAME.yaml, an automaton with the
events of the TM interface (specs/tm.yaml), and DIR/proofs/NAME-TMS2.yaml, a
forward simulation from it to TMS2. As written, NAME is a correct but trivial
TM (one global lock held from begin to commit) whose proof is proved: the
places to replace by your algorithm are marked "TODO(you):". NAME is an
identifier (a letter, then letters, digits and _); existing files are never
overwritten. The specifications are those of DIR/specs, or else of the
repository of the working directory.

docs/howto-algorithm.md goes from these files to "TML implements TMS2".

It exits with 0 when both files are written, 1 when one exists already or
cannot be written, and 2 on usage errors.`,
		setup: func(fs *flag.FlagSet) func(*env, []string) int {
			dir := fs.String("dir", ".", "the directory holding (or to hold) algorithms/ and proofs/")
			return func(e *env, args []string) int {
				return newCommand(e, args, *dir)
			}
		},
	})
}

// identRE is the syntax of a name that `ladder new` accepts.
var identRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

func newCommand(e *env, args []string, dir string) int {
	if len(args) != 2 || args[0] != "algorithm" {
		return e.usageError("new", "expected: ladder new algorithm NAME [--dir DIR]")
	}
	name := args[1]
	if !identRE.MatchString(name) || expr.IsKeyword(name) {
		return e.usageError("new", "%q is not a valid name: use a letter, then letters, digits and _ (not a keyword)", name)
	}
	specs, err := findSpecs(dir)
	if err != nil {
		e.errorf("new", "%v", err)
		return exitFailure
	}
	if _, err := os.Stat(filepath.Join(specs, name+".yaml")); err == nil {
		return e.usageError("new", "%s is a specification (%s): choose another name", name, filepath.Join(specs, name+".yaml"))
	}
	algPath := filepath.Join(dir, "algorithms", name+".yaml")
	proofPath := filepath.Join(dir, "proofs", name+"-TMS2.yaml")
	for _, p := range []string{algPath, proofPath} {
		if _, err := os.Lstat(p); err == nil {
			e.errorf("new", "%s exists already: not overwriting it (remove it, or choose another NAME)", p)
			return exitFailure
		}
	}
	iface, err := relSlash(filepath.Join(dir, "algorithms"), filepath.Join(specs, "tm.yaml"))
	if err != nil {
		e.errorf("new", "%v", err)
		return exitFailure
	}
	// The proof names TMS2 when it is in DIR/specs, where the commands find
	// it (run from DIR); otherwise it gives the file's path.
	abstract := "TMS2"
	if specs != filepath.Join(dir, "specs") {
		if abstract, err = relSlash(filepath.Join(dir, "proofs"), filepath.Join(specs, "TMS2.yaml")); err != nil {
			e.errorf("new", "%v", err)
			return exitFailure
		}
	}
	fill := strings.NewReplacer("{{NAME}}", name, "{{INTERFACE}}", iface, "{{TMS2}}", abstract)
	files := []struct{ path, text, what string }{
		{algPath, fill.Replace(skeletonAlgorithm), "the automaton " + name + ", a single-lock TM to turn into your algorithm"},
		{proofPath, fill.Replace(skeletonProof), "a forward simulation from " + name + " to TMS2, proved as written"},
	}
	var written []string
	for _, f := range files {
		if err := writeNew(f.path, f.text); err != nil {
			for _, w := range written {
				os.Remove(w)
			}
			e.errorf("new", "%v", err)
			return exitFailure
		}
		written = append(written, f.path)
	}
	for _, f := range files {
		fmt.Fprintf(e.stdout, "wrote %s: %s\n", f.path, f.what)
	}
	fmt.Fprintf(e.stdout, "\nReplace what is marked TODO(you): by your algorithm, and after each change run:\n")
	fmt.Fprintf(e.stdout, "  ladder check %s %s\n", algPath, proofPath)
	fmt.Fprintf(e.stdout, "  ladder explore %s --bound T=2,L=1,V=2\n", algPath)
	fmt.Fprintf(e.stdout, "  ladder crosscheck %s --bound T=2,L=1,V=2\n", proofPath)
	fmt.Fprintf(e.stdout, "  ladder prove -j 1 %s\n", proofPath)
	fmt.Fprintf(e.stdout, "docs/howto-algorithm.md goes from these files to \"TML implements TMS2\".\n")
	return exitOK
}

// findSpecs returns the directory holding tm.yaml and TMS2.yaml: DIR/specs,
// or else specs/ at the repository root of the working directory.
func findSpecs(dir string) (string, error) {
	cands := []string{filepath.Join(dir, "specs")}
	if wd, err := os.Getwd(); err == nil {
		cands = append(cands, filepath.Join(driver.FindRoot(wd), "specs"))
	}
	for _, d := range cands {
		if isFile(filepath.Join(d, "tm.yaml")) && isFile(filepath.Join(d, "TMS2.yaml")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("no specs/tm.yaml and specs/TMS2.yaml in %s or in the repository of the working directory", dir)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// relSlash returns the path of target relative to the directory from, with
// slashes, as the YAML files write their references.
func relSlash(from, target string) (string, error) {
	af, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	at, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(af, at)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// writeNew creates path (and its directory) with text, failing if it exists.
func writeNew(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists already: not overwriting it", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// skeletonAlgorithm is the automaton that ladder new algorithm writes, with
// {{NAME}} and {{INTERFACE}} (the path of specs/tm.yaml) to fill in.
const skeletonAlgorithm = `automaton: {{NAME}}
interface: {{INTERFACE}}
doc: |
  # TODO(you): what {{NAME}} is, the paper it comes from (by short name, see
  # docs/references.md), its pseudocode with line labels, and how each label
  # became a step.

  As generated by "ladder new algorithm", {{NAME}} is a correct but trivial TM, a
  single global lock held from begin to commit: transactions run one at a
  time, read and write the memory in place and never abort. Replace the
  shared state and the internal steps by those of your algorithm; keep the
  external actions (the invocations and responses of the TM interface, with
  their view), whose shape the proof file relies on.

  The program counter ranges over the labels of the pseudocode (the enum
  Label), named apart from TMS2's status enum PC and its constants (Idle,
  not NotStarted; Active, not Ready; Done, not Committed; Failed, not
  Aborted): a name that the two automata of an edge declare differently is
  ambiguous in the proof file.
constants:
  v0: V          # the initial value of every location (as in TMS2)
  l0: L          # initial value of the addr registers (never read before set)
sorts:
  # TODO(you): one constant per label of your pseudocode (B1, R1, R2, ...).
  Label: {enum: [Idle, B1, B2, Active, R1, RResp, W1, W2, E1, E2, Done,
                 AbortPending, Failed]}
definitions:
  holdsLock:
    params: {t: T}
    sort: Bool
    body: pc[t] in {B2, Active, R1, RResp, W1, W2, E1}
state:
  # TODO(you): your algorithm's shared state (a version lock, the memory, ...)
  # and its per-transaction state (snapshots, read and write sets, ...).
  busy: {sort: Bool, init: false}
  mem:  {sort: "Map[L, V]", init: const(v0)}
  pc:   {sort: "Map[T, Label]", init: const(Idle)}
  addr: {sort: "Map[T, L]", init: const(l0)}
  val:  {sort: "Map[T, V]", init: const(v0)}
actions:
  BeginInv:
    kind: input
    params: {t: T}
    pre: pc[t] = Idle
    eff: pc[t] := B1
  # TODO(you): the internal steps of begin (here: wait for the lock and take it).
  Begin:
    kind: internal
    params: {t: T}
    pre: pc[t] = B1
    eff: |
      if not busy then
        busy := true
        pc[t] := B2
      end
  BeginResp:
    kind: output
    params: {t: T}
    pre: pc[t] = B2
    eff: pc[t] := Active
  ReadInv:
    kind: input
    params: {t: T, l: L}
    pre: pc[t] = Active
    eff: |
      addr[t] := l
      pc[t] := R1
  # TODO(you): the internal steps of read(addr[t]), one shared access each;
  # a failing check goes to AbortPending.
  Read:
    kind: internal
    params: {t: T}
    pre: pc[t] = R1
    eff: |
      val[t] := mem[addr[t]]
      pc[t] := RResp
  ReadResp:
    kind: output
    params: {t: T, v: V}
    pre: pc[t] = RResp and v = val[t]
    eff: pc[t] := Active
  WriteInv:
    kind: input
    params: {t: T, l: L, v: V}
    pre: pc[t] = Active
    eff: |
      addr[t] := l
      val[t] := v
      pc[t] := W1
  # TODO(you): the internal steps of write(addr[t], val[t]).
  Write:
    kind: internal
    params: {t: T}
    pre: pc[t] = W1
    eff: |
      mem[addr[t]] := val[t]
      pc[t] := W2
  WriteResp:
    kind: output
    params: {t: T}
    pre: pc[t] = W2
    eff: pc[t] := Active
  CommitInv:
    kind: input
    params: {t: T}
    pre: pc[t] = Active
    eff: pc[t] := E1
  # TODO(you): the internal steps of commit (here: release the lock).
  Commit:
    kind: internal
    params: {t: T}
    pre: pc[t] = E1
    eff: |
      busy := false
      pc[t] := E2
  CommitResp:
    kind: output
    params: {t: T}
    pre: pc[t] = E2
    eff: pc[t] := Done
  Abort:
    kind: output
    params: {t: T}
    pre: pc[t] = AbortPending
    eff: pc[t] := Failed
invariants:
  # TODO(you): the invariants your proof needs; check them with ladder explore.
  lockHeld:
    body: |
      forall t: T. holdsLock(t) => busy
    doc: A transaction between its begin and its commit holds the lock.
  oneHolder:
    body: |
      forall t: T, u: T. holdsLock(t) and holdsLock(u) => t = u
    doc: At most one transaction holds the lock.
view:
  BeginInv:   BeginInv(t)
  BeginResp:  BeginResp(t)
  ReadInv:    ReadInv(t, l)
  ReadResp:   ReadResp(t, v)
  WriteInv:   WriteInv(t, l, v)
  WriteResp:  WriteResp(t)
  CommitInv:  CommitInv(t)
  CommitResp: CommitResp(t)
  Abort:      Abort(t)
`

// skeletonProof is its forward simulation to TMS2, with {{NAME}} and
// {{TMS2}} (the name TMS2, or the path of specs/TMS2.yaml) to fill in.
const skeletonProof = `proof: {{NAME}}-TMS2
kind: forward
concrete: ../algorithms/{{NAME}}.yaml
abstract: {{TMS2}}
doc: |
  # TODO(you): why {{NAME}} implements TMS2: the relation in words, the status
  # correspondence, and the linearisation point of each operation.

  As generated by "ladder new algorithm": a forward simulation of the
  single-lock skeleton. While the lock is free the latest memory of TMS2 is
  mem (latest); its holder's writes are in mem already and in TMS2's write
  set until the commit (holderMem), and everything it read is in the latest
  memory (holderReads). Each read reads the latest memory, each write is
  DoWrite, and the commit appends a memory (DoCommitWriter).
assume:
  concrete: [lockHeld, oneHolder]
  abstract: [memsNonEmpty, beginIdxBound, emptyBeforeBegin]
relation:
  # TODO(you): how the shared state of {{NAME}} determines TMS2's memories.
  latest: not c.busy => last(a.mems) = c.mem
  holderMem: |
    forall t: T. c.holdsLock(t) => c.mem = override(last(a.mems), a.wrSet[t])
  holderReads: |
    forall t: T. c.holdsLock(t) => a.rdSet[t] subset last(a.mems)
  # The status correspondence: one line per constant of {{NAME}}'s Label.
  pc: |
    forall t: T.
      (c.pc[t] = Idle => a.pc[t] = NotStarted)
      and (c.pc[t] in {B1, B2} => a.pc[t] = BeginPending)
      and (c.pc[t] = Active => a.pc[t] = Ready)
      and (c.pc[t] = R1 => a.pc[t] = ReadPending)
      and (c.pc[t] = RResp => a.pc[t] = ReadResponding)
      and (c.pc[t] = W1 => a.pc[t] = WritePending)
      and (c.pc[t] = W2 => a.pc[t] = WriteResponding)
      and (c.pc[t] = E1 => a.pc[t] = CommitPending)
      and (c.pc[t] = E2 => a.pc[t] = CommitResponding)
      and (c.pc[t] = Done => a.pc[t] = Committed)
      and (c.pc[t] = AbortPending => a.pc[t] in {ReadPending, WritePending, CommitPending})
      and (c.pc[t] = Failed => a.pc[t] = Aborted)
  # The registers, where TMS2 reads them.
  argL: |
    forall t: T. c.pc[t] in {R1, W1} => a.argL[t] = c.addr[t]
  argV: |
    forall t: T. c.pc[t] = W1 => a.argV[t] = c.val[t]
  valRead: |
    forall t: T. c.pc[t] = RResp => a.valRead[t] = c.val[t]
start:
  mems:     "[c.mem]"
  pc:       const(NotStarted)
  beginIdx: const(0)
  rdSet:    const(const(None))
  wrSet:    const(const(None))
  argL:     c.addr
  argV:     c.val
  valRead:  c.val
steps:
  # TODO(you): one entry per internal action of {{NAME}}: [] for a step TMS2 does
  # not see, else the TMS2 steps it performs (DoRead, DoWrite,
  # DoCommitReadOnly, DoCommitWriter), with their witnesses. The external
  # actions match the TMS2 actions of the same name.
  Begin: []
  Read: DoRead(t, c.addr[t], len(a.mems) - 1)
  Write: DoWrite(t, c.addr[t], c.val[t])
  Commit: DoCommitWriter(t)
theorems:
  - {{NAME}} implements TMS2
`
