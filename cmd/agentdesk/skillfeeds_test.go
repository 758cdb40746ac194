package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSkillFeedsHome runs the commands on the skillfeeds sample home:
// feed folders SkillFeeds does not enable are their own status in every
// lint format, their agents cannot be previewed or run, and a skill whose
// metadata.subagent is empty fails preview --skill and run --skill with the
// runtime's activation error.
func TestSkillFeedsHome(t *testing.T) {
	home := repoHome("skillfeeds")
	env := []string{"NETCLAW_HOME=" + home}
	activation := "agentdesk: Skill '/empty-route' has invalid metadata.subagent: value must not be empty. Fix or remove metadata.subagent in " +
		home + "/skills/empty-route/SKILL.md.\n"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"text", []string{"lint"}, 1, []string{
			"agents/.server-feeds/retired: info: not loaded: feed 'retired' is not configured in SkillFeeds, so the runtime never reads the 1 agent file in this folder [feed-not-loaded]\n",
			"agents/.server-feeds/paused: info: not loaded: feed 'paused' is disabled in SkillFeeds",
			"config/netclaw.json:9:17: warning: Ignoring managed sub-agent feed 'Team' because it is not a safe feed name [config]\n",
			"[enum-loose]\n",
			"2 loaded, 0 rejected, 3 not loaded, 1 error, 3 warnings, 4 infos\n",
		}, ""},
		{"github", []string{"lint", "--format", "github"}, 1, []string{
			"::notice file=", "agents/.server-feeds/retired,title=feed-not-loaded::not loaded: feed 'retired' is not configured in SkillFeeds",
		}, ""},
		{"sarif", []string{"lint", "--format", "sarif"}, 1, []string{`"ruleId": "feed-not-loaded"`, `"level": "note"`}, ""},
		{"preview a not-loaded agent", []string{"preview", "--agent", "legacy"}, 1, nil,
			"agentdesk: agent 'legacy' is not loaded: feed 'retired' is not configured in SkillFeeds\n"},
		{"preview --skill with an empty metadata.subagent", []string{"preview", "--skill", "empty-route"}, 1, nil, activation},
		{"run --skill with an empty metadata.subagent", []string{"run", "reviewer", "--task", "t", "--skill", "empty-route"}, 1, nil, activation},
		{"preview --skill of a flat skill", []string{"preview", "--skill", "flat-review"}, 0,
			[]string{"You review diffs. Point at the line, say what is wrong and why.\n\n[Skill Overlay]\nReview the staged changes.\n"}, "system prompt: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, env, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
		})
	}

	code, stdout, _ := run(t, env, "lint", "--format", "json")
	var doc struct {
		Files   []struct{ Path, Name, Status, Source string }
		Summary map[string]int
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 1 || err != nil {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	statuses := map[string]string{}
	for _, f := range doc.Files {
		statuses[f.Path[strings.Index(f.Path, "skillfeeds/")+len("skillfeeds/"):]] = f.Status + " " + f.Source
	}
	for path, want := range map[string]string{
		"agents/.server-feeds/acme/helper.md":              "loaded feed:acme",
		"agents/.server-feeds/retired/legacy.md":           "not-loaded feed:retired",
		"agents/.server-feeds/retired":                     "not-loaded feed:retired",
		"agents/.server-feeds/Team/team-helper.md":         "not-loaded feed:Team",
		"skills/.server-feeds/retired/old-triage/SKILL.md": "not-loaded feed:retired",
		"skills/flat-review.md":                            "loaded local",
		"skills/empty-route/SKILL.md":                      "rejected local",
	} {
		if statuses[path] != want {
			t.Errorf("%s: %q, want %q", path, statuses[path], want)
		}
	}
	if doc.Summary["notLoaded"] != 3 || doc.Summary["infos"] != 4 || doc.Summary["loaded"] != 2 {
		t.Errorf("summary %v", doc.Summary)
	}
}
