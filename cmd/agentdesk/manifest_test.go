package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

const (
	pubTriage = "---\nname: triage\ndescription: Triage support tickets.\n---\nYou triage tickets.\n"
	pubNotes  = "---\nname: release-notes\ndescription: Writes release notes.\nmetadata:\n  version: 2.1.0\n---\nYou write notes.\n"
)

// pubEntry is one manifest line.
type pubEntry struct {
	Kind, Name, Version, Type, Description, URL, Digest string
}

// pubLines decodes the JSON lines manifest printed.
func pubLines(t *testing.T, stdout string) []pubEntry {
	t.Helper()
	var out []pubEntry
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		var e pubEntry
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

func pubDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestManifestCommand(t *testing.T) {
	crlf := strings.ReplaceAll(pubTriage, "\n", "\r\n")
	bom := "\ufeff" + strings.Replace(pubTriage, "triage", "bom-triage", 1)
	home := hometest.New(t, map[string]string{
		"agents/triage.md":        pubTriage,
		"agents/release-notes.md": pubNotes,
		"agents/notes.txt":        "not an agent",
		// A feed is not part of the upload set: its bad name does not count.
		"agents/.server-feeds/acme/Bad_Name.md": "---\nname: Bad_Name\ndescription: d\n---\nB.\n",
	})
	bad := hometest.New(t, map[string]string{"agents/Upper.md": "---\nname: Upper_Case\ndescription: d\n---\nBody.\n"})
	eol := hometest.New(t, map[string]string{"agents/crlf.md": crlf, "agents/bom.md": bom})
	conflict := hometest.New(t, map[string]string{"agents/release-notes.md": pubNotes})
	empty := hometest.New(t, map[string]string{"agents/README.txt": "nothing"})
	tests := []struct {
		name   string
		args   []string
		code   int
		lines  int
		stdout []string
		stderr []string
	}{
		{name: "home with flag version", args: []string{"manifest", "--home", home, "--version", "1.0.0"}, code: 1,
			stderr: []string{`--version "1.0.0" differs from the file's version "2.1.0"`, "release-notes.md"}},
		{name: "explicit files", args: []string{"manifest", "--version", "1.0.0", filepath.Join(home, "agents", "triage.md")}, code: 0, lines: 1,
			stdout: []string{`{"kind":"subagent-version","name":"triage","version":"1.0.0","type":"agent-md","description":"Triage support tickets.","url":"/subagents/triage/1.0.0/agent.md","digest":"` + pubDigest([]byte(pubTriage)) + `"}` + "\n"}},
		{name: "version from metadata", args: []string{"manifest", filepath.Join(home, "agents", "release-notes.md")}, code: 0, lines: 1,
			stdout: []string{`"version":"2.1.0"`, `"url":"/subagents/release-notes/2.1.0/agent.md"`}},
		{name: "url prefix", args: []string{"manifest", "--version", "3.0.0", "--url-prefix", "https://skills.example.com/api/v1/", filepath.Join(home, "agents", "triage.md")}, code: 0, lines: 1,
			stdout: []string{`"url":"https://skills.example.com/api/v1/subagents/triage/3.0.0/agent.md"`}},
		{name: "no version", args: []string{"manifest", filepath.Join(home, "agents", "triage.md")}, code: 2,
			stderr: []string{"no version: pass --version or set metadata.version"}},
		{name: "conflict", args: []string{"manifest", "--home", conflict, "--version", "9.0.0"}, code: 1,
			stderr: []string{`--version "9.0.0" differs from the file's version "2.1.0": version conflict (drop --version, or change the file's version)`}},
		{name: "no version, two files", args: []string{"manifest", "--home", eol}, code: 2,
			stderr: []string{"crlf.md: no version: pass --version or set metadata.version in the frontmatter\n", "bom.md: no version: pass --version or set metadata.version in the frontmatter\n"}},
		{name: "publish errors", args: []string{"manifest", "--home", bad, "--version", "1.0.0"}, code: 1,
			stderr: []string{"[name-format]", "1 error under the publish profile"}},
		{name: "bad version flag", args: []string{"manifest", "--home", home, "--version", "1.0 beta"}, code: 2,
			stderr: []string{`--version "1.0 beta"`}},
		{name: "force without out", args: []string{"manifest", "--home", home, "--version", "1.0.0", "--force"}, code: 2},
		{name: "missing path", args: []string{"manifest", "--version", "1.0.0", filepath.Join(home, "nope.md")}, code: 2, stderr: []string{"no such file"}},
		{name: "empty folder", args: []string{"manifest", "--home", empty, "--version", "1.0.0"}, code: 1, stderr: []string{"nothing to publish"}},
		{name: "CRLF and BOM", args: []string{"manifest", "--home", eol, "--version", "1.0.0"}, code: 0, lines: 2,
			stdout: []string{pubDigest([]byte(crlf)), pubDigest([]byte(bom))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, []string{"HOME=/nonexistent"}, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.code != 0 && stdout != "" {
				t.Errorf("a failed manifest printed entries:\n%s", stdout)
			}
			if got := len(pubLines(t, stdout)); got != tt.lines {
				t.Errorf("%d entries, want %d:\n%s", got, tt.lines, stdout)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout does not contain %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, stderr)
				}
			}
		})
	}
}

