package txtar

import (
	"bytes"
	"fmt"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     Archive
	}{
		{"empty", "", Archive{}},
		{"comment only", "ladder check a.yaml\nmore\n", Archive{Comment: []byte("ladder check a.yaml\nmore\n")}},
		{"comment without newline", "c", Archive{Comment: []byte("c\n")}},
		{"files", "cmd\n-- a.yaml --\nx: 1\n-- stdout --\n-- exit --\n1", Archive{
			Comment: []byte("cmd\n"),
			Files:   []File{{"a.yaml", []byte("x: 1\n")}, {"stdout", nil}, {"exit", []byte("1\n")}},
		}},
		{"no comment", "-- a --\nA\n", Archive{Files: []File{{"a", []byte("A\n")}}}},
		{"spaces in name trimmed", "--   sub/a b.yaml   --\n", Archive{Files: []File{{"sub/a b.yaml", nil}}}},
		{"not markers", "-- --\n--a --\n-- a--\n -- a --\n-- a -- x\n", Archive{Comment: []byte("-- --\n--a --\n-- a--\n -- a --\n-- a -- x\n")}},
		{"CRLF marker", "-- a --\r\nA\r\n", Archive{Files: []File{{"a", []byte("A\r\n")}}}},
		{"empty lines kept", "\n-- a --\n\n\n", Archive{Comment: []byte("\n"), Files: []File{{"a", []byte("\n\n")}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse([]byte(tt.in))
			if !equal(got, &tt.want) {
				t.Errorf("Parse(%q) =\n%s\nwant\n%s", tt.in, show(got), show(&tt.want))
			}
		})
	}
}

func TestFormat(t *testing.T) {
	a := &Archive{
		Comment: []byte("ladder prove --json a.yaml"),
		Files:   []File{{"a.yaml", []byte("automaton: A\n")}, {"stderr", nil}, {"exit", []byte("0")}},
	}
	want := "ladder prove --json a.yaml\n-- a.yaml --\nautomaton: A\n-- stderr --\n-- exit --\n0\n"
	if got := string(Format(a)); got != want {
		t.Errorf("Format =\n%q\nwant\n%q", got, want)
	}
	if string(a.Comment) != "ladder prove --json a.yaml" || string(a.Files[2].Data) != "0" {
		t.Error("Format modified its archive")
	}
}

// TestRoundTrip checks Parse(Format(a)) = a for archives whose comment and
// files end with a newline, and Format(Parse(text)) = text for texts that
// end with one.
func TestRoundTrip(t *testing.T) {
	archives := []*Archive{
		{},
		{Comment: []byte("only a comment\n")},
		{Files: []File{{"a", nil}}},
		{Comment: []byte("c\n\n"), Files: []File{{"a.yaml", []byte("a: 1\n\n")}, {"b", nil}, {"stdout", []byte("-x-\n- a -\n")}}},
	}
	for _, a := range archives {
		text := Format(a)
		if b := Parse(text); !equal(a, b) {
			t.Errorf("Parse(Format(a)) =\n%s\nwant\n%s", show(b), show(a))
		}
		if again := Format(Parse(text)); !bytes.Equal(again, text) {
			t.Errorf("Format(Parse(%q)) = %q", text, again)
		}
	}
}

func TestGetSet(t *testing.T) {
	a := Parse([]byte("-- stdout --\nold\n-- exit --\n1\n"))
	if d, ok := a.Get("stdout"); !ok || string(d) != "old\n" {
		t.Errorf("Get(stdout) = %q, %v", d, ok)
	}
	if _, ok := a.Get("stderr"); ok {
		t.Error("Get(stderr) found a file")
	}
	a.Set("stdout", []byte("new\n"))
	a.Set("stderr", []byte("err\n"))
	if got, want := string(Format(a)), "-- stdout --\nnew\n-- exit --\n1\n-- stderr --\nerr\n"; got != want {
		t.Errorf("after Set: %q, want %q", got, want)
	}
}

func equal(a, b *Archive) bool {
	if !bytes.Equal(a.Comment, b.Comment) || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		if a.Files[i].Name != b.Files[i].Name || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
			return false
		}
	}
	return true
}

func show(a *Archive) string {
	s := fmt.Sprintf("comment %q", a.Comment)
	for _, f := range a.Files {
		s += fmt.Sprintf("\nfile %q: %q", f.Name, f.Data)
	}
	return s
}
