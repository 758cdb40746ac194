//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/sandbox"
)

// TestToolsMCPServersSandboxed: `agentdesk tools` starts the configured
// stdio MCP servers to list their tools in the sandbox, as a run does: a
// server that writes a file outside it changes nothing.
func TestToolsMCPServersSandboxed(t *testing.T) {
	if r := sandbox.Probe(); !r.Available() {
		t.Skipf("this kernel cannot sandbox: %s", r.Unavailable)
	}
	home := t.TempDir()
	outside := filepath.Join(t.TempDir(), "escaped")
	b, err := os.ReadFile(filepath.Join("..", "..", "tui", "demo", "home", "config", "netclaw.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["McpServers"] = map[string]any{"writer": map[string]any{"Command": "/bin/sh", "Arguments": []string{"-c", "echo x > " + outside}}}
	b, _ = json.Marshal(cfg)
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config", "netclaw.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := run(t, []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}, "tools", "--home", home, "--mcp-timeout", "5s")
	if !strings.Contains(out+errOut, "writer") {
		t.Fatalf("the server is not listed:\n%s\n%s", out, errOut)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the MCP server started unsandboxed: it wrote %s", outside)
	}
}
