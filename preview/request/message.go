package request

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentdesk/agentdesk/preview"
)

// The facts in this file follow NetClaw's source. The first message and
// its [session] block follow the latest state of NetClaw's history the
// index holds, the fork salma-marei/netclaw at commit
// 0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4 (the one whose
// ToolRegistrationExtensions.cs the tool catalogue follows):
//   - SubAgentActor.BuildUserMessage and BuildModelContext:
//     src/Netclaw.Actors/SubAgents/SubAgentActor.cs @0c8a8a64 (88,965
//     characters): the model context is the working-context block and
//     SessionContextFormatter.Format(storage), with no session id, for
//     the child's storage (ToolExecutionContext.SessionStorage); nothing
//     for Public. netclaw-dev/netclaw's stored versions are older: the
//     newest (89,315 characters) writes "[session]\nsession_dir: ..." and
//     the guidance only, 502847bf6f99092f50944cea1460acdb89819e23 without
//     the structured-workspace guidance;
//   - SessionContextFormatter.Format:
//     src/Netclaw.Actors/Sessions/SessionContextFormatter.cs @0c8a8a64 (no
//     netclaw-dev version is stored);
//   - ToolChoiceGuidance: src/Netclaw.Actors/Tools/ToolChoiceGuidance.cs
//     @0c8a8a64 (its DirectorySelectionOrder names temp_dir; netclaw-dev's
//     @8a459b116372b693a5b5423ef663104cb1adf338 named session_dir);
//   - a sub-agent's storage folders: SessionStoragePaths.CreateVersion2 and
//     ForChild as NetClaw's SessionStoragePathsTests assert them
//     (Version_2_paths_share_one_envelope,
//     Child_paths_use_the_run_identifier_and_keep_parent_workspace);
//   - WorkingContextSnapshot.ToContextBlock and WorkingContextSnapshotProvider:
//     the newest stored netclaw-dev src/Netclaw.Actors/Sessions/WorkingContextSnapshot.cs
//     (24,840 characters, the one with the shell section; the fork's copy
//     is not stored apart from it);
//   - ShellExecutionEnvironment.CreateBash: "/bin/bash", grammar Bash.

// The tool-choice guidance the [session] block quotes
// (ToolChoiceGuidance @0c8a8a64).
const (
	guidanceStructuredWorkspace = "Prefer structured workspace tools:\n" +
		"1. Use file_search for bounded recursive name or literal text search.\n" +
		"2. Use file_read for bounded file content and image metadata.\n" +
		"3. Issue independent file_read calls in parallel when several paths are known.\n" +
		"4. Use tool_output_read to continue a spilled result by call id.\n" +
		"5. For file delivery, do not copy the source first. Use a visible delivery tool, or return the authorized path to the parent.\n" +
		"6. Use load_tool directly when the exact specialty tool name is known.\n" +
		"7. Use search_tools when the capability is known but its exact tool name is not.\n" +
		"8. Use shell or an interpreter only when no structured tool expresses the operation."
	guidanceDirectorySelection = "Choose directories in this order:\n" +
		"1. For declared-project work, omit WorkingDirectory; the shell uses project_dir.\n" +
		"2. For one call in a named child directory, set typed WorkingDirectory.\n" +
		"3. Use temp_dir for disposable files. Standard temporary APIs already use this directory.\n" +
		"4. Use an inline directory change only when the task requests that behavior."
	guidanceShellComposition = "Keep shell approval friction bounded:\n" +
		"1. Start with the smallest single shell operation that directly answers the request.\n" +
		"2. Use one operation per call. Add a pipeline only when the requested result requires it.\n" +
		"3. Do not use shell only to verify a successful structured tool result.\n" +
		"4. If approval is required but no interactive requester is available, do not retry or substitute the call during that turn.\n" +
		"5. After an access denial, do not retry that call during the same user turn.\n" +
		"6. Do not change its scope or substitute another tool to evade the denial.\n" +
		"7. A later explicit user request can start a new call. Apply the normal approval policy to that call.\n" +
		"8. Apply one `Tool execution deferred:` correction unchanged; otherwise use a structured tool or report the block once."
	// sessionStorageNote closes the [session] block (SessionContextFormatter).
	sessionStorageNote = "temp_dir is private managed temporary storage for disposable files. " +
		"session_dir is the default workspace when no project is active. " +
		"Use an explicitly required platform temporary path unchanged. " +
		"Netclaw does not automatically clean managed temporary storage yet."
)

