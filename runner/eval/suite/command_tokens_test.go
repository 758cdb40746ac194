package suite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// TestCommandOutputTokens: AGENTDESK_OUTPUT_TOKENS is the sample's output
// tokens as the report counts them (OutputTokens): the provider's usage,
// or, when it reported none, the output counted with agentdesk's
// tokenizer; AGENTDESK_OUTPUT_TOKENS_COUNTED says which.
func TestCommandOutputTokens(t *testing.T) {
	dir := t.TempDir()
	script(t, dir, "tokens.sh", `echo "$AGENTDESK_OUTPUT_TOKENS|$AGENTDESK_OUTPUT_TOKENS_COUNTED" >&2; exit 1`+"\n")
	output := "The server listens on port 8080.\nSee main.go.\n"
	tests := []struct {
		name     string
		reported int
		output   string
		want     string
	}{
		{"reported by the provider", 12, output, "12|false"},
		{"none reported: counted", 0, output, fmt.Sprintf("%d|true", lint.CountTokens(output))},
		{"none reported, no output", 0, "", "0|false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := checkRecord()
			rec.Usage.OutputTokens, rec.Output = tt.reported, tt.output
			res, err := RunCommand(context.Background(), []string{"./tokens.sh"}, dir, rec, CommandFacts{Suite: filepath.Join(dir, "s.test.yaml")}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want + " (exit status 1)"; res.Failure == nil || res.Failure.Message != want {
				t.Errorf("failure %+v, want %q", res.Failure, want)
			}
		})
	}
	if n := lint.CountTokens(output); n == 0 {
		t.Fatalf("the tokenizer counts %d tokens in %q", n, output)
	}
}
