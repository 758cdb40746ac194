package lint

import (
	"errors"
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

// FuzzYAMLErrorLine: whatever the text, the line a syntax error is mapped
// to is 0 (none) or a line of the text, and the message keeps no prefix.
func FuzzYAMLErrorLine(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [1, 2\nc: 3\n", "a:\n  b: 1\n c: 2\n", "a: 'x\n", "[a, b\n", "a: 1\nb: !x!y z\n", "\t- x\n", "a: b: c"} {
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
	})
}
