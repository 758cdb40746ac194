package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestSummaryLine(t *testing.T) {
	tests := []struct {
		s    lint.Summary
		want string
	}{
		{lint.Summary{}, "0 loaded, 0 rejected, 0 errors, 0 warnings"},
		{lint.Summary{Loaded: 1, Rejected: 1, Errors: 1, Warnings: 1}, "1 loaded, 1 rejected, 1 error, 1 warning"},
		{lint.Summary{Loaded: 12, Rejected: 2, Errors: 3, Warnings: 1}, "12 loaded, 2 rejected, 3 errors, 1 warning"},
	}
	for _, tt := range tests {
		if got := SummaryLine(tt.s); got != tt.want {
			t.Errorf("SummaryLine(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestDisplayPath(t *testing.T) {
	tests := []struct {
		path, dir, want string
	}{
		{"/home/u/proj/agents/a.md", "/home/u/proj", "agents/a.md"},
		{"/home/u/.netclaw/agents/a.md", "/home/u/proj", "../.netclaw/agents/a.md"},
		{"/a.md", "/home/u/proj/deep/er", "/a.md"},
		{"", "/x", ""},
		{"/x/a.md", "", "/x/a.md"},
	}
	for _, tt := range tests {
		if got := displayPath(tt.path, tt.dir); got != tt.want {
			t.Errorf("displayPath(%q, %q) = %q, want %q", tt.path, tt.dir, got, tt.want)
		}
	}
}

// ansiCodes matches the colour codes the text format itself writes.
var ansiCodes = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestNoControlsFromFiles checks that no format lets a control character
// from a file through: with colour off there is no ESC at all; with colour
// on, only SGR codes around our own labels.
func TestNoControlsFromFiles(t *testing.T) {
	c := handCatalog(t)
	for _, f := range formats {
		var b bytes.Buffer
		if err := f.write(&b, c, Options{Dir: wd(t)}); err != nil {
			t.Fatal(err)
		}
		assertSafe(t, b.String())
	}
	var b bytes.Buffer
	if err := Text(&b, c, Options{Dir: wd(t), Color: true}); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, ansiCodes.ReplaceAllString(b.String(), ""))
	if strings.Contains(b.String(), "\x1b[31mred") {
		t.Errorf("raw escape sequence from a name reached the output")
	}
}

func TestTextSortedByPathThenLine(t *testing.T) {
	c := &lint.Catalog{Files: []*lint.File{
		{Path: "/w/b.md", Diagnostics: []lint.Diagnostic{
			{Path: "/w/b.md", Pos: lint.Pos{Line: 9, Column: 1}, Rule: "r", Severity: lint.Error, Message: "b9"},
			{Path: "/w/b.md", Pos: lint.Pos{Line: 2, Column: 1}, Rule: "r", Severity: lint.Error, Message: "b2"},
		}},
		{Path: "/w/a.md", Diagnostics: []lint.Diagnostic{
			{Path: "/w/a.md", Pos: lint.Pos{Line: 10, Column: 1}, Rule: "r", Severity: lint.Warning, Message: "a10"},
			{Path: "/w/a.md", Rule: "r", Severity: lint.Warning, Message: "a0"},
		}},
	}}
	var b bytes.Buffer
	if err := Text(&b, c, Options{Dir: "/w"}); err != nil {
		t.Fatal(err)
	}
	want := "a.md: warning: a0 [r]\na.md:10:1: warning: a10 [r]\nb.md:2:1: error: b2 [r]\nb.md:9:1: error: b9 [r]\n2 loaded, 0 rejected, 2 errors, 2 warnings\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorsReported(t *testing.T) {
	c := handCatalog(t)
	for _, f := range []struct {
		name  string
		write func() error
	}{
		{"text", func() error { return Text(failingWriter{}, c, Options{}) }},
		{"json", func() error { return JSON(failingWriter{}, c, Options{}) }},
		{"sarif", func() error { return SARIF(failingWriter{}, c, Options{}) }},
		{"github", func() error { return GitHub(failingWriter{}, c, Options{}) }},
	} {
		if err := f.write(); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: error = %v, want the write error wrapped", f.name, err)
		}
	}
}

// TestTextQuotesDecodedSource: a configuration file is quoted as lint read
// it, so a UTF-16 netclaw.json shows its line, not its raw bytes.
func TestTextQuotesDecodedSource(t *testing.T) {
	base := t.TempDir()
	json := "{\n  \"SubAgents\": { \"Enabled\": \"maybe\" }\n}\n"
	data := []byte{0xFF, 0xFE}
	for _, r := range json {
		data = append(data, byte(r), 0)
	}
	if err := os.MkdirAll(filepath.Join(base, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "config", "netclaw.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := lint.Scan(lint.NewHome(base, ""), lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, c, Options{Dir: base}); err != nil {
		t.Fatal(err)
	}
	if want := `   2 |   "SubAgents": { "Enabled": "maybe" }` + "\n"; !strings.Contains(b.String(), want) {
		t.Errorf("report lacks the decoded source line %q:\n%s", want, b.String())
	}
}
