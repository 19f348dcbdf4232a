package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"sort"
	"strconv"
	"strings"
)

// keyDomain separates obligation keys from any other SHA-256 use and names
// the key-derivation scheme; bump it if the encoding in KeyOf ever changes.
const keyDomain = "ladder-obligation-key/v1"

// SolverID identifies the exact solver configuration an obligation was
// checked under. Every field takes part in the obligation key, so a result is
// reused only under an identical configuration.
type SolverID struct {
	// Name is the solver's name, e.g. "z3".
	Name string
	// Version is the solver's full version string, e.g. "4.13.0".
	Version string
	// Params is the canonical rendering of every parameter that can change
	// the verdict: random seed, resource limit, timeout, encoding version.
	// CanonicalParams builds it from a map in a deterministic order.
	Params string
}

// String returns the canonical form of id: each field quoted with
// strconv.Quote, so the rendering is injective, single-line and stable.
// It appears in snapshot headers and in Result.Solver.
func (id SolverID) String() string {
	return "name=" + strconv.Quote(id.Name) +
		" version=" + strconv.Quote(id.Version) +
		" params=" + strconv.Quote(id.Params)
}

// CanonicalParams renders solver parameters in a canonical, injective form:
// keys sorted, each key and value quoted, pairs separated by single spaces.
// Two maps with equal contents always give the same string.
func CanonicalParams(params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte('=')
		b.WriteString(strconv.Quote(params[k]))
	}
	return b.String()
}

// KeyOf returns the cache key of an obligation: the lowercase hex SHA-256 of
// the canonical obligation text exactly as sent to the solver together with
// the solver's name, version and parameters. Each component is
// length-prefixed, so distinct inputs can never be concatenated into the same
// byte stream.
func KeyOf(text string, solver SolverID) string {
	h := sha256.New()
	writeField(h, keyDomain)
	writeField(h, text)
	writeField(h, solver.Name)
	writeField(h, solver.Version)
	writeField(h, solver.Params)
	return hex.EncodeToString(h.Sum(nil))
}

func writeField(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	h.Write([]byte(s))
}

// validKey reports whether k has the shape KeyOf produces: 64 lowercase hex
// digits.
func validKey(k string) bool {
	if len(k) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
