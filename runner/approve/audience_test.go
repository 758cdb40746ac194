package approve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// audienceConfig loads a netclaw.json of text.
func audienceConfig(t *testing.T, text string) *lint.Config {
	t.Helper()
	h := lint.NewHome(t.TempDir(), "")
	if err := os.MkdirAll(filepath.Dir(h.ConfigFile()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.ConfigFile(), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return lint.LoadConfig(h, []string{})
}

// An audience can never use a pattern naming a tool it is not offered or
// an MCP server it may not use; what it can use, and what is not the
// audience's doing (no such server), passes.
func TestAudienceCheck(t *testing.T) {
	cfg := audienceConfig(t, `{"McpServers": {"github": {"Command": "/bin/true"}, "docs": {"Command": "/bin/true"}},
  "Tools": {"AudienceProfiles": {"Team": {"McpServersMode": "Allowlist", "AllowedMcpServers": ["docs"]}}}}`)
	off := audienceConfig(t, `{"Tools": {"ShellMode": "Off"}}`)
	for _, tt := range []struct {
		cfg      *lint.Config
		pattern  string
		audience preview.Audience
		want     string // "" means usable
	}{
		{cfg, "shell_execute", preview.Personal, ""},
		{cfg, "shell_execute:go test *", preview.Team, `"shell_execute:go test *": the Team audience is not offered shell_execute (the Team profile does not allow it), so the pattern approves nothing`},
		{cfg, "web_fetch", preview.Team, ""},
		{cfg, "mcp:GitHub", preview.Team, `"mcp:GitHub": the Team audience may not use MCP server github (Tools.AudienceProfiles.Team: McpServersMode Allowlist, and AllowedMcpServers does not name it), so none of its tools is offered`},
		{cfg, "github__create_issue", preview.Team, "may not use MCP server github"},
		{cfg, "mcp:docs", preview.Team, ""},
		{cfg, "mcp:nosuch", preview.Team, ""}, // not configured: another check says so
		{nil, "shell_execute", preview.Team, "the Team audience is not offered shell_execute"},
		{off, "shell_execute", preview.Personal, "the Personal audience is not offered shell_execute (Tools.ShellMode is Off)"},
	} {
		p, err := Parse(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		err = NewAudienceCheck(tt.cfg).Check(p, tt.audience)
		var ue *UnusableError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s as %s: %v, want usable", tt.pattern, tt.audience, err)
		case tt.want != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s as %s: %v, want an *UnusableError saying %q", tt.pattern, tt.audience, err, tt.want)
		}
		if got := NewAudienceCheck(tt.cfg).Audit(tt.pattern, strings.ToLower(tt.audience.String())); (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
			t.Errorf("Audit(%s, %s) = %q, want %q", tt.pattern, tt.audience, got, tt.want)
		}
	}
	check := NewAudienceCheck(cfg)
	p, _ := Parse("shell_execute")
	if err := check.CheckAny(p, []preview.Audience{preview.Team, preview.Personal}); err != nil {
		t.Errorf("CheckAny(Team, Personal) = %v, want usable by Personal", err)
	}
	if err := check.CheckAny(p, nil); err != nil {
		t.Errorf("CheckAny(no audience) = %v, want nothing checked", err)
	}
	if err := check.CheckAny(p, []preview.Audience{preview.Team}); err == nil || !strings.Contains(err.Error(), "Team") {
		t.Errorf("CheckAny(Team) = %v", err)
	}
}

// CheckTool refuses a pattern naming a tool that needs no approval or
// that NetClaw does not have (with the near name); it passes a tool that
// needs approval, an MCP tool and an mcp:SERVER pattern. Audit with no
// audience says the same, and with an audience leaves it to CheckTool.
func TestCheckTool(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		want    string // "" means it can match
	}{
		{"shell_execute:go test *", ""},
		{"web_fetch", ""},
		{"github__create_issue", ""},
		{"mcp:github", ""},
		{"file_read", `"file_read": file_read needs no approval`},
		{"file_read:*.go", `"file_read:*.go": file_read needs no approval`},
		{"shel_execute", `"shel_execute": no tool is named shel_execute (did you mean shell_execute?)`},
		{"zzzzzz", `"zzzzzz": no tool is named zzzzzz`},
	} {
		p, err := Parse(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckTool(p)
		var te *ToolError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", tt.pattern, err)
		case tt.want != "" && (!errors.As(err, &te) || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want a *ToolError starting %q", tt.pattern, err, tt.want)
		}
		if got := NewAudienceCheck(nil).Audit(tt.pattern, ""); (got == "") != (tt.want == "") || !strings.HasPrefix(got, tt.want) {
			t.Errorf("Audit(%q, \"\") = %q, want %q", tt.pattern, got, tt.want)
		}
	}
	if got := NewAudienceCheck(nil).Audit("file_read", "Personal"); got != "" {
		t.Errorf("Audit(file_read, Personal) = %q: the audience check is not the tool check", got)
	}
}
