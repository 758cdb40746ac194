package runfolder

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
)

// ResultMarkdown renders a finished run's result.md: outcome and reason,
// the error, the output, the evidence (model, timings, usage, finish
// reason, tool calls, limits), the task and context, and the artifact
// paths. Text that came from a model or a file has its control characters
// made visible.
func ResultMarkdown(r *Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Trial run %s\n\n", r.RunID)
	writeSummary(&b, r)
	if r.Error != "" {
		fmt.Fprintf(&b, "\n## Error\n\n%s\n", escapeBlock(r.Error))
	}
	b.WriteString("\n## Output\n\n")
	if termsafe.Visible(r.Output) {
		b.WriteString(escapeBlock(r.Output))
		b.WriteString("\n")
	} else {
		b.WriteString("(no text)\n")
	}
	writeChangesSection(&b, r)
	b.WriteString("\n## Evidence\n\n")
	writeEvidence(&b, r)
	writeMCP(&b, r.MCP)
	writeInputs(&b, r)
	b.WriteString("\n## Artifacts\n\n")
	for _, f := range r.Files {
		fmt.Fprintf(&b, "- %s\n", termsafe.Escape(filepath.Join(r.Dir, f)))
	}
	return b.String()
}

// writeSummary writes the list under result.md's title: state, outcome
// and reason, what ran (agent or frontline, skill, suite), the replay it
// was, and a warning when the system prompt missed a part.
func writeSummary(b *strings.Builder, r *Record) {
	fmt.Fprintf(b, "- State: %s\n", termsafe.Escape(r.State))
	fmt.Fprintf(b, "- Outcome: %s\n", vocab.OutcomeText(r.Outcome))
	fmt.Fprintf(b, "- Reason: %s\n", termsafe.Escape(vocab.ReasonText(r.Reason)))
	switch {
	case r.Frontline != nil:
		fmt.Fprintf(b, "- Frontline: the first reply to a user's request, audience %s\n", termsafe.Escape(r.Frontline.Audience))
	case r.AgentPath != "":
		fmt.Fprintf(b, "- Agent: %s (%s)\n", termsafe.Escape(r.Agent), termsafe.Escape(r.AgentPath))
	default:
		fmt.Fprintf(b, "- Agent: %s\n", termsafe.Escape(r.Agent))
	}
	if r.Skill != "" {
		fmt.Fprintf(b, "- Skill: /%s\n", termsafe.Escape(r.Skill))
	}
	if t := r.Suite; t != nil {
		fmt.Fprintf(b, "- Suite: %s (%s suite %s)\n", termsafe.Escape(t.String()), termsafe.Escape(t.Kind), termsafe.Escape(t.Path))
	}
	if rp := r.Replay; rp != nil {
		writeReplay(b, rp)
	}
	if n := r.Prompt.MissingNotice(); n != "" {
		fmt.Fprintf(b, "- Warning: %s\n", termsafe.Escape(n))
	}
}

// writeReplay writes the summary line of a replayed run: what was
// recorded when, from which cassette, at what speed.
func writeReplay(b *strings.Builder, rp *ReplayRecord) {
	speed := "at recorded speed"
	if rp.Fast {
		speed = "fast (on the recorded timeline)"
	}
	from := "a recorded run"
	if rp.RecordedRun != "" {
		from = "run " + termsafe.Escape(rp.RecordedRun)
	}
	fmt.Fprintf(b, "- Replay: of %s recorded %s, from %s, %s; no model was called\n", from, rp.RecordedAt.UTC().Format(time.RFC3339), termsafe.Escape(rp.Cassette), speed)
}

// writeEvidence writes the Evidence section's list: the model, the
// hashes of what was sent, timings, finish reason, usage, the prompt's
// parts, model calls, tools and tool calls, limits and the sandbox.
func writeEvidence(b *strings.Builder, r *Record) {
	m := r.Model
	fmt.Fprintf(b, "- Model: %s at %s (provider %s, type %s)\n", termsafe.Escape(m.ModelID), termsafe.Escape(m.Endpoint), termsafe.Escape(m.Provider), termsafe.Escape(m.Type))
	fmt.Fprintf(b, "- Model role: %s, from %s\n", m.Role, termsafe.Escape(m.Via))
	if r.Frontline == nil {
		fmt.Fprintf(b, "- Agent file SHA-256: %s\n", r.AgentSHA256)
	} else {
		fmt.Fprintf(b, "- System messages SHA-256: %s\n", r.Frontline.SystemsSHA256)
	}
	writeTimings(b, r)
	fmt.Fprintf(b, "- Usage: %d input, %d output, %d reasoning tokens\n", r.Usage.InputTokens, r.Usage.OutputTokens, r.Usage.ReasoningTokens)
	writePrompt(b, r.Prompt)
	if n := r.Counts.Nudges; n > 0 {
		fmt.Fprintf(b, "- Model calls: %d (%d after a nudge: the reply before held no answer)\n", r.Counts.ModelCalls, n)
	} else {
		fmt.Fprintf(b, "- Model calls: %d\n", r.Counts.ModelCalls)
	}
	fmt.Fprintf(b, "- Tools: %s\n", termsafe.Escape(describeTools(r)))
	writeToolCalls(b, r)
	l := r.Limits
	fmt.Fprintf(b, "- Limits: prefill %s, inter-delta %s, no-progress %s, thinking-only %s\n",
		millis(l.PrefillMS), millis(l.InterDeltaMS), millis(l.NoProgressMS), millis(l.ThinkingOnlyMS))
	if r.Sandbox != nil {
		fmt.Fprintf(b, "- Commands: %s\n", termsafe.Escape(r.Sandbox.String()))
	}
}

