package wire

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

func TestOllamaDecoder(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{
			name: "thinking, text, done",
			in: `{"model":"qwen3:30b","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"","thinking":"hmm"},"done":false}
{"model":"qwen3:30b","message":{"role":"assistant","content":"Hi"},"done":false}

{"model":"qwen3:30b","message":{"role":"assistant","content":""},"done":false}
{"model":"qwen3:30b","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":11,"eval_count":4}
`,
			want: []string{"thinking:hmm", "text:Hi", "meta", "role", "finish:stop", "usage:11/4/0"},
		},
		{
			name: "tool calls arrive whole",
			in: `{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"file_read","arguments":{"path":"a.md"}}},{"function":{"name":"file_list","arguments":"{\"path\":"}}]},"done":false}
{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}
`,
			want: []string{
				`tool_call:0 id= name=file_read args={"path":"a.md"}`,
				`tool_call_done:0 id= name=file_read args={"path":"a.md"} complete=true`,
				`tool_call:1 id= name=file_list args={"path":`,
				`tool_call_done:1 id= name=file_list args={"path": complete=false`,
				"finish:stop",
			},
		},
		{
			name: "length",
			in:   "{\"message\":{\"content\":\"cut\"},\"done\":false}\r\n{\"done\":true,\"done_reason\":\"length\"}\r\n",
			want: []string{"text:cut", "finish:length"},
		},
		{
			name: "done without reason, then nothing more is read",
			in:   "{\"done\":true}\n{\"message\":{\"content\":\"late\"}}\n",
			want: []string{"finish:"},
		},
		{
			name: "error line",
			in:   "{\"message\":{\"content\":\"a\"}}\n{\"error\":\"model 'x' not found\"}\n",
			want: []string{"text:a", "error:model 'x' not found"},
		},
		{
			name: "no done line",
			in:   "{\"message\":{\"content\":\"a\"}}\n",
			want: []string{"text:a"},
		},
		{
			name:    "malformed line",
			in:      "{\"message\":{\"content\":\"a\"}}\nnot json\n",
			want:    []string{"text:a"},
			wantErr: "malformed ollama stream at line 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(t, NewOllamaDecoder(iotest.OneByteReader(strings.NewReader(tt.in))))
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
