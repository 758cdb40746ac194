package jsonlit

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

var stringSeeds = []string{`plain"`, `caf\u00e9 \"q\" \\ \/ \b\f\n\r\t"rest`, `😀 \ud83d\ude00"`, `\ud800"`, "tab\t\"", `\x"`, `unterminated`, "\xff\"", `"`}

// String reads what encoding/json reads, or says it is unsure.
func TestString(t *testing.T) {
	for _, s := range stringSeeds {
		checkString(t, []byte(s))
	}
	if out, rest, ok := String([]byte(`caf\u00e9 \"q\""tail`)); !ok || string(out) != `café "q"` || string(rest) != "tail" {
		t.Errorf("got %q, %q, %v", out, rest, ok)
	}
}

func checkString(t *testing.T, body []byte) {
	t.Helper()
	out, rest, ok := String(body)
	if !ok {
		return
	}
	tok := body[:len(body)-len(rest)]
	var want string
	if err := json.Unmarshal(append([]byte{'"'}, tok...), &want); err != nil {
		t.Fatalf("%q: read as %q, encoding/json refuses %q: %v", body, out, tok, err)
	}
	if string(out) != want {
		t.Fatalf("%q: read %q, encoding/json %q", body, out, want)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkString)
}

// Natural reads a JSON natural number of up to 15 digits.
func TestNatural(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int64
		rest string
		ok   bool
	}{
		{"0,", 0, ",", true}, {"123}", 123, "}", true}, {"999999999999999", 999999999999999, "", true},
		{"1234567890123456", 0, "", false}, {"01", 0, "", false}, {"-1", 0, "", false}, {"", 0, "", false}, {"x", 0, "", false},
	} {
		n, rest, ok := Natural([]byte(tt.in))
		if n != tt.n || string(rest) != tt.rest || ok != tt.ok {
			t.Errorf("%q: got %d %q %v, want %d %q %v", tt.in, n, rest, ok, tt.n, tt.rest, tt.ok)
		}
		if ok {
			if v, err := strconv.ParseInt(tt.in[:len(tt.in)-len(rest)], 10, 64); err != nil || v != n {
				t.Errorf("%q: %d, strconv %d (%v)", tt.in, n, v, err)
			}
		}
	}
}

// BenchmarkString decodes a short string that starts a long line, as a
// recording's header fields do: the work and the memory follow the
// string, not the line.
func BenchmarkString(b *testing.B) {
	line := []byte(`case 12","sha256":"` + strings.Repeat("x", 16<<10) + `"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := String(line); !ok {
			b.Fatal("not read")
		}
	}
}
