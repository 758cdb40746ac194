package wire

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

func TestAnthropicDecoder(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{
			name: "thinking then text then end_turn",
			in: `event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":20,"cache_read_input_tokens":5,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me see."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}

event: message_stop
data: {"type":"message_stop"}

`,
			want: []string{"role", "usage:25/1/0", "meta", "keepalive", "thinking:Let me see.", "meta", "meta", "meta", "text:Hello", "meta", "usage:0/15/0", "finish:end_turn", "meta"},
		},
		{
			name: "tool use with input_json_delta",
			in: `event: message_start
data: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"file_read","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"path\": "}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"a.md\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}

event: message_stop
data: {"type":"message_stop"}
`,
			want: []string{
				"role", "usage:3/1/0",
				"tool_call:0 id=toolu_1 name=file_read args=",
				`tool_call:0 id= name= args={"path": `,
				`tool_call:0 id= name= args="a.md"}`,
				`tool_call_done:0 id=toolu_1 name=file_read args={"path": "a.md"} complete=true`,
				"usage:0/9/0", "finish:tool_use", "meta",
			},
		},
		{
			name: "max_tokens with a cut tool call",
			in: `data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_2","name":"file_list","input":{}}}

data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"pa"}}

data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"}}

data: {"type":"message_stop"}
`,
			want: []string{
				"tool_call:0 id=toolu_2 name=file_list args=",
				`tool_call:0 id= name= args={"pa`,
				`tool_call_done:0 id=toolu_2 name=file_list args={"pa complete=false`,
				"finish:max_tokens", "meta",
			},
		},
		{
			name: "error event",
			in:   "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
			want: []string{"error:overloaded_error: Overloaded"},
		},
		{
			name: "unknown events, redacted thinking, comments",
			in:   ": hi\n\nevent: future_thing\ndata: {\"type\":\"future_thing\"}\n\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"xx\"}}\n\nevent: ping\n\n",
			want: []string{"keepalive:hi", "meta", "thinking:", "keepalive"},
		},
		{
			name: "message_stop ends the stream",
			in:   "data: {\"type\":\"message_stop\"}\n\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"late\"}}\n\n",
			want: []string{"meta"},
		},
		{
			name:    "malformed",
			in:      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":\"zero\"}\n\n",
			wantErr: "malformed anthropic stream at line 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(t, NewAnthropicDecoder(iotest.HalfReader(strings.NewReader(tt.in))))
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" {
				var me *MalformedError
				if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want a MalformedError with %q", err, tt.wantErr)
				}
			}
			equalLines(t, got, tt.want)
		})
	}
}
