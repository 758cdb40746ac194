package request

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The table of docs/tools.md ("Tools a trial offers") names every
// catalogued tool and no other.
func TestReadmeToolTable(t *testing.T) {
	text, err := os.ReadFile("../../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	start := strings.Index(s, "# Tools a trial offers")
	if start < 0 {
		t.Fatal(`docs/tools.md has no "# Tools a trial offers" section`)
	}
	section := s[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	named := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.Split(line, "|")[1]
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(first, -1) {
			named[m[1]] = true
		}
	}
	for _, tl := range NetClaw().Tools() {
		if !named[tl.Name] {
			t.Errorf("docs/tools.md's table does not list %s", tl.Name)
		}
		delete(named, tl.Name)
	}
	for name := range named {
		t.Errorf("docs/tools.md's table lists %s, which the catalogue does not hold", name)
	}
}
