package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestMcpServersBind(t *testing.T) {
	h := cfgHome(t, map[string]string{
		"netclaw.json": `{
  "mcpservers": {
    "files": {"transport": "stdio", "command": "/bin/sh", "ARGUMENTS": ["-c", "exec cat"], "EnvironmentVariables": {"MODE": "ro"}},
    "remote": {"Transport": "http", "Url": "https://example.test/mcp", "Enabled": false, "GrantCategory": "remote-tools"},
    "plain": {"Command": "/bin/sh"}
  }
}`,
		"secrets.json": `{"McpServers": {"REMOTE": {"Headers": {"Authorization": "Bearer s3cret-token"}}, "files": {"EnvironmentVariables": {"API_KEY": "k-123456"}}}}`,
	})
	c := LoadConfig(h, []string{"NETCLAW_McpServers__plain__Arguments__0=--verbose", "PATH=/usr/bin:/bin"})
	for _, d := range c.Diagnostics {
		t.Errorf("unexpected diagnostic: %+v", d)
	}
	got := map[string]McpServer{}
	for _, s := range c.McpServers {
		s.Origin = ConfigOrigin{}
		got[s.Name] = s
	}
	want := map[string]McpServer{
		"files": {Name: "files", Transport: "stdio", Command: "/bin/sh", Arguments: []string{"-c", "exec cat"},
			EnvironmentVariables: map[string]string{"MODE": "ro", "API_KEY": "k-123456"}, Enabled: true, GrantCategory: "mcp:files"},
		"remote": {Name: "remote", Transport: "http", URL: "https://example.test/mcp", Headers: map[string]string{"Authorization": "Bearer s3cret-token"},
			Enabled: false, GrantCategory: "remote-tools"},
		"plain": {Name: "plain", Transport: "stdio", Command: "/bin/sh", Arguments: []string{"--verbose"}, Enabled: true, GrantCategory: "mcp:plain"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("McpServers =\n%+v\nwant\n%+v", got, want)
	}
	if s, ok := c.McpServer("FILES"); !ok || s.Name != "files" {
		t.Errorf("McpServer(FILES) = %+v, %v", s, ok)
	}
	secrets := c.Secrets()
	for _, v := range []string{"Bearer s3cret-token", "k-123456"} {
		if !slices.Contains(secrets, v) {
			t.Errorf("Secrets() lacks %q: %q", v, secrets)
		}
	}
	for _, v := range []string{"ro", "/bin/sh", "-c"} {
		if slices.Contains(secrets, v) {
			t.Errorf("Secrets() holds the plain value %q", v)
		}
	}
	if o := got["files"]; o.McpTransport() != McpStdio {
		t.Errorf("McpTransport = %q", o.McpTransport())
	}
}

func TestMcpTransportIsExact(t *testing.T) {
	for tr, want := range map[string]string{"stdio": McpStdio, "sse": McpSSE, "http": McpHTTP, "Stdio": McpHTTP, "SSE": McpHTTP, "": McpHTTP} {
		if got := (McpServer{Transport: tr}).McpTransport(); got != want {
			t.Errorf("McpTransport(%q) = %q, want %q", tr, got, want)
		}
	}
}

func TestMcpServersDiagnostics(t *testing.T) {
	bin := t.TempDir()
	exe := filepath.Join(bin, "my-server")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		config   string
		secrets  string
		want     []string // "line:col severity substring"
		wantNone bool
	}{
		{name: "good", config: `{"McpServers": {"a": {"Command": "my-server"}, "b": {"Transport": "sse", "Url": "http://127.0.0.1:9/sse"}}}`, wantNone: true},
		{name: "bad transport", config: `{"McpServers": {"a": {"Transport": "websocket", "Url": "ws://x"}}}`,
			want: []string{"1:36 error a: invalid transport 'websocket' (must be stdio, sse, or http)"}},
		{name: "transport case", config: `{"McpServers": {"a": {"Transport": "Stdio", "Command": "my-server"}}}`,
			want: []string{"1:36 error a: invalid transport 'Stdio'"}},
		{name: "no command", config: `{"McpServers": {"a": {"Arguments": ["x"]}}}`,
			want: []string{"1:37 error a: stdio transport requires 'Command'"}},
		{name: "no url", config: "{\"McpServers\": {\n  \"web\": {\"Transport\": \"http\"}}}",
			want: []string{"2:24 error web: http transport requires 'Url'"}},
		{name: "relative url", config: `{"McpServers": {"w": {"Transport": "sse", "Url": "/mcp"}}}`,
			want: []string{"1:50 error w: Url \"/mcp\" is not an absolute http or https URL"}},
		{name: "missing command", config: `{"McpServers": {"a": {"Command": "no-such-mcp-server"}}}`,
			want: []string{"1:34 warning a: command 'no-such-mcp-server' is not found on PATH"}},
		{name: "disabled is not checked further", config: `{"McpServers": {"a": {"Command": "no-such-mcp-server", "Enabled": false}}}`, wantNone: true},
		{name: "ignored url", config: `{"McpServers": {"a": {"Command": "my-server", "Url": "https://x.test"}}}`,
			want: []string{"warning a: Url is ignored by a stdio server"}},
		{name: "bad name", config: `{"McpServers": {"my.files": {"Command": "my-server"}}}`,
			want: []string{"warning my.files: the model-facing names of its tools (my.files__<tool>) carry '.'"}},
		{name: "credential in netclaw.json", config: `{"McpServers": {"w": {"Transport": "http", "Url": "https://x.test/mcp", "Headers": {"Authorization": "Bearer abcdefgh"}}}}`,
			want: []string{"warning w: Headers Authorization holds a credential in netclaw.json"}},
		{name: "credential in secrets.json is fine", config: `{"McpServers": {"w": {"Transport": "http", "Url": "https://x.test/mcp"}}}`,
			secrets: `{"McpServers": {"w": {"Headers": {"Authorization": "Bearer abcdefgh"}}}}`, wantNone: true},
		{name: "bad mode", config: `{"Tools": {"AudienceProfiles": {"Team": {"McpServersMode": "Some"}}}}`,
			want: []string{"error Tools:AudienceProfiles:Team:McpServersMode is \"Some\": expected All or Allowlist"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"netclaw.json": tt.config}
			if tt.secrets != "" {
				files["secrets.json"] = tt.secrets
			}
			c := LoadConfig(cfgHome(t, files), []string{"PATH=" + bin})
			var got []string
			for _, d := range c.Diagnostics {
				got = append(got, strings.Join([]string{posString(d.Pos), d.Severity.String(), d.Message}, " "))
				if strings.Contains(d.Message+d.Hint, "abcdefgh") {
					t.Errorf("diagnostic carries a secret: %+v", d)
				}
				if d.Hint == "" {
					t.Errorf("diagnostic without a fix hint: %+v", d)
				}
			}
			if tt.wantNone && len(got) > 0 {
				t.Fatalf("diagnostics = %q, want none", got)
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
					t.Errorf("no diagnostic like %q in %q", w, got)
				}
			}
			for _, d := range c.Diagnostics {
				if strings.HasPrefix(tt.name, "bad mode") {
					continue
				}
				if d.Rule != RuleMcpServer {
					t.Errorf("rule = %q, want %q", d.Rule, RuleMcpServer)
				}
			}
		})
	}
}

