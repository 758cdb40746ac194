// Package runner owns one trial spawn of a sub-agent, classified exactly as
// the NetClaw runtime would classify it: resolving the model from the
// configuration (ResolveModel), the watchdog that times each model call
// (Watchdog), the outcome and reason of a run (Classify), redaction of
// everything written or shown (Redactor), and the run folder with its
// artifacts (run.json, result.md, transcript.jsonl, truncated-output.md).
//
// A Runner starts runs; each Run has its id and folder at once, a stream of
// events for a browser to show, a Status for its clocks, Cancel and Wait.
// Many runs may go at once, each independent. ListRuns and LoadRun read past
// runs back from a runs folder.
//
// The wire protocols live in runner/wire; runner/modeltest is a scriptable
// model server for tests and demos. runner never touches a terminal.
package runner
