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

// NotRecordedInDemo is NotRecorded for the embedded demo (--demo), which
// carries its recordings and cannot record: --record is refused there, so
// the hint says what the demo does carry and how to record outside it.
// path is the missing file as the report shows it (the demo's home is
// removed when the command ends); models says the sample's model came
// from --models, whose folders the demo has no recordings in.
func NotRecordedInDemo(path, command, caseName string, models bool) error {
	why := "it carries recordings only of its suites' cases as it ships them, and cannot record"
	fix := "record the case on your own home, outside --demo (it calls your model): " + command + " --record --case " + ShellQuote(caseName)
	if models {
		why = "it carries recordings only on the models its suites name, none under --models, and cannot record"
		fix = "leave out --models to replay the ones it has, or " + fix
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

// NotRecorded is the error of a sample with no recording under --offline:
// it names the missing file and the command that records that case alone
// (command is "agentdesk test" or "agentdesk route --suite"; suitePath
// the suite file, as the user would type it).
func NotRecorded(path, command, suitePath, caseName string) error {
	return fmt.Errorf("not recorded: no %s; record this case alone: %s --record --case %s %s (it calls the model for this case's samples), and commit the file",
		path, command, ShellQuote(caseName), ShellQuote(suitePath))
}
