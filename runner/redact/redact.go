package redact

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
)

// Redacted is what a secret is replaced with.
const Redacted = "[REDACTED]"

// MinSecretLen is the length under which a configured value is not
// redacted literally: replacing every "a" or "42" in a reply would destroy
// it, and a key that short is no key. The patterns still apply.
const MinSecretLen = lint.MinMaskedSecretLen

// MinSubstringSecretLen is the length (in characters) from which a
// configured value is redacted wherever it appears; a shorter one only as
// a whole token ("serve" is hidden in "serve --port 80", not in "server"):
// lint.MinSubstringSecretLen, the rule every masker of secrets follows.
const MinSubstringSecretLen = lint.MinSubstringSecretLen

// secretPattern is a pattern of a common key or token. Hints are
// substrings one of which every match holds (lowercase when fold is set, to
// be looked for in lowercased text): text without any is skipped without
// running the expression.
type secretPattern struct {
	re    *regexp.Regexp
	hints []string
	fold  bool
}

// secretPatterns catch common keys and tokens that are not configured.
// Each replaces its match, keeping group 1 (a label) when there is one.
var secretPatterns = []secretPattern{
	{regexp.MustCompile(`\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}`), []string{"sk-"}, false},
	{regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`), []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, false},
	{regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`), []string{"github_pat_"}, false},
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), []string{"AKIA", "ASIA"}, false},
	{regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`), []string{"bearer"}, true},
	{regexp.MustCompile(`(?i)(\bauthorization["']?\s*[:=]\s*["']?(?:basic|token)\s+)[^\s"',;}]+`), []string{"authorization"}, true},
	{regexp.MustCompile(`(?i)(\bx-api-key["']?\s*[:=]\s*["']?)[^\s"',;}]+`), []string{"x-api-key"}, true},
	{regexp.MustCompile(`(?i)(\bapi[_-]?key["']?\s*[:=]\s*["']?)[^\s"',;&}]{8,}`), []string{"apikey", "api_key", "api-key"}, true},
}

// applies reports whether the pattern can match s (lower is s lowercased,
// computed on first need). patternsIn answers the same for every pattern
// at once; this is its reference, and its way for the rare text where
// lowercasing makes ASCII of what was not.
func (p *secretPattern) applies(s string, lower func() string) bool {
	t := s
	if p.fold {
		t = lower()
	}
	for _, h := range p.hints {
		if strings.Contains(t, h) {
			return true
		}
	}
	return false
}

// lowerOnce returns a function that lowercases s once.
func lowerOnce(s *string) func() string {
	var l string
	done := false
	return func() string {
		if !done {
			l, done = strings.ToLower(*s), true
		}
		return l
	}
}

// hintRef is a hint of secretPatterns[p], filed under its first byte.
type hintRef struct {
	p    int
	hint string
	fold bool
}

// hintsByFirst files every hint under the byte it starts with (a folded
// hint under both cases of its first letter), for patternsIn's one pass.
var hintsByFirst = func() (t [256][]hintRef) {
	for i, p := range secretPatterns {
		for _, h := range p.hints {
			r := hintRef{p: i, hint: h, fold: p.fold}
			t[h[0]] = append(t[h[0]], r)
			if up := upperASCII(h[0]); p.fold && up != h[0] {
				t[up] = append(t[up], r)
			}
		}
	}
	return t
}()

// The kinds of byte patternsIn tells apart: one that starts no hint, one
// that starts one, and one outside ASCII.
const (
	plainByte = iota
	hintByte
	otherByte
)

// byteKinds gives each byte its kind.
var byteKinds = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = otherByte
		case len(hintsByFirst[c]) > 0:
			t[c] = hintByte
		}
	}
	return t
}()

// upperASCII and lowerASCII change the case of an ASCII letter only.
func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// startsWithHint reports whether s starts with h's hint, in either case of
// its letters when h folds.
func startsWithHint(s string, h *hintRef) bool {
	if len(s) < len(h.hint) {
		return false
	}
	if !h.fold {
		return s[:len(h.hint)] == h.hint
	}
	for j := 0; j < len(h.hint); j++ {
		if lowerASCII(s[j]) != h.hint[j] {
			return false
		}
	}
	return true
}

// foldsToASCII holds the only runes outside ASCII that strings.ToLower
// makes ASCII (TestFoldsToASCII): İ to i, the Kelvin sign to k.
var foldsToASCII = []string{"\u0130", "\u212a"}

// patternsIn returns the set of secretPatterns (bit i for pattern i)
// whose hints s holds, as applies finds them, in one pass over s and
// without lowercasing it: a hint is ASCII, and lowercasing changes no
// run of ASCII but by case, nor makes ASCII of anything else but the
// runes of foldsToASCII (for which applies decides).
func patternsIn(s string) uint32 {
	var set uint32
	other := false
	for i := 0; i < len(s); i++ {
		switch byteKinds[s[i]] {
		case plainByte:
			continue
		case otherByte:
			other = true
			continue
		}
		if i+1 == len(s) {
			break // every hint is longer than one byte
		}
		c, lc := s[i+1], lowerASCII(s[i+1])
		refs := hintsByFirst[s[i]]
		for k := range refs {
			h := &refs[k]
			if set&(1<<h.p) != 0 || h.hint[1] != c && (!h.fold || h.hint[1] != lc) {
				continue
			}
			if startsWithHint(s[i:], h) {
				set |= 1 << h.p
			}
		}
	}
	if other && slices.ContainsFunc(foldsToASCII, func(r string) bool { return strings.Contains(s, r) }) {
		set = 0
		lower := lowerOnce(&s)
		for i := range secretPatterns {
			if secretPatterns[i].applies(s, lower) {
				set |= 1 << i
			}
		}
	}
	return set
}

// labelAtEnd matches a label whose value may follow in the next piece of a
// stream ("Bearer ", "x-api-key: "): a stream holds it back with its value.
var labelAtEnd = regexp.MustCompile(`(?i)(?:\bbearer|\bbasic|\btoken|\bauthorization["']?\s*[:=]|\bx-api-key["']?\s*[:=]|\bapi[_-]?key["']?\s*[:=])["'\s]*$`)

// mayEndInLabel reports whether labelAtEnd can match s: what precedes
// its trailing quotes and white space must end a label, so be a ':' or
// '=', or the last letter of "bearer", "basic" or "token" (r, c and n
// fold to no other letter). Most pieces of a stream end otherwise, and
// are spared the expression.
func mayEndInLabel(s string) bool {
	i := len(s) - 1
	for i >= 0 && strings.IndexByte(`"' `+"\t\n\f\r", s[i]) >= 0 {
		i--
	}
	if i < 0 {
		return false
	}
	switch s[i] {
	case ':', '=', 'c', 'C', 'n', 'N':
		return true
	case 'r', 'R':
		return i >= 5 && strings.EqualFold(s[i-5:i+1], "bearer")
	}
	return false
}

// Redactor replaces secrets in text: the configured values literally
// (longest first; a short one only as a whole token, see
// MinSubstringSecretLen), then the patterns of common keys and bearer tokens
// (sk-…, sk-ant-…, gh?_…, github_pat_…, AKIA…, Bearer …, x-api-key: …,
// api_key=…).
type Redactor struct {
	literals []string
	// short marks the literals redacted only as whole tokens (shorter
	// than MinSubstringSecretLen), by index in literals.
	short []bool
	// key names the literals, for the memo of long texts.
	key string
	// spaced is set when a literal holds white space, so a stream cannot
	// cut at white space alone.
	spaced  bool
	longest int
}

// New returns a redactor for secrets (empty and short values are
// skipped, see MinSecretLen).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, s := range secrets {
		if utf8.RuneCountInString(s) < MinSecretLen || strings.TrimSpace(s) == "" || seen[s] {
			continue
		}
		seen[s] = true
		r.literals = append(r.literals, s)
		r.longest = max(r.longest, len(s))
		if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
			r.spaced = true
		}
	}
	slices.SortFunc(r.literals, func(a, b string) int { return len(b) - len(a) })
	var key strings.Builder
	for _, lit := range r.literals {
		fmt.Fprintf(&key, "%d:%s", len(lit), lit)
		r.short = append(r.short, utf8.RuneCountInString(lit) < MinSubstringSecretLen)
	}
	r.key = key.String()
	return r
}

