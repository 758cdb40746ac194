package runner

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/overlay"
)

// observedChanges is what NetClaw's SubAgentSpawner would hand over as
// ObservedChangedFiles for a run whose copy of project ends with changes
// (EnrichWorkingContextResultAsync and CanonicalChangedFiles
// @28ddf700169220c86c596debd17d5d8dc03bfe7c): the files git status lists
// at the end, less those it listed at the start, as absolute paths in the
// worktree. The confirmed files are taken out by runfolder.NewParentRecord.
//
// NetClaw runs git in the shared worktree; a trial's worktree is the
// run's copy, which starts equal to the project, so git's start is the
// project's own state (git: its status, read once the run ended, as the
// project never changes) and git's end is that state with changes laid
// over it. A change git would not list is left out: one under .git, one
// git ignores, one on a file the project's status already lists (or
// inside a folder it lists as untracked). A file added in a folder the
// project lacks is listed as git lists it: the new folder, with a
// trailing slash. Without git (no repository, no git, a failed
// inspection) nothing is observed, as in NetClaw.
func observedChanges(ctx context.Context, project string, git *request.GitState, changes []overlay.Change) []string {
	if project == "" || git == nil || git.Kind != request.GitAvailable || len(changes) == 0 {
		return nil
	}
	base := project
	if real, err := filepath.EvalSymlinks(project); err == nil {
		base = real
	}
	rel, err := filepath.Rel(git.Worktree, base)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	before := map[string]bool{}
	var beforeDirs []string
	for _, p := range git.ChangedFiles {
		before[p] = true
		if strings.HasSuffix(p, "/") {
			beforeDirs = append(beforeDirs, p)
		}
	}
	var candidates []string
	for _, c := range changes {
		if underGitDir(c.Path) {
			continue
		}
		candidates = append(candidates, c.Path)
	}
	ignored := gitIgnored(ctx, project, candidates)
	seen := map[string]bool{}
	var out []string
	for _, c := range changes {
		if underGitDir(c.Path) || ignored[c.Path] {
			continue
		}
		p := c.Path
		if c.Kind == overlay.Added {
			p = newFolder(project, p)
		}
		// The path as git status names it: relative to the worktree,
		// slash-separated.
		entry := path.Join(filepath.ToSlash(rel), p)
		if strings.HasSuffix(p, "/") {
			entry += "/"
		}
		if before[entry] || underAny(entry, beforeDirs) || seen[entry] {
			continue
		}
		seen[entry] = true
		abs := filepath.Join(git.Worktree, filepath.FromSlash(entry))
		if strings.HasSuffix(entry, "/") {
			abs += string(filepath.Separator)
		}
		out = append(out, abs)
	}
	return out
}

// underGitDir says whether the project-relative slash path p lies in a
// .git folder, which git status never lists.
func underGitDir(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// underAny says whether entry lies inside one of the folders dirs (each
// ending in "/").
func underAny(entry string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(entry, d) {
			return true
		}
	}
	return false
}

// newFolder is the added file p (project-relative, slash-separated) as
// git status --untracked-files=normal lists it: its outermost folder
// missing from the project, with a trailing slash, or p itself when its
// folder is there.
func newFolder(project, p string) string {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		if _, err := os.Lstat(filepath.Join(project, filepath.FromSlash(dir))); err != nil {
			return dir + "/"
		}
	}
	return p
}

// gitIgnored asks git which of the project-relative paths it ignores
// (`git check-ignore`, which counts no tracked file as ignored). It only
// reads the project. A failure ignores nothing.
func gitIgnored(ctx context.Context, project string, paths []string) map[string]bool {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, request.GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "check-ignore", "-z", "--stdin")
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = time.Second
	var stdin, stdout bytes.Buffer
	for _, p := range paths {
		stdin.WriteString(filepath.FromSlash(p))
		stdin.WriteByte(0)
	}
	cmd.Stdin, cmd.Stdout = &stdin, &stdout
	// Exit status 1: none is ignored.
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		return out
	}
	for _, p := range strings.Split(stdout.String(), "\x00") {
		if p != "" {
			out[filepath.ToSlash(p)] = true
		}
	}
	return out
}
