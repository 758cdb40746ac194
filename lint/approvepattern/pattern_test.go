package approvepattern

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		tool    string
		glob    string
		hasGlob bool
		server  string
		err     string
	}{
		{in: "shell_execute", tool: "shell_execute"},
		{in: "shell_execute:go test *", tool: "shell_execute", glob: "go test *", hasGlob: true},
		{in: "web_fetch:https://example.test/*", tool: "web_fetch", glob: "https://example.test/*", hasGlob: true},
		{in: "mcp:github", server: "github"},
		{in: "github__create_issue:*", tool: "github__create_issue", glob: "*", hasGlob: true},
		{in: "", err: "empty"},
		{in: "mcp:", err: "one MCP server"},
		{in: "mcp:a:b", err: "one MCP server"},
		{in: "shell execute", err: "not a tool name"},
		{in: ":x", err: "not a tool name"},
		{in: "shell_execute:", err: "glob after"},
		{in: `shell_execute:a\`, err: "lone"},
	}
	for _, tt := range tests {
		p, err := Parse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) error = %v, want it to say %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if p.Tool != tt.tool || p.Glob != tt.glob || p.HasGlob != tt.hasGlob || p.Server != tt.server || p.String() != tt.in {
			t.Errorf("Parse(%q) = %+v", tt.in, p)
		}
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		g, s string
		want bool
	}{
		{"*", "", true},
		{"*", "rm -rf /", true},
		{"go test *", "go test ./...", true},
		{"go test *", "go vet ./...", false},
		{"go test *", "go test", false},
		{"https://example.test/*", "https://example.test/a/b?c=d", true},
		{"https://example.test/*", "https://example.test.evil/a", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"a?c", "aéc", true},
		{`a\*c`, "a*c", true},
		{`a\*c`, "abc", false},
		{"*a*b*", "xxaxxbxx", true},
		{"*a*b*", "xxbxxaxx", false},
		{"ls", "ls -la", false},
		{"ls*", "ls; rm -rf /", true},
		{"", "", true},
		{"", "x", false},
		{strings.Repeat("*a", 30) + "b", strings.Repeat("a", 60), false},
	}
	for _, tt := range tests {
		if got := Glob(tt.g, tt.s); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", tt.g, tt.s, got, tt.want)
		}
	}
}

func TestQuoteGlobMatchesItself(t *testing.T) {
	for _, s := range []string{"rm *.go", `a\b?`, "plain", ""} {
		if !Glob(QuoteGlob(s), s) {
			t.Errorf("QuoteGlob(%q) = %q does not match it", s, QuoteGlob(s))
		}
		if s != "" && Glob(QuoteGlob(s), s+"x") {
			t.Errorf("QuoteGlob(%q) matches more", s)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"shell_execute:go *", "mcp:x", "a:b:c", `x:\`, ""} {
		f.Add(s, "go test")
	}
	f.Fuzz(func(t *testing.T, pat, subject string) {
		p, err := Parse(pat)
		if err != nil {
			return
		}
		p.Match(p.Tool, "", subject)
		if !Glob(QuoteGlob(subject), subject) {
			t.Errorf("QuoteGlob(%q) does not match itself", subject)
		}
	})
}

// TestPatternErrorWords: a bad pattern's error says, word for word, what
// --approve's refusal says after "--approve " (Error, with More), and
// Problem what a suite's approve: finding says after `approve "…": ` (its
// hint shows what a pattern looks like): one grammar, two places.
func TestPatternErrorWords(t *testing.T) {
	for _, tt := range []struct {
		in, problem, more string
	}{
		{"", "the pattern is empty: give TOOL, TOOL:GLOB or mcp:SERVER", " (e.g. shell_execute:'go test *')"},
		{"\xff", "the pattern is not UTF-8 text", ""},
		{"mcp:", "mcp: is followed by one MCP server's name as netclaw.json's McpServers names it (e.g. mcp:github)", ""},
		{"mcp:a b", "mcp: is followed by one MCP server's name as netclaw.json's McpServers names it (e.g. mcp:github)", ""},
		{"shell execute", `"shell execute" is not a tool name (letters, digits, _ and -, as the model sees it: shell_execute, web_fetch, github__create_issue)`, "; give TOOL, TOOL:GLOB or mcp:SERVER"},
		{"__read", "the server half before __read is empty: give SERVER__TOOL", ""},
		{"fs__", "the tool half after fs__ is empty: give SERVER__TOOL, or mcp:fs for every tool of the server", ""},
		{"shell_execute:", `the glob after "shell_execute:" is empty: leave the colon out to approve every call of shell_execute`, ""},
		{`shell_execute:a\\\`, `the glob ends in a lone \: write \\ for a backslash`, ""},
	} {
		_, err := Parse(tt.in)
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a *PatternError", tt.in, err)
			continue
		}
		if pe.Problem != tt.problem || pe.More != tt.more || pe.Pattern != tt.in {
			t.Errorf("Parse(%q): Problem %q, More %q; want %q, %q", tt.in, pe.Problem, pe.More, tt.problem, tt.more)
		}
		if want := fmt.Sprintf("%q: %s%s", tt.in, tt.problem, tt.more); err.Error() != want {
			t.Errorf("Parse(%q).Error() = %q, want %q", tt.in, err.Error(), want)
		}
	}
	for _, ok := range []string{`shell_execute:a\\`, "a__b__c", "mcp:GitHub", "web_fetch:https://*"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
}
