package main

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestUsageLinesMatchTheReadme: each command's usage line says what the
// README's command list says.
func TestUsageLinesMatchTheReadme(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "--help"}, "agentdesk import --from TOOL PATH..."},
		{[]string{"export", "--help"}, "agentdesk export --to TARGET [AGENT...]"},
	} {
		code, stdout, stderr := run(t, nil, tc.args...)
		if code != 0 || !strings.Contains(stdout, "Usage:\n  "+tc.want) {
			t.Errorf("%v: exit %d, want usage %q in\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
}

func TestVersionFrom(t *testing.T) {
	info := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/agentdesk/agentdesk", Version: v}, Settings: settings}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	for _, tc := range []struct {
		name, set string
		read      func() (*debug.BuildInfo, bool)
		want      string
	}{
		{"-ldflags wins", "v9.9.9", info("v1.2.3"), "v9.9.9"},
		{"go install @version", "", info("v1.2.3"), "v1.2.3"},
		{"pseudo-version", "", info("v0.0.0-20261201223900-1ad09de2b3c4"), "v0.0.0-20261201223900-1ad09de2b3c4"},
		{"local build with a commit", "", info("(devel)", debug.BuildSetting{Key: "vcs.revision", Value: "1ad09de2b3c4d5e6f708"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "dev (1ad09de2b3c4, modified)"},
		{"local build without one", "", info("(devel)"), "dev"},
		{"no build information", "", none, "dev"},
	} {
		if got := versionFrom(tc.set, tc.read); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestShellCompletion: cobra's completion offers the values of the flags
// that take one of a list, and the names of the loaded agents.
func TestShellCompletion(t *testing.T) {
	home := hometest.New(t, map[string]string{
		"agents/reviewer.md": goodAgent,
		"agents/broken.md":   badAgent,
		"agents/writer.md":   "---\nname: writer\ndescription: Writes.\n---\nYou write.\n",
	})
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "export", "--to", ""}, []string{"claude-code", "opencode", "gemini", "codex", "jit", "maxclaw"}},
		{[]string{"__complete", "import", "--from", ""}, []string{"claude-code", "opencode", "gemini", "codex"}},
		{[]string{"__complete", "lint", "--format", ""}, []string{"text", "json", "sarif", "github"}},
		{[]string{"__complete", "lint", "--profile", ""}, []string{"runtime", "publish"}},
		{[]string{"__complete", "preview", "--format", ""}, []string{"text", "json"}},
		{[]string{"__complete", "preview", "--audience", ""}, []string{"Public", "Team", "Personal"}},
		{[]string{"__complete", "lint", "--color", ""}, []string{"auto", "always", "never"}},
		{[]string{"--home", home, "__complete", "run", ""}, []string{"reviewer", "writer"}},
		{[]string{"--home", home, "__complete", "run", "reviewer", ""}, nil},
		{[]string{"--home", home, "__complete", "export", "--to", "codex", ""}, []string{"reviewer", "writer"}},
		{[]string{"--home", home, "__complete", "preview", "--agent", ""}, []string{"reviewer", "writer"}},
		{[]string{"--home", home, "__complete", "tools", ""}, []string{"reviewer", "writer"}},
		{[]string{"__complete", "tools", "--audience", ""}, []string{"Public", "Team", "Personal"}},
	} {
		code, stdout, stderr := run(t, nil, tc.args...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if code != 0 || len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
			t.Fatalf("%v: exit %d\n%s%s", tc.args, code, stdout, stderr)
		}
		got := lines[:len(lines)-1]
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%v: %v, want %v", tc.args, got, want)
		}
	}
	if code, stdout, _ := run(t, nil, "completion", "bash"); code != 0 || !strings.Contains(stdout, "__start_agentdesk") {
		t.Errorf("completion bash: exit %d", code)
	}
}

// TestRunHelpTellsWhatATrialSends: `run --help` describes the request and
// the tools a trial has now (NetClaw's composed prompt, the audience's tool
// set, the overlay, --approve), not the two read-only tools of old.
func TestRunHelpTellsWhatATrialSends(t *testing.T) {
	code, stdout, stderr := run(t, nil, "run", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	help := strings.Join(strings.Fields(stdout), " ")
	for _, want := range []string{"preview --spawn", "operating rules", "agentdesk tools", "overlay", "changes.patch", "--approve", "--netclaw-dir"} {
		if !strings.Contains(help, want) {
			t.Errorf("run --help does not mention %q", want)
		}
	}
	if strings.Contains(help, "read-only trial tools file_read and file_list") {
		t.Error("run --help still says the model gets only file_read and file_list")
	}
}

// TestFlagHelpSaysItsDefaultOnce: a flag's help line names its default
// once (cobra adds "(default X)" itself; the text should not say it too).
func TestFlagHelpSaysItsDefaultOnce(t *testing.T) {
	for _, cmd := range [][]string{{"--help"}, {"run", "--help"}, {"test", "--help"}, {"route", "--help"}, {"preview", "--help"}, {"tools", "--help"}} {
		_, stdout, _ := run(t, nil, cmd...)
		for _, line := range strings.Split(stdout, "\n") {
			if strings.Count(line, "(default") > 1 {
				t.Errorf("%v: the default is said twice: %s", cmd, strings.TrimSpace(line))
			}
		}
	}
}
