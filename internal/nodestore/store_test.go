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
