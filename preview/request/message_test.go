package request

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

// sessionBlockFor is the [session] block NetClaw's
// SessionContextFormatter.Format writes for a sub-agent (no id line),
// spelled out here byte by byte from salma-marei/netclaw @0c8a8a64
// (SessionContextFormatter.cs and ToolChoiceGuidance.cs), so a change of
// the constants in message.go shows.
func sessionBlockFor(s SessionStorage) string {
	return "[session]\n" +
		"session_dir: " + s.SessionDir + "\n" +
		"temp_dir: " + s.TempDir + "\n" +
		"artifact_dir: " + s.ArtifactDir + "\n" +
		"worktree_dir: " + s.WorktreeDir + "\n" +
		"log_path: " + s.LogPath + "\n" +
		`Prefer structured workspace tools:
1. Use file_search for bounded recursive name or literal text search.
2. Use file_read for bounded file content and image metadata.
3. Issue independent file_read calls in parallel when several paths are known.
4. Use tool_output_read to continue a spilled result by call id.
5. For file delivery, do not copy the source first. Use a visible delivery tool, or return the authorized path to the parent.
6. Use load_tool directly when the exact specialty tool name is known.
7. Use search_tools when the capability is known but its exact tool name is not.
8. Use shell or an interpreter only when no structured tool expresses the operation.
Choose directories in this order:
1. For declared-project work, omit WorkingDirectory; the shell uses project_dir.
2. For one call in a named child directory, set typed WorkingDirectory.
3. Use temp_dir for disposable files. Standard temporary APIs already use this directory.
4. Use an inline directory change only when the task requests that behavior.
Keep shell approval friction bounded:
1. Start with the smallest single shell operation that directly answers the request.
2. Use one operation per call. Add a pipeline only when the requested result requires it.
3. Do not use shell only to verify a successful structured tool result.
4. If approval is required but no interactive requester is available, do not retry or substitute the call during that turn.
5. After an access denial, do not retry that call during the same user turn.
6. Do not change its scope or substitute another tool to evade the denial.
7. A later explicit user request can start a new call. Apply the normal approval policy to that call.
8. Apply one ` + "`Tool execution deferred:`" + ` correction unchanged; otherwise use a structured tool or report the block once.
temp_dir is private managed temporary storage for disposable files. session_dir is the default workspace when no project is active. Use an explicitly required platform temporary path unchanged. Netclaw does not automatically clean managed temporary storage yet.`
}

// Ported from NetClaw's SessionStoragePathsTests
// .Child_paths_use_the_run_identifier_and_keep_parent_workspace (with
// Version_2_paths_share_one_envelope for the parent's workspace and
// worktrees): the child keeps the parent's workspace and worktrees and
// gets its own temporary, artifact and log places under
// subagents/<run id>.
func TestChildStorage(t *testing.T) {
	envelope := filepath.Join(string(filepath.Separator)+"tmp", "netclaw-storage", "session-42")
	got := ChildStorage(envelope, "run-7")
	childRoot := filepath.Join(envelope, "subagents", "run-7")
	want := SessionStorage{
		SessionDir:  filepath.Join(envelope, "workspace"),
		TempDir:     filepath.Join(childRoot, "tmp"),
		ArtifactDir: filepath.Join(childRoot, "artifacts"),
		WorktreeDir: filepath.Join(envelope, "worktrees"),
		LogPath:     filepath.Join(childRoot, "logs", "session.log"),
	}
	if got != want {
		t.Errorf("ChildStorage = %+v, want %+v", got, want)
	}
}

// Ported from SessionStoragePathsTests
// .Parent_and_child_contexts_share_the_same_storage_guidance: the
// parent's block is the child's with an "id:" line, and both carry the
// note on platform temporary paths; the child's block is byte-exact.
func TestSessionBlock(t *testing.T) {
	st := ChildStorage("/tmp/netclaw-storage/session-42", "run-7")
	child := st.Block("")
	if want := sessionBlockFor(st); child != want {
		t.Errorf("child block\n%q\nwant\n%q", child, want)
	}
	parent := st.Block("session-42")
	if strings.Replace(parent, "\nid: session-42", "", 1) != child {
		t.Errorf("the parent's block is not the child's with an id line:\n%s", parent)
	}
	if !strings.HasPrefix(parent, "[session]\nid: session-42\nsession_dir: ") {
		t.Errorf("the parent's block begins %q", parent[:40])
	}
	if !strings.Contains(child, "Use an explicitly required platform temporary path unchanged.") {
		t.Error("the block lacks the note on platform temporary paths")
	}
	if st.Block("  ") != child {
		t.Error("a blank id gave an id line")
	}
}

