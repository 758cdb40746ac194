package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// TestRunIntroNamesTheRunsTools: the Run pane's intro names the tools a
// run of the selected agent offers. A live run on a project: NetClaw's
// catalogue for the browser's audience (shell_execute for Personal only)
// and the configured MCP servers, in a copy of the project. The demo's
// fixer: its recording's tools and the tracker, run again in a copy. A
// demo agent that replays its role's recording: the recorded tools,
// answered from the recording.
func TestRunIntroNamesTheRunsTools(t *testing.T) {
	live := func(t *testing.T, a preview.Audience) string {
		tmp, base := copyHome(t, "home")
		model := trialtest.Model{Endpoint: "http://127.0.0.1:9/v1", Provider: "scripted", Roles: []string{"Compaction"}}
		hometest.WriteFile(t, filepath.Join(base, "config", "netclaw.json"), model.Config(`"McpServers": {"tickets": {"Command": "tickets-mcp"}}`))
		rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
		if err != nil {
			t.Fatal(err)
		}
		opts := homeOptions(tmp, lint.NewHome(base, ""))
		opts.Runner, opts.Project = rn, t.TempDir()
		opts.NetClaw.Audience = a
		tm := openModel(t, opts, 120, 40)
		t.Cleanup(func() { tm.Close() })
		if !tm.list.selectPath(filepath.Join(base, "agents", "code-analyst.md")) {
			t.Fatal("code-analyst is not in the list")
		}
		tm.send(nil)
		tm.keys("3")
		return introText(tm)
	}
	t.Run("a new netclaw.json", func(t *testing.T) {
		// The line is kept between frames, and built again when the
		// configuration changes.
		tmp, base := copyHome(t, "home")
		model := trialtest.Model{Endpoint: "http://127.0.0.1:9/v1", Provider: "scripted", Roles: []string{"Compaction"}}
		cfg := filepath.Join(base, "config", "netclaw.json")
		hometest.WriteFile(t, cfg, model.Config(`"McpServers": {"tickets": {"Command": "tickets-mcp"}}`))
		rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
		if err != nil {
			t.Fatal(err)
		}
		opts := homeOptions(tmp, lint.NewHome(base, ""))
		opts.Runner, opts.Project = rn, t.TempDir()
		tm := openModel(t, opts, 120, 40)
		t.Cleanup(func() { tm.Close() })
		tm.list.selectPath(filepath.Join(base, "agents", "code-analyst.md"))
		tm.send(nil)
		tm.keys("3")
		if intro := introText(tm); !strings.Contains(intro, "MCP: tickets") {
			t.Fatalf("no tickets server:\n%s", intro)
		}
		hometest.WriteFile(t, cfg, model.Config(`"McpServers": {"wiki": {"Command": "wiki-mcp"}}`))
		tm.keys("ctrl+r")
		if intro := introText(tm); !strings.Contains(intro, "MCP: wiki") || strings.Contains(intro, "tickets") {
			t.Errorf("the line did not follow netclaw.json:\n%s", intro)
		}
	})
	demoScreen := func(t *testing.T, agent string) string {
		rh, home := demoRunHome(t, 120, 40, true)
		if !rh.list.selectPath(filepath.Join(home.Agents, agent+".md")) {
			t.Fatalf("%s is not in the list", agent)
		}
		rh.send(nil)
		rh.keys("3")
		return introText(rh.testModel)
	}
	tests := []struct {
		name      string
		screen    func(t *testing.T) string
		want, not []string
	}{
		{"live, Personal", func(t *testing.T) string { return live(t, preview.Personal) },
			[]string{"Tools    shell_execute, file_list", "file_edit", "more through load_tool", "MCP: tickets", "in a copy of", "commands, web and MCP calls ask first"},
			[]string{"read-only", "recorded"}},
		{"live, Team", func(t *testing.T) string { return live(t, preview.Team) },
			[]string{"Tools    file_list", "more through load_tool", "in a copy of"},
			// Team's default profile allows no MCP server (its
			// Tools.AudienceProfiles entry may name some).
			[]string{"Tools    shell_execute", "read-only", "MCP: tickets"}},
		{"demo fixer", func(t *testing.T) string { return demoScreen(t, "fixer") },
			[]string{"the recorded run's: shell_execute, file_list", "MCP: tracker", "run again, for real, in a copy of"},
			[]string{"read-only", "nothing runs"}},
		{"demo role replay", func(t *testing.T) string { return demoScreen(t, "code-analyst") },
			[]string{"the recorded run's: shell_execute, file_list", "each call gets its recorded result; nothing runs"},
			[]string{"read-only", "MCP:", "run again"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			intro := tt.screen(t)
			for _, w := range tt.want {
				if !strings.Contains(intro, w) {
					t.Errorf("the intro lacks %q:\n%s", w, intro)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(intro, n) {
					t.Errorf("the intro says %q:\n%s", n, intro)
				}
			}
		})
	}
}

// introText is the Run pane's intro for the selection, unwrapped: one
// line per item.
func introText(tm *testModel) string {
	tm.t.Helper()
	if tm.tab != tabRun {
		tm.t.Fatalf("the Run pane is not open:\n%s", tm.screen())
	}
	return ansi.Strip(strings.Join(tm.runs.intro(tm.selected(), 1000), "\n"))
}

// BenchmarkRunIntro measures the Run pane's intro of a live agent on a
// project (built on every frame's Update while no run is shown): the
// model, the limits and the tools line from NetClaw's catalogue.
func BenchmarkRunIntro(b *testing.B) {
	tmp, base := copyHome(b, "home")
	model := trialtest.Model{Endpoint: "http://127.0.0.1:9/v1", Provider: "scripted", Roles: []string{"Compaction"}}
	hometest.WriteFile(b, filepath.Join(base, "config", "netclaw.json"), model.Config(`"McpServers": {"tickets": {"Command": "tickets-mcp"}}`))
	rn, err := runner.New(runner.Options{RunsDir: filepath.Join(tmp, "runs")})
	if err != nil {
		b.Fatal(err)
	}
	opts := homeOptions(tmp, lint.NewHome(base, ""))
	opts.Runner, opts.Project = rn, b.TempDir()
	tm := openModel(b, opts, 120, 40)
	b.Cleanup(func() { tm.Close() })
	if !tm.list.selectPath(filepath.Join(base, "agents", "code-analyst.md")) {
		b.Fatal("code-analyst is not in the list")
	}
	tm.send(nil)
	sel := tm.selected()
	b.ReportAllocs()
	for b.Loop() {
		tm.runs.intro(sel, 120)
	}
}
