package preview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// scanHome scans base with environ as the process environment.
func scanHome(t *testing.T, base string, environ ...string) *lint.Catalog {
	t.Helper()
	c, err := lint.Scan(lint.NewHome(base, ""), lint.ScanOptions{Environ: append([]string{}, environ...)})
	if err != nil {
		t.Fatalf("scan %s: %v", base, err)
	}
	return c
}

// sampleHome is a home with local agents (one CRLF, one internal, one
// rejected), a feed whose release-notes is shadowed by the local one, and
// routed skills.
var sampleHome = map[string]string{
	"agents/release-notes.md":                    "---\nname: release-notes\ndescription: Writes release notes from merged pull requests (local version).\ntimeoutSeconds: 90\n---\n\nYou write release notes.\n\n",
	"agents/Code-Analyst.md":                     "---\r\nname: Code-Analyst\r\ndescription: Reads source code and explains it.\r\n---\r\nYou read code.\r\n## Rules\r\n- cite lines\r\n",
	"agents/indexer.md":                          "---\nname: indexer\ndescription: Builds the search index.\nvisibility: internal\n---\nYou index.\n",
	"agents/broken.md":                           "---\nname: broken\n---\nNo description, so the runtime skips this file.\n",
	"agents/notes.txt":                           "not an agent",
	"agents/.server-feeds/acme/release-notes.md": "---\nname: release-notes\ndescription: Writes release notes (feed version).\n---\nFeed body.\n",
	"agents/.server-feeds/acme/feed-helper.md":   "---\nname: feed-helper\ndescription: Answers questions about the team's runbooks.\n---\nYou help.\n",
	"config/netclaw.json":                        `{"SkillFeeds": {"Feeds": [{"Name": "acme", "Url": "https://skills.example"}]}}`,
	"skills/notes/SKILL.md":                      "---\nname: notes\ndescription: The notes skill.\nmetadata:\n  subagent: release-notes\n---\n\n  Draft the notes for the next tag.  \n\n",
	"skills/explain/SKILL.md":                    "---\nname: explain\ndescription: The explain skill.\nmetadata:\n  subagent: code-analyst\n---\r\nExplain the file.\r\n",
	"skills/index/SKILL.md":                      "---\nname: index\ndescription: The index skill.\nmetadata:\n  subagent: indexer\n---\nIndex it.\n",
	"skills/ghost/SKILL.md":                      "---\nname: ghost\ndescription: The ghost skill.\nmetadata:\n  subagent: nobody-here\n---\nBoo.\n",
	"skills/plain/SKILL.md":                      "---\nname: plain\ndescription: The plain skill.\n---\nNo routing.\n",
}

func TestLayerFromHome(t *testing.T) {
	base := hometest.New(t, sampleHome)
	checkGolden(t, "layer/home.txt", Layer(scanHome(t, base), Personal))
}

func TestLayerFromEmptyHome(t *testing.T) {
	base := hometest.New(t, map[string]string{"agents/readme.txt": "nothing here"})
	want, err := os.ReadFile(filepath.Join("testdata", "layer", "empty.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c := scanHome(t, base)
	expected := strings.Replace(string(want), "/home/u/.netclaw/agents", c.Home.Agents, 1)
	if got := Layer(c, Personal); got != expected {
		t.Errorf("empty home layer:\n%s", Diff(expected, got))
	}
}

// TestLayerConfigGates switches the layer off and on with netclaw.json,
// secrets.json and the environment, which override each other in that order.
func TestLayerConfigGates(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		environ []string
		enabled bool
	}{
		{name: "no config", enabled: true},
		{name: "netclaw.json enables", files: map[string]string{"config/netclaw.json": `{"SubAgents": {"Enabled": true}}`}, enabled: true},
		{name: "netclaw.json disables", files: map[string]string{"config/netclaw.json": `{"SubAgents": {"Enabled": false}}`}},
		{name: "keys ignore case", files: map[string]string{"config/netclaw.json": `{"subagents": {"ENABLED": false}}`}},
		{name: "secrets.json overrides netclaw.json", files: map[string]string{
			"config/netclaw.json": `{"SubAgents": {"Enabled": true}}`,
			"config/secrets.json": `{"SubAgents": {"Enabled": false}}`,
		}},
		{name: "environment disables", environ: []string{"NETCLAW_SubAgents__Enabled=false"}},
		{name: "environment key ignores case", environ: []string{"NETCLAW_SUBAGENTS__ENABLED=False"}},
		{name: "environment overrides the files", files: map[string]string{
			"config/netclaw.json": `{"SubAgents": {"Enabled": false}}`,
		}, environ: []string{"NETCLAW_SubAgents__Enabled=true"}, enabled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews diffs.\n---\nReview.\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			c := scanHome(t, hometest.New(t, files), tt.environ...)
			for _, a := range []Audience{Personal, Team} {
				layer := Layer(c, a)
				if got := layer != ""; got != tt.enabled {
					t.Errorf("%s: layer present = %v, want %v\n%s", a, got, tt.enabled, layer)
				}
				if Enabled(c, a) != tt.enabled {
					t.Errorf("%s: Enabled = %v, want %v", a, !tt.enabled, tt.enabled)
				}
			}
			if Layer(c, Public) != "" {
				t.Error("Public must always be empty")
			}
		})
	}
}

func TestSkillRoutesFromHome(t *testing.T) {
	c := scanHome(t, hometest.New(t, sampleHome))
	got := map[string]SkillRoute{}
	for _, r := range SkillRoutes(c) {
		got[r.Skill.Name] = r
	}
	if len(got) != 4 {
		t.Fatalf("%d routed skills, want 4 (plain does not route): %v", len(got), got)
	}
	want := map[string]struct{ prompt, err string }{
		"notes":   {prompt: "You write release notes.\n\n[Skill Overlay]\nDraft the notes for the next tag."},
		"explain": {prompt: "You read code.\r\n## Rules\r\n- cite lines\n\n[Skill Overlay]\nExplain the file."},
		"index":   {err: "Skill '/index' routes to subagent 'indexer', but that subagent is internal-only and not user-invocable. Use a user-facing subagent or fix metadata.subagent on the skill."},
		"ghost":   {err: "Skill '/ghost' routes to subagent 'nobody-here', but that subagent is not registered. Add the missing subagent definition or fix metadata.subagent on the skill."},
	}
	for name, w := range want {
		r := got[name]
		if r.Prompt != w.prompt || r.Err != w.err {
			t.Errorf("skill %s: prompt %q, error %q; want prompt %q, error %q", name, r.Prompt, r.Err, w.prompt, w.err)
		}
	}
}
