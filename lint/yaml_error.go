package lint

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// yamlLineRE finds the line number in a yaml.v3 error message.
var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlParserProblems are the problems yaml.v3's parser (not its scanner)
// reports. yaml.v3 (decode.go, parser.fail) prints the 0-based line of a
// parser error's mark but adds one for a scanner error, so a parser
// error's "line N" is the line before the one it means.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// YAMLErrorLine returns the 1-based line of text a yaml.v3 syntax error
// means (an error at the end of the stream: the last line with text) and
// its message without the "yaml: line N: " prefix. line is 0 when the
// error names no line (the reader's errors have none): the caller picks a
// place.
func YAMLErrorLine(err error, text string) (line int, msg string) {
	line, msg = yamlErrorLine(err)
	if last := strings.Count(strings.TrimRight(text, "\r\n"), "\n") + 1; line > last {
		line = last
	}
	return line, msg
}

func yamlErrorLine(err error) (line int, msg string) {
	msg = err.Error()
	m := yamlLineRE.FindStringSubmatch(msg)
	if m == nil {
		msg = strings.TrimPrefix(msg, "yaml: ")
		for _, p := range yamlParserProblems {
			if msg == p {
				return 1, msg // a parser error on line 1 (0-based 0)
			}
		}
		return 0, msg
	}
	line, _ = strconv.Atoi(m[1])
	msg = m[2]
	for _, p := range yamlParserProblems {
		if msg == p {
			return line + 1, msg
		}
	}
	return line, msg
}

// yamlBlockProblems are the parser's errors that yaml.v3 (decode.go,
// parser.fail) places at the start of the block collection it was
// parsing (its context mark), not at the token that broke it, with the
// kind of collection: "did not find expected '-' indicator" names the
// first line of the list, whatever item went wrong. (The flow problems,
// ',' or ']' and ',' or '}', are left at their opening bracket: that
// is what is unclosed.)
var yamlBlockProblems = map[string]string{
	"did not find expected '-' indicator": "list",
	"did not find expected key":           "mapping",
}

// YAMLSyntax is where a yaml.v3 syntax error is in the text parsed.
type YAMLSyntax struct {
	// Line and Column are 1-based; Line is 0 when the error names no
	// place (the reader's errors): the caller picks one.
	Line, Column int
	// Message is the error without its "yaml: line N: " prefix.
	Message string
	// In is the block collection the error broke ("list" or "mapping"),
	// when it is not on the error's line, and InLine its first line.
	In     string
	InLine int
}

// Text is the message, saying where the broken collection starts when it
// starts on another line; offset is added to that line (the text parsed
// starts on line offset+1 of the file).
func (y YAMLSyntax) Text(offset int) string {
	if y.In == "" {
		return y.Message
	}
	return fmt.Sprintf("%s (in the %s that starts on line %d)", y.Message, y.In, y.InLine+offset)
}

// YAMLErrorPos returns where in text a yaml.v3 syntax error is. For an
// error yaml.v3 places at the first line of a block list or mapping (it
// reports the start of the collection being parsed, whatever item broke
// it) it finds the token that broke it: the shortest prefix of text that
// fails with the same error ends with that token. Otherwise the column is
// the line's first non-blank one.
func YAMLErrorPos(err error, text string) YAMLSyntax {
	line, msg := YAMLErrorLine(err, text)
	y := YAMLSyntax{Line: line, Message: msg}
	if line == 0 {
		return y
	}
	if kind, ok := yamlBlockProblems[msg]; ok {
		if off, found := yamlProblemOffset(err.Error(), text, line); found {
			if p := posAt(text, off); p.Line >= line {
				y.Line, y.Column = p.Line, p.Column
				if p.Line > line {
					y.In, y.InLine = kind, line
				}
				return y
			}
		}
	}
	y.Column = 1
	if l, ok := LineOf(text, line); ok {
		y.Column = len([]rune(l)) - len([]rune(strings.TrimLeft(l, " \t"))) + 1
	}
	return y
}

// yamlProblemOffset finds the byte offset of the token that makes text
// fail with the error want, in or after line (the collection's first):
// the shortest prefix of text that fails with want ends in that token.
// A shorter prefix ends the collection early, which is valid YAML, or
// cuts a token, which fails otherwise. found is false when the search
// does not end on such a token (want is not text's error, say).
func yamlProblemOffset(want, text string, line int) (off int, found bool) {
	fails := func(n int) bool { return yamlFailsWith(text[:n], want) }
	lo, ok := lineOffset(text, line) // no prefix that ends there has the collection
	if !ok {
		return 0, false
	}
	hi := len(text)
	if fails(lo) || !fails(hi) {
		return 0, false
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	off = hi - 1 // the byte that completes the failing token
	for off > 0 && !utf8.RuneStart(text[off]) {
		off-- // the prefix failed on part of a rune: the rune's start
	}
	if text[off] == ':' {
		off = keyStart(text, off)
	}
	return off, true
}

// yamlFailsWith reports whether text fails to parse with exactly the
// error want (a panic in the parser counts as an error).
func yamlFailsWith(text, want string) bool {
	var doc yaml.Node
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("yaml: %v", r)
			}
		}()
		return yaml.Unmarshal([]byte(text), &doc)
	}()
	return err != nil && err.Error() == want
}

// lineOffset returns the byte offset where line (1-based) of text
// starts; ok is false when text has fewer lines.
func lineOffset(text string, line int) (int, bool) {
	off := 0
	for i := 1; i < line; i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return 0, false
		}
		off += j + 1
	}
	return off, true
}

// keyStart returns where the key starts whose ':', at colon, failed a
// parse. A key at the collection's indentation fails only once its ':'
// is read (before, the scanner reports a key without ':'): the token is
// the key, which starts at the word before the ':' or, for a plain key of
// several words, at the line's first non-blank.
func keyStart(text string, colon int) int {
	off := colon
	start := strings.LastIndexByte(text[:off], '\n') + 1
	for off > start && text[off-1] != ' ' && text[off-1] != '\t' {
		off--
	}
	first := start + len(text[start:off]) - len(strings.TrimLeft(text[start:off], " \t"))
	if !strings.ContainsAny(text[first:off], "'\"[]{},#&*!|>%@`:-") {
		off = first
	}
	return off
}
