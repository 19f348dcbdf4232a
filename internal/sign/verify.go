package sign

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"ladder/internal/safeio"
	"ladder/internal/source"
)

// KeysFileName is the trusted keys file at the root of a repository.
const KeysFileName = "ladder-keys.txt"

// maxKeysFile bounds the size of a trusted keys file.
const maxKeysFile = 1 << 20

// The outcomes of Verify other than success (wrapped; test with errors.Is).
var (
	ErrUnsigned     = errors.New("unsigned record")
	ErrMalformed    = errors.New("malformed signature")
	ErrUnknownKey   = errors.New("signed by a key that is not trusted")
	ErrBadSignature = errors.New("bad signature")
)

// Verifier checks signatures against a set of trusted public keys. Build it
// with NewVerifier or LoadVerifier; it is safe for concurrent use once
// built (Add is not).
type Verifier struct {
	byID map[string][]PublicKey
}

// NewVerifier returns a Verifier trusting keys.
func NewVerifier(keys ...PublicKey) *Verifier {
	v := &Verifier{byID: map[string][]PublicKey{}}
	v.Add(keys...)
	return v
}

// Add trusts keys too (a key already trusted is skipped).
func (v *Verifier) Add(keys ...PublicKey) {
	for _, k := range keys {
		if len(k.Key) != ed25519.PublicKeySize {
			continue
		}
		id := KeyID(k.Key)
		k.ID = id
		dup := false
		for _, o := range v.byID[id] {
			dup = dup || o.Key.Equal(k.Key)
		}
		if !dup {
			v.byID[id] = append(v.byID[id], k)
		}
	}
}

// Keys returns the trusted keys, sorted by ID.
func (v *Verifier) Keys() []PublicKey {
	var out []PublicKey
	for _, ks := range v.byID {
		out = append(out, ks...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Trusts reports whether the key with this ID is trusted.
func (v *Verifier) Trusts(keyID string) bool { return len(v.byID[keyID]) > 0 }

// Verify checks that sig is a signature of record by a trusted key and
// returns that key's ID. Otherwise the error wraps ErrUnsigned,
// ErrMalformed, ErrUnknownKey or ErrBadSignature; the key ID is returned
// whenever sig names one.
func (v *Verifier) Verify(record, sig []byte) (keyID string, err error) {
	if len(sig) == 0 {
		return "", fmt.Errorf("sign: %w", ErrUnsigned)
	}
	id, raw, err := parseSignature(sig)
	if err != nil {
		return "", fmt.Errorf("sign: %w: %s", ErrMalformed, err)
	}
	keys := v.byID[id]
	if len(keys) == 0 {
		return id, fmt.Errorf("sign: %w: key %s", ErrUnknownKey, id)
	}
	msg := message(record)
	for _, k := range keys {
		if ed25519.Verify(k.Key, msg, raw) {
			return id, nil
		}
	}
	return id, fmt.Errorf("sign: %w: the signature by key %s does not match the record", ErrBadSignature, id)
}

// parseSignature splits "ladder-sig/v1 ID BASE64" and checks each part.
func parseSignature(sig []byte) (id string, raw []byte, err error) {
	parts := strings.Split(string(sig), " ")
	if len(parts) != 3 {
		return "", nil, fmt.Errorf("%d space-separated fields, want 3", len(parts))
	}
	if parts[0] != sigPrefix {
		return "", nil, fmt.Errorf("does not start with %q", sigPrefix)
	}
	id = parts[1]
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return "", nil, fmt.Errorf("the key ID is not 16 lowercase hex digits")
	}
	raw, err = decodeBase64(parts[2])
	if err != nil || len(raw) != ed25519.SignatureSize {
		return "", nil, fmt.Errorf("the signature is not the base64 of %d bytes", ed25519.SignatureSize)
	}
	return id, raw, nil
}

// ParsePublicKey parses one key, "ed25519:BASE64" and an optional comment
// after a space or tab (surrounding blanks are ignored).
func ParsePublicKey(line string) (PublicKey, error) {
	trimmed := strings.TrimLeft(line, " \t")
	k, col, msg := parseKeyLine(strings.TrimRight(trimmed, " \t\r"))
	if msg != "" {
		return PublicKey{}, fmt.Errorf("column %d: %s", col+len(line)-len(trimmed), msg)
	}
	return k, nil
}

// parseKeyLine parses a trimmed key line; on error it returns the 1-based
// byte column in s and a message.
func parseKeyLine(s string) (PublicKey, int, string) {
	field, comment := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		field, comment = s[:i], strings.TrimLeft(s[i:], " \t")
	}
	b64, ok := strings.CutPrefix(field, "ed25519:")
	if !ok {
		if i := strings.IndexByte(field, ':'); i > 0 {
			return PublicKey{}, 1, fmt.Sprintf("unknown key type %s (only ed25519 keys are supported: ed25519:BASE64)", source.Quote(field[:i]))
		}
		return PublicKey{}, 1, "expected a key, ed25519:BASE64"
	}
	const b64col = len("ed25519:") + 1
	raw, err := decodeBase64(b64)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return PublicKey{}, b64col + int(ce), "invalid base64 in the key"
		}
		return PublicKey{}, b64col, "invalid base64 in the key"
	}
	if len(raw) != ed25519.PublicKeySize {
		return PublicKey{}, b64col, fmt.Sprintf("key is %d bytes, want %d", len(raw), ed25519.PublicKeySize)
	}
	commentCol := len(s) - len(comment) + 1
	for i, r := range comment {
		if badCommentRune(r) {
			return PublicKey{}, commentCol + i, fmt.Sprintf("control character %s in the comment", source.Quote(string(r)))
		}
	}
	pub := ed25519.PublicKey(raw)
	return PublicKey{Key: pub, ID: KeyID(pub), Comment: comment}, 0, ""
}

