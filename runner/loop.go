package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// execute runs the tool loop, classifies the end, and writes the run
// folder. It ends runs as NetClaw's SubAgentActor and TurnStateTracker do
// (netclaw-dev/netclaw; SubAgentActor 502847bf, TurnStateTracker a36cc1ee):
//
//   - A reply with tool calls, in a run that offers tools, has them
//     answered (by the tools, or by the cycle guard's correction) and the
//     conversation goes on. There is no cap on tool rounds.
//   - A reply with no text and no tool call (empty, or only thinking) is
//     retried with a nudge, a user turn "[system: …]": up to 5 times before
//     any tool round, 8 after one; a tool round starts the count again.
//     Then the run fails empty_final_response.
//   - A final reply holding unexecuted tool-call markup gets one repair
//     nudge; a second such reply fails malformed_final_output.
//   - A repeat after the cycle guard's correction ends the run Partial,
//     tool_cycle_stopped, with no further model call.
//
// Any other reply ends the run and is classified (Classify). A run still
// ends on its deadlines (the watchdog) and on cancellation.
func (r *Run) execute() {
	msgs := []wire.Message{{Role: "user", Text: r.message}}
	if fl := r.spec.Frontline; fl != nil && fl.Nudge != "" {
		msgs = []wire.Message{{Role: "user", Text: fl.Nudge}, msgs[0]}
	}
	var ev *CallEvidence
	var v Verdict
	var st turnState
	for n := 1; ; n++ {
		ev = r.call(n, msgs)
		r.endCall(ev)
		var final bool
		var nudge string
		if v, final, nudge = r.judge(ev, &st); final {
			break
		}
		if nudge != "" {
			// The reply itself is not kept: the next call sees the
			// history and the nudge (SubAgentActor.AddSystemNudge).
			msgs = append(msgs, wire.Message{Role: "user", Text: "[system: " + nudge + "]"})
			r.mu.Lock()
			r.rec.Counts.Nudges++
			r.mu.Unlock()
		} else {
			results, stop := r.runTools(ev)
			if stop != nil {
				v = *stop
				break
			}
			st.toolRound()
			msgs = append(msgs, wire.Message{Role: "assistant", Text: ev.Text, ToolCalls: ev.ToolCalls})
			msgs = append(msgs, results...)
		}
		if r.ctx.Err() != nil {
			v = Classify(&CallEvidence{Cancelled: true})
			break
		}
	}
	r.finish(ev, v)
}

// NetClaw's limits and texts for replies that are not an answer
// (TurnStateTracker a36cc1ee; SubAgentActor 502847bf).
const (
	// MaxPreToolEmptyRetries is how many empty or thinking-only replies
	// are retried before any tool round.
	MaxPreToolEmptyRetries = 5
	// MaxPostToolEmptyRetries is how many are retried after one.
	MaxPostToolEmptyRetries = 8

	// ThinkingOnlyNudge answers a reply that held only thinking.
	ThinkingOnlyNudge = "Your last response contained only reasoning and no reply to the user. " +
		"Stop thinking and write your answer now as a normal assistant message."
	// PreToolEmptyNudge answers an empty reply before any tool round.
	PreToolEmptyNudge = "Your previous response was empty. If you need MCP capabilities, call search_tools(\"servers\") to pick a server " +
		"(for example browser, memory, or email), then call search_tools(\"<intent>\", server: \"<server_name>\") to load tools. " +
		"MCP tools are not directly callable until loaded via search_tools."
	// PostToolEmptyNudge answers an empty reply after a tool round.
	PostToolEmptyNudge = "You received tool results but did not respond. " +
		"Continue working or produce your final response."
	// EmptyResponseFailureMessage is NetClaw's failure text once the
	// retries are spent.
	EmptyResponseFailureMessage = "I didn't manage to produce a reply. Please try rephrasing or sending your request again."

	// MalformedFinalOutputNudge answers a final reply holding unexecuted
	// tool-call markup (SubAgentActor).
	MalformedFinalOutputNudge = "The previous response emitted unexecuted tool-call markup as plain text. " +
		"That text was not executed and cannot be returned as a successful final output. " +
		"If tools are available and you still need those operations, call the tools using structured tool calls now. " +
		"Otherwise provide a final answer based only on executed tool results. " +
		"Do not include <function=...>, <parameter=...>, or </tool_call> markup in final text."
	// MalformedFinalOutputMessage is NetClaw's failure text when the
	// markup comes back after the repair nudge.
	MalformedFinalOutputMessage = "Subagent produced malformed final output: it emitted unexecuted tool calls as text. This was not a timeout."
)

