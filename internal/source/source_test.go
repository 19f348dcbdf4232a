package source

import (
	"strings"
	"testing"
)

func TestQuoteControlCharacters(t *testing.T) {
	p := Pos{File: "bad\nx.yaml:1:1: forged", Line: 2, Col: 3}
	if got, want := p.String(), `"bad\nx.yaml:1:1: forged":2:3`; got != want {
		t.Errorf("Pos.String() = %q, want %q", got, want)
	}
	if got := (Pos{File: "specs/TMS2.yaml", Line: 1, Col: 1}).String(); got != "specs/TMS2.yaml:1:1" {
		t.Errorf("plain name quoted: %q", got)
	}
	e := &Error{Pos: Pos{File: "a.yaml", Line: 1, Col: 1}, Msg: "bad value a\x00b\nc"}
	if got := e.Error(); strings.ContainsAny(got, "\x00\n") || !strings.Contains(got, `a\x00b\nc`) {
		t.Errorf("Error() = %q: control characters not escaped", got)
	}
	if got := Quote("ok \"name\""); got != "ok \"name\"" {
		t.Errorf("Quote changed a printable name: %q", got)
	}
}

// TestQuoteBidiControls checks that a file name with a bidirectional
// override (which a terminal would use to show the text reversed, so that
// a position could be spoofed) is quoted with the control escaped.
func TestQuoteBidiControls(t *testing.T) {
	for _, r := range []rune{'\u202e', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200f', '\u061c'} {
		p := Pos{File: "a" + string(r) + "lmay.yaml", Line: 1, Col: 2}
		got := p.String()
		if strings.ContainsRune(got, r) || !strings.HasPrefix(got, `"a\u`) {
			t.Errorf("U+%04X: Pos.String() = %q, want the control escaped", r, got)
		}
	}
}
