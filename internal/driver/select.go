// This file implements the --only selection.

package driver

import (
	"fmt"
	"regexp"
)

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
