package eval

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"ladder/ioa/load"
)

// permFixture holds a permuted sort in every position the encoder
// distinguishes: scalars, one-byte options, options of records, sequences,
// maps over atomic, option and record keys, sets of atomic and record
// elements, a map whose values are maps, and integers inside tables and
// sequences of tables (whose images the byte programs compute while every
// integer fits one byte, permute_bytes.go).
const permFixture = `
automaton: Perm
sorts:
  T: param
  L: param
  Ph: {enum: [A, B, C]}
  TL: {record: {t: T, l: L}}
  TN: {record: {t: T, n: Int}}
state:
  x:     T
  o:     Option[T]
  ol:    Option[TL]
  s:     {sort: "Seq[T]", init: "[]"}
  m:     Map[T, L]
  mo:    Map[Option[T], Ph]
  mr:    Map[TL, Bool]
  st:    Set[T]
  sr:    Set[TL]
  mm:    Map[L, Map[T, Option[L]]]
  n:     {sort: Int, init: 0}
  mn:    {sort: "Map[T, Int]", init: const(0)}
  mt:    {sort: "Map[L, TN]", init: "const(TN{t: T#0, n: 0})"}
  sm:    {sort: "Seq[Map[T, Option[L]]]", init: "[]"}
actions:
  Skip: {kind: internal}
`

