package trialtools

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxCanonExponent bounds the exponent of a number compared by value; a
// larger one (1e999999999) is compared by its text, so no argument makes
// the guard build a huge number.
const maxCanonExponent = 400

// CallKey returns the key under which the guard compares calls: the tool
// name, a NUL byte, and the arguments in canonical form (Canonical), or,
// when they are not JSON, their bytes with surrounding space trimmed.
func CallKey(name string, args json.RawMessage) string {
	c, ok := Canonical(args)
	if !ok {
		c = "\x00raw:" + string(bytes.TrimSpace(args))
	}
	return name + "\x00" + c
}

// Canonical returns the JSON value args in a canonical form: no
// whitespace, object keys sorted (a key given twice keeps its last value),
// numbers by value (1, 1.0 and 10e-1 are all 1) and strings re-escaped
// alike. Empty arguments are the empty object. It reports false when args
// is not one valid UTF-8 JSON value.
func Canonical(args json.RawMessage) (string, bool) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		return "{}", true
	}
	if !utf8.Valid(args) {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false
	}
	var b strings.Builder
	b.Grow(len(args))
	writeCanonical(&b, v)
	return b.String(), true
}

// writeCanonical writes v, decoded with UseNumber, in canonical form.
func writeCanonical(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		b.WriteString(canonicalNumber(string(v)))
	case string:
		writeString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeCanonical(b, v[k])
		}
		b.WriteByte('}')
	}
}

// writeString writes s as a JSON string.
func writeString(b *strings.Builder, s string) {
	q, _ := json.Marshal(s) // a string always marshals
	b.Write(q)
}

// canonicalNumber writes a JSON number literal by its exact value: an
// integer without sign of zero, anything else as a reduced fraction "p/q"
// (or an integer when it is one). A literal with a huge exponent, or longer
// than maxCanonExponent bytes, stays as written.
func canonicalNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" {
			return "0"
		}
		return lit
	}
	if len(lit) > maxCanonExponent {
		return lit
	}
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		exp, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+"))
		if err != nil || exp > maxCanonExponent || exp < -maxCanonExponent {
			return lit
		}
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		return lit
	}
	return r.RatString()
}
