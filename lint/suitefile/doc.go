// Package suitefile reads and checks agentdesk's suite files, which sit beside
// the agents in files the runtime ignores: test suites (<agent>.test.yaml,
// for agentdesk test; this package's Parse and Check) and routing suites
// (<name>.route.yaml, for agentdesk route).
//
// Reading never fails: what is wrong in a file is a lint.Diagnostic at its
// line and column, with a rule id of this package (Rules) and, for an
// unknown key, a did-you-mean hint. A case with an error of its own keeps
// it in Case.Problems, so a runner can report that case and run the others;
// a file that does not parse at all has no cases.
//
// The YAML helpers (node walking with known keys, scalars, string lists,
// positions) are unexported and shared by every suite kind in this package.
package suitefile
