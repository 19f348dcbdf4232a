package sign_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"ladder/internal/sign"
)

func Example() {
	dir, _ := os.MkdirTemp("", "ladder-sign-example")
	defer os.RemoveAll(dir)

	// The user's key, created on first use (here with fixed randomness, so
	// that the output is fixed; leave Rand nil for crypto/rand).
	s, err := sign.OpenSigner(sign.Config{
		Dir:     filepath.Join(dir, "ladder"),
		Getenv:  func(string) string { return "" },
		Rand:    bytes.NewReader(make([]byte, 32)),
		Comment: "alice@laptop",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", s.Created())
	fmt.Println(s.PublicKeyLine())

	// A verifier trusting the own key and those of ladder-keys.txt (none here).
	v, err := sign.LoadVerifier(s, filepath.Join(dir, sign.KeysFileName))
	if err != nil {
		fmt.Println(err)
		return
	}
	record := []byte("a record")
	sig := s.Sign(record)
	fmt.Println(string(sig[:30]), "…")
	id, err := v.Verify(record, sig)
	fmt.Println(id, err)
	_, err = v.Verify([]byte("another record"), sig)
	fmt.Println(errors.Is(err, sign.ErrBadSignature))
	// Output:
	// created: true
	// ed25519:O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik= alice@laptop
	// ladder-sig/v1 139e3940e64b5491 …
	// 139e3940e64b5491 <nil>
	// true
}
