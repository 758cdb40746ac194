package suitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// caseSummary is "name | task | contains... | vars" for each case.
func caseSummary(s *Suite) []string {
	var out []string
	for _, c := range s.Cases {
		var vars []string
		for k, v := range c.Vars {
			vars = append(vars, k+"="+v)
		}
		slices.Sort(vars)
		out = append(out, c.Name+" | "+c.Task+" | "+strings.Join(c.Expect.Contains, ",")+" | "+strings.Join(vars, ","))
	}
	return out
}

func TestTemplateInlineRows(t *testing.T) {
	src := `cases:
  - name: written out
    task: hello
template:
  task: Which port does {{file}} listen on?
  context: "the {{ file }} file; {{ .Values.port }} stays"
  repeat: "{{n}}"
  expect:
    contains: ["{{port}}", "listen"]
    max-tool-calls: "{{n}}"
    command: ./check.sh {{port}}
vars:
  - {port: 8080, file: main.go, n: 2}
  - {port: 9090, file: "server  go\nx", n: 3}
  - {port: 8080, file: main.go, n: 1}
`
	s := Parse("x.test.yaml", []byte(src))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	want := []string{
		"written out | hello |  | ",
		"8080, main.go, 2 | Which port does main.go listen on? | 8080,listen | file=main.go,n=2,port=8080",
		"9090, server go x, 3 | Which port does server  go\nx listen on? | 9090,listen | file=server  go\nx,n=3,port=9090",
		"8080, main.go, 1 | Which port does main.go listen on? | 8080,listen | file=main.go,n=1,port=8080",
	}
	if got := caseSummary(s); !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	c := s.Cases[2]
	if c.Repeat != 3 || c.Expect.MaxToolCalls != 3 || c.Context != "the server  go\nx file; {{ .Values.port }} stays" || !slices.Equal(c.Expect.Command, []string{"./check.sh", "9090"}) {
		t.Errorf("case %+v", c)
	}
	if c.Pos != (lint.Pos{Line: 5, Column: 3}) || c.Keys["task"] != (lint.Pos{Line: 5, Column: 9}) {
		t.Errorf("a generated case is where its template is: %v %v", c.Pos, c.Keys["task"])
	}
}

func TestTemplateNamesAreUnique(t *testing.T) {
	long := strings.Repeat("x", 100)
	src := `cases:
  - name: port 8080
    task: hello
template:
  name: port {{port}}
  task: "{{port}}"
vars:
  - {port: 8080}
  - {port: 8080}
  - {port: 9090}
  - {port: "` + long + `"}
`
	s := Parse("x.test.yaml", []byte(src))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
	}
	want := []string{"port 8080", "port 8080 #1", "port 8080 #2", "port 9090", "port " + long}
	if !slices.Equal(names, want) {
		t.Errorf("names %q", names)
	}
	// Without a name, the values name the case, cut.
	s = Parse("x.test.yaml", []byte("template: {task: '{{a}}'}\nvars:\n  - {a: '"+long+"', b: ''}\n  - {a: '', b: ''}\n"))
	if len(s.Cases) != 2 || s.Cases[0].Name != strings.Repeat("x", 39)+"…, \"\"" || s.Cases[1].Name != "row 2" {
		t.Errorf("names %q %v", caseSummary(s), diagLines(s.Diagnostics))
	}
}

func TestTemplateVarsFiles(t *testing.T) {
	dir := t.TempDir()
	hometest.WriteFile(t, filepath.Join(dir, "data", "ports.jsonl"), `{"port": 8080, "file": "main.go", "flag": true, "extra": {"a": [1, 2]}}

{"port": 9090, "file": "server.go", "flag": null, "extra": "x"}
`)
	hometest.WriteFile(t, filepath.Join(dir, "ports.csv"), "\xEF\xBB\xBFport, file\n8080,main.go\n\"9090\",\"server, go\"\n")
	tmpl := "template:\n  task: '{{file}} {{port}}'\n"
	for _, tt := range []struct{ file, want string }{
		{"data/ports.jsonl", `8080, main.go, true, {"a":[1,2]} | main.go 8080 |  | extra={"a":[1,2]},file=main.go,flag=true,port=8080` + "\n" + `9090, server.go, "", x | server.go 9090 |  | extra=x,file=server.go,flag=,port=9090`},
		{"ports.csv", "8080, main.go | main.go 8080 |  | file=main.go,port=8080\n9090, server, go | server, go 9090 |  | file=server, go,port=9090"},
	} {
		path := filepath.Join(dir, "a.test.yaml")
		hometest.WriteFile(t, path, tmpl+"vars-file: "+tt.file+"\n")
		s := Load(path)
		if len(s.Diagnostics) != 0 {
			t.Fatalf("%s: %v", tt.file, diagLines(s.Diagnostics))
		}
		if got := strings.Join(caseSummary(s), "\n"); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.file, got, tt.want)
		}
	}
}

