package runner

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/redact"
	"github.com/agentdesk/agentdesk/runner/wire"
)

func chunk(ms int, s string) cassette.Chunk {
	return cassette.Chunk{At: time.Duration(ms) * time.Millisecond, Data: []byte(s)}
}

func describeChunks(cs []cassette.Chunk) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%d:%q", c.At.Milliseconds(), c.Data))
	}
	return strings.Join(parts, " ")
}

func TestRedactLines(t *testing.T) {
	red := redact.New(plantedKey)
	k := plantedKey
	tests := []struct {
		name string
		in   []cassette.Chunk
		want string
	}{
		{"clean lines keep their chunks",
			[]cassette.Chunk{chunk(1, "data: a"), chunk(2, "bc\n\nda"), chunk(3, "ta: x\n")},
			`1:"data: a" 2:"bc\n\nda" 3:"ta: x\n"`},
		{"a secret inside one chunk",
			[]cassette.Chunk{chunk(1, "a\nkey "+k+" end\nb\n")},
			`1:"a\nkey [REDACTED] end\nb\n"`},
		{"a secret across chunks: its line moves to the chunk of its last byte",
			[]cassette.Chunk{chunk(1, "ok\nkey "+k[:6]), chunk(2, k[6:]+"\nnext"), chunk(3, " line\n")},
			`1:"ok\n" 2:"key [REDACTED]\nnext" 3:" line\n"`},
		{"the last line without its ending",
			[]cassette.Chunk{chunk(1, "x\n"), chunk(5, k)},
			`1:"x\n" 5:"[REDACTED]"`},
		{"nothing", nil, ``},
		{"a pattern key", []cassette.Chunk{chunk(2, "Authorization: Bearer abcdefghijklmnop\r\n")}, `2:"Authorization: Bearer [REDACTED]\r\n"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeChunks(redactLines(tt.in, red)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// FuzzRedactLines checks that redacting line by line gives, joined, the
// lines of the body each redacted, keeps the chunks' times in order, and
// leaves no empty chunk.
func FuzzRedactLines(f *testing.F) {
	f.Add([]byte("data: hello\n\n"), []byte{3, 9}, "planted-secret")
	f.Add([]byte("key planted-secret here\nx"), []byte{5, 1, 1}, "planted-secret")
	f.Add([]byte("Bearer abcdefghij\r\n"), []byte{}, "")
	f.Fuzz(func(t *testing.T, body, cuts []byte, secret string) {
		red := redact.New(secret)
		var in []cassette.Chunk
		rest := body
		for i, c := range cuts {
			n := min(int(c), len(rest))
			in = append(in, cassette.Chunk{At: time.Duration(i) * time.Millisecond, Data: rest[:n]})
			rest = rest[n:]
		}
		if len(rest) > 0 {
			in = append(in, cassette.Chunk{At: time.Duration(len(cuts)) * time.Millisecond, Data: rest})
		}
		out := redactLines(in, red)
		var want strings.Builder
		for _, line := range strings.SplitAfter(string(body), "\n") {
			want.WriteString(red.String(line))
		}
		var got bytes.Buffer
		var last time.Duration
		for _, c := range out {
			if len(c.Data) == 0 {
				t.Fatal("an empty chunk")
			}
			if c.At < last {
				t.Fatalf("time goes back: %s", describeChunks(out))
			}
			last = c.At
			got.Write(c.Data)
		}
		if got.String() != want.String() {
			t.Fatalf("joined %q, want %q", got.String(), want.String())
		}
	})
}

// handTape is a one-call cassette of protocol p whose body is the chunks,
// ending as end says.
func handTape(p wire.Protocol, end *cassette.End, chunks ...cassette.Chunk) *cassette.Cassette {
	return &cassette.Cassette{
		Header: cassette.Header{Version: 1, Protocol: p.String(), Agent: "hand", Task: "t", Model: "m", Endpoint: "http://127.0.0.1:9/v1",
			Limits: cassette.Limits{PrefillMS: 1000, InterDeltaMS: 1000, NoProgressMS: 1000, MaxCallMS: 5000}},
		Calls: []*cassette.Call{{N: 1, Status: 200, ContentType: "text/event-stream", Chunks: chunks, End: end}},
	}
}

func TestReplayEnds(t *testing.T) {
	text := `data: {"choices":[{"index":0,"delta":{"content":"Hi there"}}]}` + "\n\n"
	stop := `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	tests := []struct {
		name   string
		tape   *cassette.Cassette
		reason string
		errHas string
		total  int64
	}{
		{"eof after a finish", handTape(wire.OpenAI, &cassette.End{At: 30 * ms, How: cassette.EndEOF}, chunk(10, text), chunk(20, stop)), "", "", 30},
		{"a read error", handTape(wire.OpenAI, &cassette.End{At: 30 * ms, How: cassette.EndError, Error: "connection reset by peer"}, chunk(10, text)),
			vocab.ReasonLLMCallFailed, "connection reset by peer", 30},
		{"a dropped connection", handTape(wire.OpenAI, &cassette.End{At: 30 * ms, How: cassette.EndDropped}, chunk(10, text)),
			vocab.ReasonLLMCallFailed, "dropped mid-stream", 30},
		{"silence after text: the inter-delta budget", handTape(wire.OpenAI, &cassette.End{At: 5000 * ms, How: cassette.EndCut}, chunk(10, text)),
			vocab.ReasonNoActivity, "went silent", 1010},
		{"no end at all", handTape(wire.OpenAI, nil, chunk(10, text)), vocab.ReasonNoActivity, "", 1010},
		{"cancelled by the recorded run's parent", handTape(wire.OpenAI, &cassette.End{At: 400 * ms, How: cassette.EndCancelled}, chunk(10, text)),
			vocab.ReasonCancelledByParent, "", 400},
		{"headers that never came", &cassette.Cassette{Header: handTape(wire.OpenAI, nil).Header,
			Calls: []*cassette.Call{{N: 1, At: 1500 * ms, End: &cassette.End{At: 1500 * ms, How: cassette.EndCut}}}}, vocab.ReasonNoActivity, "prefill", 1000},
		{"a transport error", &cassette.Cassette{Header: handTape(wire.OpenAI, nil).Header,
			Calls: []*cassette.Call{{N: 1, At: 3 * ms, Error: "dial tcp 127.0.0.1:9: connect: connection refused"}}}, vocab.ReasonLLMCallFailed, `Post "http://127.0.0.1:9/v1/chat/completions": dial tcp 127.0.0.1:9: connect: connection refused`, 3},
		{"one frame in many chunks, with a one-byte chunk", handTape(wire.OpenAI, &cassette.End{At: 90 * ms, How: cassette.EndEOF},
			chunk(10, text[:5]), chunk(11, text[5:6]), chunk(12, text[6:]), chunk(80, stop)), "", "", 90},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, wire.OpenAI)
			_, rec := f.run(t, Spec{Replay: tt.tape, Fast: true})
			if rec.Reason != tt.reason || !strings.Contains(rec.Error, tt.errHas) {
				t.Errorf("got %s: %s", rec.Reason, rec.Error)
			}
			if rec.Timings.TotalMS != tt.total {
				t.Errorf("the run took %d ms on the recorded timeline, want %d", rec.Timings.TotalMS, tt.total)
			}
			if tt.reason == "" && rec.Output != "Hi there" {
				t.Errorf("output %q", rec.Output)
			}
		})
	}
}

