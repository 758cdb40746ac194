package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview/request"
)

// toolsHome writes a home with one agent and this netclaw.json.
func toolsHome(t *testing.T, config string) string {
	t.Helper()
	return hometest.New(t, map[string]string{
		"agents/code-analyst.md": "---\nname: code-analyst\ndescription: Reads code.\ntools: [file_read]\n---\nYou are a code analyst.\n",
		"config/netclaw.json":    config,
	})
}

func TestToolsCommand(t *testing.T) {
	home := toolsHome(t, `{"Tools": {"ShellMode": "Off"}, "Search": {"Enabled": false}}`)
	project, noInstall := t.TempDir(), t.TempDir()
	notFolder := filepath.Join(project, "file.txt")
	if err := os.WriteFile(notFolder, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A build whose assembly lacks the operating core's resources: run
	// refuses it (exit 2), so tools does too.
	dll, err := os.ReadFile(filepath.Join(fixtureNetClaw(t), "Netclaw.Configuration.dll"))
	if err != nil {
		t.Fatal(err)
	}
	noCore := t.TempDir()
	if err := os.WriteFile(filepath.Join(noCore, "Netclaw.Configuration.dll"), bytes.ReplaceAll(dll, []byte("Resources.AGENTS"), []byte("Resources.XGENTS")), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		args         []string
		code         int
		has, lacks   []string
		stderrSubstr string
	}{
		{"personal", []string{"tools", "--home", home}, 0,
			[]string{"spawned from a Personal session", "file_read   ", "core", "withheld:", "attach_file", "Tools.ShellMode is Off", "its subsystem is switched off (Search.Enabled is off)"},
			[]string{"web_search  web"}, ""},
		{"agent and audience", []string{"tools", "code-analyst", "--audience", "TEAM", "--home", home}, 0,
			[]string{"sub-agent code-analyst", "Team session", "the Team profile does not allow it"}, nil, ""},
		{"public", []string{"tools", "--audience", "public", "--home", home}, 0,
			[]string{"cannot spawn sub-agents"}, []string{"file_read"}, ""},
		{"unknown agent", []string{"tools", "nobody", "--home", home}, 1, nil, nil, "no agent named 'nobody'"},
		{"bad audience", []string{"tools", "--audience", "everyone", "--home", home}, 2, nil, nil, "unknown audience"},
		{"two agents", []string{"tools", "a", "b", "--home", home}, 2, nil, nil, "accepts at most 1 arg"},
		{"bad format", []string{"tools", "--format", "yaml", "--home", home}, 2, nil, nil, "not a format"},
		{"trial flag project", []string{"tools", "--project", project, "--home", home}, 0, []string{"file_read   "}, nil, ""},
		{"project not a folder", []string{"tools", "--project", notFolder, "--home", home}, 2, nil, nil, "is not a folder"},
		{"netclaw-dir without an install", []string{"tools", "--netclaw-dir", noInstall, "--home", home}, 2, nil, nil, "--netclaw-dir " + noInstall},
		{"netclaw-dir whose assembly lacks the core", []string{"tools", "--netclaw-dir", noCore, "--home", home}, 2, nil, nil, "no such embedded resource Netclaw.Configuration.Resources.AGENTS.md"},
		{"netclaw-dir whose assembly lacks the public core", []string{"tools", "--audience", "public", "--netclaw-dir", noCore, "--home", home}, 2, nil, nil, "Netclaw.Configuration.Resources.AGENTS.public.md"},
		{"netclaw-dir with the fixture build", []string{"tools", "--netclaw-dir", fixtureNetClaw(t), "--home", home}, 0, []string{"file_read   "}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, nil, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, errOut)
			}
			for _, s := range tc.has {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.lacks {
				if strings.Contains(out, s) {
					t.Errorf("stdout holds %q:\n%s", s, out)
				}
			}
			if !strings.Contains(errOut, tc.stderrSubstr) {
				t.Errorf("stderr %q lacks %q", errOut, tc.stderrSubstr)
			}
		})
	}
}

func TestToolsCommandJSON(t *testing.T) {
	home := toolsHome(t, `{}`)
	code, out, errOut := run(t, nil, "tools", "code-analyst", "--format", "json", "--home", home)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Audience string `json:"audience"`
		Agent    string `json:"agent"`
		Tools    []struct {
			Name       string          `json:"name"`
			Grant      string          `json:"grant"`
			Offering   string          `json:"offering"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"tools"`
		Index string `json:"index"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	var names []string
	for _, tl := range doc.Tools {
		names = append(names, tl.Name)
		if tl.Grant == "" || (tl.Offering == "core") != request.IsCore(tl.Name) || !strings.Contains(string(tl.Parameters), `"_rationale"`) {
			t.Errorf("%s: %+v", tl.Name, tl)
		}
	}
	if doc.Audience != "Personal" || doc.Agent != "code-analyst" || !slices.Contains(names, "shell_execute") || slices.Contains(names, "attach_file") {
		t.Errorf("audience %s agent %s tools %v", doc.Audience, doc.Agent, names)
	}
	if !strings.HasPrefix(doc.Index, "[directly callable core tools]\nshell: shell_execute") {
		t.Errorf("index %q", doc.Index)
	}
	if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u0026`) {
		t.Error("the JSON escapes HTML characters the model never sees escaped")
	}
}

func TestToolsCommandBadConfig(t *testing.T) {
	home := toolsHome(t, "{\n  \"Tools\": {\"ShellMode\": \"Sometimes\"}\n}\n")
	code, _, errOut := run(t, nil, "tools", "--home", home)
	if code != 1 || !strings.Contains(errOut, "netclaw.json:2:") || !strings.Contains(errOut, "Tools.ShellMode") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
