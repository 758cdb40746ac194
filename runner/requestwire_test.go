package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// The request a trial sends is the one NetClaw's runtime composes: on the
// wire, over every protocol, the system prompt is the parts in order and
// the first message carries the working context and the [session] block.
func TestRequestOnTheWire(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			hometest.WriteFile(t, filepath.Join(f.home.Base, "identity", "AGENTS.md"), "Review every email. Skills in {{SKILLS_DIR}}.\n")
			project := t.TempDir()
			hometest.WriteFile(t, filepath.Join(project, "CLAUDE.md"), "Project rules: prefer Go.\n")
			f.srv.Enqueue(modeltest.Reply("done"))
			s := f.spec("Check the thing.", Limits{})
			s.Context = "The user is on call."
			s.Project = project
			s.NetClaw = NetClaw{
				Home:        f.home.Base,
				Audience:    preview.Personal,
				Core:        &request.Core{Text: "# Operating Rules\nNever invent facts.\n", Source: "netclawd!Netclaw.Configuration.Resources.AGENTS.md", Version: "1.2.3"},
				Git:         &request.GitState{Kind: request.GitAvailable, Worktree: project, CommonDir: project + "/.git", Branch: "main", Head: "abc"},
				Shell:       &request.Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"},
				RecentFiles: []string{"main.go"},
			}
			_, rec := f.run(t, s)
			if rec.Outcome != vocab.Completed {
				t.Fatalf("outcome %s: %s", rec.Outcome, rec.Error)
			}
			abs, _ := filepath.Abs(project)
			offer, err := request.OfferFor(preview.Personal, request.DefaultPolicy())
			if err != nil {
				t.Fatal(err)
			}
			scope := false
			for _, tool := range offer.Tools {
				scope = scope || tool.Name == "set_working_directory" && tool.Core
			}
			wantSystem := "# Operating Rules\nNever invent facts.\n\n" + request.PlaybookHeading + "\n\nReview every email. Skills in " +
				filepath.Join(f.home.Base, "skills") + ".\n\nProject rules: prefer Go.\n\nYou are a tester.\n\n" +
				strings.TrimRight(offer.Index, " \n") + "\n\n" + request.ExecutionContract(scope)
			wantMessage := "Context:\nThe user is on call.\n\n[working-context]\nshell:\n  platform: Linux\n  executable: /bin/bash\n  grammar: Bash\nproject_dir: " + abs +
				"\nrecent_files:\n  - main.go\ngit:\n  worktree: " + project + "\n  common_dir: " + project + "/.git\n  branch: main\n  head: abc\n  staged: 0\n  modified: 0\n  untracked: 0\n\n" +
				request.SessionStorage{
					SessionDir:  filepath.Join(rec.Dir, "session", "workspace"),
					TempDir:     filepath.Join(rec.Dir, "session", "subagents", rec.RunID, "tmp"),
					ArtifactDir: filepath.Join(rec.Dir, "session", "subagents", rec.RunID, "artifacts"),
					WorktreeDir: filepath.Join(rec.Dir, "session", "worktrees"),
					LogPath:     filepath.Join(rec.Dir, "session", "subagents", rec.RunID, "logs", "session.log"),
				}.Block("") + "\n\nTask:\nCheck the thing."
			reqs := f.srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if reqs[0].System != wantSystem {
				t.Errorf("system prompt on the wire:\n%q\nwant\n%q", reqs[0].System, wantSystem)
			}
			if got := reqs[0].FirstUser(); got != wantMessage {
				t.Errorf("first message on the wire:\n%q\nwant\n%q", got, wantMessage)
			}
			// The bytes themselves carry both texts as JSON strings.
			for _, want := range []string{wantSystem, wantMessage} {
				if !jsonHasString(t, reqs[0].Body, want) {
					t.Errorf("the request body holds no JSON string equal to %.60q...", want)
				}
			}
			// The tools go out as NetClaw's catalogue describes them.
			var fileRead *request.OfferedTool
			for i := range offer.Tools {
				if offer.Tools[i].Name == "file_read" {
					fileRead = &offer.Tools[i]
				}
			}
			if fileRead == nil || !jsonHasString(t, reqs[0].Body, fileRead.Description) {
				t.Errorf("file_read is not offered with the catalogue's description")
			}
			// The tools on the wire are the catalogue's core tools, in its
			// order, and no others: what preview --spawn shows is what a
			// trial sends.
			var coreNames []string
			for _, tool := range offer.Tools {
				if tool.Core {
					coreNames = append(coreNames, tool.Name)
				}
			}
			if got, want := strings.Join(reqs[0].Tools, ","), strings.Join(coreNames, ","); got != want {
				t.Errorf("tools on the wire:\n%s\nwant the catalogue's core tools:\n%s", got, want)
			}
			// Every core tool goes out whole: its name, its description and
			// its JSON schema byte for byte as the catalogue renders it
			// (PascalCase parameters, then the meta properties).
			checked := map[string]bool{}
			for _, tool := range offer.Tools {
				if !tool.Core {
					continue
				}
				checked[tool.Name] = true
				if !jsonHasString(t, reqs[0].Body, tool.Name) || !jsonHasString(t, reqs[0].Body, tool.Description) {
					t.Errorf("%s is not on the wire with its name and description", tool.Name)
				}
				if !bytes.Contains(reqs[0].Body, tool.Parameters) {
					t.Errorf("%s: the schema on the wire is not the catalogue's bytes %.80s...", tool.Name, tool.Parameters)
				}
			}
			// The core tools are NetClaw's core tier, in the sub-agent
			// registry's order (search_tools and load_tool last); the
			// deferred tools (run_reminder and, Memory.Enabled being on by
			// default, the memory tools among them) are not on the wire but
			// named in the tool index, to be loaded with load_tool.
			// file_read sits after set_working_directory: WithSkillTools
			// re-registers it with ReplaceCore, which appends.
			wantCore := []string{"shell_execute", "file_list", "file_search", "tool_output_read", "file_write", "file_edit",
				"set_working_directory", "file_read", "skill_load", "skill_read_resource", "search_tools", "load_tool"}
			if got := strings.Join(reqs[0].Tools, ","); got != strings.Join(wantCore, ",") {
				t.Errorf("tools on the wire:\n%s\nwant NetClaw's core tier:\n%s", got, strings.Join(wantCore, ","))
			}
			for _, name := range []string{"run_reminder", "find_memories", "get_memories", "store_memory", "update_memory", "web_fetch", "skill_manage"} {
				if checked[name] || slices.Contains(reqs[0].Tools, name) {
					t.Errorf("%s is deferred but on the wire from the start", name)
				}
				if !strings.Contains(wantSystem, "\n"+name+": ") {
					t.Errorf("%s is not named in the tool index", name)
				}
			}
			if !strings.Contains(wantSystem, "[directly callable core tools]\n") || !strings.Contains(wantSystem, "[deferred first-party tools - discover with search_tools]\n") {
				t.Errorf("the tool index is not the tiered registry's:\n%s", offer.Index)
			}
			pr := rec.Prompt
			if pr == nil || pr.Audience != "Personal" || len(pr.Missing) != 0 || pr.CoreSource == "" || pr.CoreVersion != "1.2.3" {
				t.Fatalf("run.json prompt = %+v", pr)
			}
			var names []string
			for _, part := range pr.Parts {
				names = append(names, part.Part)
				if part.Tokens <= 0 || part.Source == "" {
					t.Errorf("part %+v", part)
				}
			}
			if got := strings.Join(names, ","); got != "operating-rules,deployment-playbook,project-instructions,body,tool-index,execution-contract" {
				t.Errorf("parts %s", got)
			}
		})
	}
}

