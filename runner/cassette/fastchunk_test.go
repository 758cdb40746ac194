package cassette

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestFastChunk(t *testing.T) {
	tests := []struct {
		name, line string
		ok         bool
		call       int
		tms        int64
		text       string
	}{
		{"plain", `{"type":"chunk","call":1,"t_ms":398,"text":"data: hi\n\n"}`, true, 1, 398, "data: hi\n\n"},
		{"escapes", `{"type":"chunk","call":2,"t_ms":0,"text":"a\"b\\c\/d\b\f\n\r\te"}`, true, 2, 0, "a\"b\\c/d\b\f\n\r\te"},
		{"unicode escape", `{"type":"chunk","call":1,"t_ms":1,"text":"\u00e9\ud83d\ude00"}`, true, 1, 1, "é😀"},
		{"utf-8", `{"type":"chunk","call":1,"t_ms":1,"text":"héllo ✓"}`, true, 1, 1, "héllo ✓"},
		{"empty text", `{"type":"chunk","call":3,"t_ms":7,"text":""}`, true, 3, 7, ""},
		{"b64 goes the general way", `{"type":"chunk","call":1,"t_ms":1,"b64":"AAE="}`, false, 0, 0, ""},
		{"keys out of order", `{"call":1,"type":"chunk","t_ms":1,"text":"x"}`, false, 0, 0, ""},
		{"leading zero", `{"type":"chunk","call":01,"t_ms":1,"text":"x"}`, false, 0, 0, ""},
		{"negative time", `{"type":"chunk","call":1,"t_ms":-1,"text":"x"}`, false, 0, 0, ""},
		{"lone surrogate", `{"type":"chunk","call":1,"t_ms":1,"text":"\ud83d"}`, false, 0, 0, ""},
		{"invalid utf-8", "{\"type\":\"chunk\",\"call\":1,\"t_ms\":1,\"text\":\"\xff\"}", false, 0, 0, ""},
		{"control byte", "{\"type\":\"chunk\",\"call\":1,\"t_ms\":1,\"text\":\"a\x01\"}", false, 0, 0, ""},
		{"trailing key", `{"type":"chunk","call":1,"t_ms":1,"text":"x","b64":"AA=="}`, false, 0, 0, ""},
		{"unterminated", `{"type":"chunk","call":1,"t_ms":1,"text":"x`, false, 0, 0, ""},
		{"a response line", `{"type":"response","call":1,"t_ms":1,"status":200}`, false, 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, tms, text, ok := fastChunk([]byte(tt.line))
			if ok != tt.ok || call != tt.call || tms != tt.tms || string(text) != tt.text {
				t.Errorf("fastChunk = %d %d %q %v, want %d %d %q %v", call, tms, text, ok, tt.call, tt.tms, tt.text, tt.ok)
			}
		})
	}
}

// TestEncodeReadsFast checks that what Encode writes takes the fast way,
// so a change to either side that loses it is seen.
func TestEncodeReadsFast(t *testing.T) {
	c := &Cassette{Header: Header{Protocol: "openai"}, Calls: []*Call{{N: 1, Status: 200, Chunks: []Chunk{{At: time.Millisecond, Data: []byte("data: {\"x\":\"<é>\\n\"}\n\n")}}, End: &End{At: 2 * time.Millisecond, How: EndEOF}}}}
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	fast := 0
	for _, line := range splitLines(data) {
		if _, _, text, ok := fastChunk(line); ok {
			fast++
			if string(text) != string(c.Calls[0].Chunks[0].Data) {
				t.Errorf("fast text %q, want %q", text, c.Calls[0].Chunks[0].Data)
			}
		}
	}
	if fast != 1 {
		t.Errorf("%d chunk lines read the fast way, want 1:\n%s", fast, data)
	}
}

// Parse and Read give the chunks of a recording one array for their
// text; each chunk's Data is capped at its own end, so an append to one
// never writes over the next, and the text is what was encoded.
func TestParseChunksShareNoCapacity(t *testing.T) {
	call := &Call{N: 1, Status: 200, End: &End{At: 9 * time.Millisecond, How: EndEOF}}
	for i, w := range []string{"data: {\"x\":\"<é>\\n\"}\n\n", "plain", "", "data: [DONE]\n\n"} {
		call.Chunks = append(call.Chunks, Chunk{At: time.Duration(i) * time.Millisecond, Data: []byte(w)})
	}
	c := &Cassette{Header: Header{Protocol: "openai"}, Calls: []*Call{call}}
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	read, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*Cassette{parsed, read} {
		chunks := got.Calls[0].Chunks
		for i, ch := range chunks {
			if string(ch.Data) != string(call.Chunks[i].Data) {
				t.Fatalf("chunk %d read as %q, want %q", i, ch.Data, call.Chunks[i].Data)
			}
			if cap(ch.Data) != len(ch.Data) {
				t.Errorf("chunk %d: %d bytes with capacity %d: an append would write over the next", i, len(ch.Data), cap(ch.Data))
			}
		}
		_ = append(chunks[0].Data, "XXXXXXXX"...)
		if string(chunks[1].Data) != "plain" {
			t.Errorf("an append to chunk 0 changed chunk 1 to %q", chunks[1].Data)
		}
	}
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		out = append(out, b[:i])
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}

