package evalrec

import (
	"fmt"
	"regexp"
	"strings"
)

// CaseFilter selects a suite's cases by name, as --case NAME (repeatable)
// asks: a case runs when its name matches one of the patterns, where `*`
// stands for any run of characters (slashes and spaces included) and `?`
// for one; everything else matches itself, case-sensitively. The nil
// filter selects every case.
type CaseFilter struct {
	patterns []string
	// res holds a pattern's expression; nil for a pattern with no
	// wildcard, which is compared as it is.
	res []*regexp.Regexp
}

// NewCaseFilter returns the filter of patterns; none gives nil (every
// case).
func NewCaseFilter(patterns []string) *CaseFilter {
	if len(patterns) == 0 {
		return nil
	}
	f := &CaseFilter{patterns: patterns}
	for _, p := range patterns {
		if !strings.ContainsAny(p, "*?") {
			f.res = append(f.res, nil)
			continue
		}
		var b strings.Builder
		b.WriteString("^")
		for _, r := range p {
			switch r {
			case '*':
				b.WriteString(".*")
			case '?':
				b.WriteString(".")
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		b.WriteString("$")
		f.res = append(f.res, regexp.MustCompile("(?s)"+b.String()))
	}
	return f
}

// Match reports whether the case named name is selected.
func (f *CaseFilter) Match(name string) bool {
	if f == nil {
		return true
	}
	for i, re := range f.res {
		if f.match(i, re, name) {
			return true
		}
	}
	return false
}

// match reports whether pattern i (compiled to re) matches name.
func (f *CaseFilter) match(i int, re *regexp.Regexp, name string) bool {
	if re == nil {
		return name == f.patterns[i]
	}
	return re.MatchString(name)
}

// Unmatched returns the patterns that match none of names, in the order
// given.
func (f *CaseFilter) Unmatched(names []string) []string {
	if f == nil {
		return nil
	}
	var out []string
	for i, re := range f.res {
		hit := false
		for _, n := range names {
			if f.match(i, re, n) {
				hit = true
				break
			}
		}
		if !hit {
			out = append(out, f.patterns[i])
		}
	}
	return out
}

// Words are the command line's words in the evaluations' hints: the
// commands that run suites and the flags that record. The command line
// fills them (library packages name no flag); a suite's options carry
// them to every hint.
type Words struct {
	// Test runs test suites ("agentdesk test"); Route runs routing suites
	// ("agentdesk route --suite").
	Test, Route string
	// Record records; Case picks one case; Models names the models a
	// suite runs on; Demo runs on the embedded demo.
	Record, Case, Models, Demo string
}

// RecordAgain is the hint after a recording that is stale or broken.
func (w Words) RecordAgain() string { return "record it again with " + w.Record }

// NotRecordedInDemo is NotRecorded for the embedded demo (Demo), which
// carries its recordings and cannot record: recording is refused there, so
// the hint says what the demo does carry and how to record outside it.
// path is the missing file as the report shows it (the demo's home is
// removed when the command ends); models says the sample's model came
// from Models, whose folders the demo has no recordings in.
func (w Words) NotRecordedInDemo(path, command, caseName string, models bool) error {
	why := "it carries recordings only of its suites' cases as it ships them, and cannot record"
	fix := "record the case on your own home, outside " + w.Demo + " (it calls your model): " + command + " " + w.Record + " " + w.Case + " " + ShellQuote(caseName)
	if models {
		why = "it carries recordings only on the models its suites name, none under " + w.Models + ", and cannot record"
		fix = "leave out " + w.Models + " to replay the ones it has, or " + fix
	}
	return fmt.Errorf("not recorded: the demo has no %s (%s); %s", path, why, fix)
}

// ShellQuote quotes s for a POSIX shell when it needs it, so that a hint
// can be pasted: finds-the-port stays as it is, "finds the port" becomes
// 'finds the port'.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NotRecorded is the error of a sample with no recording under Offline:
// it names the missing file and the command that records that case alone
// (command is Test or Route, with what else it needs; suitePath the suite
// file, as the user would type it).
func (w Words) NotRecorded(path, command, suitePath, caseName string) error {
	return fmt.Errorf("not recorded: no %s; record this case alone: %s %s %s %s %s (it calls the model for this case's samples), and commit the file",
		path, command, w.Record, w.Case, ShellQuote(caseName), ShellQuote(suitePath))
}
