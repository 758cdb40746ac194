package report

import (
	"os"

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

// readSource reads a regular file of at most lint.MaxFileSize bytes and
// decodes it as lint does (lint.DecodeText), so positions point into it;
// "" when it cannot.
func readSource(path string) string {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > lint.MaxFileSize {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return lint.DecodeText(data)
}
