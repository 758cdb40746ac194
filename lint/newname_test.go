package lint

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// newNameHome scans a home holding summarizer and code-analyst (loaded)
// and broken (rejected).
func newNameHome(t *testing.T) (*Catalog, string) {
	t.Helper()
	base := hometest.New(t, map[string]string{
		"agents/summarizer.md":   "---\nname: summarizer\ndescription: Summarizes.\n---\n\nYou summarize.\n",
		"agents/code-analyst.md": "---\nname: code-analyst\ndescription: Reads code.\n---\n\nYou read code.\n",
		"agents/broken.md":       "---\nname: broken\n---\n\nNo description.\n",
	})
	c, err := Scan(NewHome(base, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return c, base
}

func TestCheckNewAgentName(t *testing.T) {
	c, _ := newNameHome(t)
	cases := []struct {
		name    string
		wantErr string // "" for valid
	}{
		{"code-reviewer", ""},
		{"a", ""},
		{"a1-b2", ""},
		{"", "type a name"},
		{"Code", "kebab-case"},
		{"two words", "kebab-case"},
		{"-lead", "kebab-case"},
		{"trail-", "kebab-case"},
		{"dou--ble", "kebab-case"},
		{"../escape", "kebab-case"},
		{"dot.md", "kebab-case"},
		{strings.Repeat("a", 65), "too long"},
		{"summarizer", "taken by agents/summarizer.md"},
		{"broken", "taken"}, // a rejected file still holds its name
		{"Code Reviewer", `did you mean "code-reviewer"?`},
		{"ReleaseNotes", `did you mean "release-notes"?`},
		{"--", "kebab-case: use a-z"},
	}
	for _, c2 := range cases {
		err := CheckNewAgentName(c, c2.name)
		switch {
		case c2.wantErr == "" && err != nil:
			t.Errorf("%q: unexpected error %v", c2.name, err)
		case c2.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c2.wantErr)):
			t.Errorf("%q: error %v, want one containing %q", c2.name, err, c2.wantErr)
		}
	}
}

func TestCopyName(t *testing.T) {
	c, base := newNameHome(t)
	cases := []struct{ name, want string }{
		{"release-notes", "release-notes-copy"},
		{"Release_Notes", "release-notes-copy"},
		{"CodeAnalyst", "code-analyst-copy"},
		{"???", "agent-copy"},
	}
	for _, tc := range cases {
		if got := CopyName(c, tc.name); got != tc.want {
			t.Errorf("CopyName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A taken suggestion moves on to the next number.
	c.Files = append(c.Files, Parse(filepath.Join(base, "agents", "x.md"), []byte("---\nname: summarizer-copy\ndescription: d\n---\n\nbody\n"), Runtime))
	if got := CopyName(c, "summarizer"); got != "summarizer-copy-2" {
		t.Errorf("with summarizer-copy taken: %q", got)
	}
}
