// The Subjects module arrives with its own issue; until then it holds nothing (DESIGN.md).
