package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// BudgetNote is the user turn that follows the tool results of the last
// model call that may use tools: the next call has them withdrawn.
const BudgetNote = "The tool budget of this run is spent: tools are withdrawn. Give your final answer now, from what you already have."

// execute runs the tool loop, classifies the end, and writes the run
// folder.
//
// Each model call has its own watchdog. A reply with tool calls, in a run
// that offers tools, has them answered (by the tools, or by the repeat
// guard's correction) and the conversation goes on with the next call; any
// other reply ends the run and is classified (Classify). Calls are capped
// at maxIter with tools; the call after the cap has them withdrawn, and a
// reply that still calls tools or holds no text ends the run Partial,
// tool_iteration_budget_exhausted. A repeat after the guard's correction
// ends it Partial, repeated_tool_call.
func (r *Run) execute() {
	msgs := []wire.Message{{Role: "user", Text: r.message}}
	if fl := r.spec.Frontline; fl != nil && fl.Nudge != "" {
		msgs = []wire.Message{{Role: "user", Text: fl.Nudge}, msgs[0]}
	}
	var ev *CallEvidence
	var v Verdict
	for n := 1; ; n++ {
		withdrawn := r.toolsOn && n > r.maxIter
		ev = r.call(n, msgs, withdrawn)
		r.endCall(ev)
		var final bool
		if v, final = r.judge(ev, withdrawn); final {
			break
		}
		results, stop := r.runTools(ev)
		if stop != nil {
			v = *stop
			break
		}
		msgs = append(msgs, wire.Message{Role: "assistant", Text: ev.Text, ToolCalls: ev.ToolCalls})
		msgs = append(msgs, results...)
		if n == r.maxIter {
			msgs = append(msgs, wire.Message{Role: "user", Text: BudgetNote})
		}
		if r.ctx.Err() != nil {
			v = Classify(&CallEvidence{Cancelled: true})
			break
		}
	}
	r.finish(ev, v)
}

// judge decides whether a reply ends the run, and how.
func (r *Run) judge(ev *CallEvidence, withdrawn bool) (Verdict, bool) {
	v := Classify(ev)
	if r.spec.Frontline != nil {
		// The first reply is the answer: a tool call is what was asked.
		if v.Reason == ReasonEmptyFinalResponse && len(ev.ToolCalls) > 0 {
			v = Verdict{Outcome: Completed}
		}
		return v, true
	}
	if !r.toolsOn || len(ev.ToolCalls) == 0 && !withdrawn {
		return v, true
	}
	if v.Outcome != Completed && v.Reason != ReasonEmptyFinalResponse {
		return v, true // failed, cut off, timed out, cancelled
	}
	if withdrawn {
		if len(ev.ToolCalls) == 0 && v.Outcome == Completed {
			return v, true
		}
		what := "gave no text"
		if len(ev.ToolCalls) > 0 {
			what = "called " + ev.ToolCalls[0].Name + " again"
		}
		return Verdict{Outcome: Partial, Reason: ReasonToolIterationBudget, Message: fmt.Sprintf(
			"the model used its %d model calls with tools (Session.MaxToolIterationsPerTurn), and with the tools withdrawn it still did not answer: it %s",
			r.maxIter, what)}, true
	}
	return Verdict{}, false
}

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
	rec.Usage = Usage(r.usage)
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
func (r *Run) usageSoFar(u wire.TokenUsage) Usage {
	return Usage{
		InputTokens:     r.usage.InputTokens + u.InputTokens,
		OutputTokens:    r.usage.OutputTokens + u.OutputTokens,
		ReasoningTokens: r.usage.ReasoningTokens + u.ReasoningTokens,
	}
}

