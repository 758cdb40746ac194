package wire

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// stream1MB builds a realistic stream of about 1 MB in protocol p: many
// small text deltas, as a model streams them, then a finish.
func stream1MB(p Protocol) []byte {
	var b bytes.Buffer
	words := strings.Fields("The quick brown fox jumps over the lazy dog while the model keeps on writing its answer")
	for i := 0; b.Len() < 1<<20; i++ {
		w := words[i%len(words)] + " "
		switch p {
		case OpenAI:
			fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-abc123\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"logprobs\":null,\"finish_reason\":null}]}\n\n", w)
		case Anthropic:
			fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", w)
		case Ollama:
			fmt.Fprintf(&b, "{\"model\":\"qwen3:30b\",\"created_at\":\"2025-05-01T10:00:00.000000Z\",\"message\":{\"role\":\"assistant\",\"content\":%q},\"done\":false}\n", w)
		}
	}
	switch p {
	case OpenAI:
		b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	case Anthropic:
		b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	case Ollama:
		b.WriteString("{\"done\":true,\"done_reason\":\"stop\"}\n")
	}
	return b.Bytes()
}

func benchmarkDecode(b *testing.B, p Protocol) {
	data := stream1MB(p)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(p, bytes.NewReader(data))
		n := 0
		for {
			e, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if e.Kind == Text {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no text decoded")
		}
	}
}

// BenchmarkDecodeOpenAI1MB decodes a 1 MB OpenAI stream; compare with
// BenchmarkRead1MB, which only reads the same bytes.
func BenchmarkDecodeOpenAI1MB(b *testing.B)    { benchmarkDecode(b, OpenAI) }
func BenchmarkDecodeAnthropic1MB(b *testing.B) { benchmarkDecode(b, Anthropic) }
func BenchmarkDecodeOllama1MB(b *testing.B)    { benchmarkDecode(b, Ollama) }

// BenchmarkRead1MB reads the 1 MB OpenAI stream through a 32 KiB buffer and
// does nothing else: the floor the decoders are measured against.
func BenchmarkRead1MB(b *testing.B) {
	data := stream1MB(OpenAI)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	buf := make([]byte, 32<<10)
	for b.Loop() {
		r := bytes.NewReader(data)
		for {
			_, err := r.Read(buf)
			if err == io.EOF {
				break
			}
		}
	}
}

// BenchmarkSSEFrames1MB frames the 1 MB OpenAI stream without decoding JSON.
func BenchmarkSSEFrames1MB(b *testing.B) {
	data := stream1MB(OpenAI)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewSSEReader(bytes.NewReader(data), 0)
		for {
			if _, err := s.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkNewRequest builds a model call's request with a system prompt
// of about 20 KB and ten tools: eager (a live call, the body encoded) and
// lazy (a replay's, whose body nothing reads).
func BenchmarkNewRequest(b *testing.B) {
	r := Request{Endpoint: "http://127.0.0.1:1/v1", Model: "m", System: strings.Repeat("You are a careful \"agent\".\n", 750),
		Messages: []Message{{Role: "user", Text: "Find the port."}}}
	for i := range 10 {
		r.Tools = append(r.Tools, Tool{Name: fmt.Sprintf("tool_%d", i), Description: "Does a thing.",
			Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string","description":"A path."}},"required":["path"]}`)})
	}
	for _, bl := range []struct {
		name  string
		build func(Protocol, context.Context, Request) (*http.Request, error)
	}{{"eager", Protocol.NewHTTPRequest}, {"lazy", Protocol.NewLazyRequest}} {
		b.Run(bl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, err := bl.build(OpenAI, context.Background(), r)
				if err != nil {
					b.Fatal(err)
				}
				req.Body.Close()
			}
		})
	}
}
