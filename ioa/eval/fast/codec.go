// This file implements the codec's fast path for a Runner: decoding a
// state into scratch memory while remembering where each variable's
// encoding starts, and encoding a successor by copying the bytes of the
// variables it shares with that state. The reference semantics does not
// depend on it; Runner.Encode must equal eval.Machine.AppendState, which
// TestRunnerAgrees checks.

package fast

import "ladder/ioa/eval"

// Encode appends the encoding of s (as eval.Machine.AppendState). The
// variables that s shares with the state last returned by Decode are
// copied from that state's encoding instead of being encoded again, which
// makes encoding a successor cheap.
func (r *Runner) Encode(buf []byte, s eval.State) []byte {
	m := r.m
	if r.last == nil || len(r.last) != len(s) {
		return m.AppendState(buf, s)
	}
	from := 0 // the start of a run of unchanged variables' bytes in lastKey
	for i := range s {
		if eval.Same(s[i], r.last[i]) {
			continue
		}
		buf = append(buf, r.lastKey[from:r.offs[i]]...)
		buf = m.AppendVar(buf, i, s[i])
		from = r.offs[i+1]
	}
	return append(buf, r.lastKey[from:]...)
}

// EncodeOffs is Encode, or with d not nil EncodeDead, that also sets
// offs[i], for each state variable i, to the offset of the variable's
// encoding in the bytes it appends, and offs[n] to their length (offs has
// one entry more than the machine has variables).
func (r *Runner) EncodeOffs(buf []byte, s eval.State, d *eval.Dead, offs []int) []byte {
	m := r.m
	start := len(buf)
	fast := r.last != nil && len(r.last) == len(s)
	n := len(m.A.Vars)
	for i := range n {
		offs[i] = len(buf) - start
		switch {
		case fast && eval.Same(s[i], r.last[i]) && (d == nil || d.SameControl(s, r.last, i)):
			buf = append(buf, r.lastKey[r.offs[i]:r.offs[i+1]]...)
		case d != nil:
			buf = d.AppendVar(buf, s, i)
		default:
			buf = m.AppendVar(buf, i, s[i])
		}
	}
	offs[n] = len(buf) - start
	return buf
}

// EncodeDead is Encode with the reduction d: the variables s shares with
// the state last decoded are copied from its key unless they are
// registers whose control changed.
func (r *Runner) EncodeDead(buf []byte, s eval.State, d *eval.Dead) []byte {
	if r.last == nil || len(r.last) != len(s) {
		return d.AppendState(buf, s)
	}
	from := 0
	for i := range s {
		if eval.Same(s[i], r.last[i]) && d.SameControl(s, r.last, i) {
			continue
		}
		buf = append(buf, r.lastKey[from:r.offs[i]]...)
		buf = d.AppendVar(buf, s, i)
		from = r.offs[i+1]
	}
	return append(buf, r.lastKey[from:]...)
}

// Decode returns the state whose encoding (eval.Machine.AppendState) is
// key; in scratch mode it lives in scratch memory.
func (r *Runner) Decode(key []byte) (s eval.State, err error) {
	if r.offs == nil {
		r.offs = make([]int, len(r.m.A.Vars)+1)
	}
	r.last, r.lastKey = nil, nil
	s, err = r.m.DecodeIn(r.g, key, r.offs)
	if err == nil {
		r.last, r.lastKey = s, key
	}
	return s, err
}
