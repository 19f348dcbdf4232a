package memhint

import "testing"

// TestAt asks for elements of slices of several element sizes, the first
// and the last included, and checks that an index out of range panics
// like an ordinary index rather than prefetching outside the slice.
func TestAt(t *testing.T) {
	b := make([]byte, 100)
	w := make([]uint64, 1<<16)
	type rec [3]int64 // an element of 24 bytes
	r := make([]rec, 7)
	for _, i := range []int{0, 1, 63, 64, 99} {
		At(b, i)
	}
	At(w, 0)
	At(w, len(w)-1)
	At(r, 6)
	if b[99] != 0 || w[len(w)-1] != 0 || r[6] != (rec{}) {
		t.Fatal("a prefetch changed memory")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("At(s, len(s)) did not panic")
		}
	}()
	At(b, len(b))
}

// TestPopulate populates fresh slices (a large one, an empty one, one
// smaller than a page and one that starts inside a page) and one whose
// elements are set, and checks that no element changed and that the
// slices are still written and read as usual.
func TestPopulate(t *testing.T) {
	big := make([]uint64, 1<<20)
	Populate(big)
	Populate([]int32{})
	small := make([]byte, 100)
	Populate(small)
	inner := make([]byte, 3<<12)[17 : 2<<12]
	Populate(inner)
	set := make([]int64, 5000)
	for i := range set {
		set[i] = int64(i)*7 - 3
	}
	Populate(set)
	for i, v := range big {
		if v != 0 {
			t.Fatalf("big[%d] = %d after Populate", i, v)
		}
	}
	for i, v := range set {
		if v != int64(i)*7-3 {
			t.Fatalf("set[%d] = %d after Populate", i, v)
		}
	}
	for _, s := range [][]byte{small, inner} {
		for i := range s {
			if s[i] != 0 {
				t.Fatalf("a populated byte is %d", s[i])
			}
			s[i] = byte(i)
		}
		for i := range s {
			if s[i] != byte(i) {
				t.Fatalf("byte %d reads %d", i, s[i])
			}
		}
	}
	big[len(big)-1] = 42
	if big[len(big)-1] != 42 {
		t.Fatal("a populated slice is not written")
	}
}
