package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/proctree"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// DefaultCommandTimeout is a check program's time limit (expect:
// command:) unless Options.CommandTimeout says otherwise.
const DefaultCommandTimeout = 30 * time.Second

// CommandOutputCap caps what is kept of a check program's standard output
// and of its standard error, each; the rest is read and dropped, so a
// program that prints megabytes neither blocks nor fills the memory.
const CommandOutputCap = 64 << 10

// maxToolsEnv caps AGENTDESK_TOOLS: past it the calls' arguments are left
// out (the names stay; AGENTDESK_RECORD has everything). Linux refuses an
// environment string above 128 KiB.
const maxToolsEnv = 96 << 10

// keptEnv are the variables of agentdesk's own environment a check program
// inherits; everything else (API keys included) is left out.
var keptEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ"}

// CommandFacts are what a check program is told about the sample besides
// the run's record, in environment variables (docs/test.md lists them).
type CommandFacts struct {
	// Suite is the suite file's path; Agent the agent under test; Case
	// and Sample the case and the sample (from 1).
	Suite, Agent, Case string
	Sample             int
	// How is where the sample came from: live, recorded or replay.
	How string
	// Vars are a templated case's row (vars:), each as
	// AGENTDESK_VAR_<name>.
	Vars map[string]string
}

// CommandResult is what a check program decided.
type CommandResult struct {
	// Failure is the failed expectation; nil when the program exited 0.
	Failure *Failure
	// Isolated says the program ran with no network (a network namespace
	// of its own); false where agentdesk cannot make one.
	Isolated bool
}

// RunCommand runs the check program argv (expect: command:) from the
// suite's folder dir with the run's output on stdin and the facts of rec
// and f in its environment, for at most timeout (DefaultCommandTimeout
// when 0), in a process group of its own that is killed when the time is
// up or ctx ends, with no network where the system allows it (see
// isolationAvailable). It passes on exit 0; otherwise the first line of
// its stderr is the reason. An error says the check could not decide: the
// program could not start, or it ran out of time or was cancelled.
func RunCommand(ctx context.Context, argv []string, dir string, rec *runfolder.Record, f CommandFacts, timeout time.Duration) (CommandResult, error) {
	if len(argv) == 0 {
		return CommandResult{}, errors.New("the check has no program")
	}
	shown := strings.Join(argv, " ")
	program, err := suitefile.FindCommand(dir, argv[0])
	if err != nil {
		return CommandResult{}, err
	}
	if timeout <= 0 {
		timeout = DefaultCommandTimeout
	}
	recordFile, err := writeRecord(rec)
	if err != nil {
		return CommandResult{}, fmt.Errorf("check %s: %w", shown, err)
	}
	defer os.Remove(recordFile)

	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	env := commandEnv(rec, f, recordFile)
	stdout, stderr := &capped{max: CommandOutputCap}, &capped{max: CommandOutputCap}
	res := CommandResult{Isolated: isolationAvailable()}
	cmd, err := startCommand(cctx, program, argv, dir, rec.Output, env, res.Isolated, stdout, stderr)
	if err != nil && res.Isolated && isolationRefused(err) {
		// The kernel does not let this user make namespaces after all:
		// run without from now on.
		markIsolationUnavailable()
		res.Isolated = false
		cmd, err = startCommand(cctx, program, argv, dir, rec.Output, env, false, stdout, stderr)
	}
	if err != nil {
		return res, fmt.Errorf("check %s could not start: %w; is it a program, or a script with a #! line?", shown, err)
	}
	werr := cmd.Wait()
	proctree.Cleanup(cmd) // what the check left running, in its group or not
	switch {
	case ctx.Err() != nil:
		return res, fmt.Errorf("check %s was stopped: %w", shown, context.Cause(ctx))
	case cctx.Err() != nil:
		return res, fmt.Errorf("check %s did not end within %s and was killed; make it faster, or look for a read that waits forever", shown, timeout)
	}
	if werr == nil {
		return res, nil
	}
	var exit *exec.ExitError
	if !errors.As(werr, &exit) {
		return res, fmt.Errorf("check %s: %w", shown, werr)
	}
	res.Failure = commandFailure(shown, exit, stdout, stderr)
	return res, nil
}

