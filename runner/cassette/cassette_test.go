package cassette

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func sample() *Cassette {
	return &Cassette{
		Header: Header{
			Version: Version, RecordedAt: time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC), RunID: "0123456789abcdef0123456789abcdef",
			Agent: "code-analyst", Task: "Explain main.go", Protocol: "openai", ProviderType: "openai-compatible",
			Model: "m", Endpoint: "http://127.0.0.1:1/v1", Tools: []string{"file_read", "file_list"}, MaxToolIterations: 60,
			Limits: Limits{PrefillMS: 1000, InterDeltaMS: 2000, NoProgressMS: 3000, ThinkingOnlyMS: 9000, MaxCallMS: 10000},
		},
		Calls: []*Call{
			{N: 1, At: 5 * time.Millisecond, Status: 200, ContentType: "text/event-stream",
				Chunks: []Chunk{{At: 6 * time.Millisecond, Data: []byte("data: {\"choices\":[]}\n\n")}, {At: 9 * time.Millisecond, Data: []byte{0xff, 'x', '\n'}}},
				End:    &End{At: 10 * time.Millisecond, How: EndEOF},
				Tools:  []Tool{{Index: 0, ID: "call_1", Name: "file_read", Arguments: `{"path":"a"}`, Result: "line\n", Guard: GuardAllow}}},
			{N: 2, At: 3 * time.Millisecond, Error: "dial tcp: connection refused"},
		},
		Changes: []Change{{Path: "a.md", Kind: "added"}},
		Patch:   "diff --git a/a.md b/a.md\nnew file mode 100644\n",
	}
}

func TestRoundTrip(t *testing.T) {
	c := sample()
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	again, _ := back.Encode()
	if !bytes.Equal(data, again) {
		t.Errorf("round trip differs:\n%s\n%s", data, again)
	}
	if got := back.Call(1).Chunks[1].Data; !bytes.Equal(got, []byte{0xff, 'x', '\n'}) {
		t.Errorf("binary chunk %q", got)
	}
	if !strings.Contains(string(data), `"b64":"/3gK"`) || !strings.HasPrefix(string(data), `{"type":"cassette","version":1,`) {
		t.Errorf("encoding:\n%s", data)
	}
	if back.Patch != c.Patch {
		t.Errorf("patch %q, want %q", back.Patch, c.Patch)
	}
	if back.Call(0) != nil || back.Call(3) != nil || back.Call(2).Error == "" {
		t.Error("Call(n) bounds")
	}
}

func TestParseErrors(t *testing.T) {
	head := `{"type":"cassette","version":1,"protocol":"ollama","tools":[]}` + "\n"
	resp := `{"type":"response","call":1,"t_ms":5,"status":200}` + "\n"
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"empty", "", "empty", 0},
		{"not json", "hello\n", "not a JSON object", 1},
		{"no header", resp, "not the cassette header", 1},
		{"newer", `{"type":"cassette","version":2,"protocol":"ollama"}`, "newer agentdesk", 1},
		{"no version", `{"type":"cassette","protocol":"ollama"}`, "no format version", 1},
		{"protocol", `{"type":"cassette","version":1,"protocol":"grpc"}`, "protocol", 1},
		{"call order", head + `{"type":"response","call":2,"t_ms":0,"status":200}`, "call 1 comes next", 2},
		{"chunk first", head + `{"type":"chunk","call":1,"t_ms":0,"text":"x"}`, "current one", 2},
		{"both", head + resp + `{"type":"chunk","call":1,"t_ms":6,"text":"x","b64":"eA=="}`, "exactly one", 3},
		{"neither", head + resp + `{"type":"chunk","call":1,"t_ms":6}`, "exactly one", 3},
		{"bad b64", head + resp + `{"type":"chunk","call":1,"t_ms":6,"b64":"!!"}`, "not base64", 3},
		{"backwards", head + resp + `{"type":"chunk","call":1,"t_ms":4,"text":"x"}`, "goes back", 3},
		{"huge time", head + resp + `{"type":"chunk","call":1,"t_ms":99999999999999999,"text":"x"}`, "goes back", 3},
		{"after end", head + resp + `{"type":"end","call":1,"t_ms":6,"how":"eof"}` + "\n" + `{"type":"chunk","call":1,"t_ms":7,"text":"x"}`, "after its end", 4},
		{"two ends", head + resp + `{"type":"end","call":1,"t_ms":6,"how":"eof"}` + "\n" + `{"type":"end","call":1,"t_ms":7,"how":"eof"}`, "second end", 4},
		{"how", head + resp + `{"type":"end","call":1,"t_ms":6,"how":"maybe"}`, "end how", 3},
		{"no status", head + `{"type":"response","call":1,"t_ms":0}`, "neither a status nor an error", 2},
		{"no status, next call", head + `{"type":"response","call":1,"t_ms":0}` + "\n" + `{"type":"end","call":1,"t_ms":6,"how":"eof"}` + "\n" + `{"type":"response","call":2,"t_ms":0,"status":200}`, "neither a status nor an error", 4},
		{"status", head + `{"type":"response","call":1,"t_ms":0,"status":42}`, "not an HTTP status", 2},
		{"tool guard", head + resp + `{"type":"tool","call":1,"name":"x","arguments":"","result":"","guard":"maybe"}`, "tool guard", 3},
		{"tool call", head + resp + `{"type":"tool","call":3,"name":"x","guard":"allow"}`, "current one", 3},
		{"unknown", head + `{"type":"mystery"}`, "unknown line type", 2},
		{"two values", head + `{"type":"response"} {}`, "not a JSON object", 2},
		{"second header", head + head, "second header", 2},
		{"empty patch", head + `{"type":"patch","text":""}`, "a patch without text", 2},
		{"two patches", head + `{"type":"patch","text":"x"}` + "\n" + `{"type":"patch","text":"y"}`, "a second patch", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error with %q", err, tt.want)
			}
			var se *SyntaxError
			if tt.line > 0 && (!errors.As(err, &se) || se.Line != tt.line) {
				t.Errorf("error %v is not on line %d", err, tt.line)
			}
		})
	}
}

