package runner

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// A memo composes what composing anew composes, for each task, and reads
// what the request is made of (the playbook here) once: an edit after
// the first compose is seen by a new memo, not by the one that composed.
// Specs it does not keep (a project whose git state is inspected, MCP
// tools) are composed anew each time.
func TestComposeMemo(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	playbook := filepath.Join(f.home.Base, "identity", "AGENTS.md")
	hometest.WriteFile(t, playbook, "Playbook one.\n")
	project := t.TempDir()
	hometest.WriteFile(t, filepath.Join(project, "AGENTS.md"), "Project rules.\n")
	agent := f.cat.Agent("tester")
	base := Spec{Agent: agent, Config: f.cat.Config, NetClaw: NetClaw{Home: f.home.Base, Audience: preview.Team,
		Shell: &request.Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"}}}
	fixedGit := &request.GitState{Kind: request.GitNotRepository}
	tests := []struct {
		name    string
		mod     func(*Spec)
		extra   []request.Tool
		noTools bool
		kept    bool
	}{
		{name: "no project", kept: true},
		{name: "no tools", noTools: true, kept: true},
		{name: "personal", mod: func(s *Spec) { s.NetClaw.Audience = preview.Personal }, kept: true},
		{name: "project with a fixed git state", mod: func(s *Spec) { s.Project, s.NetClaw.Git = project, fixedGit }, kept: true},
		{name: "project whose git state is inspected", mod: func(s *Spec) { s.Project = project }},
		{name: "MCP tools", extra: []request.Tool{{Name: "mcp_x", Description: "x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hometest.WriteFile(t, playbook, "Playbook one.\n")
			memo := NewComposeMemo()
			for _, task := range [][2]string{{"Find the port.", ""}, {"Name the file.", "A Go service."}} {
				s := base
				if tt.mod != nil {
					tt.mod(&s)
				}
				s.Task, s.Context, s.Compose = task[0], task[1], memo
				want, err := composeNow(s, agent, tt.noTools, tt.extra...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := composeRequest(s, agent, tt.noTools, tt.extra...)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("task %q: through the memo\n%q\nanew\n%q", task[0], got.FirstMessage+got.System, want.FirstMessage+want.System)
				}
			}
			hometest.WriteFile(t, playbook, "Playbook two.\n")
			s := base
			if tt.mod != nil {
				tt.mod(&s)
			}
			s.Task, s.Compose = "Find the port.", memo
			got, err := composeRequest(s, agent, tt.noTools, tt.extra...)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.HasSuffix(got.Part(request.PartDeploymentPlaybook).Text, "Playbook two.")
			if edited == tt.kept {
				t.Errorf("after the playbook's edit the memo's request has %q (kept by the memo: %v)", got.Part(request.PartDeploymentPlaybook).Text, tt.kept)
			}
			s.Compose = NewComposeMemo()
			if got, _ := composeRequest(s, agent, tt.noTools, tt.extra...); !strings.HasSuffix(got.Part(request.PartDeploymentPlaybook).Text, "Playbook two.") {
				t.Errorf("a new memo composed %q, not the edited playbook", got.Part(request.PartDeploymentPlaybook).Text)
			}
		})
	}
}

// The memo keys on whether the run offers tools: a run without tools
// sharing a memo with one that has them gets the empty offer's request
// (no tool index, no project-scope line), and the other keeps its own.
func TestComposeMemoKeysOnTools(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	agent := f.cat.Agent("tester")
	s := Spec{Agent: agent, Config: f.cat.Config, Task: "Find the port.", Compose: NewComposeMemo(),
		NetClaw: NetClaw{Home: f.home.Base, Audience: preview.Team, Shell: &request.Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"}}}
	for _, order := range [][]bool{{false, true}, {true, false}} {
		s.Compose = NewComposeMemo()
		for _, noTools := range order {
			got, err := composeRequest(s, agent, noTools)
			if err != nil {
				t.Fatal(err)
			}
			hasIndex := got.Part(request.PartToolIndex) != nil
			hasScope := strings.Contains(got.System, "set_working_directory")
			if hasIndex == noTools || hasScope == noTools || (len(got.Tools) == 0) != noTools {
				t.Errorf("order %v, no tools %v: tool index %v, set_working_directory line %v, %d tools offered", order, noTools, hasIndex, hasScope, len(got.Tools))
			}
		}
	}
}

// A run's first message names its own session folder: runs sharing a
// memo do not share their first message.
func TestComposeMemoRunsOwnSession(t *testing.T) {
	f := newFixture(t, wire.OpenAI)
	f.srv.SetDefault(modeltest.Script{Steps: []modeltest.Step{modeltest.Text("done"), modeltest.Stop()}})
	memo := NewComposeMemo()
	var msgs []string
	for _, task := range []string{"one", "two"} {
		s := f.spec(task, Limits{})
		s.Compose = memo
		_, rec := f.run(t, s)
		msgs = append(msgs, rec.Dir)
	}
	first := f.srv.Requests()
	if len(first) != 2 {
		t.Fatalf("%d requests, want 2", len(first))
	}
	for i, r := range first {
		if got, want := taskOf(r), []string{"one", "two"}[i]; got != want {
			t.Errorf("request %d has task %q, want %q", i, got, want)
		}
		if want := filepath.Join(msgs[i], SessionDir, "workspace"); !strings.Contains(r.FirstUser(), "\nsession_dir: "+want+"\n") {
			t.Errorf("request %d's first message does not name its own session folder %s:\n%s", i, want, r.FirstUser())
		}
	}
}

// BenchmarkComposeRequest composes a spawn's request for a new task each
// time, anew and through a memo shared by the runs (as a suite's samples
// share one): the memo reads the playbook, assembles and counts the
// prompt's parts and works out the tool offer once.
func BenchmarkComposeRequest(b *testing.B) {
	f := newFixture(b, wire.OpenAI)
	agent := f.cat.Agent("tester")
	s := Spec{Agent: agent, Config: f.cat.Config, NetClaw: NetClaw{Home: f.home.Base, Audience: preview.Personal}}
	for _, memo := range []bool{false, true} {
		b.Run(map[bool]string{false: "anew", true: "memo"}[memo], func(b *testing.B) {
			s.Compose = nil
			if memo {
				s.Compose = NewComposeMemo()
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				s.Task = "Find the port of service " + strings.Repeat("x", i%7)
				if _, err := composeRequest(s, agent, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
