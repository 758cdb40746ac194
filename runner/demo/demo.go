// Package demo holds the recorded runs that `agentdesk --demo` replays, so
// the browser can show trial runs without a model:
//
//   - CompletedToolCall: code-analyst reads main.go with file_read and
//     explains it (Completed, two model calls, thinking first);
//   - OutputTruncated: summarizer's reply stops at the output limit
//     (Failed, output_truncated, with truncated-output.md);
//   - ThinkingOnly: research-assistant only thinks until the thinking-only
//     cap ends the call (Failed, thinking_only_timeout).
//
// They are recorded from runner/modeltest scripts by TestGenerateDemo in
// package runner, never written by hand:
//
//	go test ./runner -run TestGenerateDemo -update
//
// Without -update that test replays each one and checks its outcome.
//
// To play one, start a run with the cassette as its Replay. The agent is
// optional (the cassette names it; pass the demo home's agent of that name
// to show its path), the task too; the recorded tool results are played
// back, so no project folder is needed:
//
//	c, err := demo.Load(demo.CompletedToolCall)
//	...
//	run, err := rn.Start(ctx, runner.Spec{Replay: c, ReplaySource: "demo/" + demo.CompletedToolCall})
//
// At recorded speed (Fast unset) the reply streams as it was recorded and
// the watchdog ends the thinking-only run after its recorded cap (a few
// seconds).
package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"

	"github.com/agentdesk/agentdesk/runner/cassette"
)

//go:embed cassettes/*.cassette
var files embed.FS

// The demo cassettes' names.
const (
	CompletedToolCall = "completed-tool-call.cassette"
	OutputTruncated   = "output-truncated.cassette"
	ThinkingOnly      = "thinking-only.cassette"
)

// Cassettes returns the demo cassettes: one file per recorded run, at the
// root of the file system, named as the constants above.
func Cassettes() fs.FS {
	sub, err := fs.Sub(files, "cassettes")
	if err != nil {
		panic(err) // the embedded folder is there: go:embed checks it
	}
	return sub
}

// Names returns the demo cassettes' file names, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(Cassettes(), ".")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Load parses the demo cassette name.
func Load(name string) (*cassette.Cassette, error) {
	data, err := fs.ReadFile(Cassettes(), name)
	if err != nil {
		return nil, fmt.Errorf("no demo cassette %s (there are %v)", name, Names())
	}
	c, err := cassette.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("demo cassette %s: %w", name, err)
	}
	return c, nil
}
