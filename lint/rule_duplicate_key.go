package lint

// This file holds the check of the rule duplicate-key (RuleDuplicateKey): a
// frontmatter key appears twice: the last one wins.

import "fmt"

// checkDuplicateKey warns about a key written twice (the last value wins)
// and records where field's key is.
func (ps *parser) checkDuplicateKey(seen map[string]Pos, field Field) {
	if first, dup := seen[field.Key]; dup {
		ps.add(RuleDuplicateKey, field.KeyPos, fmt.Sprintf("'%s' is set twice (first on line %d): the last value wins", field.Key, first.Line), "delete one of them")
	}
	seen[field.Key] = field.KeyPos
}
