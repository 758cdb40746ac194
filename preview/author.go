package preview

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// AgentTemplate is the file a new agent named name starts from: it loads as is, so the
// list shows it at once, and its text says what to write where.
func AgentTemplate(name string) string {
	return `---
name: ` + name + `
description: One or two sentences the frontline model reads to decide when to delegate to this agent.
tools:
  - file_read
modelRole: Compaction
visibility: user-facing
---

You are ` + name + `, a focused sub-agent. Say here what you do and for whom.

## Guidelines

- Do one bounded task and stop.
- Read the files you need with file_read; do not guess their contents.
- Reply with a short synthesis, not a transcript of your steps.
`
}

// Renamed returns f's text with the value of its top-level
// `name:` line replaced by name. It refuses names written as block scalars.
func Renamed(f *lint.File, name string) ([]byte, error) {
	fld, ok := f.Def.Field("name")
	if !ok || fld.ValuePos.Line < 1 {
		return nil, fmt.Errorf("%s: no name line to change", f.Path)
	}
	lines := strings.SplitAfter(f.Text, "\n")
	i := fld.ValuePos.Line - 1
	if i >= len(lines) {
		return nil, fmt.Errorf("%s: the name is on line %d, past the end of the file", f.Path, fld.ValuePos.Line)
	}
	line := lines[i]
	eol := ""
	switch {
	case strings.HasSuffix(line, "\r\n"):
		eol = "\r\n"
	case strings.HasSuffix(line, "\n"):
		eol = "\n"
	}
	body := strings.TrimSuffix(line, eol)
	r := []rune(body)
	col := fld.ValuePos.Column - 1
	if col < 0 || col > len(r) {
		return nil, fmt.Errorf("%s:%d: cannot find the name's value", f.Path, fld.ValuePos.Line)
	}
	if v := strings.TrimSpace(string(r[col:])); strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
		return nil, fmt.Errorf("%s:%d: the name is a block scalar; write it on one line first", f.Path, fld.ValuePos.Line)
	}
	lines[i] = string(r[:col]) + name + eol
	out := []byte(strings.Join(lines, ""))
	// The value was replaced up to the end of its line: check the copy
	// still says what the original said, under the new name (a flow-style
	// frontmatter, {name: x, description: y}, would not).
	if c := lint.Parse(f.Path, out, lint.Runtime); c.Def == nil || c.Def.Name != name || c.Def.Description != f.Def.Description {
		return nil, fmt.Errorf("%s:%d: the name cannot be changed on its own line; copy the file by hand", f.Path, fld.ValuePos.Line)
	}
	return out, nil
}
