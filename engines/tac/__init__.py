"""TAC: the 4-player team marble game (rules digest: shared/rules/tac.en.md, clauses TAC-1..90)."""
