package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// TestFilesystemServerFromNPM runs the reference MCP filesystem server
// (npm's @modelcontextprotocol/server-filesystem) when it is installed:
// `npm install -g @modelcontextprotocol/server-filesystem` puts
// mcp-server-filesystem on PATH. The suite never downloads it.
func TestFilesystemServerFromNPM(t *testing.T) {
	bin, err := exec.LookPath("mcp-server-filesystem")
	if err != nil {
		t.Skip("mcp-server-filesystem is not on PATH (npm install -g @modelcontextprotocol/server-filesystem to run this test)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("port 8080\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, n := start(t, Options{}, lint.McpServer{Name: "fs", Transport: "stdio", Command: bin, Arguments: []string{dir}, Enabled: true})
	names := toolNames(s)
	if len(names) == 0 {
		t.Fatalf("no tools (notes %q)", n.all())
	}
	res := call(t, s, "fs__read_text_file", `{"Path":`+jsonQuote(filepath.Join(dir, "notes.txt"))+`}`)
	if res.IsError || !strings.Contains(res.Text, "port 8080") {
		t.Errorf("read_text_file = %+v", res)
	}
	res = call(t, s, "fs__read_text_file", `{"path":"/etc/passwd"}`)
	if !res.IsError || !strings.HasPrefix(res.Text, "Error: MCP tool 'fs/read_text_file' ") {
		t.Errorf("a read outside its root = %+v", res)
	}
	pid := s.Statuses()[0].PID
	_ = s.Close()
	gone(t, pid)
}

func jsonQuote(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
