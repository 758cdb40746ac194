package request

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// fixture is a NetClaw home and a project folder in temp dirs.
type fixture struct {
	home, project string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	f := fixture{home: t.TempDir(), project: t.TempDir()}
	return f
}

func (f fixture) write(t testing.TB, root, rel, text string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f fixture) input(body string) Input {
	return Input{
		Agent:     &lint.Definition{Name: "test-agent", Body: body},
		AgentPath: "agents/test-agent.md",
		Paths:     Paths{Base: f.home},
		Audience:  preview.Personal,
		Core:      &Core{Text: "Operating rules: never invent runtime facts.\n", Source: "netclawd!Netclaw.Configuration.Resources.AGENTS.md"},
		Project:   f.project,
		Task:      "Do the thing.",
		Git:       &GitState{Kind: GitNotRepository},
		Shell:     &Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"},
		Offer:     &Offer{},
	}
}

func compose(t *testing.T, in Input) *Request {
	t.Helper()
	r, err := Compose(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func partNames(r *Request) []string {
	var names []string
	for _, p := range r.Parts {
		names = append(names, p.Part)
	}
	return names
}

// assertOrder checks that each marker occurs in s after the one before it
// (NetClaw's SubAgentActorTests.AssertPromptOrder).
func assertOrder(t *testing.T, s string, markers ...string) {
	t.Helper()
	at := 0
	for _, m := range markers {
		i := strings.Index(s[at:], m)
		if i < 0 {
			t.Fatalf("%q not found after offset %d in:\n%s", m, at, s)
		}
		at += i + len(m)
	}
}

// The port of SubAgentActorTests'
// System_prompt_layers_operating_rules_before_project_role_and_headless_contract.
func TestPromptOrder(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "identity/AGENTS.md", "Deployment playbook: review customer email.")
	f.write(t, f.project, "CLAUDE.md", "Project rules: prefer C#.")
	in := f.input("You are a test agent.")
	in.Skill = &lint.Skill{Name: "focus", Path: "skills/focus/SKILL.md", Body: "Use focused analysis."}
	in.Offer = &Offer{Index: "[tool-index]\nfile_read: read a file", Tools: []OfferedTool{{Name: "file_read", Core: true}}}
	r := compose(t, in)
	assertOrder(t, r.System,
		"Operating rules: never invent runtime facts.",
		"Deployment playbook: review customer email.",
		"Project rules: prefer C#.",
		"You are a test agent.",
		"[Skill Overlay]",
		"[tool-index]",
		"[Subagent Execution Contract]")
	if !strings.Contains(r.System, "Return each authorized file path that the parent session should deliver.") {
		t.Error("the contract's delivery line is missing")
	}
	if !strings.HasSuffix(strings.TrimRight(r.System, " \n"), ContractLastSentence) {
		t.Errorf("the prompt does not end with %q:\n%s", ContractLastSentence, r.System)
	}
	want := []string{PartOperatingRules, PartDeploymentPlaybook, PartProjectInstructions, PartBody, PartSkillOverlay, PartToolIndex, PartExecutionContract}
	if got := partNames(r); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("parts = %v, want %v", got, want)
	}
	if got := joinParts(r); got != r.System {
		t.Errorf("the parts joined are not the prompt:\n%q\n%q", got, r.System)
	}
	if p := r.Part(PartProjectInstructions); p == nil || p.Source != filepath.Join(f.project, "CLAUDE.md") {
		t.Errorf("project instructions part = %+v", p)
	}
	if p := r.Part(PartDeploymentPlaybook); p == nil || !strings.HasPrefix(p.Text, PlaybookHeading+"\n\n") {
		t.Errorf("playbook part = %+v", p)
	}
	for _, p := range r.Parts {
		if p.Tokens <= 0 {
			t.Errorf("part %s has %d tokens", p.Part, p.Tokens)
		}
	}
}

func joinParts(r *Request) string {
	var texts []string
	for _, p := range r.Parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n\n")
}

