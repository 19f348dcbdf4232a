// Package sign signs and verifies ladder's cache records with Ed25519
// (crypto/ed25519 of the standard library), so that a team can share
// verdicts through a remote cache that nobody can forge: a record is
// believed only when it carries a valid signature by a key the repository
// trusts.
//
// # Keys
//
// A Signer holds one key pair. Its key file is, in this order:
//
//  1. Config.KeyFile, when set;
//  2. the file named by the environment variable LADDER_KEY_FILE (KeyFileEnv),
//     when set: CI provisions its key this way, from a secret;
//  3. Config.Dir/signing-key, or, when Dir is empty,
//     os.UserConfigDir()/ladder/signing-key (on Linux
//     ~/.config/ladder/signing-key).
//
// Only the third, the default location, is created on first use (its
// directory with mode 0700, the file with mode 0600, written to a
// temporary file in the same directory and linked or renamed into place,
// so that a crash or a concurrent first use leaves one whole key). A key
// file named explicitly (1 or 2) must exist: a provisioned key that is
// missing is a configuration error, not a reason to invent a key in a CI
// workspace. NewKeyFile creates one (the future `ladder key --new FILE`).
//
// On Unix a key file that others may read or write (mode & 0o077 != 0) is
// refused with ErrKeyPermissions, and so is a default key directory that
// others may write; a key file that does not parse, whose seed does not
// give its recorded public key, or that is not a regular file is refused
// with ErrCorruptKey. Neither ever panics. The file is three lines:
//
//	ladder-signing-key/v1
//	seed ed25519:<base64 of the 32-byte Ed25519 seed>
//	public ed25519:<base64 of the 32-byte public key> <comment>
//
// the last line being, after "public ", the line to add to the trusted keys
// (Signer.PublicKeyLine).
//
// # Trusted keys
//
// A Verifier holds a set of trusted public keys: the user's own
// (Signer.PublicKey) and those of the file ladder-keys.txt (KeysFileName)
// committed at the repository root, read by ReadKeysFile or ParseKeys.
// LoadVerifier puts the two together. The file has one key per line,
//
//	# the team's keys; CI's is the one that signs the shared cache
//	ed25519:gXWKAmOr25WP6dq2VRsOPGCKKD9NL4zDdF1s1YUM1rw= alice@laptop
//	ed25519:adMrXpOgBSTAQ59uTugsESUmKJ871oLUKsxBOGiZJRU= ci
//
// blank lines and lines starting with '#' (after blanks) being ignored; a
// key is the text "ed25519:" and the standard, padded base64 encoding of the
// 32-byte key, followed by an optional comment (after a space or tab, up to
// the end of the line, without control characters). Errors say where:
// "ladder-keys.txt:3:9: key is 31 bytes, want 32".
//
// A key's ID (KeyID) is the first 16 hex digits of the SHA-256 of the 32
// bytes of the public key. It only names the key in signatures and
// messages: verification always uses the trusted key itself, so two keys
// with one ID (which nobody can arrange for a key they do not hold without
// some 2^64 work, and which would gain nothing) only cost one more check.
//
// # Signatures
//
// Sign returns the signature as printable ASCII, one line without a
// newline:
//
//	ladder-sig/v1 <key ID> <standard padded base64 of the 64-byte signature>
//
// The signed message is Domain ("ladder-record/v1\x00") followed by the
// record's bytes, so a signature made by the same key over anything else
// (a Git commit, another protocol's message that never starts with this
// prefix) cannot be replayed as a record signature, and a later format gets
// another prefix.
//
// Verify(record, sig) returns the signer's key ID and nil, or an error for
// which errors.Is tells the case apart:
//
//   - ErrUnsigned: sig is empty;
//   - ErrMalformed: sig is not a signature of this format;
//   - ErrUnknownKey: well formed, by a key the Verifier does not trust
//     (the key ID is returned too);
//   - ErrBadSignature: by a trusted key, but not over these bytes (the
//     record or the signature was altered; the key ID is returned too).
//
// Seal and Open put a signature and its record together in one entry,
// for storage that holds bytes only (a remote cache's ac entry, whose
// check is then Verifier.Open):
//
//	ladder-signed/v1
//	ladder-sig/v1 <key ID> <base64 signature>
//	<the record's bytes, to the end>
//
// Open gives ErrUnsigned for data without the first line, ErrMalformed for
// a missing signature line, and Verify's errors otherwise.
//
// # What to sign
//
// The package signs bytes: the caller decides what a record is, and must
// put into it everything the signature should vouch for. For the cache that
// is the obligation's key (the hash of the problem's text and the solver
// identity) together with the verdict and what the kernel re-checks, in one
// canonical encoding; otherwise a signed verdict of one obligation could be
// stored under another's key and still verify. A signature says who vouches
// for a verdict, not that it is true: the kernel's checks of a cached record
// (docs/prove.md, "The cache") still apply to a verified one.
package sign
