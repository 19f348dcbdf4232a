// This file implements the memory a prover keeps of the unit records it
// decoded or wrote, so that a watcher's run reads and decodes only the
// records that changed since its last run.

package driver

import (
	"hash/maphash"
	"sync"
)

// recordMemo holds the unit records a prover decoded or wrote, by unit,
// with a hash of the file content each was decoded from or written as, and
// the stamp the file had then (stampOf). A later Plan of the same prover
// takes the record, and the kernel's admissions of its verdicts, instead
// of unsealing and decoding them again: without reading the file when its
// stamp is unchanged, else when it reads the same bytes. A watcher's run
// after an edit then costs, for each unchanged unit, a stat of its record
// file.
//
// Only a record this prover unsealed and checked, or wrote and would
// believe, is ever given back: neither a stamp nor a hash decides what is
// believed, only whether the file must be read again. A file changed
// without a change of stamp (which a write cannot do: it sets the change
// time) would only leave the prover with the record it read before, whose
// verdicts restoreFrom admits again against the current files. The hash is
// hash/maphash with a seed of the prover's own, which no file can be made
// to collide with. The zero value is ready to use; it is safe for
// concurrent use.
type recordMemo struct {
	mu   sync.Mutex
	seed maphash.Seed
	init bool
	by   map[string]memoRecord
}

type memoRecord struct {
	sum   uint64
	stamp fileStamp
	rec   *unitRecord
}

// hash returns the memo's hash of a record file's content.
func (m *recordMemo) hash(data []byte) uint64 {
	m.mu.Lock()
	if !m.init {
		m.seed, m.init = maphash.MakeSeed(), true
	}
	seed := m.seed
	m.mu.Unlock()
	return maphash.Bytes(seed, data)
}

// get returns the record decoded from content with hash sum for unit, if
// there is one.
func (m *recordMemo) get(unit string, sum uint64) (*unitRecord, bool) {
	return m.find(unit, func(r memoRecord) bool { return r.sum == sum })
}

// stamped returns the record of unit if its file had the stamp st when it
// was read or written; never for the zero stamp.
func (m *recordMemo) stamped(unit string, st fileStamp) (*unitRecord, bool) {
	return m.find(unit, func(r memoRecord) bool { return st != fileStamp{} && r.stamp == st })
}

// find returns the record kept for unit if match accepts it.
func (m *recordMemo) find(unit string, match func(memoRecord) bool) (*unitRecord, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.by[unit]
	if !ok || !match(r) {
		return nil, false
	}
	return r.rec, true
}

// put records rec as decoded from, or written as, the content with hash
// sum for unit, whose file had the stamp st.
func (m *recordMemo) put(unit string, sum uint64, st fileStamp, rec *unitRecord) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by = map[string]memoRecord{}
	}
	m.by[unit] = memoRecord{sum: sum, stamp: st, rec: rec}
}
