package suite

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// maxLines caps the output lines a failure quotes.
const maxLines = 5

// Check returns the expectations of e (all but the judge) that the run
// rec does not meet, in the order the suite documents them.
func Check(e suitefile.Expect, rec *runfolder.Record) []Failure {
	return check(e, rec, func() (int, bool) { return OutputTokens(rec) })
}

// check is Check with the run's output tokens (OutputTokens) asked of
// outputTokens, only when a cap needs them: a sample counts them once
// for its result and its check.
func check(e suitefile.Expect, rec *runfolder.Record, outputTokens func() (int, bool)) []Failure {
	var c checker
	c.ending(e, rec)
	c.output(e, rec.Output)
	c.toolCalls(e, rec)
	c.limits(e, rec, outputTokens)
	return c.out
}

// checker gathers the failures of one run's check.
type checker struct {
	out []Failure
}

// fail records an expectation the run did not meet.
func (c *checker) fail(key, expect, msg string, lines []string) {
	c.out = append(c.out, Failure{Key: key, Expect: expect, Message: msg, Lines: lines})
}

// ending checks how the run ended: outcome and reason.
func (c *checker) ending(e suitefile.Expect, rec *runfolder.Record) {
	ended := string(rec.Outcome)
	if rec.Reason != "" {
		ended += " (" + rec.Reason + ")"
	}
	if e.Outcome != "" && string(rec.Outcome) != e.Outcome {
		msg := "the run ended " + ended
		if first := firstLine(rec.Error); first != "" {
			msg += ": " + first
		}
		c.fail("outcome", "outcome "+e.Outcome, msg, nil)
	}
	if e.Reason != "" && rec.Reason != e.Reason {
		c.fail("reason", "reason "+e.Reason, "the run ended "+ended, nil)
	}
}

// output checks the run's output: contains, not-contains and matches.
func (c *checker) output(e suitefile.Expect, output string) {
	lower := strings.ToLower(output)
	for _, s := range e.Contains {
		if !strings.Contains(lower, strings.ToLower(s)) {
			c.fail("contains", fmt.Sprintf("contains %q", s), "the output does not hold it", headLines(output))
		}
	}
	for _, s := range e.NotContains {
		if strings.Contains(lower, strings.ToLower(s)) {
			c.fail("not-contains", fmt.Sprintf("not-contains %q", s), "the output holds it", linesWith(output, func(l string) bool {
				return strings.Contains(strings.ToLower(l), strings.ToLower(s))
			}))
		}
	}
	for _, re := range e.Matches {
		if !re.MatchString(output) {
			c.fail("matches", fmt.Sprintf("matches %q", re.String()), "the output does not match", headLines(output))
		}
	}
}

// toolCalls checks the run's tool calls: tools (by name, or with
// arguments), no-tools and max-tool-calls. A failure lists the tools
// called, in the order first called.
func (c *checker) toolCalls(e suitefile.Expect, rec *runfolder.Record) {
	called := map[string]int{}
	var names []string
	for _, tc := range rec.ToolCalls {
		if called[tc.Name] == 0 {
			names = append(names, tc.Name)
		}
		called[tc.Name]++
	}
	calledList := "none"
	if len(names) > 0 {
		calledList = strings.Join(names, ", ")
	}
	for _, t := range e.Tools {
		if called[t] == 0 {
			c.fail("tools", "tools "+t, notOffered(rec, t)+"it was never called (called: "+calledList+")", nil)
		}
	}
	for _, want := range e.ToolCalls {
		if !calledWith(rec, want) {
			c.fail("tools", fmt.Sprintf("tools %s with %s", want.Name, argsText(want.Args)), "no call of it had these arguments (called: "+calledList+")", nil)
		}
	}
	for _, t := range e.NoTools {
		if n := called[t]; n > 0 {
			c.fail("no-tools", "no-tools "+t, fmt.Sprintf("it was called %d time%s", n, plural(n)), nil)
		}
	}
	if e.MaxToolCalls >= 0 && len(rec.ToolCalls) > e.MaxToolCalls {
		c.fail("max-tool-calls", fmt.Sprintf("max-tool-calls %d", e.MaxToolCalls), fmt.Sprintf("the run made %d tool calls (%s)", len(rec.ToolCalls), calledList), nil)
	}
}

// limits checks max-seconds and max-output-tokens; the output tokens
// are asked of outputTokens only when a cap is set.
func (c *checker) limits(e suitefile.Expect, rec *runfolder.Record, outputTokens func() (int, bool)) {
	if e.MaxSeconds > 0 {
		took := time.Duration(rec.Timings.TotalMS) * time.Millisecond
		if took.Seconds() > e.MaxSeconds {
			c.fail("max-seconds", fmt.Sprintf("max-seconds %v", e.MaxSeconds), fmt.Sprintf("the run took %s", took.Round(10*time.Millisecond)), nil)
		}
	}
	if e.MaxOutputTokens < 0 {
		return
	}
	if n, counted := outputTokens(); n > e.MaxOutputTokens {
		msg := fmt.Sprintf("the reply took %d output tokens", n)
		if counted {
			msg = fmt.Sprintf("the reply holds about %d tokens, counted by agentdesk's tokenizer from the final output: the provider reported no usage", n)
		}
		c.fail("max-output-tokens", fmt.Sprintf("max-output-tokens %d", e.MaxOutputTokens), msg, nil)
	}
}

