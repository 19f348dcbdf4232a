package simulation

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ladder/ioa/load"
)

var counterProofs = []string{"ok_refinement.yaml", "ok_forward.yaml", "ok_backward.yaml", "ok_history.yaml", "ok_simple.yaml"}

// Every dependency item of every obligation has a fingerprint.
func TestFingerprintsCoverDeps(t *testing.T) {
	set := loadCounter(t, counterProofs...)
	obls, _, errs := Generate(&set.Hierarchy, Config{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fps := Fingerprints(set.Automata, set.Proofs)
	for _, o := range obls {
		for _, it := range o.Deps {
			if _, ok := fps[it]; !ok {
				t.Errorf("%s: dependency %s has no fingerprint", o.ID, it)
			}
		}
	}
	for it, fp := range fps {
		if len(fp) != 64 || strings.Trim(fp, "0123456789abcdef") != "" {
			t.Errorf("%s: fingerprint %q is not a hex SHA-256", it, fp)
		}
		if owner := ItemOwner(it); owner == it || (!strings.HasPrefix(owner, "automaton:") && !strings.HasPrefix(owner, "proof:")) {
			t.Errorf("%s: owner %q", it, owner)
		}
	}
}

// loadCounterCopy copies the counter example to a temporary directory,
// applies edit (unless nil) to impl.yaml and loads it with the proofs.
func loadCounterCopy(t *testing.T, edit func(string) string) *load.Set {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir("testdata/counter")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata/counter", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if e.Name() == "impl.yaml" && edit != nil {
			edited := edit(text)
			if edited == text {
				t.Fatal("the edit changed nothing")
			}
			text = edited
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{"iface.yaml", "spec.yaml", "spech.yaml", "impl.yaml"}
	files = append(files, counterProofs...)
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	set, errs := load.Files(files...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return set
}

// changed returns the items whose fingerprints differ between a and b,
// sorted.
func changed(a, b map[string]string) []string {
	var out []string
	for it, fp := range a {
		if b[it] != fp {
			out = append(out, it)
		}
	}
	for it := range b {
		if _, ok := a[it]; !ok {
			out = append(out, it)
		}
	}
	sort.Strings(out)
	return out
}

func TestFingerprintsChangeWithTheItem(t *testing.T) {
	base := loadCounterCopy(t, nil)
	before := Fingerprints(base.Automata, base.Proofs)
	for _, tc := range []struct {
		name string
		edit func(string) string
		want []string
	}{
		{"layout and comments", func(s string) string {
			s = strings.Replace(s, "pre: not full", "pre:   not   full   # staging is empty", 1)
			return strings.Replace(s, "bufRange: 0 <= buf and buf < 3", "bufRange: (0 <= buf) and (buf < 3)", 1)
		}, nil},
		{"an effect", func(s string) string {
			return strings.Replace(s, "      buf := k\n", "      buf := k + 0\n", 1)
		}, []string{"automaton:Impl/action:Stage"}},
		{"a guard", func(s string) string {
			return strings.Replace(s, "pre: full and k = buf", "pre: full and buf = k", 1)
		}, []string{"automaton:Impl/action:Flush"}},
		{"an invariant", func(s string) string {
			return strings.Replace(s, "buf < 3", "buf < 4", 1)
		}, []string{"automaton:Impl/invariant:bufRange"}},
		{"a definition", func(s string) string {
			return strings.Replace(s, "staged: if full then buf else 0", "staged: if full then buf else 1", 1)
		}, []string{"automaton:Impl/definition:staged"}},
		{"an initial value", func(s string) string {
			return strings.Replace(s, "sum:  {sort: Int, init: 0}", "sum:  {sort: Int, init: 1}", 1)
		}, []string{"automaton:Impl/init"}},
		{"a state sort", func(s string) string {
			return strings.Replace(s, "sum:  {sort: Int, init: 0}", "sum:  {sort: Nat, init: 0}", 1)
		}, []string{"automaton:Impl/invariant:sum:Nat", "automaton:Impl/state"}},
		{"a view", func(s string) string {
			return strings.Replace(s, "Flush: Emit(k)", "Flush: Emit(buf)", 1)
		}, []string{"automaton:Impl/view:Flush"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := loadCounterCopy(t, tc.edit)
			after := Fingerprints(set.Automata, set.Proofs)
			if got := changed(before, after); strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("changed items %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFold(t *testing.T) {
	fp := HashText("x")
	if Fold(fp, "") != fp {
		t.Error("folding nothing changed the fingerprint")
	}
	if Fold(fp, "split: c") == fp || Fold(fp, "split: c") == Fold(fp, "split: d") {
		t.Error("folding text does not change the fingerprint")
	}
}
