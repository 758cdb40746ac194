package preview

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

const manifestAgent = "---\nname: triage\ndescription: Triage support tickets.\n---\nYou triage tickets.\n"

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestDigestIsSHA256OfExactBytes(t *testing.T) {
	lf := []byte(manifestAgent)
	crlf := []byte(strings.ReplaceAll(manifestAgent, "\n", "\r\n"))
	bom := append([]byte{0xEF, 0xBB, 0xBF}, lf...)
	bomCRLF := append([]byte{0xEF, 0xBB, 0xBF}, crlf...)
	seen := map[string]string{}
	for name, data := range map[string][]byte{"lf": lf, "crlf": crlf, "bom": bom, "bom+crlf": bomCRLF} {
		t.Run(name, func(t *testing.T) {
			f := lint.Parse("agents/triage.md", data, lint.Publish)
			if f.Status != lint.Loaded {
				t.Fatalf("the runtime rejects the %s variant: %s", name, f.Reason)
			}
			e, err := ManifestEntry(f, "1.0.0", "")
			if err != nil {
				t.Fatal(err)
			}
			want := "sha256:" + sha256Hex(data)
			if e.Digest != want || DigestOf(data) != want {
				t.Errorf("digest %s (DigestOf %s), want the sha256 of the exact bytes %s", e.Digest, DigestOf(data), want)
			}
			if e.Name != "triage" || e.Description != "Triage support tickets." {
				t.Errorf("name %q description %q: the %s variant must read the same", e.Name, e.Description, name)
			}
			if other, dup := seen[e.Digest]; dup {
				t.Errorf("%s and %s have the same digest: the bytes differ", name, other)
			}
			seen[e.Digest] = name
		})
	}
}

