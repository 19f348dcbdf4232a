// This file implements the insertion of a batch of nodes by several
// goroutines: each looks up the nodes of its own shards (LookupBatch),
// leaving a pending slot for each node the store does not hold; then the
// new nodes are stored with the ids a sequential insertion in batch order
// gives them, by one goroutine (AppendNode) or by several, each into an
// arena region reserved for it (Reserve, Extend, Put, Commit in
// store.go); then each goroutine points its shards' pending slots at the
// records (ResolveBatch).

package nodestore

import (
	"bytes"

	"ladder/internal/memhint"
)

// deadField is the location field of a pending slot whose node was not
// stored (a search stopped within the batch): its index is beyond every
// batch, so it matches nothing.
const deadField = pendingBit | (pendingBit - 1)

// LookupBatch looks up, in shard sh, the nodes of a batch whose indexes
// idx lists in increasing order (each with ShardOf(hash(i)) == sh; node
// i's encoding is key(i)), and sets res[j], for i = idx[j], to the node's
// id when the store holds it, or else to -(p+1) for p the first index of
// the batch with the same encoding (p = i for the first, which gets a
// pending slot, whose place in the shard's table it writes to at[j], for
// ResolveBatch). Goroutines may look up different shards at once when
// nothing else uses the store; each writes only its own res and at.
func (st *Store) LookupBatch(sh int, idx []int32, key func(i int) []byte, hash func(i int) uint64, res []int64, at []uint64) {
	t := &st.tabs[sh]
	pendingHash := func(p int) uint64 {
		if p < pendingBit-2 {
			return hash(p)
		}
		return 0 // a dead slot: any place will do
	}
	// the lookups are pipelined: the slot of lookup j+ahead and the
	// record of lookup j+ahead/2 are prefetched while lookup j is done
	const ahead, ring = 16, 32
	var hs [ring]uint64
	for q := 0; q < min(ahead, len(idx)); q++ {
		hs[q] = hash(int(idx[q]))
		memhint.At(t.slots, int(hs[q]&t.mask))
	}
	for j, i32 := range idx {
		if q := j + ahead; q < len(idx) {
			hs[q%ring] = hash(int(idx[q]))
			memhint.At(t.slots, int(hs[q%ring]&t.mask))
		}
		if q := j + ahead/2; q < len(idx) {
			st.prefetchRecord(t, hs[q%ring])
		}
		i := int(i32)
		h := hs[j%ring]
		var k []byte
		frag := h & fragMask
		pos := h & t.mask
		res[j] = -int64(i) - 1
		for {
			s := t.slots[pos]
			if s == 0 {
				t.slots[pos] = frag<<fragShift | (pendingBit | uint64(i)) + 1
				at[j] = pos
				t.n++
				if t.full(0) {
					st.growWith(t, pendingHash)
				}
				break
			}
			if s>>fragShift == frag {
				if k == nil {
					k = key(i)
				}
				loc := s&locMask - 1
				if s&pendingBit == 0 {
					if id, rk := st.record(loc); bytes.Equal(rk, k) {
						res[j] = int64(id)
						break
					}
				} else if p := int(loc &^ pendingBit); p < i && bytes.Equal(key(p), k) {
					res[j] = -int64(p) - 1
					break
				}
			}
			pos = (pos + 1) & t.mask
		}
	}
}

// Room grows shard sh, when need be, so that n more nodes fit it without
// its growing: LookupBatch of a batch with n nodes in the shard then does
// not grow it. The shards of a store fill alike (the hash spreads the
// nodes evenly), so the goroutines that make room for their shards of a
// batch grow them at about the same batch, side by side, rather than one
// of them growing its own while the others wait for it.
func (st *Store) Room(sh, n int) {
	t := &st.tabs[sh]
	for t.full(n) {
		// no slot is pending between batches; a dead one (a search that
		// stopped within a batch) may go anywhere
		st.growWith(t, func(int) uint64 { return 0 })
	}
}

// AppendNode stores node key, reached from parent, with the next id, and
// returns the id; its table slot is set by ResolveBatch.
func (st *Store) AppendNode(key []byte, parent int32) int {
	return st.add(st.append(st.n, key), parent)
}

// ResolveBatch points the pending slot of each first occurrence i =
// idx[j] (res[j] == -(i+1)), in shard sh, at the record of node ids[i],
// or, when ids[i] < 0 (the node was not stored), makes it a slot that
// matches nothing. The slot is at at[j], where LookupBatch put it, unless
// the shard grew after that: it is then looked for from its hash.
// Goroutines may resolve different shards at once.
func (st *Store) ResolveBatch(sh int, idx []int32, hash func(i int) uint64, res []int64, at []uint64, ids []int32) {
	t := &st.tabs[sh]
	const ahead = 16
	for j, i32 := range idx {
		if q := j + ahead; q < len(idx) && res[q] == -int64(idx[q])-1 {
			memhint.At(t.slots, int(at[q]&t.mask))
		}
		i := int(i32)
		if res[j] != -int64(i)-1 {
			continue
		}
		want := (pendingBit | uint64(i)) + 1
		pos := at[j] & t.mask
		if t.slots[pos]&locMask != want {
			// the slot moved when the shard grew
			for pos = hash(i) & t.mask; t.slots[pos]&locMask != want; pos = (pos + 1) & t.mask {
			}
		}
		s := t.slots[pos]
		if id := ids[i]; id >= 0 {
			t.slots[pos] = s&^locMask | (st.loc(int(id)) + 1)
		} else {
			t.slots[pos] = s&^locMask | deadField
		}
	}
}
