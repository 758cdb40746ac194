package runner

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// streamsDir is the project's place for recorded streams.
var streamsDir = filepath.Join("..", "testdata", "streams")

var recordStreams = flag.Bool("record-streams", false, "record the cassettes of ../testdata/streams anew from the test server (then run -update to rewrite their results)")

// TestGenerateStreams records every scenario on every protocol into
// ../testdata/streams. It runs only with -record-streams: those cassettes
// stand for streams recorded by an older agentdesk, and TestStreamsGolden
// checks that today's decoders replay them to the same results.
//
//	go test ./runner -run TestGenerateStreams -record-streams
//	go test ./runner -run TestStreamsGolden -update
func TestGenerateStreams(t *testing.T) {
	if !*recordStreams {
		t.Skip("records ../testdata/streams only with -record-streams")
	}
	if err := os.MkdirAll(streamsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenarios {
		for _, p := range trialtest.Protocols {
			t.Run(sc.name+"/"+p.String(), func(t *testing.T) {
				f := newFixture(t, p)
				_, path := recordScenario(t, f, sc)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(streamsDir, sc.name+"-"+p.String()+cassette.Extension), data, 0o644); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// streamResult is what a replayed cassette's run comes to, as its golden
// file holds it.
type streamResult struct {
	Outcome      vocab.Outcome        `json:"outcome"`
	Reason       string               `json:"reason"`
	State        string               `json:"state"`
	Error        string               `json:"error"`
	Output       string               `json:"output"`
	FinishReason string               `json:"finish_reason"`
	Usage        runfolder.Usage      `json:"usage"`
	Counts       runfolder.Counts     `json:"counts"`
	Timings      runfolder.Timings    `json:"timings"`
	Files        []string             `json:"files"`
	ToolCalls    []runfolder.ToolCall `json:"tool_calls"`
	// Transcript is the types of the transcript's lines, in order.
	Transcript []string `json:"transcript"`
}

// TestStreamsGolden replays every cassette in ../testdata/streams, fast,
// through today's decoders and watchdog, and compares what the run comes
// to with the stored result next to it (NAME.result.json): a decoder
// change that alters a result fails here. -update rewrites the results;
// review the diff.
func TestStreamsGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(streamsDir, "*"+cassette.Extension))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no cassettes in %s (go test ./runner -run TestGenerateStreams -record-streams makes them)", streamsDir)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), cassette.Extension)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, wire.OpenAI) // the runner only: no model is called
			rec := replay(t, f, path, true)
			if rec.Replay == nil || rec.Replay.RecordedRun == "" {
				t.Errorf("the replay is not marked: %+v", rec.Replay)
			}
			lines := checkFolder(t, rec)
			res := streamResult{
				Outcome: rec.Outcome, Reason: rec.Reason, State: rec.State, Error: strings.ReplaceAll(rec.Error, rec.Dir, "<run>"),
				Output: rec.Output, FinishReason: rec.FinishReason, Usage: rec.Usage, Counts: rec.Counts, Timings: rec.Timings,
				Files: rec.Files, ToolCalls: rec.ToolCalls,
			}
			for _, l := range lines {
				res.Transcript = append(res.Transcript, l.Type)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden.Check(t, filepath.Join(streamsDir, name+".result.json"), got)
		})
	}
}
