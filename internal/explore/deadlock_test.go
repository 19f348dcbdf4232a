package explore

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"ladder/ioa/eval"
	"ladder/ioa/eval/fast"
)

// Two processes take two locks, each holding its first while it takes the
// second, then release both and finish. In Crossed, p takes a then b and q
// takes b then a: after p takes a and q takes b neither can move and
// neither is done, a deadlock two steps from the start. In Ordered both
// take a first: the only state without successors is the final one.
const lockFixtures = `
automaton: %s
state:
  a: {sort: Int, init: 0}  # 0 free, 1 held by p, 2 held by q
  b: {sort: Int, init: 0}
  p: {sort: Int, init: 0}  # 0 idle, 1 holds its first lock, 2 done
  q: {sort: Int, init: 0}
final: p = 2 and q = 2
actions:
  P1: {kind: internal, pre: p = 0 and a = 0, eff: "a := 1; p := 1"}
  P2: {kind: internal, pre: p = 1 and b = 0, eff: "a := 0; p := 2"}
  Q1: {kind: internal, pre: q = 0 and %[2]s = 0, eff: "%[2]s := 2; q := 1"}
  Q2: {kind: internal, pre: q = 1 and %[3]s = 0, eff: "%[2]s := 0; q := 2"}
`

func TestDeadlock(t *testing.T) {
	fixtures["crossed.yaml"] = fmt.Sprintf(lockFixtures, "Crossed", "b", "a")
	fixtures["ordered.yaml"] = fmt.Sprintf(lockFixtures, "Ordered", "a", "b")
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("crossed/w%d", workers), func(t *testing.T) {
			a := loadFixture(t, "crossed.yaml", "Crossed")
			res, err := Explore(a, Config{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			tr := res.Violation
			if tr == nil || !tr.Deadlock {
				t.Fatalf("no deadlock reported: %+v", res)
			}
			var acts []string
			for _, st := range tr.Steps[1:] {
				acts = append(acts, st.Act.Name)
			}
			if got := strings.Join(acts, " "); got != "P1 Q1" && got != "Q1 P1" {
				t.Errorf("deadlock trace %q, want P1 Q1 (a shortest one)", got)
			}
			last := tr.Steps[len(tr.Steps)-1].State
			m, err := Machine(a, Config{})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			if err := fast.NewRunner(m).Successors(last, func(int, []eval.Value, eval.State) bool { n++; return true }); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("the last state of the trace enables %d actions", n)
			}
			var buf bytes.Buffer
			if err := res.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "DEADLOCK after 2 steps") {
				t.Errorf("text report:\n%s", buf.String())
			}
		})
		t.Run(fmt.Sprintf("ordered/w%d", workers), func(t *testing.T) {
			a := loadFixture(t, "ordered.yaml", "Ordered")
			res, err := Explore(a, Config{Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil || !res.Complete || !res.FinalChecked {
				t.Fatalf("want a complete search without deadlock: %+v", res)
			}
			if res.Deadlocks == 0 {
				t.Errorf("the final state has no successor and should be counted")
			}
		})
	}
}

// TestRunDeadlock checks Run's ending: a state with no enabled action is a
// deadlock (NotFinal) exactly when it is not final, and Ordered, whose
// only such state is final, never ends in one.
func TestRunDeadlock(t *testing.T) {
	fixtures["crossed.yaml"] = fmt.Sprintf(lockFixtures, "Crossed", "b", "a")
	fixtures["ordered.yaml"] = fmt.Sprintf(lockFixtures, "Ordered", "a", "b")
	for _, c := range []struct {
		file, name string
		deadlocks  bool // some seed ends in a deadlock
	}{{"crossed.yaml", "Crossed", true}, {"ordered.yaml", "Ordered", false}} {
		a := loadFixture(t, c.file, c.name)
		seen := map[bool]int{}
		for seed := uint64(1); seed <= 40; seed++ {
			tr, err := Run(a, Config{}, 10, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Deadlock {
				t.Fatalf("%s seed %d: the run did not end with no enabled action", c.name, seed)
			}
			last := tr.Steps[len(tr.Steps)-1].State
			final := last[2].Int() == 2 && last[3].Int() == 2
			if tr.NotFinal == final {
				t.Fatalf("%s seed %d: NotFinal %v in %v", c.name, seed, tr.NotFinal, last)
			}
			seen[tr.NotFinal]++
			var buf bytes.Buffer
			if err := tr.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(buf.String(), "is not final: a deadlock"); got != tr.NotFinal {
				t.Fatalf("%s seed %d: text %q", c.name, seed, buf.String())
			}
		}
		if (seen[true] > 0) != c.deadlocks || seen[false] == 0 {
			t.Errorf("%s: %d runs ended in a deadlock, %d in a final state", c.name, seen[true], seen[false])
		}
	}
}
