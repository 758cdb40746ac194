package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// keysInOrder returns the keys of every JSON object in data, in the order
// they are written, keyed by the object's path ("", "files[]",
// "files[].diagnostics[]", "summary").
func keysInOrder(t *testing.T, data []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(path string)
	walk = func(path string) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		switch tok {
		case json.Delim('{'):
			var keys []string
			for dec.More() {
				k, _ := dec.Token()
				keys = append(keys, k.(string))
				walk(strings.TrimPrefix(path+"."+k.(string), "."))
			}
			dec.Token()
			if prev, ok := out[path]; ok && !slices.Equal(prev, keys) {
				t.Errorf("objects at %s have different keys: %v and %v", path, prev, keys)
			}
			out[path] = keys
		case json.Delim('['):
			for dec.More() {
				walk(path + "[]")
			}
			dec.Token()
		}
	}
	walk("")
	return out
}

func TestJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, handCatalog(t), Options{Dir: wd(t)}); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b.Bytes(), []byte("}\n")) {
		t.Errorf("no trailing newline")
	}
	got := keysInOrder(t, b.Bytes())
	want := map[string][]string{
		"":                      {"files", "summary"},
		"files[]":               {"path", "name", "status", "source", "diagnostics"},
		"files[].diagnostics[]": {"rule", "severity", "message", "hint", "line", "column"},
		"summary":               {"loaded", "rejected", "notLoaded", "errors", "warnings", "infos"},
	}
	for path, keys := range want {
		if !slices.Equal(got[path], keys) {
			t.Errorf("keys at %q = %v, want %v", path, got[path], keys)
		}
	}
}

func TestJSONStatuses(t *testing.T) {
	var b bytes.Buffer
	c := handCatalog(t)
	// Suites checked with the agents: "valid", or "invalid" with an error.
	c.Extra = append(c.Extra,
		&lint.ExtraFile{Path: "testdata/home/agents/good.test.yaml", Kind: "test suite",
			Diagnostics: []lint.Diagnostic{{Path: "testdata/home/agents/good.test.yaml", Rule: "suite-agent-name", Severity: lint.Warning, Message: "m"}}},
		&lint.ExtraFile{Path: "testdata/home/agents/bad.route.yaml", Kind: "routing suite",
			Diagnostics: []lint.Diagnostic{{Path: "testdata/home/agents/bad.route.yaml", Rule: "suite-yaml", Severity: lint.Error, Message: "m"}}})
	if err := JSON(&b, c, Options{Dir: wd(t)}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			Path, Name, Status, Source string
			Diagnostics                []struct {
				Rule, Severity string
				Line, Column   int
			}
		}
		Summary struct{ Loaded, Rejected, Errors, Warnings int }
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	byPath := map[string]int{}
	for i, f := range doc.Files {
		byPath[f.Path] = i
	}
	tests := []struct {
		path, status, source, name string
		diagnostics                int
	}{
		{"testdata/home/agents/good.md", "loaded", "local", "good", 0},
		{"testdata/home/agents/empty.md", "rejected", "local", "", 1},
		{"testdata/home/agents/.server-feeds/acme/helper.md", "loaded", "feed:acme", "helper", 1},
		{"testdata/home/skills/triage/SKILL.md", "rejected", "local", "triage", 1},
		{"testdata/home/config/netclaw.json", "", "config", "", 1},
		{"environment", "", "config", "", 1},
		{"testdata/home/agents/good.test.yaml", "valid", "test suite", "", 1},
		{"testdata/home/agents/bad.route.yaml", "invalid", "routing suite", "", 1},
	}
	for _, tt := range tests {
		i, ok := byPath[tt.path]
		if !ok {
			t.Errorf("no entry for %q", tt.path)
			continue
		}
		f := doc.Files[i]
		if f.Status != tt.status || f.Source != tt.source || f.Name != tt.name || len(f.Diagnostics) != tt.diagnostics {
			t.Errorf("%q: status %q source %q name %q with %d diagnostics, want %q %q %q %d",
				tt.path, f.Status, f.Source, f.Name, len(f.Diagnostics), tt.status, tt.source, tt.name, tt.diagnostics)
		}
	}
	// Agent files come first, in runtime order.
	for i, f := range c.Files {
		if got := doc.Files[i].Path; got != displayPath(f.Path, wd(t)) {
			t.Errorf("files[%d] = %q, want %q", i, got, f.Path)
		}
	}
	s := c.Summary()
	if doc.Summary.Loaded != s.Loaded || doc.Summary.Rejected != s.Rejected || doc.Summary.Errors != s.Errors || doc.Summary.Warnings != s.Warnings {
		t.Errorf("summary = %+v, want %+v", doc.Summary, s)
	}
}

func TestJSONEscapesTerminalControls(t *testing.T) {
	c := &lint.Catalog{Files: []*lint.File{{
		Path: "a.md",
		Def:  &lint.Definition{Name: "x\x1b[2J\u009b\u202e\x7f"},
		Diagnostics: []lint.Diagnostic{{Path: "a.md", Rule: lint.RuleNameFormat, Severity: lint.Warning,
			Message: "bad <name> & \u2028"}},
	}}}
	var b bytes.Buffer
	if err := JSON(&b, c, Options{Dir: "/"}); err != nil {
		t.Fatal(err)
	}
	assertSafe(t, b.String())
	var doc struct{ Files []struct{ Name string } }
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("escaped output is not valid JSON: %v\n%s", err, b.Bytes())
	}
	if doc.Files[0].Name != c.Files[0].Def.Name {
		t.Errorf("name round-trips as %q, want %q", doc.Files[0].Name, c.Files[0].Def.Name)
	}
	if !strings.Contains(b.String(), "bad <name> & ") {
		t.Errorf("HTML characters escaped: %s", b.String())
	}
}
