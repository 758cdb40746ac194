package report

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Options say how a report is printed. The zero value prints plain text with
// paths relative to the process's working directory.
type Options struct {
	// Color adds ANSI colours to the text format (severity, rule, caret).
	// Other formats ignore it.
	Color bool
	// Dir is the folder paths are shown relative to; "" means the working
	// directory.
	Dir string
	// Version is the tool version SARIF reports in tool.driver.version;
	// omitted when "".
	Version string
}

// dir returns the folder to make paths relative to, absolute, or "" when
// none can be found.
func (o Options) dir() string {
	d := o.Dir
	if d == "" {
		wd, err := os.Getwd()
		if err != nil {
			return ""
		}
		d = wd
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return ""
	}
	return abs
}

// isEnvironment reports whether a diagnostic's path stands for the
// environment rather than a file: lint.ConfigEnvironment, or "".
func isEnvironment(path string) bool {
	return path == "" || path == lint.ConfigEnvironment
}

// displayPath returns path relative to dir when that is shorter, else path
// unchanged.
func displayPath(path, dir string) string {
	if isEnvironment(path) || dir == "" {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || len(rel) >= len(path) {
		return path
	}
	return rel
}

// insideDir returns path relative to dir with forward slashes, and true, when
// path lies inside dir.
func insideDir(path, dir string) (string, bool) {
	if dir == "" {
		return "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
