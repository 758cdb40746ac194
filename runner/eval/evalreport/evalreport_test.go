package evalreport

import (
	"bytes"
	"errors"
	"io"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestParse(t *testing.T) {
	for _, f := range Formats() {
		got, err := Parse(f.String())
		if err != nil || got != f {
			t.Errorf("Parse(%q) = %v, %v", f.String(), got, err)
		}
	}
	if got, err := Parse("JUnit"); err != nil || got != JUnit {
		t.Errorf("Parse(JUnit) = %v, %v: case is ignored", got, err)
	}
	tests := []struct{ in, want string }{
		{"pdf", "use text, json, junit, github or html"},
		{"xml", "did you mean 'html'? use text, json, junit, github or html"},
		{"jsno", "did you mean 'json'? use text, json, junit, github or html"},
		{"htm", "did you mean 'html'? use text, json, junit, github or html"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var ue *UnknownFormatError
		if !errors.As(err, &ue) || err.Error() != tt.want || ue.Name != tt.in {
			t.Errorf("Parse(%q): %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestFlagValue(t *testing.T) {
	var f Format
	if f.Type() != "text|json|junit|github|html" {
		t.Errorf("Type() = %q", f.Type())
	}
	if err := f.Set("github"); err != nil || f != GitHub || f.String() != "github" {
		t.Errorf("Set(github): %v, %v", f, err)
	}
	if err := f.Set("yaml"); err == nil || f != GitHub {
		t.Errorf("Set(yaml): %v, %v; the value must stay", f, err)
	}
}

func TestWritersWrite(t *testing.T) {
	var ws Writers
	ws[JSON] = func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }
	var b bytes.Buffer
	if err := ws.Write(&b, JSON); err != nil || b.String() != "{}\n" {
		t.Errorf("Write(JSON) = %q, %v", b.String(), err)
	}
	if err := ws.Write(&b, HTML); err == nil {
		t.Error("a format without a writer wrote nothing and said nothing")
	}
}
