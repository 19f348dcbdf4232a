package logic

// Model is a satisfying assignment, as decoders see it. Package smt
// implements it over a Z3 model; tests implement it directly.
type Model interface {
	// Universe returns the elements of the uninterpreted sort s in the
	// model, as terms (typically constants naming the elements), in a
	// deterministic order.
	Universe(s *Sort) ([]*Term, error)
	// Eval evaluates the closed term t in the model (with model
	// completion) to a value: an Int or Bool literal, a datatype
	// constructor applied to values, an element of a Universe, or an
	// array given as a ConstArray followed by Stores.
	Eval(t *Term) (*Term, error)
}