func loadPerm(t *testing.T) *Machine {
	t.Helper()
	cfg := load.Config{ReadFile: func(p string) ([]byte, error) {
		if p == "perm.yaml" {
			return []byte(permFixture), nil
		}
		return nil, fmt.Errorf("no file %s", p)
	}}
	set, errs := cfg.Files("perm.yaml")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m, err := NewMachine(set.Automaton("Perm"), &Instance{Sizes: map[string]int{"T": 3, "L": 2}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomValue returns a random value of the sort of variable i of m.
func randomState(t *testing.T, m *Machine, rng *rand.Rand) State {
	s := make(State, len(m.vars))
	for i, vc := range m.vars {
		if vc.v.Name == "s" {
			n := rng.Intn(4)
			vs := make([]Value, n)
			for k := range vs {
				vs[k] = Elem(rng.Intn(3))
			}
			s[i] = Seq(vs...)
			continue
		}
		// an integer: one byte (-64..63) more often than not
		num := func() Value {
			if rng.Intn(3) == 0 {
				return Int(int64(rng.Intn(1000) - 500))
			}
			return Int(int64(rng.Intn(128) - 64))
		}
		switch vc.v.Name {
		case "n":
			s[i] = num()
			continue
		case "mn":
			s[i] = Value{vs: []Value{num(), num(), num()}}
			continue
		case "mt":
			s[i] = Value{vs: []Value{Record(Elem(rng.Intn(3)), num()), Record(Elem(rng.Intn(3)), num())}}
			continue
		case "sm":
			vals, err := m.Inst.Values(vc.v.Sort.Elem)
			if err != nil {
				t.Fatal(err)
			}
			vs := make([]Value, rng.Intn(4))
			for k := range vs {
				vs[k] = vals[rng.Intn(len(vals))]
			}
			s[i] = Seq(vs...)
			continue
		}
		vals, err := m.Inst.Values(vc.v.Sort)
		if err != nil {
			t.Fatal(err)
		}
		s[i] = vals[rng.Intn(len(vals))]
	}
	return s
}

func TestPermutedEncoding(t *testing.T) {
	m := loadPerm(t)
	fromBytes := 0 // variables permuted from their bytes
	defer func() {
		if fromBytes == 0 && !t.Failed() {
			t.Error("AppendPermutedVarBytes permuted no variable")
		}
	}()
	for _, sorts := range [][]SymSort{
		{{Name: "T"}},
		{{Name: "L"}},
		{{Name: "T"}, {Name: "L"}},
		{{Name: "T", Fixed: []int{0}}, {Name: "L"}},
	} {
		sy, err := m.NewSymmetry(sorts)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		for _, ss := range sorts {
			want *= map[string]int{"T": 6, "L": 2}[ss.Name]
			if len(ss.Fixed) > 0 {
				want /= 3
			}
		}
		if sy.Order() != want {
			t.Fatalf("%v: order %d, want %d", sorts, sy.Order(), want)
		}
		rng := rand.New(rand.NewSource(1))
		for k := 0; k < 200; k++ {
			s := randomState(t, m, rng)
			if k%4 == 0 {
				// a state fixed by some permutations: ties
				for i := range s {
					d, err := m.Inst.Default(m.vars[i].v.Sort)
					if err != nil {
						t.Fatal(err)
					}
					s[i] = d
				}
				if k%8 == 0 {
					s[0] = randomState(t, m, rng)[0]
				}
			}
			canon, ties := sy.AppendCanonical(nil, s)
			// EncodeCanonical, for a state that shares some variables
			// with s and not others
			r := plainOffs{m}
			dec, err := m.DecodeState(m.AppendState(nil, randomState(t, m, rng)))
			if err != nil {
				t.Fatal(err)
			}
			mixed := append(State(nil), dec...)
			for i := range mixed {
				if rng.Intn(2) == 0 {
					mixed[i] = s[i]
				}
			}
			mc, mties := sy.AppendCanonical(nil, mixed)
			if got, n := sy.EncodeCanonical(r, []byte{9}, mixed); !bytes.Equal(got, append([]byte{9}, mc...)) || n != mties {
				t.Fatalf("%v: EncodeCanonical = %x (%d ties), want %x (%d)", sorts, got, n, mc, mties)
			}
			ml, mtl := sy.AppendLeast(nil, mixed, nil)
			if got, gs := sy.EncodeLeast(r, []byte{9}, mixed, []int{5, 5}); !bytes.Equal(got, append([]byte{9}, ml...)) || fmt.Sprint(gs) != fmt.Sprint(mtl) {
				t.Fatalf("%v: EncodeLeast = %x with %v, want %x with %v", sorts, got, gs, ml, mtl)
			}
			for g := 0; g < sy.Order(); g++ {
				if got, want := sy.EncodePermuted(r, []byte{9}, mixed, g), sy.AppendPermuted([]byte{9}, mixed, g); !bytes.Equal(got, want) {
					t.Fatalf("%v: permutation %d: EncodePermuted = %x, want %x", sorts, g, got, want)
				}
			}
			least, n := []byte(nil), 0
			var tieList []int
			for g := 0; g < sy.Order(); g++ {
				img := sy.Permute(s, g)
				enc := m.AppendState(nil, img)
				if got := sy.AppendPermuted(nil, s, g); !bytes.Equal(got, enc) {
					t.Fatalf("%v: permutation %d: AppendPermuted differs from AppendState(Permute)", sorts, g)
				}
				var vars []byte
				for i := range s {
					vars = sy.AppendPermutedVar(vars, s, g, i)
					if !sy.PermuteVar(s, g, i).Equal(img[i]) {
						t.Fatalf("%v: permutation %d: PermuteVar(%d) differs from Permute", sorts, g, i)
					}
					if got, want := m.AppendVar(nil, i, img[i]), sy.AppendPermutedVar(nil, s, g, i); !bytes.Equal(got, want) {
						t.Fatalf("%v: permutation %d: AppendVar(%d) of the image differs from AppendPermutedVar", sorts, g, i)
					}
					// from the variable's bytes, where its byte program can
					got, ok := sy.AppendPermutedVarBytes([]byte{3}, m.AppendVar(nil, i, s[i]), g, i)
					switch {
					case ok && !bytes.Equal(got, append([]byte{3}, sy.AppendPermutedVar(nil, s, g, i)...)):
						t.Fatalf("%v: permutation %d: AppendPermutedVarBytes(%d) differs from AppendPermutedVar", sorts, g, i)
					case !ok && !bytes.Equal(got, []byte{3}):
						t.Fatalf("%v: permutation %d: AppendPermutedVarBytes(%d) fails and changes buf", sorts, g, i)
					case ok:
						fromBytes++
					}
				}
				if !bytes.Equal(vars, enc) {
					t.Fatalf("%v: permutation %d: the variables' encodings, joined, differ from the state's", sorts, g)
				}
				if back, err := m.DecodeState(enc); err != nil || !back.Equal(img) {
					t.Fatalf("%v: permutation %d: the image does not decode to itself: %v", sorts, g, err)
				}
				switch c := bytes.Compare(enc, least); {
				case least == nil || c < 0:
					least, n, tieList = enc, 1, []int{g}
				case c == 0:
					n++
					tieList = append(tieList, g)
				}
				// every image has the same canonical encoding
				if c, _ := sy.AppendCanonical(nil, img); !bytes.Equal(c, canon) {
					t.Fatalf("%v: permutation %d changes the canonical encoding", sorts, g)
				}
			}
			if !bytes.Equal(canon, least) || ties != n {
				t.Fatalf("%v: canonical encoding is not the least image (ties %d, want %d)", sorts, ties, n)
			}
			pre := []byte{7}
			got, gs := sy.AppendLeast(pre, s, []int{5, 5, 5})
			if !bytes.Equal(got[:1], pre) || !bytes.Equal(got[1:], least) || fmt.Sprint(gs) != fmt.Sprint(tieList) {
				t.Fatalf("%v: AppendLeast = %x with %v, want %x with %v", sorts, got, gs, least, tieList)
			}
		}
	}
}

func TestPermutedValues(t *testing.T) {
	m := loadPerm(t)
	sy, err := m.NewSymmetry([]SymSort{{Name: "T"}, {Name: "L"}})
	if err != nil {
		t.Fatal(err)
	}
	// find the permutation T#0→T#1→T#2→T#0, L swapped
	g := -1
	for i, p := range sy.perms {
		if bytes.Equal(p.fwd[0], []byte{1, 2, 0}) && bytes.Equal(p.fwd[1], []byte{1, 0}) {
			g = i
		}
	}
	if g < 0 {
		t.Fatal("permutation not found")
	}
	tl := func(t, l int) Value { return Record(Elem(t), Elem(l)) }
	inst := m.Inst
	s := make(State, len(m.vars))
	for i, vc := range m.vars {
		d, _ := inst.Default(vc.v.Sort)
		s[i] = d
	}
	idx := func(name string) int { return m.A.VarIndex(name) }
	s[idx("x")] = Elem(2)
	s[idx("o")] = Some(Elem(0))
	s[idx("ol")] = Some(tl(1, 0))
	s[idx("s")] = Seq(Elem(0), Elem(2))
	s[idx("m")] = Value{vs: []Value{Elem(1), Elem(0), Elem(0)}} // T#0 ↦ L#1
	s[idx("st")] = Value{vs: []Value{Bool(true), Bool(false), Bool(false)}}
	p := sy.Permute(s, g)
	for _, c := range []struct {
		name, want string
	}{
		{"x", "T#0"},
		{"o", "Some(T#1)"},
		{"ol", "Some(TL{t: T#2, l: L#1})"},
		{"s", "[T#1, T#0]"},
		{"m", "const(L#1)[T#1 := L#0]"},
		{"st", "{T#1}"},
	} {
		i := idx(c.name)
		if got := Format(p[i], m.vars[i].v.Sort); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestComposeInverse checks Compose and Inverse against Permute: applying
// π_h and then π_g is π_{Compose(g, h)}, and π_{Inverse(g)} undoes π_g.
func TestComposeInverse(t *testing.T) {
	m := loadPerm(t)
	for _, sorts := range [][]SymSort{
		{{Name: "T"}},
		{{Name: "T"}, {Name: "L"}},
		{{Name: "T", Fixed: []int{0}}, {Name: "L"}},
	} {
		sy, err := m.NewSymmetry(sorts)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(2))
		s := randomState(t, m, rng)
		for g := 0; g < sy.Order(); g++ {
			inv := sy.Inverse(g)
			if back := sy.Permute(sy.Permute(s, g), inv); !back.Equal(s) {
				t.Fatalf("%v: π_%d then π_Inverse(%d) = π_%d is not the identity on a state", sorts, g, g, inv)
			}
			if c := sy.Compose(g, inv); c != 0 {
				t.Fatalf("%v: Compose(%d, Inverse(%d)) = %d, want the identity 0", sorts, g, g, c)
			}
			for h := 0; h < sy.Order(); h++ {
				want := sy.Permute(sy.Permute(s, h), g)
				if got := sy.Permute(s, sy.Compose(g, h)); !got.Equal(want) {
					t.Fatalf("%v: π_Compose(%d, %d) differs from π_%d after π_%d", sorts, g, h, g, h)
				}
			}
		}
	}
}

// TestByteProgs checks which variables of the fixture get a byte program:
// those whose layout is fixed, and no other (TestPermutedEncoding then
// checks their images against the values' own).
func TestByteProgs(t *testing.T) {
	m := loadPerm(t)
	sy, err := m.NewSymmetry([]SymSort{{Name: "T"}, {Name: "L"}})
	if err != nil {
		t.Fatal(err)
	}
	var with []string
	for i, bp := range sy.progs {
		if bp != nil {
			with = append(with, m.vars[i].v.Name)
		}
	}
	if got, want := strings.Join(with, " "), "x o s m st mm mn mt sm"; got != want {
		t.Errorf("byte programs for %q, want %q", got, want)
	}
}

// plainOffs is an OffsEncoder that encodes every variable (package fast's
// Runner copies those a state shares with the state it decoded last).
type plainOffs struct{ m *Machine }

func (e plainOffs) EncodeOffs(buf []byte, s State, d *Dead, offs []int) []byte {
	start := len(buf)
	for i := range s {
		offs[i] = len(buf) - start
		if d != nil {
			buf = d.AppendVar(buf, s, i)
		} else {
			buf = e.m.AppendVar(buf, i, s[i])
		}
	}
	offs[len(s)] = len(buf) - start
	return buf
}
