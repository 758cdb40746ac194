package suitefile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

func diagLines(ds []lint.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Rule, d.Message)
		if d.Hint != "" {
			s += " (" + d.Hint + ")"
		}
		out = append(out, s)
	}
	return out
}

func TestParseGood(t *testing.T) {
	src := `agent: code-analyst
cases:
  - name: finds the port
    task: Which port does the server listen on?
    project: fixture
    repeat: 3
    pass-rate: 0.66
    expect:
      contains: [8080, listen]
      not-contains: TODO
      matches: '(?i)port\s+\d+'
      tools: file_read
      no-tools: [file_list]
      max-tool-calls: 4
      max-seconds: 30
      max-output-tokens: 500
      judge: Names the port and the file it is set in.
  - name: truncates
    task: Write everything
    context: background
    model-role: compaction
    skill: /review
    expect:
      outcome: failed
      reason: output_truncated
`
	s := Parse("agents/code-analyst.test.yaml", []byte(src))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	if s.Agent != "code-analyst" || s.AgentPos != (lint.Pos{Line: 1, Column: 8}) || len(s.Cases) != 2 {
		t.Fatalf("suite: %+v", s)
	}
	c := s.Cases[0]
	e := c.Expect
	if c.Name != "finds the port" || c.Pos.Line != 3 || c.Repeat != 3 || c.PassRate != 0.66 || c.Project != "fixture" {
		t.Errorf("case: %+v", c)
	}
	if strings.Join(e.Contains, "|") != "8080|listen" || strings.Join(e.NotContains, "|") != "TODO" || len(e.Matches) != 1 ||
		strings.Join(e.Tools, "|") != "file_read" || strings.Join(e.NoTools, "|") != "file_list" ||
		e.MaxToolCalls != 4 || e.MaxSeconds != 30 || e.MaxOutputTokens != 500 || e.Outcome != "Completed" || !strings.HasPrefix(e.Judge, "Names") {
		t.Errorf("expect: %+v", e)
	}
	if c.Keys["expect.judge"].Line != 17 {
		t.Errorf("judge at %v", c.Keys["expect.judge"])
	}
	c2 := s.Cases[1]
	if c2.Expect.Outcome != "Failed" || c2.Expect.Reason != "output_truncated" || c2.Skill != "review" || c2.Repeat != 1 || c2.PassRate != 1 || c2.Expect.MaxToolCalls != -1 {
		t.Errorf("case 2: %+v", c2)
	}
	if got := Parse("agents/reviewer.test.yaml", []byte("cases: [{name: a, task: b}]")).Agent; got != "reviewer" {
		t.Errorf("agent from the file name: %q", got)
	}
}

