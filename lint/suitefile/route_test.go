package suitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func diagList(ds []lint.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Rule))
	}
	return strings.Join(out, "; ")
}

func TestParseRoute(t *testing.T) {
	s := ParseRoute("agents/frontline.route.yaml", []byte(`audience: team
model-role: main
samples: 3
cases:
  - name: review before push
    request: Please look over my diff before I push.
    expect: reviewer
    min-rate: 0.8
  - name: small talk
    request: thanks!
    expect: none
    samples: 1
`))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", s.Diagnostics)
	}
	if s.Audience != "Team" || s.ModelRole != "main" || s.Samples != 3 || len(s.Cases) != 2 {
		t.Fatalf("suite %+v", s)
	}
	c := s.Cases[0]
	if c.Name != "review before push" || c.Expect != "reviewer" || c.MinRate != 0.8 || c.Samples != 3 || c.Pos.Line != 5 || c.Keys["expect"] != (lint.Pos{Line: 7, Column: 13}) {
		t.Errorf("case 1 %+v", c)
	}
	if c := s.Cases[1]; c.Expect != "none" || c.MinRate != 1 || c.Samples != 1 {
		t.Errorf("case 2 %+v", c)
	}
	if d := ParseRoute("x.route.yaml", []byte("cases:\n  - name: a\n    request: r\n    expect: x\n")); d.Audience != "Personal" || d.Cases[0].Samples != DefaultRouteSamples {
		t.Errorf("defaults %+v", d)
	}
}

func TestParseRouteDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"not yaml", "cases: [\n", "1:1 suite-yaml"},
		{"empty", "", "1:1 suite-missing"},
		{"no cases", "audience: team\n", "1:1 suite-missing"},
		{"empty cases", "audience: team\ncases: []\n", "2:8 suite-missing"},
		{"unknown key", "audiense: team\ncases:\n  - {name: a, request: r, expect: x}\n", "1:1 suite-unknown-key"},
		{"public", "audience: public\ncases:\n  - {name: a, request: r, expect: x}\n", "1:11 suite-value"},
		{"bad audience", "audience: world\ncases:\n  - {name: a, request: r, expect: x}\n", "1:11 suite-value"},
		{"bad samples", "samples: 0\ncases:\n  - {name: a, request: r, expect: x}\n", "1:10 suite-value"},
		{"bad min-rate", "cases:\n  - name: a\n    request: r\n    expect: x\n    min-rate: 1.5\n", "5:15 suite-value"},
		{"no request", "cases:\n  - name: a\n    expect: x\n", "2:5 suite-missing"},
		{"no expect", "cases:\n  - name: a\n    request: r\n", "2:5 suite-missing"},
		{"case key typo", "cases:\n  - name: a\n    request: r\n    expected: x\n", "2:5 suite-missing; 4:5 suite-unknown-key"},
		{"duplicate", "cases:\n  - {name: a, request: r, expect: x}\n  - {name: A, request: r, expect: x}\n", "3:12 suite-duplicate-case"},
		{"bad role", "model-role: boss\ncases:\n  - {name: a, request: r, expect: x}\n", "1:13 suite-value"},
	} {
		s := ParseRoute("s.route.yaml", []byte(tc.text))
		if got := diagList(s.Diagnostics); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	s := ParseRoute("s.route.yaml", []byte("cases:\n  - expected: x\n"))
	if len(s.Cases) != 1 || len(s.Cases[0].Problems) != 4 {
		t.Errorf("a case keeps its own problems: %+v", s.Cases)
	}
	hinted := false
	for _, d := range s.Diagnostics {
		hinted = hinted || d.Rule == RuleUnknownKey && d.Hint == "did you mean 'expect'?"
	}
	if !hinted {
		t.Errorf("no did-you-mean for expected: %v", s.Diagnostics)
	}
}

func TestCheckRoute(t *testing.T) {
	dir := t.TempDir()
	h := lint.NewHome(dir, "")
	os.MkdirAll(h.Agents, 0o755)
	for name, text := range map[string]string{
		"reviewer.md": "---\nname: reviewer\ndescription: Reviews diffs.\n---\nYou review.\n",
		"ops.md":      "---\nname: ops\ndescription: Restarts.\nvisibility: internal\n---\nYou restart.\n",
		"broken.md":   "---\nname: broken\n---\nNo description.\n",
	} {
		os.WriteFile(filepath.Join(h.Agents, name), []byte(text), 0o644)
	}
	os.WriteFile(filepath.Join(h.Agents, "front.md.txt"), []byte("You are the frontline."), 0o644)
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(h.Agents, "front.route.yaml")
	s := ParseRoute(path, []byte(`preamble-file: front.md.txt
cases:
  - {name: ok, request: r, expect: reviewer}
  - {name: ok2, request: r, expect: NONE}
  - {name: internal, request: r, expect: ops}
  - {name: rejected, request: r, expect: broken}
  - {name: typo, request: r, expect: reveiwer}
`))
	CheckRoute(s, c)
	if got, want := diagList(s.Diagnostics), "5:42 suite-agent; 6:42 suite-agent; 7:38 suite-agent"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	if s.Preamble != "You are the frontline." {
		t.Errorf("preamble %q", s.Preamble)
	}
	if len(s.Cases[0].Problems) != 0 || len(s.Cases[2].Problems) != 1 || !strings.Contains(s.Diagnostics[2].Hint, "did you mean 'reviewer'?") {
		t.Errorf("problems %v / hint %q", s.Cases[2].Problems, s.Diagnostics[2].Hint)
	}
	missing := ParseRoute(path, []byte("preamble-file: nope.md\ncases:\n  - {name: a, request: r, expect: none}\n"))
	CheckRoute(missing, c)
	if got := diagList(missing.Diagnostics); got != "1:16 suite-file" {
		t.Errorf("missing preamble: %s", got)
	}
}

func FuzzParseRoute(f *testing.F) {
	for _, s := range []string{
		"cases:\n  - {name: a, request: r, expect: x}\n",
		"audience: team\nsamples: 3\ncases:\n  - name: a\n    request: r\n    expect: none\n    min-rate: 0.5\n",
		"cases: [1, {name: [x]}]\n", "- a\n", "cases:\n  - &a {name: x}\n  - *a\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := ParseRoute("f.route.yaml", data)
		for _, d := range s.Diagnostics {
			if d.Rule == "" || d.Message == "" {
				t.Fatalf("a diagnostic without rule or message: %+v", d)
			}
		}
		for _, c := range s.Cases {
			if c.Samples < 1 || c.MinRate <= 0 || c.MinRate > 1 || c.Name == "" {
				t.Fatalf("case out of range: %+v", c)
			}
		}
	})
}