// The first message, byte for byte, as SubAgentActor.BuildUserMessage and
// BuildModelContext make it (salma-marei/netclaw @0c8a8a64).
func TestFirstMessage(t *testing.T) {
	st := ChildStorage("/runs/r1/session", "r1")
	session := sessionBlockFor(st)
	git := &GitState{Kind: GitAvailable, Worktree: "/w", CommonDir: "/w/.git", Branch: "main", Head: "abc123", Upstream: "origin/main", Ahead: 1, Staged: 2, Modified: 3, Untracked: 4}
	shell := "[working-context]\nshell:\n  platform: Linux\n  executable: /bin/bash\n  grammar: Bash"
	tests := []struct {
		name     string
		audience preview.Audience
		project  string
		context  string
		storage  *SessionStorage
		git      *GitState
		recent   []string
		want     string
	}{
		{name: "public gets the raw task", audience: preview.Public, project: "/p", storage: &st, git: git, want: "Do it."},
		{name: "public keeps the context, trimmed", audience: preview.Public, context: "  bg  ", storage: &st, want: "Context:\nbg\n\nTask:\nDo it."},
		{name: "team, no project, no storage: raw task", audience: preview.Team, want: "Do it."},
		{name: "team, blank context: raw task", audience: preview.Team, context: " \n\t", want: "Do it."},
		{name: "team, storage only", audience: preview.Team, storage: &st,
			want: "Context:\n" + session + "\n\nTask:\nDo it."},
		{name: "personal, no project: the shell and the session", audience: preview.Personal, storage: &st,
			want: "Context:\n" + shell + "\n\n" + session + "\n\nTask:\nDo it."},
		{name: "personal with context, project, recent files and git", audience: preview.Personal, project: "/p", git: git,
			recent: []string{"b.go", "a.go"}, context: "\nThe service listens on 8080.\n", storage: &st,
			want: "Context:\nThe service listens on 8080.\n\n" + shell +
				"\nproject_dir: /p\nrecent_files:\n  - b.go\n  - a.go\ngit:\n  worktree: /w\n  common_dir: /w/.git\n  branch: main\n  head: abc123\n  upstream: origin/main\n  ahead: 1\n  behind: 0\n  staged: 2\n  modified: 3\n  untracked: 4" +
				"\n\n" + session + "\n\nTask:\nDo it."},
		{name: "team with project and git, no storage", audience: preview.Team, project: "/p", git: git, recent: []string{"b.go"}, context: "ctx\n",
			want: "Context:\nctx\n\n[working-context]\nproject_dir: /p\nrecent_files:\n  - b.go\ngit:\n  worktree: /w\n  common_dir: /w/.git\n  branch: main\n  head: abc123\n  upstream: origin/main\n  ahead: 1\n  behind: 0\n  staged: 2\n  modified: 3\n  untracked: 4\n\nTask:\nDo it."},
		{name: "git unavailable", audience: preview.Team, project: "/p", git: &GitState{Kind: GitUnavailable, Reason: "project directory does not exist"},
			want: "Context:\n[working-context]\nproject_dir: /p\ngit:\n  status: unavailable\n  reason: project directory does not exist\n\nTask:\nDo it."},
		{name: "git not found", audience: preview.Team, project: "/p", git: &GitState{Kind: GitNotFound},
			want: "Context:\n[working-context]\nproject_dir: /p\ngit:\n  status: unavailable\n  reason: git executable not found\n\nTask:\nDo it."},
		{name: "not a repository says nothing of git", audience: preview.Team, project: "/p", git: &GitState{Kind: GitNotRepository},
			want: "Context:\n[working-context]\nproject_dir: /p\n\nTask:\nDo it."},
		{name: "detached", audience: preview.Team, project: "/p", git: &GitState{Kind: GitAvailable, Worktree: "/w", CommonDir: "/c", Detached: true, Head: "ff"},
			want: "Context:\n[working-context]\nproject_dir: /p\ngit:\n  worktree: /w\n  common_dir: /c\n  branch: (detached)\n  head: ff\n  staged: 0\n  modified: 0\n  untracked: 0\n\nTask:\nDo it."},
		{name: "impossible head state is reported", audience: preview.Team, project: "/p", git: &GitState{Kind: GitAvailable, Worktree: "/w", CommonDir: "/c", Ahead: 2},
			want: "Context:\n[working-context]\nproject_dir: /p\ngit:\n  status: unavailable\n  reason: Git divergence requires an upstream.\n\nTask:\nDo it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := WorkingContext{Project: tt.project, RecentFiles: tt.recent}
			if tt.git != nil {
				w.Git = *tt.git
			}
			if tt.audience == preview.Personal {
				w.Shell = &Shell{Platform: "Linux", Executable: "/bin/bash", Grammar: "Bash"}
			}
			got := FirstMessage(tt.context, ModelContext(tt.audience, w, tt.storage), "Do it.")
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// Compose against a real git repository and a real project folder: the
// whole first message, byte for byte, for a Team and a Public spawn.
func TestComposeFirstMessageWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	f := newFixture(t)
	project, err := filepath.EvalSymlinks(f.project)
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "trunk")
	f.write(t, project, "staged.txt", "s\n")
	run("add", "staged.txt")
	f.write(t, project, "loose.txt", "u\n")

	st := ChildStorage(filepath.Join(t.TempDir(), "session"), "run-1")
	in := f.input("Body.")
	in.Project, in.Task, in.Context, in.Session = project, "Find the port.", "It is a Go service.", &st
	in.Git = nil // inspect the repository for real
	in.RecentFiles = []string{"main.go"}

	in.Audience = preview.Team
	got := compose(t, in).FirstMessage
	want := "Context:\nIt is a Go service.\n\n[working-context]\nproject_dir: " + project +
		"\nrecent_files:\n  - main.go\ngit:\n  worktree: " + project + "\n  common_dir: " + filepath.Join(project, ".git") +
		"\n  branch: trunk\n  head: (unborn)\n  staged: 1\n  modified: 0\n  untracked: 1\n\n" +
		sessionBlockFor(st) + "\n\nTask:\nFind the port."
	if got != want {
		t.Errorf("team first message\n%q\nwant\n%q", got, want)
	}

	in.Audience = preview.Public
	if got := compose(t, in).FirstMessage; got != "Context:\nIt is a Go service.\n\nTask:\nFind the port." {
		t.Errorf("public first message %q", got)
	}
	in.Context = ""
	if got := compose(t, in).FirstMessage; got != "Find the port." {
		t.Errorf("public first message without context %q, want the raw task", got)
	}
}

// As NetClaw's SubAgentActorTests assert of the first model call: the
// session folder and each block of tool-choice guidance are in exactly
// one message, the user's, and the system prompt never names the session
// folder.
func TestSessionContextOnlyInTheFirstMessage(t *testing.T) {
	f := newFixture(t)
	st := ChildStorage(filepath.Join(t.TempDir(), "session"), "run-9")
	for _, aud := range []preview.Audience{preview.Personal, preview.Team} {
		in := f.input("Body.")
		in.Audience, in.Session = aud, &st
		r := compose(t, in)
		for _, want := range []string{"session_dir: " + st.SessionDir, "temp_dir: " + st.TempDir, guidanceStructuredWorkspace, guidanceDirectorySelection, guidanceShellComposition} {
			if n := strings.Count(r.FirstMessage, want); n != 1 {
				t.Errorf("%s: the first message holds %.40q %d times", aud, want, n)
			}
			if strings.Contains(r.System, want) {
				t.Errorf("%s: the system prompt holds %.40q", aud, want)
			}
		}
		if strings.Contains(r.System, st.SessionDir) {
			t.Errorf("%s: the system prompt names the session folder", aud)
		}
	}
}
