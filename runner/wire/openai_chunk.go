package wire

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeOpenAIChunk fills c from data exactly as json.Unmarshal(data, c)
// would, without reflection, for the chunks servers send: a JSON object
// whose members openAIChunk knows are spelled as its tags spell them,
// each once, holding the JSON types the fields take (or null). It
// reports false, leaving c as it was, for anything else — a key that
// json.Unmarshal would match case-insensitively or only after unescaping
// it, a duplicate member, a number where an integer goes that is not
// one, a type that does not fit, invalid JSON — and the caller decodes
// with json.Unmarshal, which says what is wrong. Every other member is
// checked to be valid JSON and skipped, as json.Unmarshal does.
//
// Decoding the chunks was the largest part of replaying a recorded
// stream; FuzzOpenAIChunk compares the two decodings on any input.
func decodeOpenAIChunk(data []byte, c *openAIChunk) bool {
	s := chunkScanner{b: data}
	var out openAIChunk
	s.space()
	if !s.chunk(&out) {
		return false
	}
	s.space()
	if s.i != len(s.b) {
		return false
	}
	*c = out
	return true
}

// chunkScanner reads one chunk; i is the next byte, depth the nesting of
// skipped values.
type chunkScanner struct {
	b     []byte
	i     int
	depth int
}

// maxSkipDepth bounds the nesting of skipped values; deeper input goes to
// json.Unmarshal (which allows 10,000).
const maxSkipDepth = 200

