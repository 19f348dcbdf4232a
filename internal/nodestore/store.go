// Package nodestore owns the visited-node store of ladder's searches (the
// explorer's states, the cross-checker's states, pairs and sets): encoded
// nodes in a chunked arena, indexed by an open-addressing hash table whose
// slots point straight at the records, so that a lookup costs one access
// to the table and one to the arena. Lookups compare full encodings: the
// store is exact, two nodes are the same only when their encodings are
// equal. Those two accesses are cache misses in a large store: lookups of
// a batch are pipelined, each asking the processor (memhint) for the
// slot and then the record of a lookup some places ahead.
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

	"ladder/internal/memhint"
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
	pendingBit = 1 << (locBits - 1)
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
	used   int     // bytes used of the last arena chunk
	tabs   []table // the shards of the hash table (one unless sharded)
	shift  uint    // a hash's shard is its top bits: h >> shift
}

// table is a shard of the hash table. A slot is 0 when empty, otherwise
// the hash's low 24 bits << 40 | location+1, where a location with
// pendingBit set is a node of the batch being inserted (batch.go). A
// shard doubles when more than three quarters of its slots are taken.
type table struct {
	slots []uint64
	mask  uint64
	n     int // occupied slots
	// padding: goroutines that look up different shards at once write
	// n, and do not share its cache line
	_ [88]byte
}

// full reports whether the shard must grow to take n more nodes: it
// doubles when more than three quarters of its slots would be taken.
func (t *table) full(n int) bool { return 4*(t.n+n) > 3*len(t.slots) }

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
	st.extend(id + 1)
	st.start[id/nodeChunk][id%nodeChunk] = loc
	st.parent[id/nodeChunk][id%nodeChunk] = parent
	st.n++
	return id
}

// extend makes the chunks of Store.start and parent hold ids below n.
// A chunk is nodeChunk entries long, but for the first, which grows to
// that length from a small one (small searches stay small); goroutines
// may then write the entries of different ids at once (Put).
func (st *Store) extend(n int) {
	for {
		c := len(st.start) - 1
		if c >= 0 && c*nodeChunk+len(st.start[c]) >= n {
			return
		}
		if c >= 0 && len(st.start[c]) < nodeChunk {
			size := min(nodeChunk, max(2*len(st.start[c]), n-c*nodeChunk))
			st.start[c] = append(st.start[c], make([]uint64, size-len(st.start[c]))...)
			st.parent[c] = append(st.parent[c], make([]int32, size-len(st.parent[c]))...)
			continue
		}
		size := nodeChunk
		if c < 0 {
			size = min(nodeChunk, max(n, 256))
		}
		start, parent := make([]uint64, size), make([]int32, size)
		memhint.Populate(start)
		memhint.Populate(parent)
		st.start = append(st.start, start)
		st.parent = append(st.parent, parent)
	}
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

// Prefetch asks for the table slots and records that inserting the keys
// with hashes hs will read, so that their cache misses overlap: first the
// slots, then, once a slot is read, the record it points at.
func (st *Store) Prefetch(hs []uint64) {
	for _, h := range hs {
		t := st.tab(h)
		memhint.At(t.slots, int(h&t.mask))
	}
	for _, h := range hs {
		st.prefetchRecord(st.tab(h), h)
	}
}

// prefetchRecord asks for the record that the first slot of hash h in
// shard t points at, when that slot may hold the node.
func (st *Store) prefetchRecord(t *table, h uint64) {
	if s := t.slots[h&t.mask]; s != 0 && s>>fragShift == h&fragMask && s&pendingBit == 0 {
		loc := s&locMask - 1
		memhint.At(st.chunks[loc>>chunkBits], int(loc&(chunkSize-1)))
	}
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
	if t.full(0) {
		st.grow(t)
	}
	return id, true
}

// append stores a record in the arena and returns its location.
func (st *Store) append(id int, key []byte) uint64 {
	r := st.Reserve(RecordSize(len(key)))
	return r.put(st, id, key)
}

// RecordSize returns the bytes of arena a node with an encoding of n
// bytes takes: its id, the encoding's length (a uvarint) and the encoding.
func RecordSize(n int) int {
	k := 1
	for v := n; v >= 0x80; v >>= 7 {
		k++
	}
	return 4 + k + n
}

// A Region is space of the arena reserved for records (Reserve).
type Region struct {
	c, off, end int
}

// Reserve reserves n bytes of the arena, in one chunk. Chunks are made at
// their full length, so that goroutines may fill different regions at
// once (Put).
func (st *Store) Reserve(n int) Region {
	last := len(st.chunks) - 1
	if last < 0 || len(st.chunks[last])-st.used < n {
		size := chunkSize
		if len(st.chunks) == 0 {
			size = 1 << 16 // small searches stay small
		}
		if n > size {
			// a record larger than a chunk: cannot be located; keys are far
			// smaller in practice, and such states are refused by the caller
			size = n
		}
		c := make([]byte, size)
		memhint.Populate(c)
		st.chunks = append(st.chunks, c)
		st.used = 0
		last++
	}
	r := Region{c: last, off: st.used, end: st.used + n}
	st.used += n
	return r
}

// put writes the record of node id at the start of r, which it advances,
// and returns the record's location.
func (r *Region) put(st *Store, id int, key []byte) uint64 {
	c := st.chunks[r.c][r.off:r.end]
	binary.LittleEndian.PutUint32(c, uint32(id))
	k := binary.PutUvarint(c[4:], uint64(len(key)))
	n := copy(c[4+k:], key)
	loc := uint64(r.c)<<chunkBits | uint64(r.off)
	r.off += 4 + k + n
	return loc
}

// Extend makes ids below n ready for Put; Commit then counts them.
func (st *Store) Extend(n int) { st.extend(n) }

// Put stores node id, with encoding key, reached from parent, in region
// r: its record, location and parent. Goroutines may Put different ids
// into different regions at once, between Extend and Commit, when
// nothing else uses the store; its table slot is set by ResolveBatch.
func (st *Store) Put(r *Region, id int, key []byte, parent int32) {
	st.start[id/nodeChunk][id%nodeChunk] = r.put(st, id, key)
	st.parent[id/nodeChunk][id%nodeChunk] = parent
}

// Commit counts the nodes below n, which Put stored, as stored.
func (st *Store) Commit(n int) { st.n = n }

// grow doubles a shard of the hash table. Slots keep 24 bits of their
// hash, which place them in tables of up to 2^24 slots without hashing
// keys again; larger tables rehash the keys (a batch's pending nodes by
// the hash that pendingHash gives).
func (st *Store) grow(t *table) { st.growWith(t, nil) }

func (st *Store) growWith(t *table, pendingHash func(p int) uint64) {
	slots := make([]uint64, 2*len(t.slots))
	memhint.Populate(slots)
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
			pos = pendingHash(int(s&locMask-1)&^pendingBit) & mask
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
// allocate when it is near (a shard is at least 60% full; it grows past
// 75%), else 0.
func (st *Store) PendingGrowth() int64 {
	var n int64
	for i := range st.tabs {
		t := &st.tabs[i]
		if 5*t.n >= 3*len(t.slots) {
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
	var n int64
	for _, c := range st.chunks {
		n += int64(len(c))
	}
	for _, c := range st.start {
		n += int64(len(c)) * 12
	}
	for i := range st.tabs {
		n += int64(len(st.tabs[i].slots)) * 8
	}
	return n
}

// maxKey is the largest state encoding the store accepts.
const MaxKey = chunkSize - 16

// MaxNodes is the most nodes a store holds (ids are int32).
const MaxNodes = 1<<31 - 2
