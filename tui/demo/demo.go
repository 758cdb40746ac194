// Package demo holds agentdesk's sample NetClaw home, embedded in the
// binary, for `agentdesk --demo`: loaded, rejected and feed agents and
// skills that route well and badly, so a new user can try every pane with
// nothing installed. Extract copies it to a folder of its own; the demo
// never touches a real home.
package demo

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/lint"
)

//go:embed all:home
var files embed.FS

// Home returns the embedded sample home as a file system rooted at the
// home's base folder.
func Home() fs.FS {
	sub, err := fs.Sub(files, "home")
	if err != nil {
		panic(err) // the embedded tree always has a home folder
	}
	return sub
}

// Extract copies the sample home into dir, which must not exist yet or be
// empty, and returns its paths.
func Extract(dir string) (lint.Home, error) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: the folder is not empty; pick a new one", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: %w", dir, err)
	}
	src := Home()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: %w", dir, err)
	}
	return lint.NewHome(dir, ""), nil
}
