package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// jsonReport is the JSON format's document. Field order is the order keys
// are printed in.
type jsonReport struct {
	Files   []jsonFile  `json:"files"`
	Summary jsonSummary `json:"summary"`
}

type jsonFile struct {
	Path        string           `json:"path"`
	Name        string           `json:"name"`
	Status      string           `json:"status"`
	Source      string           `json:"source"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
}

type jsonDiagnostic struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

type jsonSummary struct {
	Loaded    int `json:"loaded"`
	Rejected  int `json:"rejected"`
	NotLoaded int `json:"notLoaded"`
	Errors    int `json:"errors"`
	Warnings  int `json:"warnings"`
	Infos     int `json:"infos"`
}

// JSON prints c as one JSON document, indented by two spaces, keys in a
// fixed order, with a trailing newline:
//
//	{"files":[{"path","name","status","source","diagnostics":[{"rule",
//	"severity","message","hint","line","column"}]}],
//	"summary":{"loaded","rejected","notLoaded","errors","warnings","infos"}}
//
// "files" lists agent files in runtime order, then skills by path, then
// the folders a diagnostic is about (the agents folder, feed folders), then
// configuration files by path. Every key is always present: "name" and
// "hint" may be "", "diagnostics" may be [], and "line" and "column" are 0
// for a diagnostic about the whole file. "status" is "loaded", "rejected"
// or "not-loaded" (in a feed folder no enabled SkillFeeds entry names) as
// the runtime decides for an agent file; for a skill it is "loaded" when
// the runtime lists it and it routes fine or does not route, "rejected"
// when the skill scanner refuses it or its routing fails, "not-loaded" in
// a feed folder the runtime does not read; for a folder it is "not-loaded"
// for a feed folder the runtime does not read, else ""; for a
// configuration file it is ""; for an extra file (a suite) it is "valid",
// or "invalid" when it has an error. "source" is "local" or "feed:<name>",
// "system" for skills under skills/.system, "folder" for folders,
// "config" for configuration files and the kind of an extra file ("test
// suite"). "severity" is "error", "warning" or
// "info". "path" is shown relative to opts.Dir when that is
// shorter; the environment's path is "environment" (lint.ConfigEnvironment). Strings are JSON-escaped, and
// DEL, C1 controls and bidirectional formatting characters are written as
// \u escapes, so the output is safe to print on a terminal.
func JSON(w io.Writer, c *lint.Catalog, opts Options) error {
	dir := opts.dir()
	sum := c.Summary()
	doc := jsonReport{
		Files:   []jsonFile{},
		Summary: jsonSummary{sum.Loaded, sum.Rejected, sum.NotLoaded, sum.Errors, sum.Warnings, sum.Infos},
	}
	for _, e := range entries(c) {
		f := jsonFile{
			Path:        displayPath(e.path, dir),
			Name:        e.name,
			Status:      e.status,
			Source:      e.source,
			Diagnostics: make([]jsonDiagnostic, 0, len(e.diagnostics)),
		}
		for _, d := range e.diagnostics {
			f.Diagnostics = append(f.Diagnostics, jsonDiagnostic{
				Rule:     d.Rule,
				Severity: d.Severity.String(),
				Message:  d.Message,
				Hint:     d.Hint,
				Line:     d.Line,
				Column:   d.Column,
			})
		}
		doc.Files = append(doc.Files, f)
	}
	return writeJSON(w, doc, "lint report")
}

// WriteJSON prints v as JSON indented by two spaces with a trailing newline,
// '<', '>' and '&' left as they are, and every character a terminal could
// act on escaped: encoding/json escapes C0 controls and invalid UTF-8, and
// WriteJSON also DEL, C1 controls and bidirectional formatting characters.
// A JSON reader gets the exact strings back. Every JSON agentdesk prints to
// stdout goes through it.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v, "JSON output") }

// writeJSON is WriteJSON with what names the document in errors.
func writeJSON(w io.Writer, v any, what string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode the %s: %w", what, err)
	}
	if _, err := w.Write(escapeJSONText(buf.Bytes())); err != nil {
		return fmt.Errorf("write the %s: %w", what, err)
	}
	return nil
}

// escapeJSONText rewrites, in encoded JSON, the characters encoding/json
// leaves raw but a terminal may act on (DEL, C1 controls, bidirectional
// formatting characters) as \u escapes. They can only occur inside strings,
// where a \u escape means the same character, so the document is unchanged
// for a JSON reader.
func escapeJSONText(b []byte) []byte {
	i := firstUnsafeJSON(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r != '\n' && termsafe.UnsafeRune(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstUnsafeJSON returns the offset of the first character of encoded JSON
// escapeJSONText rewrites, or -1. encoding/json has already escaped C0
// controls and invalid UTF-8; the indentation's newlines are fine.
func firstUnsafeJSON(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			if b[i] == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if termsafe.UnsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}
