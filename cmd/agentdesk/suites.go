package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// suiteKind is a kind of suite file, for the commands that run suites
// (test, route).
type suiteKind struct {
	// suffix ends the file names (.test.yaml); one and what name one and
	// many in messages ("a test suite", "test suites"); write says how to
	// make one.
	suffix, one, what, write string
}

// findSuiteFiles returns the suite files of kind k to run: those named in
// paths (a folder gives its suites), or every one in the agents folder.
// A path that is not there, not of the kind, or a folder without suites
// is bad usage.
func findSuiteFiles(k suiteKind, agents string, paths []string) ([]string, error) {
	find := func(dir string) ([]string, error) {
		ents, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, exitWith(exitInternal, fmt.Errorf("listing the suites in %s: %w", dir, err))
		}
		var out []string
		for _, e := range ents {
			if e.Type().IsRegular() && isSuiteName(k, e.Name()) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
		return out, nil
	}
	if len(paths) == 0 {
		found, err := find(agents)
		if err == nil && len(found) == 0 {
			err = usageErrorf("no %s in %s: %s, or give a PATH", k.what, termsafe.Escape(agents), k.write)
		}
		return found, err
	}
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, usageErrorf("%s: no such suite file or folder", termsafe.Escape(p))
		case fi.IsDir():
			found, err := find(p)
			if err == nil && len(found) == 0 {
				err = usageErrorf("no %s (*%s) in %s", k.what, k.suffix, termsafe.Escape(p))
			}
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		case !isSuiteName(k, filepath.Base(p)):
			return nil, usageErrorf("%s is not %s: its name must end in %s", termsafe.Escape(p), k.one, k.suffix)
		default:
			out = append(out, p)
		}
	}
	return out, nil
}

func isSuiteName(k suiteKind, name string) bool {
	return strings.HasSuffix(name, k.suffix) && len(name) > len(k.suffix)
}

// suiteFormat is the --format of the commands that run suites.
type suiteFormat int

const (
	suiteAsText suiteFormat = iota
	suiteAsJSON
	suiteAsJUnit
	suiteAsGitHub
)

var suiteFormatNames = []string{"text", "json", "junit", "github"}

// String returns the format's name.
func (f *suiteFormat) String() string { return suiteFormatNames[*f] }

// Set parses text, json, junit or github.
func (f *suiteFormat) Set(s string) error {
	for i, name := range suiteFormatNames {
		if strings.EqualFold(s, name) {
			*f = suiteFormat(i)
			return nil
		}
	}
	return errors.New(`use text, json, junit or github`)
}

// Type names the flag's value in help text.
func (f *suiteFormat) Type() string { return "text|json|junit|github" }

// makeDemo sets the embedded sample home up in a new temporary folder and
// returns the folder (remove it when done) and the home.
func makeDemo() (string, lint.Home, error) {
	dir, err := os.MkdirTemp("", "agentdesk-demo-")
	if err != nil {
		return "", lint.Home{}, exitWith(exitInternal, fmt.Errorf("making the demo folder: %w", err))
	}
	h, err := demo.Setup(dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", lint.Home{}, exitWith(exitInternal, err)
	}
	return dir, h, nil
}
