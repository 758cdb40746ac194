package wire

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestOpenAIDecoder(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{
			name: "text, finish, usage, done",
			in: `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"content":"lo \u00e9"},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"completion_tokens_details":{"reasoning_tokens":1}}}

data: [DONE]

`,
			want: []string{"role", "text:Hel", "text:lo é", "finish:stop", "usage:12/3/1"},
		},
		{
			name: "reasoning_content and reasoning both read",
			in: `data: {"choices":[{"delta":{"reasoning_content":"think A"}}]}

data: {"choices":[{"delta":{"reasoning":"think B","content":null}}]}

data: {"choices":[{"delta":{"reasoning":null,"reasoning_content":"","content":"answer"}}]}

data: {"choices":[{"delta":{"reasoning":"same","reasoning_content":"same"}}]}

data: {"choices":[{"delta":{},"finish_reason":"stop"}]}

data: [DONE]
`,
			want: []string{"thinking:think A", "thinking:think B", "text:answer", "thinking:same", "finish:stop"},
		},
		{
			name: "keepalive comments and usage with choices null",
			in: `: OPENROUTER PROCESSING

: keep-alive

data: {"choices":[{"delta":{"content":"x"},"finish_reason":"length"}]}

data: {"choices":null,"usage":{"prompt_tokens":5,"completion_tokens":7}}

data: [DONE]
`,
			want: []string{"keepalive:OPENROUTER PROCESSING", "keepalive:keep-alive", "text:x", "finish:length", "usage:5/7/0"},
		},
		{
			name: "error null is not an error",
			in: `data: {"choices":[{"delta":{"content":"ok"}}],"error":null}

data: {"choices":[{"delta":{},"finish_reason":"stop"}],"error":null}

data: [DONE]
`,
			want: []string{"text:ok", "finish:stop"},
		},
		{
			name: "error frame on a 200 stream",
			in: `data: {"choices":[{"delta":{"content":"partial"}}]}

data: {"error":{"message":"upstream overloaded","type":"server_error","code":502}}

`,
			want: []string{"text:partial", "error:server_error: upstream overloaded"},
		},
		{
			name: "error as a string and with a code only",
			in: `data: {"error":"boom"}

data: {"error":{"message":"slow down","code":"rate_limit_exceeded"}}

`,
			want: []string{"error:boom", "error:rate_limit_exceeded: slow down"},
		},
		{
			name: "event error carrying the error object",
			in:   "event: error\ndata: {\"message\":\"bad gateway\",\"type\":\"upstream\"}\n\n",
			want: []string{"error:upstream: bad gateway"},
		},
		{
			name: "tool call fragments by index",
			in: `data: {"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"file_read","arguments":""}}]}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":"}}]}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"file_list","arguments":"{}"}}]}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"a.md\"}"}}]}}]}

data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]
`,
			want: []string{
				"tool_call:0 id=call_a name=file_read args=",
				`tool_call:0 id= name= args={"path":`,
				"tool_call:1 id=call_b name=file_list args={}",
				`tool_call:0 id= name= args="a.md"}`,
				`tool_call_done:0 id=call_a name=file_read args={"path":"a.md"} complete=true`,
				"tool_call_done:1 id=call_b name=file_list args={} complete=true",
				"finish:tool_calls",
			},
		},
		{
			name: "tool_calls finish with broken JSON arguments",
			in: `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"file_read","arguments":"{\"path\": \"do"}}]}}]}

data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]
`,
			want: []string{
				`tool_call:0 id=c1 name=file_read args={"path": "do`,
				`tool_call_done:0 id=c1 name=file_read args={"path": "do complete=false`,
				"finish:tool_calls",
			},
		},
		{
			name: "stream that ends with no finish and no done",
			in: `data: {"choices":[{"delta":{"content":"cut"}}]}

data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{"}}]}}]}
`,
			want: []string{"text:cut", "tool_call:0 id=c name=f args={", "tool_call_done:0 id=c name=f args={ complete=false"},
		},
		{
			name: "done without finish",
			in:   "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"after done\"}}]}\n\n",
			want: []string{"text:a"},
		},
		{
			name: "empty chunks are meta",
			in:   "data: {}\n\ndata: {\"choices\":[]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"\"}}]}\n\ndata:\n\n",
			want: []string{"meta", "meta", "meta", "meta"},
		},
		{
			name: "other choices ignored",
			in:   `data: {"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}` + "\n\n",
			want: []string{"text:A"},
		},
		{
			name:    "malformed JSON",
			in:      "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"choices\":[{\"delta\n\n",
			want:    []string{"text:a"},
			wantErr: "malformed openai stream at line 3",
		},
		{
			name:    "finish_reason of the wrong type",
			in:      "data: {\"choices\":[{\"delta\":{},\"finish_reason\":7}]}\n\n",
			wantErr: "finish_reason is 7, not a string",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, crlf := range []bool{false, true} {
				in := tt.in
				if crlf {
					in = strings.ReplaceAll(in, "\n", "\r\n")
				}
				got, err := collect(t, NewOpenAIDecoder(iotest.HalfReader(strings.NewReader(in))))
				if tt.wantErr == "" && err != nil {
					t.Fatalf("crlf=%t: %v", crlf, err)
				}
				if tt.wantErr != "" {
					var me *MalformedError
					if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("crlf=%t: error %v, want a MalformedError with %q", crlf, err, tt.wantErr)
					}
				}
				equalLines(t, got, tt.want)
			}
		})
	}
}

func TestOpenAIDecoderBrokenConnection(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {\"cho"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := collect(t, NewOpenAIDecoder(r))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v, want unexpected EOF", err)
	}
	equalLines(t, got, []string{"text:a"})
}
