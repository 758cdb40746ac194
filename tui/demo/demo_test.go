package demo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
)

// TestSampleHomeShowsEveryCase checks the demo has what it promises: loaded
// and rejected agents, a feed agent, an internal one, and skills whose
// routing works and fails.
func TestSampleHomeShowsEveryCase(t *testing.T) {
	h, err := Extract(filepath.Join(t.TempDir(), "netclaw"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var loaded, rejected, feed, internal int
	for _, f := range c.Files {
		switch {
		case f.Status == lint.Rejected:
			rejected++
		default:
			loaded++
			if f.Def != nil && !f.Def.UserFacing() {
				internal++
			}
		}
		if f.Source.IsFeed() && f.Status == lint.Loaded {
			feed++
		}
	}
	if loaded < 3 || rejected < 2 || feed < 1 || internal < 1 {
		t.Errorf("loaded %d, rejected %d, feed %d, internal %d", loaded, rejected, feed, internal)
	}
	var routed, broken int
	for _, s := range c.Skills {
		if s.Routed() && s.RouteError == "" {
			routed++
		}
		if s.RouteError != "" {
			broken++
		}
	}
	if routed < 1 || broken < 1 {
		t.Errorf("skills: %d route fine, %d do not", routed, broken)
	}
	if _, _, errs := countDiag(c); errs == 0 {
		t.Error("the demo should show errors")
	}
}

func countDiag(c *lint.Catalog) (files, warnings, errors int) {
	errors, warnings = lint.Count(c.Diagnostics())
	return len(c.Files), warnings, errors
}

func TestExtractRefusesAFolderInUse(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Extract(dir); err == nil {
		t.Fatal("Extract should refuse a folder that holds files")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "mine.txt"))
	if string(data) != "x" {
		t.Error("the folder's file changed")
	}
}

// TestSetupRunsEveryRoleFromItsCassette makes a demo and runs one agent of
// each role through the configuration, as the browser does: each replays
// its recorded run.
func TestSetupRunsEveryRoleFromItsCassette(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	h, err := Setup(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Config.Diagnostics {
		t.Errorf("the demo config has a finding: %+v", d)
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(dir, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		agent  string
		reason string
	}{
		{"code-analyst", ""},
		{"summarizer", vocab.ReasonOutputTruncated},
		{"deep-thinker", vocab.ReasonThinkingOnlyTimeout},
	}
	for _, cs := range cases {
		f := c.Agent(cs.agent)
		if f == nil {
			t.Fatalf("%s is not loaded", cs.agent)
		}
		r, err := rn.Start(context.Background(), runner.Spec{Agent: f, Config: c.Config, Task: "anything", Fast: true})
		if err != nil {
			t.Fatalf("%s: %v", cs.agent, err)
		}
		rec, err := r.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != cs.reason {
			t.Errorf("%s: reason %q (%s), want %q", cs.agent, rec.Reason, rec.Error, cs.reason)
		}
	}
}

// TestDemoFeedsAsSetUp: the home Setup makes (the one `agentdesk --demo`
// browses) configures its community feed in SkillFeeds, so that feed's
// agents load (or are rejected, as the runtime decides), and keeps one feed
// folder no SkillFeeds entry names, to show the not-loaded status.
func TestDemoFeedsAsSetUp(t *testing.T) {
	h, err := Setup(filepath.Join(t.TempDir(), "demo"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]lint.Status{}
	for _, f := range c.Files {
		if f.Source.IsFeed() {
			status[f.Source.Feed+"/"+filepath.Base(f.Path)] = f.Status
		}
	}
	want := map[string]lint.Status{
		"community/release-notes.md": lint.Loaded,
		"community/summarizer.md":    lint.Rejected, // shadowed by the local summarizer
		"retired/changelog-bot.md":   lint.NotLoaded,
	}
	for k, st := range want {
		if status[k] != st {
			t.Errorf("%s: %v, want %v (all: %v)", k, status[k], st, status)
		}
	}
	if len(status) != len(want) {
		t.Errorf("feed files %v, want %v", status, want)
	}
}
