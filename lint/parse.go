package lint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse reads one agent definition file's bytes exactly as the NetClaw
// loader does and returns what the runtime makes of it, with a diagnostic for
// every problem at its line and column. It checks the file on its own: the
// duplicate-name and feed rules need the whole folder (see Scanner).
//
// Parse never fails: a file the runtime would skip comes back with Status
// Rejected and Reason set to the runtime's own log line.
func Parse(path string, data []byte, p Profile) *File {
	sum := sha256.Sum256(data)
	f := &File{Path: path, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	ps := parser{f: f, profile: p}
	ps.parse(data)
	SortDiagnostics(f.Diagnostics)
	return f
}

// parser carries the state of one Parse.
type parser struct {
	f       *File
	profile Profile
	// fmLine is the file line of the frontmatter's first line.
	fmLine int
	// fmText is the frontmatter text given to the YAML parser.
	fmText string
}

// add records a diagnostic for rule at pos with the rule's severity under
// the parser's profile. Rules that are off under the profile add nothing.
func (ps *parser) add(rule string, pos Pos, msg, hint string) {
	ps.addSeverity(rule, -1, pos, msg, hint)
}

// addSeverity records a diagnostic with an explicit severity (sev < 0 means
// the rule's own severity).
func (ps *parser) addSeverity(rule string, sev Severity, pos Pos, msg, hint string) {
	r, _ := RuleByID(rule)
	if sev < 0 {
		sev = r.Severity(ps.profile)
	}
	if sev == Off {
		return
	}
	ps.f.Diagnostics = append(ps.f.Diagnostics, Diagnostic{
		Path: ps.f.Path, Pos: pos, Rule: rule, Severity: sev, Message: msg, Hint: hint,
	})
}

// reject marks the file skipped by the runtime. The first reason wins, as the
// runtime stops at its first complaint.
func (ps *parser) reject(reason string) {
	if ps.f.Status == Rejected {
		return
	}
	ps.f.Status = Rejected
	ps.f.Reason = reason
}

// runtimeReason formats a runtime log line for a file with a known name.
func (ps *parser) agentReason(name, what string) string {
	return fmt.Sprintf("Agent '%s' at %s %s — skipping", name, ps.f.Path, what)
}

func (ps *parser) parse(data []byte) {
	text := ps.decode(data)
	ps.f.Text = text
	unparseable := fmt.Sprintf("Agent definition at %s has missing or unparseable YAML frontmatter — skipping", ps.f.Path)

	if !strings.HasPrefix(text, "---") {
		msg, hint := "the file does not start with a '---' line, so the runtime finds no frontmatter", "start the file with '---', the YAML keys, then a closing '---' line"
		pos := Pos{1, 1}
		switch trimmed := strings.TrimLeftFunc(text, unicode.IsSpace); {
		case text == "":
			msg = "the file is empty"
		case strings.HasPrefix(trimmed, "---"):
			pos = posAt(text, len(text)-len(trimmed))
			msg = "the frontmatter must begin at the first byte of the file"
			hint = "remove the whitespace before '---'"
		}
		ps.add(RuleFrontmatter, pos, msg, hint)
		ps.reject(unparseable)
		return
	}
	fm, closeAt, body, ok := splitFrontmatter(text)
	if !ok {
		if _, rest, found := strings.Cut(text, "\n"); found {
			ps.f.DeclaredName = declaredName(rest)
		}
		ps.add(RuleFrontmatter, Pos{1, 1}, "the frontmatter opened on line 1 is never closed", "add a line '---' after the last frontmatter key")
		ps.reject(unparseable)
		return
	}
	ps.fmLine, ps.fmText = 2, fm
	bodyLine := posAt(text, closeAt+1).Line + 1
	if body != "" {
		bodyLine = posAt(text, len(text)-len(body)).Line
	}

	if strings.TrimSpace(ps.fmText) == "" {
		ps.add(RuleFrontmatter, Pos{1, 1}, "the frontmatter is empty", "add at least 'name' and 'description' between the '---' lines")
		ps.reject(unparseable)
		return
	}
	def, ok := ps.bind()
	if !ok {
		ps.f.DeclaredName = declaredName(ps.fmText)
		ps.reject(unparseable)
		return
	}
	def.Body, def.BodyLine = body, bodyLine
	ps.f.Def = def
	ps.check(def)
}

// decode turns the file's bytes into the text the runtime reads
// (decodeText), adding an encoding diagnostic for a UTF-16 file or at the
// first invalid UTF-8 byte.
func (ps *parser) decode(data []byte) string {
	switch rest := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}); {
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		sev := Warning
		if ps.profile == Publish {
			sev = Error
		}
		ps.addSeverity(RuleEncoding, sev, Pos{1, 1}, "the file is UTF-16: the runtime reads it, but SkillServer only accepts UTF-8", "save the file as UTF-8")
	case !utf8.Valid(rest):
		bad := firstInvalidUTF8(rest)
		ps.add(RuleEncoding, posAt(string(rest), bad),
			fmt.Sprintf("invalid UTF-8 (byte 0x%02X at offset %d): the runtime loads the file with U+FFFD in place of the bad bytes, so the model gets a different prompt; SkillServer sync refuses it", rest[bad], bad),
			"save the file as UTF-8")
	}
	return DecodeText(data)
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// declaredName reads the name a frontmatter the runtime cannot bind
// declares: the value of its last top-level `name:` line, with one layer
// of quotes and a trailing comment removed. It returns "" when there is no
// such line or its value is not a plain one-line string.
func declaredName(fm string) string {
	name := ""
	for line := range strings.Lines(fm) {
		line = strings.TrimRight(line, "\r\n")
		if line == "---" {
			break
		}
		v, ok := strings.CutPrefix(line, "name:")
		if !ok {
			continue
		}
		name = plainScalar(v)
	}
	return name
}

// plainScalar is a one-line YAML scalar's text as written: a quoted value
// without its quotes, a plain one without a trailing comment; "" for
// anything else (a flow collection, a block scalar, an anchor, an alias,
// an unclosed quote).
func plainScalar(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	switch q := v[0]; q {
	case '"', '\'':
		end := strings.IndexByte(v[1:], q)
		if end < 0 {
			return ""
		}
		return strings.TrimSpace(v[1 : 1+end])
	case '[', '{', '|', '>', '&', '*', '!', '#', '@', '`', '%':
		return ""
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}
