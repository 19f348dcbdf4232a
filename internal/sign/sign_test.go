package sign

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"ladder/internal/source"
)

// noEnv is a Getenv that sees no LADDER_KEY_FILE.
func noEnv(string) string { return "" }

// testSigner opens a new default key in a temporary directory.
func testSigner(t *testing.T) *Signer {
	t.Helper()
	s, err := OpenSigner(Config{Dir: filepath.Join(t.TempDir(), "ladder"), Getenv: noEnv, Comment: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg", "ladder")
	cfg := Config{Dir: dir, Getenv: noEnv, Comment: "alice@laptop"}
	s, err := OpenSigner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Created() {
		t.Error("first use did not report a created key")
	}
	if want := filepath.Join(dir, DefaultKeyName); s.Path() != want {
		t.Errorf("key path %s, want %s", s.Path(), want)
	}
	if runtime.GOOS != "windows" {
		for path, want := range map[string]fs.FileMode{dir: 0o700, s.Path(): 0o600} {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s has mode %04o, want %04o", path, fi.Mode().Perm(), want)
			}
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmps) > 0 {
		t.Errorf("temporary files left: %v", tmps)
	}

	record := []byte(`{"key":"ab12","verdict":"proved"}`)
	sig := s.Sign(record)
	if !strings.HasPrefix(string(sig), "ladder-sig/v1 "+s.KeyID()+" ") {
		t.Errorf("signature %q does not name the key %s", sig, s.KeyID())
	}
	for _, c := range sig {
		if c < 0x20 || c > 0x7e {
			t.Fatalf("signature %q is not printable ASCII", sig)
		}
	}
	v := NewVerifier(s.PublicKey())
	id, err := v.Verify(record, sig)
	if err != nil || id != s.KeyID() {
		t.Fatalf("Verify = %q, %v; want %q, nil", id, err, s.KeyID())
	}

	// Opened again: the same key, not created.
	s2, err := OpenSigner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Created() || s2.KeyID() != s.KeyID() || s2.PublicKeyLine() != s.PublicKeyLine() {
		t.Errorf("reopened key: created %v, %s %q; want the key %s %q", s2.Created(), s2.KeyID(), s2.PublicKeyLine(), s.KeyID(), s.PublicKeyLine())
	}
	if _, err := v.Verify(record, s2.Sign(record)); err != nil {
		t.Errorf("signature by the reopened key: %v", err)
	}
	if got := s.PublicKeyLine(); !strings.HasPrefix(got, "ed25519:") || !strings.HasSuffix(got, " alice@laptop") {
		t.Errorf("PublicKeyLine = %q", got)
	}
}

func TestAlteredRecordRefused(t *testing.T) {
	s := testSigner(t)
	v := NewVerifier(s.PublicKey())
	record := []byte("record: proved")
	sig := s.Sign(record)
	for _, altered := range [][]byte{
		[]byte("record: refuted"),
		[]byte("record: proved "),
		[]byte("record: prove"),
		nil,
	} {
		id, err := v.Verify(altered, sig)
		if !errors.Is(err, ErrBadSignature) || id != s.KeyID() {
			t.Errorf("Verify(%q) = %q, %v; want %s, ErrBadSignature", altered, id, err, s.KeyID())
		}
	}
	// A flipped bit in the signature.
	raw := bytes.Fields(sig)[2]
	b, _ := base64.StdEncoding.DecodeString(string(raw))
	b[10] ^= 1
	bad := []byte("ladder-sig/v1 " + s.KeyID() + " " + base64.StdEncoding.EncodeToString(b))
	if _, err := v.Verify(record, bad); !errors.Is(err, ErrBadSignature) {
		t.Errorf("altered signature: %v, want ErrBadSignature", err)
	}
}

func TestDomainSeparation(t *testing.T) {
	s := testSigner(t)
	v := NewVerifier(s.PublicKey())
	// A plain Ed25519 signature of the record, made by the same key without
	// the prefix, is not a record signature.
	record := []byte("record")
	plain := ed25519.Sign(s.priv, record)
	forged := []byte("ladder-sig/v1 " + s.KeyID() + " " + base64.StdEncoding.EncodeToString(plain))
	if _, err := v.Verify(record, forged); !errors.Is(err, ErrBadSignature) {
		t.Errorf("signature without the domain prefix: %v, want ErrBadSignature", err)
	}
	if got := string(message(record)); got != "ladder-record/v1\x00record" {
		t.Errorf("signed message %q", got)
	}
}

func TestOtherKeyRefused(t *testing.T) {
	alice, bob := testSigner(t), testSigner(t)
	v := NewVerifier(alice.PublicKey())
	record := []byte("record")
	id, err := v.Verify(record, bob.Sign(record))
	if !errors.Is(err, ErrUnknownKey) || id != bob.KeyID() {
		t.Errorf("Verify(bob's signature) = %q, %v; want %s, ErrUnknownKey", id, err, bob.KeyID())
	}
	// Bob's signature relabelled with Alice's key ID.
	raw := bytes.Fields(bob.Sign(record))[2]
	relabelled := []byte("ladder-sig/v1 " + alice.KeyID() + " " + string(raw))
	if _, err := v.Verify(record, relabelled); !errors.Is(err, ErrBadSignature) {
		t.Errorf("relabelled signature: %v, want ErrBadSignature", err)
	}
}

func TestUnsignedAndMalformed(t *testing.T) {
	s := testSigner(t)
	v := NewVerifier(s.PublicKey())
	if _, err := v.Verify([]byte("r"), nil); !errors.Is(err, ErrUnsigned) {
		t.Errorf("nil signature: %v, want ErrUnsigned", err)
	}
	good := string(s.Sign([]byte("r")))
	for _, sig := range []string{
		"garbage",
		"ladder-sig/v2" + strings.TrimPrefix(good, "ladder-sig/v1"),
		strings.Replace(good, s.KeyID(), strings.ToUpper(s.KeyID()), 1),
		strings.Replace(good, s.KeyID(), s.KeyID()[:15], 1),
		good[:len(good)-4],
		good + " ",
		good + "\n",
		strings.Replace(good, " ", "  ", 1),
		"ladder-sig/v1 " + s.KeyID() + " !!!!",
	} {
		if id, err := v.Verify([]byte("r"), []byte(sig)); !errors.Is(err, ErrMalformed) || id != "" {
			t.Errorf("Verify(%q) = %q, %v; want ErrMalformed", sig, id, err)
		}
	}
}

func TestTrustedKeysFile(t *testing.T) {
	alice, bob, carol := testSigner(t), testSigner(t), testSigner(t)
	root := t.TempDir()
	keys := filepath.Join(root, KeysFileName)
	record := []byte("record")

	// No keys file: only the own key.
	v, err := LoadVerifier(alice, keys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(record, bob.Sign(record)); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("bob before being added: %v, want ErrUnknownKey", err)
	}
	if _, err := v.Verify(record, alice.Sign(record)); err != nil {
		t.Errorf("own key: %v", err)
	}

	text := "# the team\n\n" + bob.PublicKeyLine() + "\n  " + carol.PublicKey().Line() + "\r\n\t# end\n"
	if err := os.WriteFile(keys, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err = LoadVerifier(alice, keys)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Signer{alice, bob, carol} {
		if id, err := v.Verify(record, s.Sign(record)); err != nil || id != s.KeyID() {
			t.Errorf("Verify(signed by %s) = %q, %v", s.KeyID(), id, err)
		}
	}
	ks := v.Keys()
	if len(ks) != 3 {
		t.Fatalf("%d keys, want 3", len(ks))
	}
	for _, k := range ks {
		if k.ID == bob.KeyID() && k.Pos != keys+":3:1" {
			t.Errorf("bob's key read at %q, want %s:3:1", k.Pos, keys)
		}
		if k.ID == carol.KeyID() && k.Pos != keys+":4:3" {
			t.Errorf("carol's key read at %q, want %s:4:3", k.Pos, keys)
		}
	}
	// A malformed keys file is an error, not a smaller set of keys.
	if err := os.WriteFile(keys, []byte(text+"ed25519:AAAA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := LoadVerifier(alice, keys); err == nil || v != nil {
		t.Errorf("LoadVerifier with a bad line = %v, %v; want an error", v, err)
	}
}

func TestParseKeysErrors(t *testing.T) {
	pub := base64.StdEncoding.EncodeToString(make([]byte, 32))
	short := base64.StdEncoding.EncodeToString(make([]byte, 31))
	text := strings.Join([]string{
		"# keys",                               // 1
		"ed25519:" + pub + " ok",               // 2
		"rsa:" + pub + " old",                  // 3
		"  ed25519:" + short + " short",        // 4
		"ed25519:" + pub[:10] + "*" + pub[11:], // 5
		"just words",                           // 6
		"ed25519:" + pub + " bad\x01comment",   // 7
		"ed25519:" + pub[:42] + "B=",           // 8: nonzero trailing bits
		"",
	}, "\n")
	keys, err := ParseKeys("ladder-keys.txt", []byte(text))
	if len(keys) != 1 || keys[0].Comment != "ok" || keys[0].Pos != "ladder-keys.txt:2:1" {
		t.Errorf("keys = %+v, want the one of line 2", keys)
	}
	want := []string{
		"ladder-keys.txt:3:1: unknown key type rsa (only ed25519 keys are supported: ed25519:BASE64)",
		"ladder-keys.txt:4:11: key is 31 bytes, want 32",
		"ladder-keys.txt:5:19: invalid base64 in the key",
		"ladder-keys.txt:6:1: expected a key, ed25519:BASE64",
		"ladder-keys.txt:7:57: control character \"\\x01\" in the comment",
		"ladder-keys.txt:8:52: invalid base64 in the key",
	}
	var got []string
	for _, e := range err.(source.ErrorList) {
		got = append(got, e.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := ParsePublicKey("  ed25519:" + short); err == nil || err.Error() != "column 11: key is 31 bytes, want 32" {
		t.Errorf("ParsePublicKey(short) error %v", err)
	}
}

func TestBadPermissionsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes do not describe access on Windows")
	}
	s := testSigner(t)
	cfg := Config{Dir: filepath.Dir(s.Path()), Getenv: noEnv}
	for _, mode := range []fs.FileMode{0o644, 0o604, 0o640, 0o660} {
		if err := os.Chmod(s.Path(), mode); err != nil {
			t.Fatal(err)
		}
		_, err := OpenSigner(cfg)
		if !errors.Is(err, ErrKeyPermissions) || !strings.Contains(err.Error(), "chmod 600 "+s.Path()) {
			t.Errorf("mode %04o: %v, want ErrKeyPermissions naming the fix", mode, err)
		}
	}
	if err := os.Chmod(s.Path(), 0o400); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSigner(cfg); err != nil {
		t.Errorf("mode 0400: %v", err)
	}
	// A directory others may write.
	if err := os.Chmod(filepath.Dir(s.Path()), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSigner(cfg); !errors.Is(err, ErrKeyPermissions) {
		t.Errorf("directory 0777: %v, want ErrKeyPermissions", err)
	}
	// Through LADDER_KEY_FILE, the file's mode is checked too.
	if err := os.Chmod(s.Path(), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == KeyFileEnv {
			return s.Path()
		}
		return ""
	}
	if _, err := OpenSigner(Config{Getenv: env}); !errors.Is(err, ErrKeyPermissions) {
		t.Errorf("LADDER_KEY_FILE mode 0644: %v, want ErrKeyPermissions", err)
	}
}

func TestCorruptKeyFile(t *testing.T) {
	s := testSigner(t)
	good, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(good), "\n")
	other := testSigner(t)
	otherLines := strings.Split(string(mustRead(t, other.Path())), "\n")
	for name, data := range map[string]string{
		"empty":         "",
		"truncated":     string(good[:len(good)/2]),
		"no newline":    strings.TrimSuffix(string(good), "\n"),
		"header":        "ladder-signing-key/v0\n" + lines[1] + "\n" + lines[2] + "\n",
		"seed base64":   lines[0] + "\nseed ed25519:@@@@\n" + lines[2] + "\n",
		"seed length":   lines[0] + "\nseed ed25519:AAAA\n" + lines[2] + "\n",
		"public":        lines[0] + "\n" + lines[1] + "\npublic rsa:AAAA\n",
		"mismatch":      lines[0] + "\n" + lines[1] + "\n" + otherLines[2] + "\n",
		"extra line":    string(good) + "more\n",
		"binary":        "\x00\x01\x02\xff\n",
		"huge":          strings.Repeat("x", maxKeyFile+10),
		"missing lines": lines[0] + "\n",
	} {
		if err := os.WriteFile(s.Path(), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := OpenSigner(Config{Dir: filepath.Dir(s.Path()), Getenv: noEnv})
		if !errors.Is(err, ErrCorruptKey) || !strings.Contains(err.Error(), s.Path()) {
			t.Errorf("%s: %v, want ErrCorruptKey naming the file", name, err)
		}
	}
	// A directory in place of the key file.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, DefaultKeyName), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSigner(Config{Dir: dir, Getenv: noEnv}); !errors.Is(err, ErrCorruptKey) {
		t.Errorf("directory as key file: %v, want ErrCorruptKey", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExplicitKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ci-key")
	env := func(k string) string {
		if k == KeyFileEnv {
			return path
		}
		return ""
	}
	// A provisioned key that is missing is an error, and is not created.
	if _, err := OpenSigner(Config{Getenv: env, Dir: t.TempDir()}); !errors.Is(err, ErrNoKey) {
		t.Errorf("missing LADDER_KEY_FILE: %v, want ErrNoKey", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the missing key file was created: %v", err)
	}
	ci, err := NewKeyFile(path, Config{Comment: "ci\x1b[31m"})
	if err != nil {
		t.Fatal(err)
	}
	if ci.PublicKey().Comment != "ci [31m" {
		t.Errorf("comment %q: control characters not removed", ci.PublicKey().Comment)
	}
	if _, err := NewKeyFile(path, Config{}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("NewKeyFile over an existing key: %v, want fs.ErrExist", err)
	}
	s, err := OpenSigner(Config{Getenv: env, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if s.KeyID() != ci.KeyID() || s.Created() {
		t.Errorf("LADDER_KEY_FILE opened key %s (created %v), want %s", s.KeyID(), s.Created(), ci.KeyID())
	}
	// Config.KeyFile wins over the environment.
	other, err := NewKeyFile(filepath.Join(dir, "other"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	s, err = OpenSigner(Config{KeyFile: other.Path(), Getenv: env})
	if err != nil || s.KeyID() != other.KeyID() {
		t.Errorf("Config.KeyFile: %v, %v", s, err)
	}
	if path, explicit, err := (Config{Getenv: env}).KeyPath(); path != filepath.Join(dir, "ci-key") || !explicit || err != nil {
		t.Errorf("KeyPath = %s, %v, %v", path, explicit, err)
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	cfg := Config{Dir: filepath.Join(t.TempDir(), "ladder"), Getenv: noEnv}
	const n = 8
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := OpenSigner(cfg)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = s.KeyID()
		}()
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("concurrent first uses got different keys: %v", ids)
		}
	}
}

func TestSealOpen(t *testing.T) {
	alice, bob := testSigner(t), testSigner(t)
	v := NewVerifier(alice.PublicKey())
	record := []byte("{\"key\":\"ab\"}\nsecond line\n")
	sealed := alice.Seal(record)
	if !bytes.HasPrefix(sealed, []byte("ladder-signed/v1\nladder-sig/v1 "+alice.KeyID()+" ")) {
		t.Errorf("sealed = %q", sealed)
	}
	got, id, err := v.Open(sealed)
	if err != nil || id != alice.KeyID() || !bytes.Equal(got, record) {
		t.Fatalf("Open = %q, %q, %v", got, id, err)
	}
	// An empty record seals too.
	if got, _, err := v.Open(alice.Seal(nil)); err != nil || len(got) != 0 {
		t.Errorf("Open(Seal(nil)) = %q, %v", got, err)
	}
	altered := append([]byte(nil), sealed...)
	altered[len(altered)-2] ^= 1
	for _, c := range []struct {
		data []byte
		want error
	}{
		{record, ErrUnsigned},
		{nil, ErrUnsigned},
		{[]byte("ladder-signed/v1\n"), ErrMalformed},
		{[]byte("ladder-signed/v1\n\nrecord"), ErrMalformed},
		{[]byte("ladder-signed/v1\ngarbage\nrecord"), ErrMalformed},
		{altered, ErrBadSignature},
		{bob.Seal(record), ErrUnknownKey},
	} {
		if got, _, err := v.Open(c.data); !errors.Is(err, c.want) || got != nil {
			t.Errorf("Open(%q) = %q, %v; want %v", c.data, got, err, c.want)
		}
	}
}
