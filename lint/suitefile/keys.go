package suitefile

var (
	mockKeys     = []string{"tool", "args", "result", "error"}
	changeKeys   = []string{"path", "contains", "unchanged"}
	toolCallKeys = []string{"name", "args"}
)

// KeyGroup is one mapping of a suite file and the keys it takes.
type KeyGroup struct {
	// Where names the mapping: "test suite", "test case", "expect"…
	Where string
	// Keys are the keys the mapping takes, in the order the reader knows
	// them; any other key is a suite-unknown-key error.
	Keys []string
}

// Keys lists every key a suite file takes, mapping by mapping: the keys
// `agentdesk help suites` and docs/test.md and docs/route.md document.
func Keys() []KeyGroup {
	return []KeyGroup{
		{"test suite", suiteKeys},
		{"test case", caseKeys},
		{"expect", expectKeys},
		{"expect: tools: item", toolCallKeys},
		{"expect: changes: item", changeKeys},
		{"mocks: item", mockKeys},
		{"routing suite", routeSuiteKeys},
		{"routing case", routeCaseKeys},
	}
}
