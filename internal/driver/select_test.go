package driver

import "testing"

func TestSelector(t *testing.T) {
	s, err := newSelector(`beginIdx.*DoRead$`)
	if err != nil {
		t.Fatal(err)
	}
	if !s.match("TMS2 › invariant beginIdxBound › DoRead", "TMS2 › invariant beginIdxBound") {
		t.Error("pattern does not match the ID")
	}
	if s.match("TMS2 › invariant beginIdxBound › DoWrite", "TMS2 › invariant beginIdxBound") {
		t.Error("pattern matches another action")
	}
	g, _ := newSelector(`^C→A › forward$`)
	if !g.match("C→A › forward › Inc › relation(R1)", "C→A › forward") {
		t.Error("pattern does not match the group")
	}
	all, _ := newSelector("")
	if !all.match("anything", "") {
		t.Error("empty pattern does not select everything")
	}
	if _, err := newSelector("("); err == nil {
		t.Error("invalid pattern accepted")
	}
}
