package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// Definitions for export tests.
const (
	exAnalyst = "---\nname: code-analyst\ndescription: Explains code.\ntools: [file_read, attach_file]\nmodelRole: Main\n---\nYou explain code.\n"
	exRouter  = "---\nname: ticket-router\ndescription: Routes tickets.\nvisibility: internal\n---\nYou route tickets.\n"
)

func TestExportCommand(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst, "agents/ticket-router.md": exRouter})
	out := filepath.Join(t.TempDir(), "claude")
	export := func(args ...string) (int, string, string) {
		return run(t, nil, append([]string{"export", "--home", home, "--to", "claude-code", "--out", out}, args...)...)
	}

	code, stdout, stderr := export()
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"created " + filepath.Join(out, "code-analyst.md") + " from code-analyst", "created " + filepath.Join(out, "ticket-router.md")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"code-analyst: warning: tool 'attach_file': Claude Code has no such tool: left out", "ticket-router: warning: visibility internal"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "code-analyst.md"))
	if err != nil || !strings.Contains(string(data), "tools: Read\nmodel: inherit\n") {
		t.Fatalf("code-analyst.md: %v\n%s", err, data)
	}

	if code, stdout, _ = export(); code != 0 || strings.Count(stdout, "unchanged ") != 2 {
		t.Errorf("rerun: exit %d\n%s", code, stdout)
	}

	// Edit an exported file by hand: the next run refuses and writes nothing.
	edited := filepath.Join(out, "ticket-router.md")
	if err := os.WriteFile(edited, []byte("my edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hometest.WriteFile(t, filepath.Join(home, "agents", "code-analyst.md"), strings.Replace(exAnalyst, "You explain code.", "You explain code well.", 1))
	code, stdout, stderr = export()
	if code != 1 || stdout != "" || !strings.Contains(stderr, "ticket-router.md was edited since agentdesk wrote it") {
		t.Fatalf("an edited file: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "code-analyst.md")); strings.Contains(string(data), "well.") {
		t.Error("a refused run still updated code-analyst.md")
	}

	// Put the file back as agentdesk wrote it, drop ticket-router from the
	// home: the rerun updates code-analyst and deletes ticket-router.md.
	os.Remove(edited)
	os.Remove(filepath.Join(home, "agents", "ticket-router.md"))
	code, stdout, stderr = export()
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "updated "+filepath.Join(out, "code-analyst.md")) || !strings.Contains(stdout, "forgot "+edited) {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestExportPrunesOnlyItsOwnFiles(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst, "agents/ticket-router.md": exRouter})
	out := t.TempDir()
	mine := filepath.Join(out, "notes.md")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, nil, "export", "--home", home, "--to", "gemini", "--out", out); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	os.Remove(filepath.Join(home, "agents", "ticket-router.md"))
	code, stdout, stderr := run(t, nil, "export", "--home", home, "--to", "gemini", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "deleted "+filepath.Join(out, "ticket-router.md")+": its source 'ticket-router' is gone") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "ticket-router.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("ticket-router.md was not pruned")
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "my notes\n" {
		t.Errorf("a file agentdesk did not write was touched: %v", err)
	}
}

func TestExportRefusesHandWrittenFiles(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst, "agents/ticket-router.md": exRouter})
	out := t.TempDir()
	theirs := filepath.Join(out, "code-analyst.toml")
	if err := os.WriteFile(theirs, []byte("name = \"code-analyst\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)
	code, stdout, stderr := run(t, nil, "export", "--home", home, "--to", "codex", "--out", out)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "code-analyst.toml was not written by agentdesk") || !strings.Contains(stderr, "nothing was written") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if after := snapshot(t, out); len(after) != len(before) {
		t.Errorf("a refused export changed %s: %v → %v", out, before, after)
	}
}

