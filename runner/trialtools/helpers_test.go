package trialtools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretText is the content of every file outside the project folder; no
// result may ever hold it.
const secretText = "TOP-SECRET-outside-the-project"

// fixture is a project folder with files, links and an outside world.
type fixture struct {
	outer  string // holds root, secret.txt and outside/
	root   string // the project folder
	secret string // a file outside the project
	tb     *Toolbox
}

// newFixture builds:
//
//	outer/secret.txt                 outside
//	outer/outside/inner.txt          outside
//	outer/project/a.txt              "alpha\nbeta\ngamma\n"
//	outer/project/docs/b.md
//	outer/project/docs/deep/c.md
//	outer/project/empty/             an empty folder
//	outer/project/link-inside        -> docs/b.md
//	outer/project/linkdir-inside     -> docs
//	outer/project/link-abs-inside    -> <abs>/project/docs/b.md
//	outer/project/link-out           -> ../secret.txt
//	outer/project/link-out-abs       -> <abs>/secret.txt
//	outer/project/linkdir-out        -> ../outside
//	outer/project/chain1 -> chain2 -> chain3 -> ../secret.txt
//	outer/project/docs/up            -> ../../secret.txt
//	outer/project/devnull            -> /dev/null
//	outer/project/loop1 <-> loop2
//	outer/project/broken             -> nowhere
func newFixture(t testing.TB) *fixture {
	t.Helper()
	outer := t.TempDir()
	f := &fixture{outer: outer, root: filepath.Join(outer, "project"), secret: filepath.Join(outer, "secret.txt")}
	writeFile(t, f.secret, secretText+"\n")
	writeFile(t, filepath.Join(outer, "outside", "inner.txt"), secretText+"\n")
	writeFile(t, filepath.Join(f.root, "a.txt"), "alpha\nbeta\ngamma\n")
	writeFile(t, filepath.Join(f.root, "docs", "b.md"), "# B\n\nbody of b\n")
	writeFile(t, filepath.Join(f.root, "docs", "deep", "c.md"), "# C\n")
	mkdir(t, filepath.Join(f.root, "empty"))
	links := map[string]string{
		"link-inside":     "docs/b.md",
		"linkdir-inside":  "docs",
		"link-abs-inside": filepath.Join(f.root, "docs", "b.md"),
		"link-out":        "../secret.txt",
		"link-out-abs":    f.secret,
		"linkdir-out":     "../outside",
		"chain1":          "chain2",
		"chain2":          "docs/chain3",
		"docs/chain3":     "../../secret.txt",
		"docs/up":         "../../secret.txt",
		"devnull":         "/dev/null",
		"loop1":           "loop2",
		"loop2":           "loop1",
		"broken":          "nowhere",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(f.root, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	tb, err := New(f.root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	f.tb = tb
	return f
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// call runs one tool call and checks what every result must satisfy.
func call(t testing.TB, tb *Toolbox, name, args string) Result {
	t.Helper()
	r := tb.Call(context.Background(), name, json.RawMessage(args))
	checkResult(t, r)
	return r
}

// checkResult checks the invariants of any result.
func checkResult(t testing.TB, r Result) {
	t.Helper()
	if strings.Contains(r.Text, secretText) {
		t.Fatalf("a result holds the content of a file outside the project:\n%s", r.Text)
	}
	if r.Refused && !r.IsError {
		t.Fatalf("a refused result is not an error: %+v", r)
	}
	if r.Text == "" {
		t.Fatalf("an empty result: %+v", r)
	}
}

// readArgsJSON builds file_read arguments.
func readArgsJSON(path string) string {
	b, _ := json.Marshal(map[string]string{"path": path})
	return string(b)
}
