package evalrec

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// headerSeeds are header and tape lines as Encode writes them, and lines
// that must go through encoding/json; fast says which.
var headerSeeds = []struct {
	line string
	fast bool
}{
	{`{"type":"recording","version":1,"kind":"test","suite":"porter.test.yaml","case":"case 0","sample":1,"recorded_at":"2026-12-02T05:49:19.017866748Z","fingerprint":[{"name":"audience","sha256":"845f","value":"Personal"},{"name":"system prompt: body","sha256":"d5f4"}]}`, true},
	{`{"type":"recording","version":1,"kind":"route","suite":"s.route.yaml","case":"caf\u00e9 \"q\" ☃","sample":12,"recorded_at":"2026-01-02T03:04:05+02:00","fingerprint":[]}`, true},
	{`{"type":"tape","name":"run","lines":6}`, true},
	{`{"type":"tape","name":"judge","lines":0}`, true},
	// Through encoding/json: another key order, a space, a null, a
	// negative number, a lone surrogate, a time that is not RFC 3339,
	// no newline, not JSON.
	{`{"version":1,"type":"recording","kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[]}`, false},
	{`{"type":"recording", "version":1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[]}`, false},
	{`{"type":"recording","version":1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":null}`, false},
	{`{"type":"recording","version":-1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[]}`, false},
	{`{"type":"recording","version":1,"kind":"test","suite":"s","case":"\ud800","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[]}`, false},
	{`{"type":"recording","version":1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"yesterday","fingerprint":[]}`, false},
	{`{"type":"recording","version":1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[{"name":"a","sha256":"b","value":"c","extra":1}]}`, false},
	{`{"type":"recording","version":1,"kind":"test","suite":"s","case":"c","sample":1,"recorded_at":"2026-12-02T05:49:19Z","fingerprint":[,]}`, false},
	{`{"type":"tape","name":"run","lines":6,"more":true}`, false},
	{`not json`, false},
}

// fastHeader and fastTapeLine read what Encode writes themselves, leave
// the rest to encoding/json, and read what it reads.
func TestFastHeader(t *testing.T) {
	for _, tt := range headerSeeds {
		_, okH := fastHeader([]byte(tt.line + "\n"))
		_, okT := fastTapeLine([]byte(tt.line + "\n"))
		if (okH || okT) != tt.fast {
			t.Errorf("%s: read without encoding/json %v, want %v", tt.line, okH || okT, tt.fast)
		}
		checkFastHeader(t, []byte(tt.line+"\n"))
		if h, ok := fastHeader([]byte(tt.line)); ok {
			t.Errorf("%s: a line without its newline read as %+v", tt.line, h)
		}
	}
	// What Encode writes, read back.
	r := &Recording{Kind: "test", Suite: "a.test.yaml", Case: "finds the port — \"quoted\"", Sample: 3,
		RecordedAt: time.Date(2026, 12, 2, 5, 49, 19, 17, time.UTC), Fingerprint: Fingerprint{NewPart("model", "local/m", ""), NewDigest("first message", "x", "")}}
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	line := data[:strings.IndexByte(string(data), '\n')+1]
	h, ok := fastHeader(line)
	if !ok {
		t.Fatalf("the header Encode writes went through encoding/json: %s", line)
	}
	checkFastHeader(t, line)
	if h.Case != r.Case || h.Sample != 3 || !h.RecordedAt.Equal(r.RecordedAt) || len(h.Fingerprint) != 2 || h.Fingerprint[0].Value != "local/m" {
		t.Errorf("read back %+v", h)
	}
}

// checkFastHeader fails when encoding/json reads line otherwise than the
// fast readers.
func checkFastHeader(t *testing.T, line []byte) {
	t.Helper()
	if h, ok := fastHeader(line); ok {
		var std header
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("%q: read without encoding/json, which refuses it: %v", line, err)
		}
		if !reflect.DeepEqual(h, std) {
			t.Fatalf("%q:\n read %#v\njson %#v", line, h, std)
		}
	}
	if tl, ok := fastTapeLine(line); ok {
		var std tapeLine
		if err := json.Unmarshal(line, &std); err != nil || std != tl {
			t.Fatalf("%q: read %+v, encoding/json %+v (%v)", line, tl, std, err)
		}
	}
}

func FuzzFastHeader(f *testing.F) {
	for _, s := range headerSeeds {
		f.Add([]byte(s.line + "\n"))
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkFastHeader(t, line) })
}
