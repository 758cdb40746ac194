package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

func skill(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n# " + name + "\n"
}

// TestSkillDiscovery: NetClaw's SkillScannerTests (and the scanner's
// merge of server feeds), rewritten as homes on disk. want maps a skill
// file (relative to the home) to "name status" and, after " | ", a
// substring of its Reason; files not in want must not be skills at all.
func TestSkillDiscovery(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		links map[string]string // link → target, both relative to the home
		want  map[string]string
	}{
		{"name and description", map[string]string{"skills/git-workflow/SKILL.md": skill("git-workflow", "How to manage branches.")},
			nil, map[string]string{"skills/git-workflow/SKILL.md": "git-workflow loaded"}},
		{"no frontmatter", map[string]string{"skills/notes/SKILL.md": "# Just some notes\n\nNo frontmatter here."},
			nil, map[string]string{"skills/notes/SKILL.md": "notes rejected | Skill file must start with YAML frontmatter."}},
		{"no description", map[string]string{"skills/bad-skill/SKILL.md": "---\nname: bad-skill\n---\n\n# Bad Skill\n"},
			nil, map[string]string{"skills/bad-skill/SKILL.md": "bad-skill rejected | Skill frontmatter must include a non-empty description."}},
		{"malformed YAML", map[string]string{"skills/broken/SKILL.md": "---\nname: broken\ndescription: [this is: not: valid: yaml: {{{\n---\n\n# Broken\n"},
			nil, map[string]string{"skills/broken/SKILL.md": "broken rejected | Skill frontmatter is invalid or unparseable."}},
		{"a list where a string belongs", map[string]string{"skills/listy/SKILL.md": "---\nname: listy\ndescription: [a, b]\n---\nB.\n"},
			nil, map[string]string{"skills/listy/SKILL.md": "listy rejected | Skill frontmatter is invalid or unparseable."}},
		{"colons in a quoted description", map[string]string{"skills/colon-test/SKILL.md": skill("colon-test", `"Use this skill when: the user asks about PDFs."`)},
			nil, map[string]string{"skills/colon-test/SKILL.md": "colon-test loaded"}},
		{"the folder names a skill without a name", map[string]string{"skills/my-skill/SKILL.md": "---\ndescription: No name.\n---\n\n# My Custom Skill\n"},
			nil, map[string]string{"skills/my-skill/SKILL.md": "my-skill loaded"}},
		{"names are trimmed and lower-cased", map[string]string{
			"skills/Mixed-Case/SKILL.md": skill("Mixed-Case", "d"),
			"skills/spaced/SKILL.md":     skill(`"  Spaced  "`, "d"),
		}, nil, map[string]string{"skills/Mixed-Case/SKILL.md": "mixed-case loaded", "skills/spaced/SKILL.md": "spaced loaded"}},
		{"category folders", map[string]string{"skills/devops/docker/SKILL.md": skill("docker", "Docker.")},
			nil, map[string]string{"skills/devops/docker/SKILL.md": "docker loaded"}},
		{"folders without SKILL.md are ignored", map[string]string{
			"skills/not-a-skill/notes.txt": "x", "skills/not-a-skill/readme.md": "# Readme",
			"skills/real-skill/SKILL.md": skill("real-skill", "Real."),
		}, nil, map[string]string{"skills/real-skill/SKILL.md": "real-skill loaded"}},
		{"hidden folders are skipped but .system", map[string]string{
			"skills/.hidden/secret/SKILL.md":      skill("secret", "no"),
			"skills/.community/home/SKILL.md":     skill("home", "no"),
			"skills/.system/diagnostics/SKILL.md": skill("diagnostics", "System."),
		}, nil, map[string]string{"skills/.system/diagnostics/SKILL.md": "diagnostics loaded"}},
		{"a hidden folder that owns a SKILL.md is a skill", map[string]string{"skills/.odd/SKILL.md": skill(".odd", "d")},
			nil, map[string]string{"skills/.odd/SKILL.md": ".odd loaded"}},
		{"duplicate names reject every copy", map[string]string{
			"skills/shared-name/SKILL.md":         skill("shared-name", "First."),
			"skills/.system/shared-name/SKILL.md": skill("shared-name", "Second."),
		}, nil, map[string]string{
			"skills/shared-name/SKILL.md":         "shared-name rejected | Skill name 'shared-name' is duplicated across: ",
			"skills/.system/shared-name/SKILL.md": "shared-name rejected | Skill name 'shared-name' is duplicated across: ",
		}},
		{"frontmatter name must match the folder", map[string]string{"skills/expected-name/SKILL.md": skill("other-name", "Wrong.")},
			nil, map[string]string{"skills/expected-name/SKILL.md": "other-name rejected | Frontmatter name 'other-name' does not match directory name 'expected-name'."}},
		{"a SKILL.md under a claimed folder is a resource", map[string]string{
			"skills/prepare-ralph/SKILL.md":                           skill("prepare-ralph", "Bootstrap."),
			"skills/prepare-ralph/skills/ralph-after-action/SKILL.md": skill("ralph-after-action", "Nested."),
		}, nil, map[string]string{"skills/prepare-ralph/SKILL.md": "prepare-ralph loaded"}},
		{"flat files", map[string]string{
			"skills/daily-plan.md":     skill("daily-plan", "Plan the day."),
			"skills/no-name.md":        "---\ndescription: Named by the file.\n---\nB.\n",
			"skills/weird-filename.md": skill("actual-command-name", "d"),
			"skills/review-pr.md":      "Use the pr-review-specialist subagent to review pull requests.",
			"skills/nodesc.md":         "---\nname: nodesc\n---\nB.\n",
			"skills/README.md":         skill("readme", "no"),
			"skills/.hidden.md":        skill(".hidden", "no"),
			"skills/notes.txt":         "no",
		}, nil, map[string]string{
			"skills/daily-plan.md":     "daily-plan loaded",
			"skills/no-name.md":        "no-name loaded",
			"skills/weird-filename.md": "actual-command-name rejected | Frontmatter name 'actual-command-name' does not match file name 'weird-filename'.",
			"skills/review-pr.md":      "review-pr rejected | Flat .md file found but lacks valid YAML frontmatter. Add frontmatter with name and description, or move into a skill-name/SKILL.md directory.",
			"skills/nodesc.md":         "nodesc rejected | Flat .md file has frontmatter but missing description field.",
		}},
		{"a folder skill shadows a flat file of its name", map[string]string{
			"skills/deploy.md":       skill("deploy", "Flat."),
			"skills/deploy/SKILL.md": skill("deploy", "Folder."),
		}, nil, map[string]string{
			"skills/deploy/SKILL.md": "deploy loaded",
			"skills/deploy.md":       "deploy rejected | Flat file '{root}/skills/deploy.md' is shadowed by directory skill '{root}/skills/deploy/SKILL.md'.",
		}},
		{"symbolic links are refused", map[string]string{
			"skills/linked-skill/SKILL.md":        skill("linked-skill", "Has linked resources."),
			"skills/external-resources/guide.md":  "# Guide",
			"outside/real-skill/SKILL.md":         skill("aliased", "Lives elsewhere."),
			"skills/ok/SKILL.md":                  skill("ok", "Fine."),
			"skills/ok/references/empty/.keep":    "",
			"skills/flat-target.txt":              skill("flat-link", "d"),
			"skills/with-file-link/SKILL.md":      skill("with-file-link", "d"),
			"skills/with-file-link/notes/real.md": "x",
		}, map[string]string{
			"skills/linked-skill/references":       "skills/external-resources",
			"skills/aliased":                       "outside/real-skill",
			"skills/flat-link.md":                  "skills/flat-target.txt",
			"skills/with-file-link/notes/alias.md": "skills/with-file-link/notes/real.md",
		}, map[string]string{
			"skills/linked-skill/SKILL.md":   "linked-skill rejected | Symlink traversal is not allowed for resource file.",
			"skills/aliased/SKILL.md":        "aliased rejected | Symlink traversal is not allowed for skill file.",
			"skills/flat-link.md":            "flat-link rejected | Symlink traversal is not allowed for flat skill file.",
			"skills/with-file-link/SKILL.md": "with-file-link rejected | Symlink traversal is not allowed for resource file.",
			"skills/ok/SKILL.md":             "ok loaded",
		}},
		{"a byte-order mark is dropped", map[string]string{"skills/bom-skill/SKILL.md": "\uFEFF---\nname: bom-skill\ndescription: \"A skill with BOM\"\n---\n\n# Content\n"},
			nil, map[string]string{"skills/bom-skill/SKILL.md": "bom-skill loaded"}},
		{"an empty frontmatter block does not stop the scan", map[string]string{
			"skills/degenerate/SKILL.md": "---\n---\n\n# Body\n",
			"skills/healthy/SKILL.md":    skill("healthy", "Good."),
		}, nil, map[string]string{
			"skills/degenerate/SKILL.md": "degenerate rejected | Skill frontmatter is invalid or unparseable.",
			"skills/healthy/SKILL.md":    "healthy loaded",
		}},
		{"feeds: list order, frontmatter names trusted, shadowed by native skills", map[string]string{
			"config/netclaw.json":                                  skillFeeds("acme", "beta"),
			"skills/triage/SKILL.md":                               skill("triage", "Native."),
			"skills/.server-feeds/acme/triage/SKILL.md":            skill("triage", "Feed."),
			"skills/.server-feeds/acme/meta-bootstrap/SKILL.md":    skill("bootstrap", "Feed name wins."),
			"skills/.server-feeds/beta/bootstrap/SKILL.md":         skill("bootstrap", "Later feed."),
			"skills/.server-feeds/beta/foo-bar/SKILL.md":           skill("my-skill", "First."),
			"skills/.server-feeds/beta/baz-qux/SKILL.md":           skill("my-skill", "Second."),
			"skills/.server-feeds/retired/old/SKILL.md":            skill("old", "Not configured."),
			"skills/.server-feeds/acme/flat.md":                    skill("flat", "A flat feed skill."),
			"skills/.server-feeds/acme/.sync-state.json":           "{}",
			"skills/.server-feeds/beta/category/nested/SKILL.md":   skill("nested", "Category in a feed."),
			"skills/.server-feeds/beta/.hidden/invisible/SKILL.md": skill("invisible", "Hidden."),
		}, nil, map[string]string{
			"skills/triage/SKILL.md":                             "triage loaded",
			"skills/.server-feeds/acme/triage/SKILL.md":          "triage rejected | Skill 'triage' from external source 'server-feed:acme' is shadowed by a higher-precedence skill.",
			"skills/.server-feeds/acme/meta-bootstrap/SKILL.md":  "bootstrap loaded",
			"skills/.server-feeds/acme/flat.md":                  "flat loaded",
			"skills/.server-feeds/beta/bootstrap/SKILL.md":       "bootstrap rejected | Skill 'bootstrap' from external source 'server-feed:beta' is shadowed by a higher-precedence skill.",
			"skills/.server-feeds/beta/foo-bar/SKILL.md":         "my-skill rejected | Skill name 'my-skill' is duplicated across: ",
			"skills/.server-feeds/beta/baz-qux/SKILL.md":         "my-skill rejected | Skill name 'my-skill' is duplicated across: ",
			"skills/.server-feeds/beta/category/nested/SKILL.md": "nested loaded",
			"skills/.server-feeds/retired/old/SKILL.md":          "old not-loaded | feed 'retired' is not configured in SkillFeeds",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			hometest.Write(t, root, tc.files)
			for link, target := range tc.links {
				if err := os.Symlink(filepath.Join(root, target), filepath.Join(root, link)); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]*Skill{}
			for _, sk := range c.Skills {
				rel, _ := filepath.Rel(root, sk.Path)
				got[filepath.ToSlash(rel)] = sk
			}
			for rel, want := range tc.want {
				sk := got[rel]
				if sk == nil {
					t.Errorf("%s: not a skill", rel)
					continue
				}
				head, reason, _ := strings.Cut(want, " | ")
				reason = strings.ReplaceAll(reason, "{root}", root)
				if h := sk.Name + " " + sk.Status.String(); h != head || !strings.Contains(sk.Reason, reason) {
					t.Errorf("%s: %s | %s; want %s | %s", rel, h, sk.Reason, head, reason)
				}
				if sk.Status == Rejected && (len(sk.Diagnostics) == 0 || sk.Diagnostics[0].Rule != RuleSkill ||
					!strings.HasPrefix(sk.Diagnostics[0].Message, sk.Reason)) {
					t.Errorf("%s: a refused skill needs a skill diagnostic quoting the scanner: %v", rel, sk.Diagnostics)
				}
				if sk.Status == Loaded && len(sk.Diagnostics) != 0 {
					t.Errorf("%s: %v", rel, sk.Diagnostics)
				}
			}
			for rel := range got {
				if _, ok := tc.want[rel]; !ok {
					t.Errorf("%s: listed as a skill, want not a skill", rel)
				}
			}
		})
	}
}

