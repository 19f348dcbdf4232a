// This file implements the dead-register reduction of the search
// (Config.ReduceDead).

package explore

import (
	"fmt"
	"strings"

	"ladder/ioa"
)

// DeadRegister describes a register that the search resets where it is
// dead: Var's entry for a process (an element of the parameter sort Key)
// is replaced by its sort's default value whenever the process's entry of
// Control holds one of DeadAt.
type DeadRegister struct {
	Var     string   `json:"var"`
	Key     string   `json:"key"`
	Control string   `json:"control"`
	DeadAt  []string `json:"deadAt"`
}

// setupDead compiles the reduction of cfg.ReduceDead. It changes which
// states are stored, not which are reached: a state stands for every state
// that differs from it only in dead entries, and they are bisimilar
// (ioa.Register), so the invariants, the deadlocks and the traces found
// are those of the search without it. Violations are replayed from a
// start state with the evaluator before they are reported.
func (x *explorer) setupDead() error {
	if !x.cfg.ReduceDead {
		return nil
	}
	if x.cfg.Visitor != nil {
		return fmt.Errorf("dead-register reduction cannot be combined with a visitor: the search would show reduced states, not the states reached")
	}
	regs := ioa.DeadRegisters(x.m.A)
	x.res.Dead = DescribeDead(regs)
	if len(regs) == 0 {
		return nil
	}
	d, err := x.m.NewDead(regs)
	if err != nil {
		return err
	}
	x.dead = d
	return nil
}

// DescribeDead describes the registers ioa.DeadRegisters found (an empty
// list, not nil, for none).
func DescribeDead(regs []ioa.Register) []DeadRegister {
	out := []DeadRegister{}
	for _, r := range regs {
		dr := DeadRegister{Var: r.Var.Name, Key: r.Var.Sort.Key.Name, Control: r.Control.Name}
		for k, live := range r.Live {
			if !live {
				dr.DeadAt = append(dr.DeadAt, r.Control.Sort.Elem.Elems[k])
			}
		}
		out = append(out, dr)
	}
	return out
}

// Where says where the register is dead, as `x[p] dead when pc[p] in
// {…}`, with its variables read in the state named state (none: "").
func (r DeadRegister) Where(state string) string {
	if state != "" {
		state += "."
	}
	p := strings.ToLower(r.Key)
	return fmt.Sprintf("%s%s[%s] dead when %s%s[%s] in {%s}", state, r.Var, p, state, r.Control, p, strings.Join(r.DeadAt, ", "))
}

// DeadNames returns the registers of regs, comma-separated.
func DeadNames(regs []DeadRegister) string {
	var names []string
	for _, r := range regs {
		names = append(names, r.Var)
	}
	return strings.Join(names, ", ")
}

// writeDead writes the reduction's lines (nothing without one).
func writeDead(ew *errWriter, regs []DeadRegister) {
	if regs == nil {
		return
	}
	if len(regs) == 0 {
		ew.printf("dead registers: none found; every state is stored whole\n")
		return
	}
	ew.printf("dead registers: %s reset where dead; the states counted are states up to dead entries\n", DeadNames(regs))
	for _, r := range regs {
		ew.printf("  %s\n", r.Where(""))
	}
}
