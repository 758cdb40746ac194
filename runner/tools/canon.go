package tools

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxCanonExponent bounds the exponent of a number compared by value; a
// larger one is compared by its text.
const maxCanonExponent = 1 << 30

// Canonical returns the JSON value args in a canonical form: no
// whitespace, object keys sorted (a key given twice keeps its last value),
// numbers by exact value (1, 1.0 and 10e-1 are all 1) and strings
// re-escaped alike. Empty arguments are the empty object. It reports false when args
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

// canonicalNumber rewrites a JSON number literal by its exact value, as a
// JSON number: the significant digits with trailing zeros moved into the
// exponent, written as an integer when the exponent is small and positive,
// else as digits "e" exponent (1.0 → 1, 2.50 → 25e-1, 1E3 → 1000, -0 → 0).
// A literal whose exponent does not fit stays as written.
func canonicalNumber(lit string) string {
	neg := strings.HasPrefix(lit, "-")
	rest := strings.TrimPrefix(lit, "-")
	mant, expText, hasExp := strings.Cut(strings.ToLower(rest), "e")
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(expText, "+"))
		if err != nil || e > maxCanonExponent || e < -maxCanonExponent {
			return lit
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	if digits == "" {
		return "0"
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	digits = trimmed
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(digits)
	switch {
	case exp > 0 && exp <= 20:
		b.WriteString(strings.Repeat("0", exp))
	case exp != 0:
		b.WriteString("e" + strconv.Itoa(exp))
	}
	return b.String()
}
