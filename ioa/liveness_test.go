package ioa_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"ladder/ioa"
	"ladder/ioa/load"
)

// deadText describes the registers of a as "x@c: dead at K1, K2".
func deadText(a *ioa.Automaton) []string {
	var out []string
	for _, r := range ioa.DeadRegisters(a) {
		var dead []string
		for k, l := range r.Live {
			if !l {
				dead = append(dead, r.Control.Sort.Elem.Elems[k])
			}
		}
		out = append(out, fmt.Sprintf("%s@%s: %s", r.Var.Name, r.Control.Name, strings.Join(dead, " ")))
	}
	sort.Strings(out)
	return out
}

func TestDeadRegistersRepository(t *testing.T) {
	set, errs := load.Files("../specs", "../algorithms")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, a := range set.Automata {
		t.Logf("%s:\n  %s", a.Name, strings.Join(deadText(a), "\n  "))
	}
}