func TestParseFindings(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		cases     int
	}{
		{"yaml syntax", "cases:\n  - name: a\n    task: 'b\n", []string{"3:5 suite-yaml the suite is not valid YAML: found unexpected end of stream"}, 0},
		{"yaml flow list unclosed", "agent: x\ncases: [{name: a, task: b}\n", []string{"2:1 suite-yaml the suite is not valid YAML: did not find expected ',' or ']'"}, 0},
		{"yaml key out of line", "agent: x\ncases:\n  - name: a\n    task: b\n   expect: {}\n", []string{"5:4 suite-yaml the suite is not valid YAML: did not find expected '-' indicator (in the list that starts on line 3)"}, 0},
		{"yaml key at the items' column", "agent: x\ncases:\n  - name: a\n    task: b\n  - name: c\n    task: d\n  expect: {}\n", []string{"7:3 suite-yaml the suite is not valid YAML: did not find expected '-' indicator (in the list that starts on line 3)"}, 0},
		{"yaml text after a quoted item", "agent: x\ncases:\n  - name: a\n    task: b\n    expect:\n      contains:\n        - 'port' 8080\n", []string{"7:18 suite-yaml the suite is not valid YAML: did not find expected '-' indicator"}, 0},
		{"empty", "", []string{"1:1 suite-missing the suite is empty"}, 0},
		{"not a mapping", "- a\n- b\n", []string{"1:1 suite-yaml a suite is a mapping"}, 0},
		{"no cases", "agent: x\n", []string{"1:1 suite-missing the suite has no cases"}, 0},
		{"cases empty", "cases: []\n", []string{"1:8 suite-missing the suite has no cases: cases is an empty list (add cases: a list of cases, each with a name and a task)"}, 0},
		{"cases null", "cases:\n", []string{"1:7 suite-missing the suite has no cases: cases is empty (add cases: a list of cases, each with a name and a task)"}, 0},
		{"cases not a list", "cases: x\n", []string{"1:8 suite-yaml cases is a single value"}, 0},
		{"unknown top key", "agnet: x\ncases: [{name: a, task: b}]\n", []string{`1:1 suite-unknown-key unknown key "agnet" in the suite (did you mean 'agent'?)`}, 1},
		{"unknown case key", "cases:\n  - name: a\n    tsk: b\n", []string{`3:5 suite-unknown-key unknown key "tsk" in case 1 (did you mean 'task'?)`, `2:5 suite-missing case "a" has no task`}, 1},
		{"unknown expect key with dash", "cases:\n  - name: a\n    task: b\n    expect:\n      not_contains: x\n      maxToolCalls: 3\n",
			[]string{`5:7 suite-unknown-key unknown key "not_contains" in the expect of case "a" (did you mean 'not-contains'?)`, `6:7 suite-unknown-key unknown key "maxToolCalls" in the expect of case "a" (did you mean 'max-tool-calls'?)`}, 1},
		{"no name", "cases:\n  - task: b\n", []string{"2:5 suite-missing case 1 has no name"}, 1},
		{"duplicate case", "cases:\n  - name: a\n    task: b\n  - name: A\n    task: c\n", []string{`4:11 suite-duplicate-case case "A" is named twice (first on line 2)`}, 2},
		{"duplicate key", "cases:\n  - name: a\n    task: b\n    task: c\n", []string{`4:5 suite-yaml case 1 has the key "task" twice`}, 1},
		{"bad regexp", "cases:\n  - name: a\n    task: b\n    expect:\n      matches: ['ok', '(?<=x)y']\n", []string{`5:23 suite-regexp matches "(?<=x)y" is not a valid RE2 expression`}, 1},
		{"bad values", "cases:\n  - name: a\n    task: b\n    repeat: 0\n    pass-rate: 80\n    model-role: Big\n    expect:\n      outcome: Done\n      reason: output_trunc\n      max-seconds: -1\n      max-tool-calls: x\n",
			[]string{"4:13 suite-value repeat is 0", "5:16 suite-value pass-rate is 80", `6:17 suite-value model-role "Big" is not a model role`, `8:16 suite-value outcome "Done"`, `9:15 suite-value reason "output_trunc" is not a reason a run ends with (did you mean 'output_truncated'?)`, "10:20 suite-value max-seconds is -1", `11:23 suite-yaml max-tool-calls is "x"; give a whole number`}, 1},
		{"renamed reasons", "cases:\n  - name: a\n    task: b\n    expect:\n      reason: prefill_timeout\n  - name: c\n    task: d\n    expect:\n      reason: repeated_tool_call\n  - name: e\n    task: f\n    expect:\n      reason: tool_iteration_budget_exhausted\n",
			[]string{`5:15 suite-value reason "prefill_timeout" is not a reason a run ends with any more (did you mean 'no_activity_timeout'? NetClaw reports a prefill expiry as no_activity_timeout)`,
				`9:15 suite-value reason "repeated_tool_call" is not a reason a run ends with any more (did you mean 'tool_cycle_stopped'? NetClaw's cycle guard ends the run with tool_cycle_stopped)`,
				`13:15 suite-value reason "tool_iteration_budget_exhausted" is not a reason a run ends with any more (NetClaw has no cap on tool rounds, so no run ends with it: remove the expectation`}, 3},
		{"context twice", "cases:\n  - name: a\n    task: b\n    context: c\n    context-file: d\n", []string{`5:19 suite-value case "a" has both context and context-file`}, 1},
		{"wrong shapes", "cases:\n  - name: [a]\n    task: {x: 1}\n    expect: 3\n", []string{"2:11 suite-yaml name is a list", "3:11 suite-yaml task is a mapping", `4:13 suite-yaml the expect of case "case 1" is a single value`, "2:11 suite-missing case 1 has no name", `3:11 suite-missing case "case 1" has no task`}, 1},
		{"case not a mapping", "cases:\n  - just text\n  - name: a\n    task: b\n", []string{"2:5 suite-yaml case 1 is a single value"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Parse("x.test.yaml", []byte(tt.src))
			got := diagLines(s.Diagnostics)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(tt.want), strings.Join(tt.want, "\n"))
			}
			for _, w := range tt.want {
				found := false
				for _, g := range got {
					if strings.HasPrefix(g, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
			if len(s.Cases) != tt.cases {
				t.Errorf("%d cases, want %d", len(s.Cases), tt.cases)
			}
			for _, d := range s.Diagnostics {
				if d.Path != "x.test.yaml" || d.Severity != lint.Error {
					t.Errorf("diagnostic %+v", d)
				}
				if _, ok := ruleIDs[d.Rule]; !ok {
					t.Errorf("rule %s is not in Rules", d.Rule)
				}
			}
		})
	}
}

