// This file implements file names for dumped obligations and the --only
// selection.

package driver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// DumpName returns the file name of obligation id's standalone .smt2 file:
// the ID with every run of characters outside [A-Za-z0-9._-] replaced by
// one '_', cut to 80 bytes, then '-' and the first 8 hex digits of the
// SHA-256 of the ID, so that two IDs that sanitize alike still get
// different files and an ID always gets the same one. For example
//
//	"TMS2 › invariant beginIdxBound › DoRead" → "TMS2_invariant_beginIdxBound_DoRead-1a2b3c4d.smt2"
func DumpName(id string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	s := strings.Trim(b.String(), "_.")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "_.")
	}
	if s == "" {
		s = "obligation"
	}
	h := sha256.Sum256([]byte(id))
	return s + "-" + hex.EncodeToString(h[:4]) + ".smt2"
}

// selector decides which obligations --only selects.
type selector struct {
	re *regexp.Regexp // nil selects everything
}

// newSelector compiles pattern, a regular expression (RE2 syntax, as for
// go test -run) matched anywhere in an obligation's ID or group. The empty
// pattern selects everything.
func newSelector(pattern string) (selector, error) {
	if pattern == "" {
		return selector{}, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return selector{}, fmt.Errorf("invalid --only pattern: %v", err)
	}
	return selector{re: re}, nil
}

// match reports whether the obligation with this ID and group is selected.
func (s selector) match(id, group string) bool {
	return s.re == nil || s.re.MatchString(id) || s.re.MatchString(group)
}