// turnState counts what TurnStateTracker counts for one run.
type turnState struct {
	toolRounds          int
	preEmpty, postEmpty int
	markupRepaired      bool
}

// toolRound notes a tool round: the model is working, so the empty-reply
// counts start again (ResetEmptyResponseGuards).
func (st *turnState) toolRound() {
	st.toolRounds++
	st.preEmpty, st.postEmpty = 0, 0
}

// emptyNudge is TurnStateTracker.EvaluateEmptyResponse: the nudge for one
// more empty reply, or "" when the retries are spent (then how many
// replies in a row were empty, and the limit).
func (st *turnState) emptyNudge(thought bool) (nudge string, count, limit int) {
	if st.toolRounds == 0 {
		st.preEmpty++
		if st.preEmpty > MaxPreToolEmptyRetries {
			return "", st.preEmpty, MaxPreToolEmptyRetries
		}
		if thought {
			return ThinkingOnlyNudge, 0, 0
		}
		return PreToolEmptyNudge, 0, 0
	}
	st.postEmpty++
	if st.postEmpty > MaxPostToolEmptyRetries {
		return "", st.postEmpty, MaxPostToolEmptyRetries
	}
	if thought {
		return ThinkingOnlyNudge, 0, 0
	}
	return PostToolEmptyNudge, 0, 0
}

// judge decides what follows a reply: the end of the run (final, with its
// verdict), a nudge to send, or (neither) its tool calls to run.
func (r *Run) judge(ev *CallEvidence, st *turnState) (v Verdict, final bool, nudge string) {
	v = Classify(ev)
	if r.spec.Frontline != nil {
		// The first reply is the answer: a tool call is what was asked.
		if v.Reason == vocab.ReasonEmptyFinalResponse && len(ev.ToolCalls) > 0 {
			v = Verdict{Outcome: vocab.Completed}
		}
		return v, true, ""
	}
	if v.Outcome != vocab.Completed && v.Reason != vocab.ReasonEmptyFinalResponse {
		return v, true, "" // failed, cut off, timed out, cancelled
	}
	if len(ev.ToolCalls) > 0 {
		if r.toolsOn {
			return Verdict{}, false, ""
		}
		return v, true, "" // a trial with no tools: nothing runs them
	}
	if v.Reason == vocab.ReasonEmptyFinalResponse {
		return judgeEmpty(v, ev, st)
	}
	if ContainsUnexecutedToolCallMarkup(ev.Text) {
		if !st.markupRepaired {
			st.markupRepaired = true
			return Verdict{}, false, MalformedFinalOutputNudge
		}
		return Verdict{Outcome: vocab.Failed, Reason: vocab.ReasonMalformedFinalOutput, Message: MalformedFinalOutputMessage +
			" (the reply holds lines that start a tool call, such as <tool_call> or <function=, outside code fences, after the repair nudge)"}, true, ""
	}
	return v, true, ""
}

// judgeEmpty decides what follows a reply with no text (v its verdict):
// a nudge, as NetClaw retries, or, once the nudges are used up, the end
// of the run, its message saying how many empty replies came.
func judgeEmpty(v Verdict, ev *CallEvidence, st *turnState) (Verdict, bool, string) {
	n, count, limit := st.emptyNudge(ev.Thought)
	if n != "" {
		return Verdict{}, false, n
	}
	phase := "before any tool call"
	if st.toolRounds > 0 {
		phase = "after its last tool call"
	}
	v.Message = fmt.Sprintf("%s (%s; NetClaw retries %d times %s with a nudge, then fails: %s)",
		v.Message, pluralReplies(count, phase), limit, phase, EmptyResponseFailureMessage)
	return v, true, ""
}

// pluralReplies says how many empty replies came in a row.
func pluralReplies(n int, phase string) string {
	return fmt.Sprintf("%d empty replies in a row %s", n, phase)
}

