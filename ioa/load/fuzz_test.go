package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ladder/internal/source"
)

// FuzzLoad loads random bytes as an automaton file, next to a valid
// interface file: loading must never panic, and every error must carry a
// position in a file that was read.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*.yaml")
	specs, _ := filepath.Glob("../../specs/*.yaml")
	seeds = append(seeds, specs...)
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	// hostile inputs: control characters in names and values, a wide
	// line with non-ASCII characters, a reference to an unbounded device
	for _, h := range []string{
		"automaton: \"A\\0B\"\nstate: {\"x\\ny\": {sort: Int, init: 0}}\nactions: {}\n",
		"automaton: A\nsorts:\n  E: {enum: [É1, É2, É3, \"\\x01\"]}\nstate: {x: {sort: E, init: É1}}\nactions: {}\n",
		"automaton: Z\ninterface: /dev/zero\nstate: {}\nactions: {}\n",
		"automaton: A\u2028B\nstate: {}\nactions: {}\n",
	} {
		f.Add([]byte(h))
	}
	iface, err := os.ReadFile("testdata/ok/counter-events.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		files := map[string][]byte{
			"a.yaml":                  data,
			"counter-events.yaml":     iface,
			"lib/events.yaml":         iface,
			"testdata/ok/events.yaml": iface,
		}
		cfg := Config{ReadFile: func(name string) ([]byte, error) {
			if d, ok := files[filepath.ToSlash(name)]; ok {
				return d, nil
			}
			return nil, os.ErrNotExist
		}}
		set, errs := cfg.Files("a.yaml")
		for _, e := range errs {
			if e.Code == source.ErrInternal {
				t.Fatalf("internal error: %v", e)
			}
			if e.Pos.File == "" || e.Pos.IsValid() && e.Pos.Col < 1 {
				t.Errorf("error without a proper position: %v", e)
			}
			if msg := e.Error(); strings.ContainsAny(msg, "\x00\n\r\u2028") {
				t.Errorf("a message with a control character: %q", msg)
			}
		}
		if len(errs) == 0 && len(set.Automata)+len(set.Interfaces)+len(set.ProofFiles) == 0 {
			t.Errorf("no errors but nothing loaded")
		}
	})
}