func posString(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

func TestMcpAudienceAccess(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		server   string
		tool     string
		audience string
		want     bool
	}{
		{"personal default", `{}`, "files", "read", "Personal", true},
		{"team default", `{}`, "files", "read", "Team", false},
		{"public default", `{}`, "files", "read", "public", false},
		{"unknown audience is public", `{}`, "files", "read", "Guests", false},
		{"team allowlist", `{"Tools": {"AudienceProfiles": {"Team": {"AllowedMcpServers": ["FILES"]}}}}`, "files", "read", "Team", true},
		{"team allowlist other", `{"Tools": {"AudienceProfiles": {"Team": {"AllowedMcpServers": ["web"]}}}}`, "files", "read", "Team", false},
		{"public all", `{"Tools": {"AudienceProfiles": {"Public": {"McpServersMode": "all"}}}}`, "files", "read", "Public", true},
		{"personal allowlist", `{"Tools": {"AudienceProfiles": {"Personal": {"McpServersMode": "Allowlist"}}}}`, "files", "read", "Personal", false},
		{"grants list the tool", `{"Tools": {"AudienceProfiles": {"Personal": {"McpServerToolGrants": {"files": ["read"]}}}}}`, "files", "read", "Personal", true},
		{"grants omit the tool", `{"Tools": {"AudienceProfiles": {"Personal": {"McpServerToolGrants": {"Files": ["read"]}}}}}`, "files", "write", "Personal", false},
		{"grants for another server", `{"Tools": {"AudienceProfiles": {"Personal": {"McpServerToolGrants": {"web": ["get"]}}}}}`, "files", "write", "Personal", true},
		{"grants are exact case", `{"Tools": {"AudienceProfiles": {"Personal": {"McpServerToolGrants": {"files": ["Read"]}}}}}`, "files", "read", "Personal", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := LoadConfig(cfgHome(t, map[string]string{"netclaw.json": tt.config}), nil)
			if got := c.McpToolAllowed(tt.server, tt.tool, tt.audience); got != tt.want {
				t.Errorf("McpToolAllowed(%s, %s, %s) = %v, want %v", tt.server, tt.tool, tt.audience, got, tt.want)
			}
		})
	}
	var nilc *Config
	if !nilc.McpServerAllowed("x", "Personal") || nilc.McpServerAllowed("x", "Team") {
		t.Error("a nil Config does not give the runtime's defaults")
	}
}

