// This file implements the codec's fast path for a Runner: decoding a
// state into scratch memory while remembering where each variable's
// encoding starts, and encoding a successor by copying the bytes of the
// variables it shares with that state. The reference semantics does not
// depend on it; Runner.Encode must equal Machine.AppendState, which
// TestScratch and TestFastPathsAgree check.

package eval

// same reports whether a and b are the same value object: identical
// scalars, or composites sharing their storage. Values are immutable, so
// same values are equal.
func same(a, b Value) bool {
	if a.n != b.n || len(a.vs) != len(b.vs) {
		return false
	}
	return len(a.vs) == 0 || &a.vs[0] == &b.vs[0]
}

// Encode appends the encoding of s (as Machine.AppendState). The variables
// that s shares with the state last returned by Decode are copied from that
// state's encoding instead of being encoded again, which makes encoding a
// successor cheap.
func (r *Runner) Encode(buf []byte, s State) []byte {
	m := r.m
	if r.last == nil || len(r.last) != len(s) {
		return m.AppendState(buf, s)
	}
	from := 0 // the start of a run of unchanged variables' bytes in lastKey
	for i := range m.vars {
		if same(s[i], r.last[i]) {
			continue
		}
		buf = append(buf, r.lastKey[from:r.offs[i]]...)
		buf = m.vars[i].enc(buf, s[i])
		from = r.offs[i+1]
	}
	return append(buf, r.lastKey[from:]...)
}

// EncodeOffs is Encode, or with d not nil EncodeDead, that also sets
// offs[i], for each state variable i, to the offset of the variable's
// encoding in the bytes it appends, and offs[n] to their length (offs has
// one entry more than the machine has variables).
func (r *Runner) EncodeOffs(buf []byte, s State, d *Dead, offs []int) []byte {
	m := r.m
	start := len(buf)
	fast := r.last != nil && len(r.last) == len(s)
	for i := range m.vars {
		offs[i] = len(buf) - start
		switch {
		case fast && same(s[i], r.last[i]) && (d == nil || d.sameControl(s, r.last, i)):
			buf = append(buf, r.lastKey[r.offs[i]:r.offs[i+1]]...)
		case d != nil:
			buf = d.appendVar(buf, s, i)
		default:
			buf = m.vars[i].enc(buf, s[i])
		}
	}
	offs[len(m.vars)] = len(buf) - start
	return buf
}

// Decode returns the state whose encoding (Machine.AppendState) is key; in
// scratch mode it lives in scratch memory.
func (r *Runner) Decode(key []byte) (s State, err error) {
	defer RecoverInternal(&err)
	if r.offs == nil {
		r.offs = make([]int, len(r.m.vars)+1)
	}
	r.d = dec{b: key, f: &r.g, offs: r.offs}
	r.last, r.lastKey = nil, nil
	s, err = r.m.decodeWith(&r.d)
	if err == nil {
		r.last, r.lastKey = s, key
	}
	return s, err
}
