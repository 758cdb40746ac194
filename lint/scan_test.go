package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

func agent(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\nYou are " + name + ".\n"
}

// skillFeeds returns a netclaw.json that enables the feeds named, in order.
func skillFeeds(names ...string) string {
	var items []string
	for _, n := range names {
		items = append(items, `{"Name": "`+n+`", "Url": "https://skills.example"}`)
	}
	return `{"SkillFeeds": {"Feeds": [` + strings.Join(items, ", ") + `]}}`
}

type fileSummary struct {
	rel    string
	status Status
	source string
}

func summarize(root string, c *Catalog) []fileSummary {
	var out []fileSummary
	for _, f := range c.Files {
		rel, _ := filepath.Rel(root, f.Path)
		out = append(out, fileSummary{filepath.ToSlash(rel), f.Status, f.Source.String()})
	}
	return out
}

func TestScanOrderAndDuplicates(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []fileSummary
	}{
		{
			name: "byte order, dot-files listed, non-md and folders ignored",
			files: map[string]string{
				"agents/b.md": agent("b", "b"), "agents/B.md": agent("upper-b", "b"), "agents/.hidden.md": agent("hidden", "h"),
				"agents/a.md": agent("a", "a"), "agents/notes.txt": "x", "agents/dir.md/x.md": agent("x", "x"),
				"agents/UPPER.MD": agent("upper", "u"),
			},
			want: []fileSummary{{"agents/.hidden.md", Loaded, "local"}, {"agents/B.md", Loaded, "local"}, {"agents/a.md", Loaded, "local"}, {"agents/b.md", Loaded, "local"}},
		},
		{
			name: "the first of two names wins, case-insensitive",
			files: map[string]string{
				"agents/one.md": agent("Helper", "first"), "agents/two.md": agent("helper", "second"), "agents/zero.md": agent("HELPER", "zeroth"),
			},
			want: []fileSummary{{"agents/one.md", Loaded, "local"}, {"agents/two.md", Rejected, "local"}, {"agents/zero.md", Rejected, "local"}},
		},
		{
			name: "a rejected file does not claim its name",
			files: map[string]string{
				"agents/a.md": "---\nname: helper\n---\n\nno description\n", "agents/b.md": agent("helper", "ok"),
			},
			want: []fileSummary{{"agents/a.md", Rejected, "local"}, {"agents/b.md", Loaded, "local"}},
		},
		{
			name: "local beats feed, feeds in SkillFeeds order",
			files: map[string]string{
				"config/netclaw.json":               skillFeeds("zeta", "alpha"),
				"agents/.server-feeds/zeta/a.md":    agent("shared", "zeta"),
				"agents/.server-feeds/alpha/b.md":   agent("shared", "alpha"),
				"agents/.server-feeds/alpha/a.md":   agent("only-feed", "alpha"),
				"agents/z-local.md":                 agent("SHARED", "local"),
				"agents/.server-feeds/alpha/x.txt":  "ignored",
				"agents/.server-feeds/not-a-folder": "ignored",
			},
			want: []fileSummary{
				{"agents/z-local.md", Loaded, "local"},
				{"agents/.server-feeds/zeta/a.md", Rejected, "feed:zeta"},
				{"agents/.server-feeds/alpha/a.md", Loaded, "feed:alpha"},
				{"agents/.server-feeds/alpha/b.md", Rejected, "feed:alpha"},
			},
		},
		{
			name: "unreadable files",
			files: map[string]string{
				"agents/dangling.md": "->nowhere.md", "agents/loop.md": "->loop.md", "agents/ok.md": agent("ok", "ok"),
				"agents/link.md": "->ok.md", "agents/dirlink.md": "->sub", "agents/sub/x.txt": "x",
			},
			want: []fileSummary{{"agents/dangling.md", Rejected, "local"}, {"agents/link.md", Loaded, "local"}, {"agents/loop.md", Rejected, "local"}, {"agents/ok.md", Rejected, "local"}}, // link.md sorts first and claims "ok"
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			hometest.Write(t, root, tc.files)
			c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			if got := summarize(root, c); !slices.Equal(got, tc.want) {
				t.Errorf("files:\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestDuplicateMessageNamesWinner(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/a.md": agent("x", "1"), "agents/.server-feeds/f/x.md": agent("X", "2"), "config/netclaw.json": skillFeeds("f")})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	loser := c.Files[1]
	if loser.Status != Rejected || !strings.Contains(loser.Reason, "from feed 'f' declares duplicate name 'X' — skipping; earlier definition wins") {
		t.Errorf("reason = %q", loser.Reason)
	}
	d := loser.Diagnostics[0]
	if d.Rule != RuleDuplicateName || !strings.Contains(d.Message, filepath.Join(root, "agents/a.md")) || d.Line != 2 {
		t.Errorf("diagnostic = %+v", d)
	}
	if c.Agent("x") != c.Files[0] || c.Agent("X") != c.Files[0] {
		t.Error("Agent lookup must be case-insensitive and return the winner")
	}
}

func TestFeedModifiedAndSyncState(t *testing.T) {
	root := t.TempDir()
	body := agent("synced", "s")
	hometest.Write(t, root, map[string]string{
		"config/netclaw.json":                 skillFeeds("acme"),
		"agents/.server-feeds/acme/synced.md": body,
		"agents/.server-feeds/acme/.sync-state.json": `{"lastSyncUtc":"2026-01-01T00:00:00Z","skills":{"synced":{"version":"1.0.0","sha256":"` +
			Parse("", []byte(body), Runtime).SHA256 + `","syncedAtUtc":"2026-01-01T00:00:00Z","files":null}}}`,
	})
	s := NewScanner(NewHome(root, ""), ScanOptions{Environ: []string{}})
	c, err := s.Scan()
	if err != nil {
		t.Fatal(err)
	}
	f := c.Files[0]
	if f.Sync == nil || f.Sync.Version != "1.0.0" || len(f.Diagnostics) != 0 {
		t.Fatalf("sync = %+v, diagnostics %v", f.Sync, f.Diagnostics)
	}
	// Edit the synced file: now it no longer matches.
	touch(t, filepath.Join(root, "agents/.server-feeds/acme/synced.md"), body+"\nEdited.\n")
	c, _ = s.Scan()
	if got := diagKeys(c.Files[0].Diagnostics); !slices.Equal(got, []string{"feed-modified warning 0:0"}) {
		t.Errorf("after edit: %v", got)
	}
	// The publish profile does not report it.
	c, _ = Scan(NewHome(root, ""), ScanOptions{Profile: Publish, Environ: []string{}})
	if len(c.Files[0].Diagnostics) != 0 {
		t.Errorf("publish: %v", c.Files[0].Diagnostics)
	}
}

// touch rewrites a file and moves its mtime forward so a fingerprint sees it.
func touch(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Duration(len(body)) * time.Millisecond)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

func TestIncrementalScan(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/a.md": agent("a", "a"), "agents/b.md": agent("b", "b"), "agents/c.md": agent("c", "c")})
	s := NewScanner(NewHome(root, ""), ScanOptions{Environ: []string{}})
	first, err := s.Scan()
	if err != nil {
		t.Fatal(err)
	}
	second, _ := s.Scan()
	for i := range first.Files {
		if first.Files[i] != second.Files[i] {
			t.Errorf("%s was parsed again although it did not change", first.Files[i].Path)
		}
	}
	touch(t, filepath.Join(root, "agents/b.md"), "---\nname: b\n---\n\nno description\n")
	if err := os.Remove(filepath.Join(root, "agents/c.md")); err != nil {
		t.Fatal(err)
	}
	hometest.Write(t, root, map[string]string{"agents/d.md": agent("a", "dup of a")})
	third, _ := s.Scan()
	got := summarize(root, third)
	want := []fileSummary{{"agents/a.md", Loaded, "local"}, {"agents/b.md", Rejected, "local"}, {"agents/d.md", Rejected, "local"}}
	if !slices.Equal(got, want) {
		t.Fatalf("after changes: %v", got)
	}
	if third.Files[0] != first.Files[0] {
		t.Error("a.md was parsed again although it did not change")
	}
	// The duplicate rule must not leak into the cache: remove the winner,
	// and the former duplicate loads.
	if err := os.Remove(filepath.Join(root, "agents/a.md")); err != nil {
		t.Fatal(err)
	}
	fourth, _ := s.Scan()
	if got := summarize(root, fourth); !slices.Equal(got, []fileSummary{{"agents/b.md", Rejected, "local"}, {"agents/d.md", Loaded, "local"}}) {
		t.Errorf("after removing the winner: %v", got)
	}
	if len(fourth.Files[1].Diagnostics) != 0 {
		t.Errorf("stale duplicate diagnostic: %v", fourth.Files[1].Diagnostics)
	}
}

func TestScanMissingAndBadFolders(t *testing.T) {
	root := t.TempDir()
	c, err := Scan(NewHome(filepath.Join(root, "nope"), ""), ScanOptions{Environ: []string{}})
	if err != nil || len(c.Files) != 0 {
		t.Errorf("a missing home is an empty catalog: %v %v", c, err)
	}
	hometest.Write(t, root, map[string]string{"file": "x"})
	_, err = Scan(NewHome(root, filepath.Join(root, "file")), ScanOptions{Environ: []string{}})
	if err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("agents path that is a file: %v", err)
	}
}