func TestTemplateFindings(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ragged.csv":    "port,file\n8080,main.go\n9090\n",
		"binary.csv":    "port\n80\x0080\n",
		"latin1.csv":    "port\n\xe9\n",
		"badhead.csv":   "port,2file\n1,2\n",
		"twohead.csv":   "port,port\n1,2\n",
		"quote.csv":     "port\n\"80\n",
		"empty.jsonl":   "\n\n",
		"notobj.jsonl":  "{\"port\": 1}\n[1, 2]\n",
		"badjson.jsonl": "{\"port\": 1}\n{\"port\": }\n",
		"cut.jsonl":     "{\"port\": 1\n",
		"two.jsonl":     "{\"port\": 1} {\"port\": 2}\n",
		"dupkey.jsonl":  "{\"port\": 1, \"port\": 2}\n",
		"badkey.jsonl":  "{\"a b\": 1}\n",
		"uneven.jsonl":  "{\"port\": 1}\n{\"file\": \"x\"}\n",
		"cases.txt":     "port\n1\n",
	}
	for name, text := range files {
		hometest.WriteFile(t, filepath.Join(dir, name), text)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.csv", filepath.Join(dir, "dangling.csv")); err != nil {
		t.Fatal(err)
	}
	tmpl := "template:\n  task: Which port is {{port}}?\n"
	tests := []struct {
		name, src string
		want      []string
		cases     int
	}{
		{"undefined variable", "template:\n  task: Which port is {{prot}} and {{ file }}?\nvars: [{port: 1}]\n",
			[]string{"2:23 suite-template the template uses {{prot}}, which no row defines (did you mean 'port'?)", "2:36 suite-template the template uses {{file}}, which no row defines (the rows define port)"}, 0},
		{"undefined in a quoted value", "template:\n  task: x\n  expect: {contains: 'a {{nope}}'}\nvars: [{port: 1}]\n",
			[]string{"3:25 suite-template the template uses {{nope}}, which no row defines"}, 0},
		{"a row without a variable", tmpl + "vars:\n  - {port: 1}\n  - {file: x}\n",
			[]string{"5:5 suite-template the row on line 5 has no port, which the template uses (give every row every variable the template uses)"}, 2},
		{"rows without a template", "cases: [{name: a, task: b}]\nvars: [{port: 1}]\n", []string{"2:7 suite-template the suite has rows but no template"}, 1},
		{"template without rows", tmpl, []string{"2:3 suite-template the template has no rows to fill it with"}, 0},
		{"both", tmpl + "vars: [{port: 1}]\nvars-file: x.csv\n", []string{"4:12 suite-template the suite has both vars: and vars-file:"}, 0},
		{"no cases at all", "agent: x\n", []string{"1:1 suite-missing the suite has no cases"}, 0},
		{"vars not a list", tmpl + "vars: {port: 1}\n", []string{"3:7 suite-vars vars is a mapping; give a list of rows"}, 0},
		{"row not a mapping", tmpl + "vars: [1]\n", []string{"3:8 suite-vars row 1 of vars is a single value"}, 0},
		{"nested value", tmpl + "vars: [{port: [1]}]\n", []string{"3:15 suite-vars port in row 1 of vars is a list; give text or a number"}, 0},
		{"bad variable name", tmpl + "vars: [{a-b: 1}]\n", []string{`3:9 suite-vars row 1 of vars names a variable "a-b"`}, 0},
		{"template not a case", "template: [x]\nvars: [{port: 1}]\n", []string{"1:11 suite-yaml template is a list"}, 0},
		{"template's own errors", "template: {task: '{{port}}', expect: {matches: '(', contians: x}}\nvars: [{port: 1}, {port: 2}]\n",
			[]string{`1:48 suite-regexp matches "(" is not a valid RE2 expression`, `1:53 suite-unknown-key unknown key "contians" in the expect of case "1" (did you mean 'contains'?)`, `1:53 suite-unknown-key unknown key "contians" in the expect of case "2"`}, 2},
		{"missing file", tmpl + "vars-file: gone.csv\n", []string{"3:12 suite-vars vars-file gone.csv: there is no such file (paths"}, 0},
		{"dangling link", tmpl + "vars-file: dangling.csv\n", []string{"3:12 suite-vars vars-file dangling.csv: a symbolic link to a file that does not exist"}, 0},
		{"a folder", tmpl + "vars-file: folder.csv\n", []string{"3:12 suite-vars vars-file folder.csv: is a folder, not a file"}, 0},
		{"another kind of file", tmpl + "vars-file: cases.txt\n", []string{"1:1 suite-vars the vars-file cases.txt is neither .jsonl nor .csv"}, 0},
		{"ragged", tmpl + "vars-file: ragged.csv\n", []string{"3:1 suite-vars row 3 of the vars-file is ragged: it does not have as many fields as the header"}, 0},
		{"binary", tmpl + "vars-file: binary.csv\n", []string{"2:1 suite-vars the vars-file is binary, not text"}, 0},
		{"not UTF-8", tmpl + "vars-file: latin1.csv\n", []string{"1:1 suite-vars the vars-file is binary, not text"}, 0},
		{"bad header", tmpl + "vars-file: badhead.csv\n", []string{`1:6 suite-vars column 2 of the header is "2file", not a variable name`}, 0},
		{"header twice", tmpl + "vars-file: twohead.csv\n", []string{"1:6 suite-vars the header names port twice"}, 0},
		{"open quote", tmpl + "vars-file: quote.csv\n", []string{"2:5 suite-vars the vars-file is not valid CSV at line 2: extraneous or missing \" in quoted-field"}, 0},
		{"empty", tmpl + "vars-file: empty.jsonl\n", []string{"1:1 suite-vars the vars-file holds no rows"}, 0},
		{"not an object", tmpl + "vars-file: notobj.jsonl\n", []string{"2:1 suite-vars line 2 of the vars-file is not a JSON object"}, 0},
		{"bad JSON", tmpl + "vars-file: badjson.jsonl\n", []string{"2:1 suite-vars line 2 of the vars-file is not valid JSON: invalid character '}'"}, 0},
		{"cut JSON", tmpl + "vars-file: cut.jsonl\n", []string{"1:1 suite-vars line 1 of the vars-file is not valid JSON: it ends before the object does"}, 0},
		{"two objects", tmpl + "vars-file: two.jsonl\n", []string{"1:1 suite-vars line 1 of the vars-file holds more than one JSON object"}, 0},
		{"key twice", tmpl + "vars-file: dupkey.jsonl\n", []string{"1:1 suite-vars line 1 of the vars-file has port twice"}, 0},
		{"bad key", tmpl + "vars-file: badkey.jsonl\n", []string{`1:1 suite-vars line 1 of the vars-file names a variable "a b"`}, 0},
		{"uneven rows", tmpl + "vars-file: uneven.jsonl\n", []string{"2:1 suite-template the row on line 2 has no port, which the template uses"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "x.test.yaml")
			s := Parse(path, []byte(tt.src))
			got := diagLines(s.Diagnostics)
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.HasPrefix(got[i], tt.want[i])
			}
			if !ok {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(s.Cases) != tt.cases {
				t.Errorf("%d cases, want %d", len(s.Cases), tt.cases)
			}
			for _, d := range s.Diagnostics {
				if d.Severity != lint.Error || !ruleIDs[d.Rule] {
					t.Errorf("diagnostic %+v", d)
				}
			}
		})
	}
}

