package request

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// GitKind says what inspecting the project's git state found
// (GitWorkingContextInspection).
type GitKind int

// The outcomes of a git inspection.
const (
	// GitSkipped: no project, or a Public session; nothing is said.
	GitSkipped GitKind = iota
	// GitAvailable: the state was read.
	GitAvailable
	// GitNotRepository: the project is not in a repository; nothing is said.
	GitNotRepository
	// GitNotFound: no git executable.
	GitNotFound
	// GitUnavailable: git failed; Reason says how.
	GitUnavailable
)

// GitState is a project's git state as the runtime reads it with
// `git rev-parse` and `git status --porcelain=v2 --branch`.
type GitState struct {
	Kind   GitKind
	Reason string

	Worktree, CommonDir string
	Branch, Head        string
	Detached            bool
	Upstream            string
	Ahead, Behind       int
	Staged, Modified    int
	Untracked           int
	// ChangedFiles are the paths git status lists, in its order.
	ChangedFiles []string
}

// GitTimeout bounds one inspection, both git commands together.
const GitTimeout = 2 * time.Second

// maxGitOutput caps what is kept of a git command's output.
const maxGitOutput = 256 * 1024

// InspectGit reads the git state of project as the runtime's
// GitWorkingContextInspector does. It runs git with GIT_OPTIONAL_LOCKS=0,
// so the status refresh never writes the project's index. A folder that
// does not exist is GitUnavailable "project directory does not exist".
func InspectGit(ctx context.Context, project string) GitState {
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return GitState{Kind: GitUnavailable, Reason: "project directory does not exist"}
	}
	ctx, cancel := context.WithTimeout(ctx, GitTimeout)
	defer cancel()
	out, failure, kind := runGit(ctx, project, "rev-parse", "--show-toplevel", "--path-format=absolute", "--git-common-dir")
	if kind != GitAvailable {
		if kind == GitUnavailable {
			return GitState{Kind: kind, Reason: sanitizeReason(failure)}
		}
		return GitState{Kind: kind}
	}
	var roots []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			roots = append(roots, l)
		}
	}
	if len(roots) != 2 {
		return GitState{Kind: GitUnavailable, Reason: "git returned an unexpected repository-root response"}
	}
	out, failure, kind = runGit(ctx, project, "status", "--porcelain=v2", "--branch", "--untracked-files=normal")
	switch kind {
	case GitAvailable:
	case GitNotFound:
		return GitState{Kind: kind}
	default:
		return GitState{Kind: GitUnavailable, Reason: sanitizeReason(failure)}
	}
	st, err := ParseGitStatus(roots[0], roots[1], out)
	if err != nil {
		return GitState{Kind: GitUnavailable, Reason: sanitizeReason(err.Error())}
	}
	return st
}

// runGit runs one git command in dir. It returns stdout, or the failure
// text and its kind: GitNotFound, GitNotRepository (stderr says "not a git
// repository"), GitUnavailable.
func runGit(ctx context.Context, dir string, args ...string) (string, string, GitKind) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &capped{b: &stdout}, &capped{b: &stderr}
	err := cmd.Run()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", "git executable not found", GitNotFound
		}
		if ctx.Err() != nil {
			return "", "git inspection timed out", GitUnavailable
		}
		if strings.Contains(strings.ToLower(stderr.String()), "not a git repository") {
			return "", "", GitNotRepository
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if strings.TrimSpace(stderr.String()) == "" {
				return "", "git exited with code " + strconv.Itoa(ee.ExitCode()), GitUnavailable
			}
			return "", stderr.String(), GitUnavailable
		}
		return "", err.Error(), GitUnavailable
	}
	return stdout.String(), "", GitAvailable
}

// capped keeps the first maxGitOutput bytes written to it.
type capped struct{ b *bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxGitOutput - c.b.Len(); room > 0 {
		if len(p) > room {
			c.b.Write(p[:room])
		} else {
			c.b.Write(p)
		}
	}
	return len(p), nil
}

// sanitizeReason keeps a failure's first non-empty line, at most 200
// characters (SanitizeReason).
func sanitizeReason(reason string) string {
	line := "inspection failed"
	for _, l := range strings.FieldsFunc(reason, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if l != "" {
			line = l
			break
		}
	}
	if r := []rune(line); len(r) > 200 {
		line = string(r[:200])
	}
	return line
}

// errGit is a git status that does not parse.
type errGit string

func (e errGit) Error() string { return string(e) }

