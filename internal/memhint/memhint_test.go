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
