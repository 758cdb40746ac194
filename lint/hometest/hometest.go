// Package hometest writes NetClaw homes for tests: the agents folder,
// config/netclaw.json and secrets.json, skills, feeds, suite files, each
// from a map of paths to text, into a temp folder. It imports nothing of
// agentdesk, so the tests of every package (lint's own too) can use it;
// only tests do. The trial fixture (a home whose Main model is a loopback
// model server) builds on it in runner/trialtest; golden files live in
// lint/golden.
package hometest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// New writes files into a new folder under t.TempDir and returns the
// folder: the base of a NetClaw home when the paths are agents/x.md,
// config/netclaw.json, skills/s/SKILL.md and so on. See Write for the
// paths and values.
//
//	base := hometest.New(t, map[string]string{
//		"agents/tester.md":    "---\nname: tester\ndescription: Tries things\n---\nYou are a tester.\n",
//		"config/netclaw.json": `{"SubAgents": {"Enabled": true}}`,
//	})
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	Write(t, root, files)
	return root
}

// Write writes files under root, making their folders. A key is a path
// relative to root, slash-separated; a value is the file's text, or
// "->target", which makes a symbolic link to target instead.
func Write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if target, ok := strings.CutPrefix(text, "->"); ok {
			mkdir(t, filepath.Dir(path))
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		WriteFile(t, path, text)
	}
}

// WriteFile writes text to the file at path (replacing it), making its
// folder.
func WriteFile(t testing.TB, path, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Copy copies the folder src (a sample home under testdata, say) into dst,
// making dst and its folders; every file is written with mode 0644.
//
//	base := filepath.Join(t.TempDir(), "netclaw")
//	hometest.Copy(t, filepath.Join("testdata", "home"), base)
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
