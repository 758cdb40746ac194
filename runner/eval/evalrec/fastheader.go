package evalrec

import (
	"bytes"

	"github.com/agentdesk/agentdesk/runner/internal/jsonlit"
)

// fastHeader reads a header line exactly as Encode writes one, without
// reflection: every replayed sample reads its recording's header, and
// encoding/json made that a fifth of reading a recording. ok is false for
// any other line, or any doubt (a key out of order or missing, a value
// jsonlit is unsure of), and the line then goes through encoding/json,
// which decides. Where ok is true the header is what encoding/json reads
// (FuzzFastHeader checks).
func fastHeader(line []byte) (h header, ok bool) {
	b, ok := lineBody(line)
	if !ok {
		return header{}, false
	}
	// The header's strings are substrings of one string of the line
	// (those with an escape are decoded on their own): one allocation,
	// not one a member (a header has three a fingerprint part).
	src := string(b)
	var n int64
	if b, ok = key(b, `{"type":"`); ok {
		h.Type, b, ok = jsonlit.SubStr(src, b)
	}
	if ok {
		if b, ok = key(b, `,"version":`); ok {
			n, b, ok = jsonlit.Natural(b)
			h.Version = int(n)
		}
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{`,"kind":"`, &h.Kind}, {`,"suite":"`, &h.Suite}, {`,"case":"`, &h.Case}} {
		if ok {
			if b, ok = key(b, f.key); ok {
				*f.dst, b, ok = jsonlit.SubStr(src, b)
			}
		}
	}
	if ok {
		if b, ok = key(b, `,"sample":`); ok {
			n, b, ok = jsonlit.Natural(b)
			h.Sample = int(n)
		}
	}
	if ok {
		// time.Time reads its own JSON, from the token as it is.
		if b, ok = key(b, `,"recorded_at":`); ok && len(b) > 0 && b[0] == '"' {
			var rest []byte
			if _, rest, ok = jsonlit.String(b[1:]); ok {
				ok = h.RecordedAt.UnmarshalJSON(b[:len(b)-len(rest)]) == nil
				b = rest
			}
		} else {
			ok = false
		}
	}
	if ok {
		b, ok = key(b, `,"fingerprint":[`)
	}
	if !ok {
		return header{}, false
	}
	h.Fingerprint = Fingerprint{}
	for first := true; ; first = false {
		if len(b) > 0 && b[0] == ']' {
			if string(b) != "]}" {
				return header{}, false
			}
			return h, true
		}
		if !first {
			if b, ok = key(b, ","); !ok {
				return header{}, false
			}
		}
		var p Part
		if b, ok = key(b, `{"name":"`); ok {
			p.Name, b, ok = jsonlit.SubStr(src, b)
		}
		if ok {
			if b, ok = key(b, `,"sha256":"`); ok {
				p.SHA256, b, ok = jsonlit.SubStr(src, b)
			}
		}
		if ok && bytes.HasPrefix(b, []byte(`,"value":"`)) {
			p.Value, b, ok = jsonlit.SubStr(src, b[len(`,"value":"`):])
		}
		if ok {
			b, ok = key(b, "}")
		}
		if !ok {
			return header{}, false
		}
		h.Fingerprint = append(h.Fingerprint, p)
	}
}

// fastTapeLine reads a tape line exactly as Encode writes one; ok is
// false for anything else (see fastHeader).
func fastTapeLine(line []byte) (t tapeLine, ok bool) {
	b, ok := lineBody(line)
	var n int64
	if ok {
		if b, ok = key(b, `{"type":"`); ok {
			t.Type, b, ok = jsonlit.Str(b)
		}
	}
	if ok {
		if b, ok = key(b, `,"name":"`); ok {
			t.Name, b, ok = jsonlit.Str(b)
		}
	}
	if ok {
		if b, ok = key(b, `,"lines":`); ok {
			n, b, ok = jsonlit.Natural(b)
			t.Lines = int(n)
		}
	}
	if !ok || string(b) != "}" {
		return tapeLine{}, false
	}
	return t, true
}

// lineBody is a line without its ending newline.
func lineBody(line []byte) ([]byte, bool) {
	if len(line) == 0 || line[len(line)-1] != '\n' {
		return nil, false
	}
	return line[:len(line)-1], true
}

// key reads the literal k at the start of b.
func key(b []byte, k string) ([]byte, bool) {
	if len(b) < len(k) || string(b[:len(k)]) != k {
		return nil, false
	}
	return b[len(k):], true
}
