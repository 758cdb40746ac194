package runner

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/cassette"
)

// TestReplayPatchOfAnOlderCassette: a cassette without a recorded patch
// still gives its replay a patch of what it holds: the added file in full,
// the files whose old content it lacks listed in the header.
func TestReplayPatchOfAnOlderCassette(t *testing.T) {
	added, edited := "port 8080\n", "new\n"
	tape := &cassette.Cassette{Changes: []cassette.Change{
		{Path: "notes/port.md", Kind: "added", Content: &added},
		{Path: "README.md", Kind: "modified", Content: &edited},
		{Path: "old.md", Kind: "deleted"},
	}}
	got := replayPatch(tape)
	for _, want := range []string{
		"#   README.md (modified, its content before the run was not recorded)\n#   old.md (deleted, its content before the run was not recorded)\n",
		"diff --git a/notes/port.md b/notes/port.md\nnew file mode 100644\n--- /dev/null\n+++ b/notes/port.md\n@@ -0,0 +1 @@\n+port 8080\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("patch lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "a/README.md") {
		t.Errorf("the patch diffs a file whose old content is unknown:\n%s", got)
	}
	tape.Patch = "recorded\n"
	if got := replayPatch(tape); got != "recorded\n" {
		t.Errorf("with a recorded patch: %q", got)
	}
}
