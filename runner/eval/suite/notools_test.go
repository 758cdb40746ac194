package suite

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

const toolsOnOffSuite = `cases:
  - name: without a project
    task: Answer without tools.
    expect:
      contains: done
  - name: with a project
    task: Answer with tools.
    project: proj
    expect:
      contains: done
`

// A case without project: offers the model no tools, and its request
// says so: no tool index, no set_working_directory line, no tools on the
// wire. A case with a project gets them. Their recordings' fingerprints
// say which, and replay offline.
func TestCaseWithoutProjectOffersNoTools(t *testing.T) {
	f := newFixture(t)
	hometest.WriteFile(t, filepath.Join(f.home.Agents, "proj", "README.md"), "a project\n")
	f.on("Answer without tools.", modeltest.Reply("done"))
	f.on("Answer with tools.", modeltest.Reply("done"))
	path := f.suite(toolsOnOffSuite)
	if got, want := statuses(f.run(evalrec.Record, path)), []string{"without a project: pass 1/1", "with a project: pass 1/1"}; !slices.Equal(got, want) {
		t.Fatalf("record: %q, want %q", got, want)
	}
	seen := map[string]bool{}
	for _, r := range f.srv.Requests() {
		user := r.FirstUser()
		noTools := strings.HasSuffix(user, "Task:\nAnswer without tools.")
		if !noTools && !strings.HasSuffix(user, "Task:\nAnswer with tools.") {
			continue
		}
		seen[user[strings.LastIndex(user, "\n")+1:]] = true
		hasIndex := strings.Contains(r.System, "[directly callable core tools]")
		hasScope := strings.Contains(r.System, "set_working_directory")
		if hasIndex == noTools || hasScope == noTools || (len(r.Tools) == 0) != noTools {
			t.Errorf("%q: tool index %v, set_working_directory line %v, tools on the wire %v", user[strings.LastIndex(user, "\n")+1:], hasIndex, hasScope, r.Tools)
		}
		if noTools && !strings.HasSuffix(r.System, "You are a tester.\n\n"+request.ExecutionContract(false)) {
			t.Errorf("the project-less case's system prompt:\n%s", r.System)
		}
	}
	if len(seen) != 2 {
		t.Fatalf("requests seen for %v, want both cases", seen)
	}
	// The fingerprints: the tool index and the tool schemas only for the
	// case with a project.
	files, _ := filepath.Glob(filepath.Join(evalrec.Folder(path), "*"))
	found := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		head, _, _ := strings.Cut(string(b), "\n")
		withProject := strings.Contains(head, `"case":"with a project"`)
		if !withProject && !strings.Contains(head, `"case":"without a project"`) {
			continue
		}
		found++
		var rec struct {
			Fingerprint evalrec.Fingerprint `json:"fingerprint"`
		}
		if err := json.Unmarshal([]byte(head), &rec); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		none := map[string]string{
			evalrec.PartSystemPrompt + ": " + request.PartToolIndex: evalrec.NewDigest("", "none", "").SHA256,
			PartToolSchemas: evalrec.NewDigest("", "[]", "").SHA256,
		}
		for name, empty := range none {
			part, ok := rec.Fingerprint.Get(name)
			if !ok {
				t.Fatalf("%s: no %q in the fingerprint", filepath.Base(p), name)
			}
			if offered := part.SHA256 != empty; offered != withProject {
				t.Errorf("%s: %q names tools %v, want %v", filepath.Base(p), name, offered, withProject)
			}
		}
	}
	if found != 2 {
		t.Fatalf("%d recordings of the two cases in %v", found, files)
	}
	f.srv.Close()
	if got, want := statuses(f.run(evalrec.Offline, path)), []string{"without a project: pass 1/1", "with a project: pass 1/1"}; !slices.Equal(got, want) {
		t.Errorf("offline: %q, want %q", got, want)
	}
}
