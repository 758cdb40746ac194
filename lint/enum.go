package lint

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
)

// dotnetEnum is a .NET enum whose members are numbered 0, 1, 2 ... in
// declaration order, as NetClaw's ModelRole and SubAgentVisibility are.
type dotnetEnum []string

var (
	// modelRoleEnum is NetClaw's ModelRole: Main = 0, Fallback = 1,
	// Compaction = 2.
	modelRoleEnum = dotnetEnum{"Main", "Fallback", "Compaction"}
	// visibilityEnum is NetClaw's SubAgentVisibility: UserFacing = 0,
	// Internal = 1.
	visibilityEnum = dotnetEnum{"UserFacing", "Internal"}
)

// enumForm says how a value the parser accepted was written.
type enumForm int

const (
	enumName   enumForm = iota // one member name
	enumNumber                 // an integer
	enumList                   // a comma list of names, combined bit by bit
)

// parse reads s the way .NET's Enum.TryParse(s, ignoreCase: true) does for
// an int-backed enum: after leading white space, a value starting with a
// digit, '-' or '+' is tried as a 32-bit integer (surrounding ASCII white
// space allowed; any value, named or not, is accepted; one out of range
// fails outright); anything else, or a number that does not parse, is a
// comma-separated list of member names, each trimmed and matched ignoring
// case, their values OR-ed together. An empty item or a trailing comma
// fails.
func (e dotnetEnum) parse(s string) (v int32, form enumForm, ok bool) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if s == "" {
		return 0, 0, false
	}
	if c := s[0]; c >= '0' && c <= '9' || c == '-' || c == '+' {
		n, err := strconv.ParseInt(strings.TrimRight(s, " \t\n\v\f\r"), 10, 32)
		if err == nil {
			return int32(n), enumNumber, true
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, 0, false
		}
	}
	items := strings.Split(s, ",")
	for i, item := range items {
		if item == "" && i == len(items)-1 {
			return 0, 0, false // a trailing comma
		}
		m := e.member(strings.TrimFunc(item, unicode.IsSpace))
		if m < 0 {
			return 0, 0, false
		}
		v |= int32(m)
	}
	if len(items) > 1 {
		form = enumList
	}
	return v, form, true
}

// member returns the value of the member named name, matched as .NET's
// OrdinalIgnoreCase does, or -1.
func (e dotnetEnum) member(name string) int {
	for i, m := range e {
		if ordinalFold(name, m) {
			return i
		}
	}
	return -1
}

// format prints v as .NET's Enum.ToString does: the member's name, or the
// number for a value no member has.
func (e dotnetEnum) format(v int32) string {
	if v >= 0 && int(v) < len(e) {
		return e[v]
	}
	return strconv.Itoa(int(v))
}

// defined reports whether a member has the value v.
func (e dotnetEnum) defined(v int32) bool { return v >= 0 && int(v) < len(e) }

// ordinalFold compares two strings as .NET's StringComparison.
// OrdinalIgnoreCase does: character by character after simple upper-case
// mapping, which (unlike strings.EqualFold) never maps the Kelvin sign to
// 'K', nor 'ı' and 'ſ' to ASCII letters.
func ordinalFold(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	if len(ar) != len(br) {
		return false
	}
	for i := range ar {
		if ordinalUpper(ar[i]) != ordinalUpper(br[i]) {
			return false
		}
	}
	return true
}

func ordinalUpper(r rune) rune {
	if r == 'ı' || r == 'ſ' {
		return r
	}
	return unicode.ToUpper(r)
}