// Shared returns New(secrets...), the one Redactor for the same secrets
// in the same order while a memo holds it: a Redactor never changes once
// made, and every run of a suite redacts the same secrets (the
// configuration's, the model's key, the environment's), each with a
// redactor of its own before. The memo holds at most sharedMax
// redactors; when full, it starts again empty.
func Shared(secrets ...string) *Redactor {
	n := 0
	for _, s := range secrets {
		n += len(s) + 8
	}
	key := make([]byte, 0, n)
	for _, s := range secrets {
		key = strconv.AppendInt(key, int64(len(s)), 10)
		key = append(key, ':')
		key = append(key, s...)
	}
	shared.mu.Lock()
	r, ok := shared.m[string(key)]
	shared.mu.Unlock()
	if ok {
		return r
	}
	r = New(secrets...)
	shared.mu.Lock()
	if len(shared.m) >= sharedMax {
		clear(shared.m)
	}
	shared.m[string(key)] = r
	shared.mu.Unlock()
	return r
}

// shared is Shared's memo, by the secrets, each after its length.
var shared = struct {
	mu sync.Mutex
	m  map[string]*Redactor
}{m: map[string]*Redactor{}}

// sharedMax bounds Shared's memo.
const sharedMax = 64

// redactMemo remembers what String made of long texts, by the redactor's
// literals and the text: every run of a suite redacts the same system
// prompt for its transcript, each with a redactor of its own but the same
// secrets. At most redactMemoEntries texts of redactMemoMin to
// redactMemoMax bytes are kept; when full, it starts again empty.
var redactMemo = struct {
	mu sync.Mutex
	m  map[redactKey]string
}{m: map[redactKey]string{}}

