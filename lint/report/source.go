package report

import (
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// sources finds the text of the files diagnostics point into: agent files
// carry their text in the catalog; skills and configuration files are read
// once, on first use. A file that cannot be read has no source lines; the
// diagnostic is still printed.
type sources struct {
	read map[string]string
}

// text returns the text of l's file, or "" and false.
func (s *sources) text(l located) (string, bool) {
	if l.hasText {
		return l.text, true
	}
	if isEnvironment(l.Path) {
		return "", false
	}
	if t, ok := s.read[l.Path]; ok {
		return t, t != ""
	}
	if s.read == nil {
		s.read = map[string]string{}
	}
	t := readSource(l.Path)
	s.read[l.Path] = t
	return t, t != ""
}

// readSource reads a regular file of at most lint.MaxFileSize bytes, with a
// leading BOM dropped; "" when it cannot.
func readSource(path string) string {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > lint.MaxFileSize {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(string(data), "\uFEFF")
}

// lineOf returns line n (1-based) of text without its line ending, and
// whether there is such a line.
func lineOf(text string, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r"), true
}