// TestSkillDuplicateOfASystemSkillIsASystemSkill checks System and Flat.
func TestSkillFlags(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"skills/.system/diag/SKILL.md": skill("diag", "d"),
		"skills/flat.md":               skill("flat", "d"),
	})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if sk := c.Skill("diag"); sk == nil || !sk.System || sk.Flat {
		t.Errorf("diag: %+v", sk)
	}
	if sk := c.Skill("/flat"); sk == nil || sk.System || !sk.Flat {
		t.Errorf("flat: %+v", sk)
	}
}

// TestMetadataSubagent: the key makes a skill routed whatever its value;
// a bad value is the runtime's activation error, word for word.
func TestMetadataSubagent(t *testing.T) {
	cases := []struct {
		value   string
		target  string
		failure string // "" routes to helper
	}{
		{"helper", "helper", ""},
		{`"  helper  "`, "helper", ""},
		{`""`, "", "Skill '/s' has invalid metadata.subagent: value must not be empty. Fix or remove metadata.subagent in {path}."},
		{`"   "`, "", "Skill '/s' has invalid metadata.subagent: value must not be empty. Fix or remove metadata.subagent in {path}."},
		{"", "", "Skill '/s' has invalid metadata.subagent: expected string value but found null. Fix or remove metadata.subagent in {path}."},
		{"~", "", "expected string value but found null."},
		{"null", "", "expected string value but found null."},
		{"[helper]", "", "Skill '/s' has invalid metadata.subagent: expected string value but found List`1. Fix or remove metadata.subagent in {path}."},
		{"{name: helper}", "", "expected string value but found Dictionary`2."},
		{"!!int 42", "", "expected string value but found Int32."},
		{"!!bool true", "", "expected string value but found Boolean."},
		{"Bad_Name", "Bad_Name", "Skill '/s' has invalid metadata.subagent: 'Bad_Name' is not a valid subagent name (expected lowercase kebab-case). Fix or remove metadata.subagent in {path}."},
		{"42", "42", "Skill '/s' routes to subagent '42', but that subagent is not registered."},
		{"true", "true", "routes to subagent 'true', but that subagent is not registered."},
	}
	for _, tc := range cases {
		root := t.TempDir()
		hometest.Write(t, root, map[string]string{
			"agents/helper.md": agent("helper", "Helps."),
			"skills/s/SKILL.md": "---\nname: s\ndescription: d\nmetadata:\n  version: 1.0.0\n  subagent: " + tc.value +
				"\n---\n\nDo it.\n",
		})
		c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		sk := c.Skill("s")
		if sk == nil || sk.Status != Loaded || !sk.Routed() || sk.Subagent != tc.target {
			t.Errorf("%q: %+v", tc.value, sk)
			continue
		}
		agent, failure := c.Route(sk)
		want := strings.ReplaceAll(tc.failure, "{path}", sk.Path)
		if (want == "") != (failure == "") || !strings.Contains(failure, want) || (want == "") != (agent != nil) {
			t.Errorf("%q: route %v, %q; want %q", tc.value, agent, failure, want)
		}
		if want != "" && (sk.RouteError != failure || len(sk.Diagnostics) != 1 || sk.Diagnostics[0].Rule != RuleRoutingTarget ||
			sk.Diagnostics[0].Line != 6) {
			t.Errorf("%q: route error %q, diagnostics %v", tc.value, sk.RouteError, sk.Diagnostics)
		}
	}
}

