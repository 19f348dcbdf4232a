package sign

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"ladder/internal/safeio"
)

// Domain is the prefix of every signed message: a signature binds
// Domain followed by the record's bytes.
const Domain = "ladder-record/v1\x00"

// KeyFileEnv is the environment variable naming a provisioned key file
// (CI's, from a secret); see Config.
const KeyFileEnv = "LADDER_KEY_FILE"

// DefaultKeyName is the name of the key file in its directory.
const DefaultKeyName = "signing-key"

// sigPrefix starts every signature.
const sigPrefix = "ladder-sig/v1"

// keyFileHeader is the first line of a key file.
const keyFileHeader = "ladder-signing-key/v1"

// maxKeyFile bounds the size of a key file that is read.
const maxKeyFile = 4096

// The errors of opening a key file (wrapped, with the file and what to do).
var (
	ErrKeyPermissions = errors.New("key file permissions are too open")
	ErrCorruptKey     = errors.New("corrupt key file")
	ErrNoKey          = errors.New("no key file")
)

// Config says where a Signer's key lives. The zero Config is the user's
// default key, created on first use.
type Config struct {
	// KeyFile, when not empty, is the key file; it must exist.
	KeyFile string
	// Dir is the directory of the default key file Dir/signing-key, created
	// with the key on first use; empty means os.UserConfigDir()/ladder.
	// Tests set it to t.TempDir().
	Dir string
	// Getenv reads LADDER_KEY_FILE when KeyFile is empty; nil means
	// os.Getenv. Tests set a function that returns "".
	Getenv func(string) string
	// Rand is the randomness of a new key; nil means crypto/rand.Reader.
	Rand io.Reader
	// Comment is the comment of a new key's public line; empty means
	// user@host.
	Comment string
}

// KeyPath returns the key file cfg designates and whether it was named
// explicitly (Config.KeyFile or LADDER_KEY_FILE), in which case it must
// exist, rather than being the default location, created on first use.
func (cfg Config) KeyPath() (path string, explicit bool, err error) {
	if cfg.KeyFile != "" {
		return cfg.KeyFile, true, nil
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if p := getenv(KeyFileEnv); p != "" {
		return p, true, nil
	}
	dir := cfg.Dir
	if dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", false, fmt.Errorf("sign: no directory for the signing key (%v); set %s", err, KeyFileEnv)
		}
		dir = filepath.Join(base, "ladder")
	}
	return filepath.Join(dir, DefaultKeyName), false, nil
}

// PublicKey is a trusted or own public key.
type PublicKey struct {
	Key     ed25519.PublicKey // 32 bytes
	ID      string            // KeyID(Key)
	Comment string            // free text after the key, "" if none
	Pos     string            // "file:line:col" where it was read, "" for an own key
}

// Line returns the key's line of a trusted keys file:
// "ed25519:BASE64 comment" (without the space when the comment is empty).
func (k PublicKey) Line() string {
	s := "ed25519:" + base64.StdEncoding.EncodeToString(k.Key)
	if k.Comment != "" {
		s += " " + k.Comment
	}
	return s
}

// KeyID returns the ID of a public key: the first 16 lowercase hex digits
// of the SHA-256 of its bytes.
func KeyID(pub ed25519.PublicKey) string {
	h := sha256.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// Signer signs records with one private key. It is safe for concurrent use.
type Signer struct {
	priv    ed25519.PrivateKey
	pub     PublicKey
	path    string
	created bool
}

// OpenSigner opens the key cfg designates (see Config.KeyPath), creating
// the default one when it does not exist yet. Errors wrap ErrNoKey (an
// explicit key file that does not exist), ErrKeyPermissions or
// ErrCorruptKey, and name the file.
func OpenSigner(cfg Config) (*Signer, error) {
	path, explicit, err := cfg.KeyPath()
	if err != nil {
		return nil, err
	}
	if explicit {
		s, err := readKeyFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("sign: %w: %s does not exist (create a key with sign.NewKeyFile, `ladder key --new FILE`)", ErrNoKey, path)
		}
		return s, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sign: creating the key directory: %w", err)
	}
	if err := checkDir(dir); err != nil {
		return nil, err
	}
	s, err := readKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	s, err = NewKeyFile(path, cfg)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it first: use theirs.
		return readKeyFile(path)
	}
	return s, err
}

// NewKeyFile creates a new key pair in the file path, which must not exist,
// with mode 0600 (its directory must exist). Only cfg.Rand and cfg.Comment
// are used. The file appears whole or not at all; an existing file is an
// error wrapping fs.ErrExist and is left alone.
func NewKeyFile(path string, cfg Config) (*Signer, error) {
	r := cfg.Rand
	if r == nil {
		r = rand.Reader
	}
	seed := make([]byte, ed25519.SeedSize)
	if _, err := io.ReadFull(r, seed); err != nil {
		return nil, fmt.Errorf("sign: reading randomness for a new key: %w", err)
	}
	comment := cfg.Comment
	if comment == "" {
		comment = defaultComment()
	}
	s := newSigner(ed25519.NewKeyFromSeed(seed), cleanComment(comment), path)
	s.created = true
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nseed ed25519:%s\npublic %s\n", keyFileHeader,
		base64.StdEncoding.EncodeToString(seed), s.pub.Line())
	if err := writeNew(path, b.Bytes()); err != nil {
		return nil, err
	}
	return s, nil
}