func TestParseWaitingCall(t *testing.T) {
	in := `{"type":"cassette","version":1,"protocol":"openai"}` + "\n" + `{"type":"response","call":1,"t_ms":300}` + "\n" + `{"type":"end","call":1,"t_ms":300,"how":"cut"}` + "\n"
	c, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if call := c.Call(1); call.Status != 0 || call.End.How != EndCut || call.End.At != 300*time.Millisecond {
		t.Errorf("%+v", call)
	}
}

func TestParseIsLenient(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"type":"cassette","version":1,"protocol":"anthropic","future":"ignored"}` + "\r\n\r\n" +
		`{"type":"response","call":1,"t_ms":0,"status":200,"extra":[1,2]}` + "\r\n"
	c, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.Header.Protocol != "anthropic" || len(c.Calls) != 1 || c.Calls[0].End != nil {
		t.Errorf("%+v", c)
	}
}

func FuzzRead(f *testing.F) {
	data, _ := sample().Encode()
	f.Add(data)
	f.Add([]byte(`{"type":"cassette","version":1,"protocol":"ollama"}` + "\n" + `{"type":"response","call":1,"t_ms":0,"error":"x"}`))
	f.Add([]byte("{\"type\":\"cassette\",\"version\":1,\"protocol\":\"openai\"}\n{\"type\":\"response\",\"call\":1,\"t_ms\":1,\"status\":200}\n{\"type\":\"chunk\",\"call\":1,\"t_ms\":2,\"b64\":\"AAE=\"}\n{\"type\":\"end\",\"call\":1,\"t_ms\":3,\"how\":\"cut\"}\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Parse(in)
		if err != nil {
			return
		}
		// What reads back encodes, and the encoding reads back the same.
		out, err := c.Encode()
		if err != nil {
			t.Fatalf("a parsed cassette does not encode: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("the encoding does not parse: %v\n%s", err, out)
		}
		again, _ := back.Encode()
		if !bytes.Equal(out, again) {
			t.Fatalf("encodings differ:\n%s\n%s", out, again)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	c := sample()
	chunk := []byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word \"}}]}\n\n")
	for i := range 10000 {
		c.Calls[0].Chunks = append(c.Calls[0].Chunks, Chunk{At: time.Duration(10+i) * time.Millisecond, Data: chunk})
	}
	c.Calls[0].End.At = time.Hour
	data, _ := c.Encode()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// oneReplyCall is sample with its first call alone, which offers no
// tools, streams nothing yet and ends after a second.
func oneReplyCall() *Cassette {
	c := sample()
	c.Calls = c.Calls[:1]
	c.Calls[0].Tools = nil
	c.Calls[0].Chunks = nil
	c.Calls[0].End.At = time.Second
	return c
}

// benchParse reports parsing c, encoded, by bytes and allocations.
func benchParse(b *testing.B, c *Cassette) {
	data, _ := c.Encode()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseWords reads a recording of one streamed reply of 60
// words, a chunk a word, as a loopback server's (and testdata/bench's)
// recordings hold them.
func BenchmarkParseWords(b *testing.B) {
	c := oneReplyCall()
	for i := range 60 {
		c.Calls[0].Chunks = append(c.Calls[0].Chunks, Chunk{At: time.Duration(10+i) * time.Millisecond,
			Data: fmt.Appendf(nil, "data: {\"choices\":[{\"delta\":{\"content\":\"word%d \"},\"finish_reason\":null,\"index\":0,\"logprobs\":null}],\"created\":1730000000,\"id\":\"chatcmpl-x\",\"model\":\"m\",\"object\":\"chat.completion.chunk\"}\n\n", i)})
	}
	benchParse(b, c)
}

// BenchmarkParseReply parses what a suite's replay reads for each case:
// a header and one call streaming a 60-word reply, a word a frame.
func BenchmarkParseReply(b *testing.B) {
	c := oneReplyCall()
	var body strings.Builder
	for i := range 60 {
		fmt.Fprintf(&body, "data: {\"choices\":[{\"delta\":{\"content\":\"word%d \"},\"finish_reason\":null,\"index\":0,\"logprobs\":null}],\"created\":1730000000,\"id\":\"chatcmpl-x\",\"model\":\"m\",\"object\":\"chat.completion.chunk\"}\n\n", i)
		if body.Len() > 4<<10 || i == 59 {
			c.Calls[0].Chunks = append(c.Calls[0].Chunks, Chunk{At: time.Duration(i) * time.Millisecond, Data: []byte(body.String())})
			body.Reset()
		}
	}
	benchParse(b, c)
}
