package suitefile

import "github.com/agentdesk/agentdesk/lint"

// Rule ids of suite files. They are not lint.Rules (the runtime knows
// nothing of suites) but print the same way.
const (
	RuleYAML          = "suite-yaml"
	RuleUnknownKey    = "suite-unknown-key"
	RuleMissing       = "suite-missing"
	RuleValue         = "suite-value"
	RuleRegexp        = "suite-regexp"
	RuleDuplicateCase = "suite-duplicate-case"
	RuleAgent         = "suite-agent"
	RuleSkill         = "suite-skill"
	RuleFile          = "suite-file"
	RuleUnreadable    = "suite-unreadable"
	RuleAgentName     = "suite-agent-name"
	RuleOutsideHome   = "suite-outside-home"
	RuleCommand       = "suite-command"
	RuleVars          = "suite-vars"
	RuleTemplate      = "suite-template"
	RuleModel         = "suite-model"
	RuleMock          = "suite-mock"
	RuleChange        = "suite-change"
	RuleApprove       = "suite-approve"
)

// Rules lists the rules of suite files, in the order docs/rules.md documents
// them. Every one but suite-agent-name and suite-outside-home is an error: a suite that says
// something agentdesk cannot do must not pass quietly.
var Rules = []lint.Rule{
	{ID: RuleYAML, Summary: "a suite file is not valid YAML, a key appears twice, or a value has the wrong type", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleUnknownKey, Summary: "a key suites do not have (with did-you-mean)", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleMissing, Summary: "a required key is missing: cases, a case's name or task", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleValue, Summary: "a value out of range: repeat, pass-rate, an outcome or reason, a limit; an audience of Public; expected tool calls in a case without a project", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleRegexp, Summary: "matches is not a valid RE2 regular expression", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleDuplicateCase, Summary: "two cases of a suite share a name", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleAgent, Summary: "the suite's agent is not loaded (unknown or rejected)", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleSkill, Summary: "a case's skill is unknown or does not route to the suite's agent", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleFile, Summary: "a case's context-file or project folder does not exist", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleUnreadable, Summary: "a suite file cannot be read", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleAgentName, Summary: "a test suite's agent: names another agent than its file name", Runtime: lint.Warning, Publish: lint.Warning},
	{ID: RuleOutsideHome, Summary: "a case's context-file or project is outside the home: recordings made from it go stale on another machine", Runtime: lint.Warning, Publish: lint.Warning},
	{ID: RuleCommand, Summary: "a check program (expect: command:) is not found, not a file or not executable", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleVars, Summary: "vars: or a vars-file is missing, not .jsonl or .csv, binary, ragged or not valid", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleTemplate, Summary: "a template uses a variable that a row does not define, or a template has no rows (or rows no template)", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleModel, Summary: "a model of models: is neither a role nor a model definition, or is named twice", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleMock, Summary: "a mocks: item has no tool, gives both or neither of result and error, or its args are not a mapping", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleApprove, Summary: "an approve: pattern is not TOOL, TOOL:GLOB or mcp:SERVER, names a tool that needs no approval or does not exist, names an MCP server netclaw.json does not configure, or approves what its case's audience is never offered", Runtime: lint.Error, Publish: lint.Error},
	{ID: RuleChange, Summary: "an expect: changes: item has no path, leads out of the project, gives both or neither of contains and unchanged, or its case has no project", Runtime: lint.Error, Publish: lint.Error},
}
