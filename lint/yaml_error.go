package lint

import (
	"regexp"
	"strconv"
	"strings"
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