func (s *chunkScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte, 0 at the end.
func (s *chunkScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// members reads an object (s.i at its '{'), calling member for each key
// with s.i at the start of its value; member reads the value and reports
// whether it could. For a struct's object (known set), a key that is not
// plain ASCII without escapes fails: json.Unmarshal might match it.
func (s *chunkScanner) members(known bool, member func(key []byte) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	s.space()
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		start, end, plain, ok := s.str()
		if !ok || known && (!plain || !asciiOnly(s.b[start+1:end-1])) {
			return false
		}
		s.space()
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.space()
		if !member(s.b[start+1 : end-1]) {
			return false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// elements reads an array (s.i at its '['), calling element for each
// value with s.i at its start.
func (s *chunkScanner) elements(element func() bool) bool {
	if s.peek() != '[' {
		return false
	}
	s.i++
	s.space()
	if s.peek() == ']' {
		s.i++
		return true
	}
	for {
		if !element() {
			return false
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
			s.space()
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// field matches key against a struct's tags: the index of the one it
// spells, -1 for a key json.Unmarshal ignores, and ok false for a key
// that matches a tag only when case is ignored (left to json.Unmarshal),
// or for a second occurrence of a tag (seen tracks them).
func field(key []byte, tags []string, seen *uint32) (int, bool) {
	for i, t := range tags {
		if string(key) == t {
			if *seen&(1<<i) != 0 {
				return 0, false
			}
			*seen |= 1 << i
			return i, true
		}
		if equalFoldASCII(key, t) {
			return 0, false
		}
	}
	return -1, true
}

func equalFoldASCII(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func asciiOnly(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// null reads a null, if that is what comes next.
func (s *chunkScanner) null() bool {
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

var (
	chunkTags    = []string{"choices", "usage", "error"}
	choiceTags   = []string{"index", "delta", "finish_reason"}
	deltaTags    = []string{"role", "content", "reasoning_content", "reasoning", "tool_calls"}
	toolCallTags = []string{"index", "id", "function"}
	functionTags = []string{"name", "arguments"}
	usageTags    = []string{"prompt_tokens", "completion_tokens", "completion_tokens_details"}
	detailsTags  = []string{"reasoning_tokens"}
)

func (s *chunkScanner) chunk(c *openAIChunk) bool {
	var seen uint32
	return s.members(true, func(key []byte) bool {
		f, ok := field(key, chunkTags, &seen)
		switch {
		case !ok:
			return false
		case f == 0:
			if s.null() {
				return true
			}
			c.Choices = []openAIChoice{}
			return s.elements(func() bool {
				c.Choices = append(c.Choices, openAIChoice{})
				return s.null() || s.choice(&c.Choices[len(c.Choices)-1])
			})
		case f == 1:
			if s.null() {
				return true
			}
			c.Usage = &openAIUsage{}
			return s.usage(c.Usage)
		case f == 2:
			return s.raw((*[]byte)(&c.Error))
		}
		return s.skip()
	})
}

func (s *chunkScanner) choice(ch *openAIChoice) bool {
	var seen uint32
	return s.members(true, func(key []byte) bool {
		f, ok := field(key, choiceTags, &seen)
		switch {
		case !ok:
			return false
		case f == 0:
			return s.null() || s.integer(&ch.Index)
		case f == 1:
			return s.null() || s.delta(&ch.Delta)
		case f == 2:
			return s.raw((*[]byte)(&ch.FinishReason))
		}
		return s.skip()
	})
}

func (s *chunkScanner) delta(d *openAIDelta) bool {
	var seen uint32
	return s.members(true, func(key []byte) bool {
		f, ok := field(key, deltaTags, &seen)
		switch {
		case !ok:
			return false
		case f == 0:
			return s.raw((*[]byte)(&d.Role))
		case f == 1:
			return s.raw((*[]byte)(&d.Content))
		case f == 2:
			return s.raw((*[]byte)(&d.ReasoningContent))
		case f == 3:
			return s.raw((*[]byte)(&d.Reasoning))
		case f == 4:
			if s.null() {
				return true
			}
			d.ToolCalls = []openAIToolCall{}
			return s.elements(func() bool {
				d.ToolCalls = append(d.ToolCalls, openAIToolCall{})
				return s.null() || s.toolCall(&d.ToolCalls[len(d.ToolCalls)-1])
			})
		}
		return s.skip()
	})
}

func (s *chunkScanner) toolCall(tc *openAIToolCall) bool {
	var seen uint32
	return s.members(true, func(key []byte) bool {
		f, ok := field(key, toolCallTags, &seen)
		switch {
		case !ok:
			return false
		case f == 0:
			if s.null() {
				return true
			}
			tc.Index = new(int)
			return s.integer(tc.Index)
		case f == 1:
			return s.null() || s.text(&tc.ID)
		case f == 2:
			if s.null() {
				return true
			}
			var fseen uint32
			return s.members(true, func(key []byte) bool {
				f, ok := field(key, functionTags, &fseen)
				switch {
				case !ok:
					return false
				case f == 0:
					return s.null() || s.text(&tc.Function.Name)
				case f == 1:
					return s.raw((*[]byte)(&tc.Function.Arguments))
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

func (s *chunkScanner) usage(u *openAIUsage) bool {
	var seen uint32
	return s.members(true, func(key []byte) bool {
		f, ok := field(key, usageTags, &seen)
		switch {
		case !ok:
			return false
		case f == 0:
			return s.null() || s.integer(&u.PromptTokens)
		case f == 1:
			return s.null() || s.integer(&u.CompletionTokens)
		case f == 2:
			if s.null() {
				return true
			}
			u.CompletionTokensDetails = &struct {
				ReasoningTokens int `json:"reasoning_tokens"`
			}{}
			var dseen uint32
			return s.members(true, func(key []byte) bool {
				f, ok := field(key, detailsTags, &dseen)
				switch {
				case !ok:
					return false
				case f == 0:
					return s.null() || s.integer(&u.CompletionTokensDetails.ReasoningTokens)
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

// raw reads any value into a json.RawMessage's bytes (null included, as
// json.Unmarshal hands RawMessage its null).
func (s *chunkScanner) raw(dst *[]byte) bool {
	start := s.i
	if !s.skip() {
		return false
	}
	*dst = s.b[start:s.i]
	return true
}

// integer reads an integer as json.Unmarshal reads one into an int: digits
// with an optional minus sign; a fraction, an exponent or more digits
// than surely fit go to json.Unmarshal (which refuses them).
func (s *chunkScanner) integer(dst *int) bool {
	start := s.i
	if !s.number() {
		return false
	}
	tok := s.b[start:s.i]
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) > 18 {
		return false
	}
	n := 0
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	*dst = n
	return true
}

// text reads a string into a Go string: the bytes themselves when they
// are valid UTF-8 without escapes, else as json.Unmarshal unquotes them.
func (s *chunkScanner) text(dst *string) bool {
	start, end, plain, ok := s.str()
	if !ok {
		return false
	}
	if plain {
		*dst = string(s.b[start+1 : end-1])
		return true
	}
	return json.Unmarshal(s.b[start:end], dst) == nil
}

// str reads a string token: its bounds (quotes included), and whether
// its text is its bytes (no escapes, valid UTF-8).
func (s *chunkScanner) str() (start, end int, plain, ok bool) {
	if s.peek() != '"' {
		return 0, 0, false, false
	}
	start = s.i
	plain = true
	ascii := true
	for i := s.i + 1; i < len(s.b); i++ {
		c := s.b[i]
		switch {
		case c == '"':
			s.i = i + 1
			if !ascii && !utf8.Valid(s.b[start+1:i]) {
				plain = false
			}
			return start, s.i, plain, true
		case c == '\\':
			plain = false
			i++
			if i >= len(s.b) {
				return 0, 0, false, false
			}
			switch s.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s.b) {
					return 0, 0, false, false
				}
				for _, h := range s.b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, 0, false, false
					}
				}
				i += 4
			default:
				return 0, 0, false, false
			}
		case c < 0x20:
			return 0, 0, false, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return 0, 0, false, false
}

// number reads a number token as JSON's grammar has it.
func (s *chunkScanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return true
}

// skip reads any valid JSON value.
func (s *chunkScanner) skip() bool {
	switch c := s.peek(); {
	case c == '{':
		if s.depth++; s.depth > maxSkipDepth {
			return false
		}
		ok := s.members(false, func([]byte) bool { return s.skip() })
		s.depth--
		return ok
	case c == '[':
		if s.depth++; s.depth > maxSkipDepth {
			return false
		}
		ok := s.elements(s.skip)
		s.depth--
		return ok
	case c == '"':
		_, _, _, ok := s.str()
		return ok
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 'n':
		return s.null()
	case c == 't':
		if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "true" {
			s.i += 4
			return true
		}
	case c == 'f':
		if len(s.b)-s.i >= 5 && string(s.b[s.i:s.i+5]) == "false" {
			s.i += 5
			return true
		}
	}
	return false
}
