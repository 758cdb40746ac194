package jsonlit

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
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

// specialMask finds the first byte that is not plain wherever it is
// among eight, whatever the others.
func TestSpecialMask(t *testing.T) {
	check := func(w [8]byte) {
		want := 8
		for k, c := range w {
			if !plain[c] {
				want = k
				break
			}
		}
		got := 8
		if m := specialMask(binary.LittleEndian.Uint64(w[:])); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != want {
			t.Fatalf("specialMask(%q) finds byte %d, want %d", w, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		for fill := 0; fill < 256; fill++ {
			for p := 0; p < 8; p++ {
				var w [8]byte
				for k := range w {
					w[k] = byte(fill)
				}
				w[p] = byte(c)
				check(w)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1 << 18 {
		var w [8]byte
		for k := range w {
			w[k] = byte(0x1c + rng.IntN(0x68)) // around the edges: controls, quote, backslash, DEL, high
		}
		check(w)
	}
}

// A long string, its escapes at every offset from the eight-byte runs.
func TestStringLong(t *testing.T) {
	for pad := 0; pad < 9; pad++ {
		body := strings.Repeat("p", pad) + `data: {\"a\":\"caf\u00e9 \\ x\"}\n\n` + strings.Repeat("é", pad) + `plain text here"}`
		checkString(t, []byte(body))
		if _, _, ok := String([]byte(body)); !ok {
			t.Errorf("%q: not read", body)
		}
	}
}

func checkString(t *testing.T, body []byte) {
	t.Helper()
	out, rest, ok := String(body)
	if s, srest, sok := Str(body); sok != ok || s != string(out) || string(srest) != string(rest) {
		t.Fatalf("%q: Str %q %q %v, String %q %q %v", body, s, srest, sok, out, rest, ok)
	}
	checkAppend(t, body, out, rest, ok)
	line := append([]byte(`{"k":"`), body...)
	if s, srest, sok := SubStr(string(line), line[len(`{"k":"`):]); sok != ok || s != string(out) || string(srest) != string(rest) {
		t.Fatalf("%q: SubStr %q %q %v, String %q %q %v", body, s, srest, sok, out, rest, ok)
	}
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

// checkAppend: AppendString reads what String reads, after what dst
// holds, into dst's own array when it has room and into a new one when
// it has not, and leaves dst's bytes as they were.
func checkAppend(t *testing.T, body, want, wantRest []byte, wantOK bool) {
	t.Helper()
	for _, spare := range []int{0, len(body)} {
		dst := append(make([]byte, 0, 2+spare), "ab"...)
		out, rest, ok := AppendString(dst, body)
		if ok != wantOK || (ok && (string(out) != "ab"+string(want) || string(rest) != string(wantRest))) {
			t.Fatalf("%q after %q (spare %d): AppendString %q %q %v, String %q %q %v", body, dst, spare, out, rest, ok, want, wantRest, wantOK)
		}
		if !ok && string(out) != "ab" {
			t.Fatalf("%q: AppendString refused and gave %q, not dst %q", body, out, dst)
		}
		if ok && spare > 0 && &out[:1][0] != &dst[:1][0] {
			t.Fatalf("%q: AppendString left dst's array with %d bytes to spare", body, spare)
		}
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

// BenchmarkStringEscaped decodes a cassette's chunk text: an OpenAI
// stream, its quotes escaped every few bytes, as a replay reads it for
// every recorded piece.
// BenchmarkAppendStringEscaped is BenchmarkStringEscaped appending into
// one array, as a recording's reader does for its chunk lines.
func BenchmarkAppendStringEscaped(b *testing.B) {
	line := []byte(`data: {\"id\":\"c1\",\"choices\":[{\"delta\":{\"content\":\"word \"}}]}\n\n"}`)
	arena := make([]byte, 0, 64<<10)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if cap(arena)-len(arena) < len(line) {
			arena = arena[:0]
		}
		var ok bool
		if arena, _, ok = AppendString(arena, line); !ok {
			b.Fatal("not read")
		}
	}
}

func BenchmarkStringEscaped(b *testing.B) {
	frame := `data: {\"choices\":[{\"delta\":{\"content\":\"words \"},\"finish_reason\":null,\"index\":0,\"logprobs\":null}],\"created\":1730000000,\"id\":\"chatcmpl-modeltest\",\"model\":\"bench-model\",\"object\":\"chat.completion.chunk\"}\n\n`
	line := []byte(strings.Repeat(frame, 20) + `"}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := String(line); !ok {
			b.Fatal("not read")
		}
	}
}
