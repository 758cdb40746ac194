package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRunSaysWhatChanged: a run that changes files says so on stderr, with
// the command that applies its patch, and lists them in result.md; its
// replay writes the same changes.patch and says the same.
func TestRunSaysWhatChanged(t *testing.T) {
	srv, env, runs := trialHome(t, wire.OpenAI)
	srv.Enqueue(
		modeltest.Script{Steps: []modeltest.Step{
			modeltest.ToolCall("c1", "file_write", `{"Path":"notes/port.md","Content":"8080\n","_rationale":"note"}`),
			modeltest.ToolCall("c2", "file_edit", `{"Path":"README.md","OldString":"8080","NewString":"9090","_rationale":"fix"}`),
			modeltest.Finish(modeltest.FinishTools)}},
		modeltest.Reply("Done."),
	)
	project := toolProject(t)
	code, _, stderr := runTrialCmd(t, env, "", "run", "code-analyst", "--task", "Note the port.", "--project", project, "--record")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	list, _ := runfolder.ListRuns(runs, runfolder.Filter{})
	if len(list) != 1 {
		t.Fatalf("runs %+v", list)
	}
	dir := list[0].Dir
	want := "changed 2 files in the run's copy (project untouched): git -C " + project + " apply " + filepath.Join(dir, runfolder.PatchFile) + "\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	// Both files are confirmed (file_write, file_edit), in ordinal order,
	// not in call order; the project is no git repository: none observed.
	confirmed := "  files changed (file_write, file_edit): " + filepath.Join(project, "README.md") + ", " + filepath.Join(project, "notes", "port.md") + "\n" +
		"  files changed otherwise (git): none (the parent gets them in working_context)\n"
	if !strings.Contains(stderr, confirmed) {
		t.Errorf("stderr lacks %q:\n%s", confirmed, stderr)
	}
	md, _ := os.ReadFile(filepath.Join(dir, runfolder.ResultFile))
	for _, s := range []string{"\n## Changes\n\nThe run made these changes in its copy of the project. The project is untouched.\n",
		"- modified README.md\n- added notes/port.md\n"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("result.md lacks %q:\n%s", s, md)
		}
	}
	patch, err := os.ReadFile(filepath.Join(dir, runfolder.PatchFile))
	if err != nil {
		t.Fatal(err)
	}

	// The replay: no project, the same patch.
	srv.Close()
	os.RemoveAll(project)
	code, _, stderr = runTrialCmd(t, env, "", "run", "--replay", filepath.Join(dir, runfolder.StreamFile), "--fast")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, stderr)
	}
	list, _ = runfolder.ListRuns(runs, runfolder.Filter{})
	var replay string
	for _, r := range list {
		if r.Dir != dir {
			replay = r.Dir
		}
	}
	got, err := os.ReadFile(filepath.Join(replay, runfolder.PatchFile))
	if err != nil || string(got) != string(patch) {
		t.Errorf("the replay's changes.patch (%v):\n%s\nwant the recorded run's:\n%s", err, got, patch)
	}
	want = "the recorded run changed 2 files in its copy (project untouched): git apply " + filepath.Join(replay, runfolder.PatchFile) + "\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("replay stderr lacks %q:\n%s", want, stderr)
	}
}
