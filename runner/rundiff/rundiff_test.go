package rundiff

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// trial runs the agent body (as tester) against a loopback model that
// answers reply, and returns the run's folder.
func trial(t *testing.T, srv *modeltest.Server, base, body, reply string) string {
	t.Helper()
	home := lint.NewHome(filepath.Join(base, fmt.Sprintf("home-%d", time.Now().UnixNano())), "")
	hometest.Write(t, home.Base, map[string]string{
		"agents/tester.md":    "---\nname: tester\ndescription: Tries things\n---\n" + body,
		"config/netclaw.json": trialtest.Model{Endpoint: srv.Endpoint(wire.OpenAI)}.Config(),
	})
	cat, err := lint.Scan(home, lint.ScanOptions{Environ: []string{}})
	if err != nil || cat.Agent("tester") == nil {
		t.Fatalf("the tester did not load: %v %v", err, cat.Diagnostics())
	}
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(base, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Text(reply), modeltest.Stop()}, Usage: &modeltest.Usage{InputTokens: 100, OutputTokens: len(strings.Fields(reply))}})
	run, err := rn.Start(context.Background(), runner.Spec{Agent: cat.Agent("tester"), Config: cat.Config, Task: "find the port"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return rec.Dir
}

func load(t testing.TB, dir string) *Run {
	t.Helper()
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCompareRealRuns runs the same task twice against the loopback model,
// with the body edited in between: the comparison names the body as the
// part that changed, and the output diff has the words that changed.
func TestCompareRealRuns(t *testing.T) {
	srv := modeltest.NewServer()
	t.Cleanup(srv.Close)
	base := t.TempDir()
	a := trial(t, srv, base, "You are a tester.\n", "The service listens on port 8080 today.")
	b := trial(t, srv, base, "You are a careful tester.\nCheck twice.\n", "The service listens on port 9090 today.")
	c := Compare(load(t, a), load(t, b))

	if !c.Request.Compared || strings.Join(c.Request.Changed, ",") != "body" {
		t.Errorf("changed parts = %v (compared %v), want [body]; parts %+v", c.Request.Changed, c.Request.Compared, c.Request.Parts)
	}
	var body PartDiff
	for _, p := range c.Request.Parts {
		if p.Part == "body" {
			body = p
		}
	}
	if !strings.Contains(body.Diff, "-You are a tester.") || !strings.Contains(body.Diff, "+You are a careful tester.") || !strings.Contains(body.Diff, "+Check twice.") {
		t.Errorf("body diff:\n%s", body.Diff)
	}
	if c.Output.Same || c.Output.Added != 1 || c.Output.Removed != 1 {
		t.Errorf("output diff %+v", c.Output)
	}
	if c.DifferentAgent || c.DifferentModel || c.Outcome.Changed {
		t.Errorf("same agent, model and outcome reported different: %+v", c)
	}
	text := Text(c, false)
	for _, want := range []string{
		"Request      1 of 3 parts changed: body\n",
		"Output       7 → 7 words (0): 1 added, 1 removed\n",
		"## Request: body (changed)\n",
		"The service listens on port [-8080-]{+9090+} today.\n",
		"Outcome      Completed (unchanged)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b") {
		t.Errorf("text without colour has escape codes:\n%q", text)
	}
	if col := Text(c, true); !strings.Contains(col, sgrGreen+"9090"+sgrReset) {
		t.Errorf("coloured text lacks the green word:\n%q", col)
	}
	if _, err := json.Marshal(c); err != nil {
		t.Fatal(err)
	}
}

// TestOlderRunFolder: a run.json without part lengths (an older agentdesk)
// is compared with the system prompt as one part, and says so; a folder
// without a transcript or without run.json says what it lacks.
func TestOlderRunFolder(t *testing.T) {
	srv := modeltest.NewServer()
	t.Cleanup(srv.Close)
	base := t.TempDir()
	a := trial(t, srv, base, "You are a tester.\n", "one")
	b := trial(t, srv, base, "You are a tester. Be brief.\n", "two")
	// Make a look like an older run: no part lengths.
	data, err := os.ReadFile(filepath.Join(a, runfolder.RunFile))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, p := range raw["prompt"].(map[string]any)["parts"].([]any) {
		delete(p.(map[string]any), "bytes")
	}
	data, _ = json.Marshal(raw)
	hometest.WriteFile(t, filepath.Join(a, runfolder.RunFile), string(data))

	c := Compare(load(t, a), load(t, b))
	if strings.Join(c.Request.Changed, ",") != PartSystem {
		t.Errorf("changed = %v, want the whole system prompt", c.Request.Changed)
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "older agentdesk") {
		t.Errorf("notes %v do not say why", c.Notes)
	}

	if err := os.Remove(filepath.Join(b, runfolder.TranscriptFile)); err != nil {
		t.Fatal(err)
	}
	rb := load(t, b)
	if len(rb.Notes) != 1 || !strings.Contains(rb.Notes[0], "has no transcript.jsonl") {
		t.Errorf("notes %v", rb.Notes)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "has no run.json") {
		t.Errorf("a folder without run.json: %v", err)
	}
}

func TestCompareCalls(t *testing.T) {
	call := func(name, args, label string) runfolder.ToolCall {
		return runfolder.ToolCall{Name: name, Arguments: args, Result: &runfolder.ToolResult{Label: label}}
	}
	a := []runfolder.ToolCall{
		call("file_read", `{"Path":"a.txt"}`, "overlay"),
		call("shell_execute", `{"Command":"ls"}`, "approved"),
		call("file_read", `{"Path":"b.txt"}`, "overlay"),
	}
	b := []runfolder.ToolCall{
		call("file_read", `{ "Path": "a.txt" }`, "overlay"),
		call("search_tools", `{"Query":"web"}`, "real"),
		call("shell_execute", `{"Command":"ls -la"}`, "approved"),
	}
	d := compareCalls(a, b)
	var ops []string
	for _, s := range d.Steps {
		ops = append(ops, s.Op+":"+s.Name)
	}
	want := "same:file_read,added:search_tools,changed:shell_execute,removed:file_read"
	if strings.Join(ops, ",") != want {
		t.Errorf("steps = %v, want %s", ops, want)
	}
	if d.Added != 1 || d.Removed != 1 || d.Changed != 1 || d.Same != 1 {
		t.Errorf("counts %+v", d)
	}
}

func TestCompareOutputs(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"", "", ""},
		{"same words", "same words", "=same words"},
		{"a b c", "a x c", "=a |-b|+x|= c"},
		{"line one\nline two", "line one\n\nline two", "=line one\n|+\n|=line two"},
		{"", "new", "+new"},
		{"old", "", "-old"},
	} {
		d := compareOutputs(tc.a, tc.b)
		var got []string
		var before, after strings.Builder
		for _, s := range d.Spans {
			got = append(got, s.Op+s.Text)
			if s.Op != SpanAdded {
				before.WriteString(s.Text)
			}
			if s.Op != SpanRemoved {
				after.WriteString(s.Text)
			}
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%q → %q: spans %q, want %q", tc.a, tc.b, strings.Join(got, "|"), tc.want)
		}
		if before.String() != tc.a || after.String() != tc.b {
			t.Errorf("%q → %q: spans rebuild %q and %q", tc.a, tc.b, before.String(), after.String())
		}
	}
}

