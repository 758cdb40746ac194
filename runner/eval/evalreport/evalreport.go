// Package evalreport is the one report layer of agentdesk's evaluations
// (agentdesk test, agentdesk route --suite): the formats a report comes in,
// the parsing of a format's name (with a did-you-mean), and Writers, the
// registry of one writer per format that each evaluation fills
// (suite.Reports, route.Reports). Adding a format is a constant and a name
// here, and a writer in each evaluation.
package evalreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Format is the format of an evaluation's report.
type Format int

// The formats, in the order --help lists them.
const (
	// Text is the human report, coloured on a terminal.
	Text Format = iota
	// JSON is one document for scripts.
	JSON
	// JUnit is JUnit XML for CI test tabs.
	JUnit
	// GitHub is GitHub Actions workflow commands (annotations).
	GitHub
	// HTML is one self-contained page.
	HTML
	formatCount
)

// names are the formats' names, by Format.
var names = [formatCount]string{"text", "json", "junit", "github", "html"}

// Formats lists every format, in order.
func Formats() []Format {
	out := make([]Format, formatCount)
	for i := range out {
		out[i] = Format(i)
	}
	return out
}

// Names lists the formats' names, in order.
func Names() []string { return append([]string(nil), names[:]...) }

// String returns the format's name.
func (f Format) String() string {
	if f < 0 || f >= formatCount {
		return fmt.Sprintf("format(%d)", int(f))
	}
	return names[f]
}

// UnknownFormatError is a name that is no format. Suggestion is the
// format it is close to, "" when none is.
type UnknownFormatError struct {
	Name, Suggestion string
}

// Error says which formats there are, after a did-you-mean when the name
// is close to one.
func (e *UnknownFormatError) Error() string {
	use := "use " + strings.Join(names[:formatCount-1], ", ") + " or " + names[formatCount-1]
	if e.Suggestion != "" {
		return fmt.Sprintf("did you mean '%s'? %s", e.Suggestion, use)
	}
	return use
}

// Parse returns the format named s, in any case. A name that is no
// format gives an *UnknownFormatError.
func Parse(s string) (Format, error) {
	for i, name := range names {
		if strings.EqualFold(s, name) {
			return Format(i), nil
		}
	}
	e := &UnknownFormatError{Name: s}
	if near := lint.Suggest(s, names[:], 1); len(near) > 0 {
		e.Suggestion = near[0]
	}
	return Text, e
}

// Set parses s (Parse), so that a *Format is a flag's value.
func (f *Format) Set(s string) error {
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// Type names a flag's value in help text: the formats, separated by |.
func (f *Format) Type() string { return strings.Join(names[:], "|") }

// Writer writes one report, in one format, to w.
type Writer func(w io.Writer) error

// Writers is an evaluation's report in every format: the writer of each,
// by Format.
type Writers [formatCount]Writer

// Write writes the report in format f to w.
func (ws *Writers) Write(w io.Writer, f Format) error {
	if f < 0 || f >= formatCount || ws[f] == nil {
		return fmt.Errorf("no writer for the %s report", f)
	}
	return ws[f](w)
}
