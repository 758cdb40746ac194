package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// The cases below are NetClaw's FileSubAgentDefinitionLoaderTests (the
// feed and folder cases), rewritten as homes on disk.

func TestSkillFeedsDecideWhichFeedsLoad(t *testing.T) {
	managed := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + desc + " body.\n"
	}
	cases := []struct {
		name    string
		files   map[string]string
		environ []string
		want    []fileSummary
		reasons map[string]string // rel path → Reason substring
		config  []string          // "rule severity line:col message" substrings of config diagnostics
	}{
		{
			name: "no SkillFeeds section: no feed agent loads",
			files: map[string]string{
				"agents/.server-feeds/team/code-reviewer.md": managed("code-reviewer", "Managed reviewer"),
			},
			want:    []fileSummary{{"agents/.server-feeds/team/code-reviewer.md", NotLoaded, "feed:team"}},
			reasons: map[string]string{"agents/.server-feeds/team/code-reviewer.md": "feed 'team' is not configured in SkillFeeds"},
		},
		{
			name: "configured feed order decides managed duplicates",
			files: map[string]string{
				"agents/.server-feeds/team-b/reviewer.md": managed("reviewer", "Team B reviewer"),
				"agents/.server-feeds/team-a/reviewer.md": managed("reviewer", "Team A reviewer"),
				"config/netclaw.json":                     skillFeeds("team-b", "team-a"),
			},
			want: []fileSummary{
				{"agents/.server-feeds/team-b/reviewer.md", Loaded, "feed:team-b"},
				{"agents/.server-feeds/team-a/reviewer.md", Rejected, "feed:team-a"},
			},
			reasons: map[string]string{"agents/.server-feeds/team-a/reviewer.md": "from feed 'team-a' declares duplicate name 'reviewer' — skipping; earlier definition wins"},
		},
		{
			name: "disabled and removed feeds are not loaded",
			files: map[string]string{
				"agents/.server-feeds/enabled/enabled-agent.md":   managed("enabled-agent", "Enabled managed agent"),
				"agents/.server-feeds/disabled/disabled-agent.md": managed("disabled-agent", "Disabled managed agent"),
				"agents/.server-feeds/removed/removed-agent.md":   managed("removed-agent", "Removed managed agent"),
				"config/netclaw.json": `{"SkillFeeds": {"Feeds": [{"Name": "enabled", "Enabled": true},
					{"Name": "disabled", "Enabled": false}]}}`,
			},
			want: []fileSummary{
				{"agents/.server-feeds/enabled/enabled-agent.md", Loaded, "feed:enabled"},
				{"agents/.server-feeds/disabled/disabled-agent.md", NotLoaded, "feed:disabled"},
				{"agents/.server-feeds/removed/removed-agent.md", NotLoaded, "feed:removed"},
			},
			reasons: map[string]string{
				"agents/.server-feeds/disabled/disabled-agent.md": "feed 'disabled' is disabled in SkillFeeds",
				"agents/.server-feeds/removed/removed-agent.md":   "feed 'removed' is not configured in SkillFeeds",
			},
		},
		{
			name: "unsafe feed names are ignored with the runtime's warning",
			files: map[string]string{
				"agents/escaped/escaped-agent.md":              managed("escaped-agent", "Escaped managed agent"),
				"agents/.server-feeds/safe-feed/safe-agent.md": managed("safe-agent", "Safe managed agent"),
				"agents/.server-feeds/Team/team-agent.md":      managed("team-agent", "Team agent"),
				"config/netclaw.json": `{"SkillFeeds": {"Feeds": [
  {"Name": "../escaped", "Enabled": true},
  {"Name": "safe-feed", "Enabled": true},
  {"Name": "Team"},
  {"Url": "https://nameless.example"},
  {"Name": "Bad Name", "Enabled": false}]}}`,
			},
			want: []fileSummary{
				{"agents/.server-feeds/safe-feed/safe-agent.md", Loaded, "feed:safe-feed"},
				{"agents/.server-feeds/Team/team-agent.md", NotLoaded, "feed:Team"},
			},
			reasons: map[string]string{"agents/.server-feeds/Team/team-agent.md": "feed 'Team' is not a safe feed name"},
			config: []string{
				"config warning 2:12 Ignoring managed sub-agent feed '../escaped' because it is not a safe feed name",
				"config warning 4:12 Ignoring managed sub-agent feed 'Team' because it is not a safe feed name",
				"config warning 5:11 Ignoring managed sub-agent feed '' because it is not a safe feed name",
			},
		},
		{
			name: "a feed listed twice is read once",
			files: map[string]string{
				"agents/.server-feeds/acme/a.md": managed("a", "A"),
				"config/netclaw.json":            skillFeeds("acme", "acme"),
			},
			want:   []fileSummary{{"agents/.server-feeds/acme/a.md", Loaded, "feed:acme"}},
			config: []string{"config warning 1:87 feed 'acme' is listed twice in SkillFeeds.Feeds (first as entry 0)"},
		},
		{
			name: "the environment configures feeds like netclaw.json",
			files: map[string]string{
				"agents/.server-feeds/acme/a.md": managed("a", "A"),
				"agents/.server-feeds/beta/b.md": managed("b", "B"),
				"config/netclaw.json":            skillFeeds("acme"),
			},
			environ: []string{"NETCLAW_SkillFeeds__Feeds__0__Enabled=false", "NETCLAW_SKILLFEEDS__FEEDS__1__NAME=beta"},
			want: []fileSummary{
				{"agents/.server-feeds/beta/b.md", Loaded, "feed:beta"},
				{"agents/.server-feeds/acme/a.md", NotLoaded, "feed:acme"},
			},
		},
		{
			name: "list indexes in numeric order, not text order",
			files: map[string]string{
				"agents/.server-feeds/ten/x.md": managed("x", "ten"),
				"agents/.server-feeds/two/x.md": managed("x", "two"),
			},
			environ: []string{"NETCLAW_SkillFeeds__Feeds__10__Name=ten", "NETCLAW_SkillFeeds__Feeds__2__Name=two"},
			want: []fileSummary{
				{"agents/.server-feeds/two/x.md", Loaded, "feed:two"},
				{"agents/.server-feeds/ten/x.md", Rejected, "feed:ten"},
			},
		},
		{
			name: "malformed SkillFeeds: findings at the line, never a crash, the rest still checked",
			files: map[string]string{
				"agents/local.md":                "---\nname: local\n---\n\nno description\n",
				"agents/.server-feeds/acme/a.md": managed("a", "A"),
				"config/netclaw.json":            "{\n  \"SkillFeeds\": {\n    \"Feeds\": \"acme\"\n  }\n}\n",
			},
			want: []fileSummary{
				{"agents/local.md", Rejected, "local"},
				{"agents/.server-feeds/acme/a.md", NotLoaded, "feed:acme"},
			},
			config: []string{"config error 3:14 SkillFeeds:Feeds is a value, not a list"},
		},
		{
			name: "malformed SkillFeeds entries",
			files: map[string]string{
				"agents/.server-feeds/acme/a.md": managed("a", "A"),
				"config/netclaw.json":            "{\"SkillFeeds\": {\"Feeds\": [\n  \"acme\",\n  {\"Name\": \"acme\", \"Enabled\": \"maybe\"}\n]}}\n",
			},
			want: []fileSummary{{"agents/.server-feeds/acme/a.md", Loaded, "feed:acme"}},
			config: []string{
				"config error 2:3 SkillFeeds:Feeds:0 is a value, not an object: NetClaw reads it as a feed with no name",
				"config warning 2:3 Ignoring managed sub-agent feed '' because it is not a safe feed name",
				"config error 3:31 SkillFeeds:Feeds:1:Enabled is \"maybe\": expected true or false",
			},
		},
		{
			name: "Feeds as an object: each member is a feed, in key order",
			files: map[string]string{
				"agents/.server-feeds/acme/a.md": managed("a", "A"),
				"config/netclaw.json":            "{\"SkillFeeds\": {\"Feeds\": {\n  \"main\": {\"Name\": \"acme\"}\n}}}\n",
			},
			want:   []fileSummary{{"agents/.server-feeds/acme/a.md", Loaded, "feed:acme"}},
			config: []string{"config error 2:20 SkillFeeds:Feeds is an object, not a list"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			hometest.Write(t, root, tc.files)
			c, err := Scan(NewHome(root, ""), ScanOptions{Environ: append([]string{}, tc.environ...)})
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(root, c); !slices.Equal(got, tc.want) {
				t.Errorf("files:\n got %v\nwant %v", got, tc.want)
			}
			for rel, want := range tc.reasons {
				f := c.File(filepath.Join(root, rel))
				if f == nil || !strings.Contains(f.Reason, want) {
					t.Errorf("%s: reason %q, want %q", rel, f.Reason, want)
				}
				if f != nil && f.Status == NotLoaded && len(f.Diagnostics) != 0 {
					t.Errorf("%s: a file the runtime never reads has diagnostics %v", rel, f.Diagnostics)
				}
			}
			var got []string
			for _, d := range c.Config.Diagnostics {
				got = append(got, d.Rule+" "+d.Severity.String()+" "+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column)+" "+d.Message)
			}
			for _, want := range tc.config {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("config diagnostics lack %q:\n%s", want, strings.Join(got, "\n"))
				}
			}
			if len(got) != len(tc.config) {
				t.Errorf("%d config diagnostics, want %d:\n%s", len(got), len(tc.config), strings.Join(got, "\n"))
			}
		})
	}
}

