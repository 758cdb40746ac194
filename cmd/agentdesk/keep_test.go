package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// recordingFiles reads every file of dir, by name.
func recordingFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

// sameFiles fails unless dir holds exactly the files of before, byte for
// byte.
func sameFiles(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	after := recordingFiles(t, dir)
	if len(after) != len(before) {
		t.Errorf("%d files in %s, then %d", len(before), dir, len(after))
	}
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s changed", name)
		}
	}
}

// hang answers every request with a stream that stalls.
func hang(modeltest.Request) (modeltest.Script, bool) {
	return modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Working"), modeltest.Pause(time.Minute)}}, true
}

// recordKeepCase is one command that records, for the tests that make it
// fail.
type recordKeepCase struct {
	name string
	// setup makes a home whose model answers and writes a suite; it
	// returns the server, the environment, the command's arguments and
	// the recordings folder.
	setup func(t *testing.T) (*modeltest.Server, []string, []string, string)
}

var recordKeepCases = []recordKeepCase{
	{"test", func(t *testing.T) (*modeltest.Server, []string, []string, string) {
		srv, env, _, suite := suiteHome(t)
		return srv, env, []string{"test", "--record"}, filepath.Join(filepath.Dir(suite), "code-analyst.test.recordings")
	}},
	{"route --suite", func(t *testing.T) (*modeltest.Server, []string, []string, string) {
		srv, env, _ := routeHome(t, wire.OpenAI, "", nil)
		srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) { return spawnScript("reviewer"), true })
		home := strings.TrimPrefix(env[0], "NETCLAW_HOME=")
		hometest.WriteFile(t, filepath.Join(home, "agents", "front.route.yaml"), frontSuite)
		return srv, env, []string{"route", "--suite", "--record"}, filepath.Join(home, "agents", "front.route.recordings")
	}},
}

// TestRecordWithTheServerDownKeepsRecordings records, then records again
// with the model's server gone: the recordings keep their bytes, the
// exit is 1, and the report says they were kept.
func TestRecordWithTheServerDownKeepsRecordings(t *testing.T) {
	for _, tc := range recordKeepCases {
		t.Run(tc.name, func(t *testing.T) {
			srv, env, args, recs := tc.setup(t)
			if code, out, errOut := runTrialCmd(t, env, "", args...); strings.Contains(out, " kept as ") || code == 2 || code == 3 {
				t.Fatalf("first record: exit %d\n%s\n%s", code, out, errOut)
			}
			before := recordingFiles(t, recs)
			if len(before) == 0 {
				t.Fatal("nothing recorded")
			}
			srv.Close()
			code, out, errOut := runTrialCmd(t, env, "", args...)
			if want := fmt.Sprintf("recordings: 0 replaced, %d kept as they were (", len(before)); code != 1 || !strings.Contains(out, want) {
				t.Errorf("exit %d\n%s\n%s", code, out, errOut)
			}
			sameFiles(t, recs, before)
		})
	}
}

// TestRecordCancelledBySIGTERMKeepsRecordings runs the built binary with
// --record against a model that stalls and sends it SIGTERM (a CI job
// cancelled) once the model was asked: the recordings keep their bytes.
func TestRecordCancelledBySIGTERMKeepsRecordings(t *testing.T) {
	bin := binary(t)
	for _, tc := range recordKeepCases {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			t.Run(tc.name+" "+sig.String(), func(t *testing.T) {
				srv, env, args, recs := tc.setup(t)
				if code, out, errOut := runTrialCmd(t, env, "", args...); code == 2 || code == 3 {
					t.Fatalf("first record: exit %d\n%s\n%s", code, out, errOut)
				}
				before := recordingFiles(t, recs)
				n := len(srv.Requests())
				srv.SetChooser(hang)
				cmd := exec.Command(bin, args...)
				cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if got := srv.WaitRequests(n+1, 30*time.Second); len(got) <= n {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the model was not asked: %s", stderr.String())
				}
				cmd.Process.Signal(sig)
				cmd.Wait()
				if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stdout.String(), " kept as ") {
					t.Errorf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
				}
				sameFiles(t, recs, before)
			})
		}
	}
}
