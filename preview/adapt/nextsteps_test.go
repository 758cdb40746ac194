package adapt

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestNextSteps(t *testing.T) {
	home := filepath.FromSlash("/home/u")
	proj := filepath.FromSlash("/work/proj")
	for _, tt := range []struct {
		target, dir string
		want        string // "" for no step
	}{
		{"claude-code", filepath.Join(proj, ".claude", "agents"), ""},
		{"opencode", filepath.Join(proj, ".opencode", "agents"), ""},
		{"jit", filepath.Join(proj, ".jit", "agents"), ""},
		{"maxclaw", filepath.Join(proj, "roles"), ""},
		{"codex", filepath.Join(proj, ".codex", "agents"), "only in a trusted project: start codex in " + proj},
		{"codex", filepath.Join(home, ".codex", "agents"), ""},
		{"codex", filepath.FromSlash("/tmp/out"), "move the files there"},
		{"gemini", filepath.Join(proj, ".gemini", "agents"), "only after you acknowledge them: start gemini in " + proj},
		{"gemini", filepath.Join(home, ".gemini", "agents"), ""},
		{"gemini", filepath.FromSlash("/tmp/out"), "move the files there"},
	} {
		tg, _ := Lookup(tt.target)
		got := strings.Join(tg.NextSteps(tt.dir, home), "\n")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s %s: %q, want %q", tt.target, tt.dir, got, tt.want)
		}
	}
}
