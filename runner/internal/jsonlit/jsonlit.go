// Package jsonlit reads JSON literals (strings, natural numbers) exactly
// as encoding/json does, without reflection, for the readers of
// agentdesk's own recordings that know their lines' layout (cassette
// chunk lines, recording headers). Each says when it is unsure, and the
// caller then takes encoding/json's way.
package jsonlit

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Natural reads a JSON non-negative integer of at most 15 digits (no
// leading zero but for 0 itself) at the start of b, and returns what
// follows it.
func Natural(b []byte) (int64, []byte, bool) {
	i := 0
	var n int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if i == 15 {
			return 0, nil, false
		}
		n = n*10 + int64(b[i]-'0')
		i++
	}
	if i == 0 || (i > 1 && b[0] == '0') {
		return 0, nil, false
	}
	return n, b[i:], true
}

// String decodes a JSON string's body (b starts after its opening
// quote) up to its closing quote, and returns the bytes after it. ok is
// false for anything it is not sure of: a control character, invalid
// UTF-8, an unknown escape, a lone surrogate (which encoding/json turns
// into U+FFFD); where ok is true the text is what encoding/json decodes.
// out is a new slice of its own, exactly as long as the text.
func String(b []byte) (out, rest []byte, ok bool) {
	i := plainRun(b, 0)
	if i < len(b) && b[i] == '"' {
		// Plain ASCII all along: the body as it is.
		return append(make([]byte, 0, i), b[:i]...), b[i+1:], true
	}
	// Decoded, the body is never longer than written: it goes into a
	// scratch buffer as long as b (b runs on to the end of a line or a
	// file), then into out, made once to its size.
	buf := getScratch(len(b))
	defer putScratch(buf)
	text, rest, ok := unescape(b, i, (*buf)[:len(b)])
	if !ok {
		return nil, nil, false
	}
	return append(make([]byte, 0, len(text)), text...), rest, true
}

// AppendString is String that decodes into dst's spare capacity: it
// returns dst with the text appended, and the text starts at dst's old
// length. When dst has fewer than len(b) spare bytes it allocates as
// append does. A reader that decodes many strings of one input (a
// recording's chunk lines) gives them one backing array this way, one
// allocation instead of one a string. On !ok, out is dst as it was.
func AppendString(dst, b []byte) (out, rest []byte, ok bool) {
	i := plainRun(b, 0)
	if i < len(b) && b[i] == '"' {
		return append(dst, b[:i]...), b[i+1:], true
	}
	n := len(dst)
	if cap(dst)-n < len(b) {
		dst = append(make([]byte, 0, n+len(b)), dst...)
	}
	text, rest, ok := unescape(b, i, dst[n:n+len(b)])
	if !ok {
		return dst[:n], nil, false
	}
	return dst[:n+len(text)], rest, true
}

// Str is String that returns the text as a string.
func Str(b []byte) (text string, rest []byte, ok bool) {
	i := plainRun(b, 0)
	if i < len(b) && b[i] == '"' {
		return string(b[:i]), b[i+1:], true
	}
	buf := getScratch(len(b))
	defer putScratch(buf)
	t, rest, ok := unescape(b, i, (*buf)[:len(b)])
	if !ok {
		return "", nil, false
	}
	return string(t), rest, true
}

// SubStr is Str for b, a suffix of the bytes the string src was made
// from (src = string(line), b a tail of line): text with no escape is a
// substring of src, with no allocation of its own; text with one is
// decoded as Str does. A reader of a line of many strings (a recording's
// header) makes one string of the line, not one a member.
func SubStr(src string, b []byte) (text string, rest []byte, ok bool) {
	i := plainRun(b, 0)
	if i < len(b) && b[i] == '"' && len(b) <= len(src) {
		off := len(src) - len(b)
		return src[off : off+i], b[i+1:], true
	}
	return Str(b)
}

// unescape decodes the body b (its first i bytes plain) into dst, as long
// as b, and returns the text (in dst) and what follows the body.
func unescape(b []byte, i int, dst []byte) (text, rest []byte, ok bool) {
	n := copy(dst, b[:i])
	for i < len(b) {
		if i+8 <= len(b) {
			// Eight bytes go across at once, and the plain ones among
			// them count (dst is as long as b: they fit, and what
			// follows the plain ones is written over next).
			w := binary.LittleEndian.Uint64(b[i:])
			binary.LittleEndian.PutUint64(dst[n:], w)
			m := specialMask(w)
			if m == 0 {
				i, n = i+8, n+8
				continue
			}
			k := bits.TrailingZeros64(m) / 8
			i, n = i+k, n+k
		}
		c := b[i]
		switch {
		case c == '"':
			return dst[:n], b[i+1:], true
		case c < 0x20:
			return nil, nil, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, nil, false
			}
			n += copy(dst[n:], b[i:i+size])
			i += size
			continue
		case c != '\\':
			dst[n] = c // the last few bytes of b
			i, n = i+1, n+1
			continue
		}
		if i+1 >= len(b) {
			return nil, nil, false
		}
		switch b[i+1] {
		case '"', '\\', '/':
			dst[n] = b[i+1]
		case 'b':
			dst[n] = '\b'
		case 'f':
			dst[n] = '\f'
		case 'n':
			dst[n] = '\n'
		case 'r':
			dst[n] = '\r'
		case 't':
			dst[n] = '\t'
		case 'u':
			r, ok := hex4(b[i+2:])
			if !ok {
				return nil, nil, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				// A pair, or encoding/json's U+FFFD: leave that to it.
				if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
					return nil, nil, false
				}
				r2, ok := hex4(b[i+2:])
				if !ok {
					return nil, nil, false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return nil, nil, false
				}
				i += 6
			}
			// Written, the escape took 6 or 12 bytes; decoded, the rune
			// takes at most 3 or 4.
			n += utf8.EncodeRune(dst[n:], r)
			continue
		default:
			return nil, nil, false
		}
		n++
		i += 2
	}
	return nil, nil, false
}

// plainRun returns where the run of plain bytes (see plain) that starts at
// b[i] ends: eight bytes at a time, then one by one.
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := specialMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// specialMask has the high bit set of the first byte of w (in memory
// order) that is not plain, a quote, a backslash, a control character or
// a byte outside ASCII, and none below it; 0 when all eight are plain.
// A byte is zero in w^(ones*'"') where w has a quote, and (v-ones)&^v
// has the high bit of the lowest zero byte of v set and of no byte below
// it (a borrow only runs upwards from a zero byte); so does
// (w-ones*0x20)&^w for the lowest byte below 0x20, and w itself for a
// byte outside ASCII. Above the first, bits may be set for plain bytes.
func specialMask(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, s := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (s-ones)&^s | (w-ones*0x20)&^w | w) & highs
}

// scratch holds String's buffers for escaped text, up to maxScratch
// bytes each.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

const maxScratch = 1 << 20

// getScratch returns a buffer of at least n bytes.
func getScratch(n int) *[]byte {
	if n > maxScratch {
		b := make([]byte, n)
		return &b
	}
	buf := scratch.Get().(*[]byte)
	if cap(*buf) < n {
		*buf = make([]byte, max(n, 4<<10))
	}
	return buf
}

// putScratch gives buf back, unless it is larger than maxScratch.
func putScratch(buf *[]byte) {
	if cap(*buf) <= maxScratch {
		scratch.Put(buf)
	}
}

// plain marks the bytes a string's body holds as they are: ASCII but
// for the quote, the backslash and control characters.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
