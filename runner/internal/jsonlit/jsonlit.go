// Package jsonlit reads JSON literals (strings, natural numbers) exactly
// as encoding/json does, without reflection, for the readers of
// agentdesk's own recordings that know their lines' layout (cassette
// chunk lines, recording headers). Each says when it is unsure, and the
// caller then takes encoding/json's way.
package jsonlit

import (
	"bytes"
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
func String(b []byte) (out, rest []byte, ok bool) {
	// The body ends at the first quote no backslash escapes; decoded, it
	// is never longer than written, so out is made once, to that size
	// (b runs on to the end of a line or a file).
	end := 0
	for {
		k := bytes.IndexByte(b[end:], '"')
		if k < 0 {
			return nil, nil, false
		}
		end += k
		n := 0 // the backslashes before it: an odd number escapes it
		for n < end && b[end-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			break
		}
		end++
	}
	out = make([]byte, 0, end)
	i := 0
	for i < len(b) {
		// A run of plain ASCII goes in at once.
		j := i
		for j < len(b) && plain[b[j]] {
			j++
		}
		out = append(out, b[i:j]...)
		i = j
		if i == len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return out, b[i+1:], true
		case c < 0x20:
			return nil, nil, false
		case c >= 0x80:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, nil, false
			}
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		if i+1 >= len(b) {
			return nil, nil, false
		}
		switch b[i+1] {
		case '"', '\\', '/':
			out = append(out, b[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
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
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, nil, false
		}
		i += 2
	}
	return nil, nil, false
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
