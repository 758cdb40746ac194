package evalrec

import (
	"encoding/xml"
	"fmt"
	"github.com/agentdesk/agentdesk/lint"
	"io"
	"strconv"
	"strings"
	"time"
)

// JUnit statuses of a case.
const (
	JUnitPass    = ""
	JUnitFailure = "failure"
	JUnitError   = "error"
	JUnitSkipped = "skipped"
)

// JUnitSuite is one suite file of a JUnit report.
type JUnitSuite struct {
	// Name is the suite's name (its file's path as shown); File its path.
	Name, File string
	Cases      []JUnitCase
	// Time is the suite's wall time.
	Time time.Duration
}

// JUnitCase is one case.
type JUnitCase struct {
	Name string
	// Classname groups the case (the suite's name); "" uses the suite's.
	Classname string
	Line      int
	Time      time.Duration
	// Status is JUnitPass, JUnitFailure, JUnitError or JUnitSkipped; Type
	// says which kind of failure ("fail", "stale", "not-recorded").
	Status, Type string
	// Message is one line; Detail the text of the failure element.
	Message, Detail string
	// Output goes into system-out (the run folders, for one).
	Output string
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Time     string    `xml:"time,attr"`
	File     string    `xml:"file,attr,omitempty"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	File      string      `xml:"file,attr,omitempty"`
	Line      int         `xml:"line,attr,omitempty"`
	Time      string      `xml:"time,attr"`
	Failure   *xmlProblem `xml:"failure"`
	Error     *xmlProblem `xml:"error"`
	Skipped   *xmlProblem `xml:"skipped"`
	SystemOut string      `xml:"system-out,omitempty"`
}

type xmlProblem struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// WriteJUnit writes a JUnit XML report (the schema CI systems read: a
// testsuites root, a testsuite per suite file, a testcase per case, with
// a failure, error or skipped element). name names the whole report.
// Characters XML cannot hold become U+FFFD.
func WriteJUnit(w io.Writer, name string, suites []JUnitSuite) error {
	root := xmlSuites{Name: name}
	var total time.Duration
	for _, s := range suites {
		xs := xmlSuite{Name: s.Name, File: s.File, Time: seconds(s.Time), Tests: len(s.Cases)}
		for _, c := range s.Cases {
			xc := xmlCase{Name: c.Name, Classname: c.Classname, File: s.File, Line: c.Line, Time: seconds(c.Time), SystemOut: c.Output}
			if xc.Classname == "" {
				xc.Classname = s.Name
			}
			p := &xmlProblem{Message: oneLine(c.Message), Type: c.Type, Text: c.Detail}
			switch c.Status {
			case JUnitFailure:
				xc.Failure = p
				xs.Failures++
			case JUnitError:
				xc.Error = p
				xs.Errors++
			case JUnitSkipped:
				xc.Skipped = p
				xs.Skipped++
			}
			xs.Cases = append(xs.Cases, xc)
		}
		root.Tests += xs.Tests
		root.Failures += xs.Failures
		root.Errors += xs.Errors
		root.Skipped += xs.Skipped
		total += s.Time
		root.Suites = append(root.Suites, xs)
	}
	root.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("write the JUnit report: %w", err)
	}
	return nil
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// GitHubAnnotation writes one GitHub Actions workflow command, an
// annotation at file:line (line 0: the whole file; file "": none):
//
//	::error file=agents/x.test.yaml,line=12,title=finds the port::fail: …
//
// level is "error", "warning" or "notice". The caller escapes terminal
// control characters from file text first; this escapes GitHub's own
// (%, CR, LF, and in properties : and ,).
func GitHubAnnotation(w io.Writer, level, file string, line int, title, msg string) error {
	return GitHubAnnotationAt(w, level, file, line, 0, title, msg)
}

// GitHubAnnotationAt is GitHubAnnotation at a column as well (col 0: the
// whole line), as agentdesk lint writes a finding.
func GitHubAnnotationAt(w io.Writer, level, file string, line, col int, title, msg string) error {
	var props []string
	if file != "" {
		props = append(props, "file="+githubPropertyEscaper.Replace(file))
		if line > 0 {
			props = append(props, "line="+strconv.Itoa(line))
			if col > 0 {
				props = append(props, "col="+strconv.Itoa(col))
			}
		}
	}
	if title != "" {
		props = append(props, "title="+githubPropertyEscaper.Replace(title))
	}
	_, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), githubDataEscaper.Replace(msg))
	return err
}

// GitHubLevel is the annotation level of a finding, as agentdesk lint
// writes it: error for an error, warning otherwise.
func GitHubLevel(d lint.Diagnostic) string {
	if d.Severity == lint.Error {
		return "error"
	}
	return "warning"
}