// OutputTokens is a run's output tokens as its provider reported them;
// when it reported none (some servers do not), the final output counted
// with agentdesk's tokenizer (lint.CountTokens, the one its token
// estimates use), and counted is set.
func OutputTokens(rec *runfolder.Record) (n int, counted bool) {
	if rec.Usage.OutputTokens > 0 || rec.Output == "" {
		return rec.Usage.OutputTokens, false
	}
	return lint.CountTokens(rec.Output), true
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// headLines returns the output's first non-blank lines, numbered.
func headLines(output string) []string {
	if strings.TrimSpace(output) == "" {
		return []string{"(the output is empty)"}
	}
	return linesWith(output, func(l string) bool { return strings.TrimSpace(l) != "" })
}

// linesWith returns up to maxLines lines of output that keep says are
// relevant, numbered from 1, with a last line saying how many more.
func linesWith(output string, keep func(string) bool) []string {
	var out []string
	more := 0
	for i, l := range strings.Split(output, "\n") {
		if !keep(l) {
			continue
		}
		if len(out) == maxLines {
			more++
			continue
		}
		l = strings.TrimRight(l, "\r")
		if r := []rune(l); len(r) > 160 {
			l = string(r[:160]) + "…"
		}
		out = append(out, fmt.Sprintf("%d: %s", i+1, l))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("(%d more)", more))
	}
	return slices.Clip(out)
}

// notOffered says, before "it was never called", that the run did not
// offer the tool at all (a misspelt name, a tool of another audience or
// switched off), with the offered name it is closest to: "" when it was
// offered (from the start, or deferred: listed in the tool index for the
// model to load), when the run offered no tools, or for an MCP tool
// (server__tool), which is deferred and loaded by the model.
func notOffered(rec *runfolder.Record, name string) string {
	if len(rec.Tools) == 0 || slices.Contains(rec.Tools, name) || slices.Contains(rec.DeferredTools, name) || strings.Contains(name, "__") {
		return ""
	}
	msg := "the run did not offer " + name
	if near := lint.Suggest(name, slices.Concat(rec.Tools, rec.DeferredTools), 1); len(near) > 0 {
		msg += " (did you mean " + near[0] + "?)"
	}
	return msg + "; "
}

// calledWith reports whether rec holds a call of want.Name whose
// arguments hold want.Args: argument names match ignoring case and
// punctuation, as the runtime binds them; values are equal as JSON, except that a string naming a path
// (an argument whose name holds "path") is compared after both are taken
// from the run's project folder.
func calledWith(rec *runfolder.Record, want suitefile.ToolCall) bool {
	for _, tc := range rec.ToolCalls {
		if tc.Name != want.Name {
			continue
		}
		var got map[string]any
		if json.Unmarshal([]byte(tc.Arguments), &got) != nil {
			continue
		}
		if argsHold(got, want.Args, rec.Project) {
			return true
		}
	}
	return false
}

// argsHold reports whether got holds every argument of want.
func argsHold(got, want map[string]any, project string) bool {
	for k, wv := range want {
		gv, ok := lookupFold(got, k)
		if !ok {
			return false
		}
		if ws, isStr := wv.(string); isStr && strings.Contains(strings.ToLower(k), "path") {
			gs, ok := gv.(string)
			if !ok || resolvePath(project, gs) != resolvePath(project, ws) {
				return false
			}
			continue
		}
		if !jsonEqual(gv, wv) {
			return false
		}
	}
	return true
}

// lookupFold finds key in m as the runtime binds an argument to a
// parameter: by exact name, else ignoring case, else by its letters and
// digits ignoring case (start_line is StartLine). Among several keys of
// one kind the alphabetically first wins, so the answer does not depend
// on map order.
func lookupFold(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range keys {
		if strings.EqualFold(k, key) {
			return m[k], true
		}
	}
	norm := request.NormalizeKey(key)
	for _, k := range keys {
		if strings.EqualFold(request.NormalizeKey(k), norm) {
			return m[k], true
		}
	}
	return nil, false
}

// resolvePath is p taken from the project folder, cleaned.
func resolvePath(project, p string) string {
	if !filepath.IsAbs(p) && project != "" {
		p = filepath.Join(project, p)
	}
	return filepath.Clean(p)
}

// jsonEqual compares a YAML value with a JSON one through their JSON text.
func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var na, nb any
	if json.Unmarshal(ja, &na) != nil || json.Unmarshal(jb, &nb) != nil {
		return false
	}
	return reflect.DeepEqual(na, nb)
}

// argsText shows expected arguments compactly.
func argsText(args map[string]any) string {
	b, err := json.Marshal(args)
	if err != nil {
		return fmt.Sprint(args)
	}
	return string(b)
}
