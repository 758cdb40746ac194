package netclaw

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeText turns a resource's bytes into text the way NetClaw reads it: a
// StreamReader with its defaults, which honours a byte-order mark (UTF-8,
// UTF-16 or UTF-32, little or big endian), drops it, reads UTF-8 otherwise,
// and replaces what does not decode with U+FFFD.
func decodeText(b []byte) string {
	switch {
	case len(b) >= 4 && b[0] == 0xff && b[1] == 0xfe && b[2] == 0 && b[3] == 0:
		return decodeUTF32(b[4:], binary.LittleEndian)
	case len(b) >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff:
		return decodeUTF32(b[4:], binary.BigEndian)
	case len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf:
		b = b[3:]
	case len(b) >= 2 && b[0] == 0xff && b[1] == 0xfe:
		return decodeUTF16(b[2:], binary.LittleEndian)
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		return decodeUTF16(b[2:], binary.BigEndian)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func decodeUTF16(b []byte, order binary.ByteOrder) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = order.Uint16(b[2*i:])
	}
	s := string(utf16.Decode(u))
	if len(b)%2 != 0 {
		s += "\uFFFD"
	}
	return s
}

func decodeUTF32(b []byte, order binary.ByteOrder) string {
	var sb strings.Builder
	for i := 0; i+4 <= len(b); i += 4 {
		r := rune(order.Uint32(b[i:]))
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		sb.WriteRune(r)
	}
	if len(b)%4 != 0 {
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String()
}
