package lint

// This file holds the check of the rule enum-loose (RuleEnumLoose):
// modelRole or visibility loads only because .NET's enum parser is lenient
// (a number, a comma list, stray '-').

import "fmt"

// looseEnumMessage says what the runtime makes of an enum value that loads
// only because .NET's Enum.TryParse is lenient.
func looseEnumMessage(key, raw string, form enumForm, effective string, defined bool, numbering, what string) string {
	result := effective
	if !defined {
		result = effective + ", which is not " + what + " (" + numbering + "), and loads the file with it"
	}
	switch form {
	case enumNumber:
		return fmt.Sprintf("%s '%s' is a number: the runtime's enum parser (.NET Enum.TryParse) accepts any number and reads %s", key, raw, result)
	case enumList:
		return fmt.Sprintf("%s '%s' is a comma list: the runtime's enum parser (.NET Enum.TryParse) combines the members' numbers (%s) and reads %s", key, raw, numbering, result)
	}
	return fmt.Sprintf("%s '%s' is not written plainly: the runtime's enum parser (.NET Enum.TryParse) reads %s", key, raw, result)
}
