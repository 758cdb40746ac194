// Package approvepattern is the grammar of approval patterns, which
// `--approve` and a suite's `approve:` both take: parsing, the glob, and
// matching a call. It sits below lint/suitefile, which checks suite files
// with it, and runner/approve, which gates calls with it; the wording of
// every bad pattern lives here once.
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
package approvepattern