// Shell is the shell the runtime describes to a Personal session's
// sub-agent (ShellExecutionEnvironment).
type Shell struct {
	Platform, Executable, Grammar string
}

// HostShell is the shell NetClaw's daemon uses on this machine's
// platform: Bash at /bin/bash, on "Linux" or "MacOS".
func HostShell() Shell {
	platform := "Linux"
	if runtime.GOOS == "darwin" {
		platform = "MacOS"
	}
	return Shell{Platform: platform, Executable: "/bin/bash", Grammar: "Bash"}
}

// WorkingContext is the parent session's working state a sub-agent
// inherits (WorkingContextSnapshot): the shell (Personal only), the
// project folder, the files touched recently, and the project's git state.
type WorkingContext struct {
	// Shell is nil except for a Personal session.
	Shell *Shell
	// Project is the project folder; "" for none.
	Project string
	// RecentFiles are the files the parent touched, most recent first.
	RecentFiles []string
	// Git is the project's git state.
	Git GitState
}

// hasControl reports whether s holds a control character (.NET's
// char.IsControl: C0, DEL and C1).
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// Block returns the [working-context] block, "" when there is nothing to
// say (WorkingContextSnapshot.ToContextBlock).
func (w WorkingContext) Block() string {
	project := w.Project
	if hasControl(project) {
		project = "" // WithProjectDirectory refuses it
	}
	if w.Shell == nil && project == "" && len(w.RecentFiles) == 0 &&
		(w.Git.Kind == GitSkipped || w.Git.Kind == GitNotRepository) {
		return ""
	}
	var b strings.Builder
	b.WriteString("[working-context]")
	if s := w.Shell; s != nil {
		b.WriteString("\nshell:\n  platform: " + s.Platform + "\n  executable: " + s.Executable + "\n  grammar: " + s.Grammar)
	}
	if project != "" {
		b.WriteString("\nproject_dir: " + project)
	}
	if len(w.RecentFiles) > 0 {
		b.WriteString("\nrecent_files:")
		for _, f := range w.RecentFiles {
			b.WriteString("\n  - " + f)
		}
	}
	w.Git.write(&b)
	return b.String()
}

// write appends the git: section.
func (g GitState) write(b *strings.Builder) {
	unavailable := func(reason string) {
		b.WriteString("\ngit:\n  status: unavailable\n  reason: " + reason)
	}
	switch g.Kind {
	case GitAvailable:
		if err := g.headCheck(); err != "" {
			unavailable(err)
			return
		}
		b.WriteString("\ngit:\n  worktree: " + g.Worktree + "\n  common_dir: " + g.CommonDir)
		if g.Detached {
			b.WriteString("\n  branch: (detached)\n  head: " + g.Head)
		} else {
			head := g.Head
			if head == "" {
				head = "(unborn)"
			}
			b.WriteString("\n  branch: " + g.Branch + "\n  head: " + head)
			if g.Upstream != "" {
				b.WriteString("\n  upstream: " + g.Upstream + "\n  ahead: " + strconv.Itoa(g.Ahead) + "\n  behind: " + strconv.Itoa(g.Behind))
			}
		}
		b.WriteString("\n  staged: " + strconv.Itoa(g.Staged) + "\n  modified: " + strconv.Itoa(g.Modified) + "\n  untracked: " + strconv.Itoa(g.Untracked))
	case GitUnavailable:
		unavailable(g.Reason)
	case GitNotFound:
		unavailable("git executable not found")
	}
}

