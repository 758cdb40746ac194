package cassette

import (
	"encoding/json"
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
