package simulation

// MutateGoalsForTesting makes false every goal of a step obligation whose
// clause (ClausePre, ClausePost, ClauseRelation, ClauseEvent, ClauseCases)
// and name (the abstract step's action, the variable, the relation clause;
// "" otherwise) f selects, in every world: the obligations Generate
// builds and the verdicts PointChecker gives change together, since both
// come from the one rule. f nil restores the rules. Not safe while
// Generate or a PointChecker runs.
func MutateGoalsForTesting(f func(clause, name string) bool) { goalMutation = f }
