package jsonlit

import "time"

// Fields reads a JSON object as agentdesk's own encoders write it: no
// white space, its members in a known order, each at most once, some
// left out when empty (omitempty), and no other. Each method reads the
// next member when its key is the one named, exactly as spelled, and
// leaves the destination as it was otherwise; a member that must be
// there and is not, or a value it is unsure of, makes Fields not OK, and
// every later method does nothing. Where End reports true, every value
// is what encoding/json decodes into the same destinations (the callers'
// fuzz tests check); where it reports false, the caller decodes the
// object with encoding/json, which decides.
type Fields struct {
	b     []byte
	first bool
	ok    bool
	// src, when set, is the string of the bytes b is a tail of: plain
	// strings are its substrings (see SubStr).
	src string
}

// Object starts reading the object at the start of b.
func Object(b []byte) Fields {
	if len(b) == 0 || b[0] != '{' {
		return Fields{}
	}
	return Fields{b: b[1:], first: true, ok: true}
}

// ObjectOne is Object whose strings share one string of b, made once,
// instead of one allocation each: for an object of many string members
// (a recording's header) that lives as long as they do.
func ObjectOne(b []byte) Fields {
	f := Object(b)
	if f.ok {
		f.src = string(b)
	}
	return f
}

// str reads a string's body at the start of b (see SubStr).
func (f *Fields) str(b []byte) (string, []byte, bool) {
	if f.src != "" {
		return SubStr(f.src, b)
	}
	return Str(b)
}

// OK reports whether every member so far was read.
func (f *Fields) OK() bool { return f.ok }

// End reads the object's closing brace and returns what follows it;
// ok is false when anything went wrong or another member follows.
func (f *Fields) End() (rest []byte, ok bool) {
	if !f.ok || len(f.b) == 0 || f.b[0] != '}' {
		f.ok = false
		return nil, false
	}
	return f.b[1:], true
}

// key reads the next member's key and its colon when it is k; a
// required member that is not next ends the reading.
func (f *Fields) key(k string, optional bool) bool {
	if !f.ok {
		return false
	}
	b := f.b
	if !f.first {
		if len(b) == 0 || b[0] != ',' {
			f.ok = optional
			return false
		}
		b = b[1:]
	}
	if len(b) < len(k)+3 || b[0] != '"' || string(b[1:1+len(k)]) != k || b[1+len(k)] != '"' || b[2+len(k)] != ':' {
		f.ok = optional
		return false
	}
	f.b, f.first = b[len(k)+3:], false
	return true
}

// String reads the string member k into dst.
func (f *Fields) String(k string, dst *string, optional bool) {
	if !f.key(k, optional) {
		return
	}
	if len(f.b) == 0 || f.b[0] != '"' {
		f.ok = false
		return
	}
	s, rest, ok := f.str(f.b[1:])
	if !ok {
		f.ok = false
		return
	}
	*dst, f.b = s, rest
}

// Int reads the member k, a natural number, into dst.
func (f *Fields) Int(k string, dst *int, optional bool) {
	var n int64
	if f.natural(k, &n, optional) {
		*dst = int(n)
	}
}

// Int64 reads the member k, a natural number, into dst.
func (f *Fields) Int64(k string, dst *int64, optional bool) {
	f.natural(k, dst, optional)
}

func (f *Fields) natural(k string, dst *int64, optional bool) bool {
	if !f.key(k, optional) {
		return false
	}
	n, rest, ok := Natural(f.b)
	if !ok {
		f.ok = false
		return false
	}
	*dst, f.b = n, rest
	return true
}

// Bool reads the member k, true or false, into dst.
func (f *Fields) Bool(k string, dst *bool, optional bool) {
	if !f.key(k, optional) {
		return
	}
	switch {
	case len(f.b) >= 4 && string(f.b[:4]) == "true":
		*dst, f.b = true, f.b[4:]
	case len(f.b) >= 5 && string(f.b[:5]) == "false":
		*dst, f.b = false, f.b[5:]
	default:
		f.ok = false
	}
}

// Strings reads the member k, an array of strings, into dst (an empty
// array is an empty slice, not nil).
func (f *Fields) Strings(k string, dst *[]string, optional bool) {
	if !f.key(k, optional) {
		return
	}
	if len(f.b) == 0 || f.b[0] != '[' {
		f.ok = false
		return
	}
	b := f.b[1:]
	out := []string{}
	for len(b) > 0 && b[0] != ']' {
		if len(out) > 0 {
			if b[0] != ',' {
				f.ok = false
				return
			}
			b = b[1:]
		}
		if len(b) == 0 || b[0] != '"' {
			f.ok = false
			return
		}
		s, rest, ok := f.str(b[1:])
		if !ok {
			f.ok = false
			return
		}
		out, b = append(out, s), rest
	}
	if len(b) == 0 {
		f.ok = false
		return
	}
	*dst, f.b = out, b[1:]
}

// Time reads the member k, a string of plain ASCII, with time.Time's
// own JSON reading, from the token as it is (as encoding/json hands it
// over).
func (f *Fields) Time(k string, dst *time.Time, optional bool) {
	if !f.key(k, optional) {
		return
	}
	if len(f.b) == 0 || f.b[0] != '"' {
		f.ok = false
		return
	}
	end := plainRun(f.b, 1)
	var t time.Time
	if end == len(f.b) || f.b[end] != '"' || t.UnmarshalJSON(f.b[:end+1]) != nil {
		f.ok = false
		return
	}
	*dst, f.b = t, f.b[end+1:]
}

// Object reads the member k, an object, with read, which is handed its
// Fields and returns them at their end (or not OK).
func (f *Fields) Object(k string, optional bool, read func(o *Fields)) {
	if !f.key(k, optional) {
		return
	}
	o := Object(f.b)
	o.src = f.src
	if !o.ok {
		f.ok = false
		return
	}
	read(&o)
	rest, ok := o.End()
	if !ok {
		f.ok = false
		return
	}
	f.b = rest
}