var ruleIDs = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range Rules {
		m[r.ID] = true
	}
	return m
}()

// TestAgentNameDisagrees: a suite whose agent: names another agent than
// its file name is a warning (the suite tests the agent: one), at the key.
func TestAgentNameDisagrees(t *testing.T) {
	for _, tt := range []struct {
		path, src, want string
	}{
		{"agents/summarizer.test.yaml", "agent: code-analyst\ncases: [{name: a, task: b}]\n",
			`1:8 suite-agent-name the file name says summarizer, agent: says code-analyst: the suite tests code-analyst (rename the file code-analyst.test.yaml, or fix agent:)`},
		{"agents/summarizer.test.yaml", "agent: summarizer\ncases: [{name: a, task: b}]\n", ""},
		{"agents/summarizer.test.yaml", "cases: [{name: a, task: b}]\n", ""},
	} {
		s := Parse(tt.path, []byte(tt.src))
		got := strings.Join(diagLines(s.Diagnostics), "\n")
		if got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
		for _, d := range s.Diagnostics {
			if d.Severity != lint.Warning {
				t.Errorf("severity %v, want a warning", d.Severity)
			}
		}
	}
}

// TestCheckOutsideTheHome: a context-file or project outside the home is
// read, with a warning (recordings made from it go stale on another
// machine); the case can still run.
func TestCheckOutsideTheHome(t *testing.T) {
	home := t.TempDir()
	outside := t.TempDir()
	agents := filepath.Join(home, "agents")
	hometest.WriteFile(t, filepath.Join(agents, "code-analyst.md"), "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n")
	hometest.WriteFile(t, filepath.Join(home, "fixtures", "notes.txt"), "notes")
	hometest.WriteFile(t, filepath.Join(outside, "notes.txt"), "notes")
	os.MkdirAll(filepath.Join(outside, "src"), 0o755)
	os.MkdirAll(filepath.Join(home, "src"), 0o755)
	c, err := lint.Scan(lint.NewHome(home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("cases:\n  - name: inside\n    task: b\n    project: ../src\n    context-file: ../fixtures/notes.txt\n"+
		"  - name: outside\n    task: b\n    project: %s\n    context-file: %s\n", filepath.Join(outside, "src"), filepath.Join(outside, "notes.txt"))
	s := Parse(filepath.Join(agents, "code-analyst.test.yaml"), []byte(src))
	Check(s, c)
	got := diagLines(s.Diagnostics)
	if len(got) != 2 || !strings.HasPrefix(got[0], "8:14 suite-outside-home project "+filepath.Join(outside, "src")+" is outside the home") ||
		!strings.HasPrefix(got[1], "9:19 suite-outside-home context-file "+filepath.Join(outside, "notes.txt")+" is outside the home") ||
		!strings.Contains(got[0], "recordings made from it go stale on another machine") {
		t.Fatalf("got:\n%s", strings.Join(got, "\n"))
	}
	for _, d := range s.Diagnostics {
		if d.Severity != lint.Warning {
			t.Errorf("%s: severity %v, want a warning", d.Rule, d.Severity)
		}
	}
	if len(s.Cases) != 2 || len(s.Cases[1].Problems) != 0 {
		t.Errorf("the case outside cannot run: %v", diagLines(s.Cases[1].Problems))
	}
}

func TestCaseProblemsStayWithTheirCase(t *testing.T) {
	s := Parse("x.test.yaml", []byte("cases:\n  - name: good\n    task: b\n  - name: bad\n    task: c\n    expect: {matches: '('}\n"))
	if len(s.Cases) != 2 || len(s.Cases[0].Problems) != 0 || len(s.Cases[1].Problems) != 1 || s.Broken() {
		t.Fatalf("problems: %v / %v", diagLines(s.Cases[0].Problems), diagLines(s.Cases[1].Problems))
	}
}

func TestCheck(t *testing.T) {
	home := t.TempDir()
	agents := filepath.Join(home, "agents")
	hometest.WriteFile(t, filepath.Join(agents, "code-analyst.md"), "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n")
	hometest.WriteFile(t, filepath.Join(agents, "broken.md"), "---\nname: broken\n---\nNo description.\n")
	hometest.WriteFile(t, filepath.Join(home, "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Reviews.\nmetadata:\n  subagent: code-analyst\n---\nReview it.\n")
	hometest.WriteFile(t, filepath.Join(home, "skills", "other", "SKILL.md"), "---\nname: other\ndescription: Other.\n---\nOther.\n")
	hometest.WriteFile(t, filepath.Join(agents, "notes.md.txt"), "notes")
	os.MkdirAll(filepath.Join(agents, "fixture"), 0o755)
	c, err := lint.Scan(lint.NewHome(home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file, src string
		want      []string
	}{
		{"code-analyst.test.yaml", "cases:\n  - name: a\n    task: b\n    skill: review\n    project: fixture\n    context-file: notes.md.txt\n", nil},
		{"code-analyst.test.yaml", "cases:\n  - name: a\n    task: b\n    skill: other\n  - name: c\n    task: d\n    skill: nope\n    project: nowhere\n    context-file: gone.md\n",
			[]string{"4:12 suite-skill skill /other routes to no sub-agent, not to code-analyst", "7:12 suite-skill skill /nope is not found", "8:14 suite-file project nowhere is not a folder", "9:19 suite-file context-file gone.md is not a file"}},
		{"code-analyts.test.yaml", "cases: [{name: a, task: b}]\n", []string{`1:1 suite-agent agent "code-analyts" is not loaded (did you mean 'code-analyst'?)`}},
		{"broken.test.yaml", "agent: broken\ncases: [{name: a, task: b}]\n", []string{`2:8 suite-agent agent "broken" at`}},
		{"code-analyst.test.yaml", "models: [main, Compaction]\ncases: [{name: a, task: b}]\n", nil},
		{"code-analyst.test.yaml", "models: Main, Mian\ncases: [{name: a, task: b}]\n",
			[]string{`1:9 suite-model model "Mian" is neither a role (Main, Compaction, Fallback) nor a model definition (Models.Definitions of netclaw.json) (did you mean 'Main'?)`}},
		{"code-analyst.test.yaml", "models:\n  - Main\n  - main\ncases: [{name: a, task: b}]\n", []string{"3:5 suite-model model Main is named twice (name each model once)"}},
		{"code-analyst.test.yaml", "models: {a: b}\ncases: [{name: a, task: b}]\n", []string{"1:9 suite-yaml models is a mapping"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(agents, tt.file)
			s := Parse(path, []byte(tt.src))
			Check(s, c)
			got := diagLines(s.Diagnostics)
			if len(got) != len(tt.want) {
				t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) && !strings.HasPrefix(got[i], strings.Replace(tt.want[i], "2:8", "1:8", 1)) {
					t.Errorf("got %q, want %q", got[i], tt.want[i])
				}
			}
		})
	}
	found, err := Find(agents, TestSuffix)
	if err != nil || len(found) != 0 {
		t.Errorf("Find: %v %v", found, err)
	}
	hometest.WriteFile(t, filepath.Join(agents, "a.test.yaml"), "x")
	hometest.WriteFile(t, filepath.Join(agents, ".test.yaml"), "x")
	if found, _ := Find(agents, TestSuffix); len(found) != 1 || !IsTestSuite(found[0]) {
		t.Errorf("Find: %v", found)
	}
	if s := Load(filepath.Join(agents, "missing.test.yaml")); len(s.Diagnostics) != 1 || s.Diagnostics[0].Rule != RuleUnreadable || !s.Broken() {
		t.Errorf("Load of a missing file: %v", diagLines(s.Diagnostics))
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("agent: a\ncases:\n  - name: x\n    task: y\n    expect: {contains: z, matches: '(a'}\n"))
	f.Add([]byte("cases: &a [*a]\n"))
	f.Add([]byte("cases:\n  - name: x\n    repeat: 99999999999999999999\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := Parse("f.test.yaml", data)
		for _, d := range s.Diagnostics {
			if d.Line < 0 || d.Message == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		for _, c := range s.Cases {
			if c.Repeat < 1 || c.Repeat > MaxRepeat || c.PassRate <= 0 || c.PassRate > 1 {
				t.Fatalf("case out of range: %+v", c)
			}
		}
	})
}