func TestPlayerAtRecordedSpeed(t *testing.T) {
	tape := handTape(wire.OpenAI, &cassette.End{At: 150 * ms, How: cassette.EndEOF}, chunk(100, "abc"), chunk(150, "def"))
	tape.Calls[0].At = 50 * ms
	p := cassette.NewPlayer(tape, nil)
	req, _ := http.NewRequest("POST", "http://x/v1/chat/completions", strings.NewReader("{}"))
	start := time.Now()
	resp, err := p.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 50*ms {
		t.Errorf("headers after %s, recorded at 50ms", d)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("response %+v", resp)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "abcdef" {
		t.Errorf("body %q %v", body, err)
	}
	if d := time.Since(start); d < 150*ms {
		t.Errorf("the body ended after %s, recorded at 150ms", d)
	}
	resp.Body.Close()
	if _, err := resp.Body.Read(make([]byte, 4)); err == nil {
		t.Error("read after close")
	}
	// A second call the cassette does not hold.
	if _, err := p.RoundTrip(req); err == nil || !strings.Contains(err.Error(), "holds 1 model calls") {
		t.Errorf("second call: %v", err)
	}
	// Silence waits for the caller to give up.
	silent := cassette.NewPlayer(handTape(wire.OpenAI, &cassette.End{How: cassette.EndCut}, chunk(0, "x")), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*ms)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "POST", "http://x/", nil)
	resp, err = silent.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(resp.Body); string(b) != "x" || err != context.DeadlineExceeded {
		t.Errorf("silence: %q %v", b, err)
	}
}

// bigTape is a recorded OpenAI call of about 1 MB in 4 KiB chunks.
func bigTape() *cassette.Cassette {
	var b bytes.Buffer
	for b.Len() < 1<<20 {
		fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", "word ")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	data := b.Bytes()
	var chunks []cassette.Chunk
	for i := 0; i < len(data); i += 4 << 10 {
		chunks = append(chunks, cassette.Chunk{At: time.Duration(i/(4<<10)) * ms, Data: data[i:min(i+4<<10, len(data))]})
	}
	return handTape(wire.OpenAI, &cassette.End{At: time.Duration(len(chunks)) * ms, How: cassette.EndEOF}, chunks...)
}

// BenchmarkReplayFast1MB replays a 1 MB recorded stream fast: the player,
// the decoder, the watchdog, redaction and the run folder.
func BenchmarkReplayFast1MB(b *testing.B) {
	tape := bigTape()
	rn, err := New(Options{RunsDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for b.Loop() {
		r, err := rn.Start(context.Background(), Spec{Replay: tape, Fast: true})
		if err != nil {
			b.Fatal(err)
		}
		if rec, _ := r.Wait(); rec.Outcome != vocab.Completed {
			b.Fatalf("%s: %s", rec.Reason, rec.Error)
		}
	}
}

// BenchmarkTapeRedaction1MB redacts a recorded 1 MB stream line by line
// and checks it decodes clean, as a recording run does at the end of each
// call.
func BenchmarkTapeRedaction1MB(b *testing.B) {
	chunks := bigTape().Calls[0].Chunks
	red := redact.New(plantedKey, "another-configured-secret")
	b.SetBytes(1 << 20)
	b.ReportAllocs()
	for b.Loop() {
		out := redactLines(chunks, red)
		if !cleanStream(wire.OpenAI, out, red) {
			b.Fatal("not clean")
		}
	}
}
