package wire

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// content sums up what a stream says, the way a run reads it: the text and
// the thinking joined, the whole tool calls, the finish reasons, the errors,
// the keepalives and the last usage.
type content struct {
	text, thinking string
	tools          []string
	finishes       []string
	errors         []string
	keepalives     int
	usage          TokenUsage
}

func (c content) String() string {
	return fmt.Sprintf("text=%q thinking=%q tools=%q finishes=%q errors=%q keepalives=%d usage=%v",
		c.text, c.thinking, c.tools, c.finishes, c.errors, c.keepalives, c.usage)
}

func summarize(events []Event, p Protocol) content {
	var c content
	for _, e := range events {
		switch e.Kind {
		case Text:
			c.text += e.Text
		case Thinking:
			c.thinking += e.Text
		case ToolCallDone:
			c.tools = append(c.tools, fmt.Sprintf("%s %s %s %t", e.Tool.ID, e.Tool.Name, e.Tool.Arguments, e.Tool.Complete))
		case Finish:
			c.finishes = append(c.finishes, e.Finish)
		case Error:
			msg := e.Err.Message
			if p != Ollama {
				msg = e.Err.Error()
			}
			c.errors = append(c.errors, msg)
		case Keepalive:
			if p != Ollama {
				c.keepalives++
			}
		case Usage:
			if e.Usage != (TokenUsage{}) {
				c.usage = e.Usage
			}
		}
	}
	if p != OpenAI {
		c.usage.ReasoningTokens = 0
	}
	return c
}

func decodeAll(t testing.TB, p Protocol, data []byte) []Event {
	t.Helper()
	d := NewDecoder(p, bytes.NewReader(data))
	var out []Event
	for {
		e, err := d.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("decoding the encoded stream: %v\n%s", err, data)
		}
		out = append(out, e)
	}
}

// checkRoundTrip encodes events and checks that they decode to the same
// content.
func checkRoundTrip(t testing.TB, p Protocol, events []Event) {
	t.Helper()
	chunks, end := Encode(p, events)
	if len(chunks) != len(events) {
		t.Fatalf("%d chunks for %d events", len(chunks), len(events))
	}
	data := append(bytes.Join(chunks, nil), end...)
	got := summarize(decodeAll(t, p, data), p)
	want := summarize(events, p)
	if p == Ollama && len(want.finishes) == 0 {
		want.usage = TokenUsage{} // Ollama reports counts on its done line only
	}
	if got.String() != want.String() {
		t.Errorf("%s round trip\n got %s\nwant %s\nstream %s", p, got, want, data)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	call := func(i int, id, name, args string) Event {
		return Event{Kind: ToolCallDone, Tool: ToolCallPart{Index: i, ID: id, Name: name, Arguments: args, Complete: completeJSON(args)}}
	}
	cases := map[string][]Event{
		"text": {{Kind: Role}, {Kind: Text, Text: "Hello "}, {Kind: Text, Text: "wörld \"quoted\"\n\x1b[2J"}, {Kind: Finish, Finish: "stop"}},
		"thinking then text": {{Kind: Thinking, Text: "hmm"}, {Kind: Keepalive, Text: "keep-alive"}, {Kind: Text, Text: "ok"},
			{Kind: Usage, Usage: TokenUsage{InputTokens: 10, OutputTokens: 3, ReasoningTokens: 1}}, {Kind: Finish, Finish: "end_turn"}},
		"tool calls": {{Kind: Text, Text: "Let me look."}, call(0, "call_1", "file_read", `{"path": "a.md"}`), call(1, "call_2", "file_list", ""),
			{Kind: Finish, Finish: "tool_calls"}, {Kind: Usage, Usage: TokenUsage{InputTokens: 5, OutputTokens: 2}}},
		"cut tool call":   {call(0, "toolu_1", "file_read", `{"path": "do`), {Kind: Finish, Finish: "length"}},
		"error frame":     {{Kind: Text, Text: "Partial"}, {Kind: Error, Err: &StreamError{Type: "overloaded_error", Message: "busy"}}},
		"keepalives only": {{Kind: Keepalive}, {Kind: Keepalive, Text: "OPENROUTER\nPROCESSING"}},
	}
	for name, events := range cases {
		for _, p := range []Protocol{OpenAI, Anthropic, Ollama} {
			t.Run(name+"/"+p.String(), func(t *testing.T) { checkRoundTrip(t, p, events) })
		}
	}
}

// FuzzEncode builds event sequences from the fuzzer's bytes and checks
// that every protocol decodes its own encoding to the same content.
func FuzzEncode(f *testing.F) {
	f.Add([]byte("\x01hello\x00\x02think\x00\x03file_read\x00{\"a\":1}\x00\x06"))
	f.Add([]byte("\x05\x04\x01\xff\xfe\x00\x07oops\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var events []Event
		next := func() string {
			i := bytes.IndexByte(in, 0)
			if i < 0 {
				s := string(in)
				in = nil
				return s
			}
			s := string(in[:i])
			in = in[i+1:]
			return s
		}
		calls := 0
		for len(in) > 0 && len(events) < 64 {
			op := in[0] % 8
			in = in[1:]
			switch op {
			case 1:
				if s := next(); s != "" {
					events = append(events, Event{Kind: Text, Text: strings.ToValidUTF8(s, "?")})
				}
			case 2:
				if s := next(); s != "" {
					events = append(events, Event{Kind: Thinking, Text: strings.ToValidUTF8(s, "?")})
				}
			case 3:
				name, args := strings.ToValidUTF8(next(), "?"), strings.ToValidUTF8(next(), "?")
				events = append(events, Event{Kind: ToolCallDone, Tool: ToolCallPart{Index: calls, ID: fmt.Sprintf("call_%d", calls), Name: name, Arguments: args, Complete: completeJSON(args)}})
				calls++
			case 4:
				events = append(events, Event{Kind: Keepalive})
			case 5:
				events = append(events, Event{Kind: Role})
			case 7:
				events = append(events, Event{Kind: Error, Err: &StreamError{Type: "t", Message: strings.ToValidUTF8(next(), "?")}})
			}
		}
		events = append(events, Event{Kind: Finish, Finish: "stop"})
		for _, p := range []Protocol{OpenAI, Anthropic, Ollama} {
			checkRoundTrip(t, p, events)
		}
	})
}
