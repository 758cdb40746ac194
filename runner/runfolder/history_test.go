package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/vocab"
)

// writeRun writes a run.json for a hand-made record into runs.
func writeRun(t *testing.T, runs string, rec Record) {
	t.Helper()
	rec.Dir = filepath.Join(runs, rec.RunID)
	if err := os.MkdirAll(rec.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecord(&rec); err != nil {
		t.Fatal(err)
	}
}

func TestListRuns(t *testing.T) {
	runs := t.TempDir()
	host, _ := os.Hostname()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := Record{RunID: strings.Repeat("a", 32), Agent: "Summarizer", State: vocab.StateCompleted, Outcome: vocab.Completed, StartedAt: t0}
	b := Record{RunID: strings.Repeat("b", 32), Agent: "code-analyst", State: vocab.StateFailed, Outcome: vocab.Failed, Reason: vocab.ReasonNoActivity, StartedAt: t0.Add(time.Hour)}
	// A run left Running by a process that is gone: reported Lost.
	c := Record{RunID: strings.Repeat("c", 32), Agent: "summarizer", State: vocab.StateRunning, StartedAt: t0.Add(2 * time.Hour), PID: 1 << 30, Host: host}
	// A run Running in this very process: still Running.
	d := Record{RunID: strings.Repeat("d", 32), Agent: "summarizer", State: vocab.StateRunning, StartedAt: t0.Add(3 * time.Hour), PID: os.Getpid(), Host: host}
	for _, r := range []Record{a, b, c, d} {
		writeRun(t, runs, r)
	}
	// A damaged run folder, a folder that is no run, a stray file.
	broken := filepath.Join(runs, strings.Repeat("e", 32))
	os.MkdirAll(broken, 0o700)
	os.WriteFile(filepath.Join(broken, RunFile), []byte("{not json"), 0o600)
	os.MkdirAll(filepath.Join(runs, "not-a-run"), 0o700)
	os.WriteFile(filepath.Join(runs, "notes.txt"), []byte("x"), 0o600)

	all, err := ListRuns(runs, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range all {
		got = append(got, r.RunID[:1]+":"+r.State)
	}
	// The damaged folder is dated by its modification time: now, the newest.
	if want := "e:Unreadable d:Running c:Lost b:Failed a:Completed"; strings.Join(got, " ") != want {
		t.Errorf("listed %v, want %s", got, want)
	}
	if !strings.Contains(all[0].Error, "damaged") {
		t.Errorf("unreadable run error: %q", all[0].Error)
	}
	some, _ := ListRuns(runs, Filter{Agent: "SUMMARIZER"})
	got = got[:0]
	for _, r := range some {
		got = append(got, r.RunID[:1])
	}
	if strings.Join(got, "") != "dca" {
		t.Errorf("filtered %v", got)
	}
	if none, err := ListRuns(filepath.Join(runs, "missing"), Filter{}); err != nil || len(none) != 0 {
		t.Errorf("a missing runs folder: %v %v", none, err)
	}
}

func TestResolveRunID(t *testing.T) {
	runs := t.TempDir()
	for _, id := range []string{"abcd" + strings.Repeat("0", 28), "abce" + strings.Repeat("0", 28), "ffff" + strings.Repeat("1", 28)} {
		os.MkdirAll(filepath.Join(runs, id), 0o700)
	}
	tests := []struct{ in, want, err string }{
		{"ffff", "ffff" + strings.Repeat("1", 28), ""},
		{"ABCD", "abcd" + strings.Repeat("0", 28), ""},
		{"abc", "", "at least the first 4"},
		{"abc0", "", "no run"},
		{"ab", "", "at least the first 4"},
		{"zzzz", "", "not a run id"},
		{strings.Repeat("9", 32), strings.Repeat("9", 32), ""},
	}
	for _, tt := range tests {
		got, err := ResolveRunID(runs, tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if got != tt.want || err != nil {
			t.Errorf("%q: %q %v", tt.in, got, err)
		}
	}
	os.MkdirAll(filepath.Join(runs, "abcd"+strings.Repeat("9", 28)), 0o700)
	if _, err := ResolveRunID(runs, "abcd"); err == nil || !strings.Contains(err.Error(), "2 runs") {
		t.Errorf("ambiguous prefix: %v", err)
	}
}

func TestLoadRunChecksTheID(t *testing.T) {
	runs := t.TempDir()
	rec := Record{RunID: strings.Repeat("a", 32), State: vocab.StateCompleted}
	writeRun(t, runs, rec)
	os.Rename(filepath.Join(runs, rec.RunID), filepath.Join(runs, strings.Repeat("b", 32)))
	if _, err := LoadRun(runs, strings.Repeat("b", 32)); err == nil {
		t.Error("a run.json naming another run was accepted")
	}
	if _, err := LoadRun(runs, "../etc"); err == nil {
		t.Error("a path was accepted as a run id")
	}
	missing := strings.Repeat("c", 32)
	if _, err := LoadRun(runs, missing); err == nil || err.Error() != "no run "+missing+" in "+runs {
		t.Errorf("a run that is not there: %v", err)
	}
}
