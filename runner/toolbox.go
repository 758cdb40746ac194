package runner

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/tools"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// toolRunner runs the tool calls of a run: a *tools.Set on the project's
// overlay, or a replay's recorded results.
type toolRunner interface {
	Call(ctx context.Context, name string, args json.RawMessage) tools.Result
	Close() error
}

// offeredNow returns the tools the next model call offers: the set's core
// tools and the deferred ones loaded so far, or the run's fixed list.
func (r *Run) offeredNow() []wire.Tool {
	if set, ok := r.toolbox.(*tools.Set); ok && r.spec.Frontline == nil {
		return tools.Wire(set.Offered())
	}
	return r.tools
}

// toolNames returns the tools' names.
func toolNames(tools []wire.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// toolNames returns the names of the tools the run offers.
func (r *Run) toolNames() []string { return toolNames(r.tools) }

// replayTools answers a replay's tool calls from the cassette: the result
// recorded for the same model call, index, tool and arguments. Nothing
// touches the disk, so a replay works where the project folder is gone.
type replayTools struct {
	tape *cassette.Cassette
	// call is the model call whose tool calls are being answered.
	call int
}

// Call answers from the cassette. The run loop sets rt.call first.
func (rt *replayTools) Call(_ context.Context, name string, args json.RawMessage) tools.Result {
	return tools.Result{Text: fmt.Sprintf("replay: the cassette holds no result for %s in model call %d: the replay has gone differently from the recording", name, rt.call), IsError: true}
}

// lookup returns the recorded result of tool call index of model call n.
func (rt *replayTools) lookup(n, index int, name, args string) (cassette.Tool, bool) {
	return recordedResult(rt.tape, n, index, name, args)
}

// recordedResult returns the result tape holds for tool call index (of
// name, with args) of model call n, when the call ran.
func recordedResult(tape *cassette.Cassette, n, index int, name, args string) (cassette.Tool, bool) {
	c := tape.Call(n)
	if c == nil {
		return cassette.Tool{}, false
	}
	for _, t := range c.Tools {
		if t.Index == index && t.Name == name && t.Arguments == args && t.Guard == cassette.GuardAllow {
			return t, true
		}
	}
	return cassette.Tool{}, false
}

// Close does nothing: a replay holds no folder open.
func (rt *replayTools) Close() error { return nil }
