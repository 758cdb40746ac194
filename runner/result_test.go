package runner

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func sampleRecord() Record {
	start := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	end := start.Add(2345 * time.Millisecond)
	first := int64(410)
	return Record{
		RunID: "0123456789abcdef0123456789abcdef", Agent: "code-analyst", AgentPath: "/home/u/.netclaw/agents/code-analyst.md",
		AgentSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Task:        "Summarise main.go", Context: "The repo is a CLI.\nKeep it short.",
		State: StateCompleted, Outcome: Completed,
		Model: Model{Role: "Compaction", Definition: "local-small", Provider: "local-ollama", Type: "ollama",
			Endpoint: "http://localhost:11434", ModelID: "qwen3:8b", Via: "Models.Roles.Compaction"},
		StartedAt: start, EndedAt: &end, Timings: Timings{FirstDeltaMS: &first, TotalMS: 2345},
		Usage:  Usage{InputTokens: 812, OutputTokens: 95, ReasoningTokens: 40},
		Files:  []string{RunFile, ResultFile, TranscriptFile},
		Output: "## Summary\n\nmain.go parses flags and \x1b[31mruns\x1b[0m the server.\r\n",
		Limits: limitsRecord(LimitsFor(nil, nil)), FinishReason: "stop", ToolCalls: []ToolCall{},
		Dir: "/home/u/.local/state/agentdesk/runs/0123456789abcdef0123456789abcdef",
	}
}

func TestResultMarkdownGolden(t *testing.T) {
	r := sampleRecord()
	golden(t, "result-completed.md", ResultMarkdown(&r))

	r.State, r.Outcome, r.Reason = StateFailed, Failed, ReasonOutputTruncated
	r.FinishReason = "length"
	r.Output = "A long answer that stops in the mid"
	r.Error = `the reply stopped at the model's output limit (finish "length"); it begins "A long answer that stops in the mid"; the full text, marked partial, is in ` + r.Dir + "/truncated-output.md"
	r.Files = append(r.Files, TruncatedOutputFile)
	r.ToolCalls = []ToolCall{{Index: 0, ID: "call_1", Name: "file_read", Arguments: `{"path": "ma`}}
	r.Timings.FirstDeltaMS = nil
	r.Skill = "review"
	golden(t, "result-truncated.md", ResultMarkdown(&r))
	golden(t, "truncated-output.md", TruncatedMarkdown(&r))
}
