// Package nodestore owns the visited-node store of ladder's searches (the
// explorer's states, the cross-checker's states, pairs and sets): encoded
// nodes in a chunked arena, indexed by an open-addressing hash table whose
// slots point straight at the records, so that a lookup costs one access
// to the table and one to the arena. Lookups compare full encodings: the
// store is exact, two nodes are the same only when their encodings are
// equal.
package nodestore

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

const (
	chunkBits = 22 // Bytes per arena chunk: 4 MiB
	chunkSize = 1 << chunkBits
	locBits   = 40             // a record's location: chunk<<chunkBits | offset
	locMask   = 1<<locBits - 1 // the location bits of a slot
	fragShift = locBits        // a slot's upper bits hold a hash fragment
	fragMask  = 1<<(64-locBits) - 1
)

// Store holds every visited node's encoding and parent. It is not safe
// for concurrent use, except that key may be called concurrently when
// nothing is inserted.
//
// A record is the state's id (4 bytes, little-endian), the length of its
// encoding (uvarint) and the encoding. A slot is 0 when empty, otherwise
// the hash's low 24 bits << 40 | location+1.
type Store struct {
	seed   maphash.Seed
	chunks [][]byte
	start  []uint64 // per state: the location of its record
	parent []int32  // per state: the state it was first reached from, or -1
	slots  []uint64
	mask   uint64
	sink   uint64 // defeats elimination of prefetching loads
}

func New() *Store {
	st := &Store{seed: maphash.MakeSeed()}
	st.slots = make([]uint64, 1<<12)
	st.mask = uint64(len(st.slots) - 1)
	return st
}

// Len returns the number of states.
func (st *Store) Len() int { return len(st.start) }

// Hash returns the hash of an encoded state.
func (st *Store) Hash(key []byte) uint64 { return maphash.Bytes(st.seed, key) }

// record returns the id and encoding of the record at loc.
func (st *Store) record(loc uint64) (int, []byte) {
	c := st.chunks[loc>>chunkBits]
	off := int(loc & (chunkSize - 1))
	id := int(binary.LittleEndian.Uint32(c[off:]))
	off += 4
	n := int(c[off])
	if n < 0x80 {
		off++
	} else {
		u, k := binary.Uvarint(c[off:])
		n, off = int(u), off+k
	}
	return id, c[off : off+n]
}

// Key returns the encoding of state id.
func (st *Store) Key(id int) []byte {
	_, k := st.record(st.start[id])
	return k
}

// Prefetch touches the table slots and records that inserting the keys
// with hashes hs will read, so that their cache misses overlap.
func (st *Store) Prefetch(hs []uint64) {
	var sink uint64
	var buf [16]uint64
	if len(hs) > len(buf) {
		hs = hs[:len(buf)]
	}
	slots := buf[:len(hs)]
	for i, h := range hs {
		s := st.slots[h&st.mask]
		slots[i] = s
		sink += s
	}
	for i, s := range slots {
		if s != 0 && (s>>fragShift) == hs[i]&fragMask {
			loc := s&locMask - 1
			sink += uint64(st.chunks[loc>>chunkBits][loc&(chunkSize-1)])
		}
	}
	st.sink += sink
}

// Find returns the id of the node with encoding key and hash h, or -1.
func (st *Store) Find(key []byte, h uint64) int {
	frag := h & fragMask
	for pos := h & st.mask; ; pos = (pos + 1) & st.mask {
		s := st.slots[pos]
		if s == 0 {
			return -1
		}
		if s>>fragShift == frag {
			if id, k := st.record(s&locMask - 1); bytes.Equal(k, key) {
				return id
			}
		}
	}
}

// Insert adds the state with encoding key and hash h, reached from parent,
// unless it is present; it returns the state's id and whether it is new.
func (st *Store) Insert(key []byte, h uint64, parent int32) (int, bool) {
	frag := h & fragMask
	pos := h & st.mask
	for {
		s := st.slots[pos]
		if s == 0 {
			break
		}
		if s>>fragShift == frag {
			id, k := st.record(s&locMask - 1)
			if bytes.Equal(k, key) {
				return id, false
			}
		}
		pos = (pos + 1) & st.mask
	}
	id := len(st.start)
	loc := st.append(id, key)
	st.slots[pos] = frag<<fragShift | (loc + 1)
	st.start = append(st.start, loc)
	st.parent = append(st.parent, parent)
	if 2*len(st.start) > len(st.slots) {
		st.grow()
	}
	return id, true
}

// append stores a record in the arena and returns its location.
func (st *Store) append(id int, key []byte) uint64 {
	need := 4 + binary.MaxVarintLen64 + len(key)
	last := len(st.chunks) - 1
	if last < 0 || cap(st.chunks[last])-len(st.chunks[last]) < need {
		size := chunkSize
		if len(st.chunks) == 0 {
			size = 1 << 16 // small searches stay small
		}
		if need > size {
			// a record larger than a chunk: cannot be located; keys are far
			// smaller in practice, and such states are refused by the caller
			size = need
		}
		st.chunks = append(st.chunks, make([]byte, 0, size))
		last++
	}
	c := st.chunks[last]
	loc := uint64(last)<<chunkBits | uint64(len(c))
	c = binary.LittleEndian.AppendUint32(c, uint32(id))
	c = binary.AppendUvarint(c, uint64(len(key)))
	st.chunks[last] = append(c, key...)
	return loc
}

// grow doubles the hash table. Slots keep 24 bits of their hash, which
// place them in tables of up to 2^24 slots without hashing keys again;
// larger tables rehash the keys.
func (st *Store) grow() {
	slots := make([]uint64, 2*len(st.slots))
	mask := uint64(len(slots) - 1)
	for _, s := range st.slots {
		if s == 0 {
			continue
		}
		var pos uint64
		if mask <= fragMask {
			pos = s >> fragShift & mask
		} else {
			_, k := st.record(s&locMask - 1)
			pos = st.Hash(k) & mask
		}
		for slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		slots[pos] = s
	}
	st.slots, st.mask = slots, mask
}

// PendingGrowth returns the bytes the next growth of the hash table will
// allocate when it is near (the table is at least 40% full), else 0.
func (st *Store) PendingGrowth() int64 {
	if 5*len(st.start) < 2*len(st.slots) {
		return 0
	}
	return 16 * int64(len(st.slots))
}

// Path returns the ids from a start state to id.
func (st *Store) Path(id int) []int {
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

// Bytes returns the memory the store holds, approximately.
func (st *Store) Bytes() int64 {
	n := int64(len(st.chunks)) * chunkSize
	n += int64(cap(st.start))*8 + int64(cap(st.parent))*4 + int64(len(st.slots))*8
	return n
}

// maxKey is the largest state encoding the store accepts.
const MaxKey = chunkSize - 16

// MaxNodes is the most nodes a store holds (ids are int32).
const MaxNodes = 1<<31 - 2
