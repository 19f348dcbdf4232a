// This file implements signed records: with a signer and a verifier
// configured (Config.Signer, Config.Verifier), every verdict record the
// driver writes — a cache result, a unit record — is signed,
// and a record is believed only when its signature verifies against a
// trusted key and it names what it is read for (docs/team.md).

package driver

import (
	"bytes"
	"fmt"
	"sync/atomic"

	"ladder/internal/sign"
)

// signing is the driver's signer and verifier, and the number of records
// refused since the last report.
type signing struct {
	signer   *sign.Signer
	verifier *sign.Verifier
	refused  atomic.Int64
	reason   atomic.Value // string: the first refusal's reason
}

// on reports whether records are signed and verified.
func (s *signing) on() bool { return s.verifier != nil }

// seal returns what is stored for the record rec read under name (a cache
// key, a unit's name, a run's fingerprint): rec with name bound to it,
// signed; rec itself when signing is off.
func (s *signing) seal(name string, rec []byte) []byte {
	if !s.on() || s.signer == nil {
		return rec
	}
	return s.signer.Seal(bound(name, rec))
}

// open returns the record stored as data under name: data itself when
// signing is off; otherwise the record, when data is signed by a trusted
// key and was sealed under name. A refused record is counted, never
// returned.
func (s *signing) open(name string, data []byte) ([]byte, bool) {
	rec, err := s.check(name, data)
	if err != nil {
		if s.refused.Add(1) == 1 {
			s.reason.Store(err.Error())
		}
		return nil, false
	}
	return rec, true
}

// accepts reports whether open takes data back as the record stored under
// name, without counting a refusal: whether a record this prover writes
// is one it believes.
func (s *signing) accepts(name string, data []byte) bool {
	_, err := s.check(name, data)
	return err == nil
}

// check returns the record stored as data under name, or why it is not
// believed (open).
func (s *signing) check(name string, data []byte) ([]byte, error) {
	if !s.on() {
		return data, nil
	}
	rec, _, err := s.verifier.Open(data)
	if err != nil {
		return nil, err
	}
	got, rec, ok := bytes.Cut(rec, []byte("\n"))
	if !ok || string(got) != "ladder-record-of "+name {
		return nil, fmt.Errorf("sealed for another record")
	}
	return rec, nil
}

// bound prefixes rec with the name it is stored under.
func bound(name string, rec []byte) []byte {
	out := make([]byte, 0, len(name)+len("ladder-record-of \n")+len(rec))
	out = append(out, "ladder-record-of "...)
	out = append(out, name...)
	out = append(out, '\n')
	return append(out, rec...)
}

// warning returns the one warning of the records refused since the last
// call, and resets the count; "" when none was.
func (s *signing) warning() string {
	n := s.refused.Swap(0)
	if n == 0 {
		return ""
	}
	reason, _ := s.reason.Load().(string)
	s.reason.Store("")
	return fmt.Sprintf("cache: %d %s not signed by a trusted key (%s) ignored; %s checked again (docs/team.md)",
		n, plural(n, "record", "records"), reason, plural(n, "its obligations are", "their obligations are"))
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