// startCommand starts the check in a process group of its own (isolated:
// in namespaces of its own too), killed as a group when ctx ends.
func startCommand(ctx context.Context, program string, argv []string, dir, input string, env []string, isolated bool, stdout, stderr *capped) (*exec.Cmd, error) {
	stdout.reset()
	stderr.reset()
	cmd := exec.CommandContext(ctx, program, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if isolated {
		env = append(env[:len(env):len(env)], "AGENTDESK_NETWORK=none")
	} else {
		env = append(env[:len(env):len(env)], unisolatedEnv()...)
	}
	cmd.Env = env
	setCommandGroup(cmd, isolated)
	proctree.Prepare(cmd)
	cmd.Cancel = func() error { return proctree.Kill(cmd) }
	// A grandchild that left the group and holds the pipes open cannot
	// keep the check waiting.
	cmd.WaitDelay = time.Second
	return cmd, proctree.Start(cmd)
}

// unisolatedEnv points a check that runs with the network at a proxy
// that is not there: programs that honour the proxy variables (curl, pip,
// Python's urllib, Go's net/http) then fail to reach the network; one
// that opens sockets itself is not stopped.
func unisolatedEnv() []string {
	const nowhere = "http://127.0.0.1:9"
	var out []string
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		out = append(out, k+"="+nowhere)
	}
	return append(out, "NO_PROXY=", "no_proxy=", "AGENTDESK_NETWORK=not-isolated")
}

// commandFailure is the failed expectation of a check that exited with
// another status than 0: the first line of its stderr is the message, the
// next few lines follow it.
func commandFailure(shown string, exit *exec.ExitError, stdout, stderr *capped) *Failure {
	status := "exit status " + strconv.Itoa(exit.ExitCode())
	if exit.ExitCode() < 0 {
		status = exit.String() // signal: killed
	}
	lines := nonBlank(stderr.String())
	f := &Failure{Key: "command", Expect: "command " + shown}
	if len(lines) == 0 {
		f.Message = fmt.Sprintf("the check failed (%s) and wrote no reason on stderr", status)
	} else {
		f.Message = fmt.Sprintf("%s (%s)", cutRunes(lines[0], 300), status)
		for _, l := range lines[1:] {
			if len(f.Lines) == maxLines {
				f.Lines = append(f.Lines, fmt.Sprintf("(%d more lines on stderr)", len(lines)-1-maxLines))
				break
			}
			f.Lines = append(f.Lines, cutRunes(l, 160))
		}
	}
	for _, c := range []struct {
		name string
		b    *capped
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if c.b.dropped > 0 {
			f.Lines = append(f.Lines, fmt.Sprintf("(its %s was cut at %d KiB; %d bytes more were dropped)", c.name, CommandOutputCap>>10, c.b.dropped))
		}
	}
	return f
}

// nonBlank returns the lines of s that are not blank, trimmed at the right.
func nonBlank(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// cutRunes cuts s to n runes, with an ellipsis.
func cutRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// commandEnv is the check's environment: the few variables of agentdesk's
// own that programs need (keptEnv), and the sample's facts.
func commandEnv(rec *runfolder.Record, f CommandFacts, recordFile string) []string {
	var env []string
	for _, k := range keptEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	set := func(k, v string) { env = append(env, "AGENTDESK_"+k+"="+strings.ReplaceAll(v, "\x00", "")) }
	set("SUITE", f.Suite)
	set("AGENT", f.Agent)
	set("CASE", f.Case)
	set("SAMPLE", strconv.Itoa(f.Sample))
	set("HOW", f.How)
	set("OUTCOME", string(rec.Outcome))
	set("REASON", rec.Reason)
	set("MODEL", rec.Model.ModelID)
	set("MODEL_ROLE", rec.Model.Role)
	set("TOOLS", toolsJSON(rec.ToolCalls))
	set("TOOL_CALLS", strconv.Itoa(len(rec.ToolCalls)))
	set("INPUT_TOKENS", strconv.Itoa(rec.Usage.InputTokens))
	// As the report counts them: the provider's usage, or the output
	// counted with agentdesk's tokenizer when it reported none.
	out, counted := OutputTokens(rec)
	set("OUTPUT_TOKENS", strconv.Itoa(out))
	set("OUTPUT_TOKENS_COUNTED", strconv.FormatBool(counted))
	set("SECONDS", strconv.FormatFloat(float64(rec.Timings.TotalMS)/1000, 'f', 3, 64))
	set("RECORD", recordFile)
	names := make([]string, 0, len(f.Vars))
	for k := range f.Vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		set("VAR_"+k, f.Vars[k])
	}
	return env
}