// runTools answers the tool calls of a reply, in order: the repeat guard
// first, then the tool (or, in a replay, the recorded result). It returns
// the tool turns for the next call, or the verdict that ends the run when
// the guard stops it.
func (r *Run) runTools(ev *CallEvidence) ([]wire.Message, *Verdict) {
	r.mu.Lock()
	base := len(r.rec.ToolCalls) - len(ev.ToolCalls)
	r.mu.Unlock()
	var turns []wire.Message
	for i, tc := range ev.ToolCalls {
		args := json.RawMessage(tc.Arguments)
		d := r.guard.Check(tc.Name, args)
		var res tools.Result
		guard, replayed := cassette.GuardAllow, false
		switch d.Action {
		case tools.Allow:
			res, replayed = r.runTool(ev.N, tc, args)
			res.Text = r.red.String(res.Text)
			if !replayed && r.workspace != nil {
				// Bounded and spilled as the runtime's dispatcher does,
				// after redaction (a replay has the bounded text).
				res = tools.Spill(r.workspace, tc.Name, tc.ID, res)
			}
			r.guard.Record(tc.Name, args, res.Text)
		case tools.Refuse:
			guard, res = cassette.GuardRefuse, d.Result()
		default:
			guard, res = cassette.GuardStop, d.Result()
		}
		at := r.now()
		r.mu.Lock()
		shown := &r.rec.ToolCalls[base+i]
		shown.Result = &ToolResult{
			Text: capEvidence(res.Text), Bytes: len(res.Text), Error: res.IsError, Refused: res.Refused, Cut: res.Cut,
			Guard: guard, Replayed: replayed, Label: string(res.Label),
		}
		c := &r.rec.Counts
		if d.Action != tools.Stop {
			c.ToolResults++
			if res.IsError {
				c.ToolErrors++
			}
			if res.Refused {
				c.ToolRefused++
			}
			if d.Action == tools.Refuse {
				c.GuardRefusals++
			}
		}
		tool := *shown
		r.note(at, TranscriptEntry{Type: "tool_result", Tool: &tool})
		r.emit(Event{Kind: EventToolResult, Call: ev.N, At: at.Sub(r.start), Tool: &tool})
		r.mu.Unlock()
		if r.tape != nil {
			call := r.tape.Call(ev.N)
			call.Tools = append(call.Tools, cassette.Tool{
				Index: tc.Index, ID: r.red.String(tc.ID), Name: r.red.String(tc.Name), Arguments: r.red.String(tc.Arguments),
				Result: res.Text, IsError: res.IsError, Refused: res.Refused, Cut: res.Cut, Guard: guard, Label: string(res.Label),
			})
		}
		if d.Action == tools.Stop {
			return nil, &Verdict{Outcome: Partial, Reason: ReasonRepeatedToolCall, Message: d.Text}
		}
		if res.Fail != "" {
			// A gated call no one could approve: the runtime's sub-agent
			// fails here (ParentApprovalUnavailableException).
			return nil, &Verdict{Outcome: Failed, Reason: ReasonToolExecutionFailed, Message: res.Fail}
		}
		// Sent as a plain result, an error or refusal included: NetClaw's
		// sub-agent flags none (SubAgentActor.BuildToolResult, 502847bf,
		// makes a text-only tool message, which
		// ChatMessageConverter.ToAiMessage, 013299cf, turns into a
		// FunctionResultContent with no Exception), so no is_error reaches
		// the wire. The record keeps the error (ToolResult.Error).
		turns = append(turns, wire.Message{Role: "tool", Text: res.Text, ToolCallID: tc.ID, ToolName: tc.Name})
	}
	return turns, nil
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
	if r.spec.Frontline == nil {
		git = projectGit(context.Background(), project)
	}
	r.mu.Lock()
	rec := &r.rec
	rec.State, rec.Outcome, rec.Reason = v.State(), v.Outcome, v.Reason
	rec.Error = r.red.String(noToolsFix(v.Message, r.spec, rec.Model.Role))
	rec.EndedAt = &end
	rec.Timings.TotalMS = end.Sub(r.start).Milliseconds()
	rec.Usage = Usage(r.usage)
	rec.FinishReason = r.red.String(ev.Finish)
	rec.Files = []string{RunFile, ResultFile, TranscriptFile}
	if v.Truncated && Visible(rec.Output) {
		rec.Files = append(rec.Files, TruncatedOutputFile)
		rec.Error += fmt.Sprintf("; it begins %q; the full text, marked partial, is in %s", shorten(rec.Output, 160), filepath.Join(rec.Dir, TruncatedOutputFile))
	}
	if tape != nil {
		rec.Files = append(rec.Files, StreamFile)
	}
	patchErr := errors.Join(changesErr, r.keepChanges(rec))
	rec.MCP = mcpRecord(r.mcp, r.mcpNotes, r.red)
	rec.Parent = parentRecord(rec, git)
	r.note(end, TranscriptEntry{Type: "outcome", Outcome: v.Outcome, Reason: v.Reason, Text: rec.Error})
	final := *rec
	final.ToolCalls = append([]ToolCall{}, rec.ToolCalls...)
	final.Tools = append([]string{}, rec.Tools...)
	transcript := r.transcript
	r.mu.Unlock()

	var err error
	if r.spec.Unsaved {
		r.unsaved = &folderContent{rec: final, transcript: transcript, tape: tape, extra: r.extraFiles}
	} else {
		err = writeRunFolder(&final, transcript, tape, r.extraFiles)
	}
	if tapeErr != nil {
		err = fmt.Errorf("encoding the cassette of run %s: %w", final.RunID, tapeErr)
	}
	if patchErr != nil {
		err = errors.Join(err, patchErr)
	}
	if !r.spec.Unsaved && r.workspace != nil {
		// The session folder stays only when the run left files in it.
		closeSession(final.Dir, final.RunID)
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
	return fmt.Sprintf("%s, in %s, at most %d model calls with tools", strings.Join(rec.Tools, ", "), rec.Project, rec.MaxToolIterations)
}
