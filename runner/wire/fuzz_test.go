package wire

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// sseFrames reads every frame of in, whole or a byte at a time.
func sseFrames(in []byte, oneByte bool, max int) ([]string, error) {
	var r io.Reader = bytes.NewReader(in)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	s := NewSSEReader(r, max)
	var out []string
	for {
		f, err := s.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		if len(f.Data) > len(in) {
			panic("frame data longer than the input")
		}
		kind := "e:"
		if f.Comment {
			kind = "c:"
		}
		out = append(out, kind+f.Event+"\x00"+string(f.Data))
	}
}

func FuzzSSEReader(f *testing.F) {
	for _, seed := range []string{
		"data: {\"a\":1}\n\n",
		"event: ping\r\ndata: x\r\n\r\n",
		": keep-alive\r\rdata:a\rdata:b\r\r",
		"data\n\ndata:\n\nid: 1\nretry: 5\n\n",
		"data: unterminated",
		"\r\n\r\n\n\r",
		strings.Repeat("x", 100) + "\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, err1 := sseFrames(in, false, 64)
		bytewise, err2 := sseFrames(in, true, 64)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ by read size: %v vs %v", err1, err2)
		}
		if strings.Join(whole, "\x01") != strings.Join(bytewise, "\x01") {
			t.Fatalf("frames differ by read size:\n%q\n%q", whole, bytewise)
		}
	})
}

// drain reads every event of d, a decoder over n bytes, described.
func drain(d Decoder, n int) ([]string, error) {
	var out []string
	for i := 0; i <= n+8; i++ {
		e, err := d.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		out = append(out, describe(e))
	}
	panic("decoder returned more events than the input has bytes")
}

// decode reads every event of a decoder over in.
func decode(p Protocol, in []byte, oneByte bool) ([]string, error) {
	var r io.Reader = bytes.NewReader(in)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	d := NewDecoder(p, r)
	return drain(d, len(in))
}

func fuzzDecoder(f *testing.F, p Protocol, seeds []string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, err1 := decode(p, in, false)
		bytewise, err2 := decode(p, in, true)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ by read size: %v vs %v", err1, err2)
		}
		if strings.Join(whole, "\x01") != strings.Join(bytewise, "\x01") {
			t.Fatalf("events differ by read size:\n%q\n%q", whole, bytewise)
		}
	})
}

func FuzzOllamaDecoder(f *testing.F) {
	fuzzDecoder(f, Ollama, []string{
		`{"message":{"role":"assistant","content":"Hi","thinking":"t"},"done":false}` + "\n" + `{"done":true,"done_reason":"stop","eval_count":3}` + "\n",
		`{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"a":1}}},{"function":{"name":"g","arguments":"{\"b"}}]}}` + "\n",
		`{"error":"boom"}` + "\n\n",
		"{\"message\":{\"content\":\"a\\u0000\"}}\r\n{\"done\":true,\"done_reason\":null}",
		"not json\n",
	})
}

func FuzzOpenAIDecoder(f *testing.F) {
	fuzzDecoder(f, OpenAI, []string{
		"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\",\"reasoning\":\"r\"},\"finish_reason\":null}],\"error\":null}\n\n",
		"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
		"data: {\"choices\":null,\"usage\":{\"prompt_tokens\":1}}\n\n: ka\n\n",
		"data: {\"error\":{\"message\":\"m\",\"code\":1}}\n\n",
	})
}

func FuzzAnthropicDecoder(f *testing.F) {
	fuzzDecoder(f, Anthropic, []string{
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1}}}\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\n",
		"data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n",
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"y\"}}\n\n",
	})
}

// decodeOpenAI reads every event of an OpenAI decoder over in, with the
// chunk shapes on or off.
func decodeOpenAI(in []byte, shapes bool) ([]string, error) {
	d := NewOpenAIDecoder(bytes.NewReader(in))
	d.noShapes = !shapes
	return drain(d, len(in))
}

// checkShapes fails when reading in with the chunk shapes gives other
// events, or another error, than reading every chunk in full.
func checkShapes(t *testing.T, in []byte) {
	t.Helper()
	fast, err1 := decodeOpenAI(in, true)
	full, err2 := decodeOpenAI(in, false)
	if fmt.Sprint(err1) != fmt.Sprint(err2) || strings.Join(fast, "\x01") != strings.Join(full, "\x01") {
		t.Fatalf("%q:\nwith shapes %q (%v)\nin full     %q (%v)", in, fast, err1, full, err2)
	}
}

// shapeStream is a stream whose chunks share a shape but for their
// content, with chunks of other shapes among them.
func shapeStream(contents ...string) string {
	var b strings.Builder
	for _, c := range contents {
		fmt.Fprintf(&b, "data: {\"choices\":[{\"delta\":{\"content\":%s},\"finish_reason\":null,\"index\":0,\"logprobs\":null}],\"created\":1730000000,\"id\":\"chatcmpl-x\",\"model\":\"m\",\"object\":\"chat.completion.chunk\"}\n\n", c)
	}
	return b.String()
}

// TestSameShape: chunks that differ from the last text chunk only by
// their content read as they do in full, whatever the content holds,
// and chunks that differ otherwise are read in full.
func TestSameShape(t *testing.T) {
	role := "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null,\"index\":0}]}\n\n"
	finish := "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\",\"index\":0,\"logprobs\":null}],\"created\":1730000000,\"id\":\"chatcmpl-x\",\"model\":\"m\",\"object\":\"chat.completion.chunk\"}\n\n"
	streams := []string{
		role + shapeStream(`"Hello "`, `"world"`, `"caf\u00e9 \"q\" \\ \n"`, `""`, `"x"`, `null`, `"y"`, `7`, `"z"`, "\"a\x01b\"", `"é"`, "\"\xff\"", `"\ud800"`, `"ok"`) + finish + "data: [DONE]\n\n",
		shapeStream(`"a"`, `"b"`) + strings.Replace(shapeStream(`"c"`), `"id":"chatcmpl-x"`, `"id":"chatcmpl-y"`, 1) + shapeStream(`"d"`, `"e" `, `"f"`),
		shapeStream(`"a"`) + strings.Replace(shapeStream(`"b"`), `"finish_reason":null`, `"finish_reason":"length"`, 1) + shapeStream(`"c"`),
		shapeStream(`"a"`) + "event: error\n" + shapeStream(`"b"`) + shapeStream(`"c"`),
		shapeStream(`"a"`) + strings.Replace(shapeStream(`"b"`), `"content":"b"`, `"content":"b","content":"c"`, 1) + shapeStream(`"d"`),
		shapeStream(`"a"`, `"b"}`, `"c"`),
	}
	for _, s := range streams {
		checkShapes(t, []byte(s))
	}
	// The shape is taken, and used.
	d := NewOpenAIDecoder(strings.NewReader(shapeStream(`"a"`, `"b"`)))
	for range 2 {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if !d.shape.ok || !strings.HasSuffix(string(d.shape.head), `"content":`) {
		t.Fatalf("no shape kept: %+v", d.shape)
	}
}

func FuzzOpenAIShapes(f *testing.F) {
	f.Add([]byte(shapeStream(`"a"`, `"b\n"`, `"\u0063"`)))
	f.Add([]byte(shapeStream(`"a"`) + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\n" + shapeStream(`"c"`)))
	f.Fuzz(checkShapes)
}
