// This file implements the structural hash of terms and the merging of
// their loose variables, both computed once per term by finish.

package logic

import "math/bits"

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// golden is 2^64 divided by the golden ratio: multiplying by it spreads
// a word's bits over the high ones (Fibonacci hashing).
const golden = 0x9e3779b97f4a7c15

// slotOf returns the slot of hash h in an open-addressing table of size
// slots, a power of two: the top bits of h times golden.
func slotOf(h uint64, size int) int {
	return int(h * golden >> (64 - bits.TrailingZeros(uint(size))))
}

// mix folds the word x into the hash h. Hashes of terms live only in
// memory (the tables of let-sharing, hoisting and lifting, lookups by structure),
// where a collision costs one structural comparison, so one multiply per
// word is enough.
func mix(h uint64, x uint64) uint64 {
	h = (h ^ x) * golden
	return h ^ h>>29
}

func mixString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return mix(h, uint64(len(s)))
}

// unionVars returns the union of ts' loose variables, sorted by name,
// one per name. Each loose list is sorted and free of repeated names, so
// the union is a merge; a term with one argument that has loose variables
// (the common case) shares that argument's list, which nothing modifies.
func unionVars(ts []*Term) []*Term {
	var out []*Term
	for _, a := range ts {
		switch {
		case len(a.loose) == 0:
		case out == nil:
			out = a.loose
		default:
			out = mergeVars(out, a.loose)
		}
	}
	return out
}

// mergeVars returns the union of a and b, both sorted by name and free of
// repeated names, likewise; a itself when b adds nothing to it.
func mergeVars(a, b []*Term) []*Term {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].name < b[j].name:
			i++
		case a[i].name == b[j].name:
			i, j = i+1, j+1
		default:
			i = len(a) + 1 // b has a name a lacks
		}
	}
	if i <= len(a) && j == len(b) {
		return a
	}
	out := make([]*Term, 0, len(a)+len(b))
	i, j = 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].name < b[j].name:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].name < a[i].name:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return out
}