// redactKey is a text and the literals it was redacted of.
type redactKey struct{ literals, text string }

// The memo's bounds.
const (
	redactMemoMin     = 1 << 10
	redactMemoMax     = 1 << 20
	redactMemoEntries = 64
)

// String returns s with every secret replaced by [REDACTED].
func (r *Redactor) String(s string) string {
	if len(s) < redactMemoMin || len(s) > redactMemoMax {
		return r.redact(s)
	}
	k := redactKey{r.key, s}
	redactMemo.mu.Lock()
	out, ok := redactMemo.m[k]
	redactMemo.mu.Unlock()
	if ok {
		return out
	}
	out = r.redact(s)
	redactMemo.mu.Lock()
	if len(redactMemo.m) >= redactMemoEntries {
		clear(redactMemo.m)
	}
	redactMemo.m[k] = out
	redactMemo.mu.Unlock()
	return out
}

// redact is String without the memo.
func (r *Redactor) redact(s string) string { return r.redactAfter(s, false) }

// redactAfter is redact of text that follows a word character when
// wordBefore is set (a stream's piece): a short value at its start is then
// not a whole token.
func (r *Redactor) redactAfter(s string, wordBefore bool) string {
	if s == "" {
		return s
	}
	s = r.replaceLiterals(s, wordBefore, func(string) string { return Redacted })
	// The hints are looked for once: a replacement only ever removes
	// hints, so the set at worst runs an expression for nothing.
	set := patternsIn(s)
	for i := range secretPatterns {
		p := &secretPatterns[i]
		if set&(1<<i) == 0 {
			continue
		}
		if p.re.NumSubexp() > 0 {
			s = p.re.ReplaceAllString(s, "${1}"+Redacted)
		} else {
			s = p.re.ReplaceAllLiteralString(s, Redacted)
		}
	}
	return s
}

// mask returns s with every configured value replaced, where redact
// replaces it, by "[", as many "x" as it has bytes less two, and "]": the
// same length, and the same non-word characters at both ends as
// [REDACTED].
func (r *Redactor) mask(s string, wordBefore bool) string {
	return r.replaceLiterals(s, wordBefore, func(lit string) string { return "[" + strings.Repeat("x", len(lit)-2) + "]" })
}

// replaceLiterals replaces the configured values in s, longest first, with
// with(value): a long one wherever it is, a short one only as a whole
// token (see MinSubstringSecretLen). wordBefore says a word character
// precedes s.
func (r *Redactor) replaceLiterals(s string, wordBefore bool, with func(string) string) string {
	for k, lit := range r.literals {
		if !strings.Contains(s, lit) {
			continue
		}
		if !r.short[k] {
			s = strings.ReplaceAll(s, lit, with(lit))
			continue
		}
		s = lint.ReplaceWholeTokens(s, lit, with(lit), wordBefore)
	}
	return s
}

// Stream returns a StreamRedactor that uses r.
func (r *Redactor) Stream() *StreamRedactor { return &StreamRedactor{r: r} }

