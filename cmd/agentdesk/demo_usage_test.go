package main

import (
	"strings"
	"testing"
)

// TestTestDemoUsageSaidAlone: bad usage of test --demo is said at once,
// without a warning that the operating rules are missing (the demo's
// samples are recorded), a shard count or the removal of the demo's run
// folders before it.
func TestTestDemoUsageSaidAlone(t *testing.T) {
	tmp := t.TempDir()
	env := []string{"HOME=" + tmp, "TMPDIR=" + tmp, "PATH="}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"test", "--demo", "--failed"}, "--failed reads the last run of your suites; the demo keeps none"},
		{[]string{"route", "--suite", "--demo", "--failed"}, "--failed reads the last run of your suites; the demo keeps none"},
		{[]string{"test", "--demo", "--offline", "--shard", "2/2", "--case", "nothing"}, `--case "nothing" matches no case`},
		{[]string{"route", "--suite", "--demo", "--shard", "2/2", "--case", "nothing"}, `--case "nothing" matches no case`},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, env, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "operating rules") || strings.Contains(errOut, "agentdesk: shard") || strings.Contains(errOut, "temporary") {
			t.Errorf("%v: exit %d, stderr:\n%s", tt.args, code, errOut)
		}
	}
	// Replaying the demo warns of nothing.
	code, _, errOut := run(t, env, "test", "--demo")
	if code != 0 || strings.Contains(errOut, "operating rules") {
		t.Errorf("test --demo: exit %d, stderr:\n%s", code, errOut)
	}
}

// TestTestWithoutNetClawNamesTheFlagOnce: the warning that the operating
// rules are missing names --netclaw-dir once (the reason names it; it
// ended with a second "; give --netclaw-dir").
func TestTestWithoutNetClawNamesTheFlagOnce(t *testing.T) {
	_, env, _, _ := suiteHome(t)
	env = append(env, "AGENTDESK_NETCLAW_DIR=")
	code, out, errOut := runTrialCmd(t, env, "", "test", "--record")
	if code != 0 || !strings.Contains(errOut, "the operating rules (NetClaw's embedded core) are missing") || strings.Count(errOut, "--netclaw-dir") != 1 {
		t.Errorf("exit %d\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestTestOfflineWithoutNetClawSaysWhyStale: recordings made with the
// operating rules replay stale on a machine without NetClaw (CI without
// --netclaw-dir); test --offline says on stderr that the rules are missing
// and that this is why, as a live or recording test says they are missing.
func TestTestOfflineWithoutNetClawSaysWhyStale(t *testing.T) {
	_, env, _, _ := suiteHome(t)
	if code, out, errOut := runTrialCmd(t, env, "", "test", "--record"); code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errOut)
	}
	env = append(env, "AGENTDESK_NETCLAW_DIR=")
	code, out, errOut := runTrialCmd(t, env, "", "test", "--offline")
	if code != 1 || !strings.Contains(out, "system prompt: operating-rules changed") {
		t.Fatalf("exit %d, want 1 with stale recordings\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "the operating rules (NetClaw's embedded core) are missing") || !strings.Contains(errOut, "recordings made with them replay stale") || strings.Count(errOut, "--netclaw-dir") != 1 {
		t.Errorf("stderr does not say the rules are missing and why the recordings are stale:\n%s", errOut)
	}
}

// TestDemoNotRecordedHint: a demo sample with no recording (here under
// --models naming roles that are not the case's own, Main, whose model
// folders the demo has none of) is not told to --record,
// which the demo refuses, nor shown at the demo's temporary path: the
// hint says what the demo carries and how to record outside it.
func TestDemoNotRecordedHint(t *testing.T) {
	tmp := t.TempDir()
	env := []string{"HOME=" + tmp, "TMPDIR=" + tmp, "PATH="}
	code, out, errOut := run(t, env, "test", "--demo", "--offline", "--models", "Fallback,Compaction", "--case", "explains the watcher")
	if code != 1 || strings.Count(out, "not recorded: the demo has no agents/code-analyst.test.recordings/model-") != 2 {
		t.Fatalf("exit %d\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, bad := range []string{"record this case alone", "commit the file", tmp} {
		if strings.Contains(out, bad) {
			t.Errorf("the hint says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{
		"leave out --models to replay the ones it has, or record the case on your own home, outside --demo (it calls your model): agentdesk test --models Fallback --record --case 'explains the watcher'",
		"agentdesk test --models Compaction --record --case 'explains the watcher'",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the hint lacks %q:\n%s", want, out)
		}
	}
	// What the hint says to leave out does replay.
	if code, out, errOut := run(t, env, "test", "--demo", "--offline", "--case", "explains the watcher"); code != 0 {
		t.Errorf("without --models: exit %d\n%s\nstderr:\n%s", code, out, errOut)
	}
}
