// Package approve owns the approval of tool calls that have effects
// outside the trial (shell_execute, web_fetch, web_search, every MCP tool):
// the `--approve PATTERN` rules of the command line, the Asker a browser
// supplies to put a call to the author, and the Gate that decides a call
// from both.
//
// # Patterns
//
// A pattern is TOOL, TOOL:GLOB or mcp:SERVER. TOOL is a tool's name as the
// model sees it (exactly). GLOB is matched against the call's subject:
// the Command argument of shell_execute, the Url argument of web_fetch, the
// Query argument of web_search, and the JSON arguments (meta properties
// left out, keys sorted, no spaces) of any other tool. In a GLOB, `*`
// matches any run of characters (slashes and spaces included), `?` one
// character, and `\` makes the next character literal; the whole subject
// must match. mcp:SERVER approves every tool of the MCP server SERVER,
// named ignoring case as NetClaw names servers.
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
