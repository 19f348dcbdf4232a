// Package txtar reads and writes the txtar archive format of the Go
// toolchain's tests (the format of golang.org/x/tools/txtar), for ladder's
// golden-file tests: a trivial text format that keeps several small files
// and a comment in one file that diffs well.
//
// An archive is a comment followed by files. Each file starts with a marker
// line "-- NAME --" and holds the lines up to the next marker or the end:
//
//	ladder check a.yaml
//	-- a.yaml --
//	automaton: A
//	-- stdout --
//	checked 1 file: 1 automaton, 0 interfaces, 0 proofs
//
// There is no quoting: a line of a file that looks like a marker starts a
// new file. Format ends every non-empty comment and file with a newline,
// so Parse(Format(a)) equals a for such archives. The package owns only the
// format; it neither reads nor writes the file system.
package txtar

import (
	"bytes"
	"strings"
)

// An Archive is a comment and a sequence of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// A File is one file of an archive.
type File struct {
	Name string // the name on its marker line, without surrounding spaces
	Data []byte // its contents, every line ending with a newline
}

// Format returns the text of a, adding a final newline to a comment or a
// file that lacks one.
func Format(a *Archive) []byte {
	var b bytes.Buffer
	b.Write(withNewline(a.Comment))
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.Write(withNewline(f.Data))
	}
	return b.Bytes()
}

// Parse splits data into an archive. It never fails: text before the first
// marker line is the comment, and a last line without a newline is given
// one.
func Parse(data []byte) *Archive {
	a := new(Archive)
	cur := &a.Comment
	for len(data) > 0 {
		line := data
		rest := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i+1], data[i+1:]
		}
		data = rest
		if name, ok := marker(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
			continue
		}
		*cur = append(*cur, withNewline(line)...)
	}
	return a
}

// marker reports whether line is a marker line "-- NAME --" and returns
// NAME, trimmed of spaces.
func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	name := strings.TrimSpace(s[len("-- ") : len(s)-len(" --")])
	return name, name != ""
}

// withNewline returns b, with a newline added when it is non-empty and does
// not end with one.
func withNewline(b []byte) []byte {
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return b
	}
	return append(b[:len(b):len(b)], '\n')
}

// Get returns the data of the first file named name, and whether there is
// one.
func (a *Archive) Get(name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the data of the first file named name, or appends a file
// with that name when there is none.
func (a *Archive) Set(name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, File{Name: name, Data: data})
}
