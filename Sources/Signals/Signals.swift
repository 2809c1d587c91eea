// The Signals module arrives with its own issue; until then it holds nothing (DESIGN.md).
