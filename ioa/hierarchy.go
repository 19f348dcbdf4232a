// This file holds the hierarchy model: the interfaces, automata and proof
// edges of a group of files, which package ioa/load fills and the
// obligation generator, the explorer and the cross-checker read.

package ioa

// Hierarchy is a hierarchy of automata: the interfaces and automata
// declared, and the proof edges between them. When loading reported
// errors it holds what could be loaded: its automata may then be
// incomplete and must not be explored or proved.
type Hierarchy struct {
	Interfaces []*Interface // in load order, each once
	Automata   []*Automaton // in load order, each once
	// Proofs are the edges of the proof files that loaded, in load order.
	Proofs []*Proof
	// Resolved are the automata of Automata loaded from the library
	// because a proof named them, in load order.
	Resolved []*Automaton
}

// Automaton returns the automaton with the given name, or nil.
func (h *Hierarchy) Automaton(name string) *Automaton {
	for _, a := range h.Automata {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Interface returns the interface with the given name, or nil.
func (h *Hierarchy) Interface(name string) *Interface {
	for _, i := range h.Interfaces {
		if i.Name == name {
			return i
		}
	}
	return nil
}
