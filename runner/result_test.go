package runner

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

func matchGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, []byte(got))
}

func sampleRecord() runfolder.Record {
	start := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	end := start.Add(2345 * time.Millisecond)
	first := int64(410)
	return runfolder.Record{
		RunID: "0123456789abcdef0123456789abcdef", Agent: "code-analyst", AgentPath: "/home/u/.netclaw/agents/code-analyst.md",
		AgentSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Task:        "Summarise main.go", Context: "The repo is a CLI.\nKeep it short.",
		State: vocab.StateCompleted, Outcome: vocab.Completed,
		Model: runfolder.Model{Role: "Compaction", Definition: "local-small", Provider: "local-ollama", Type: "ollama",
			Endpoint: "http://localhost:11434", ModelID: "qwen3:8b", Via: "Models.Roles.Compaction"},
		StartedAt: start, EndedAt: &end, Timings: runfolder.Timings{FirstDeltaMS: &first, TotalMS: 2345},
		Usage:  runfolder.Usage{InputTokens: 812, OutputTokens: 95, ReasoningTokens: 40},
		Files:  []string{runfolder.RunFile, runfolder.ResultFile, runfolder.TranscriptFile},
		Output: "## Summary\n\nmain.go parses flags and \x1b[31mruns\x1b[0m the server.\r\n",
		Limits: limitsRecord(LimitsFor(nil, nil)), FinishReason: "stop", ToolCalls: []runfolder.ToolCall{}, Tools: []string{},
		Counts: runfolder.Counts{ModelCalls: 1},
		Dir:    "/home/u/.local/state/agentdesk/runs/0123456789abcdef0123456789abcdef",
	}
}

func TestResultMarkdownGolden(t *testing.T) {
	r := sampleRecord()
	matchGolden(t, "result-completed.md", runfolder.ResultMarkdown(&r))

	r.State, r.Outcome, r.Reason = vocab.StateFailed, vocab.Failed, vocab.ReasonOutputTruncated
	r.FinishReason = "length"
	r.Output = "A long answer that stops in the mid"
	r.Error = `the reply stopped at the model's output limit (finish "length"); it begins "A long answer that stops in the mid"; the full text, marked partial, is in ` + r.Dir + "/truncated-output.md"
	r.Files = append(r.Files, runfolder.TruncatedOutputFile)
	r.ToolCalls = []runfolder.ToolCall{{Index: 0, ID: "call_1", Name: "file_read", Arguments: `{"path": "ma`}}
	r.Timings.FirstDeltaMS = nil
	r.Skill = "review"
	matchGolden(t, "result-truncated.md", runfolder.ResultMarkdown(&r))
	matchGolden(t, "truncated-output.md", runfolder.TruncatedMarkdown(&r))
}

func TestResultMarkdownWithToolsGolden(t *testing.T) {
	r := sampleRecord()
	r.State, r.Outcome, r.Reason = vocab.StatePartial, vocab.Partial, vocab.ReasonToolCycleStopped
	r.Error = "the model called file_read again with the same arguments after a correction; the runtime ends the turn on a repeat after a correction"
	r.Output = ""
	r.Tools, r.Project, r.MaxToolIterations = []string{"file_read", "file_list"}, "/home/u/src/app", 60
	long := strings.Repeat("line\n", 20)
	readme := &runfolder.ToolResult{Text: "# App\n\x1b[2JPort 8080.\n", Bytes: 21, Guard: "allow", Replayed: true}
	r.ToolCalls = []runfolder.ToolCall{
		{Call: 1, Index: 0, ID: "call_1", Name: "file_read", Arguments: `{"path":"README.md"}`, Complete: true, Result: readme},
		{Call: 1, Index: 1, ID: "call_2", Name: "web_search", Arguments: `{"query":"x"}`, Complete: true,
			Result: &runfolder.ToolResult{Text: "web_search is not available in a trial run.", Bytes: 43, Error: true, Refused: true, Guard: "allow"}},
		{Call: 2, Index: 0, ID: "call_3", Name: "file_list", Arguments: `{}`, Complete: true,
			Result: &runfolder.ToolResult{Text: long, Bytes: 9000, Cut: true, Guard: "allow"}},
		{Call: 3, Index: 0, ID: "call_4", Name: "file_read", Arguments: `{"path":"README.md"}`, Complete: true, Result: readme},
		{Call: 4, Index: 0, ID: "call_5", Name: "file_read", Arguments: `{"path":"README.md"}`, Complete: true,
			Result: &runfolder.ToolResult{Text: "Not run: this exact call …", Bytes: 26, Error: true, Refused: true, Guard: "refuse"}},
		{Call: 5, Index: 0, ID: "call_6", Name: "file_read", Arguments: `{"path":"README.md"}`, Complete: true,
			Result: &runfolder.ToolResult{Text: "the model called file_read again", Bytes: 32, Error: true, Refused: true, Guard: "stop"}},
	}
	r.Counts = runfolder.Counts{ModelCalls: 5, ToolCalls: 6, ToolResults: 5, ToolErrors: 2, ToolRefused: 2, GuardRefusals: 1}
	r.Replay = &runfolder.ReplayRecord{Cassette: "/tmp/stream.cassette", Fast: true, RecordedRun: "fedcba9876543210fedcba9876543210", RecordedAt: r.StartedAt.Add(-time.Hour)}
	matchGolden(t, "result-tools.md", runfolder.ResultMarkdown(&r))
	if strings.Contains(runfolder.ResultMarkdown(&r), "\x1b[2J") {
		t.Error("a control character from a tool result reached result.md")
	}
}