// TestFolderDiagnostics: the runtime's words for an agents folder that is
// missing or holds no agent file it reads, and a note per feed folder it
// does not read; infos never count as findings.
func TestFolderDiagnostics(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string // "rule severity path-relative message"
	}{
		{"no agents folder", map[string]string{"config/netclaw.json": "{}"},
			[]string{"agents-folder info agents Agents directory does not exist: {root}/agents"}},
		{"no *.md", map[string]string{"agents/notes.txt": "x", "agents/sub/a.md": agent("a", "a")},
			[]string{"agents-folder info agents No agent definition files found in {root}/agents"}},
		{"only unread feed files", map[string]string{"agents/.server-feeds/old/a.md": agent("a", "a")},
			[]string{
				"agents-folder info agents No agent definition files found in {root}/agents",
				"feed-not-loaded info agents/.server-feeds/old not loaded: feed 'old' is not configured in SkillFeeds, so the runtime never reads the 1 agent file in this folder",
			}},
		{"feed files count as definition files", map[string]string{"agents/.server-feeds/acme/a.md": agent("a", "a"), "config/netclaw.json": skillFeeds("acme")}, nil},
		{"an unread feed folder without agent files says nothing", map[string]string{"agents/a.md": agent("a", "a"), "agents/.server-feeds/old/notes.txt": "x"}, nil},
		{"unread skill feed folders", map[string]string{
			"agents/a.md": agent("a", "a"),
			"skills/.server-feeds/old/triage/SKILL.md": "---\nname: triage\ndescription: d\n---\nT.\n",
			"skills/.server-feeds/old/other/SKILL.md":  "---\nname: other\ndescription: d\n---\nT.\n",
		}, []string{"feed-not-loaded info skills/.server-feeds/old not loaded: feed 'old' is not configured in SkillFeeds, so the runtime never reads the 2 skill files in this folder"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			hometest.Write(t, root, tc.files)
			c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range c.FolderDiagnostics {
				rel, _ := filepath.Rel(root, d.Path)
				got = append(got, d.Rule+" "+d.Severity.String()+" "+filepath.ToSlash(rel)+" "+strings.ReplaceAll(d.Message, root, "{root}"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("folder diagnostics:\n got %q\nwant %q", got, tc.want)
			}
			if s := c.Summary(); s.Errors != 0 || s.Warnings != 0 || s.Infos != len(tc.want) {
				t.Errorf("summary %+v", s)
			}
		})
	}
}

// TestSkillFeedsChangeIsPickedUpByRescan: a save of netclaw.json that
// changes which feeds are read relists the feeds, as a full scan would.
func TestSkillFeedsChangeIsPickedUpByRescan(t *testing.T) {
	root := t.TempDir()
	h := NewHome(root, "")
	hometest.Write(t, root, map[string]string{
		"agents/a.md":                    agent("a", "a"),
		"agents/.server-feeds/acme/x.md": agent("x", "x"),
		"agents/.server-feeds/beta/y.md": agent("y", "y"),
	})
	s := NewScanner(h, ScanOptions{Environ: []string{}})
	if _, err := s.Scan(); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, "config", "netclaw.json")
	for _, feeds := range [][]string{{"beta", "acme"}, {"acme"}, {"acme", "beta"}, nil} {
		hometest.Write(t, root, map[string]string{"config/netclaw.json": skillFeeds(feeds...)})
		got, err := s.Rescan([]string{cfg})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Scan(h, ScanOptions{Environ: []string{}})
		if catalogKey(got) != catalogKey(want) {
			t.Fatalf("feeds %v: rescan differs from a full scan\n got:\n%s\nwant:\n%s", feeds, catalogKey(got), catalogKey(want))
		}
		if n := len(got.Loaded()); n != 1+len(feeds) {
			t.Errorf("feeds %v: %d loaded", feeds, n)
		}
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Rescan([]string{cfg})
	if len(got.NotLoaded()) != 2 {
		t.Errorf("with netclaw.json gone, %d files not loaded, want 2", len(got.NotLoaded()))
	}
}

// TestFeedNotLoadedHintFitsTheFolder: the hint for a feed folder the
// runtime does not read says what would make it read it. An agent feed
// folder whose name is not safe is never read, configured or not, so
// adding it to SkillFeeds is no advice; the skill scanner takes any name.
func TestFeedNotLoadedHintFitsTheFolder(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"agents/a.md":                               agent("a", "a"),
		"agents/.server-feeds/Team/t.md":            agent("t", "t"),
		"agents/.server-feeds/old/o.md":             agent("o", "o"),
		"skills/.server-feeds/Team/triage/SKILL.md": "---\nname: triage\ndescription: d\n---\nT.\n",
	})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"agents/.server-feeds/Team": "rename the folder to lowercase letters, digits and '-'",
		"agents/.server-feeds/old":  `add {"Name": "old", "Url": "<the feed's server>"} to SkillFeeds.Feeds`,
		"skills/.server-feeds/Team": `add {"Name": "Team", "Url": "<the feed's server>"} to SkillFeeds.Feeds`,
	}
	seen := 0
	for _, d := range c.FolderDiagnostics {
		rel, _ := filepath.Rel(root, d.Path)
		w, ok := want[filepath.ToSlash(rel)]
		if !ok {
			continue
		}
		seen++
		if !strings.Contains(d.Hint, w) {
			t.Errorf("%s: hint %q lacks %q", rel, d.Hint, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d folders noted: %+v", seen, len(want), c.FolderDiagnostics)
	}
}
