package route

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Kind is what the frontline did with a request.
type Kind string

// The kinds of first reply.
const (
	// Delegated: spawn_agent for a listed agent; the runtime would spawn it.
	Delegated Kind = "delegated"
	// Refused: spawn_agent that the runtime refuses (an agent that does not
	// exist or is internal, a required argument missing or blank).
	Refused Kind = "refused"
	// Answered: the model answered itself, calling no tool.
	Answered Kind = "answered"
	// OtherTool: the model called a tool other than spawn_agent.
	OtherTool Kind = "other-tool"
	// BadArguments: spawn_agent with arguments that are not valid JSON (a
	// call cut off, or malformed).
	BadArguments Kind = "invalid-arguments"
	// Failed: the call itself failed (an HTTP error, a limit, an empty or
	// cut-off reply): the run's reason says how.
	Failed Kind = "failed"
)

// None is the label of a request the frontline answers itself, and the
// expectation of one it should.
const None = "none"

// Pick is the frontline's first reply to one sample, classified.
type Pick struct {
	Kind Kind `json:"kind"`
	// Agent is the agent spawned (its name as defined) for Delegated, the
	// name the model wrote for Refused.
	Agent string `json:"agent,omitempty"`
	// Task and Context are the arguments the model wrote.
	Task    string `json:"task,omitempty"`
	Context string `json:"context,omitempty"`
	// Refusal is the runtime's answer to a refused call.
	Refusal string `json:"refusal,omitempty"`
	// Tool is the tool called for OtherTool.
	Tool string `json:"tool,omitempty"`
	// Arguments is the argument text of BadArguments and OtherTool.
	Arguments string `json:"arguments,omitempty"`
	// Text is the reply's text (the answer, for Answered).
	Text string `json:"text,omitempty"`
	// Reason and Error are the run's, for Failed.
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
	// Calls counts the tool calls of the reply (the first decides).
	Calls int `json:"calls,omitempty"`
	// Also are the reply's other tool calls, after the first, each
	// classified as the first is (the runtime makes them all).
	Also []Pick `json:"also,omitempty"`
}

// Label names the pick in a distribution and a confusion table: the agent
// spawned, None, or a short description of anything else.
func (p Pick) Label() string {
	switch p.Kind {
	case Delegated:
		return p.Agent
	case Answered:
		return None
	case Refused:
		if strings.HasPrefix(p.Refusal, "Error: Unknown agent") || strings.HasPrefix(p.Refusal, "Error: No subagents") {
			return "unknown agent " + p.Agent
		}
		return "refused call"
	case OtherTool:
		return "tool " + p.Tool
	case BadArguments:
		return "invalid arguments"
	}
	if p.Reason != "" {
		return "failed: " + p.Reason
	}
	return "failed"
}

// Describe says what the frontline did, in a sentence.
func (p Pick) Describe() string {
	switch p.Kind {
	case Delegated:
		s := fmt.Sprintf("spawn_agent %s, task %q", p.Agent, shorten(p.Task, 120))
		if strings.TrimSpace(p.Context) != "" {
			s += fmt.Sprintf(", context %q", shorten(p.Context, 120))
		}
		return s
	case Refused:
		return fmt.Sprintf("spawn_agent %q, refused: %s", p.Agent, p.Refusal)
	case Answered:
		return fmt.Sprintf("answered itself: %q", shorten(p.Text, 120))
	case OtherTool:
		return fmt.Sprintf("called another tool: %s %s", p.Tool, shorten(p.Arguments, 120))
	case BadArguments:
		return fmt.Sprintf("called spawn_agent with arguments that are not valid JSON: %s", shorten(p.Arguments, 120))
	}
	return fmt.Sprintf("the call failed (%s): %s", p.Reason, p.Error)
}

// Matches reports whether the pick is what expected names: an agent
// (case-insensitive, as the runtime resolves names) or None.
func (p Pick) Matches(expected string) bool {
	if strings.EqualFold(expected, None) {
		return p.Kind == Answered
	}
	return p.Kind == Delegated && strings.EqualFold(p.Agent, expected)
}

// Classify reads a frontline run's first reply as the runtime would: its
// first tool call decides (spawn_agent checked as the dispatcher checks
// any tool's call, request.CheckSpawnAgentCall: no _rationale is refused;
// then bound and checked with preview.ParseSpawnArgs and
// preview.SpawnRefusal against c and a; any
// other tool is OtherTool); with no tool call, a reply with text is
// Answered and anything else Failed.
func Classify(c *lint.Catalog, a preview.Audience, rec *runfolder.Record) Pick {
	var calls []runfolder.ToolCall
	for _, tc := range rec.ToolCalls {
		if tc.Call <= 1 {
			calls = append(calls, tc)
		}
	}
	if len(calls) == 0 {
		if rec.Outcome == vocab.Completed {
			return Pick{Kind: Answered, Text: rec.Output}
		}
		return Pick{Kind: Failed, Reason: rec.Reason, Error: rec.Error, Text: rec.Output}
	}
	p := classifyCall(c, a, calls[0])
	p.Calls, p.Text = len(calls), rec.Output
	for _, tc := range calls[1:] {
		p.Also = append(p.Also, classifyCall(c, a, tc))
	}
	return p
}

// classifyCall classifies one tool call of a frontline reply.
func classifyCall(c *lint.Catalog, a preview.Audience, tc runfolder.ToolCall) Pick {
	var p Pick
	if tc.Name != preview.SpawnAgentTool {
		p.Kind, p.Tool, p.Arguments = OtherTool, tc.Name, tc.Arguments
		return p
	}
	args, err := preview.ParseSpawnArgs(tc.Arguments)
	if err != nil || !tc.Complete {
		p.Kind, p.Arguments = BadArguments, tc.Arguments
		return p
	}
	p.Task, p.Context = args.Task, args.Context
	// The dispatcher's checks come first: a call without _rationale, or
	// with a key no parameter binds, is refused before spawn_agent runs.
	if refusal := request.CheckSpawnAgentCall(tc.Arguments); refusal != "" {
		p.Kind, p.Agent, p.Refusal = Refused, args.Agent, refusal
		return p
	}
	refusal, def := preview.SpawnRefusal(c, a, args)
	if def != nil {
		p.Kind, p.Agent = Delegated, def.Name
		return p
	}
	p.Kind, p.Agent, p.Refusal = Refused, args.Agent, refusal
	return p
}

// shorten cuts s to n bytes on a character boundary, with "…".
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