func TestUnreadableDeviceAndSize(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/null.md": "->/dev/null", "agents/big.md": "---\nname: big\ndescription: big\n---\n\n" + strings.Repeat("x", MaxFileSize)})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Files {
		if f.Status != Rejected || f.Diagnostics[0].Rule != RuleUnreadable {
			t.Errorf("%s: %s %v", f.Path, f.Status, f.Diagnostics)
		}
	}
}

func TestVanishedBetweenListingAndReading(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/gone.md": agent("gone", "g")})
	s := NewScanner(NewHome(root, ""), ScanOptions{Environ: []string{}})
	entries, err := s.listAgents()
	if err != nil || len(entries) != 1 {
		t.Fatal(entries, err)
	}
	os.Remove(entries[0].path)
	parseAll(entries, Runtime)
	if entries[0].file != nil {
		t.Errorf("a file deleted after listing must be dropped, got %+v", entries[0].file)
	}
}

func TestScanPaths(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"agents/a.md": agent("a", "a"), "agents/.server-feeds/f/b.md": agent("b", "b"),
		"loose/x.markdown": agent("A", "dup"),
	})
	c, err := ScanPaths([]string{filepath.Join(root, "agents"), filepath.Join(root, "loose/x.markdown")}, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := summarize(root, c)
	want := []fileSummary{{"agents/a.md", Loaded, "local"}, {"agents/.server-feeds/f/b.md", Loaded, "feed:f"}, {"loose/x.markdown", Rejected, "local"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	if c.Config == nil {
		t.Error("ScanPaths must carry a config")
	}
	if _, err := ScanPaths([]string{filepath.Join(root, "missing.md")}, ScanOptions{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing path: %v", err)
	}
}

// TestScanPathsSameFileTwice lints a file named twice, or named and also
// inside a folder given too, as the one file it is: it is never a duplicate
// of itself.
func TestScanPathsSameFileTwice(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/a.md": agent("a", "a"), "agents/b.md": agent("b", "b")})
	a := filepath.Join(root, "agents", "a.md")
	rel, err := filepath.Rel(mustGetwd(t), a)
	if err != nil {
		t.Fatal(err)
	}
	for name, paths := range map[string][]string{
		"file twice":            {a, a},
		"file, then its folder": {a, filepath.Join(root, "agents")},
		"folder, then its file": {filepath.Join(root, "agents"), a},
		"absolute and relative": {a, rel},
		"a needless ./ inside":  {a, root + "/agents/./a.md"},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := ScanPaths(paths, ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if s := c.Summary(); s.Rejected != 0 || s.Errors != 0 {
				t.Errorf("summary %+v: %v", s, c.Diagnostics())
			}
			seen := map[string]bool{}
			for _, f := range c.Files {
				if seen[filepath.Base(f.Path)] {
					t.Errorf("%s listed twice", f.Path)
				}
				seen[filepath.Base(f.Path)] = true
			}
		})
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestTestdataHomes(t *testing.T) {
	cases := []struct {
		home             string
		loaded, rejected int
	}{
		{"good", 4, 0},
		{"feeds", 4, 2},
		{"skills", 2, 0},
		{"skillfeeds", 2, 0},
	}
	for _, tc := range cases {
		c, err := Scan(NewHome(filepath.Join("..", "testdata", "homes", tc.home), ""), ScanOptions{Environ: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		s := c.Summary()
		if s.Loaded != tc.loaded || s.Rejected != tc.rejected {
			t.Errorf("%s: %d loaded, %d rejected; want %d, %d", tc.home, s.Loaded, s.Rejected, tc.loaded, tc.rejected)
		}
	}
}

func TestSkillRouting(t *testing.T) {
	c, err := Scan(NewHome(filepath.Join("..", "testdata", "homes", "skills"), ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"release-prep":   "",
		"broken-route":   "but that subagent is not registered",
		"internal-route": "internal-only and not user-invocable",
		"triage":         "has invalid metadata.subagent: 'Release_Writer' is not a valid subagent name (expected lowercase kebab-case). Fix or remove metadata.subagent in",
		"authoring":      "",
	}
	if len(c.Skills) != len(want) {
		t.Fatalf("skills: %d, want %d", len(c.Skills), len(want))
	}
	for _, sk := range c.Skills {
		w, ok := want[sk.Name]
		if !ok {
			t.Errorf("unexpected skill %q", sk.Name)
			continue
		}
		if w == "" && sk.RouteError != "" || w != "" && !strings.Contains(sk.RouteError, w) {
			t.Errorf("%s: route error %q, want %q", sk.Name, sk.RouteError, w)
		}
		if (w != "") != (len(sk.Diagnostics) == 1) {
			t.Errorf("%s: diagnostics %v", sk.Name, sk.Diagnostics)
		}
	}
	if sk := c.Skill("/release-prep"); sk == nil || sk.Subagent != "release-writer" || sk.Body != "Collect the merged pull requests and draft the notes.  \n\n" {
		t.Errorf("release-prep: %+v", sk)
	}
	if sk := c.Skill("triage"); sk.Source.Feed != "acme" {
		t.Errorf("triage source = %v", sk.Source)
	}
	if sk := c.Skill("authoring"); !sk.System {
		t.Error("authoring is a system skill")
	}
}

// catalogKey renders what matters of a catalog for comparing two scans.
func catalogKey(c *Catalog) string {
	var b strings.Builder
	for _, f := range c.Files {
		b.WriteString(f.Path + " " + f.Status.String() + " " + f.Source.String() + " " + f.Reason + "\n")
		for _, k := range diagKeys(f.Diagnostics) {
			b.WriteString("  " + k + "\n")
		}
	}
	for _, s := range c.Skills {
		b.WriteString(s.Path + " " + s.RouteError + "\n")
	}
	return b.String()
}

// TestRescanMatchesScan applies a series of edits, tells Rescan what changed,
// and checks that the catalog is the one a fresh full Scan finds.
func TestRescanMatchesScan(t *testing.T) {
	root := t.TempDir()
	h := NewHome(root, "")
	hometest.Write(t, root, map[string]string{
		"agents/a.md": agent("a", "a"), "agents/c.md": agent("c", "c"),
		"agents/.server-feeds/f/x.md": agent("x", "x"),
		"skills/s/SKILL.md":           "---\nname: s\nmetadata:\n  subagent: b\n---\n\nDo.\n",
	})
	s := NewScanner(h, ScanOptions{Environ: []string{}})
	if _, err := s.Rescan(nil); err != nil { // first call: a full scan
		t.Fatal(err)
	}
	p := func(rel string) string { return filepath.Join(root, rel) }
	steps := []struct {
		name    string
		do      func()
		changed []string
	}{
		{"create b", func() { hometest.Write(t, root, map[string]string{"agents/b.md": agent("b", "b")}) }, []string{p("agents/b.md")}},
		{"break c", func() { touch(t, p("agents/c.md"), "---\nname: c\n---\n\n") }, []string{p("agents/c.md")}},
		{"duplicate in feed", func() {
			hometest.Write(t, root, map[string]string{"agents/.server-feeds/f/a.md": agent("A", "feed a")})
		}, []string{p("agents/.server-feeds/f/a.md")}},
		{"delete a", func() { os.Remove(p("agents/a.md")) }, []string{p("agents/a.md")}},
		{"rename b to 0b", func() { os.Rename(p("agents/b.md"), p("agents/0b.md")) }, []string{p("agents/b.md"), p("agents/0b.md")}},
		{"non-md file", func() { hometest.Write(t, root, map[string]string{"agents/notes.txt": "x"}) }, []string{p("agents/notes.txt")}},
		{"folder named md", func() { os.Mkdir(p("agents/dir.md"), 0o755) }, []string{p("agents/dir.md")}},
		{"new feed folder", func() { hometest.Write(t, root, map[string]string{"agents/.server-feeds/g/y.md": agent("y", "y")}) }, []string{p("agents/.server-feeds/g")}},
		{"skill target appears", func() { hometest.Write(t, root, map[string]string{"agents/b.md": agent("b", "b again")}) }, []string{p("agents/b.md")}},
		{"config change", func() {
			hometest.Write(t, root, map[string]string{"config/netclaw.json": `{"SubAgents":{"Enabled":false}}`})
		}, []string{p("config/netclaw.json")}},
		{"agents folder removed", func() { os.RemoveAll(p("agents")) }, []string{p("agents")}},
	}
	for _, st := range steps {
		st.do()
		got, err := s.Rescan(st.changed)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		want, _ := Scan(h, ScanOptions{Environ: []string{}})
		if catalogKey(got) != catalogKey(want) {
			t.Fatalf("%s: rescan differs from a full scan\n got:\n%s\nwant:\n%s", st.name, catalogKey(got), catalogKey(want))
		}
		if got.Config.SubAgents.Enabled != want.Config.SubAgents.Enabled {
			t.Fatalf("%s: config not reloaded", st.name)
		}
	}
}

// TestCatalogRoute resolves routed skills against a hand-built catalog, as
// the runtime does on activation.
func TestCatalogRoute(t *testing.T) {
	file := func(name, vis string, st Status) *File {
		return &File{Path: name + ".md", Status: st, Def: &Definition{Name: name, Visibility: vis}}
	}
	writer := file("release-writer", DefaultVisibility, Loaded)
	c := &Catalog{Files: []*File{writer, file("auditor", "internal", Loaded), file("gone", DefaultVisibility, Rejected), {Path: "defless.md", Status: Loaded}}}
	for _, tc := range []struct {
		target string
		agent  *File
		want   string // a substring of the failure; "" for success
	}{
		{"release-writer", writer, ""},
		{"Release-Writer", nil, "invalid metadata.subagent 'Release-Writer': expected lowercase kebab-case name. Fix or remove metadata.subagent in s/SKILL.md."},
		{"release-writer-", nil, "invalid metadata.subagent"},
		{"auditor", nil, "internal-only and not user-invocable"},
		{"gone", nil, "but that subagent is not registered"},
		{"nobody", nil, "but that subagent is not registered"},
		{"", nil, "Skill '/s' does not route to a subagent"},
	} {
		agent, failure := c.Route(&Skill{Name: "s", Path: "s/SKILL.md", Subagent: tc.target})
		if agent != tc.agent || (tc.want == "") != (failure == "") || !strings.Contains(failure, tc.want) {
			t.Errorf("Route(%q) = %v, %q; want %v, %q", tc.target, agent, failure, tc.agent, tc.want)
		}
	}
	var none *Catalog
	if agent, failure := none.Route(&Skill{Name: "s", Subagent: "release-writer"}); agent != nil || !strings.Contains(failure, "not registered") {
		t.Errorf("a nil catalog routed: %v, %q", agent, failure)
	}
}

// TestParseSkillBadEncoding: a SKILL.md that is not UTF-8 is read as the
// runtime reads it, never a crash.
func TestParseSkillBadEncoding(t *testing.T) {
	for name, data := range map[string]string{
		"latin-1": "---\nname: caf\xe9\nmetadata:\n  subagent: helper\n---\nDo it.\n",
		"utf-16":  "\xff\xfe-\x00-\x00-\x00\n\x00",
	} {
		sk := ParseSkill("skills/s/SKILL.md", []byte(data))
		if name == "latin-1" && (sk.Name != "caf\uFFFD" || sk.Subagent != "helper") {
			t.Errorf("%s: got %+v", name, sk)
		}
	}
}

func TestLooksLikeHome(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"home/agents/a.md":         agent("a", "a"),
		"home/config/netclaw.json": "{}",
		"odd/agents/x.md":          agent("x", "x"),
		"odd/b.md":                 agent("b", "b"),
		"plain/c.md":               agent("c", "c"),
		"empty/notes.txt":          "",
	})
	for dir, want := range map[string]bool{
		"home": true, "home/agents": false, "odd": false, "plain": false, "empty": false, "missing": false,
	} {
		if got := LooksLikeHome(filepath.Join(root, dir)); got != want {
			t.Errorf("LooksLikeHome(%s) = %v, want %v", dir, got, want)
		}
	}
}

// TestUnreadableAgentsFolder: an agents folder that cannot be read (here a
// link that loops) is a finding of rule unreadable on the folder, not a
// failed scan; so is a feed folder that cannot be read, while the rest is
// read.
func TestUnreadableAgentsFolder(t *testing.T) {
	base := t.TempDir()
	if err := os.Symlink("agents", filepath.Join(base, "agents")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	c, err := Scan(NewHome(base, ""), ScanOptions{})
	if err != nil {
		t.Fatalf("scan failed: %v", err)
	}
	ds := c.FolderDiagnostics
	if len(ds) != 1 || ds[0].Rule != RuleUnreadable || ds[0].Severity != Error || ds[0].Path != filepath.Join(base, "agents") ||
		!strings.Contains(ds[0].Message, "cannot read the agents folder: a symbolic link loop") {
		t.Fatalf("folder diagnostics %+v", ds)
	}
	if s := c.Summary(); s.Errors != 1 {
		t.Errorf("summary %+v, want one error", s)
	}

	base = t.TempDir()
	feeds := filepath.Join(base, "agents", ".server-feeds")
	if err := os.MkdirAll(feeds, 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.WriteFile(t, filepath.Join(base, "agents", "a.md"), "---\nname: a\ndescription: d\n---\nBody\n")
	if err := os.Symlink("loop", filepath.Join(feeds, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("gone", filepath.Join(feeds, "dangling")); err != nil {
		t.Fatal(err)
	}
	c, err = Scan(NewHome(base, ""), ScanOptions{})
	if err != nil || len(c.Loaded()) != 1 {
		t.Fatalf("scan: %v, %d loaded", err, len(c.Loaded()))
	}
	// The feed folders that are broken links are an info each, not
	// skipped silently.
	ds = c.FolderDiagnostics
	if len(ds) != 2 || ds[0].Path != filepath.Join(feeds, "dangling") || ds[1].Path != filepath.Join(feeds, "loop") ||
		!strings.Contains(ds[0].Message, "a symbolic link to a file that does not exist") || !strings.Contains(ds[1].Message, "a symbolic link loop") {
		t.Fatalf("feed folder diagnostics %+v", ds)
	}
	for _, d := range ds {
		if d.Rule != RuleUnreadable || d.Severity != Info || d.Hint == "" {
			t.Errorf("feed folder diagnostic %+v", d)
		}
	}
}
