package suite

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner"
)

// The memo's request parts are requestParts' for every spec, whichever
// task asks first, and specs that send another system prompt (audience,
// project instructions, agent) get their own.
func TestRequestMemoParts(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "other.md"), "---\nname: other\ndescription: Does other things\n---\nYou are another.\n")
	project := t.TempDir()
	hometest.WriteFile(t, filepath.Join(project, "AGENTS.md"), "Project rules.\n")
	cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	memo := newRequestMemo()
	var specs []runner.Spec
	for _, agent := range []string{"tester", "other"} {
		for _, aud := range []string{"", "Public"} {
			for _, proj := range []string{"", project} {
				for _, task := range []string{"Find the port.", "Name the file."} {
					specs = append(specs, runner.Spec{Agent: cat.Agent(agent), Config: cat.Config, Task: task, Audience: aud, Project: proj, NetClaw: runner.NetClaw{Home: f.home.Base}})
				}
			}
		}
	}
	seen := map[string]string{}
	for _, sp := range specs {
		want, wantErr := requestParts(sp, displayPath(sp.Agent.Path))
		got, gotErr := memo.requestParts(sp, sp.Agent.Path)
		if wantErr != nil || gotErr != nil {
			t.Errorf("%s: the request cannot be composed: %v, %v", sp.Agent.Def.Name, wantErr, gotErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q %q: through the memo %v, anew %v", sp.Agent.Def.Name, sp.Audience, sp.Project, got, want)
		}
		key := sp.Agent.Def.Name + "|" + sp.Audience + "|" + sp.Project
		if prev, ok := seen[key]; ok && prev != fmt.Sprint(got) {
			t.Errorf("%s: tasks got different parts", key)
		}
		seen[key] = fmt.Sprint(got)
	}
	distinct := map[string]bool{}
	for _, v := range seen {
		distinct[v] = true
	}
	// Two agents, each Personal with and without the project's
	// instructions, and Public (which reads no project instructions).
	if want := 6; len(distinct) != want {
		t.Errorf("%d kinds of spec have %d distinct fingerprints, want %d", len(seen), len(distinct), want)
	}
}