func TestExportUsage(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	empty := hometest.New(t, map[string]string{"agents/notes.txt": "x"})
	out := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no target", []string{"export", "--home", home, "--out", out}, 2, "--to is required"},
		{"unknown target", []string{"export", "--home", home, "--to", "cursor", "--out", out}, 2, `unknown target "cursor": use one of claude-code, opencode, gemini, codex, jit, maxclaw`},
		{"unknown agent", []string{"export", "--home", home, "--to", "jit", "--out", out, "code-analyts"}, 1, "did you mean 'code-analyst'?"},
		{"no agents", []string{"export", "--home", empty, "--to", "jit", "--out", out}, 1, "nothing to export"},
		{"no home", []string{"export", "--home", filepath.Join(home, "nope"), "--to", "jit", "--out", out}, 2, "does not exist"},
		{"into the agents folder", []string{"export", "--home", home, "--to", "claude-code", "--out", filepath.Join(home, "agents", "claude")}, 2, "inside the NetClaw agents folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, nil, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, want %d; stderr %q, want %q", code, tt.code, stderr, tt.stderr)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("failed exports wrote %v", entries)
	}
}

func TestExportSelectedAgents(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst, "agents/ticket-router.md": exRouter})
	out := t.TempDir()
	code, stdout, stderr := run(t, nil, "export", "--home", home, "--to", "maxclaw", "--out", out, "Code-Analyst", "code-analyst")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{".agentdesk-export.json", "code-analyst.md"}) || strings.Count(stdout, "created") != 1 {
		t.Errorf("files %v\nstdout %s", names, stdout)
	}
}

// TestExportDefaultOut runs the built binary in a fresh working directory:
// without --out the files go to the target's project folder there.
func TestExportDefaultOut(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	for _, tt := range []struct{ to, file, next string }{
		{"claude-code", ".claude/agents/code-analyst.md", ""},
		{"opencode", ".opencode/agents/code-analyst.md", ""},
		{"gemini", ".gemini/agents/code-analyst.md", "next: Gemini CLI registers the agents of %s only after you acknowledge them"},
		{"codex", ".codex/agents/code-analyst.toml", "next: Codex CLI reads %s only in a trusted project"},
		{"jit", ".jit/agents/code-analyst.json", ""},
		{"maxclaw", "roles/code-analyst.md", ""},
	} {
		wd := t.TempDir()
		cmd := exec.Command(binary(t), "export", "--home", home, "--to", tt.to)
		cmd.Dir = wd
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", tt.to, err, errOut.String())
		}
		if _, err := os.Stat(filepath.Join(wd, filepath.FromSlash(tt.file))); err != nil {
			t.Errorf("%s: %v", tt.to, err)
		}
		if _, err := os.Stat(filepath.Join(wd, filepath.Dir(filepath.FromSlash(tt.file)), ".agentdesk-export.json")); err != nil {
			t.Errorf("%s: no state file: %v", tt.to, err)
		}
		dir, _ := filepath.EvalSymlinks(wd)
		dir = filepath.Join(dir, filepath.Dir(filepath.FromSlash(tt.file)))
		switch {
		case tt.next == "" && strings.Contains(out.String(), "next:"):
			t.Errorf("%s: a next step where the tool needs none:\n%s", tt.to, out.String())
		case tt.next != "" && !strings.Contains(out.String(), fmt.Sprintf(tt.next, dir)) && !strings.Contains(out.String(), fmt.Sprintf(tt.next, filepath.Join(wd, filepath.Dir(filepath.FromSlash(tt.file))))):
			t.Errorf("%s: stdout does not say %q:\n%s", tt.to, tt.next, out.String())
		}
		// A rerun that changes nothing has nothing to ask.
		cmd = exec.Command(binary(t), "export", "--home", home, "--to", tt.to)
		cmd.Dir, cmd.Env = wd, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		if again, err := cmd.Output(); err != nil || strings.Contains(string(again), "next:") {
			t.Errorf("%s: rerun: %v\n%s", tt.to, err, again)
		}
	}
}