func TestManifestEntryJSON(t *testing.T) {
	f := lint.Parse("agents/triage.md", []byte(manifestAgent), lint.Publish)
	e, err := ManifestEntry(f, "1.0.0", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"subagent-version","name":"triage","version":"1.0.0","type":"agent-md","description":"Triage support tickets.","url":"/subagents/triage/1.0.0/agent.md","digest":"sha256:` + sha256Hex([]byte(manifestAgent)) + `"}`
	if string(got) != want {
		t.Errorf("entry JSON:\n got %s\nwant %s", got, want)
	}
}

func TestManifestEntryVersionAndURL(t *testing.T) {
	withVersion := "---\nname: triage\ndescription: d\nversion: 2.1.0\n---\nBody.\n"
	withMeta := "---\nname: triage\ndescription: d\nmetadata:\n  version: 3.0.0-rc.1+build.7\n---\nBody.\n"
	tests := []struct {
		name, text, flag, prefix string
		wantVersion, wantURL     string
		wantErr                  error
		errHas                   []string
	}{
		{name: "flag only", text: manifestAgent, flag: "1.0.0", wantVersion: "1.0.0", wantURL: "/subagents/triage/1.0.0/agent.md"},
		{name: "file version", text: withVersion, wantVersion: "2.1.0", wantURL: "/subagents/triage/2.1.0/agent.md"},
		{name: "metadata.version", text: withMeta, wantVersion: "3.0.0-rc.1+build.7", wantURL: "/subagents/triage/3.0.0-rc.1+build.7/agent.md"},
		{name: "flag equals file", text: withVersion, flag: "2.1.0", wantVersion: "2.1.0", wantURL: "/subagents/triage/2.1.0/agent.md"},
		{name: "prefix", text: manifestAgent, flag: "1.0.0", prefix: "https://skills.example.com/api/v1", wantVersion: "1.0.0",
			wantURL: "https://skills.example.com/api/v1/subagents/triage/1.0.0/agent.md"},
		{name: "prefix with slash", text: manifestAgent, flag: "1.0.0", prefix: "https://skills.example.com/", wantVersion: "1.0.0",
			wantURL: "https://skills.example.com/subagents/triage/1.0.0/agent.md"},
		{name: "conflict", text: withVersion, flag: "9.9.9", wantErr: ErrVersionConflict, errHas: []string{`"9.9.9"`, `"2.1.0"`, "agents/triage.md"}},
		{name: "meta conflict", text: withMeta, flag: "1.0.0", wantErr: ErrVersionConflict, errHas: []string{`"1.0.0"`, `"3.0.0-rc.1+build.7"`}},
		{name: "none", text: manifestAgent, wantErr: ErrNoVersion, errHas: []string{"agents/triage.md: no version: give a version", "metadata.version"}},
		{name: "bad flag version", text: manifestAgent, flag: "1.0 beta", errHas: []string{`"1.0 beta"`, "SkillServer refuses it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := lint.Parse("agents/triage.md", []byte(tt.text), lint.Publish)
			e, err := ManifestEntry(f, tt.flag, tt.prefix)
			if len(tt.errHas) > 0 || tt.wantErr != nil {
				if err == nil {
					t.Fatalf("no error, entry %+v", e)
				}
				if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
					t.Errorf("error %v does not wrap %v", err, tt.wantErr)
				}
				for _, s := range tt.errHas {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %s", err, s)
					}
				}
				// The command line words these with its flag: the typed
				// errors carry what it needs.
				switch tt.wantErr {
				case ErrVersionConflict:
					if ve, ok := errors.AsType[*VersionConflictError](err); !ok || ve.Path != "agents/triage.md" || ve.Given != tt.flag ||
						!strings.Contains(ve.Message("X-FLAG"), "X-FLAG \""+tt.flag+"\" differs") || !strings.Contains(ve.Message("X-FLAG"), "(drop X-FLAG,") {
						t.Errorf("error %#v, want a *VersionConflictError", err)
					}
				case ErrNoVersion:
					if ne, ok := errors.AsType[*NoVersionError](err); !ok || ne.Message("X-GIVE") != "agents/triage.md: no version: X-GIVE or set metadata.version in the frontmatter" {
						t.Errorf("error %#v, want a *NoVersionError", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Version != tt.wantVersion || e.URL != tt.wantURL {
				t.Errorf("version %q url %q, want %q %q", e.Version, e.URL, tt.wantVersion, tt.wantURL)
			}
		})
	}
}

func TestManifestEntryRefuses(t *testing.T) {
	tests := []struct {
		name, text string
		errHas     string
	}{
		{"rejected", "---\nname: triage\n---\nBody.\n", "no 'description'"},
		{"no frontmatter", "Just text.\n", "cannot be published"},
		{"bad name", "---\nname: Triage_Bot\ndescription: d\n---\nBody.\n", "not lowercase kebab-case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := lint.Parse("agents/x.md", []byte(tt.text), lint.Publish)
			_, err := ManifestEntry(f, "1.0.0", "")
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("error %v, want one mentioning %q", err, tt.errHas)
			}
		})
	}
	if _, err := ManifestEntry(nil, "1.0.0", ""); err == nil {
		t.Error("a nil file must be refused")
	}
	unread := &lint.File{Path: "agents/gone.md", Def: &lint.Definition{Name: "gone", Description: "d"}}
	if _, err := ManifestEntry(unread, "1.0.0", ""); err == nil || !strings.Contains(err.Error(), "no digest") {
		t.Errorf("a file without a digest: error %v", err)
	}
}

func TestValidVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"1.0.0": true, "2026.11.30": true, "1.0.0-rc.1+build.5": true, "v2": true,
		"": false, "1.0 beta": false, "1/0": false, "1.0.0_x": false, strings.Repeat("1", 64): true, strings.Repeat("1", 65): false,
	} {
		if got := ValidVersion(v); got != want {
			t.Errorf("ValidVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestSyncOf(t *testing.T) {
	synced := "---\nname: summarizer\ndescription: Summarizes.\n---\nYou summarize.\n"
	edited := "---\nname: scribe\ndescription: Writes incident notes.\n---\nYou write notes.\n"
	state := `{"lastSyncUtc":"2026-11-20T09:00:00Z","skills":{` +
		`"summarizer":{"version":"1.2.0","sha256":"` + sha256Hex([]byte(synced)) + `","syncedAtUtc":"2026-11-20T09:00:00Z","files":null},` +
		`"scribe":{"version":"0.3.1","sha256":"sha256:` + strings.Repeat("0", 64) + `","syncedAtUtc":"2026-11-21T10:00:00Z","files":null},` +
		`"nodigest":{"version":"0.1.0","sha256":"","syncedAtUtc":"2026-11-21T10:00:00Z","files":null}}}`
	base := hometest.New(t, map[string]string{
		"agents/local.md":                            manifestAgent,
		"agents/.server-feeds/acme/summarizer.md":    synced,
		"agents/.server-feeds/acme/scribe.md":        edited,
		"agents/.server-feeds/acme/nodigest.md":      "---\nname: nodigest\ndescription: d\n---\nB.\n",
		"agents/.server-feeds/acme/unlisted.md":      "---\nname: unlisted\ndescription: d\n---\nB.\n",
		"agents/.server-feeds/acme/.sync-state.json": state,
		"config/netclaw.json":                        `{"SkillFeeds": {"Feeds": [{"Name": "acme", "Url": "https://skills.example"}]}}`,
	})
	c := scanHome(t, base)
	byName := func(name string) *lint.File {
		for _, f := range c.Files {
			if filepath.Base(f.Path) == name+".md" {
				return f
			}
		}
		t.Fatalf("no file %s.md in the scan", name)
		return nil
	}
	if _, ok := SyncOf(byName("local")); ok {
		t.Error("a local file has no sync state")
	}
	tests := []struct {
		name, version string
		state         SyncState
	}{
		{"summarizer", "1.2.0", SyncMatches},
		{"scribe", "0.3.1", SyncModified},
		{"nodigest", "0.1.0", SyncNoDigest},
		{"unlisted", "", NotSynced},
	}
	for _, tt := range tests {
		fs, ok := SyncOf(byName(tt.name))
		if !ok || fs.Feed != "acme" || fs.Version != tt.version || fs.State != tt.state {
			t.Errorf("%s: %+v ok=%v, want feed acme version %q state %v", tt.name, fs, ok, tt.version, tt.state)
		}
		if fs.Current != FileDigest(byName(tt.name)) || fs.Current == "" {
			t.Errorf("%s: current digest %q", tt.name, fs.Current)
		}
	}
	if fs, _ := SyncOf(byName("scribe")); fs.Recorded != "sha256:"+strings.Repeat("0", 64) {
		t.Errorf("recorded digest %q: a sha256: prefix in the state file must be read", fs.Recorded)
	}
	if s := SyncModified.String(); s != "modified since sync" {
		t.Errorf("SyncModified.String() = %q", s)
	}
}

func BenchmarkManifestEntry(b *testing.B) {
	body := strings.Repeat("You triage support tickets and say what evidence is missing.\n", 1000)
	f := lint.Parse("agents/triage.md", []byte(manifestAgent+body), lint.Publish)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ManifestEntry(f, "1.0.0", "https://skills.example.com"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDigestOf64KiB(b *testing.B) {
	data := []byte(strings.Repeat("x", 64<<10))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		_ = DigestOf(data)
	}
}