// FuzzFastChunk checks the fast way against encoding/json: wherever it
// reads a line, encoding/json reads the same.
func FuzzFastChunk(f *testing.F) {
	for _, s := range []string{
		`{"type":"chunk","call":1,"t_ms":398,"text":"data: hi\n\n"}`,
		`{"type":"chunk","call":1,"t_ms":1,"text":"\u00e9\ud83d\ude00\"\\"}`,
		"{\"type\":\"chunk\",\"call\":1,\"t_ms\":1,\"text\":\"h\xc3\xa9\"}",
		`{"type":"chunk","call":1,"t_ms":1,"text":"\ud800\u0041"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		call, tms, text, ok := fastChunk(raw)
		if !ok {
			return
		}
		var l chunkLine
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatalf("fast read %q, encoding/json says %v", raw, err)
		}
		if l.Type != "chunk" || l.Call != call || l.TMS != tms || l.B64 != nil || l.Text == nil || *l.Text != string(text) {
			t.Fatalf("fast read %q as %d %d %q; encoding/json as %+v", raw, call, tms, text, l)
		}
	})
}

// TestEncodeReadsLinesFast: the header, response and end lines Encode
// writes take the fast way, and read back as encoding/json reads them.
func TestEncodeReadsLinesFast(t *testing.T) {
	c := sample()
	c.Header.Skill, c.Header.Context, c.Header.Role, c.Header.Loop, c.Header.MaxTokens = "sk", "ctx \"q\" é", "Main", LoopRules, 512
	c.Calls[0].Reencoded = true
	c.Calls = append(c.Calls, &Call{N: 3, At: time.Millisecond, Status: 200, End: &End{At: 2 * time.Millisecond, How: EndCut}})
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	lines := splitLines(data)
	if !checkFastHeader(t, lines[0]) {
		t.Errorf("the header does not read the fast way: %s", lines[0])
	}
	calls := 0
	for _, line := range lines[1:] {
		if checkFastCallLine(t, line) {
			calls++
		}
	}
	// Call 2's response holds an error: it goes the general way.
	if want := 2 + 2; calls != want {
		t.Errorf("%d response and end lines read the fast way, want %d:\n%s", calls, want, data)
	}
	for _, h := range []Header{{Protocol: "openai"}, {Version: 1, Protocol: "ollama", Tools: []string{}, Limits: Limits{MaxCallMS: 5}}} {
		data, err := (&Cassette{Header: h}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !checkFastHeader(t, splitLines(data)[0]) {
			t.Errorf("the header does not read the fast way: %s", data)
		}
	}
}

// checkFastHeader fails when the fast way reads raw otherwise than
// encoding/json, and reports whether it read it.
func checkFastHeader(t *testing.T, raw []byte) bool {
	t.Helper()
	h, ok := fastHeader(raw)
	if !ok {
		return false
	}
	var want headerLine
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("fast read %q, encoding/json says %v", raw, err)
	}
	if !h.RecordedAt.Equal(want.RecordedAt) || h.RecordedAt.String() != want.RecordedAt.String() {
		t.Fatalf("fast read %q at %v; encoding/json at %v", raw, h.RecordedAt, want.RecordedAt)
	}
	h.RecordedAt, want.RecordedAt = time.Time{}, time.Time{}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("fast read %q as %+v; encoding/json as %+v", raw, h, want)
	}
	return true
}

// checkFastCallLine is checkFastHeader of response and end lines.
func checkFastCallLine(t *testing.T, raw []byte) bool {
	t.Helper()
	l, ok := fastCallLine(raw)
	if !ok {
		return false
	}
	var want anyLine
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("fast read %q, encoding/json says %v", raw, err)
	}
	if !reflect.DeepEqual(l, want) {
		t.Fatalf("fast read %q as %+v; encoding/json as %+v", raw, l, want)
	}
	return true
}

// FuzzFastLines checks the fast ways of header, response and end lines
// against encoding/json.
func FuzzFastLines(f *testing.F) {
	data, _ := sample().Encode()
	for _, line := range splitLines(data) {
		f.Add(line)
	}
	for _, s := range []string{
		`{"type":"cassette","version":1,"recorded_at":"2025-05-01T10:00:00+02:00","protocol":"openai","tools":["a","b\"c"],"loop":1,"limits":{"prefill_ms":1,"inter_delta_ms":2,"no_progress_ms":3,"thinking_only_ms":4}}`,
		`{"type":"response","call":1,"t_ms":0,"status":200,"content_type":"text/event-stream","reencoded":true}`,
		`{"type":"response","call":1,"t_ms":0,"reencoded":false}`,
		`{"type":"end","call":1,"t_ms":1,"how":"eof"}`,
		`{"type":"end","call":1,"t_ms":1,"how":"error","error":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastHeader(t, raw)
		checkFastCallLine(t, raw)
	})
}