// ContainsUnexecutedToolCallMarkup reports whether a final reply holds a
// line that starts with tool-call markup (<tool_call, </tool_call>,
// <function=, <parameter=, </function>, </parameter>; any case) outside
// code fences (``` or ~~~) and quoted lines (>), as
// SubAgentActor.ContainsUnexecutedToolCallMarkup (502847bf) does.
func ContainsUnexecutedToolCallMarkup(text string) bool {
	if strings.Contains(text, "\r") {
		// Line ends as .NET's ReplaceLineEndings reads them.
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	}
	inFence := false
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimLeft(line, " \t\v\f")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(t, ">") {
			continue
		}
		for _, p := range markupPrefixes {
			if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
				return true
			}
		}
	}
	return false
}

// markupPrefixes start a line of unexecuted tool-call markup.
var markupPrefixes = []string{"<tool_call", "</tool_call>", "<function=", "<parameter=", "</function>", "</parameter>"}

// endCall adds a finished model call to the record: its usage, first
// delta, finish reason and tool calls, and, when recording, its bytes.
func (r *Run) endCall(ev *CallEvidence) {
	for i := range ev.ToolCalls {
		if ev.ToolCalls[i].ID == "" {
			// Ollama gives no ids; the turns that answer a call need
			// one to name it (and a replay makes the same).
			ev.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d", ev.N, ev.ToolCalls[i].Index)
		}
	}
	r.mu.Lock()
	r.usage.InputTokens += ev.Usage.InputTokens
	r.usage.OutputTokens += ev.Usage.OutputTokens
	r.usage.ReasoningTokens += ev.Usage.ReasoningTokens
	rec := &r.rec
	rec.Usage = runfolder.Usage(r.usage)
	rec.FinishReason = r.red.String(ev.Finish)
	if rec.Timings.FirstDeltaMS == nil && ev.HasFirstDelta {
		ms := ev.Start.Add(ev.FirstDelta).Sub(r.start).Milliseconds()
		rec.Timings.FirstDeltaMS = &ms
	}
	for _, tc := range ev.ToolCalls {
		rec.ToolCalls = append(rec.ToolCalls, r.toolCall(ev.N, tc))
	}
	rec.Counts.ToolCalls = len(rec.ToolCalls)
	r.mu.Unlock()
	if r.recorder != nil {
		r.tapeCall(ev)
	}
}

// usageSoFar returns the run's usage with the current call's counts u.
func (r *Run) usageSoFar(u wire.TokenUsage) runfolder.Usage {
	return runfolder.Usage{
		InputTokens:     r.usage.InputTokens + u.InputTokens,
		OutputTokens:    r.usage.OutputTokens + u.OutputTokens,
		ReasoningTokens: r.usage.ReasoningTokens + u.ReasoningTokens,
	}
}

