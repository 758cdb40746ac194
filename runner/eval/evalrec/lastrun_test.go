package evalrec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestLastRunMergesAndSurvivesJunk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "last-runs")
	suite := filepath.Join(t.TempDir(), "a.test.yaml")
	if l, err := LoadLastRun(dir, suite); l != nil || err != nil {
		t.Fatalf("before any run: %v %v", l, err)
	}
	at := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	if err := SaveLastRun(dir, suite, map[string]string{"one": "pass", "two": "fail", "three": "error"}, at); err != nil {
		t.Fatal(err)
	}
	// A run of some cases updates theirs and keeps the others'.
	if err := SaveLastRun(dir, suite, map[string]string{"two": "pass", "four": "stale"}, at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, err := LoadLastRun(dir, suite)
	if err != nil || l == nil || !l.At.Equal(at.Add(time.Hour)) {
		t.Fatalf("%+v %v", l, err)
	}
	if got := l.Failed(); !slices.Equal(got, []string{"four", "three"}) {
		t.Errorf("failed %q", got)
	}
	// Another suite has its own file; a file that is not a last run (or
	// names another suite) reads as none.
	other := filepath.Join(filepath.Dir(suite), "b.test.yaml")
	if l, _ := LoadLastRun(dir, other); l != nil {
		t.Errorf("another suite's last run: %+v", l)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the state folder (a temporary one left?)", len(entries))
	}
	os.WriteFile(filepath.Join(dir, entries[0].Name()), []byte("{not json"), 0o600)
	if l, err := LoadLastRun(dir, suite); l != nil || err != nil {
		t.Errorf("junk: %+v %v", l, err)
	}
	if err := SaveLastRun(dir, suite, map[string]string{"one": "fail"}, at); err != nil {
		t.Fatal(err)
	}
	if l, _ := LoadLastRun(dir, suite); l == nil || !slices.Equal(l.Failed(), []string{"one"}) {
		t.Errorf("after junk: %+v", l)
	}
	if d, err := LastRunsDir(func(k string) string { return map[string]string{"XDG_STATE_HOME": "/st", "HOME": "/h"}[k] }); err != nil || d != "/st/agentdesk/last-runs" {
		t.Errorf("LastRunsDir = %q, %v", d, err)
	}
	if d, _ := LastRunsDir(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); d != "/h/.local/state/agentdesk/last-runs" {
		t.Errorf("LastRunsDir without XDG_STATE_HOME = %q", d)
	}
}

// A case run on several models is kept per model: a later run on one of
// them leaves the others' statuses, so --failed still picks a case that
// fails on a model the later run did not use.
func TestLastRunKeysByCaseAndModel(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(t.TempDir(), "a.test.yaml")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := SaveLastRunByModel(dir, suite, map[CaseModel]string{{"x", "A"}: "pass", {"x", "B"}: "fail", {"y", "A"}: "pass", {"y", "B"}: "pass"}, at); err != nil {
		t.Fatal(err)
	}
	if err := SaveLastRunByModel(dir, suite, map[CaseModel]string{{"x", "A"}: "pass", {"y", ""}: "pass"}, at); err != nil {
		t.Fatal(err)
	}
	l, err := LoadLastRun(dir, suite)
	if err != nil || l == nil {
		t.Fatalf("LoadLastRun: %v, %v", l, err)
	}
	if got := l.Failed(); len(got) != 1 || got[0] != "x" {
		t.Errorf("Failed() = %q, want [x]: it still fails on B", got)
	}
	if got := l.FailedModels("x"); !slices.Equal(got, []string{"B"}) {
		t.Errorf("FailedModels(x) = %q, want [B]: --failed runs it again on B alone", got)
	}
	if got := l.FailedModels("y"); len(got) != 0 {
		t.Errorf("FailedModels(y) = %q, want none", got)
	}
	if err := SaveLastRunByModel(dir, suite, map[CaseModel]string{{"x", "B"}: "pass"}, at); err != nil {
		t.Fatal(err)
	}
	if err := SaveLastRunByModel(dir, suite, map[CaseModel]string{{"y", ""}: "fail"}, at); err != nil {
		t.Fatal(err)
	}
	if l, _ = LoadLastRun(dir, suite); !slices.Equal(l.FailedModels("y"), []string{""}) {
		t.Errorf("FailedModels(y) = %q, want its own role", l.FailedModels("y"))
	}
	if err := SaveLastRunByModel(dir, suite, map[CaseModel]string{{"y", ""}: "pass"}, at); err != nil {
		t.Fatal(err)
	}
	if l, _ = LoadLastRun(dir, suite); len(l.Failed()) != 0 {
		t.Errorf("Failed() = %q after x passed on B", l.Failed())
	}
}