// SessionStorage is a session's storage folders as the [session] block
// names them (SessionStoragePaths): the workspace, the private managed
// temporary folder, the artifact and worktree folders, and the session
// log.
type SessionStorage struct {
	SessionDir, TempDir, ArtifactDir, WorktreeDir, LogPath string
}

// Envelope is the version-2 layout's folder names inside a session's
// storage envelope (SessionStoragePaths.CreateVersion2 and ForChild).
const (
	envelopeWorkspace = "workspace"
	envelopeWorktrees = "worktrees"
	envelopeSubagents = "subagents"
)

// ChildStorage returns the storage folders of the sub-agent run runID of
// a session whose storage envelope is envelope, as NetClaw lays them out
// (SessionStoragePaths.CreateVersion2(envelope).ForChild(runID)): the
// parent's workspace and worktrees, the run's own temporary, artifact and
// log places under <envelope>/subagents/<runID>. Paths are joined with
// the host's separator; nothing is created.
func ChildStorage(envelope, runID string) SessionStorage {
	child := filepath.Join(envelope, envelopeSubagents, runID)
	return SessionStorage{
		SessionDir:  filepath.Join(envelope, envelopeWorkspace),
		TempDir:     filepath.Join(child, "tmp"),
		ArtifactDir: filepath.Join(child, "artifacts"),
		WorktreeDir: filepath.Join(envelope, envelopeWorktrees),
		LogPath:     filepath.Join(child, "logs", "session.log"),
	}
}

// Block returns the [session] block for these folders
// (SessionContextFormatter.Format): the "id:" line only when id is not
// blank (a sub-agent's block has none), the five folders, the tool-choice
// guidance and the closing note on temporary storage.
func (s SessionStorage) Block(id string) string { return s.block("", "", id) }

// block is head, sep and the [session] block for id in one string, made
// at once.
func (s SessionStorage) block(head, sep, id string) string {
	idLine := ""
	if !netBlank(id) {
		idLine = "\nid: " + id
	}
	return head + sep + "[session]" + idLine + "\n" +
		"session_dir: " + s.SessionDir + "\n" +
		"temp_dir: " + s.TempDir + "\n" +
		"artifact_dir: " + s.ArtifactDir + "\n" +
		"worktree_dir: " + s.WorktreeDir + "\n" +
		"log_path: " + s.LogPath + "\n" +
		guidanceStructuredWorkspace + "\n" + guidanceDirectorySelection + "\n" + guidanceShellComposition + "\n" +
		sessionStorageNote
}

// ModelContext returns the working context a sub-agent of a session with
// this audience reads in its first message (BuildModelContext): nothing
// for Public, else the [working-context] block and, when the spawn has
// storage, the [session] block without a session id, the blank ones left
// out, joined by a blank line.
func ModelContext(a preview.Audience, w WorkingContext, storage *SessionStorage) string {
	return modelContext(a, w.Block(), storage)
}

// modelContext is ModelContext for the working context's block: the
// [session] block, never blank, joined to it in one string.
func modelContext(a preview.Audience, working string, storage *SessionStorage) string {
	switch {
	case a == preview.Public:
		return ""
	case storage == nil && netBlank(working):
		return ""
	case storage == nil:
		return working
	case netBlank(working):
		return storage.block("", "", "")
	}
	return storage.block(working, "\n\n", "")
}

// FirstMessage returns the first user message of a spawn
// (BuildUserMessage): the runtime context (the spawn's context argument)
// and the model context, each trimmed, the blank ones left out, joined by
// a blank line, as
//
//	"Context:\n" + context + "\n\nTask:\n" + task
//
// or the raw task when both are blank.
func FirstMessage(runtimeContext, modelContext, task string) string {
	rc, mc := netTrim(runtimeContext), netTrim(modelContext)
	switch {
	case rc == "" && mc == "":
		return task
	case rc == "":
		return "Context:\n" + mc + "\n\nTask:\n" + task
	case mc == "":
		return "Context:\n" + rc + "\n\nTask:\n" + task
	}
	return "Context:\n" + rc + "\n\n" + mc + "\n\nTask:\n" + task
}
