package approve

import "github.com/agentdesk/agentdesk/lint/approvepattern"

// MCPPrefix starts a pattern that approves every tool of an MCP server.
const MCPPrefix = approvepattern.MCPPrefix

// Pattern is one parsed `--approve` rule (lint/approvepattern.Pattern).
type Pattern = approvepattern.Pattern

// PatternError is a pattern that does not parse
// (lint/approvepattern.PatternError).
type PatternError = approvepattern.PatternError

// Parse parses a pattern: TOOL, TOOL:GLOB or mcp:SERVER. Its errors are
// *PatternError.
func Parse(s string) (Pattern, error) { return approvepattern.Parse(s) }

// ParseAll parses every pattern; the first bad one is the error.
func ParseAll(ss []string) ([]Pattern, error) { return approvepattern.ParseAll(ss) }

// Glob reports whether s matches the glob g as a whole.
func Glob(g, s string) bool { return approvepattern.Glob(g, s) }

// QuoteGlob escapes s so that, as a glob, it matches exactly s.
func QuoteGlob(s string) string { return approvepattern.QuoteGlob(s) }

// matches reports whether p approves req.
func matches(p Pattern, req Request) bool { return p.Match(req.Tool, req.Server, req.Subject) }