// The exact bytes of a prompt: the joins, the trims, the contract's raw
// literal running into its suffix.
func TestPromptBytes(t *testing.T) {
	f := newFixture(t)
	in := f.input("Body line.\n\n")
	in.Core.Text = "\n  Core.  \n"
	in.Project = ""
	got := compose(t, in).System
	want := "Core.\n\nBody line.\n\n" + contractPrefix + contractSuffix
	if got != want {
		t.Errorf("prompt:\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(got, "dialogue channel.You cannot attach files directly.") {
		t.Error("the contract's prefix and suffix are not joined as the C# raw literal joins them")
	}
}

func TestContractProjectScope(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name  string
		tools []OfferedTool
		want  bool
	}{
		{"offered", []OfferedTool{{Name: "set_working_directory", Core: true}}, true},
		{"deferred only", []OfferedTool{{Name: "set_working_directory"}}, false},
		{"absent", []OfferedTool{{Name: "file_read", Core: true}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := f.input("Say hello.")
			in.Offer = &Offer{Tools: tt.tools}
			r := compose(t, in)
			has := strings.Contains(r.System, "call set_working_directory once")
			if has != tt.want {
				t.Errorf("project-scope line present = %v, want %v", has, tt.want)
			}
			if !strings.HasSuffix(r.System, ContractLastSentence) {
				t.Error("the prompt does not end with the contract's last sentence")
			}
			if tt.want && !strings.Contains(r.System, "dialogue channel.Before tool work in another task-named project") {
				t.Error("the project-scope line does not follow the prefix directly")
			}
		})
	}
}

func TestMissingCore(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "identity/AGENTS.md", "Playbook text.")
	in := f.input("Body.")
	in.Core, in.CoreMissing = nil, "no NetClaw install in ~/.netclaw/bin or on PATH"
	r := compose(t, in)
	if got := r.MissingPart(PartOperatingRules); got != in.CoreMissing {
		t.Errorf("missing operating rules = %q", got)
	}
	if r.Part(PartOperatingRules) != nil {
		t.Error("an operating-rules part without a core")
	}
	// The runtime composes the playbook alone under its heading.
	if !strings.HasPrefix(r.System, PlaybookHeading+"\n\nPlaybook text.\n\nBody.") {
		t.Errorf("prompt starts %q", r.System[:60])
	}
	if r.CoreSource != "" {
		t.Error("a core source without a core")
	}
}

func TestPlaceholders(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "identity/AGENTS.md", "See {{SKILLS_DIR}} and {{WORKSPACES_DIR}}.")
	in := f.input("Body.")
	in.Core.Text = "Identity at {{IDENTITY_DIR}}; playbook {{AGENTS_PATH}}; system {{SYSTEM_SKILLS_DIR}}."
	r := compose(t, in)
	want := "Identity at " + filepath.Join(f.home, "identity") + "; playbook " + filepath.Join(f.home, "identity", "AGENTS.md") +
		"; system " + filepath.Join(f.home, "skills", ".system") + "."
	if p := r.Part(PartOperatingRules); p == nil || p.Text != want {
		t.Errorf("core = %+v, want %q", p, want)
	}
	if p := r.Part(PartDeploymentPlaybook); p == nil || !strings.Contains(p.Text, filepath.Join(f.home, "workspaces")) {
		t.Errorf("playbook = %+v", p)
	}
	if strings.Contains(r.System, "{{") {
		t.Error("a placeholder is left")
	}
}

func TestProjectInstructions(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		audience preview.Audience
		want     string // "" for no part
	}{
		{"first candidate wins", map[string]string{".netclaw/AGENTS.md": "dot", "CLAUDE.md": "claude", "AGENTS.md": "agents"}, preview.Personal, "dot"},
		{"claude before agents", map[string]string{"CLAUDE.md": "claude", "AGENTS.md": "agents", "CONTEXT.md": "ctx"}, preview.Team, "claude"},
		{"context last", map[string]string{"CONTEXT.md": "ctx"}, preview.Personal, "ctx"},
		{"none for public", map[string]string{"CLAUDE.md": "claude"}, preview.Public, ""},
		{"blank file is no part", map[string]string{"CLAUDE.md": " \n"}, preview.Personal, ""},
		{"a folder is skipped", map[string]string{"CLAUDE.md/x": "not me", "AGENTS.md": "agents"}, preview.Personal, "agents"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for rel, text := range tt.files {
				f.write(t, f.project, rel, text)
			}
			in := f.input("Body.")
			in.Audience = tt.audience
			r := compose(t, in)
			p := r.Part(PartProjectInstructions)
			switch {
			case tt.want == "" && p != nil:
				t.Errorf("unexpected part %+v", p)
			case tt.want != "" && (p == nil || p.Text != tt.want):
				t.Errorf("part = %+v, want text %q", p, tt.want)
			}
		})
	}
}

