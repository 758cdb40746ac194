package request

import (
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentdesk/agentdesk/preview"
)

// The facts in this file follow NetClaw's source, netclaw-dev/netclaw:
//   - SubAgentActor.BuildUserMessage and BuildModelContext: the newest
//     stored src/Netclaw.Actors/SubAgents/SubAgentActor.cs (89,315 bytes);
//   - WorkingContextSnapshot.ToContextBlock and WorkingContextSnapshotProvider:
//     the newest stored src/Netclaw.Actors/Sessions/WorkingContextSnapshot.cs
//     (24,840 bytes, the one with the shell section);
//   - ShellExecutionEnvironment.CreateBash: "/bin/bash", grammar Bash;
//   - ToolChoiceGuidance: the stored src/Netclaw.Actors/Tools/ToolChoiceGuidance.cs
//     (2,404 bytes) whose DirectorySelectionOrder names session_dir, as the
//     [session] block that quotes it does.

// The tool-choice guidance the [session] block quotes.
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
		"3. Use session_dir for disposable writable work outside a project; do not substitute platform temporary storage.\n" +
		"4. Use an inline directory change only when the task requests that behavior."
	guidanceShellComposition = "Keep shell approval friction bounded:\n" +
		"1. Start with the smallest single shell operation that directly answers the request.\n" +
		"2. Use one operation per call. Add a pipeline only when the requested result requires it.\n" +
		"3. Do not use shell only to verify a successful structured tool result.\n" +
		"4. After an approval-required result, do not retry or substitute shell variants.\n" +
		"5. A `Tool access denied:` result is terminal; do not change scope, retry, or substitute another tool.\n" +
		"6. Apply one `Tool execution deferred:` correction unchanged; otherwise use a structured tool or report the block once."
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

// SessionBlock returns the [session] block for a session folder, "" when
// the folder is blank or holds a control character.
func SessionBlock(sessionDir string) string {
	if netBlank(sessionDir) || hasControl(sessionDir) {
		return ""
	}
	return "[session]\nsession_dir: " + sessionDir + "\n" +
		guidanceStructuredWorkspace + "\n" + guidanceDirectorySelection + "\n" + guidanceShellComposition
}

// ModelContext returns the working context a sub-agent of a session with
// this audience reads in its first message (BuildModelContext): nothing
// for Public, else the [working-context] and [session] blocks.
func ModelContext(a preview.Audience, w WorkingContext, sessionDir string) string {
	if a == preview.Public {
		return ""
	}
	var blocks []string
	for _, s := range []string{w.Block(), SessionBlock(sessionDir)} {
		if !netBlank(s) {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n\n")
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
	var parts []string
	for _, s := range []string{runtimeContext, modelContext} {
		if !netBlank(s) {
			parts = append(parts, netTrim(s))
		}
	}
	if len(parts) == 0 {
		return task
	}
	return "Context:\n" + strings.Join(parts, "\n\n") + "\n\nTask:\n" + task
}