func TestMcpServersWrittenAsAList(t *testing.T) {
	c := LoadConfig(cfgHome(t, map[string]string{"netclaw.json": "{\n  \"McpServers\": [\n    {\"Command\": \"/bin/cat\"}\n  ]\n}"}), nil)
	var got []Diagnostic
	for _, d := range c.Diagnostics {
		if d.Rule == RuleMcpServer {
			got = append(got, d)
		}
	}
	if len(got) != 1 {
		t.Fatalf("diagnostics = %+v, want one saying McpServers is a list", c.Diagnostics)
	}
	d := got[0]
	if d.Severity != Warning || posString(d.Pos) != "2:17" || filepath.Base(d.Path) != "netclaw.json" {
		t.Errorf("diagnostic at %s:%s %v, want a warning at netclaw.json:2:17", d.Path, posString(d.Pos), d.Severity)
	}
	for _, w := range []string{"McpServers is a list", "servers named 0, 1"} {
		if !strings.Contains(d.Message, w) {
			t.Errorf("message %q lacks %q", d.Message, w)
		}
	}
	if !strings.Contains(d.Hint, "an object keyed by name") {
		t.Errorf("hint %q does not suggest an object keyed by name", d.Hint)
	}
	// The runtime binds it all the same: one server named 0.
	if len(c.McpServers) != 1 || c.McpServers[0].Name != "0" || !c.McpServers[0].Listed {
		t.Errorf("McpServers = %+v, want one server 0, marked as listed", c.McpServers)
	}
}

func TestMcpServerProblemUsesLintWords(t *testing.T) {
	c := LoadConfig(cfgHome(t, map[string]string{"netclaw.json": `{"McpServers": {"fs": "npx server", "x": {"Arguments": ["a"]}, "w": {"Transport": "sse"}, "ok": {"Command": "/bin/cat"}}}`}), nil)
	want := map[string]string{
		"fs": `netclaw.json:1:23: McpServers:fs is a value, not an object`,
		"x":  `netclaw.json:1:57: x: stdio transport requires 'Command'`,
		"w":  `w: sse transport requires 'Url'`,
		"ok": ``,
	}
	for _, s := range c.McpServers {
		got := s.Problem()
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("unexpected server %q", s.Name)
			continue
		}
		if w == "" && got != "" || w != "" && !strings.Contains(got, w) {
			t.Errorf("%s: Problem() = %q, want one holding %q", s.Name, got, w)
		}
	}
	// The same words as lint's diagnostics.
	var msgs []string
	for _, d := range c.Diagnostics {
		msgs = append(msgs, d.Message)
	}
	for _, m := range []string{"McpServers:fs is a value, not an object", "x: stdio transport requires 'Command'", "w: sse transport requires 'Url'"} {
		if !slices.ContainsFunc(msgs, func(g string) bool { return strings.Contains(g, m) }) {
			t.Errorf("lint says %q, not %q", msgs, m)
		}
	}
}