func TestExportNoAcknowledgementForUserGeminiAgents(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	user := t.TempDir()
	cmd := exec.Command(binary(t), "export", "--home", home, "--to", "gemini", "--out", filepath.Join(user, ".gemini", "agents"))
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + user}
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "created ") || strings.Contains(string(out), "next:") {
		t.Errorf("%v\n%s", err, out)
	}
}

func TestExportWarnsAboutInvalidUTF8(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": "---\nname: code-analyst\ndescription: Explains code.\n---\nYou explain caf\xe9 code.\n"})
	code, _, stderr := run(t, nil, "export", "--home", home, "--to", "claude-code", "--out", t.TempDir())
	want := "code-analyst.md: warning: invalid UTF-8 at line 5: exported as the runtime reads it, with U+FFFD in place of the bad bytes; save the file as UTF-8"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr does not say %q:\n%s", code, want, stderr)
	}
	code, _, stderr = run(t, nil, "export", "--home", hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst}), "--to", "claude-code", "--out", t.TempDir())
	if code != 0 || strings.Contains(stderr, "UTF-8") {
		t.Errorf("exit %d, a valid file is reported:\n%s", code, stderr)
	}
}

// TestExportThenImport carries a home to every importable tool and back
// into a second home: the definitions read the same.
func TestExportThenImport(t *testing.T) {
	src := hometest.New(t, map[string]string{
		"agents/code-analyst.md":  exAnalyst,
		"agents/ticket-router.md": exRouter,
		"agents/summarizer.md":    "---\r\nname: summarizer\r\ndescription: Summarizes.\r\ntools:\r\n  - file_read\r\nprefillTimeoutSeconds: 300\r\nemitStructuredFindings: true\r\n---\r\n\r\nYou summarize.\r\n\r\n",
	})
	before, err := lint.Scan(lint.NewHome(src, ""), lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{"claude-code", "opencode", "gemini", "codex"} {
		t.Run(to, func(t *testing.T) {
			out := t.TempDir()
			if code, _, stderr := run(t, nil, "export", "--home", src, "--to", to, "--out", out); code != 0 {
				t.Fatalf("export: exit %d\n%s", code, stderr)
			}
			dst := hometest.New(t, map[string]string{})
			if code, _, stderr := run(t, nil, "import", "--home", dst, "--from", to, out); code != 0 {
				t.Fatalf("import: exit %d\n%s", code, stderr)
			}
			if code, stdout, _ := run(t, nil, "lint", "--home", dst); code != 0 {
				t.Errorf("the imported home does not lint clean:\n%s", stdout)
			}
			after, err := lint.Scan(lint.NewHome(dst, ""), lint.ScanOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range before.Loaded() {
				g := after.Agent(f.Def.Name)
				if g == nil {
					t.Errorf("%s did not come back", f.Def.Name)
					continue
				}
				a, b := f.Def, g.Def
				if a.Description != b.Description || a.Body != b.Body || a.ModelRole != b.ModelRole || a.Visibility != b.Visibility ||
					a.PrefillTimeoutSeconds != b.PrefillTimeoutSeconds || a.EmitStructuredFindings != b.EmitStructuredFindings {
					t.Errorf("%s changed:\nbefore %+v\nafter  %+v", a.Name, *a, *b)
				}
				// attach_file has no equivalent in the tools that list tools
				// by name; Codex (no tool list) and OpenCode (a permission
				// block) keep the list in the '# netclaw:' comment.
				want := slices.DeleteFunc(slices.Clone(a.Tools), func(s string) bool {
					return s == "attach_file" && to != "codex" && to != "opencode"
				})
				if !slices.Equal(want, b.Tools) {
					t.Errorf("%s: tools %v came back as %v", a.Name, a.Tools, b.Tools)
				}
			}
		})
	}
}

// TestOutMustBeAFolder runs every command that takes --out with a file in
// its place: bad usage naming the file, and nothing written.
func TestOutMustBeAFolder(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	src := hometest.New(t, map[string]string{"pr_reviewer.toml": imCodex})
	file := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	under := filepath.Join(file, "sub")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"manifest", "--home", home, "--version", "1.0.0", "--out", file}, "--out " + file + " is not a folder: pass a folder"},
		{[]string{"export", "--home", home, "--to", "codex", "--out", file}, "--out " + file + " is not a folder: pass a folder"},
		{[]string{"export", "--home", home, "--to", "codex", "--out", under}, "--out " + under + " is not a folder: " + file + " is a file"},
		{[]string{"import", "--from", "codex", "--out", file, src}, "--out " + file + " is not a folder: pass a folder"},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			code, stdout, stderr := run(t, nil, tt.args...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want 2 and %q\nstdout %s\nstderr %s", code, tt.want, stdout, stderr)
			}
			if data, _ := os.ReadFile(file); string(data) != "mine\n" {
				t.Errorf("the file in the way changed: %q", data)
			}
		})
	}
}

