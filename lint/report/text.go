package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// ANSI styles of the text format.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiGreen  = "\x1b[32m"
	ansiCyan   = "\x1b[1;36m"
)

// environmentLabel is shown in place of a path for a diagnostic about the
// environment (NETCLAW_ variables) rather than a file.
const environmentLabel = lint.ConfigEnvironment

// Text prints every diagnostic of c for a person, sorted by path, then line:
//
//	agents/reviewer.md:4:1: warning: unknown key "ModelRole" [unknown-field]
//	   4 | ModelRole: Main
//	     | ^
//	  hint: did you mean 'modelRole'?
//
// A diagnostic about a whole file prints as "path: severity: message [rule]"
// with no source line. Paths are shown relative to opts.Dir when that is
// shorter. Everything taken from a file is passed through Escape. The last
// line sums up: "12 loaded, 2 rejected, 3 errors, 1 warning", with "N not
// loaded" (files in feed folders the runtime does not read) and "N infos"
// added when there are any.
func Text(w io.Writer, c *lint.Catalog, opts Options) error {
	bw := bufio.NewWriter(w)
	tp := textPrinter{w: bw, color: opts.Color, mask: secretMask(c)}
	for _, l := range flatten(entries(c), opts.dir()) {
		tp.diagnostic(l)
	}
	fmt.Fprintln(bw, SummaryLine(c.Summary()))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the lint report: %w", err)
	}
	return nil
}

// SummaryLine returns the last line of a text report, such as
// "12 loaded, 2 rejected, 3 errors, 1 warning", or with feed folders the
// runtime does not read and info notes "12 loaded, 2 rejected, 3 not
// loaded, 3 errors, 1 warning, 1 info".
func SummaryLine(s lint.Summary) string {
	files := fmt.Sprintf("%d loaded, %d rejected", s.Loaded, s.Rejected)
	if s.NotLoaded > 0 {
		files += fmt.Sprintf(", %d not loaded", s.NotLoaded)
	}
	line := fmt.Sprintf("%s, %s, %s", files, plural(s.Errors, "error"), plural(s.Warnings, "warning"))
	if s.Infos > 0 {
		line += ", " + plural(s.Infos, "info")
	}
	return line
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// textPrinter writes diagnostics in the text format.
type textPrinter struct {
	w     *bufio.Writer
	color bool
	src   sources
	// mask hides the configuration's secrets in source lines.
	mask *lint.SecretMasker
}

func (p *textPrinter) style(code, s string) string {
	if !p.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (p *textPrinter) diagnostic(l located) {
	loc := termsafe.Escape(l.display)
	if isEnvironment(l.Path) {
		loc = environmentLabel
	}
	if l.Line > 0 {
		loc += ":" + strconv.Itoa(l.Line)
		if l.Column > 0 {
			loc += ":" + strconv.Itoa(l.Column)
		}
	}
	sev := l.Severity.String()
	switch l.Severity {
	case lint.Error:
		sev = p.style(ansiRed, sev)
	case lint.Warning:
		sev = p.style(ansiYellow, sev)
	case lint.Info:
		sev = p.style(ansiCyan, sev)
	}
	fmt.Fprintf(p.w, "%s: %s: %s %s\n",
		p.style(ansiBold, loc), sev, termsafe.Escape(l.Message), p.style(ansiDim, "["+termsafe.Escape(l.Rule)+"]"))
	if l.Line > 0 {
		if text, ok := p.src.text(l); ok {
			if line, ok := lint.LineOf(text, l.Line); ok {
				p.snippet(l.Line, l.Column, p.mask.Replace(line))
			}
		}
	}
	if l.Hint != "" {
		fmt.Fprintf(p.w, "  hint: %s\n", termsafe.Escape(l.Hint))
	}
}

// secretMask returns a masker of each secret of the catalog's
// configuration (lint.Config.Secrets: API keys, tokens, MCP headers and
// variables from secrets.json, ...) by as many '*' as it has characters,
// as lint.SecretMasker hides them (from four characters; a short one only
// as a whole token): a source line printed under a diagnostic never shows
// a secret, and the caret stays under its column.
func secretMask(c *lint.Catalog) *lint.SecretMasker {
	var secrets []string
	if c != nil {
		secrets = c.Config.Secrets()
	}
	return lint.NewSecretMasker(secrets, func(s string) string { return strings.Repeat("*", utf8.RuneCountInString(s)) })
}

// snippet prints the source line with a gutter holding its number and, when
// column is known, a caret under the column.
func (p *textPrinter) snippet(lineNo, column int, line string) {
	num := strconv.Itoa(lineNo)
	pad := strings.Repeat(" ", len(num))
	shown, caret := sourceWindow(line, column)
	fmt.Fprintf(p.w, " %s%s | %s\n", gutterPad(num), num, shown)
	if column > 0 {
		fmt.Fprintf(p.w, " %s%s | %s%s\n", gutterPad(num), pad, caret, p.style(ansiGreen, "^"))
	}
}

// gutterPad right-aligns line numbers in a gutter at least four wide.
func gutterPad(num string) string {
	if len(num) >= 3 {
		return ""
	}
	return strings.Repeat(" ", 3-len(num))
}
