package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/tui"
)

// TestHelpListsTopicsAndCommands: agentdesk help lists every topic under
// its own heading and every command; help COMMAND is still the command's
// help.
func TestHelpListsTopicsAndCommands(t *testing.T) {
	code, out, stderr := run(t, nil, "help")
	if code != 0 {
		t.Fatalf("help: exit %d\n%s", code, stderr)
	}
	i := strings.Index(out, "Help topics (agentdesk help TOPIC):")
	if i < 0 {
		t.Fatalf("help has no list of topics:\n%s", out)
	}
	for _, name := range topicNames() {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +\S`).MatchString(out[i:]) {
			t.Errorf("help does not list the topic %s:\n%s", name, out[i:])
		}
	}
	for _, name := range []string{"lint", "run", "test", "route"} {
		if !regexp.MustCompile(`(?m)^  ` + name + ` +\S`).MatchString(out[:i]) {
			t.Errorf("help does not list the command %s", name)
		}
	}
	code, out, _ = run(t, nil, "help", "lint")
	if code != 0 || !strings.Contains(out, "Usage:\n  agentdesk lint [PATH...]") || !strings.Contains(out, "--list-rules") {
		t.Errorf("help lint: exit %d\n%s", code, out)
	}
}

// TestHelpTopics: each topic prints its page and exits 0; the pages made
// from the code name everything they should.
func TestHelpTopics(t *testing.T) {
	page := func(name string) string {
		t.Helper()
		code, out, stderr := run(t, nil, "help", name)
		if code != 0 || stderr != "" {
			t.Fatalf("help %s: exit %d, stderr %q", name, code, stderr)
		}
		if strings.Contains(out, "Usage:") || strings.Contains(out, "Global Flags") {
			t.Errorf("help %s prints a command's usage, not the topic:\n%s", name, out)
		}
		return out
	}
	for _, want := range []string{"exit-codes", "environment", "formats", "rules", "keys", "suites", "sandbox"} {
		if out := page(want); len(strings.Fields(out)) < 40 {
			t.Errorf("help %s is too short to be a reference:\n%s", want, out)
		}
	}
	t.Run("exit-codes", func(t *testing.T) {
		out := page("exit-codes")
		for _, code := range []string{"0  success", "1  findings", "2  bad usage", "3  internal failure"} {
			if !strings.Contains(out, code) {
				t.Errorf("exit-codes does not say %q", code)
			}
		}
		for _, c := range newRootCmd(&globals{}).Commands() {
			if c.IsAvailableCommand() && c.Name() != "completion" && c.Name() != "help" && !regexp.MustCompile(`(?m)^  `+c.Name()+` `).MatchString(out) {
				t.Errorf("exit-codes does not say what 1 means for %s", c.Name())
			}
		}
	})
	t.Run("rules", func(t *testing.T) {
		out := page("rules")
		for _, r := range append(append([]lint.Rule{}, lint.Rules...), suitefile.Rules...) {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(r.ID) + ` `).MatchString(out) {
				t.Errorf("help rules does not list %s", r.ID)
			}
		}
	})
	t.Run("keys", func(t *testing.T) {
		out := page("keys")
		for _, g := range tui.DefaultKeyMap().Reference() {
			for _, l := range g.Keys {
				if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(l.Keys) + ` +` + regexp.QuoteMeta(l.Desc) + `$`).MatchString(out) {
					t.Errorf("help keys has no line for %s %q", l.Keys, l.Desc)
				}
			}
		}
	})
	t.Run("suites", func(t *testing.T) {
		out := page("suites")
		for _, g := range suitefile.Keys() {
			for _, k := range g.Keys {
				if suiteKeyDocs[g.Where][k] == "" {
					t.Errorf("the %s key %q has no line in suiteKeyDocs (topics.go): say what it does", g.Where, k)
				}
			}
			if !strings.Contains(out, "\n"+g.Where+"\n") {
				t.Errorf("help suites has no section %q", g.Where)
			}
		}
	})
	t.Run("formats", func(t *testing.T) {
		out := page("formats")
		for _, cmd := range []string{"agentdesk lint", "agentdesk test", "agentdesk route", "agentdesk preview", "agentdesk tools", "agentdesk runs"} {
			if !strings.Contains(out, "  "+cmd+" ") {
				t.Errorf("help formats does not list %s", cmd)
			}
		}
	})
	code, _, stderr := run(t, nil, "help", "exti-codes")
	if code != exitUsage || !strings.Contains(stderr, `did you mean "exit-codes"?`) {
		t.Errorf("help of an unknown topic: exit %d, %q", code, stderr)
	}
}

// TestLintListRules: --list-rules prints every rule once, in text and
// JSON, with both profiles' severities and a summary.
func TestLintListRules(t *testing.T) {
	want := map[string]lint.Rule{}
	for _, r := range append(append([]lint.Rule{}, lint.Rules...), suitefile.Rules...) {
		want[r.ID] = r
	}
	code, out, stderr := run(t, nil, "lint", "--list-rules", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Rules []struct {
			ID, Kind, Runtime, Publish, Summary string
			Rejects                             bool
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range doc.Rules {
		w, ok := want[r.ID]
		switch {
		case !ok || seen[r.ID]:
			t.Errorf("rule %s: unknown or listed twice", r.ID)
		case r.Runtime != w.Runtime.String() || r.Publish != w.Publish.String() || r.Summary != w.Summary || r.Summary == "" || r.Rejects != w.Rejects:
			t.Errorf("rule %s: %+v, want %+v", r.ID, r, w)
		case (r.Kind == "suite") != strings.HasPrefix(r.ID, "suite-"):
			t.Errorf("rule %s: kind %s", r.ID, r.Kind)
		}
		seen[r.ID] = true
	}
	if len(seen) != len(want) {
		t.Errorf("%d rules listed, %d registered", len(seen), len(want))
	}
	code, out, _ = run(t, nil, "lint", "--list-rules")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != len(want)+1 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("text: exit %d, %d lines for %d rules\n%s", code, len(lines), len(want), out)
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if r, ok := want[f[0]]; !ok || f[2] != r.Runtime.String() || f[3] != r.Publish.String() {
			t.Errorf("text line %q", l)
		}
	}
	for _, args := range [][]string{{"lint", "--list-rules", "--format", "sarif"}, {"lint", "--list-rules", "agents/"}} {
		if code, _, stderr := run(t, nil, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
}
