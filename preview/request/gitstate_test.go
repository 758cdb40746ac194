package request

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseGitStatus(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    GitState
		wantErr string
	}{
		{name: "clean tracking branch", out: "# branch.oid 1111\n# branch.head main\n# branch.upstream origin/main\n# branch.ab +2 -3\n",
			want: GitState{Kind: GitAvailable, Head: "1111", Branch: "main", Upstream: "origin/main", Ahead: 2, Behind: 3}},
		{name: "unborn", out: "# branch.oid (initial)\n# branch.head main\n? new.txt\n",
			want: GitState{Kind: GitAvailable, Branch: "main", Untracked: 1, ChangedFiles: []string{"new.txt"}}},
		{name: "detached", out: "# branch.oid abcd\n# branch.head (detached)\n",
			want: GitState{Kind: GitAvailable, Head: "abcd", Detached: true}},
		{name: "changes", out: "# branch.oid a\n# branch.head dev\n1 M. N... 100644 100644 100644 x y src/a b.go\n1 .M N... 100644 100644 100644 x y b.go\n2 R. N... 100644 100644 100644 x y R100 new.go\told.go\nu UU N... 1 2 3 4 h1 h2 h3 conflict.go\n",
			want: GitState{Kind: GitAvailable, Head: "a", Branch: "dev", Staged: 3, Modified: 2, ChangedFiles: []string{"src/a b.go", "b.go", "new.go", "conflict.go"}}},
		{name: "bad ahead/behind", out: "# branch.head main\n# branch.upstream o/m\n# branch.ab +x -1\n", wantErr: "invalid ahead/behind"},
		{name: "bad file status", out: "1 MMM rest\n", wantErr: "invalid file-status"},
		{name: "divergence without upstream", out: "# branch.head main\n# branch.ab +1 -0\n", wantErr: "Git divergence requires an upstream."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseGitStatus("/w", "/w/.git", tt.out)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Worktree, tt.want.CommonDir = "/w", "/w/.git"
			if !equalGit(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func equalGit(a, b GitState) bool {
	return a.Kind == b.Kind && a.Reason == b.Reason && a.Worktree == b.Worktree && a.CommonDir == b.CommonDir &&
		a.Branch == b.Branch && a.Head == b.Head && a.Detached == b.Detached && a.Upstream == b.Upstream &&
		a.Ahead == b.Ahead && a.Behind == b.Behind && a.Staged == b.Staged && a.Modified == b.Modified &&
		a.Untracked == b.Untracked && strings.Join(a.ChangedFiles, "\x00") == strings.Join(b.ChangedFiles, "\x00")
}

func FuzzParseGitStatus(f *testing.F) {
	f.Add("# branch.oid 1\n# branch.head main\n# branch.upstream o/m\n# branch.ab +1 -2\n? x\n")
	f.Add("1 M. N... 1 2 3 a b p\n2 R. N... 1 2 3 a b R1 n\to\nu UU N... 1 2 3 4 a b c d\n")
	f.Add("# branch.head (detached)\n# branch.oid z\n")
	f.Fuzz(func(t *testing.T, out string) {
		st, err := ParseGitStatus("/w", "/c", out)
		if err != nil {
			return
		}
		var b strings.Builder
		st.write(&b) // never panics
		if st.Staged < 0 || st.Modified < 0 || st.Untracked < 0 {
			t.Fatalf("negative counts: %+v", st)
		}
	})
}

// InspectGit against real repositories made by the git on this machine.
func TestInspectGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	git := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Run("repository", func(t *testing.T) {
		dir := t.TempDir()
		git(t, dir, "init", "-q", "-b", "trunk")
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, dir, "add", "a.txt")
		git(t, dir, "commit", "-q", "-m", "one")
		if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("n"), 0o644); err != nil {
			t.Fatal(err)
		}
		index := filepath.Join(dir, ".git", "index")
		before, _ := os.Stat(index)
		st := InspectGit(context.Background(), dir)
		if st.Kind != GitAvailable || st.Branch != "trunk" || st.Modified != 1 || st.Untracked != 1 || st.Staged != 0 || len(st.Head) < 7 {
			t.Fatalf("state %+v", st)
		}
		real, _ := filepath.EvalSymlinks(dir)
		if st.Worktree != real {
			t.Errorf("worktree %q, want %q", st.Worktree, real)
		}
		if after, _ := os.Stat(index); !after.ModTime().Equal(before.ModTime()) {
			t.Error("inspecting the project rewrote its git index")
		}
	})
	t.Run("not a repository", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
		if st := InspectGit(context.Background(), dir); st.Kind != GitNotRepository {
			t.Errorf("state %+v", st)
		}
	})
	t.Run("no folder", func(t *testing.T) {
		st := InspectGit(context.Background(), filepath.Join(t.TempDir(), "gone"))
		if st.Kind != GitUnavailable || st.Reason != "project directory does not exist" {
			t.Errorf("state %+v", st)
		}
	})
	t.Run("no git", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		if st := InspectGit(context.Background(), t.TempDir()); st.Kind != GitNotFound {
			t.Errorf("state %+v", st)
		}
	})
}
