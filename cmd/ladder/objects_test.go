package main

import (
	"testing"
)

// The concurrent objects of specs/objects, algorithms/objects and
// proofs/objects (docs/howto-object.md): the Treiber stack and the
// Michael–Scott queue, each with a history mapping to its copy with history
// variables and a forward simulation from that copy to AtomicStack or
// AtomicQueue, and the buggy variants of algorithms/objects/testdata.
const (
	objSpecs = "../../specs/objects"
	objAlgs  = "../../algorithms/objects"
	objProof = "../../proofs/objects"
	objTD    = "../../algorithms/objects/testdata"
)

// expectOK runs ladder with args and expects exit code 0 and stdout
// matching re.
func expectOK(t *testing.T, args []string, re string) {
	t.Helper()
	expectExit(t, exitOK, args, re)
}

// TestObjectsBounded checks, explores and cross-checks the objects on small
// instances: the invariants of the automata with history variables hold in
// every reachable state, each edge's obligations hold at every reachable
// step (with every case of the linearization points taken), and the
// algorithms' traces are traces of the atomic objects.
func TestObjectsBounded(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		{"check", []string{"check", objSpecs, objAlgs, objProof, objTD},
			`^checked 45 files: 21 automata, 3 interfaces, 21 proofs\n$`},
		// POQueue, explored to a depth (its enqueues are unbounded); its
		// prophecy edges are not cross-checked: the prediction is a map
		// over Int, which no explored instance enumerates
		{"explore POQueue", []string{"explore", objSpecs + "/POQueue.yaml", "--bound", "T=2,L=1,V=2", "--max-depth", "10"},
			`(?s)^POQueue \(L=1,T=2,V=2\): \d+ states.*INCOMPLETE: stopped at the depth limit 10; no violation among the states found`},
		{"explore AtomicRegister", []string{"explore", objSpecs + "/AtomicRegister.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)^AtomicRegister \(L=1,T=2,V=2\): \d+ states.*OK: all 0 invariant\(s\) and the Nat conditions hold`},
		{"explore TreiberStackHist", []string{"explore", objAlgs + "/TreiberStackHist.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)^TreiberStackHist \(L=3,T=2,V=2\): \d+ states.*OK: all 12 invariant\(s\) and the Nat conditions hold`},
		{"explore MSQueueHist", []string{"explore", objAlgs + "/MSQueueHist.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)^MSQueueHist \(L=3,T=2,V=2\): \d+ states.*OK: all 19 invariant\(s\) and the Nat conditions hold`},
		{"crosscheck Treiber history", []string{"crosscheck", objProof + "/TreiberStack-TreiberStackHist.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)TreiberStack→TreiberStackHist \(history, proof TreiberStack-TreiberStackHist\).*OK: every obligation holds`},
		{"crosscheck Treiber forward", []string{"crosscheck", objProof + "/TreiberStackHist-AtomicStack.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)TreiberStackHist→AtomicStack \(forward, proof TreiberStackHist-AtomicStack\).*cases taken: PushCas case 1: \d+, case 2: \d+; PopReadTop case 1: \d+, case 2: \d+; PopCas case 1: \d+, case 2: \d+\n.*OK: every obligation holds`},
		{"crosscheck MS history", []string{"crosscheck", objProof + "/MSQueue-MSQueueHist.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueue→MSQueueHist \(history, proof MSQueue-MSQueueHist\).*OK: every obligation holds`},
		{"crosscheck MS forward", []string{"crosscheck", objProof + "/MSQueueHist-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueueHist→AtomicQueue \(forward, proof MSQueueHist-AtomicQueue\).*cases taken: EnqLink case 1: \d+, case 2: \d+; DeqReadNext case 1: \d+, case 2: \d+; DeqCas case 1: \d+, case 2: \d+\n.*OK: every obligation holds`},
		{"explore MSQueuePaperProph", []string{"explore", objAlgs + "/MSQueuePaperProph.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)^MSQueuePaperProph \(L=3,T=2,V=2\): \d+ states.*OK: all 24 invariant\(s\) and the Nat conditions hold`},
		{"crosscheck MS paper history", []string{"crosscheck", objProof + "/MSQueuePaper-MSQueuePaperHist.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueuePaper→MSQueuePaperHist \(history, proof MSQueuePaper-MSQueuePaperHist\).*OK: every obligation holds`},
		{"crosscheck MS paper never blocks", []string{"crosscheck", objProof + "/MSQueuePaperHist-MSQueuePaperProph.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueuePaperHist→MSQueuePaperProph \(backward, proof MSQueuePaperHist-MSQueuePaperProph\).*OK: every obligation holds`},
		{"crosscheck MS paper same trace", []string{"crosscheck", objProof + "/MSQueuePaperProph-MSQueuePaperHist.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueuePaperProph→MSQueuePaperHist \(refinement, proof MSQueuePaperProph-MSQueuePaperHist\).*OK: every obligation holds`},
		{"crosscheck MS paper forward", []string{"crosscheck", objProof + "/MSQueuePaperProph-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)MSQueuePaperProph→AtomicQueue \(forward, proof MSQueuePaperProph-AtomicQueue\).*cases taken: EnqLink case 1: \d+, case 2: \d+; DeqReadNext case 1: \d+, case 2: \d+; DeqCas case 1: \d+, case 2: \d+\n.*OK: every obligation holds`},
		{"implements AtomicQueue (paper order)", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objAlgs + "/MSQueuePaper.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)OK: every trace of MSQueuePaper in the instance is a trace of AtomicQueue`},
		{"implements AtomicStack", []string{"crosscheck", "--implements", objSpecs + "/AtomicStack.yaml", objAlgs + "/TreiberStack.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)OK: every trace of TreiberStack in the instance is a trace of AtomicStack`},
		{"implements AtomicQueue", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objAlgs + "/MSQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)OK: every trace of MSQueue in the instance is a trace of AtomicQueue`},
		// the Herlihy–Wing queue: its history variables' invariants, its two
		// edges to POQueue (both cases of a swap taken), and its traces
		{"explore HWQueueHist", []string{"explore", objAlgs + "/HWQueueHist.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)^HWQueueHist \(L=2,T=2,V=2\): \d+ states.*OK: all 15 invariant\(s\) and the Nat conditions hold`},
		{"crosscheck HW history", []string{"crosscheck", objProof + "/HWQueue-HWQueueHist.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)HWQueue→HWQueueHist \(history, proof HWQueue-HWQueueHist\).*OK: every obligation holds`},
		{"crosscheck HW to POQueue", []string{"crosscheck", objProof + "/HWQueueHist-POQueue.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)HWQueueHist→POQueue \(refinement, proof HWQueueHist-POQueue\).*cases taken: DeqSwap case 1: \d+, case 2: \d+\n.*OK: every obligation holds`},
		{"explore HWQueue", []string{"explore", objAlgs + "/HWQueue.yaml", "--bound", "T=3,L=3,V=2"},
			`(?s)^HWQueue \(L=3,T=3,V=2\): \d+ states.*OK: all 2 invariant\(s\) and the Nat conditions hold`},
		{"implements AtomicQueue (Herlihy–Wing)", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objAlgs + "/HWQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)OK: every trace of HWQueue in the instance is a trace of AtomicQueue`},
		// BatchQueue: a commit publishes a batch of enqueues, matched by a
		// repeated DoEnq, which the cross-check runs iteration by iteration
		{"explore BatchQueue", []string{"explore", objAlgs + "/BatchQueue.yaml", "--bound", "T=3,L=3,V=2"},
			`(?s)^BatchQueue \(L=3,T=3,V=2\): \d+ states.*OK: all 7 invariant\(s\) and the Nat conditions hold`},
		{"crosscheck BatchQueue forward", []string{"crosscheck", objProof + "/BatchQueue-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)BatchQueue→AtomicQueue \(forward, proof BatchQueue-AtomicQueue\).*OK: every obligation holds`},
		{"implements AtomicQueue (batches)", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objAlgs + "/BatchQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)OK: every trace of BatchQueue in the instance is a trace of AtomicQueue`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectOK(t, tc.args, tc.stdout)
		})
	}
}

// TestObjectsProve proves every invariant and edge of the objects with Z3
// (about 15 s on one worker) and expects the end-to-end theorems, derived
// by transitivity through the history mappings.
func TestObjectsProve(t *testing.T) {
	if testing.Short() {
		t.Skip("proves about 2,450 obligations")
	}
	expectOK(t, []string{"prove", "--no-cache", "-j", "1", objSpecs, objAlgs, objProof},
		`(?s)Theorems\n.*  BatchQueue implements AtomicQueue \(trace-inclusion: BatchQueue→AtomicQueue, `+
			`.*  HWQueue implements AtomicQueue \(transitivity: HWQueue implements POQueue, POQueue implements AtomicQueue\)\n`+
			`.*  MSQueue implements AtomicQueue \(transitivity: MSQueue implements MSQueueHist, MSQueueHist implements AtomicQueue\)\n`+
			`.*  MSQueuePaper implements AtomicQueue \(transitivity: MSQueuePaper implements MSQueuePaperHist, MSQueuePaperHist implements AtomicQueue\)\n`+
			`.*  POQueue implements AtomicQueue \(transitivity: POQueue implements POQueueProph, POQueueProph implements AtomicQueue\)\n`+
			`.*  TreiberStack implements AtomicStack \(transitivity: TreiberStack implements TreiberStackHist, TreiberStackHist implements AtomicStack\)\n`+
			`.*\n\d+ obligations: \d+ proved, \d+ trivial, 0 refuted, 0 unknown`)
}

// TestObjectsBuggy checks that the buggy variants of
// algorithms/objects/testdata are refuted: the trace check finds a history
// the atomic object cannot produce, the bounded check of the edge (or of
// the fixture's invariants) fails with a shortest execution, and Z3 with
// the kernel's bounded search refutes the obligation at the buggy step.
// The prover runs with a small resource limit, so that Z3 gives up on the
// quantified hypotheses quickly and the bounded search finds the
// counterexample (with the default limit each takes a minute or more).
func TestObjectsBuggy(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdout string // regexp
	}{
		// a pop without a CAS: two pops return the same value
		{"TreiberPopNoCAS implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicStack.yaml", objTD + "/TreiberPopNoCAS.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)FAILED: AtomicStack cannot produce this trace of TreiberPopNoCAS \(6 events; the last one is impossible\):\n  PushInv\(T#0, V#0\), PushResp\(T#0\), PopInv\(T#0\), PopInv\(T#1\), PopResp\(T#0, V#0\), PopResp\(T#1, V#0\)\n`},
		{"TreiberPopNoCAS explore", []string{"explore", objTD + "/TreiberPopNoCAS.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)VIOLATION of gsz:Nat after 14 steps.*\d+: PopCas\(T#1\)\n.*The last state violates gsz:Nat`},
		{"TreiberPopNoCAS crosscheck", []string{"crosscheck", objTD + "/TreiberPopNoCAS-AtomicStack.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)FAILED: TreiberPopNoCAS→AtomicStack › forward › assume TreiberPopNoCAS.gsz:Nat\n.*\d+: PopCas\(T#1\)\n`},
		{"TreiberPopNoCAS prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", `TreiberPopNoCAS→AtomicStack › forward › PopCas › pre\(DoPop\)`, objTD + "/TreiberPopNoCAS-AtomicStack.yaml"},
			`(?s)PopCas › pre\(DoPop\)\s+refuted.*fails: pre: precondition of DoPop\(t\) in a\n    concrete step: PopCas\(T#0\).*0 proved, 0 trivial, 1 refuted`},

		// a push that does not retry after a failed CAS: its value is lost
		{"TreiberPushNoRetry implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicStack.yaml", objTD + "/TreiberPushNoRetry.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)FAILED: AtomicStack cannot produce this trace of TreiberPushNoRetry \(7 events; the last one is impossible\):\n  PushInv\(T#0, V#0\), PushInv\(T#1, V#0\), PushResp\(T#\d\), PushResp\(T#\d\), PopInv\(T#\d\), PopInv\(T#\d\), PopEmpty\(T#\d\)\n`},
		{"TreiberPushNoRetry crosscheck", []string{"crosscheck", objTD + "/TreiberPushNoRetry-AtomicStack.yaml", "--bound", "T=2,L=2,V=2"},
			`(?s)FAILED: TreiberPushNoRetry→AtomicStack › forward › PushCas › case 2 › relation\(pc\)\n.*false: a.pc\[t\] = PushResponding, where a.pc\[t\] = PushPending.*failing step: PushCas\(T#1\), case 2 of 2`},
		{"TreiberPushNoRetry prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", `TreiberPushNoRetry→AtomicStack › forward › PushCas › case 2 › relation\(pc\)`, objTD + "/TreiberPushNoRetry-AtomicStack.yaml"},
			`(?s)relation\(pc\)\s+refuted.*fails: relation: pc\(cpost, u0\)\n    concrete step: PushCas\(T#0\).*0 proved, 0 trivial, 1 refuted`},

		// a dequeue that skips a node: the skipped value is lost
		{"MSQueueDeqSkip implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objTD + "/MSQueueDeqSkip.yaml", "--bound", "T=1,L=3,V=2"},
			`(?s)FAILED: AtomicQueue cannot produce this trace of MSQueueDeqSkip \(8 events; the last one is impossible\):\n  EnqInv\(T#0, V#0\), EnqResp\(T#0\), EnqInv\(T#0, V#0\), EnqResp\(T#0\), DeqInv\(T#0\), DeqResp\(T#0, V#0\), DeqInv\(T#0\), DeqEmpty\(T#0\)\n`},
		{"MSQueueDeqSkip explore", []string{"explore", objTD + "/MSQueueDeqSkip.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)VIOLATION of deqNext after \d+ steps.*\d+: DeqReadVal\(T#\d\)\n.*The last state violates deqNext`},
		{"MSQueueDeqSkip crosscheck", []string{"crosscheck", objTD + "/MSQueueDeqSkip-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)FAILED: MSQueueDeqSkip→AtomicQueue › forward › assume MSQueueDeqSkip.deqNext\n.*\d+: DeqReadVal\(T#\d\)\n`},
		// the paper's queue without the prophecy variable: the read of a
		// null h.next is no linearization point when the re-check fails
		{"MSQueuePaperNoProphecy crosscheck", []string{"crosscheck", objTD + "/MSQueuePaperNoProphecy-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)FAILED: MSQueuePaperProph→AtomicQueue › forward › DeqCheck › relation\(pc\)\n.*false: a.pc\[t\] = DeqPending, where a.pc\[t\] = DeqEmptyResponding.*\d+: DeqReadNext\(T#\d\)\n`},
		{"MSQueuePaperNoProphecy prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", `MSQueuePaperProph→AtomicQueue › forward › DeqCheck › relation\(pc\)`, objTD + "/MSQueuePaperNoProphecy-AtomicQueue.yaml"},
			`(?s)relation\(pc\)\s+refuted.*fails: relation: pc\(cpost, u0\)\n    concrete step: DeqCheck\(T#0, (true|false)\).*0 proved, 0 trivial, 1 refuted`},
		{"MSQueueDeqSkip prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", `MSQueueDeqSkip › invariant deqNext › DeqReadVal`, objTD + "/MSQueueDeqSkip-AtomicQueue.yaml"},
			`(?s)deqNext › DeqReadVal\s+refuted.*fails: invariant: deqNext\(s'\)\n    concrete step: DeqReadVal\(T#0\).*0 proved, 0 trivial, 1 refuted`},
		// a Herlihy–Wing dequeue that reads its slot and clears it in a
		// later step: two dequeues return the one value enqueued
		{"HWQueueNoSwap implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objTD + "/HWQueueNoSwap.yaml", "--bound", "T=2,L=1,V=2"},
			`(?s)FAILED: AtomicQueue cannot produce this trace of HWQueueNoSwap \(6 events; the last one is impossible\):\n  EnqInv\(T#0, V#0\), EnqResp\(T#0\), DeqInv\(T#\d\), DeqInv\(T#\d\), DeqResp\(T#\d, V#0\), DeqResp\(T#\d, V#0\)\n`},
		// a Herlihy–Wing dequeue that never scans slot 0: after two
		// enqueues, one after the other, it returns the second value. The
		// refinement to POQueue fails at the swap's Take, whose value is not
		// minimal; Z3 finds no model of the quantified invariants over
		// sequences (nor does the bounded search), so prove leaves it
		// unknown, never proved
		{"HWQueueSkipFirst implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objTD + "/HWQueueSkipFirst.yaml", "--bound", "T=1,L=2,V=2"},
			`(?s)FAILED: AtomicQueue cannot produce this trace of HWQueueSkipFirst \(6 events; the last one is impossible\):\n  EnqInv\(T#0, V#0\), EnqResp\(T#0\), EnqInv\(T#0, V#1\), EnqResp\(T#0\), DeqInv\(T#0\), DeqResp\(T#0, V#1\)\n`},
		{"HWQueueSkipFirst crosscheck", []string{"crosscheck", objTD + "/HWQueueSkipFirst-POQueue.yaml", "--bound", "T=1,L=2,V=2"},
			`(?s)FAILED: HWQueueSkipFirst→POQueue › refinement › DeqSwap › case 1 › pre\(Take\)\n  the abstract step Take\(T#0, 1\) is not enabled in u0 = f\(c\)\n    false: forall k in 0..n. not \(present\(k\) and precedes\(k, i\)\)\n.*failing step: DeqSwap\(T#0\), case 1 of 2`},
		{"HWQueueSkipFirst prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "200000", "--only", `HWQueueSkipFirst→POQueue › refinement › DeqSwap › case 1 › pre\(Take\)`, objTD + "/HWQueueSkipFirst-POQueue.yaml"},
			`(?s)pre\(Take\)\s+unknown.*1 obligations: 0 proved, 0 trivial, 0 refuted, 1 unknown`},
		// a commit that publishes unfilled slots: a dequeue returns a value
		// nobody enqueued, and the repeated DoEnq has no enqueuer to
		// take effect for
		{"BatchQueueEarlyCommit implements", []string{"crosscheck", "--implements", objSpecs + "/AtomicQueue.yaml", objTD + "/BatchQueueEarlyCommit.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)FAILED: AtomicQueue cannot produce this trace of BatchQueueEarlyCommit \(3 events; the last one is impossible\):\n  EnqInv\(T#\d, V#1\), DeqInv\(T#\d\), DeqResp\(T#\d, V#0\)\n`},
		{"BatchQueueEarlyCommit crosscheck", []string{"crosscheck", objTD + "/BatchQueueEarlyCommit-AtomicQueue.yaml", "--bound", "T=2,L=3,V=2"},
			`(?s)FAILED: BatchQueueEarlyCommit→AtomicQueue › forward › Commit › loop\(step\)\n  the loop invariant at k \+ 1, after DoEnq\(get\(c.owner\[k\]\)\) from u, where k = 0 is false\n.*failing step: Commit\(1\)`},
		{"BatchQueueEarlyCommit prove", []string{"prove", "--no-cache", "-j", "1", "--rlimit", "2000000", "--only", `BatchQueueEarlyCommit→AtomicQueue › forward › Commit › loop\(pre\)`, objTD + "/BatchQueueEarlyCommit-AtomicQueue.yaml"},
			`(?s)loop\(pre\)\s+refuted.*fails: loop: the precondition of DoEnq\(get\(c.owner\[k\]\)\) in u, where k = \d+\n    concrete step: Commit\(\d+\).*\n    u     = AtomicQueue\{.*0 proved, 0 trivial, 1 refuted`},
		// the invariant of a commit's DoEnq loop that forgets argV: not
		// inductive, refuted by Z3 from an unreachable iteration state
		{"BatchQueueWeakLoop prove", []string{"prove", "--no-cache", "-j", "1", "--only", `BatchQueue→AtomicQueue › forward › Commit › loop\(step\)`, objTD + "/BatchQueueWeakLoop-AtomicQueue.yaml"},
			`(?s)loop\(step\)\s+refuted.*fails: loop: the loop invariant at k \+ 1, after DoEnq\(get\(c.owner\[k\]\)\) from u, where k = \d+\n.*    u'    = AtomicQueue\{.*0 proved, 0 trivial, 1 refuted`},
		// the invariant unfilled, which the early commit breaks: an
		// enqueuer at E2 holds a slot the commit has published
		{"BatchQueueEarlyCommit invariant", []string{"prove", "--no-cache", "-j", "1", "--only", `BatchQueueEarlyCommit › invariant unfilled › Commit`, objTD + "/BatchQueueEarlyCommit.yaml"},
			`(?s)unfilled › Commit\s+refuted.*fails: invariant: unfilled\(s'\)\n    concrete step: Commit\(\d+\).*0 proved, 0 trivial, 1 refuted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectRefuted(t, tc.args, tc.stdout)
		})
	}
}
