package preview

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestAgentTemplateLoads(t *testing.T) {
	f := lint.Parse("/x/agents/fresh-agent.md", []byte(AgentTemplate("fresh-agent")), lint.Runtime)
	if f.Status != lint.Loaded {
		t.Fatalf("the template is rejected: %s %+v", f.Reason, f.Diagnostics)
	}
	if len(f.Diagnostics) != 0 {
		t.Errorf("the template has findings: %+v", f.Diagnostics)
	}
	if f.Def.Name != "fresh-agent" {
		t.Errorf("name = %q", f.Def.Name)
	}
	pub := lint.Parse("/x/agents/fresh-agent.md", []byte(AgentTemplate("fresh-agent")), lint.Publish)
	for _, d := range pub.Diagnostics {
		if d.Severity == lint.Error {
			t.Errorf("the template fails the publish profile: %+v", d)
		}
	}
}

func TestRenamed(t *testing.T) {
	cases := []struct {
		name, text, want, wantErr string
	}{
		{"plain", "---\nname: old\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"quoted", "---\nname: \"old\"\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"crlf", "---\r\nname: old\r\ndescription: d\r\n---\r\n\r\nbody\r\n", "---\r\nname: new-one\r\ndescription: d\r\n---\r\n\r\nbody\r\n", ""},
		{"comment kept out", "---\nname: old # the name\ndescription: d\n---\n\nbody\n", "---\nname: new-one\ndescription: d\n---\n\nbody\n", ""},
		{"block scalar", "---\nname: |\n  old\ndescription: d\n---\n\nbody\n", "", "block scalar"},
		{"flow style", "---\n{name: old, description: d}\n---\n\nbody\n", "", "copy the file by hand"},
	}
	for _, c := range cases {
		f := lint.Parse("/x/a.md", []byte(c.text), lint.Runtime)
		if f.Def == nil {
			t.Fatalf("%s: does not parse: %+v", c.name, f.Diagnostics)
		}
		got, err := Renamed(f, "new-one")
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if g := lint.Parse("/x/b.md", got, lint.Runtime); g.Status != lint.Loaded || g.Def.Name != "new-one" {
			t.Errorf("%s: the copy does not load as new-one: %s", c.name, g.Reason)
		}
	}
}