// TestTextEscapes: control characters from a model never reach the
// terminal raw, coloured or not.
func TestTextEscapes(t *testing.T) {
	a := &Run{Record: runfolder.Record{RunID: "a", Output: "clean \x1b[2J text"}}
	b := &Run{Record: runfolder.Record{RunID: "b", Output: "clean \x1b]0;owned\x07 text"}}
	for _, color := range []bool{false, true} {
		out := Text(Compare(a, b), color)
		stripped := strings.NewReplacer(sgrReset, "", sgrBold, "", sgrDim, "", sgrRed, "", sgrGreen, "").Replace(out)
		if strings.ContainsAny(stripped, "\x1b\x07") {
			t.Errorf("color=%v: raw control characters in %q", color, out)
		}
	}
}

// TestDiffAnchoredScattered: a long text with edits scattered through it
// diffs to one edit per changed line (lcs alone replaces whole halves).
func TestDiffAnchoredScattered(t *testing.T) {
	var a, b []string
	for i := range 5000 {
		l := fmt.Sprintf("line %d\n", i)
		a = append(a, l)
		if i%50 == 7 {
			l = "changed\n"
		}
		b = append(b, l)
	}
	edits := diffAnchored(a, b)
	if len(edits) != 100 {
		t.Fatalf("%d edits, want 100", len(edits))
	}
	for _, e := range edits {
		if e.End-e.Start != 1 || e.ReplEnd-e.ReplStart != 1 || e.Start%50 != 7 {
			t.Fatalf("edit %+v", e)
		}
	}
}

// TestDifferentAgentsAndModels: allowed, under a heading that says so.
func TestDifferentAgentsAndModels(t *testing.T) {
	a := &Run{Record: runfolder.Record{RunID: "a", Agent: "code-analyst", Model: runfolder.Model{ModelID: "qwen3:30b"}}}
	b := &Run{Record: runfolder.Record{RunID: "b", Agent: "summarizer", Model: runfolder.Model{ModelID: "gpt-x"}}}
	c := Compare(a, b)
	if !c.DifferentAgent || !c.DifferentModel {
		t.Fatalf("flags: %+v", c)
	}
	text := Text(c, false)
	for _, want := range []string{"Different agents: code-analyst → summarizer", "Different models: qwen3:30b → gpt-x"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
}
