package report

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
)

// fixtureHome is the small home the hand-built catalog points into.
const fixtureHome = "testdata/home"

// handCatalog builds, without lint's scanner, a catalog over the files of
// testdata/home, with diagnostics chosen to exercise every corner of the
// formats: wide characters and tabs before the caret, a line longer than
// the window, CRLF, escape sequences in names and messages, whole-file
// diagnostics, a feed, a skill, a config file and the environment.
func handCatalog(t testing.TB) *lint.Catalog {
	t.Helper()
	home := lint.NewHome(fixtureHome, "")
	agent := func(rel string, status lint.Status, name string, src lint.Source, ds ...lint.Diagnostic) *lint.File {
		path := filepath.Join(home.Agents, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read fixture: %v", err)
		}
		f := &lint.File{Path: path, Source: src, Status: status, Text: string(data), Size: int64(len(data))}
		if name != "" {
			f.Def = &lint.Definition{Name: name}
		}
		for i := range ds {
			ds[i].Path = path
		}
		f.Diagnostics = ds
		return f
	}
	d := func(line, col int, rule string, sev lint.Severity, msg, hint string) lint.Diagnostic {
		return lint.Diagnostic{Pos: lint.Pos{Line: line, Column: col}, Rule: rule, Severity: sev, Message: msg, Hint: hint}
	}
	skillPath := filepath.Join(home.Skills, "triage", "SKILL.md")
	return &lint.Catalog{
		Home:    home,
		Profile: lint.Runtime,
		Files: []*lint.File{
			agent("crlf.md", lint.Rejected, "crlf", lint.Source{},
				d(4, 13, lint.RuleVisibility, lint.Error, `visibility "public" is not user-facing or internal`, "write visibility: user-facing or visibility: internal")),
			agent("empty.md", lint.Rejected, "", lint.Source{},
				d(0, 0, lint.RuleFrontmatter, lint.Error, "the file is empty: it has no frontmatter", "start the file with --- on its first line")),
			agent("evil.md", lint.Loaded, "\x1b[31mred\x1b[0m", lint.Source{},
				d(2, 7, lint.RuleNameFormat, lint.Warning, "name \"\x1b[31mred\x1b[0m\" is not lowercase kebab-case", ""),
				d(3, 14, lint.RuleUnknownField, lint.Warning, "description holds \x07 and \u202e", "remove the control characters\r\nfrom the description")),
			agent("good.md", lint.Loaded, "good", lint.Source{}),
			agent("long.md", lint.Rejected, "long", lint.Source{},
				d(3, 314, lint.RuleYAML, lint.Error, "tools is a comma-separated string, not a list", "write tools: [Read, Grep]")),
			agent("reviewer.md", lint.Loaded, "reviewer", lint.Source{},
				d(4, 1, lint.RuleUnknownField, lint.Warning, `unknown key "ModelRole": the runtime ignores it`, "did you mean 'modelRole'?")),
			agent("wide.md", lint.Rejected, "wide", lint.Source{},
				d(3, 26, lint.RuleYAML, lint.Error, "mapping values are not allowed in this context", ""),
				d(4, 12, lint.RuleModelRole, lint.Error, `modelRole "Primary" is not Main or Compaction`, "write modelRole: Main or modelRole: Compaction")),
			agent(".server-feeds/acme/helper.md", lint.Loaded, "helper", lint.Source{Feed: "acme"},
				d(0, 0, lint.RuleFeedModified, lint.Warning, "the file no longer matches its sync state: the next sync overwrites the edit", "copy it into agents/ under another name to keep it")),
		},
		Skills: []*lint.Skill{{
			Name:        "triage",
			Path:        skillPath,
			Subagent:    "reviewr",
			SubagentPos: lint.Pos{Line: 5, Column: 13},
			RouteError:  "Sub-agent 'reviewr' not found.",
			Diagnostics: []lint.Diagnostic{{
				Path: skillPath, Pos: lint.Pos{Line: 5, Column: 13}, Rule: lint.RuleRoutingTarget, Severity: lint.Error,
				Message: "Sub-agent 'reviewr' not found.", Hint: "did you mean 'reviewer'?",
			}},
		}},
		Config: &lint.Config{
			Present: true,
			Diagnostics: []lint.Diagnostic{
				{Path: home.ConfigFile(), Pos: lint.Pos{Line: 3, Column: 30}, Rule: lint.RuleConfig, Severity: lint.Error,
					Message: "SubAgents.PrefillTimeoutSeconds is -5: it must be between 5 and 3600", Hint: ""},
				{Path: lint.ConfigEnvironment, Rule: lint.RuleConfig, Severity: lint.Warning,
					Message: "NETCLAW_SubAgents__Enabled=\"maybe\" is not true or false"},
			},
		},
		ScannedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}
