package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// TestSARIFStructure checks the properties SARIF 2.1.0 and GitHub code
// scanning require, on the decoded document rather than its text.
func TestSARIFStructure(t *testing.T) {
	var b bytes.Buffer
	if err := SARIF(&b, handCatalog(t), Options{Dir: wd(t)}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("SARIF output is not JSON: %v", err)
	}
	if doc["version"] != "2.1.0" {
		t.Errorf("version = %v, want 2.1.0", doc["version"])
	}
	if s, _ := doc["$schema"].(string); !strings.Contains(s, "sarif-2.1.0") {
		t.Errorf("$schema = %q", s)
	}
	runs := list(t, doc, "runs")
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	run := runs[0].(map[string]any)
	driver := obj(t, obj(t, run, "tool"), "driver")
	if driver["name"] != "agentdesk" || driver["informationUri"] != InformationURI {
		t.Errorf("driver = %v", driver)
	}
	rules := list(t, driver, "rules")
	if len(rules) != len(lint.Rules) {
		t.Errorf("%d rules, want one per lint rule (%d)", len(rules), len(lint.Rules))
	}
	ids := map[string]bool{}
	for i, r := range rules {
		rule := r.(map[string]any)
		id, _ := rule["id"].(string)
		if id != lint.Rules[i].ID {
			t.Errorf("rules[%d].id = %q, want %q", i, id, lint.Rules[i].ID)
		}
		if ids[id] {
			t.Errorf("rule %q listed twice", id)
		}
		ids[id] = true
		if text, _ := obj(t, rule, "shortDescription")["text"].(string); text == "" {
			t.Errorf("rule %q has no shortDescription.text", id)
		}
	}
	results := list(t, run, "results")
	if want := len(handCatalog(t).Diagnostics()); len(results) != want {
		t.Errorf("%d results, want %d", len(results), want)
	}
	for i, r := range results {
		res := r.(map[string]any)
		id, _ := res["ruleId"].(string)
		idx, ok := res["ruleIndex"].(float64)
		if !ok || int(idx) >= len(rules) || rules[int(idx)].(map[string]any)["id"] != id {
			t.Errorf("results[%d]: ruleIndex %v does not point at rule %q", i, res["ruleIndex"], id)
		}
		if lvl := res["level"]; lvl != "error" && lvl != "warning" {
			t.Errorf("results[%d].level = %v", i, lvl)
		}
		if text, _ := obj(t, res, "message")["text"].(string); text == "" {
			t.Errorf("results[%d] has no message.text", i)
		}
		locs, _ := res["locations"].([]any)
		if len(locs) == 0 {
			continue // the environment has no location
		}
		phys := obj(t, locs[0].(map[string]any), "physicalLocation")
		uri, _ := obj(t, phys, "artifactLocation")["uri"].(string)
		if uri == "" || strings.Contains(uri, `\`) || strings.HasPrefix(uri, "/") {
			t.Errorf("results[%d] uri = %q, want a relative URI with forward slashes", i, uri)
		}
		if reg, ok := phys["region"].(map[string]any); ok {
			if line, _ := reg["startLine"].(float64); line < 1 {
				t.Errorf("results[%d].region.startLine = %v", i, reg["startLine"])
			}
		}
	}
}

func TestFileURI(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		path, want string
	}{
		{dir + "/agents/a.md", "agents/a.md"},
		{dir + "/agents/with space.md", "agents/with%20space.md"},
		{dir + "/agents/100%.md", "agents/100%25.md"},
		{"/elsewhere/a.md", "file:///elsewhere/a.md"},
	}
	for _, tt := range tests {
		if got := fileURI(tt.path, dir); got != tt.want {
			t.Errorf("fileURI(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func obj(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("missing object %q in %v", key, m)
	}
	return v
}

func list(t *testing.T, m map[string]any, key string) []any {
	t.Helper()
	v, ok := m[key].([]any)
	if !ok {
		t.Fatalf("missing array %q in %v", key, m)
	}
	return v
}
