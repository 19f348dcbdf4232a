package nodestore

import (
	"fmt"
	"slices"
	"testing"
)

// TestStore inserts enough nodes to grow the hash table many times and to
// fill several arena chunks, and checks that every node is found again
// with its encoding and its path (node i's parent is i/2-1).
func TestStore(t *testing.T) {
	st := New()
	const n = 200000
	key := func(i int) []byte { return []byte(fmt.Sprintf("node-%d-%s", i, string(make([]byte, i%40)))) }
	for i := 0; i < n; i++ {
		k := key(i)
		parent := int32(i/2) - 1
		if i == 0 {
			parent = -1
		}
		id, isNew := st.Insert(k, st.Hash(k), parent)
		if !isNew || id != i {
			t.Fatalf("insert %d: id %d, new %v", i, id, isNew)
		}
	}
	if st.Len() != n {
		t.Fatalf("len %d", st.Len())
	}
	for _, i := range []int{0, 1, 77, n / 2, n - 1} {
		k := key(i)
		if id, isNew := st.Insert(k, st.Hash(k), 0); isNew || id != i {
			t.Fatalf("insert again %d: id %d, new %v", i, id, isNew)
		}
		if id := st.Find(k, st.Hash(k)); id != i {
			t.Fatalf("find %d: %d", i, id)
		}
		if !slices.Equal(st.Key(i), k) {
			t.Fatalf("key %d: %q", i, st.Key(i))
		}
	}
	if id := st.Find([]byte("absent"), st.Hash([]byte("absent"))); id != -1 {
		t.Fatalf("find absent: %d", id)
	}
	path := st.Path(10)
	if !slices.Equal(path, []int{1, 4, 10}) {
		t.Fatalf("path to 10: %v", path)
	}
	if st.Bytes() <= 0 {
		t.Fatal("no bytes counted")
	}
}

// TestBatch inserts batches of nodes through LookupBatch, AppendNode and
// ResolveBatch, shard by shard, and checks that the ids, the duplicates
// within a batch and the lookups afterwards equal those of a store filled
// by Insert in the same order; the last batch stops half way, and its
// unstored nodes are not found afterwards, nor confused with a later
// batch's nodes. The shards grow within batches, so that ResolveBatch
// meets pending slots that moved after LookupBatch placed them, but for
// every other batch, whose shards make room for it first (Room), and do
// not grow in LookupBatch; after the stopped batch every shard grows
// (Room) with its dead slots.
func TestBatch(t *testing.T) {
	seq, par := New(), NewSharded(4)
	if par.Shards() != 4 {
		t.Fatalf("%d shards", par.Shards())
	}
	key := func(i int) []byte { return []byte(fmt.Sprintf("n%d", i)) }
	next := 0
	run := func(batch []int, stop int, room bool) {
		keys := make([][]byte, len(batch))
		hs := make([]uint64, len(batch))
		idx := make([][]int32, par.Shards())
		for i, n := range batch {
			keys[i] = key(n)
			hs[i] = par.Hash(keys[i])
			sh := par.ShardOf(hs[i])
			idx[sh] = append(idx[sh], int32(i))
		}
		res, at := make([][]int64, par.Shards()), make([][]uint64, par.Shards())
		hash := func(i int) uint64 { return hs[i] }
		for sh := range idx {
			res[sh], at[sh] = make([]int64, len(idx[sh])), make([]uint64, len(idx[sh]))
			if room {
				par.Room(sh, len(idx[sh]))
			}
			size := len(par.tabs[sh].slots)
			par.LookupBatch(sh, idx[sh], func(i int) []byte { return keys[i] }, hash, res[sh], at[sh])
			if room && len(par.tabs[sh].slots) != size {
				t.Fatalf("shard %d grew in LookupBatch after Room", sh)
			}
		}
		ids := make([]int32, len(batch))
		cur := make([]int, par.Shards())
		for i := range batch {
			ids[i] = -1
			sh := par.ShardOf(hs[i])
			r := res[sh][cur[sh]]
			cur[sh]++
			if i >= stop {
				continue
			}
			want, wantNew := seq.Insert(keys[i], seq.Hash(keys[i]), int32(next))
			var id int
			isNew := false
			switch {
			case r >= 0:
				id = int(r)
			case r == -int64(i)-1:
				id, isNew = par.AppendNode(keys[i], int32(next)), true
				ids[i] = int32(id)
			default:
				id = int(ids[-r-1])
			}
			if id != want || isNew != wantNew {
				t.Fatalf("node %d (%s): id %d new %v, sequential %d %v", i, keys[i], id, isNew, want, wantNew)
			}
		}
		for sh := range idx {
			par.ResolveBatch(sh, idx[sh], hash, res[sh], at[sh], ids)
		}
		next++
	}
	var batch []int
	grown := 0 // the shards' slots, to tell that the table grew
	for i := 0; i < 30000; i++ {
		batch = append(batch, i, i/2, i%100) // new, repeated, and repeated within the batch
		if len(batch) >= 3000 {
			run(batch, len(batch), i%2 == 0)
			batch = batch[:0]
		}
	}
	run([]int{40000, 40001, 40002, 40003}, 2, false) // 40002 and 40003 are not stored
	for sh := range par.tabs {
		grown -= len(par.tabs[sh].slots)
		par.Room(sh, 1<<16)
		grown += len(par.tabs[sh].slots)
	}
	if grown == 0 {
		t.Fatal("Room(1<<16) grew no shard")
	}
	for _, n := range []int{0, 5, 29999, 40000, 40001} {
		if id, want := par.Find(key(n), par.Hash(key(n))), seq.Find(key(n), seq.Hash(key(n))); id != want || id < 0 {
			t.Fatalf("find %d: %d, sequential %d", n, id, want)
		}
	}
	for _, n := range []int{40002, 40003} {
		if id := par.Find(key(n), par.Hash(key(n))); id != -1 {
			t.Fatalf("find unstored %d: %d", n, id)
		}
	}
	run([]int{40003, 40002, 7}, 3, true)
	if par.Len() != seq.Len() {
		t.Fatalf("%d nodes, sequential %d", par.Len(), seq.Len())
	}
}