// runTools answers the tool calls of a reply: the cycle guard decides the
// batch first, then each allowed call runs (or, in a replay, its recorded
// result is played) and each refused one gets the correction. It returns
// the tool turns for the next call, or the verdict that ends the run when
// the guard stops it or a call fails the run.
func (r *Run) runTools(ev *CallEvidence) ([]wire.Message, *Verdict) {
	r.mu.Lock()
	base := len(r.rec.ToolCalls) - len(ev.ToolCalls)
	r.mu.Unlock()
	calls := make([]tools.GuardCall, len(ev.ToolCalls))
	for i, tc := range ev.ToolCalls {
		calls[i] = tools.GuardCall{Name: tc.Name, Args: json.RawMessage(tc.Arguments)}
	}
	batch := r.guard.Prepare(calls)
	d := r.guard.Admit(batch)
	results := make([]tools.Result, len(ev.ToolCalls))
	var turns []wire.Message
	for i, tc := range ev.ToolCalls {
		res, guard, replayed := r.answerCall(ev.N, tc, d, i)
		// Only a call that ran can differ from its recording.
		differs := guard == cassette.GuardAllow && r.differs(ev.N, tc, res)
		results[i] = res
		at := r.now()
		r.mu.Lock()
		shown := &r.rec.ToolCalls[base+i]
		shown.Result = &runfolder.ToolResult{
			Text: runfolder.CapEvidence(res.Text), Bytes: len(res.Text), Error: res.IsError, Refused: res.Refused, Cut: res.Cut,
			Guard: guard, Replayed: replayed, Label: string(res.Label), Differs: differs,
		}
		if d.Action != tools.Stop {
			countResult(&r.rec.Counts, res, guard)
		}
		tool := *shown
		r.note(at, runfolder.TranscriptEntry{Type: "tool_result", Tool: &tool})
		r.emit(Event{Kind: EventToolResult, Call: ev.N, At: at.Sub(r.start), Tool: &tool})
		r.mu.Unlock()
		if r.tape != nil {
			call := r.tape.Call(ev.N)
			call.Tools = append(call.Tools, cassette.Tool{
				Index: tc.Index, ID: r.red.String(tc.ID), Name: r.red.String(tc.Name), Arguments: r.red.String(tc.Arguments),
				Result: res.Text, IsError: res.IsError, Refused: res.Refused, Cut: res.Cut, Guard: guard, Label: string(res.Label),
			})
		}
		if res.Fail != "" {
			// A gated call no one could approve: the runtime's sub-agent
			// fails here (ParentApprovalUnavailableException).
			return nil, &Verdict{Outcome: vocab.Failed, Reason: vocab.ReasonToolExecutionFailed, Message: res.Fail}
		}
		// Sent as a plain result, an error or refusal included: NetClaw's
		// sub-agent flags none (SubAgentActor.BuildToolResult, 502847bf,
		// makes a text-only tool message, which
		// ChatMessageConverter.ToAiMessage, 013299cf, turns into a
		// FunctionResultContent with no Exception), so no is_error reaches
		// the wire. The record keeps the error (ToolResult.Error).
		turns = append(turns, wire.Message{Role: "tool", Text: res.Text, ToolCallID: tc.ID, ToolName: tc.Name})
	}
	if d.Action == tools.Stop {
		names := make([]string, len(ev.ToolCalls))
		for i, tc := range ev.ToolCalls {
			names[i] = tc.Name
		}
		return nil, &Verdict{Outcome: vocab.Partial, Reason: vocab.ReasonToolCycleStopped, Message: tools.CycleStopText +
			fmt.Sprintf(" (the model called %s again after the cycle guard's correction; no further model call was made)", strings.Join(names, ", "))}
	}
	r.guard.Complete(batch, d, results)
	return turns, nil
}

// answerCall answers the call tc (the i-th) of model call n as the
// guard's decision d has it: an allowed call runs (its result
// redacted, then bounded and spilled as the runtime's dispatcher does,
// unless replayed), a refused one gets the correction, and the rest the
// cycle stop. guard is the decision as the cassette records it.
func (r *Run) answerCall(n int, tc wire.ToolCallPart, d tools.Decision, i int) (res tools.Result, guard string, replayed bool) {
	switch d.Call(i) {
	case tools.Allow:
		res, replayed = r.runTool(n, tc, json.RawMessage(tc.Arguments))
		res.Text = r.red.String(res.Text)
		if !replayed && r.workspace != nil {
			// Bounded and spilled as the runtime's dispatcher does,
			// after redaction (a replay has the bounded text).
			res = tools.Spill(r.workspace, tc.Name, tc.ID, res)
		}
		return res, cassette.GuardAllow, replayed
	case tools.Refuse:
		return d.Result(), cassette.GuardRefuse, false
	default:
		return tools.Result{Text: tools.CycleStopText, IsError: true, Refused: true}, cassette.GuardStop, false
	}
}

// countResult counts a tool result in c: answered, an error, refused,
// refused by the cycle guard (guard).
func countResult(c *runfolder.Counts, res tools.Result, guard string) {
	c.ToolResults++
	if res.IsError {
		c.ToolErrors++
	}
	if res.Refused {
		c.ToolRefused++
	}
	if guard == cassette.GuardRefuse {
		c.GuardRefusals++
	}
}

// differs reports, in a replay whose tools run live, whether res is not
// the result the recording holds for call tc of model call n.
func (r *Run) differs(n int, tc wire.ToolCallPart, res tools.Result) bool {
	if r.liveReplay == nil {
		return false
	}
	t, found := recordedResult(r.liveReplay, n, tc.Index, tc.Name, tc.Arguments)
	if !found {
		return true
	}
	// The recorded results name the recorded project's files; this
	// run's name its own project's.
	want := t.Result
	if from := r.liveReplay.Header.Project; from != "" && r.liveProject != "" {
		want = strings.ReplaceAll(want, from, r.liveProject)
	}
	return want != res.Text || t.IsError != res.IsError
}