// TestExportKeepsTheFilesOfABrokenSource breaks a source mid-edit: the
// rerun says it is not exported and leaves its file; an agent renamed in
// its own file has its old file pruned.
func TestExportKeepsTheFilesOfABrokenSource(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst, "agents/ticket-router.md": exRouter})
	out := t.TempDir()
	export := func() (int, string, string) {
		return run(t, nil, "export", "--home", home, "--to", "opencode", "--out", out)
	}
	if code, _, stderr := export(); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	router := filepath.Join(home, "agents", "ticket-router.md")
	if err := os.WriteFile(router, []byte(strings.Replace(exRouter, "internal", "hidden", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := export()
	if code != 0 || strings.Contains(stdout, "ticket-router") {
		t.Fatalf("a broken source: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, router+": warning: not exported: ") || !strings.Contains(stderr, "invalid visibility 'hidden'") {
		t.Errorf("stderr does not say why ticket-router was not exported:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "ticket-router.md")); err != nil {
		t.Errorf("the export of a source that is only broken was deleted: %v", err)
	}

	analyst := filepath.Join(home, "agents", "code-analyst.md")
	if err := os.WriteFile(analyst, []byte(strings.Replace(exAnalyst, "name: code-analyst", "name: code-reader", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = export()
	if code != 0 || !strings.Contains(stdout, "created "+filepath.Join(out, "code-reader.md")) || !strings.Contains(stdout, "deleted "+filepath.Join(out, "code-analyst.md")) {
		t.Errorf("a renamed agent: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

// TestExportOutThroughALink names the agents folder through a symbolic
// link to the home, in a folder that does not exist yet: still refused.
func TestExportOutThroughALink(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	link := filepath.Join(t.TempDir(), "home-link")
	if err := os.Symlink(home, link); err != nil {
		t.Skip(err)
	}
	out := filepath.Join(link, "agents", ".server-feeds", "exported")
	code, _, stderr := run(t, nil, "export", "--home", home, "--to", "claude-code", "--out", out)
	if code != 2 || !strings.Contains(stderr, "inside the NetClaw agents folder") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "agents", ".server-feeds")); err == nil {
		t.Error("export wrote into the agents folder")
	}
}

// TestExportMovesOldCodexNames: an export made when agentdesk wrote Codex
// names with underscores gives way to the hyphenated file on a rerun.
func TestExportMovesOldCodexNames(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/code-analyst.md": exAnalyst})
	out := t.TempDir()
	if code, _, stderr := run(t, nil, "export", "--home", home, "--to", "codex", "--out", out); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// Make the destination look like an older export: the file and its
	// record under the underscored name.
	state := filepath.Join(out, ".agentdesk-export.json")
	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, []byte(strings.ReplaceAll(string(data), `"code-analyst.toml"`, `"code_analyst.toml"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(out, "code-analyst.toml"), filepath.Join(out, "code_analyst.toml")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, nil, "export", "--home", home, "--to", "codex", "--out", out)
	want := "deleted " + filepath.Join(out, "code_analyst.toml") + ": its source 'code-analyst' now exports to code-analyst.toml"
	if code != 0 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "created "+filepath.Join(out, "code-analyst.toml")) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "code_analyst.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old file stays: %v", err)
	}
}