// writeTimings writes when the run started and ended, when the first
// delta came, and the finish reason the stream gave.
func writeTimings(b *strings.Builder, r *Record) {
	fmt.Fprintf(b, "- Started: %s\n", r.StartedAt.UTC().Format(time.RFC3339Nano))
	if r.EndedAt != nil {
		fmt.Fprintf(b, "- Ended: %s (%d ms)\n", r.EndedAt.UTC().Format(time.RFC3339Nano), r.Timings.TotalMS)
	}
	if r.Timings.FirstDeltaMS != nil {
		fmt.Fprintf(b, "- First text, thinking or tool call: %d ms\n", *r.Timings.FirstDeltaMS)
	} else {
		b.WriteString("- First text, thinking or tool call: none\n")
	}
	finish := "none (the stream ended without one)"
	if r.FinishReason != "" {
		finish = fmt.Sprintf("%q", r.FinishReason)
	}
	fmt.Fprintf(b, "- Finish reason: %s\n", termsafe.Escape(finish))
}

// writeToolCalls writes the tool-call counts, then each call with its
// result. Tool calls are numbered <model call>.<nth call of it>, so
// calls the model made in parallel in one reply are told apart.
func writeToolCalls(b *strings.Builder, r *Record) {
	if len(r.ToolCalls) == 0 {
		b.WriteString("- Tool calls: none\n")
		return
	}
	c := r.Counts
	fmt.Fprintf(b, "- Tool calls: %d (%d answered, %d errors, %d refused, %d by the cycle guard), numbered model call.tool call\n", len(r.ToolCalls), c.ToolResults, c.ToolErrors, c.ToolRefused, c.GuardRefusals)
	nth, prevCall := 0, -1
	for _, tc := range r.ToolCalls {
		state := ""
		if !tc.Complete {
			state = " (arguments cut off)"
		}
		if tc.Call != prevCall {
			nth, prevCall = 0, tc.Call
		}
		nth++
		fmt.Fprintf(b, "  - call %d.%d: %s %s%s\n", tc.Call, nth, termsafe.Escape(tc.Name), termsafe.Escape(tc.Arguments), state)
		writeToolResult(b, tc.Result)
	}
}

// writeInputs writes what the run was given: the task (or a frontline
// run's request and system messages), the context, and what the parent
// receives.
func writeInputs(b *strings.Builder, r *Record) {
	if fl := r.Frontline; fl != nil {
		fmt.Fprintf(b, "\n## Request\n\n%s\n", escapeBlock(r.Task))
		for i, s := range fl.Systems {
			fmt.Fprintf(b, "\n## System message %d\n\n%s\n", i+1, escapeBlock(s))
		}
	} else {
		fmt.Fprintf(b, "\n## Task\n\n%s\n", escapeBlock(r.Task))
	}
	if strings.TrimSpace(r.Context) != "" {
		fmt.Fprintf(b, "\n## Context\n\n%s\n", escapeBlock(r.Context))
	}
	if lines := r.Parent.Lines(); len(lines) > 0 {
		b.WriteString("\n## What the parent receives\n\n")
		for _, l := range lines {
			fmt.Fprintf(b, "- %s\n", l)
		}
	}
}

// resultLines and resultBytes cap a tool result in result.md; run.json
// and transcript.jsonl hold more of it.
const (
	resultLines = 8
	resultBytes = 1 << 10
)

