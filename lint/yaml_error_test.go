package lint

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestYAMLErrorLine checks that a syntax error's line is the line it
// means, for the parser's errors (numbered from 0 by yaml.v3) and the
// scanner's (numbered from 1).
func TestYAMLErrorLine(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		msg       string
	}{
		{"scanner: quoted scalar unclosed", "a: 1\nb: 'x\n", 2, "found unexpected end of stream"},
		{"scanner: mapping value in a value", "a: 1\nb: c: d\n", 2, "mapping values are not allowed in this context"},
		{"scanner: bad token", "a: 1\nb: @x\n", 2, "found character that cannot start any token"},
		{"parser: flow list unclosed", "a: 1\nb: [1, 2\nc: 3\n", 2, "did not find expected ',' or ']'"},
		{"parser: flow mapping unclosed", "a: 1\nb: {x: 1\n", 2, "did not find expected ',' or '}'"},
		{"parser: key out of line", "a:\n  b: 1\n c: 2\n", 3, "did not find expected key"},
		{"parser: undefined tag on line 2", "a: 1\nb: !x!y z\n", 2, "found undefined tag handle"},
		{"parser: on line 1", "[a, b\n", 1, "did not find expected ',' or ']'"},
		{"parser: at the end of the stream", "a: 1\nb: [1, 2\n\n\n", 2, "did not find expected ',' or ']'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(tt.src), &n)
			if err == nil {
				t.Fatal("no error")
			}
			line, msg := YAMLErrorLine(err, tt.src)
			if line != tt.line || msg != tt.msg {
				t.Errorf("YAMLErrorLine(%q) = %d, %q; want %d, %q", err, line, msg, tt.line, tt.msg)
			}
		})
	}
	if line, msg := YAMLErrorLine(errors.New("yaml: control characters are not allowed"), "a\n"); line != 0 || msg != "control characters are not allowed" {
		t.Errorf("an error without a line: %d, %q", line, msg)
	}
}

// TestYAMLErrorPos: an error inside a block list or mapping points at the
// token that broke it, not at the collection's first line (where yaml.v3
// puts it), and says where the collection starts; other errors keep
// their line, at its first non-blank column.
func TestYAMLErrorPos(t *testing.T) {
	tests := []struct {
		name, src string
		line, col int
		text      string
	}{
		{"list: a key one column short", "cases:\n  - name: a\n    task: b\n  - name: c\n   task: d\n", 5, 4, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: a key at the items' column", "cases:\n  - name: a\n    task: b\n  x: 1\n", 4, 3, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: a key of two words", "cases:\n  - name: a\n  big key: 1\n", 3, 3, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: after a blank line and a comment", "tools:\n  - a\n  - b\n\n  # note\n  more: 1\n", 6, 3, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: text after a quoted item", "tools:\n  - a\n  - 'b' c\n", 3, 9, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: a dash without a space", "tools:\n  - a\n  - b\n  -c: [\n", 4, 3, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: multi-byte text before the token", "tools:\n  - é\n  - 'ü' ñ\n", 3, 9, "did not find expected '-' indicator (in the list that starts on line 2)"},
		{"list: broken on its first line", "tools:\n  - 'a' b\n", 2, 9, "did not find expected '-' indicator"},
		{"nested mapping: a key out of line", "meta:\n  owner: docs\n  tags:\n    - a\n   team: b\n", 5, 4, "did not find expected key (in the mapping that starts on line 2)"},
		{"top mapping: yaml.v3's line is right", "a:\n  b: 1\n c: 2\n", 3, 2, "did not find expected key"},
		{"flow list: at its bracket's line", "a: 1\nb: [1, 2\nc: 3\n", 2, 1, "did not find expected ',' or ']'"},
		{"scanner error: its line", "a: 1\nb: c: d\n", 2, 1, "mapping values are not allowed in this context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(tt.src), &n)
			if err == nil {
				t.Fatal("no error")
			}
			y := YAMLErrorPos(err, tt.src)
			if y.Line != tt.line || y.Column != tt.col || y.Text(0) != tt.text {
				t.Errorf("YAMLErrorPos(%q) = %d:%d %q; want %d:%d %q", err, y.Line, y.Column, y.Text(0), tt.line, tt.col, tt.text)
			}
		})
	}
	// In a frontmatter that starts on line 2 of its file, the list's
	// first line is said in the file's lines.
	src := "tools:\n  - a\n  x: 1\n"
	var n yaml.Node
	if y := YAMLErrorPos(yaml.Unmarshal([]byte(src), &n), src); y.Text(1) != "did not find expected '-' indicator (in the list that starts on line 3)" {
		t.Errorf("with an offset of 1: %q", y.Text(1))
	}
}

// FuzzYAMLErrorLine: whatever the text, the line a syntax error is mapped
// to is 0 (none) or a line of the text, and the message keeps no prefix.
func FuzzYAMLErrorLine(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [1, 2\nc: 3\n", "a:\n  b: 1\n c: 2\n", "a: 'x\n", "[a, b\n", "a: 1\nb: !x!y z\n", "\t- x\n", "a: b: c",
		"cases:\n  - name: a\n    task: b\n  - name: c\n   task: d\n", "tools:\n  - a\n  - 'b' c\n", "meta:\n  owner: docs\n  tags:\n    - a\n   team: b\n", "tools:\n  - a\n\n  # c\n  x: 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var n yaml.Node
		err := func() (err error) {
			defer func() {
				if recover() != nil {
					err = nil
				}
			}()
			return yaml.Unmarshal([]byte(text), &n)
		}()
		if err == nil {
			return
		}
		line, msg := YAMLErrorLine(err, text)
		last := strings.Count(strings.TrimRight(text, "\r\n"), "\n") + 1
		if line < 0 || line > last {
			t.Errorf("line %d of a %d-line text (%v)", line, last, err)
		}
		if strings.HasPrefix(msg, "yaml: line ") {
			t.Errorf("message %q keeps its prefix", msg)
		}
		// The place YAMLErrorPos finds is a line of the text, not before
		// the one yaml.v3 named, and a column of that line.
		y := YAMLErrorPos(err, text)
		if y.Message != msg || (y.Line == 0) != (line == 0) || y.Line > last || y.Line < line {
			t.Fatalf("YAMLErrorPos = %+v; YAMLErrorLine %d %q", y, line, msg)
		}
		if y.Line > 0 {
			l, _ := LineOf(text, y.Line)
			if y.Column < 1 || y.Column > len([]rune(l))+1 {
				t.Errorf("column %d of line %d %q", y.Column, y.Line, l)
			}
		}
		if y.In != "" && (y.InLine != line || y.InLine >= y.Line) {
			t.Errorf("the collection's line %d, the error's %d (yaml.v3's %d)", y.InLine, y.Line, line)
		}
	})
}

// BenchmarkYAMLErrorPos: a suite-sized text (a list of 1,000 cases)
// broken at its last item, the search's worst case.
func BenchmarkYAMLErrorPos(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("agent: x\ncases:\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, "  - name: case %d\n    task: do %d\n", i, i)
	}
	sb.WriteString("   task: broken\n")
	text := sb.String()
	var n yaml.Node
	err := yaml.Unmarshal([]byte(text), &n)
	if err == nil {
		b.Fatal("no error")
	}
	for b.Loop() {
		if y := YAMLErrorPos(err, text); y.Line != 2003 {
			b.Fatalf("line %d", y.Line)
		}
	}
}
