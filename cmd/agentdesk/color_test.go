package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestColorAlwaysEverywhere: --color always colours what preview, export
// and import print (runs: TestRunsVocabulary), and without it a pipe gets
// no escape sequence.
func TestColorAlwaysEverywhere(t *testing.T) {
	home := previewHome(t, map[string]string{"agents/hidden.md": "---\nname: hidden\ndescription: Internal.\nvisibility: internal\nmodelRole: Main\n---\nYou hide.\n"})
	src := hometest.New(t, map[string]string{"a.md": imClaude})
	for _, tc := range []struct {
		name   string
		args   []string
		stream string // where the colour goes
	}{
		{"preview's token summary", []string{"preview", "--home", home}, "stderr"},
		{"preview --tokens", []string{"preview", "--home", home, "--tokens"}, "stdout"},
		{"preview --agent's separator", []string{"preview", "--home", home, "--agent", "code-analyst"}, "stdout"},
		{"export's warnings", []string{"export", "--home", home, "--to", "claude-code", "--out", t.TempDir(), "hidden"}, "stderr"},
		{"import's warnings", []string{"import", "--home", home, "--from", "claude-code", "--force", "--out", t.TempDir(), filepath.Join(src, "a.md")}, "stderr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, nil, append(tc.args, "--color", "always")...)
			got := map[string]string{"stdout": stdout, "stderr": stderr}[tc.stream]
			if code != 0 || !strings.Contains(got, "\x1b[") {
				t.Errorf("--color always: exit %d, %s %q", code, tc.stream, got)
			}
			code, stdout, stderr = run(t, nil, tc.args...)
			if code != 0 || strings.Contains(stdout+stderr, "\x1b") {
				t.Errorf("a pipe: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// TestColorFlagBeatsTheEnvironment: flags override the environment, so
// --color always colours with NO_COLOR set; NO_COLOR still wins over auto.
// The help and the docs say so (issue 20 item 33).
func TestColorFlagBeatsTheEnvironment(t *testing.T) {
	home := previewHome(t, nil)
	env := []string{"NO_COLOR=1"}
	if code, _, stderr := run(t, env, "preview", "--home", home, "--color", "always"); code != 0 || !strings.Contains(stderr, "\x1b[") {
		t.Errorf("--color always with NO_COLOR: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := run(t, env, "preview", "--home", home); code != 0 || strings.Contains(stdout+stderr, "\x1b") {
		t.Errorf("NO_COLOR with auto: exit %d, %q %q", code, stdout, stderr)
	}
	_, help, _ := run(t, nil, "--help")
	if !strings.Contains(help, "--color always overrides NO_COLOR") {
		t.Errorf("--help does not say that --color always overrides NO_COLOR:\n%s", help)
	}
	if text := readme(t); !strings.Contains(text, "flags override the environment") {
		t.Error("the docs do not say that flags override the environment")
	}
}
