package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// readme is the user documentation: README.md followed by every page of
// docs/, each page's text after the one before.
func readme(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range append([]string{filepath.Join(root, "README.md")}, pages...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteString("\n")
	}
	return b.String()
}

// readmeShape returns the keys of the JSON shape the docs document in
// the backquoted text that starts with start.
func readmeShape(t *testing.T, text, start string) map[string]bool {
	t.Helper()
	i := strings.Index(text, start)
	if i < 0 {
		t.Fatalf("the docs have no %q", start)
	}
	end := strings.Index(text[i+1:], "`")
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([a-z_A-Z]+)"`).FindAllStringSubmatch(text[i:i+1+end], -1) {
		keys[m[1]] = true
	}
	return keys
}

// jsonKeys collects every object key of a JSON document.
func jsonKeys(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			into[k] = true
			jsonKeys(x, into)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, into)
		}
	}
}

// TestREADMEMatchesTheBinary: what the docs say of suites and their
// reports is what the binary does (issue 20 item 19).
func TestREADMEMatchesTheBinary(t *testing.T) {
	text := readme(t)
	t.Run("test suite example reads nothing from the agents folder", func(t *testing.T) {
		i := strings.Index(text, "# agents/code-analyst.test.yaml")
		block := text[i : i+strings.Index(text[i:], "```")]
		for _, m := range regexp.MustCompile(`context-file: (\S+)`).FindAllStringSubmatch(block, -1) {
			if p := filepath.Join("agents", m[1]); filepath.Dir(p) == "agents" && strings.HasSuffix(p, ".md") {
				t.Errorf("context-file %s lands in the agents folder, where the runtime reads it as an agent", m[1])
			}
		}
	})
	t.Run("recordings are named as documented", func(t *testing.T) {
		for _, want := range []string{"`<agent>.test.recordings/`", "finds-the-port-"} {
			if !strings.Contains(text, want) {
				t.Errorf("the docs do not say %q", want)
			}
		}
		dir := filepath.Join("..", "..", "tui", "demo", "home", "agents", "code-analyst.test.recordings")
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) == 0 {
			t.Fatal(err)
		}
		doc := regexp.MustCompile("`<case>-<digest>\\.<sample>\\.recording`")
		if !doc.MatchString(text) {
			t.Errorf("the docs do not name the files <case>-<digest>.<sample>.recording")
		}
		named := regexp.MustCompile(`^[a-z0-9-]+-[0-9a-f]{6}\.[0-9]+\.recording$`)
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), "model-") {
				// A model of a matrix keeps its recordings in a folder
				// of its own (docs/test.md: model-<name>/), named alike.
				sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
				if err != nil || len(sub) == 0 {
					t.Errorf("model folder %s: %v, or empty", e.Name(), err)
				}
				for _, f := range sub {
					if !named.MatchString(f.Name()) {
						t.Errorf("recording %s/%s is not named <case>-<digest>.<sample>.recording", e.Name(), f.Name())
					}
				}
				continue
			}
			if !named.MatchString(e.Name()) {
				t.Errorf("recording %s is not named <case>-<digest>.<sample>.recording", e.Name())
			}
		}
	})
	for _, tt := range []struct {
		name   string
		args   []string
		shapes []string
	}{
		{"test json", []string{"test", "--demo", "--offline", "--format", "json"}, []string{`{"suites":[{"path","agent","status",`}},
		{"route suite json", []string{"route", "--demo", "--suite", "--offline", "--format", "json"}, []string{`{"suites":[{"path","audience","status",`, `{"request","preamble","context_layers","audience","model","agents",`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runTrialCmd(t, nil, "", tt.args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var doc any
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			jsonKeys(doc, got)
			documented := map[string]bool{}
			for _, s := range tt.shapes {
				for k := range readmeShape(t, text, s) {
					documented[k] = true
				}
			}
			var missing []string
			for k := range got {
				if !documented[k] {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("keys the docs do not document: %v", missing)
			}
			if tt.name == "route suite json" {
				summary := doc.(map[string]any)["summary"].(map[string]any)
				shape := text[strings.Index(text, tt.shapes[0]):]
				shape = shape[strings.Index(shape, `"summary":{`):]
				shape = shape[:strings.Index(shape, "}")]
				if _, ok := summary["samples"]; !ok || !strings.Contains(shape, `"samples"`) {
					t.Errorf("the summary's samples: %v", summary)
				}
			}
		})
	}
	t.Run("lint json gives suites a status", func(t *testing.T) {
		home := hometest.New(t, map[string]string{
			"agents/reviewer.md":        goodAgent,
			"agents/reviewer.test.yaml": "cases: [{name: a, task: b}]\n",
			"agents/other.test.yaml":    "cases: []\n",
		})
		_, stdout, _ := runTrialCmd(t, nil, "", "lint", "--home", home, "--format", "json")
		var doc struct {
			Files []struct{ Path, Status, Source string }
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range doc.Files {
			if strings.HasSuffix(f.Source, "suite") {
				n++
				want := map[bool]string{true: "valid", false: "invalid"}[strings.HasSuffix(f.Path, "reviewer.test.yaml")]
				if f.Status != want {
					t.Errorf("%s: status %q, want %q", f.Path, f.Status, want)
				}
				if !strings.Contains(text, "`"+want+"`") {
					t.Errorf("the docs do not document the status %q", want)
				}
			}
		}
		if n != 2 {
			t.Errorf("%d suites in %s", n, stdout)
		}
	})
}

// TestREADMEDocumentsPreviewSpawnJSON: every key `preview --spawn
// --format json` prints (outside the tools' own schemas), with and without
// a NetClaw install, is in the shape the docs document.
func TestREADMEDocumentsPreviewSpawnJSON(t *testing.T) {
	text := readme(t)
	const start = "json` prints `{agent,"
	i := strings.Index(text, start)
	if i < 0 {
		t.Fatalf("the docs have no %q", start)
	}
	shape := text[i+len("json` prints `"):]
	shape = shape[:strings.Index(shape, "`")]
	documented := map[string]bool{}
	for _, k := range regexp.MustCompile(`[A-Za-z_]+`).FindAllString(shape, -1) {
		documented[k] = true
	}
	home := filepath.Join("..", "..", "testdata", "homes", "good")
	for _, extra := range [][]string{{"--netclaw-dir", filepath.Join("..", "..", "testdata", "netclaw", "dev")}, nil} {
		args := append([]string{"--home", home, "preview", "--spawn", "code-analyst", "--task", "t", "--project", t.TempDir(), "--format", "json"}, extra...)
		code, stdout, stderr := run(t, []string{"HOME=" + t.TempDir(), "PATH=" + t.TempDir()}, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		for _, tool := range doc["tools"].([]any) {
			delete(tool.(map[string]any), "parameters")
		}
		got := map[string]bool{"parameters": true}
		jsonKeys(doc, got)
		var missing []string
		for k := range got {
			if !documented[k] {
				missing = append(missing, k)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%v: keys the docs do not document: %v", extra, missing)
		}
	}
}

// TestREADMETestReportLinesShowBothTimes: every case line of an `agentdesk
// test` report the docs shows has the two labelled times the binary
// prints ("2.10s wall, 6.20s in runs", issue 20 item 20), the models'
// example included.
func TestREADMETestReportLinesShowBothTimes(t *testing.T) {
	caseLine := regexp.MustCompile(`^  (pass|fail|stale|error) +.* \d+/\d+  \d+\.\d\ds`)
	n := 0
	for i, line := range strings.Split(readme(t), "\n") {
		if !caseLine.MatchString(line) {
			continue
		}
		n++
		if !regexp.MustCompile(`\d+/\d+  \d+\.\d\ds wall, \d+\.\d\ds in runs`).MatchString(line) {
			t.Errorf("the docs, line %d of README.md and docs/*.md joined: a test report's case line without its wall and in-runs times: %q", i+1, line)
		}
	}
	if n < 2 {
		t.Errorf("found %d case lines of a test report in the docs", n)
	}
}