func TestManifestDigestIsOfTheExactBytes(t *testing.T) {
	variants := map[string]string{
		"lf.md":       pubTriage,
		"crlf.md":     strings.ReplaceAll(strings.Replace(pubTriage, "triage", "crlf", 1), "\n", "\r\n"),
		"bom.md":      "\ufeff" + strings.Replace(pubTriage, "triage", "bom", 1),
		"bom-crlf.md": "\ufeff" + strings.ReplaceAll(strings.Replace(pubTriage, "triage", "bom-crlf", 1), "\n", "\r\n"),
	}
	home := hometest.New(t, map[string]string{})
	var paths []string
	for name, text := range variants {
		path := filepath.Join(home, name)
		hometest.WriteFile(t, path, text)
		paths = append(paths, path)
	}
	code, stdout, stderr := run(t, nil, append([]string{"manifest", "--version", "1.0.0"}, paths...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries := pubLines(t, stdout)
	if len(entries) != len(variants) {
		t.Fatalf("%d entries:\n%s", len(entries), stdout)
	}
	for _, e := range entries {
		name := map[string]string{"triage": "lf.md", "crlf": "crlf.md", "bom": "bom.md", "bom-crlf": "bom-crlf.md"}[e.Name]
		data, err := os.ReadFile(filepath.Join(home, name))
		if err != nil {
			t.Fatal(err)
		}
		if e.Digest != pubDigest(data) {
			t.Errorf("%s: digest %s, want the sha256 of its exact bytes %s", name, e.Digest, pubDigest(data))
		}
	}
}

func TestManifestOut(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/triage.md": pubTriage, "agents/release-notes.md": pubNotes})
	out := filepath.Join(t.TempDir(), "public")
	args := []string{"manifest", "--out", out, filepath.Join(home, "agents")}
	code, stdout, stderr := run(t, nil, args...)
	if code != 2 || stdout != "" {
		t.Fatalf("triage has no version: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed manifest created --out")
	}

	// Only release-notes has a version of its own.
	args = []string{"manifest", "--out", out, filepath.Join(home, "agents", "release-notes.md")}
	code, stdout, stderr = run(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	artifact := filepath.Join(out, "subagents", "release-notes", "2.1.0", "agent.md")
	data, err := os.ReadFile(artifact)
	if err != nil || string(data) != pubNotes {
		t.Fatalf("the artifact %s: %q %v", artifact, data, err)
	}
	if e := pubLines(t, stdout); len(e) != 1 || e[0].Digest != pubDigest(data) || !strings.HasSuffix(artifact, filepath.FromSlash(strings.TrimPrefix(e[0].URL, "/"))) {
		t.Errorf("entry %+v does not describe %s", e, artifact)
	}
	if !strings.Contains(stderr, "created "+artifact) {
		t.Errorf("stderr:\n%s", stderr)
	}

	// Same bytes again: fine, untouched.
	if code, _, stderr = run(t, nil, args...); code != 0 || !strings.Contains(stderr, "unchanged") {
		t.Errorf("rerun: exit %d\n%s", code, stderr)
	}

	// Different bytes at the same URL path: refused without --force.
	if err := os.WriteFile(artifact, []byte("someone else's file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = run(t, nil, args...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, artifact+" exists with different bytes (nothing was written; pass --force to replace them)\n") {
		t.Errorf("a different file in the way: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if data, _ := os.ReadFile(artifact); string(data) != "someone else's file\n" {
		t.Error("manifest replaced a different file without --force")
	}
	if code, _, stderr = run(t, nil, append(args, "--force")...); code != 0 {
		t.Fatalf("--force: exit %d\n%s", code, stderr)
	}
	if data, _ := os.ReadFile(artifact); string(data) != pubNotes {
		t.Error("--force did not replace the file")
	}
}

func TestManifestEscapesControlCharacters(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/evil.md": "---\nname: evil\ndescription: \"\\e[31mred\\e]0;title\\a \\x7f\\x9b2J \\u202edesrever\"\n---\nBody.\n"})
	code, stdout, stderr := run(t, nil, "manifest", "--home", home, "--version", "1.0.0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07\x7f\u009b\u202e") {
		t.Errorf("raw control characters in the output: %q %q", stdout, stderr)
	}
	if e := pubLines(t, stdout); len(e) != 1 || e[0].Description != "\x1b[31mred\x1b]0;title\a \x7f\u009b2J \u202edesrever" {
		t.Errorf("the JSON must carry the exact description: %+v", e)
	}
}

// TestManifestListsAFileOnce names one file twice, and again through its
// folder: it is one upload, not a duplicate name.
func TestManifestListsAFileOnce(t *testing.T) {
	home := hometest.New(t, map[string]string{"agents/triage.md": pubTriage})
	agents := filepath.Join(home, "agents")
	file := filepath.Join(agents, "triage.md")
	code, stdout, stderr := run(t, nil, "manifest", "--version", "1.0.0", file, agents, filepath.Join(agents, ".", "triage.md"))
	if code != 0 || len(pubLines(t, stdout)) != 1 {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}
