// Package runner owns one trial spawn of a sub-agent, classified exactly as
// the NetClaw runtime would classify it: resolving the model from the
// configuration (ResolveModel), the watchdog that times each model call
// (Watchdog), the outcome and reason of a run (Classify), the tool loop,
// and the run itself. Its parts live in packages of their own: the run
// folder and its records (runner/runfolder: run.json, result.md,
// transcript.jsonl, truncated-output.md), redaction of everything written
// or shown (runner/redact), the cassette and its transport
// (runner/cassette: stream.cassette, record and replay), the tools
// (runner/tools), MCP servers (runner/mcp) and the wire protocols
// (runner/wire).
//
// A Runner starts runs; each Run has its id and folder at once, a stream of
// events for a browser to show, a Status for its clocks, Cancel and Wait.
// Many runs may go at once, each independent. runfolder.ListRuns and
// LoadRun read past runs back from a runs folder, and
// runfolder.ArtifactFiles lists what a run folder holds to show.
//
// # The tool loop
//
// With Spec.Project set, the model is offered the tools NetClaw offers a
// sub-agent of Spec.Audience (preview/request's catalogue: the core tools
// at the start, deferred ones and MCP servers' tools once search_tools or
// load_tool activates them) in its protocol's tool format, and runner/tools
// runs them: reads for real, writes on an overlay of that folder (its
// changes.patch in the run folder), effects (shell_execute, web_fetch, MCP
// calls) only after an approval (runner/approve), NetClaw's own state
// stubbed, suite mocks answered. A reply with tool calls has its batch
// put to the cycle guard first (tools.Guard, NetClaw's TurnStateTracker:
// after two equal outcomes the next matching call is refused with NetClaw's
// correction, and a matching call after that ends the run Partial,
// tool_cycle_stopped, with no further model call), then each allowed call
// runs; a tool that is not offered gets a result saying it is not available
// in a trial run. The results are redacted before they go back to the
// model, and the conversation goes on with the next model call, each under
// its own watchdog; there is no cap on tool rounds. A reply with no text and
// no tool call is nudged (5 times before any tool round, 8 after), and a
// final reply holding tool-call markup gets one repair nudge (see execute).
// Any other reply ends the run and is classified (Classify). Every call and its result, capped at EvidenceCap,
// is in transcript.jsonl, run.json and result.md's evidence; run.json
// counts them (Counts). Without a project folder no tools are offered, and
// tool calls the model makes anyway are evidence only.
//
// # Record and replay
//
// Spec.Record keeps, in the run folder's stream.cassette (format: package
// runner/cassette), the raw bytes of every model response with their
// timing, read at the transport, and every tool result handed back. It is
// redacted: line by line where that leaves nothing (the chunks of clean
// lines stay as they were read), and, for a call whose stored bytes would
// still decode to a secret (one split across frames), re-encoded from the
// events the run decoded and redacted (wire.Encode).
//
// Spec.Replay (or a provider of type replay, whose Endpoint is a cassette's
// path) plays a cassette back through an http.RoundTripper into the same
// decoders, watchdog and tool loop: the recorded model, limits, tools and
// tool results from the cassette, never from the disk, so a replay
// works where the project folder does not exist (the cycle guard runs
// again on the replayed calls and results, and decides alike; a cassette
// recorded under older loop rules, cassette.LoopRules, may run out of
// calls, and the replay says so). At recorded
// speed the chunks come at their recorded times and a call the watchdog
// ended stays silent until the watchdog ends it again. Spec.Fast plays on
// a virtual clock instead, moved to each chunk's recorded time, so the
// watchdog judges the recorded timeline at once: the outcome, reason and
// output are the same, and the run's clocks say what the recorded run's
// did. A replayed run has Record.Replay set, and result.md says so.
//
// The wire protocols live in runner/wire; runner/modeltest is a scriptable
// model server for tests and demos (tui/demo records the browser's demo
// runs with it).
// runner never touches a terminal.
package runner