func newSigner(priv ed25519.PrivateKey, comment, path string) *Signer {
	pub := priv.Public().(ed25519.PublicKey)
	return &Signer{
		priv: priv,
		pub:  PublicKey{Key: pub, ID: KeyID(pub), Comment: comment},
		path: path,
	}
}

// Sign returns the signature of record (see the package doc for its
// format): one line of printable ASCII.
func (s *Signer) Sign(record []byte) []byte {
	sig := ed25519.Sign(s.priv, message(record))
	out := make([]byte, 0, len(sigPrefix)+1+16+1+88)
	out = append(out, sigPrefix...)
	out = append(out, ' ')
	out = append(out, s.pub.ID...)
	out = append(out, ' ')
	return base64.StdEncoding.AppendEncode(out, sig)
}

// Seal returns record preceded by its signature, one self-contained entry
// for storage that holds bytes only (a remote cache's ac entry):
//
//	ladder-signed/v1\n<signature>\n<record>
//
// Verifier.Open checks it and returns the record.
func (s *Signer) Seal(record []byte) []byte {
	sig := s.Sign(record)
	out := make([]byte, 0, len(sealHeader)+len(sig)+1+len(record))
	out = append(out, sealHeader...)
	out = append(out, sig...)
	out = append(out, '\n')
	return append(out, record...)
}

// PublicKey returns the signer's public key, with its comment.
func (s *Signer) PublicKey() PublicKey { return s.pub }

// KeyID returns the ID of the signer's key.
func (s *Signer) KeyID() string { return s.pub.ID }

// PublicKeyLine returns the line to add to ladder-keys.txt so that others
// trust this key: "ed25519:BASE64 comment".
func (s *Signer) PublicKeyLine() string { return s.pub.Line() }

// Path returns the key file.
func (s *Signer) Path() string { return s.path }

// Created reports whether OpenSigner or NewKeyFile created the key file
// (the caller may then print where it is and PublicKeyLine).
func (s *Signer) Created() bool { return s.created }

// message returns the bytes a record's signature signs.
func message(record []byte) []byte {
	m := make([]byte, 0, len(Domain)+len(record))
	return append(append(m, Domain...), record...)
}

// readKeyFile reads and checks a key file. A missing file is an error
// wrapping fs.ErrNotExist.
func readKeyFile(path string) (*Signer, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("sign: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("sign: %w: %s is %s", ErrCorruptKey, path, safeio.TypeName(fi.Mode()))
	}
	if err := checkFileMode(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("sign: reading %s: %w", path, err)
	}
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("sign: %w: %s: %s (restore it from a backup, or remove it to start with a new key, whose signatures others will not trust until they add its public line)",
			ErrCorruptKey, path, fmt.Sprintf(format, args...))
	}
	if len(data) > maxKeyFile {
		return nil, corrupt("larger than %d bytes", maxKeyFile)
	}
	text := string(data)
	if !strings.HasSuffix(text, "\n") {
		return nil, corrupt("truncated (no final newline)")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 3 {
		return nil, corrupt("%d lines, want 3", len(lines))
	}
	if lines[0] != keyFileHeader {
		return nil, corrupt("line 1 is not %q", keyFileHeader)
	}
	seedText, ok := strings.CutPrefix(lines[1], "seed ed25519:")
	if !ok {
		return nil, corrupt("line 2 does not start with %q", "seed ed25519:")
	}
	seed, err := decodeBase64(seedText)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, corrupt("line 2: the seed is not the base64 of %d bytes", ed25519.SeedSize)
	}
	pubText, ok := strings.CutPrefix(lines[2], "public ")
	if !ok {
		return nil, corrupt("line 3 does not start with %q", "public ")
	}
	pub, err := ParsePublicKey(pubText)
	if err != nil {
		return nil, corrupt("line 3: %v", err)
	}
	s := newSigner(ed25519.NewKeyFromSeed(seed), pub.Comment, path)
	if !s.pub.Key.Equal(pub.Key) {
		return nil, corrupt("the public key of line 3 is not the seed's")
	}
	return s, nil
}

// writeNew writes data to the new file path with mode 0600: to a temporary
// file of the same directory, synced, then linked to path (which fails if
// path exists) or, on a file system without hard links, renamed to it
// after checking that path does not exist; then the directory is synced.
func writeNew(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("sign: creating the key file: %w", err)
	}
	name := tmp.Name()
	defer func() {
		tmp.Close()
		os.Remove(name)
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("sign: creating the key file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("sign: writing the key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sign: writing the key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("sign: writing the key file: %w", err)
	}
	if err := os.Link(name, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("sign: %s: %w", path, fs.ErrExist)
		}
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("sign: %s: %w", path, fs.ErrExist)
		}
		if err := os.Rename(name, path); err != nil {
			return fmt.Errorf("sign: creating the key file: %w", err)
		}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// defaultComment returns user@host, or what of it is known.
func defaultComment() string {
	name := ""
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	host, _ := os.Hostname()
	switch {
	case name != "" && host != "":
		return name + "@" + host
	case name != "":
		return name
	case host != "":
		return host
	}
	return "ladder"
}

// cleanComment makes s a valid comment: one line, valid UTF-8, without
// control characters, trimmed.
func cleanComment(s string) string {
	s = strings.ToValidUTF8(s, "?")
	s = strings.Map(func(r rune) rune {
		if badCommentRune(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// badCommentRune reports whether r may not appear in a comment: a control
// character (tab aside), a bidirectional control, or the replacement of
// invalid UTF-8.
func badCommentRune(r rune) bool {
	return (unicode.IsControl(r) && r != '\t') || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError
}
