package approvepattern

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MCPPrefix starts a pattern that approves every tool of an MCP server.
const MCPPrefix = "mcp:"

// Pattern is one parsed `--approve` rule.
type Pattern struct {
	// Text is the pattern as written.
	Text string
	// Tool is the tool name it approves ("" for an mcp:SERVER pattern).
	Tool string
	// Glob is what the call's subject must match; "" with HasGlob false
	// approves every call of Tool.
	Glob    string
	HasGlob bool
	// Server is the MCP server of an mcp:SERVER pattern.
	Server string
}

// PatternError is a pattern that does not parse: the pattern as written,
// and what is wrong with it. It names no flag: the command line words it
// as --approve's, a suite file as approve:'s.
type PatternError struct {
	// Pattern is the pattern as written; Problem says what is wrong with
	// it, as a suite file's finding says it (whose hint shows what a
	// pattern looks like).
	Pattern, Problem string
	// More is the advice Error adds after Problem, saying what a pattern
	// looks like where no hint does (the command line): "" or text that
	// starts with its own separator.
	More string
	// Err is the cause, when there is one (a glob that does not parse).
	Err error
}

// Error quotes the pattern and says what is wrong with it, with More.
func (e *PatternError) Error() string {
	return fmt.Sprintf("%q: %s%s", e.Pattern, e.Problem, e.More)
}

// Unwrap returns the cause.
func (e *PatternError) Unwrap() error { return e.Err }

// problem is a *PatternError of s.
func problem(s, format string, args ...any) *PatternError {
	return &PatternError{Pattern: s, Problem: fmt.Sprintf(format, args...)}
}

// Parse parses a pattern: TOOL, TOOL:GLOB or mcp:SERVER. Its errors are
// *PatternError.
func Parse(s string) (Pattern, error) {
	p := Pattern{Text: s}
	if strings.TrimSpace(s) == "" {
		e := problem(s, "the pattern is empty: give TOOL, TOOL:GLOB or mcp:SERVER")
		e.More = " (e.g. shell_execute:'go test *')"
		return p, e
	}
	if !utf8.ValidString(s) {
		return p, problem(s, "the pattern is not UTF-8 text")
	}
	if rest, ok := strings.CutPrefix(s, MCPPrefix); ok {
		if rest == "" || strings.ContainsAny(rest, ": \t") {
			return p, problem(s, "mcp: is followed by one MCP server's name as netclaw.json's McpServers names it (e.g. mcp:github)")
		}
		p.Server = rest
		return p, nil
	}
	tool, glob, has := strings.Cut(s, ":")
	if !validToolName(tool) {
		e := problem(s, "%q is not a tool name (letters, digits, _ and -, as the model sees it: shell_execute, web_fetch, github__create_issue)", tool)
		e.More = "; give TOOL, TOOL:GLOB or mcp:SERVER"
		return p, e
	}
	if server, own, mcp := strings.Cut(tool, "__"); mcp && (server == "" || own == "") {
		if server == "" {
			return p, problem(s, "the server half before __%s is empty: give SERVER__TOOL", own)
		}
		return p, problem(s, "the tool half after %s__ is empty: give SERVER__TOOL, or mcp:%s for every tool of the server", server, server)
	}
	if has && glob == "" {
		return p, problem(s, "the glob after %q is empty: leave the colon out to approve every call of %s", tool+":", tool)
	}
	if err := checkGlob(glob); err != nil {
		return p, &PatternError{Pattern: s, Problem: err.Error(), Err: err}
	}
	p.Tool, p.Glob, p.HasGlob = tool, glob, has
	return p, nil
}

// ParseAll parses every pattern; the first bad one is the error.
func ParseAll(ss []string) ([]Pattern, error) {
	out := make([]Pattern, 0, len(ss))
	for _, s := range ss {
		p, err := Parse(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// validToolName reports whether s can be a model-facing tool name.
func validToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// Match reports whether the pattern approves a call of tool (of MCP
// server server, "" for a first-party tool) whose subject, the text a
// GLOB is matched against, is subject. An mcp:SERVER
// pattern names the server ignoring case, as NetClaw matches server names
// (ToolAudienceProfileResolver.IsMcpServerAllowed: AllowedMcpServers with
// StringComparer.OrdinalIgnoreCase, src/Netclaw.Actors/Tools/
// ToolAudienceProfileResolver.cs at 2f76fbb2ed539f25b5775f130141a1de1f5e4de7);
// tool names are exact, as NetClaw's AllowedTools and McpServerToolGrants
// compare them (StringComparer.Ordinal).
func (p Pattern) Match(tool, server, subject string) bool {
	if p.Server != "" {
		return server != "" && strings.EqualFold(server, p.Server)
	}
	if p.Tool != tool {
		return false
	}
	return !p.HasGlob || Glob(p.Glob, subject)
}

// String returns the pattern as written.
func (p Pattern) String() string { return p.Text }

// checkGlob reports a glob that ends in a lone escape.
func checkGlob(g string) error {
	esc := false
	for _, r := range g {
		switch {
		case esc:
			esc = false
		case r == '\\':
			esc = true
		}
	}
	if esc {
		return fmt.Errorf("the glob ends in a lone \\: write \\\\ for a backslash")
	}
	return nil
}

// Glob reports whether s matches the glob g as a whole: `*` matches any
// run of characters, `?` one character, `\x` the character x.
func Glob(g, s string) bool {
	// Iterative matching with one backtrack point: linear-ish, no
	// recursion, so a hostile pattern cannot blow the stack.
	var star, mark = -1, 0
	gi, si := 0, 0
	gr, sr := []rune(g), []rune(s)
	for si < len(sr) {
		if gi < len(gr) {
			switch c := gr[gi]; {
			case c == '*':
				star, mark = gi, si
				gi++
				continue
			case c == '?':
				gi++
				si++
				continue
			case c == '\\' && gi+1 < len(gr):
				if gr[gi+1] == sr[si] {
					gi += 2
					si++
					continue
				}
			case c == sr[si]:
				gi++
				si++
				continue
			}
		}
		if star < 0 {
			return false
		}
		mark++
		gi, si = star+1, mark
	}
	for gi < len(gr) && gr[gi] == '*' {
		gi++
	}
	return gi == len(gr)
}

// QuoteGlob escapes s so that, as a glob, it matches exactly s.
func QuoteGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '*' || r == '?' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
