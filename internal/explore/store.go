// This file implements the visited-state store: encoded states in a chunked
// arena, indexed by an open-addressing hash table.

package explore

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

const chunkSize = 1 << 22 // bytes per arena chunk

// store holds every visited state's encoding and parent. It is not safe
// for concurrent use.
type store struct {
	seed   maphash.Seed
	chunks [][]byte
	start  []uint64 // per state: chunk<<32 | offset of its length-prefixed key
	parent []int32  // per state: the state it was first reached from, or -1
	slots  []uint64 // 0: empty; else the hash's low 32 bits << 32 | id+1
	mask   uint64   // len(slots)-1; a state's home slot is its hash & mask
}

func newStore() *store {
	st := &store{seed: maphash.MakeSeed()}
	st.slots = make([]uint64, 1<<12)
	st.mask = uint64(len(st.slots) - 1)
	return st
}

// len returns the number of states.
func (st *store) len() int { return len(st.start) }

// hash returns the hash of an encoded state.
func (st *store) hash(key []byte) uint64 { return maphash.Bytes(st.seed, key) }

// key returns the encoding of state id.
func (st *store) key(id int) []byte {
	s := st.start[id]
	c := st.chunks[s>>32]
	off := int(uint32(s))
	n, k := binary.Uvarint(c[off:])
	off += k
	return c[off : off+int(n)]
}

// insert adds the state with encoding key and hash h, reached from parent,
// unless it is present; it returns the state's id and whether it is new.
func (st *store) insert(key []byte, h uint64, parent int32) (int, bool) {
	frag := h & 0xffffffff
	pos := h & st.mask
	for {
		s := st.slots[pos]
		if s == 0 {
			break
		}
		if s>>32 == frag {
			id := int(uint32(s)) - 1
			if bytes.Equal(st.key(id), key) {
				return id, false
			}
		}
		pos = (pos + 1) & st.mask
	}
	id := len(st.start)
	st.slots[pos] = frag<<32 | uint64(id+1)
	st.append(key)
	st.parent = append(st.parent, parent)
	if 2*len(st.start) > len(st.slots) {
		st.grow()
	}
	return id, true
}

// append stores a key in the arena.
func (st *store) append(key []byte) {
	need := binary.MaxVarintLen64 + len(key)
	last := len(st.chunks) - 1
	if last < 0 || cap(st.chunks[last])-len(st.chunks[last]) < need {
		size := chunkSize
		if need > size {
			size = need
		}
		st.chunks = append(st.chunks, make([]byte, 0, size))
		last++
	}
	c := st.chunks[last]
	st.start = append(st.start, uint64(last)<<32|uint64(len(c)))
	c = binary.AppendUvarint(c, uint64(len(key)))
	st.chunks[last] = append(c, key...)
}

// grow doubles the hash table. The slots keep the low 32 bits of each
// hash, which give the home slot in tables of up to 2^32 slots, so no key is
// hashed again.
func (st *store) grow() {
	slots := make([]uint64, 2*len(st.slots))
	mask := uint64(len(slots) - 1)
	for _, s := range st.slots {
		if s == 0 {
			continue
		}
		pos := s >> 32 & mask
		for slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		slots[pos] = s
	}
	st.slots, st.mask = slots, mask
}

// path returns the ids from a start state to id.
func (st *store) path(id int) []int {
	var p []int
	for id >= 0 {
		p = append(p, id)
		id = int(st.parent[id])
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// bytes returns the memory the store holds, approximately.
func (st *store) bytes() int64 {
	n := int64(len(st.chunks)) * chunkSize
	n += int64(cap(st.start))*8 + int64(cap(st.parent))*4 + int64(len(st.slots))*8
	return n
}
