package preview

import (
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestRouteSkill(t *testing.T) {
	c := handCatalog(agentsDir, nil,
		agentSpec{name: "release-notes", desc: "Writes release notes.", body: "You write release notes.\n\n"},
		agentSpec{name: "indexer", desc: "Internal.", internal: true, body: "You index.\n"},
		agentSpec{name: "gone", desc: "Rejected.", rejected: true},
		agentSpec{name: "CRLF-Agent", desc: "CRLF body.", body: "Line one.\r\nLine two.\r\n"},
	)
	const skillPath = "/home/u/.netclaw/skills/release/SKILL.md"
	tests := []struct {
		name       string
		skill      lint.Skill
		wantPrompt string
		wantErr    string
	}{
		{
			name:       "routes and composes",
			skill:      lint.Skill{Name: "release", Path: skillPath, Subagent: "release-notes", Body: "\nDraft notes for the next tag.\n"},
			wantPrompt: "You write release notes.\n\n[Skill Overlay]\nDraft notes for the next tag.",
		},
		{
			name:       "resolves ignoring case, CRLF body",
			skill:      lint.Skill{Name: "crlf", Path: skillPath, Subagent: "crlf-agent", Body: "Do it.\r\n"},
			wantPrompt: "Line one.\r\nLine two.\n\n[Skill Overlay]\nDo it.",
		},
		{
			name:    "lint's error wins",
			skill:   lint.Skill{Name: "release", Path: skillPath, Subagent: "release-notes", RouteError: "the runtime's words"},
			wantErr: "the runtime's words",
		},
		{
			name:    "malformed target",
			skill:   lint.Skill{Name: "release", Path: skillPath, Subagent: "Release_Notes"},
			wantErr: "Skill '/release' has invalid metadata.subagent 'Release_Notes': expected lowercase kebab-case name. Fix or remove metadata.subagent in " + skillPath + ".",
		},
		{
			name:    "not registered",
			skill:   lint.Skill{Name: "release", Path: skillPath, Subagent: "missing"},
			wantErr: "Skill '/release' routes to subagent 'missing', but that subagent is not registered. Add the missing subagent definition or fix metadata.subagent on the skill.",
		},
		{
			name:    "rejected agent is not registered",
			skill:   lint.Skill{Name: "release", Path: skillPath, Subagent: "gone"},
			wantErr: "Skill '/release' routes to subagent 'gone', but that subagent is not registered. Add the missing subagent definition or fix metadata.subagent on the skill.",
		},
		{
			name:    "internal agent",
			skill:   lint.Skill{Name: "index", Path: skillPath, Subagent: "indexer"},
			wantErr: "Skill '/index' routes to subagent 'indexer', but that subagent is internal-only and not user-invocable. Use a user-facing subagent or fix metadata.subagent on the skill.",
		},
		{
			name:    "does not route",
			skill:   lint.Skill{Name: "plain", Path: skillPath},
			wantErr: "Skill '/plain' does not route to a subagent: it sets no metadata.subagent in " + skillPath + ".",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := RouteSkill(c, &tt.skill)
			if r.Prompt != tt.wantPrompt || r.Err != tt.wantErr {
				t.Errorf("RouteSkill = prompt %q, error %q; want prompt %q, error %q", r.Prompt, r.Err, tt.wantPrompt, tt.wantErr)
			}
			if r.OK() != (tt.wantErr == "") || (r.Agent != nil) != r.OK() {
				t.Errorf("OK = %v, Agent = %v for error %q", r.OK(), r.Agent, r.Err)
			}
		})
	}
	if r := RouteSkill(c, nil); r.OK() {
		t.Error("a nil skill must not route")
	}
	if r := RouteSkill(nil, &lint.Skill{Name: "x", Subagent: "y"}); r.OK() {
		t.Error("nothing routes in a nil catalog")
	}
}

func TestSkillRoutes(t *testing.T) {
	c := handCatalog(agentsDir, nil, agentSpec{name: "reviewer", desc: "Reviews.", body: "Review."})
	c.Skills = []*lint.Skill{
		{Name: "a-plain", Path: "/s/a-plain/SKILL.md"},
		{Name: "b-routed", Path: "/s/b-routed/SKILL.md", Subagent: "reviewer", Body: "Check the diff."},
		nil,
		{Name: "c-broken", Path: "/s/c-broken/SKILL.md", Subagent: "nobody"},
	}
	routes := SkillRoutes(c)
	if len(routes) != 2 {
		t.Fatalf("%d routes, want 2 (skills that do not route are left out)", len(routes))
	}
	if routes[0].Skill.Name != "b-routed" || routes[0].Prompt != "Review.\n\n[Skill Overlay]\nCheck the diff." {
		t.Errorf("first route = %+v", routes[0])
	}
	if routes[1].Skill.Name != "c-broken" || routes[1].OK() {
		t.Errorf("second route = %+v, want a failure", routes[1])
	}
	if SkillRoutes(nil) != nil {
		t.Error("a nil catalog has no routes")
	}
}
