package sign

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"strings"
	"testing"
)

// FuzzUntrusted feeds arbitrary bytes to what reads untrusted input: a
// sealed entry from a remote cache (Open, hence Verify) and a trusted keys
// file from a repository (ParseKeys). Neither may panic; Open accepts only
// entries sealed by the trusted key, and every error of ParseKeys has a
// position.
func FuzzUntrusted(f *testing.F) {
	s := newSigner(ed25519.NewKeyFromSeed(make([]byte, 32)), "fuzz", "")
	v := NewVerifier(s.PublicKey())
	sealed := s.Seal([]byte("record"))
	f.Add(sealed)
	f.Add(sealed[:len(sealed)-1])
	f.Add([]byte("ladder-signed/v1\nladder-sig/v1 0000000000000000 AAAA\nx"))
	f.Add([]byte("# keys\n" + s.PublicKeyLine() + "\n rsa:AAAA x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, id, err := v.Open(data)
		if err == nil {
			if id != s.KeyID() || !bytes.Equal(s.Seal(rec), data) {
				t.Fatalf("Open accepted %q as %q by %s", data, rec, id)
			}
		} else if !errors.Is(err, ErrUnsigned) && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnknownKey) && !errors.Is(err, ErrBadSignature) {
			t.Fatalf("Open error of no known kind: %v", err)
		}
		keys, err := ParseKeys("k.txt", data)
		for _, k := range keys {
			if len(k.Key) != ed25519.PublicKeySize || k.ID != KeyID(k.Key) || !strings.HasPrefix(k.Pos, "k.txt:") {
				t.Fatalf("bad key %+v", k)
			}
		}
		if err != nil && !strings.HasPrefix(err.Error(), "k.txt:") {
			t.Fatalf("error without a position: %v", err)
		}
	})
}