func TestBadInstructionFiles(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, f fixture)
		wantErr error
		naming  string
		lacks   string // what the message must not say
	}{
		{"fifo project file", func(t *testing.T, f fixture) {
			mkfifo(t, filepath.Join(f.project, "CLAUDE.md"))
		}, ErrProjectInstructions, "CLAUDE.md", ""},
		{"huge project file", func(t *testing.T, f fixture) {
			p := f.write(t, f.project, "AGENTS.md", "")
			if err := os.Truncate(p, MaxInstructionFile+1); err != nil {
				t.Fatal(err)
			}
		}, ErrProjectInstructions, "AGENTS.md", ""},
		{"fifo playbook", func(t *testing.T, f fixture) {
			if err := os.MkdirAll(filepath.Join(f.home, "identity"), 0o755); err != nil {
				t.Fatal(err)
			}
			mkfifo(t, filepath.Join(f.home, "identity", "AGENTS.md"))
		}, ErrPlaybookUnreadable, "identity/AGENTS.md", "permissions"},
		{"huge playbook", func(t *testing.T, f fixture) {
			if err := os.MkdirAll(filepath.Join(f.home, "identity"), 0o755); err != nil {
				t.Fatal(err)
			}
			p := f.write(t, filepath.Join(f.home, "identity"), "AGENTS.md", "")
			if err := os.Truncate(p, MaxInstructionFile+1); err != nil {
				t.Fatal(err)
			}
		}, ErrPlaybookUnreadable, "identity/AGENTS.md", "fails every spawn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			tt.setup(t, f)
			_, err := Compose(f.input("Body."))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), filepath.FromSlash(tt.naming)) {
				t.Errorf("the error does not name the file: %v", err)
			}
			// A FIFO's or a huge file's message says what to do about it,
			// not about permissions, and not that NetClaw fails on it.
			if tt.lacks != "" && strings.Contains(err.Error(), tt.lacks) {
				t.Errorf("the error says %q: %v", tt.lacks, err)
			}
		})
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// Compose puts the working context in the first message, never in the
// system prompt (SubAgentActorTests: the [working-context] block is in
// the user message only).
func TestComposeWorkingContextInMessage(t *testing.T) {
	f := newFixture(t)
	in := f.input("Body.")
	in.Audience = preview.Team
	in.Git = &GitState{Kind: GitUnavailable, Reason: "boom"}
	in.RecentFiles = []string{"src/WorkingContext.cs"}
	r := compose(t, in)
	abs, _ := filepath.Abs(f.project)
	for _, want := range []string{"[working-context]", "project_dir: " + abs, "src/WorkingContext.cs"} {
		if !strings.Contains(r.FirstMessage, want) {
			t.Errorf("first message lacks %q:\n%s", want, r.FirstMessage)
		}
	}
	if strings.Contains(r.System, "[working-context]") {
		t.Error("the working context leaked into the system prompt")
	}
	if !strings.HasSuffix(r.FirstMessage, "\n\nTask:\nDo the thing.") {
		t.Errorf("first message ends %q", r.FirstMessage)
	}
}

// ForTask gives what Compose gives for the same input with another task
// and context, for every audience, with and without a session folder,
// and the request it copies keeps its own first message.
func TestForTaskIsComposeWithThatTask(t *testing.T) {
	f := newFixture(t)
	f.write(t, f.home, "identity/AGENTS.md", "Playbook.\n")
	f.write(t, f.project, "AGENTS.md", "Project rules.\n")
	for _, aud := range []preview.Audience{preview.Personal, preview.Team, preview.Public} {
		st := ChildStorage("/runs/x/session", "x")
		for _, session := range []*SessionStorage{nil, &st} {
			t.Run(fmt.Sprintf("%s/session=%v", aud, session != nil), func(t *testing.T) {
				in := f.input("Body.")
				in.Audience, in.Session = aud, session
				in.RecentFiles = []string{"a.go"}
				in.Task, in.Context = "", ""
				tmpl := compose(t, in)
				before := tmpl.FirstMessage
				for _, tc := range [][2]string{{"Do the thing.", ""}, {"Find the port.", "It is a Go service."}, {"", "only context"}} {
					in.Task, in.Context = tc[0], tc[1]
					want := compose(t, in)
					got := tmpl.ForTask(tc[0], tc[1], session)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("task %q context %q:\nForTask first message %q\nCompose first message %q", tc[0], tc[1], got.FirstMessage, want.FirstMessage)
					}
					elsewhere := ChildStorage("/elsewhere", "y")
					got.WithSession(&elsewhere)
					if tmpl.FirstMessage != before {
						t.Fatalf("setting the copy's session changed the request it was copied from")
					}
					// WithTask is ForTask without the message, until
					// WithSession sets it.
					bare := tmpl.WithTask(tc[0], tc[1])
					if bare.FirstMessage != "" {
						t.Errorf("WithTask has a first message %q", bare.FirstMessage)
					}
					if !reflect.DeepEqual(bare.WithSession(session), want) {
						t.Errorf("task %q context %q: WithTask then WithSession differs from Compose", tc[0], tc[1])
					}
					if tmpl.FirstMessage != before {
						t.Fatalf("WithTask changed the request it was copied from")
					}
				}
			})
		}
	}
}
