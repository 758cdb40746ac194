package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// Native files for import tests.
const (
	imClaude = "---\nname: security-reviewer\ndescription: Reviews changes for security problems.\ntools: Read, Grep\nmodel: opus\ncolor: red\n---\nYou review changes for security problems.\n"
	imCodex  = "name = \"pr_reviewer\"\ndescription = \"Reviews pull requests.\"\nmodel = \"gpt-5.1-codex\"\ndeveloper_instructions = '''\nYou review pull requests.\n'''\n"
)

func TestImportCommand(t *testing.T) {
	src := hometest.New(t, map[string]string{"security-reviewer.md": imClaude, "notes.txt": "not an agent"})
	home := hometest.New(t, map[string]string{"agents/reviewer.md": goodAgent})
	target := filepath.Join(home, "agents", "security-reviewer.md")

	code, stdout, stderr := run(t, nil, "import", "--home", home, "--from", "claude-code", src)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "imported "+filepath.Join(src, "security-reviewer.md")+" as "+target) {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, want := range []string{`warning: model "opus" has no NetClaw equivalent`, "kept under metadata as claude-code.color"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nname: security-reviewer\ndescription: Reviews changes for security problems.\ntools: [file_read, Grep]\nmodelRole: Main\n" +
		"metadata:\n  claude-code.color: red\n  claude-code.model: opus\n---\n\nYou review changes for security problems.\n"
	if string(data) != want {
		t.Errorf("written file:\n%s\nwant:\n%s", data, want)
	}
	if code, stdout, _ := run(t, nil, "lint", "--home", home); code != 0 {
		t.Errorf("the home does not lint clean after the import:\n%s", stdout)
	}

	// Exclusive create: a second import is refused and leaves the file.
	if err := os.WriteFile(target, []byte(want+"\nMy own addition.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = run(t, nil, "import", "--home", home, "--from", "claude-code", filepath.Join(src, "security-reviewer.md"))
	if code != 1 || stdout != "" || !strings.Contains(stderr, "already exists (pass --force to replace it)") {
		t.Errorf("second import: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(target); !strings.Contains(string(data), "My own addition.") {
		t.Error("import replaced a file without --force")
	}
	code, stdout, stderr = run(t, nil, "import", "--home", home, "--from", "claude-code", "--force", filepath.Join(src, "security-reviewer.md"))
	if code != 0 || !strings.HasPrefix(stdout, "imported ") || !strings.HasSuffix(stdout, "security-reviewer.md (replaced the file there)\n") {
		t.Fatalf("--force: exit %d\n%s%s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(target); string(data) != want {
		t.Errorf("--force did not replace the file:\n%s", data)
	}
}

func TestImportIsAllOrNothing(t *testing.T) {
	src := hometest.New(t, map[string]string{
		"good.toml": imCodex,
		"bad.toml":  "name = \"bad\"\ndescription = \"Has no instructions.\"\n",
	})
	out := filepath.Join(t.TempDir(), "agents")
	code, stdout, stderr := run(t, nil, "import", "--from", "codex", "--out", out, src)
	if code != 1 || stdout != "" {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "bad.toml: no developer_instructions") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed import created the folder")
	}

	code, stdout, stderr = run(t, nil, "import", "--from", "codex", "--out", out, filepath.Join(src, "good.toml"))
	if code != 0 || !strings.Contains(stdout, filepath.Join(out, "pr-reviewer.md")) || !strings.Contains(stderr, `name "pr_reviewer" is not lowercase kebab-case, which NetClaw's skills and SkillServer need: imported as "pr-reviewer"`) {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

func TestImportRefusesATakenName(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/old.md": "---\nname: security-reviewer\ndescription: Older.\n---\nOld.\n"})
	src := hometest.New(t, map[string]string{"security-reviewer.md": imClaude})
	code, _, stderr := run(t, nil, "import", "--home", home, "--from", "claude-code", "--force", src)
	if code != 1 || !strings.Contains(stderr, "old.md already declares the name 'security-reviewer'") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "agents", "security-reviewer.md")); err == nil {
		t.Error("a refused import wrote a file")
	}
}

func TestImportUsage(t *testing.T) {
	src := hometest.New(t, map[string]string{"a.md": imClaude})
	home := hometest.New(t, map[string]string{})
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no source", []string{"import", "--home", home, "--from", "claude-code"}, 2, "name the Claude Code agent files to import, or a folder of them (such as .claude/agents)"},
		{"no from", []string{"import", "--home", home, src}, 2, "--from is required"},
		{"jit", []string{"import", "--home", home, "--from", "jit", src}, 2, `agentdesk: cannot import from "jit": use one of claude-code, opencode, gemini, codex`},
		{"missing path", []string{"import", "--home", home, "--from", "claude-code", filepath.Join(src, "nope.md")}, 2, "no such file"},
		{"no home", []string{"import", "--home", filepath.Join(home, "nope"), "--from", "claude-code", src}, 2, "does not exist"},
		{"empty folder", []string{"import", "--home", home, "--from", "codex", src}, 1, "holds no Codex CLI agent file (*.toml)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", code, tt.code, stderr, tt.stderr)
			}
		})
	}
}

