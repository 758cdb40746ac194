package trialtools

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		mkdir(t, "testdata")
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the current output (review, then go test -update):\n%s", path, got)
	}
}

func TestSpecs(t *testing.T) {
	specs := Specs()
	if len(specs) != len(Names()) {
		t.Fatalf("%d specs, %d names", len(specs), len(Names()))
	}
	var out bytes.Buffer
	for i, s := range specs {
		if s.Name != Names()[i] || s.Description == "" {
			t.Errorf("spec %d: %+v", i, s)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(s.Parameters, &schema); err != nil || schema.Type != "object" {
			t.Fatalf("%s: parameters are not a JSON Schema object: %v", s.Name, err)
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s: required %q is not a property", s.Name, r)
			}
		}
		var pretty bytes.Buffer
		json.Indent(&pretty, s.Parameters, "", "  ")
		fmt.Fprintf(&out, "## %s\n%s\n%s\n\n", s.Name, s.Description, pretty.String())
	}
	specs[0].Parameters[0] = 'X' // callers may scribble on theirs
	if Specs()[0].Parameters[0] != '{' {
		t.Error("Specs shares its schemas between calls")
	}
	golden(t, "specs.golden", out.Bytes())
}

// TestSchemaMatchesParser checks that every property the schemas name is
// one the argument parsers accept, and that they refuse the rest.
func TestSchemaMatchesParser(t *testing.T) {
	for _, s := range Specs() {
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		json.Unmarshal(s.Parameters, &schema)
		for p := range schema.Properties {
			args := fmt.Sprintf(`{"path":"a.txt",%q:null}`, p)
			if p == "path" {
				args = `{"path":"a.txt"}`
			}
			var err error
			if s.Name == FileRead {
				_, err = parseReadArgs(json.RawMessage(args))
			} else {
				_, err = parseListArgs(json.RawMessage(args))
			}
			if err != nil {
				t.Errorf("%s: property %s refused: %v", s.Name, p, err)
			}
		}
	}
}

func TestUnavailableTools(t *testing.T) {
	f := newFixture(t)
	for _, name := range []string{"web_search", "file_write", "spawn_agent", "File_Read", "", "evil\x1b[2J"} {
		r := call(t, f.tb, name, `{"path":"a.txt"}`)
		if !r.Refused || !strings.Contains(r.Text, "not available in a trial run") || !strings.Contains(r.Text, "file_read and file_list") {
			t.Errorf("%q: got %+v", name, r)
		}
		if strings.ContainsRune(r.Text, '\x1b') {
			t.Errorf("%q: control characters in %q", name, r.Text)
		}
	}
}

func TestNilToolboxOffersNothing(t *testing.T) {
	var tb *Toolbox
	r := call(t, tb, FileRead, `{"path":"a.txt"}`)
	if !r.Refused || !strings.Contains(r.Text, "offers no tools") {
		t.Fatalf("got %+v", r)
	}
	if tb.Close() != nil || tb.Root() != "" {
		t.Fatal("a nil toolbox's Close or Root misbehaves")
	}
}

func TestCallAfterClose(t *testing.T) {
	f := newFixture(t)
	f.tb.Close()
	r := call(t, f.tb, FileRead, `{"path":"a.txt"}`)
	if !r.IsError {
		t.Fatalf("got %+v", r)
	}
}

// TestSession is what a model sees across a session of calls, as a golden
// file: the wording of every result is part of the contract with models.
func TestSession(t *testing.T) {
	tb := listFixture(t)
	root := tb.Root()
	writeFile(t, filepath.Join(root, "docs", "a.md"), numbered(2100))
	calls := []struct{ name, args string }{
		{FileList, `{}`},
		{FileList, `{"path":"docs","glob":"**/*.md"}`},
		{FileRead, `{"path":"docs/a.md"}`},
		{FileRead, `{"path":"docs/a.md","start_line":2095}`},
		{FileRead, `{"path":"docs/a.md","start_line":3,"end_line":5}`},
		{FileRead, `{"path":"docs/guide/c.md","end_line":9}`},
		{FileRead, `{"path":"../secret"}`},
		{FileRead, `{"path":"/etc/passwd"}`},
		{FileRead, `{"path":"docs"}`},
		{FileRead, `{"path":"docs/missing.md"}`},
		{FileRead, `{"file":"README.md"}`},
		{FileList, `{"path":"src/*.go"}`},
		{"web_search", `{"query":"netclaw"}`},
	}
	var out bytes.Buffer
	for _, c := range calls {
		r := call(t, tb, c.name, c.args)
		fmt.Fprintf(&out, "### %s %s (error %v, refused %v, cut %v)\n%s\n\n", c.name, c.args, r.IsError, r.Refused, r.Cut, clip(r.Text))
	}
	g := NewGuard()
	args := json.RawMessage(`{"path":"README.md"}`)
	for i := range 4 {
		d := g.Check(FileRead, args)
		if d.Action == Allow {
			g.Record(FileRead, args, call(t, tb, FileRead, string(args)).Text)
		}
		fmt.Fprintf(&out, "### guard, call %d: %v\n%s\n\n", i+1, d.Action, d.Text)
	}
	golden(t, "session.golden", out.Bytes())
}

// clip keeps the golden file short: a long text's first and last lines.
func clip(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= 12 {
		return s
	}
	return strings.Join(lines[:4], "\n") + fmt.Sprintf("\n… %d lines …\n", len(lines)-8) + strings.Join(lines[len(lines)-4:], "\n")
}

// TestConcurrentCalls runs calls and guard checks from many goroutines at
// once (meaningful under -race).
func TestConcurrentCalls(t *testing.T) {
	f := newFixture(t)
	g := NewGuard()
	done := make(chan struct{})
	for i := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := range 50 {
				args := []string{`{"path":"a.txt"}`, `{"path":"docs","glob":"**"}`, `{"path":"link-out"}`}[(i+j)%3]
				name := []string{FileRead, FileList, FileRead}[(i+j)%3]
				if g.Check(name, json.RawMessage(args)).Action == Allow {
					r := f.tb.Call(t.Context(), name, json.RawMessage(args))
					g.Record(name, json.RawMessage(args), r.Text)
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}