// ParseKeys parses a trusted keys file (the format is in the package doc);
// name is the file name used in positions. It returns the keys of the
// lines that parse and, when some do not, a source.ErrorList whose errors
// read "name:line:col: message".
func ParseKeys(name string, data []byte) ([]PublicKey, error) {
	var keys []PublicKey
	var errs source.ErrorList
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(trimmed)
		pos := source.Pos{File: name, Line: i + 1}
		k, col, msg := parseKeyLine(strings.TrimRight(trimmed, " \t"))
		if msg != "" {
			pos.Col = indent + col
			errs.Add(pos, source.ErrSyntax, "%s", msg)
			continue
		}
		pos.Col = indent + 1
		k.Pos = pos.String()
		keys = append(keys, k)
	}
	return keys, errs.Err()
}

// ReadKeysFile reads and parses the trusted keys file path (a regular file
// of at most 1 MiB). A missing file gives no keys and an error wrapping
// fs.ErrNotExist.
func ReadKeysFile(path string) ([]PublicKey, error) {
	data, err := safeio.ReadFile(path, maxKeysFile)
	if err != nil {
		return nil, fmt.Errorf("sign: trusted keys: %w", err)
	}
	return ParseKeys(path, data)
}

// LoadVerifier returns a Verifier trusting own's key (when own is not nil)
// and the keys of the file keysFile (when not empty; a missing file adds
// nothing). A keys file that does not read or parse is an error, and no
// Verifier: a team's trust should not silently shrink to one key.
func LoadVerifier(own *Signer, keysFile string) (*Verifier, error) {
	v := NewVerifier()
	if own != nil {
		v.Add(own.PublicKey())
	}
	if keysFile == "" {
		return v, nil
	}
	keys, err := ReadKeysFile(keysFile)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	v.Add(keys...)
	return v, nil
}

// decodeBase64 decodes the standard, padded base64 encoding s, refusing
// every other spelling of the same bytes (the decoder of encoding/base64
// skips line breaks, and without Strict accepts nonzero trailing bits), so
// that a key or signature has exactly one text.
func decodeBase64(s string) ([]byte, error) {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return nil, base64.CorruptInputError(i)
	}
	return base64.StdEncoding.Strict().DecodeString(s)
}

// sealHeader starts a sealed record.
const sealHeader = "ladder-signed/v1\n"

// Open checks a sealed record (Signer.Seal) and returns the record and the
// signer's key ID. Data without the sealed header is ErrUnsigned; a header
// without a signature line is ErrMalformed; otherwise the errors are
// Verify's. The returned record aliases sealed.
func (v *Verifier) Open(sealed []byte) (record []byte, keyID string, err error) {
	rest, ok := bytes.CutPrefix(sealed, []byte(sealHeader))
	if !ok {
		return nil, "", fmt.Errorf("sign: %w (no %q header)", ErrUnsigned, strings.TrimSuffix(sealHeader, "\n"))
	}
	sig, record, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, "", fmt.Errorf("sign: %w: no line break after the signature", ErrMalformed)
	}
	if len(sig) == 0 {
		return nil, "", fmt.Errorf("sign: %w: empty signature line", ErrMalformed)
	}
	keyID, err = v.Verify(record, sig)
	if err != nil {
		return nil, keyID, err
	}
	return record, keyID, nil
}
