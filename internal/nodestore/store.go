// Package nodestore owns the visited-node store of ladder's searches (the
// explorer's states, the cross-checker's states, pairs and sets): encoded
// nodes in a chunked arena, indexed by an open-addressing hash table whose
// slots point straight at the records, so that a lookup costs one access
// to the table and one to the arena. Lookups compare full encodings: the
// store is exact, two nodes are the same only when their encodings are
// equal.
//
// A store made by NewSharded splits its table into shards by hash, so
// that several goroutines can look up and insert a batch of nodes at
// once, each in its own shards, while the ids stay those a sequential
// insertion in batch order gives (batch.go).
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
	// pendingBit marks a slot whose location is a batch index (batch.go);
	// the arena's locations stay below it (2^39 bytes).
	pendingBit   = 1 << (locBits - 1)
	pendingIndex = pendingBit // the bit to clear from location-1 to get the index
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
	// per node, in chunks of nodeChunk (growing them copies nothing):
	// the location of its record, and the node it was first reached
	// from, or -1
	start  [][]uint64
	parent [][]int32
	n      int     // nodes
	tabs   []table // the shards of the hash table (one unless sharded)
	shift  uint    // a hash's shard is its top bits: h >> shift
	sink   uint64  // defeats elimination of prefetching loads
}

// table is a shard of the hash table. A slot is 0 when empty, otherwise
// the hash's low 24 bits << 40 | location+1, where a location with
// pendingBit set is a node of the batch being inserted (batch.go).
type table struct {
	slots []uint64
	mask  uint64
	n     int // occupied slots
}

// New returns an empty store with one shard.
func New() *Store { return NewSharded(1) }

// NewSharded returns an empty store whose table has n shards (rounded up
// to a power of two, at most 64).
func NewSharded(n int) *Store {
	k := 0
	for 1<<k < n && k < 6 {
		k++
	}
	st := &Store{seed: maphash.MakeSeed(), tabs: make([]table, 1<<k), shift: 64}
	if k > 0 {
		st.shift = uint(64 - k)
	}
	for i := range st.tabs {
		st.tabs[i].slots = make([]uint64, 1<<12)
		st.tabs[i].mask = 1<<12 - 1
	}
	return st
}

// Shards returns the number of shards of the table.
func (st *Store) Shards() int { return len(st.tabs) }

// ShardOf returns the shard of a node with hash h.
func (st *Store) ShardOf(h uint64) int {
	if st.shift == 64 {
		return 0
	}
	return int(h >> st.shift)
}

func (st *Store) tab(h uint64) *table { return &st.tabs[st.ShardOf(h)] }

// Len returns the number of states.
func (st *Store) Len() int { return st.n }

// nodeChunk is the number of nodes per chunk of Store.start and parent.
const nodeChunk = 1 << 16

// loc returns the location of node id's record.
func (st *Store) loc(id int) uint64 { return st.start[id/nodeChunk][id%nodeChunk] }

// Parent returns the node id was first reached from, or -1.
func (st *Store) Parent(id int) int { return int(st.parent[id/nodeChunk][id%nodeChunk]) }

// add records a new node's location and parent and returns its id.
func (st *Store) add(loc uint64, parent int32) int {
	id := st.n
	if id%nodeChunk == 0 {
		st.start = append(st.start, make([]uint64, 0, nodeChunk))
		st.parent = append(st.parent, make([]int32, 0, nodeChunk))
	}
	c := id / nodeChunk
	st.start[c] = append(st.start[c], loc)
	st.parent[c] = append(st.parent[c], parent)
	st.n++
	return id
}

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
	_, k := st.record(st.loc(id))
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
		t := st.tab(h)
		s := t.slots[h&t.mask]
		slots[i] = s
		sink += s
	}
	for i, s := range slots {
		if s != 0 && (s>>fragShift) == hs[i]&fragMask && s&pendingBit == 0 {
			loc := s&locMask - 1
			sink += uint64(st.chunks[loc>>chunkBits][loc&(chunkSize-1)])
		}
	}
	st.sink += sink
}

// Find returns the id of the node with encoding key and hash h, or -1.
func (st *Store) Find(key []byte, h uint64) int {
	frag := h & fragMask
	t := st.tab(h)
	for pos := h & t.mask; ; pos = (pos + 1) & t.mask {
		s := t.slots[pos]
		if s == 0 {
			return -1
		}
		if s>>fragShift == frag && s&pendingBit == 0 {
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
	t := st.tab(h)
	pos := h & t.mask
	for {
		s := t.slots[pos]
		if s == 0 {
			break
		}
		if s>>fragShift == frag && s&pendingBit == 0 {
			id, k := st.record(s&locMask - 1)
			if bytes.Equal(k, key) {
				return id, false
			}
		}
		pos = (pos + 1) & t.mask
	}
	loc := st.append(st.n, key)
	id := st.add(loc, parent)
	t.slots[pos] = frag<<fragShift | (loc + 1)
	t.n++
	if 2*t.n > len(t.slots) {
		st.grow(t)
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

// grow doubles a shard of the hash table. Slots keep 24 bits of their
// hash, which place them in tables of up to 2^24 slots without hashing
// keys again; larger tables rehash the keys (a batch's pending nodes by
// the hash that pendingHash gives).
func (st *Store) grow(t *table) { st.growWith(t, nil) }

func (st *Store) growWith(t *table, pendingHash func(p int) uint64) {
	slots := make([]uint64, 2*len(t.slots))
	mask := uint64(len(slots) - 1)
	for _, s := range t.slots {
		if s == 0 {
			continue
		}
		var pos uint64
		switch {
		case mask <= fragMask:
			pos = s >> fragShift & mask
		case s&pendingBit != 0:
			pos = pendingHash(int(s&locMask-1)&^pendingIndex) & mask
		default:
			_, k := st.record(s&locMask - 1)
			pos = st.Hash(k) & mask
		}
		for slots[pos] != 0 {
			pos = (pos + 1) & mask
		}
		slots[pos] = s
	}
	t.slots, t.mask = slots, mask
}

// PendingGrowth returns the bytes the next growth of the hash table will
// allocate when it is near (a shard is at least 40% full), else 0.
func (st *Store) PendingGrowth() int64 {
	var n int64
	for i := range st.tabs {
		t := &st.tabs[i]
		if 5*t.n >= 2*len(t.slots) {
			n += 16 * int64(len(t.slots))
		}
	}
	return n
}

// Path returns the ids from a start state to id.
func (st *Store) Path(id int) []int {
	var p []int
	for id >= 0 {
		p = append(p, id)
		id = st.Parent(id)
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// Bytes returns the memory the store holds, approximately.
func (st *Store) Bytes() int64 {
	n := int64(len(st.chunks)) * chunkSize
	n += int64(len(st.start)) * nodeChunk * 12
	for i := range st.tabs {
		n += int64(len(st.tabs[i].slots)) * 8
	}
	return n
}

// maxKey is the largest state encoding the store accepts.
const MaxKey = chunkSize - 16

// MaxNodes is the most nodes a store holds (ids are int32).
const MaxNodes = 1<<31 - 2