// StreamRedactor redacts text that arrives in pieces, where a secret may be
// split across two of them. It hands out only the part of the text that no
// later piece can turn into a secret: up to the last white space, less a
// label ("Bearer ", "x-api-key: ") whose value may still come. Joined, its
// outputs equal Redactor.String of the whole text (for secrets without
// white space in them, which it holds back by length instead).
type StreamRedactor struct {
	r       *Redactor
	pending string
	// wordBefore is set when the text handed out so far ends with a word
	// character (a cut inside a long run): a short value that starts the
	// pending text is then not a whole token.
	wordBefore bool
}

// maxHold caps what a stream holds back: past it, text with no white space
// at all (a long base64 blob) is let through but for its last holdTail bytes.
const (
	maxHold  = 64 << 10
	holdTail = 1 << 10
)

// Write adds a piece of text and returns the redacted text that is now
// safe to show (possibly "").
func (s *StreamRedactor) Write(piece string) string {
	s.pending += piece
	cut := s.safeCut()
	if cut <= 0 {
		return ""
	}
	out := s.redact(s.pending[:cut])
	s.pending = s.pending[cut:]
	return out
}

// Flush returns the redacted rest of the text, at the end of the stream.
func (s *StreamRedactor) Flush() string {
	out := s.redact(s.pending)
	s.pending = ""
	return out
}

// redact redacts the next piece handed out, and notes how it ends.
func (s *StreamRedactor) redact(piece string) string {
	var out string
	if s.wordBefore {
		out = s.r.redactAfter(piece, true)
	} else {
		out = s.r.String(piece)
	}
	if piece != "" {
		last, _ := utf8.DecodeLastRuneInString(piece)
		s.wordBefore = lint.IsWordRune(last)
	}
	return out
}

// patternSpace is the white space of the patterns' \s (RE2's ASCII set).
const patternSpace = " \t\n\f\r"

// safeCut returns how much of pending can be redacted and handed out now:
// up to the last white space (within the last secret's length of the end
// when a secret holds white space), less a label whose value may follow,
// and never inside a secret or pattern match seen in the pending text.
// Text with no white space at all is held up to maxHold, then let through
// but for its last holdTail bytes (again never inside a secret or match).
func (s *StreamRedactor) safeCut() int {
	p := s.pending
	limit := len(p)
	if s.r.spaced {
		limit = max(len(p)-s.r.longest+1, 0)
	}
	// White space as the patterns' \s knows it: a value may run on
	// through other space characters (\v, U+00A0).
	cut := strings.LastIndexAny(p[:limit], patternSpace) + 1
	// Labels and patterns are looked for where the configured values are
	// masked the way String replaces them, so that a value's replacement
	// making a word boundary is seen here too.
	masked := s.r.mask(p, s.wordBefore)
	cut = s.keepWhole(p, masked, cut)
	if cut <= 0 && len(p) > maxHold {
		cut = s.keepWhole(p, masked, len(p)-holdTail)
	}
	for cut > 0 && cut < len(p) && !utf8.RuneStart(p[cut]) {
		cut--
	}
	return cut
}

// keepWhole moves cut back to before a label at its end, and out of any
// configured value or pattern match in p (masked: p with the values masked)
// that it would split; a short value (redacted as a whole token only) also
// keeps the character after it, which decides whether it is one.
func (s *StreamRedactor) keepWhole(p, masked string, cut int) int {
	if mayEndInLabel(masked[:cut]) {
		if loc := labelAtEnd.FindStringIndex(masked[:cut]); loc != nil {
			cut = loc[0]
		}
	}
	set := patternsIn(masked)
	for moved := true; moved && cut > 0; {
		moved = false
		for k, lit := range s.r.literals {
			end := 0
			if s.r.short[k] {
				end = 1
			}
			for from := 0; ; {
				i := strings.Index(p[from:], lit)
				if i < 0 || from+i >= cut {
					break
				}
				if start := from + i; cut < start+len(lit)+end {
					cut, moved = start, true
					break
				}
				from += i + 1
			}
		}
		for i := range secretPatterns {
			sp := &secretPatterns[i]
			if set&(1<<i) == 0 {
				continue
			}
			for _, m := range sp.re.FindAllStringIndex(masked, -1) {
				if m[0] < cut && cut < m[1] {
					cut, moved = m[0], true
				}
			}
		}
	}
	return cut
}