// writeToolResult writes the evidence of one tool result under its call:
// what it was, then its first lines, indented, control characters made
// visible.
func writeToolResult(b *strings.Builder, res *ToolResult) {
	if res == nil {
		b.WriteString("    - not answered\n")
		return
	}
	var what []string
	switch res.Guard {
	case "refuse":
		what = append(what, "refused by the cycle guard")
	case "stop":
		what = append(what, "ended the run (repeat after the cycle guard's correction)")
	default:
		switch {
		case res.Refused:
			what = append(what, "refused")
		case res.Error:
			what = append(what, "error")
		default:
			what = append(what, "ok")
		}
	}
	if res.Label != "" {
		what = append(what, res.Label)
	}
	if res.Cut {
		what = append(what, "cut by the tool")
	}
	if res.Replayed {
		what = append(what, "from the cassette")
	}
	fmt.Fprintf(b, "    - result: %s, %d bytes\n", strings.Join(what, ", "), res.Bytes)
	text := res.Text
	short := len(text) > resultBytes
	if short {
		text = strings.ToValidUTF8(text[:resultBytes], "")
	}
	lines, more := firstLines(text, resultLines)
	if len(lines) == 1 && lines[0] == "" {
		return
	}
	for _, l := range lines {
		fmt.Fprintf(b, "      > %s\n", termsafe.Escape(l))
	}
	if more || short || len(res.Text) < res.Bytes {
		b.WriteString("      > …\n")
	}
}

func millis(n int64) string {
	if n <= 0 {
		return "off"
	}
	return (time.Duration(n) * time.Millisecond).String()
}

// escapeBlock makes control characters in a block of text visible
// (termsafe.EscapeLines), without the line breaks at its end.
func escapeBlock(s string) string {
	return termsafe.EscapeLines(strings.TrimRight(s, "\r\n"))
}

// TruncatedMarkdown renders truncated-output.md: a line marking the text
// as partial, then the redacted text of a reply cut at the output limit.
func TruncatedMarkdown(r *Record) string {
	finish := r.FinishReason
	return fmt.Sprintf("> **Partial output.** The reply of run %s stopped at the model's output limit (finish %q): it is cut off, so it is not a result. Ask the agent for a shorter answer, or to write long output to a file and return its path.\n\n%s\n",
		r.RunID, finish, escapeBlock(r.Output))
}

// Shorten returns the first n characters of s on one line, with "…" when
// it was cut.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// writePrompt lists what the system prompt was made of.
func writePrompt(b *strings.Builder, p *PromptRecord) {
	if p == nil {
		return
	}
	fmt.Fprintf(b, "- System prompt (audience %s):", termsafe.Escape(p.Audience))
	total := 0
	for _, part := range p.Parts {
		total += part.Tokens
	}
	fmt.Fprintf(b, " %d parts, %d tokens\n", len(p.Parts), total)
	for _, part := range p.Parts {
		fmt.Fprintf(b, "  - %s: %d tokens, from %s\n", part.Part, part.Tokens, termsafe.Escape(part.Source))
	}
	for _, m := range p.Missing {
		fmt.Fprintf(b, "  - %s: missing (%s)\n", m, termsafe.Escape(p.MissingReasons[m]))
	}
	if p.CoreSource != "" {
		v := ""
		if p.CoreVersion != "" {
			v = ", NetClaw " + termsafe.Escape(p.CoreVersion)
		}
		fmt.Fprintf(b, "- Operating core: %s%s\n", termsafe.Escape(p.CoreSource), v)
	}
}

// describeTools says, for result.md, what tools a run offered.
func describeTools(rec *Record) string {
	switch {
	case len(rec.Tools) == 0:
		return "none offered"
	case rec.Frontline != nil:
		return strings.Join(rec.Tools, ", ") + " (offered; the run is the first reply, no tool runs)"
	case rec.Replay != nil:
		return strings.Join(rec.Tools, ", ") + " (results played from the cassette)"
	}
	return fmt.Sprintf("%s, in %s", strings.Join(rec.Tools, ", "), rec.Project)
}

// writeMCP renders the run's servers and notes for result.md.
func writeMCP(b *strings.Builder, m *MCPRecord) {
	if m == nil {
		return
	}
	b.WriteString("\n## MCP servers\n\n")
	for _, s := range m.Servers {
		line := fmt.Sprintf("%s (%s): %s", s.Name, s.Transport, s.State)
		switch {
		case s.Detail != "":
			line += ": " + s.Detail
		case len(s.Tools) > 0:
			line += fmt.Sprintf(", %d tools (%s)", len(s.Tools), strings.Join(s.Tools, ", "))
		}
		fmt.Fprintf(b, "- %s\n", termsafe.Escape(line))
	}
	for _, n := range m.Notes {
		fmt.Fprintf(b, "- Note: %s\n", termsafe.Escape(n))
	}
}

// firstLines returns up to n lines of s and whether there were more.
func firstLines(s string, n int) ([]string, bool) {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		return lines[:n], true
	}
	return lines, false
}