func TestImportEscapesControlCharacters(t *testing.T) {
	src := hometest.New(t, map[string]string{"evil.md": "---\nname: evil\ndescription: d\ncolor: \"\\e]0;pwned\\a\"\n\"x\\e[2J\": 1\n---\nBody.\n"})
	out := t.TempDir()
	code, stdout, stderr := run(t, nil, "import", "--from", "claude-code", "--out", out, src)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Errorf("raw control characters in the output:\n%q\n%q", stdout, stderr)
	}
}

// A file whose frontmatter is not YAML is refused with its line and how
// to fix it (a Gemini CLI description holding an unquoted ': '); Claude
// Code reads such a description whole, and so does the import from it;
// --keep-going writes the files that convert, lists the rest with their
// line, and exits 1.
func TestImportKeepGoing(t *testing.T) {
	colon := "---\nname: colon\ndescription: Use this agent when: the user asks for a review\n---\nYou review.\n"
	gem := t.TempDir()
	if err := os.WriteFile(filepath.Join(gem, "colon.md"), []byte(colon), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, nil, "import", "--from", "gemini", "--out", t.TempDir(), gem)
	if code != exitFindings || !strings.Contains(stderr, "line 3") || !strings.Contains(stderr, `quote the value (description: "…")`) || !strings.Contains(stderr, "block scalar") {
		t.Errorf("gemini: exit %d, want 1 with the line and how to fix it:\n%s", code, stderr)
	}

	src := t.TempDir()
	for name, text := range map[string]string{
		"good.md":   "---\nname: good\ndescription: Reviews code.\n---\nYou review code.\n",
		"colon.md":  colon,
		"broken.md": "---\nname: broken\ndescription: [unclosed\n---\nYou break.\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	code, _, stderr = run(t, nil, "import", "--from", "claude-code", "--out", out, src)
	if entries, _ := os.ReadDir(out); code != exitFindings || len(entries) != 0 {
		t.Errorf("without --keep-going: exit %d, %d files written:\n%s", code, len(entries), stderr)
	}
	code, stdout, stderr := run(t, nil, "import", "--from", "claude-code", "--out", out, "--keep-going", src)
	if code != exitFindings {
		t.Errorf("--keep-going: exit %d, want 1", code)
	}
	for _, name := range []string{"good.md", "colon.md"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("--keep-going did not write %s: %v\n%s\n%s", name, err, stdout, stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "colon.md")); !strings.Contains(string(b), "Use this agent when: the user asks for a review") {
		t.Errorf("colon.md's description is not the whole line, as Claude Code reads it:\n%s", b)
	}
	if !strings.Contains(stderr, "read as Claude Code reads it") {
		t.Errorf("no warning says how the description was read:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "broken.md")); err == nil {
		t.Error("--keep-going wrote the file that does not convert")
	}
	if !strings.Contains(stderr, "broken.md") || !strings.Contains(stderr, "line 3") || !strings.Contains(stderr, "1 file did not convert") {
		t.Errorf("--keep-going does not list the file left out:\n%s", stderr)
	}
}
