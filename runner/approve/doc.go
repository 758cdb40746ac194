// Package approve owns the approval of tool calls that have effects
// outside the trial (shell_execute, web_fetch, web_search, every MCP tool):
// the `--approve PATTERN` rules of the command line, the Asker a browser
// supplies to put a call to the author, and the Gate that decides a call
// from both.
//
// # Patterns
//
// A pattern is TOOL, TOOL:GLOB or mcp:SERVER. Its grammar (parsing, the
// glob, matching a call) is lint/approvepattern's, which suite files are
// checked with too; this package names its parts as its own (Pattern,
// Parse, Glob, …) for the code that gates calls.
//
// # Deciding
//
// Gate.Decide approves a call that a pattern matches, or that the author
// approved for the run earlier; otherwise it asks the Asker, whose answer
// is once, for this run (every later call to the same tool is approved) or
// deny. With no Asker the call is unattended: see Unattended. An answer
// that comes while the run's context is cancelled (or no answer, because it
// was) denies the call; Decide never blocks past the context.
package approve
