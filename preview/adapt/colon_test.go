package adapt

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Claude Code loads a description holding an unquoted ': ' (which YAML
// refuses): it reads the whole rest of the line. agentdesk reads it the
// same way, and says so. (Checked with Claude Code 2.1.197: its request
// lists "- reviewer: Use this agent when: the user asks for a review.
// Examples: a PR"; TestClaudeCodeReadsColonDescription repeats the check
// when npx can run it offline.)
func TestImportColonDescriptionAsClaudeCode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "claudecode", "colon-description.md"))
	if err != nil {
		t.Fatal(err)
	}
	tg, _ := Lookup("claude-code")
	im, err := tg.Import("colon-description.md", data)
	if err != nil {
		t.Fatalf("import refused: %v", err)
	}
	if im.Agent.Description != "Use this agent when: the user asks for a review. Examples: a PR" {
		t.Errorf("description = %q", im.Agent.Description)
	}
	if !strings.Contains(strings.Join(im.Warnings, "\n"), "read as Claude Code reads it") {
		t.Errorf("no warning says how the description was read: %q", im.Warnings)
	}
	// Other tools' YAML is strict: the refusal says how to fix the file.
	gm, _ := Lookup("gemini")
	if _, err := gm.Import("colon-description.md", data); err == nil || !strings.Contains(err.Error(), "quote the value") {
		t.Errorf("gemini: %v, want a refusal saying how to fix it", err)
	}
}

// TestClaudeCodeReadsColonDescription asks the real Claude Code, when it
// is installed (npm install @anthropic-ai/claude-code; AGENTDESK_CLAUDE
// names its binary, else claude on PATH), whether it loads the fixture,
// and how. It needs no model and no network: the request Claude Code
// sends to a loopback server names the agents it loaded.
func TestClaudeCodeReadsColonDescription(t *testing.T) {
	bin := os.Getenv("AGENTDESK_CLAUDE")
	if bin == "" {
		if p, err := exec.LookPath("claude"); err == nil {
			bin = p
		}
	}
	if bin == "" {
		t.Skip("Claude Code is not installed (set AGENTDESK_CLAUDE or put claude on PATH); TestImportColonDescriptionAsClaudeCode covers the fixture")
	}
	var mu sync.Mutex
	var bodies []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b...)
		mu.Unlock()
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"test"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	project := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "claudecode", "colon-description.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(project, ".claude", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", "agents", "reviewer.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "hi", "--max-turns", "1")
	cmd.Dir = project
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"), "ANTHROPIC_API_KEY=sk-ant-test-0000", "ANTHROPIC_BASE_URL=" + srv.URL, "DISABLE_TELEMETRY=1"}
	_ = cmd.Run() // it fails: the server refuses every call
	mu.Lock()
	got := string(bodies)
	mu.Unlock()
	if got == "" {
		t.Skip("Claude Code sent no request to the loopback server")
	}
	if !strings.Contains(got, "- reviewer: Use this agent when: the user asks for a review. Examples: a PR") {
		t.Errorf("Claude Code does not list the agent with the whole line as its description")
	}
}
