package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// mocksOf converts a case's mocks for the runner: a mocked call is not
// run, is labelled mocked, and counts for expect: tools: like any call.
func mocksOf(ms []suitefile.Mock) tools.Mocker {
	if len(ms) == 0 {
		return nil
	}
	out := make(tools.Mocks, len(ms))
	for i, m := range ms {
		out[i] = tools.Mock{Tool: m.Tool, Args: m.Args, Result: m.Result}
		if m.IsError {
			out[i].Error = m.Error
			if out[i].Error == "" {
				out[i].Error = "Error: (mocked failure)"
			}
		}
	}
	return out
}

// CheckChanges returns the expect: changes: items the run did not meet.
// changes are what the run changed in its overlay (runner.Run.Changes: a
// live run's, or a replay's from its recording); project is the case's
// project folder, read for a file the run did not change ("" when there
// is none to read).
func CheckChanges(want []suitefile.Change, changes []overlay.Change, project string) []Failure {
	var out []Failure
	byPath := map[string]overlay.Change{}
	for _, c := range changes {
		byPath[c.Path] = c
	}
	for _, w := range want {
		p := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(w.Path)), "./")
		var f *Failure
		if w.Unchanged {
			f = checkUnchanged(w, p, changes)
		} else {
			f = checkContains(w, p, byPath, project)
		}
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// checkUnchanged checks an "unchanged" item w (its path p, clean and
// slashed): the run changed neither the file nor, for a folder (a path
// ending in /), anything in it. The failure lists what it changed.
func checkUnchanged(w suitefile.Change, p string, changes []overlay.Change) *Failure {
	var touched []string
	for _, c := range changes {
		if c.Path == p || strings.HasSuffix(w.Path, "/") && strings.HasPrefix(c.Path, strings.TrimSuffix(p, "/")+"/") || p == "." {
			touched = append(touched, string(c.Kind)+" "+c.Path)
		}
	}
	if len(touched) == 0 {
		return nil
	}
	return &Failure{Key: "changes", Expect: "changes: " + w.Path + " unchanged",
		Message: fmt.Sprintf("the run changed %s", w.Path), Lines: firstN(touched, maxLines)}
}

// checkContains checks a "contains" item w (its path p, clean and
// slashed): the file as the run left it holds the text, whether the run
// wrote it (byPath) or it is the project's, unchanged.
func checkContains(w suitefile.Change, p string, byPath map[string]overlay.Change, project string) *Failure {
	expect := fmt.Sprintf("changes: %s contains %q", w.Path, w.Contains)
	c, changed := byPath[p]
	var text string
	switch {
	case changed && c.Kind == overlay.Deleted:
		return &Failure{Key: "changes", Expect: expect, Message: "the run deleted " + w.Path}
	case changed && c.New == nil && c.Binary:
		return &Failure{Key: "changes", Expect: expect, Message: w.Path + " is binary or too large to check"}
	case changed:
		text = lint.DecodeText(c.New)
	default:
		data, err := readProjectFile(project, p)
		if err != nil {
			return &Failure{Key: "changes", Expect: expect, Message: fmt.Sprintf("the run did not write %s, and the project has no such file", w.Path)}
		}
		text = lint.DecodeText(data)
	}
	if strings.Contains(text, w.Contains) {
		return nil
	}
	how := "the run wrote " + w.Path
	if !changed {
		how = "the run did not change " + w.Path
	}
	return &Failure{Key: "changes", Expect: expect, Message: how + ", but it does not hold the text", Lines: headLines(text)}
}

// readProjectFile reads a file of the project the run did not change,
// confined to the project (no path that leads out, no link out of it).
func readProjectFile(project, rel string) ([]byte, error) {
	if project == "" {
		return nil, os.ErrNotExist
	}
	root, err := os.OpenRoot(project)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.ReadFile(filepath.FromSlash(rel))
}

// firstN returns at most n of ss.
func firstN(ss []string, n int) []string {
	if len(ss) > n {
		return ss[:n]
	}
	return ss
}
