package suite

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// script writes an executable shell script into dir.
func script(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkRecord is a run record a check is given.
func checkRecord() *runfolder.Record {
	return &runfolder.Record{
		Outcome: vocab.Completed, Output: "The server listens on port 8080.\nSee main.go.\n",
		Model:     runfolder.Model{Role: "Main", ModelID: "test-model"},
		Usage:     runfolder.Usage{InputTokens: 10, OutputTokens: 12},
		Timings:   runfolder.Timings{TotalMS: 1500},
		ToolCalls: []runfolder.ToolCall{{Name: "file_read", Arguments: `{"path":"main.go"}`, Complete: true}, {Name: "shell", Arguments: `{"cmd":"ls`, Result: &runfolder.ToolResult{Error: true}}},
	}
}

func TestRunCommandVerdicts(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SOME_API_KEY", "sk-secret")
	facts := CommandFacts{Suite: filepath.Join(dir, "tester.test.yaml"), Agent: "tester", Case: "finds the port", Sample: 2, How: "replay", Vars: map[string]string{"port": "8080"}}
	tests := []struct {
		name, body string
		argv       []string
		// fail is the failure's message ("" passes); lines its lines.
		fail  string
		lines []string
	}{
		{name: "exit 0 passes", body: "exit 0\n"},
		{name: "stdin is the output", body: `grep -q "port $1" || { echo "no port $1 in the output" >&2; exit 1; }` + "\n", argv: []string{"8080"}},
		{name: "stdin without the port", body: `grep -q "port $1" || { echo "no port $1 in the output" >&2; exit 1; }` + "\n", argv: []string{"9090"},
			fail: "no port 9090 in the output (exit status 1)"},
		{name: "facts in the environment", body: `echo "$AGENTDESK_OUTCOME|$AGENTDESK_REASON|$AGENTDESK_CASE|$AGENTDESK_SAMPLE|$AGENTDESK_AGENT|$AGENTDESK_HOW|$AGENTDESK_MODEL|$AGENTDESK_TOOL_CALLS|$AGENTDESK_OUTPUT_TOKENS|$AGENTDESK_SECONDS|$AGENTDESK_VAR_port" >&2; exit 3` + "\n",
			fail: "Completed||finds the port|2|tester|replay|test-model|2|12|1.500|8080 (exit status 3)"},
		{name: "tools as JSON", body: `echo "$AGENTDESK_TOOLS" >&2; exit 1` + "\n",
			fail: `[{"name":"file_read","arguments":{"path":"main.go"}},{"name":"shell","arguments":"{\"cmd\":\"ls","error":true}] (exit status 1)`},
		{name: "the record file", body: `grep -q '"output_tokens": 12' "$AGENTDESK_RECORD" && exit 0; echo "record: $AGENTDESK_RECORD" >&2; exit 1` + "\n"},
		{name: "suite folder is the working folder", body: `[ "$(pwd -P)" = "$(cd "$(dirname "$AGENTDESK_SUITE")" && pwd -P)" ] || { echo "in $(pwd)" >&2; exit 1; }` + "\n"},
		{name: "secrets are not passed", body: `[ -z "$SOME_API_KEY" ] || { echo "the key leaked" >&2; exit 1; }` + "\n"},
		{name: "no reason on stderr", body: "echo only stdout; exit 2\n", fail: "the check failed (exit status 2) and wrote no reason on stderr"},
		{name: "first line is the reason, the next ones follow", body: "printf '\\n  first\\nsecond\\nthird\\n' >&2; exit 1\n", fail: "  first (exit status 1)", lines: []string{"second", "third"}},
		{name: "megabytes on stdout still pass", body: "head -c 5000000 /dev/zero; exit 0\n"},
		{name: "megabytes on stderr are cut", body: "echo 'too long' >&2; head -c 3000000 /dev/zero | tr '\\0' '\\n' >&2; exit 1\n",
			fail: "too long (exit status 1)", lines: []string{"(its stderr was cut at 64 KiB; 2934473 bytes more were dropped)"}},
		{name: "killed by a signal fails", body: "kill -TERM $$\n", fail: "the check failed (signal: terminated) and wrote no reason on stderr"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "check" + strconv.Itoa(i) + ".sh"
			script(t, dir, name, tc.body)
			res, err := RunCommand(context.Background(), append([]string{"./" + name}, tc.argv...), dir, checkRecord(), facts, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tc.fail == "" {
				if res.Failure != nil {
					t.Fatalf("failed: %+v", res.Failure)
				}
				return
			}
			if res.Failure == nil {
				t.Fatal("passed")
			}
			if res.Failure.Message != tc.fail || !slices.Equal(res.Failure.Lines, tc.lines) || res.Failure.Key != "command" || !strings.HasPrefix(res.Failure.Expect, "command ./"+name) {
				t.Errorf("failure %+v\nwant %q %q", res.Failure, tc.fail, tc.lines)
			}
		})
	}
}

func TestRunCommandBadPrograms(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plain.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "noshebang"), []byte("\x7fELF garbage"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ argv, want string }{
		{"./missing.sh", "check program ./missing.sh is not there: paths are relative to the suite's folder"},
		{"./plain.sh", "check program ./plain.sh is not executable: chmod +x ./plain.sh"},
		{"./folder", "check program ./folder is a folder"},
		{"./noshebang", "check ./noshebang could not start: "},
		{"no-such-program-agentdesk", "check program no-such-program-agentdesk is not found on PATH"},
	}
	for _, tc := range tests {
		t.Run(tc.argv, func(t *testing.T) {
			_, err := RunCommand(context.Background(), []string{tc.argv}, dir, checkRecord(), CommandFacts{}, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// gone reports whether process pid has ended: it is not there, or it is
// a zombie waiting for its parent (a SIGKILLed process runs no more).
func gone(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) != nil
	}
	_, after, _ := strings.Cut(string(data), ") ")
	return strings.HasPrefix(after, "Z") || strings.HasPrefix(after, "X")
}

func TestRunCommandHangIsKilledWithItsGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	// The check starts a grandchild and waits: both must die.
	script(t, dir, "hang.sh", "sleep 1000 &\necho $! > "+pidFile+"\nwait\n")
	// A second: long enough for a loaded machine to start the grandchild
	// and write its pid before the limit kills the group.
	_, err := RunCommand(context.Background(), []string{"./hang.sh"}, dir, checkRecord(), CommandFacts{}, time.Second)
	if err == nil || !strings.Contains(err.Error(), "did not end within 1s and was killed") {
		t.Fatalf("error %v", err)
	}
	data, rerr := os.ReadFile(pidFile)
	if rerr != nil {
		t.Fatal(rerr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid == 0 {
		t.Fatalf("no pid in %s", pidFile)
	}
	// SIGKILL is delivered asynchronously: wait (boundedly) for the
	// grandchild's exit rather than look once.
	if !exitsWithin(pid, 10*time.Second) {
		t.Errorf("the check's grandchild %d still runs 10s after the kill", pid)
	}
}

func TestRunCommandCancelled(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	script(t, dir, "slow.sh", "echo started > "+fifo+"\nexec sleep 1000\n")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		// Opening the FIFO waits for the check to open it: it runs.
		f, err := os.Open(fifo)
		if err == nil {
			buf := make([]byte, 16)
			_, _ = f.Read(buf)
			f.Close()
		}
		cancel(errors.New("interrupted"))
	}()
	_, err := RunCommand(ctx, []string{"./slow.sh"}, dir, checkRecord(), CommandFacts{}, time.Hour)
	if err == nil || !strings.Contains(err.Error(), "check ./slow.sh was stopped: interrupted") {
		t.Fatalf("error %v", err)
	}
}

func TestRunCommandHasNoNetwork(t *testing.T) {
	if !isolationAvailable() {
		t.Skip("checks cannot be cut from the network here (no user namespaces)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash for /dev/tcp")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	dir := t.TempDir()
	p := filepath.Join(dir, "net.sh")
	body := "#!" + bash + "\necho \"network: $AGENTDESK_NETWORK\" >&2\nexec 3<>/dev/tcp/127.0.0.1/" + port + " && { echo 'reached the network' >&2; exit 0; }\nexit 1\n"
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := RunCommand(context.Background(), []string{"./net.sh"}, dir, checkRecord(), CommandFacts{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Isolated {
		t.Skip("the kernel refused the namespaces: checks run with the network here")
	}
	if res.Failure == nil || res.Failure.Message != "network: none (exit status 1)" {
		t.Errorf("the check reached a port on loopback: %+v", res.Failure)
	}
}

const commandSuite = `cases:
  - name: port checked
    task: find the port
    project: fixture
    expect:
      command: ./check.sh 8080
  - name: port wrong
    task: find the port
    project: fixture
    expect:
      command: [./check.sh, "9090"]
  - name: how
    task: say hi
    repeat: 2
    expect:
      command: ./how.sh
  - name: wrong outcome is not checked
    task: write a lot
    expect:
      command: ./how.sh
`

func TestCommandCheckRecordedThenReplayed(t *testing.T) {
	f := everyKindFixture(t)
	dir := f.home.Agents
	script(t, dir, "check.sh", `out=$(cat)
case "$out" in *"port $1"*) ;; *) echo "the output does not name port $1" >&2; exit 1;; esac
case "$AGENTDESK_TOOLS" in *'"file_read"'*) ;; *) echo "no file_read in $AGENTDESK_TOOLS" >&2; exit 1;; esac
`)
	log := filepath.Join(t.TempDir(), "how.log")
	script(t, dir, "how.sh", `echo "$AGENTDESK_HOW $AGENTDESK_CASE $AGENTDESK_SAMPLE" >> `+log+"\n")
	path := f.suite(commandSuite)
	want := []string{"port checked: pass 1/1", "port wrong: fail 0/1", "how: pass 2/2", "wrong outcome is not checked: fail 0/1"}
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		rs := f.run(mode, path)
		if got := statuses(rs); !slices.Equal(got, want) {
			t.Fatalf("%s: got %q\nwant %q", mode, got, want)
		}
		fl := rs[0].Cases[1].Samples[0].Failures
		if len(fl) != 1 || fl[0].Expect != "command ./check.sh 9090" || fl[0].Message != "the output does not name port 9090 (exit status 1)" {
			t.Errorf("%s: failures %+v", mode, fl)
		}
		if m := rs[0].Cases[1].Message; m != "command ./check.sh 9090: the output does not name port 9090 (exit status 1)" {
			t.Errorf("%s: message %q", mode, m)
		}
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	slices.Sort(lines)
	if w := []string{"recorded how 1", "recorded how 2", "replay how 1", "replay how 2"}; !slices.Equal(lines, w) {
		t.Errorf("the check ran as %q, want %q", lines, w)
	}
}

func TestCommandCheckThatHangsIsAnError(t *testing.T) {
	f := everyKindFixture(t)
	script(t, f.home.Agents, "hang.sh", "exec sleep 1000\n")
	path := f.suite("cases:\n  - name: hangs\n    task: say hi\n    expect:\n      command: ./hang.sh\n")
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	rn, err := runner.New(runner.Options{RunsDir: f.runs})
	if err != nil {
		t.Fatal(err)
	}
	s := suitefile.Load(path)
	suitefile.Check(s, cat)
	rs := Run(context.Background(), []*suitefile.Suite{s}, Options{Runner: rn, Catalog: cat, CommandTimeout: 200 * time.Millisecond})
	c := rs[0].Cases[0]
	if c.Status != Error || !strings.Contains(c.Message, "check ./hang.sh did not end within 200ms and was killed") {
		t.Errorf("status %s, message %q", c.Status, c.Message)
	}
}

// TestTemplateCasesRun: each row of a vars-file is a case of its own,
// with its own recording, replayed offline; its check sees the row.
func TestTemplateCasesRun(t *testing.T) {
	f := everyKindFixture(t)
	dir := f.home.Agents
	hometest.WriteFile(t, filepath.Join(dir, "ports.csv"), "port,word\n8080,listens\n9090,listens\n8080,shouts\n")
	script(t, dir, "row.sh", `grep -q "port $AGENTDESK_VAR_port" || { echo "no port $AGENTDESK_VAR_port" >&2; exit 1; }`+"\n")
	path := f.suite(`template:
  task: find the port
  project: fixture
  expect:
    contains: "{{word}}"
    command: ./row.sh
vars-file: ports.csv
`)
	want := []string{"8080, listens: pass 1/1", "9090, listens: fail 0/1", "8080, shouts: fail 0/1"}
	for _, mode := range []evalrec.Mode{evalrec.Record, evalrec.Offline} {
		rs := f.run(mode, path)
		if got := statuses(rs); !slices.Equal(got, want) {
			t.Fatalf("%s: got %q\nwant %q", mode, got, want)
		}
		if m := rs[0].Cases[1].Message; m != "command ./row.sh: no port 9090 (exit status 1)" {
			t.Errorf("%s: message %q", mode, m)
		}
		if m := rs[0].Cases[2].Message; m != `contains "shouts": the output does not hold it` {
			t.Errorf("%s: message %q", mode, m)
		}
	}
	entries, err := os.ReadDir(evalrec.Folder(path))
	if err != nil || len(entries) != 3 {
		t.Errorf("recordings %v %v", entries, err)
	}
}