// jsonHasString reports whether the JSON body holds a string equal to want.
func jsonHasString(t *testing.T, body []byte, want string) bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("the body is not JSON: %v", err)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return x == want
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// Without a NetClaw install the run goes ahead, and run.json and result.md
// say the operating rules were missing.
func TestRequestWithoutCore(t *testing.T) {
	f := newFixture(t, trialtest.Protocols[0])
	f.srv.Enqueue(modeltest.Reply("done"))
	s := f.spec("Go.", Limits{})
	s.NetClaw.CoreMissing = "no NetClaw install in ~/.netclaw/bin or on PATH"
	_, rec := f.run(t, s)
	if rec.Outcome != vocab.Completed {
		t.Fatalf("outcome %s", rec.Outcome)
	}
	if rec.Prompt == nil || len(rec.Prompt.Missing) != 1 || rec.Prompt.Missing[0] != request.PartOperatingRules {
		t.Fatalf("prompt record %+v", rec.Prompt)
	}
	b, err := os.ReadFile(filepath.Join(rec.Dir, runfolder.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Warning: the request lacked the operating rules (NetClaw's embedded core): no NetClaw install", "operating-rules: missing"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("result.md lacks %q:\n%s", want, b)
		}
	}
	var raw map[string]any
	rb, _ := os.ReadFile(filepath.Join(rec.Dir, runfolder.RunFile))
	if err := json.Unmarshal(rb, &raw); err != nil {
		t.Fatal(err)
	}
	pm, _ := raw["prompt"].(map[string]any)
	if pm == nil || pm["missing"] == nil || pm["parts"] == nil {
		t.Errorf("run.json prompt = %v", raw["prompt"])
	}
}

// A run without a project offers the model no tools: its system prompt
// is composed with an empty offer, so it names none (no tool index, no
// set_working_directory line) and no tools go on the wire; run.json's
// parts say so.
func TestRequestWithoutTools(t *testing.T) {
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p)
			f.srv.Enqueue(modeltest.Reply("done"))
			s := f.spec("Check the thing.", Limits{})
			s.NetClaw = NetClaw{Home: f.home.Base, Audience: preview.Personal,
				Shell: &request.Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"}}
			_, rec := f.run(t, s)
			if rec.Outcome != vocab.Completed {
				t.Fatalf("outcome %s: %s", rec.Outcome, rec.Error)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			if want := "You are a tester.\n\n" + request.ExecutionContract(false); reqs[0].System != want {
				t.Errorf("system prompt on the wire:\n%q\nwant\n%q", reqs[0].System, want)
			}
			for _, absent := range []string{"set_working_directory", "file_read", "[directly callable core tools]"} {
				if strings.Contains(reqs[0].System, absent) {
					t.Errorf("the system prompt names %q, but no tools are offered:\n%s", absent, reqs[0].System)
				}
			}
			if len(reqs[0].Tools) != 0 {
				t.Errorf("tools on the wire: %v, want none", reqs[0].Tools)
			}
			var names []string
			for _, part := range rec.Prompt.Parts {
				names = append(names, part.Part)
			}
			if got := strings.Join(names, ","); got != "body,execution-contract" {
				t.Errorf("parts %s, want body,execution-contract", got)
			}
		})
	}
}