// TestTemplateRowProblemsStayWithTheirCase: a row that lacks a variable
// makes a case that cannot run; the other rows run.
func TestTemplateRowProblemsStayWithTheirCase(t *testing.T) {
	s := Parse("x.test.yaml", []byte("template: {task: '{{port}}'}\nvars:\n  - {port: 1}\n  - {file: x}\n"))
	if len(s.Cases) != 2 || len(s.Cases[0].Problems) != 0 || len(s.Cases[1].Problems) != 1 || s.Cases[1].Problems[0].Rule != RuleTemplate {
		t.Fatalf("problems: %v / %v", diagLines(s.Cases[0].Problems), diagLines(s.Cases[1].Problems))
	}
}

// checkRows checks what ReadVars returns, whatever the input: rows or
// diagnostics, never both; valid names; positions in the file.
func checkRows(t *testing.T, path string, data []byte) {
	rows, ds := ReadVars(path, data)
	if (len(rows) == 0) == (len(ds) == 0) {
		t.Fatalf("%d rows and %d diagnostics", len(rows), len(ds))
	}
	lines := strings.Count(string(data), "\n") + 1
	for _, d := range ds {
		if d.Line < 1 || d.Line > lines || d.Column < 1 || d.Message == "" || d.Path != path {
			t.Fatalf("diagnostic %+v", d)
		}
	}
	for _, r := range rows {
		if len(r.Names) != len(r.Values) || r.Pos.Line < 1 || r.Pos.Line > lines {
			t.Fatalf("row %+v", r)
		}
		for _, n := range r.Names {
			if !varName.MatchString(n) {
				t.Fatalf("name %q", n)
			}
		}
	}
}