// TestRouteOfAnUnlistedSkill: a skill the scanner refuses is no routing
// source, and Route says why.
func TestRouteOfAnUnlistedSkill(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"agents/helper.md":  agent("helper", "Helps."),
		"skills/s/SKILL.md": "---\nname: s\nmetadata:\n  subagent: helper\n---\nDo it.\n",
	})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	sk := c.Skill("s")
	if sk == nil || sk.Status != Rejected {
		t.Fatalf("skill: %+v", sk)
	}
	if _, failure := c.Route(sk); !strings.Contains(failure, "Skill '/s' is not available: the runtime's skill scanner refuses "+sk.Path+": Skill frontmatter must include a non-empty description.") {
		t.Errorf("failure %q", failure)
	}
	if sk.RouteError != "" || len(sk.Diagnostics) != 1 || sk.Diagnostics[0].Rule != RuleSkill {
		t.Errorf("a refused skill gets the skill finding, not a routing one: %q %v", sk.RouteError, sk.Diagnostics)
	}
}

// TestSkillRefusalIsOneSentencePerPart: the scanner's duplicate message
// ends in a list of paths without a full stop; agentdesk's note after it
// starts a new sentence, not in the middle of the last path.
func TestSkillRefusalIsOneSentencePerPart(t *testing.T) {
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{
		"skills/a/dup/SKILL.md": skill("dup", "One."),
		"skills/b/dup/SKILL.md": skill("dup", "Two."),
	})
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range c.Skills {
		for _, d := range sk.Diagnostics {
			if !strings.HasSuffix(d.Message, "SKILL.md. The runtime does not list this skill.") {
				t.Errorf("%s: message %q", sk.Path, d.Message)
			}
		}
	}
	if len(c.Skills) != 2 {
		t.Fatalf("skills %d, want 2", len(c.Skills))
	}
}