// ParseGitStatus reads the output of `git status --porcelain=v2 --branch`
// for a worktree and its common git folder, as the runtime's ParseStatus
// does. Head-state rules the runtime enforces (a detached head has no
// branch or upstream; ahead and behind need an upstream) are errors.
func ParseGitStatus(worktree, commonDir, output string) (GitState, error) {
	st := GitState{Kind: GitAvailable, Worktree: worktree, CommonDir: commonDir}
	for _, line := range strings.Split(output, "\n") {
		var err error
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "# "):
			err = st.branchLine(line)
		default:
			err = st.entryLine(line)
		}
		if err != nil {
			return GitState{}, err
		}
	}
	if msg := st.headCheck(); msg != "" {
		return GitState{}, errGit(msg)
	}
	return st, nil
}

// branchLine reads one "# branch.*" header line of the status: the head
// commit, the branch (or a detached head), the upstream, and the ahead
// and behind counts. Other header lines are ignored.
func (st *GitState) branchLine(line string) error {
	switch {
	case strings.HasPrefix(line, "# branch.oid "):
		v := strings.TrimSpace(line[13:])
		if v == "(initial)" {
			v = ""
		}
		st.Head = v
	case strings.HasPrefix(line, "# branch.head "):
		v := strings.TrimSpace(line[14:])
		st.Detached = v == "(detached)"
		st.Branch = v
		if st.Detached {
			st.Branch = ""
		}
	case strings.HasPrefix(line, "# branch.upstream "):
		st.Upstream = strings.TrimSpace(line[18:])
	case strings.HasPrefix(line, "# branch.ab "):
		f := strings.Fields(line[12:])
		var e1, e2 error
		if len(f) == 2 {
			st.Ahead, e1 = strconv.Atoi(strings.TrimLeft(f[0], "+"))
			st.Behind, e2 = strconv.Atoi(strings.TrimLeft(f[1], "-"))
		}
		if len(f) != 2 || e1 != nil || e2 != nil {
			return errGit("git returned an invalid ahead/behind response")
		}
	}
	return nil
}

// entryLine reads one file line of the status: untracked ("? "), changed
// or renamed ("1 ", "2 ", counted as staged and modified by their XY
// field) or unmerged ("u ", both), adding the file to ChangedFiles.
// Other lines are ignored.
func (st *GitState) entryLine(line string) error {
	switch {
	case strings.HasPrefix(line, "? "):
		st.Untracked++
		st.ChangedFiles = append(st.ChangedFiles, line[2:])
	case strings.HasPrefix(line, "1 "), strings.HasPrefix(line, "2 "):
		return st.changedEntry(line, line[0] == '2')
	case strings.HasPrefix(line, "u "):
		st.Staged++
		st.Modified++
		f := strings.SplitN(line, " ", 11)
		st.ChangedFiles = append(st.ChangedFiles, f[len(f)-1])
	}
	return nil
}

// changedEntry reads an ordinary ("1 ") or, with rename, a renamed or
// copied ("2 ") entry: its XY field counts it as staged and as modified,
// and its path (the new one, for a rename) joins ChangedFiles.
func (st *GitState) changedEntry(line string, rename bool) error {
	n := 9
	if rename {
		n = 10
	}
	f := strings.SplitN(line, " ", n)
	if len(f) < 2 || len(f[1]) != 2 {
		return errGit("git returned an invalid file-status response")
	}
	if f[1][0] != '.' {
		st.Staged++
	}
	if f[1][1] != '.' {
		st.Modified++
	}
	last := f[len(f)-1]
	if rename {
		last, _, _ = strings.Cut(last, "\t")
	}
	st.ChangedFiles = append(st.ChangedFiles, last)
	return nil
}

// headCheck returns the runtime's complaint about an impossible head
// state (GitHeadState.Create), "" when it is fine.
func (g GitState) headCheck() string {
	if g.Detached {
		if g.Branch != "" || g.Upstream != "" || g.Ahead != 0 || g.Behind != 0 {
			return "A detached Git head cannot carry branch or tracking metadata."
		}
		if strings.TrimSpace(g.Head) == "" {
			return "A detached Git head requires a commit."
		}
		return ""
	}
	if g.Upstream == "" && (g.Ahead != 0 || g.Behind != 0) {
		return "Git divergence requires an upstream."
	}
	if g.Upstream != "" && (g.Ahead < 0 || g.Behind < 0) {
		return "Git tracking requires an upstream and nonnegative counts."
	}
	return ""
}