func FuzzReadVarsCSV(f *testing.F) {
	for _, s := range []string{"port,file\n8080,main.go\n", "a\n\"x,\ny\"\n", "a,b\n1\n", "\xEF\xBB\xBFa\n1\n", "a,a\n1,2\n", "", "a\n\x00\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRows(t, "f.csv", data) })
}

func FuzzReadVarsJSONL(f *testing.F) {
	for _, s := range []string{"{\"a\": 1}\n{\"a\": \"x\"}\n", "{\"a\": {\"b\": [1]}}", "[1]\n", "{\"a\": 1} {}", "{\"a\":", "{}\n", "{\"a\": 1e400}\n",
		"{ \"a\" : \"x\\\"}y\" , \"b\\u0041\": [ {\"c\": \"]\"} , null ] ,\"n\":null,\"t\":true,\"f\":-1.5e+3}\r\n", "{\"a\": 1, \"a\": 2}", "{\"1a\": 1}", "{\"a\": \"\\ud800\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRows(t, "f.jsonl", data)
		// The fast reader reads what the decoder reads, row for row,
		// and fails where it fails, with the same words (ReadVars
		// gives them UTF-8 only).
		if !utf8.Valid(data) {
			return
		}
		fast, fastDs := readJSONLines("f.jsonl", data, true)
		slow, slowDs := readJSONLines("f.jsonl", data, false)
		if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastDs, slowDs) {
			t.Fatalf("%q:\nfast %+v %+v\nslow %+v %+v", data, fast, fastDs, slow, slowDs)
		}
	})
}

func FuzzParseTemplate(f *testing.F) {
	f.Add([]byte("template: {task: '{{a}}', expect: {contains: '{{b}}'}}\nvars: [{a: 1, b: 2}, {a: 3}]\n"))
	f.Add([]byte("template: &t {task: '{{a}}', name: '{{a}}'}\nvars: [{a: x}, {a: x}]\ncases: [*t]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Parse("f.test.yaml", data)
		seen := map[string]bool{}
		for _, c := range s.Cases {
			if seen[strings.ToLower(c.Name)] && len(c.Problems) == 0 {
				t.Fatalf("case %q is named twice without a problem", c.Name)
			}
			seen[strings.ToLower(c.Name)] = true
		}
	})
}

// TestTemplateRouteSuite: a routing suite's cases come from data too.
func TestTemplateRouteSuite(t *testing.T) {
	dir := t.TempDir()
	hometest.WriteFile(t, filepath.Join(dir, "requests.csv"), "request,agent\nWhy did the deploy fail?,log-analyst\nReview my diff,code-reviewer\nthanks!,none\n")
	path := filepath.Join(dir, "front.route.yaml")
	hometest.WriteFile(t, path, "cases:\n  - {request: hello, expect: none}\ntemplate:\n  request: '{{request}}'\n  expect: '{{agent}}'\n  samples: 2\nvars-file: requests.csv\n")
	s := LoadRoute(path)
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	var got []string
	for _, c := range s.Cases {
		got = append(got, fmt.Sprintf("%s | %s | %s | %d | %s", c.Name, c.Request, c.Expect, c.Samples, c.Vars["agent"]))
	}
	want := []string{
		"hello | hello | none | 5 | ",
		"Why did the deploy fail?, log-analyst | Why did the deploy fail? | log-analyst | 2 | log-analyst",
		"Review my diff, code-reviewer | Review my diff | code-reviewer | 2 | code-reviewer",
		"thanks!, none | thanks! | none | 2 | none",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if s.VarsFile != filepath.Join(dir, "requests.csv") {
		t.Errorf("vars-file %q", s.VarsFile)
	}
	bad := ParseRoute("x.route.yaml", []byte("template: {request: '{{reqest}}', expect: none}\nvars: [{request: hi}]\n"))
	if got := diagLines(bad.Diagnostics); len(got) != 1 || !strings.HasPrefix(got[0], "1:22 suite-template the template uses {{reqest}}, which no row defines (did you mean 'request'?)") {
		t.Errorf("got %q", got)
	}
}