// commandTool is one tool call in AGENTDESK_TOOLS.
type commandTool struct {
	Name string `json:"name"`
	// Arguments is the call's arguments: their JSON when complete, else
	// the text the model wrote.
	Arguments any  `json:"arguments,omitempty"`
	Error     bool `json:"error,omitempty"`
}

// toolsJSON is AGENTDESK_TOOLS: the tool calls in order, as a JSON list of
// {name, arguments, error}; without arguments when that is too long for
// an environment variable.
func toolsJSON(calls []runfolder.ToolCall) string {
	out := make([]commandTool, 0, len(calls))
	for _, c := range calls {
		t := commandTool{Name: c.Name, Error: c.Result != nil && c.Result.Error}
		if c.Complete && json.Valid([]byte(c.Arguments)) {
			t.Arguments = json.RawMessage(c.Arguments)
		} else if c.Arguments != "" {
			t.Arguments = c.Arguments
		}
		out = append(out, t)
	}
	data, err := json.Marshal(out)
	if err != nil || len(data) > maxToolsEnv {
		for i := range out {
			out[i].Arguments = nil
		}
		data, _ = json.Marshal(out)
	}
	return string(data)
}

// writeRecord writes the run's record as JSON to a temporary file, for
// AGENTDESK_RECORD; the caller removes it.
func writeRecord(rec *runfolder.Record) (string, error) {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("writing the run's record for the check: %w", err)
	}
	f, err := os.CreateTemp("", "agentdesk-check-*.json")
	if err != nil {
		return "", fmt.Errorf("writing the run's record for the check: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("writing the run's record for the check: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing the run's record for the check: %w", err)
	}
	return f.Name(), nil
}

// capped keeps the first max bytes written to it and counts the rest.
type capped struct {
	max     int
	buf     []byte
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - len(c.buf)
	if room > len(p) {
		room = len(p)
	}
	if room > 0 {
		c.buf = append(c.buf, p[:room]...)
	}
	c.dropped += int64(len(p) - max(room, 0))
	return len(p), nil
}

func (c *capped) String() string { return string(c.buf) }

func (c *capped) reset() { c.buf, c.dropped = c.buf[:0], 0 }

// command runs case c's check program on sample n's record and adds its
// failure to res; an error says it could not decide.
func (x *execution) command(ctx context.Context, s *suitefile.Suite, c *suitefile.Case, n int, how string, rec *runfolder.Record, res *SampleResult) error {
	select {
	case x.checks <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("check %s not run: %w", strings.Join(c.Expect.Command, " "), context.Cause(ctx))
	}
	defer func() { <-x.checks }()
	path := s.Path
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	facts := CommandFacts{Suite: path, Agent: s.Agent, Case: c.Name, Sample: n, How: how, Vars: c.Vars}
	cr, err := RunCommand(ctx, c.Expect.Command, filepath.Dir(path), rec, facts, x.o.CommandTimeout)
	if err != nil {
		return err
	}
	if cr.Failure != nil {
		res.Failures = append(res.Failures, *cr.Failure)
	}
	return nil
}
