package wire

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// describe renders an event as one short line, so that tables of expected
// events stay readable.
func describe(e Event) string {
	switch e.Kind {
	case Text, Thinking:
		return fmt.Sprintf("%s:%s", e.Kind, e.Text)
	case Keepalive:
		if e.Text == "" {
			return "keepalive"
		}
		return "keepalive:" + e.Text
	case ToolCall:
		return fmt.Sprintf("tool_call:%d id=%s name=%s args=%s", e.Tool.Index, e.Tool.ID, e.Tool.Name, e.Tool.Arguments)
	case ToolCallDone:
		return fmt.Sprintf("tool_call_done:%d id=%s name=%s args=%s complete=%t", e.Tool.Index, e.Tool.ID, e.Tool.Name, e.Tool.Arguments, e.Tool.Complete)
	case Finish:
		return "finish:" + e.Finish
	case Usage:
		return fmt.Sprintf("usage:%d/%d/%d", e.Usage.InputTokens, e.Usage.OutputTokens, e.Usage.ReasoningTokens)
	case Error:
		return "error:" + e.Err.Error()
	}
	return e.Kind.String()
}

// collect reads d to its end and returns the described events and the error
// that ended it (nil for io.EOF).
func collect(t testing.TB, d Decoder) ([]string, error) {
	t.Helper()
	var out []string
	for i := 0; ; i++ {
		if i > 100000 {
			t.Fatal("decoder does not end")
		}
		e, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			// The error must be sticky.
			if _, err2 := d.Next(); !errors.Is(err2, err) && err2.Error() != err.Error() {
				t.Errorf("error not sticky: %v then %v", err, err2)
			}
			return out, err
		}
		out = append(out, describe(e))
	}
}

func equalLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events differ\n got: %q\nwant: %q", got, want)
	}
}
