package trialtools

import (
	"encoding/json"
	"testing"
)

func TestParseReadArgs(t *testing.T) {
	tests := []struct {
		in   string
		want readArgs
		err  string
	}{
		{`{"path":"a"}`, readArgs{Path: "a"}, ""},
		{`{"path":"a","start_line":2,"end_line":4}`, readArgs{"a", 2, 4}, ""},
		{`{"path":"a","start_line":"2","end_line":" 4 "}`, readArgs{"a", 2, 4}, ""},
		{`{"path":"a","start_line":2.0,"end_line":4e0}`, readArgs{"a", 2, 4}, ""},
		{`{"path":"a","start_line":null,"end_line":""}`, readArgs{Path: "a"}, ""},
		{`{"path":"a","start_line":0,"end_line":3}`, readArgs{"a", 0, 3}, ""},
		{`{"path":"a","start_line":1e30}`, readArgs{"a", 2147483647, 0}, ""},
		{`"{\"path\":\"a\",\"end_line\":1}"`, readArgs{"a", 0, 1}, ""},
		{` {"path":"a"} `, readArgs{Path: "a"}, ""},
		{``, readArgs{}, `path is required: the file to read, relative to the project folder, e.g. {"path":"README.md"}`},
		{`null`, readArgs{}, `path is required: the file to read, relative to the project folder, e.g. {"path":"README.md"}`},
		{`{"path":""}`, readArgs{}, `path is required: the file to read, relative to the project folder, e.g. {"path":"README.md"}`},
		{`{"path":7}`, readArgs{}, "path must be a string, not a number"},
		{`{"path":["a"]}`, readArgs{}, "path must be a string, not an array"},
		{`{"path":"a","start_line":-1}`, readArgs{}, "start_line must be a whole number ≥ 1, not -1"},
		{`{"path":"a","start_line":1.5}`, readArgs{}, "start_line must be a whole number ≥ 1, not 1.5"},
		{`{"path":"a","start_line":"ten"}`, readArgs{}, "start_line must be a whole number ≥ 1, not ten"},
		{`{"path":"a","start_line":true}`, readArgs{}, "start_line must be a whole number ≥ 1, not a boolean"},
		{`{"path":"a","start_line":5,"end_line":4}`, readArgs{}, "end_line 4 is before start_line 5"},
		{`{"path":"a","end_line":-4}`, readArgs{}, "end_line must be a whole number ≥ 1, not -4"},
		{`{"path":"a","file":"b","line":1}`, readArgs{}, "unknown argument file, line; the arguments are path, start_line, end_line"},
		{`["a"]`, readArgs{}, `the arguments must be a JSON object such as {"path":"README.md","start_line":1,"end_line":40}`},
		{`{"path":`, readArgs{}, `the arguments are not valid JSON (unexpected end of JSON input); send a JSON object such as {"path":"README.md","start_line":1,"end_line":40}`},
		{`"unterminated`, readArgs{}, `the arguments are not valid JSON (unexpected end of JSON input); send a JSON object such as {"path":"README.md","start_line":1,"end_line":40}`},
		{`"\"a\""`, readArgs{}, `the arguments must be a JSON object such as {"path":"README.md","start_line":1,"end_line":40}`},
	}
	for _, tt := range tests {
		got, err := parseReadArgs(json.RawMessage(tt.in))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: error %v", tt.in, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && got != tt.want:
			t.Errorf("%s: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseListArgs(t *testing.T) {
	tests := []struct {
		in   string
		want listArgs
		err  string
	}{
		{``, listArgs{}, ""},
		{`{}`, listArgs{}, ""},
		{`{"path":"docs","glob":"*.md"}`, listArgs{"docs", "*.md"}, ""},
		{`{"path":null}`, listArgs{}, ""},
		{`{"glob":3}`, listArgs{}, "glob must be a string, not a number"},
		{`{"pattern":"*"}`, listArgs{}, "unknown argument pattern; the arguments are path, glob"},
		{`{"a\nb":1}`, listArgs{}, `unknown argument "a\nb"; the arguments are path, glob`},
	}
	for _, tt := range tests {
		got, err := parseListArgs(json.RawMessage(tt.in))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: error %v", tt.in, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && got != tt.want:
			t.Errorf("%s: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"*.md", "a.md", true},
		{"*.md", "docs/a.md", false},
		{"**/*.md", "a.md", true},
		{"**/*.md", "docs/guide/a.md", true},
		{"**/*.md", "docs/guide/a.go", false},
		{"docs/**", "docs", true},
		{"docs/**", "docs/a/b", true},
		{"docs/**", "src/a", false},
		{"**/guide/*", "x/y/guide/c.md", true},
		{"**/guide/*", "guide/c.md", true},
		{"**/guide/*", "guide", false},
		{"a/**/b", "a/b", true},
		{"a/**/**/b", "a/x/y/b", true},
		{"[ab]?.txt", "b1.txt", true},
		{"a**b", "axxb", true},
		{"a**b", "a/b", false},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.glob)
		if err != nil {
			t.Fatalf("%s: %v", tt.glob, err)
		}
		if got := g.match(splitSlash(tt.path)); got != tt.want {
			t.Errorf("%s matches %s: %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}

// splitSlash splits a slash path into its segments.
func splitSlash(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}
