package preview

import (
	"fmt"
	"strings"
)

// Audience is the parent session's audience, which decides whether the
// frontline model sees the sub-agent layer at all.
type Audience int

// The runtime's audiences. The zero value is Personal, the audience of a
// user's own sessions and of `agentdesk preview` without --audience.
const (
	Personal Audience = iota
	Team
	Public
)

// Audiences lists every audience, most restricted last.
var Audiences = []Audience{Personal, Team, Public}

// String returns "Personal", "Team" or "Public", as the runtime spells them.
func (a Audience) String() string {
	switch a {
	case Team:
		return "Team"
	case Public:
		return "Public"
	case Personal:
		return "Personal"
	}
	return fmt.Sprintf("Audience(%d)", int(a))
}

// ParseAudience reads "Public", "Team" or "Personal" in any letter case,
// surrounding spaces ignored.
func ParseAudience(s string) (Audience, error) {
	t := strings.TrimSpace(s)
	for _, a := range Audiences {
		if strings.EqualFold(t, a.String()) {
			return a, nil
		}
	}
	return Personal, fmt.Errorf("unknown audience %q: use Public, Team or Personal", s)
}

// MarshalText returns the audience's name, so JSON carries "Personal".
func (a Audience) MarshalText() ([]byte, error) {
	switch a {
	case Personal, Team, Public:
		return []byte(a.String()), nil
	}
	return nil, fmt.Errorf("cannot encode %s: not an audience", a)
}

// UnmarshalText parses the audience's name, in any letter case.
func (a *Audience) UnmarshalText(b []byte) error {
	v, err := ParseAudience(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