// runTool runs one allowed call: on the project folder, or, in a replay,
// from the cassette (replayed is then true).
func (r *Run) runTool(n int, tc wire.ToolCallPart, args json.RawMessage) (res tools.Result, replayed bool) {
	if rt, ok := r.toolbox.(*replayTools); ok {
		if t, found := rt.lookup(n, tc.Index, tc.Name, tc.Arguments); found {
			return tools.Result{Text: t.Result, IsError: t.IsError, Refused: t.Refused, Cut: t.Cut, Label: tools.Label(t.Label)}, true
		}
		rt.call = n
	}
	return r.toolbox.Call(r.ctx, tc.Name, args), false
}

// finish classifies the run's end, writes its folder, and wakes readers.
func (r *Run) finish(ev *CallEvidence, v Verdict) {
	end := r.now()
	changesErr := r.collectChanges()
	var tape []byte
	var tapeErr error
	if r.tape != nil {
		tape, tapeErr = r.tape.Encode()
	}
	// The project's git state, for the terminal record's working
	// context (the trial never changes the project: this is its state).
	r.mu.Lock()
	project := r.rec.Project
	r.mu.Unlock()
	var git *request.GitState
	var observed []string
	if r.spec.Frontline == nil {
		git = projectGit(context.Background(), project)
		// What git would show changed in the run's copy beyond the
		// project's own changes (a replay's recorded changes have no git
		// state to compare with).
		r.mu.Lock()
		changes := r.changes
		r.mu.Unlock()
		if r.overlay != nil {
			observed = observedChanges(context.Background(), project, git, changes)
		}
	}
	r.mu.Lock()
	rec := &r.rec
	for i, o := range observed {
		observed[i] = r.red.String(o)
	}
	rec.State, rec.Outcome, rec.Reason = v.State(), v.Outcome, v.Reason
	rec.Error = r.red.String(noToolsFix(v.Message, r.spec, rec.Model.Role))
	rec.EndedAt = &end
	rec.Timings.TotalMS = end.Sub(r.start).Milliseconds()
	rec.Usage = runfolder.Usage(r.usage)
	rec.FinishReason = r.red.String(ev.Finish)
	rec.Files = []string{runfolder.RunFile, runfolder.ResultFile, runfolder.TranscriptFile}
	if v.Truncated && termsafe.Visible(rec.Output) {
		rec.Files = append(rec.Files, runfolder.TruncatedOutputFile)
		rec.Error += fmt.Sprintf("; it begins %q; the full text, marked partial, is in %s", runfolder.Shorten(rec.Output, 160), filepath.Join(rec.Dir, runfolder.TruncatedOutputFile))
	}
	if tape != nil {
		rec.Files = append(rec.Files, runfolder.StreamFile)
	}
	patchErr := errors.Join(changesErr, r.keepChanges(rec))
	rec.MCP = mcpRecord(r.mcp, r.mcpNotes, r.red)
	rec.Parent = runfolder.NewParentRecord(rec, git, observed)
	r.note(end, runfolder.TranscriptEntry{Type: "outcome", Outcome: v.Outcome, Reason: v.Reason, Text: rec.Error})
	final := *rec
	final.ToolCalls = append([]runfolder.ToolCall{}, rec.ToolCalls...)
	final.Tools = append([]string{}, rec.Tools...)
	transcript := &r.transcript
	r.mu.Unlock()

	var err error
	if r.spec.Unsaved {
		r.unsaved = &folderContent{rec: final, transcript: transcript, tape: tape, extra: r.extraFiles}
	} else {
		err = runfolder.Write(&final, transcript.entries(), tape, r.extraFiles)
	}
	if tapeErr != nil {
		err = fmt.Errorf("encoding the cassette of run %s: %w", final.RunID, tapeErr)
	}
	if patchErr != nil {
		err = errors.Join(err, patchErr)
	}
	if !r.spec.Unsaved && r.workspace != nil {
		// The session folder stays only when the run left files in it.
		closeSession(final.Dir, final.RunID, r.red)
	}

	// Everything is released before Wait returns: the project folder,
	// the run's context, its place among the active runs.
	if r.toolbox != nil {
		r.toolbox.Close()
	}
	r.cancel(nil)
	r.runner.forget(final.RunID)

	r.mu.Lock()
	r.writeErr = err
	r.ended = true
	r.emit(Event{Kind: EventDone, At: end.Sub(r.start), Record: &final})
	r.mu.Unlock()
	close(r.done)
}
