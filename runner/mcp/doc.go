// Package mcp owns the MCP servers of a trial run: the McpServers entries of
// the configuration (lint.McpServer) that the run's audience may use,
// started with the official MCP Go SDK (stdio in a process group of its
// own, streamable HTTP, SSE), and their tools offered to the model as the
// runtime offers them: named server__tool, with schemas sanitized as
// NetClaw's McpSchemaSanitizer does and the meta properties (_rationale,
// _timeout_seconds, _background) injected, deferred (reached through
// search_tools and load_tool), and every call gated by approval (the
// runner/tools Set asks runner/approve, which knows `--approve mcp:SERVER`).
//
// Start starts the servers at once and returns a Servers whatever happens:
// a server that cannot start (a command that does not exist, garbage on
// its stdout, a URL that refuses connections, no answer within the start
// limit) offers no tools and leaves one note. A call goes to the server
// with the meta arguments stripped, argument names matched to the schema
// ignoring case and strings coerced to the schema's numbers and booleans,
// as the runtime does; a call that fails (the server answers with an
// error, reports a failure, hangs past the time limit, dies, or sends a
// result over the cap) returns the runtime's tool error text
// ("Error: MCP tool 'server/tool' failed: ...") and leaves one note; the
// run goes on, and a server that died is started again for the next call,
// as the runtime reconnects.
//
// Servers.Close stops every server: a stdio server's whole process group
// gets SIGTERM, then SIGKILL, so nothing it started outlives the run. A
// server that did not answer its start in time gets SIGKILL at once.
//
// Facts followed (netclaw-dev/netclaw): McpToolAdapter (commit
// 68468082710a308a4a398598a5be29db5160f6f4) and pull request #1134 (the
// model-facing alias server__tool), McpSchemaSanitizer and its tests
// (commits 08313c5b5ee08aec375c6d6c1f3865a2135a0b24 and
// 34fd4bc95caf8f334f9ed2490279f4898d5bd1c0), McpToolResultFormatter
// (commit d19c3aa87e800ce8471ea2ec2bdf791903a17c40) and McpClientManager
// (commit 0c72b2947abfe6c0bfd3392f963c73244b1e2b19).
package mcp
