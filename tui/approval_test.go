package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/lint/vocab"

	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// approvalHome is a run home whose project holds notes.md, with a run
// that calls shell_execute and then file_write.
func approvalHome(t *testing.T) (*runHome, string) {
	rh := newRunHome(t, 100, 32)
	project := filepath.Join(rh.tmp, "project")
	hometest.WriteFile(t, filepath.Join(project, "notes.md"), "old\n")
	rh.opts.Project = project
	return rh, project
}

func TestApprovalOverlay(t *testing.T) {
	for _, tt := range []struct {
		key, label, text string
	}{
		{"o", "approved", "Exit code: 0\nhello"},
		{"d", "denied", "Tool access denied: approval_denied_by_user"},
	} {
		t.Run(tt.label, func(t *testing.T) {
			rh, project := approvalHome(t)
			rh.srv.Enqueue(
				modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hello","_rationale":"greet"}`), modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c2", "file_write", `{"Path":"notes.md","Content":"new\n","_rationale":"save"}`), modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Done."), modeltest.Stop()}},
			)
			rv := rh.startRun("Greet and save", "")
			rh.pumpUntil("the run asks", func() bool {
				_, ok := rh.overlays.top().(*approvalOverlay)
				return ok
			})
			scr := rh.screen()
			for _, want := range []string{"Approve a tool call?", "Tool     shell_execute", "Command  echo hello", "--approve 'shell_execute:echo hello'", "approve once", "approve for this run", "deny"} {
				if !strings.Contains(scr, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, scr)
				}
			}
			if tt.label == "approved" {
				matchGolden(t, "approval-prompt-100x32", rh.freeze(rv))
			}
			rh.keys(tt.key)
			if len(rh.overlays) != 0 {
				t.Fatal("the answer did not close the prompt")
			}
			rh.pumpUntil("the run ends", rv.ended)
			res := rv.record.ToolCalls[0].Result
			if rv.record.Outcome != vocab.Completed || res.Label != tt.label || !strings.HasPrefix(res.Text, tt.text) {
				t.Fatalf("outcome %s/%s, shell result %+v", rv.record.Outcome, rv.record.Reason, res)
			}
			if b, _ := os.ReadFile(filepath.Join(project, "notes.md")); string(b) != "old\n" {
				t.Errorf("the project changed: %q", b)
			}
			scr = rh.screen()
			for _, want := range []string{"shell_execute: ", tt.label, "Changes (changes.patch; the project itself did not change)", "-old", "+new"} {
				if !strings.Contains(scr, want) {
					t.Errorf("the Run pane lacks %q:\n%s", want, scr)
				}
			}
		})
	}
}

func TestApprovalAnsweredAfterCancel(t *testing.T) {
	rh, _ := approvalHome(t)
	rh.srv.Enqueue(
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hi","_rationale":"greet"}`), modeltest.Finish(modeltest.FinishTools)}},
	)
	rv := rh.startRun("Greet", "")
	rh.pumpUntil("the run asks", func() bool {
		_, ok := rh.overlays.top().(*approvalOverlay)
		return ok
	})
	o := rh.overlays.top().(*approvalOverlay)
	rv.run.Cancel()
	rh.pumpUntil("the run ends", rv.ended)
	if rv.record.Reason != vocab.ReasonCancelledByParent {
		t.Errorf("cancelled while asking: %s/%s", rv.record.Outcome, rv.record.Reason)
	}
	// The prompt closed with its run, and the ask was answered as cancelled.
	for _, ov := range rh.overlays {
		if _, ok := ov.(*approvalOverlay); ok {
			t.Fatalf("the prompt of the cancelled run is still open:\n%s", rh.screen())
		}
	}
	if scr := rh.screen(); strings.Contains(scr, "Approve a tool call?") {
		t.Errorf("the screen still shows the prompt:\n%s", scr)
	}
	if n := len(rv.record.ToolCalls); n != 1 || rv.record.ToolCalls[0].Result.Label != "denied" {
		t.Errorf("the asked call: %+v", rv.record.ToolCalls)
	}
	// A stale answer (a key already on its way) does not hang or panic.
	o.prompt.Answer(0)
}

// TestApprovalPromptCancelsRun: the prompt's cancel key cancels the run
// that asks (nothing else can be pressed while it is up), and the prompt
// closes; the ask ends as cancelled, not as the author's denial.
func TestApprovalPromptCancelsRun(t *testing.T) {
	rh, _ := approvalHome(t)
	rh.srv.Enqueue(
		modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", `{"Command":"echo hi","_rationale":"greet"}`), modeltest.Finish(modeltest.FinishTools)}},
	)
	rv := rh.startRun("Greet", "")
	rh.pumpUntil("the run asks", func() bool {
		_, ok := rh.overlays.top().(*approvalOverlay)
		return ok
	})
	if scr := rh.screen(); !strings.Contains(scr, "x cancel run") {
		t.Errorf("the prompt does not offer to cancel the run:\n%s", scr)
	}
	rh.keys("x")
	if len(rh.overlays) != 0 {
		t.Fatalf("cancelling did not close the prompt:\n%s", rh.screen())
	}
	rh.pumpUntil("the run ends", rv.ended)
	if rv.record.Reason != vocab.ReasonCancelledByParent {
		t.Errorf("got %s/%s, want cancelled_by_parent", rv.record.Outcome, rv.record.Reason)
	}
}

// TestApprovalShowsTheWholeCall: a 300-word command is never cut: the
// prompt scrolls, says how much is below, and the approve keys answer only
// once the command's last word has been on screen; the footer shows the
// prompt's keys alone; v opens the whole call in the viewer.
func TestApprovalShowsTheWholeCall(t *testing.T) {
	words := make([]string, 299)
	for i := range words {
		words[i] = fmt.Sprintf("w%03d", i)
	}
	command := "echo " + strings.Join(words, " ") + "; echo DANGER-TAIL"
	args, _ := json.Marshal(map[string]string{"Command": command, "_rationale": "long"})
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			rh, _ := approvalHome(t)
			rh.send(tea.WindowSizeMsg{Width: w, Height: h})
			rh.srv.Enqueue(
				modeltest.Script{Steps: []modeltest.Step{modeltest.ToolCall("c1", "shell_execute", string(args)), modeltest.Finish(modeltest.FinishTools)}},
				modeltest.Script{Steps: []modeltest.Step{modeltest.Text("Done."), modeltest.Stop()}},
			)
			rv := rh.startRun("Run the long one", "")
			rh.pumpUntil("the run asks", func() bool {
				_, ok := rh.overlays.top().(*approvalOverlay)
				return ok
			})
			scr := rh.screen()
			checkFrame(t, rh.View().Content, w, h)
			if !strings.Contains(scr, "more lines (pgdn scrolls, v shows the whole call)") || strings.Contains(scr[:strings.LastIndex(scr, "\n")], "…") {
				t.Fatalf("the first screen lacks the marker, or cuts text:\n%s", scr)
			}
			footer := scr[strings.LastIndex(scr, "\n")+1:]
			if strings.Contains(footer, "quit") || !strings.Contains(footer, "o approve once") || !strings.Contains(footer, "d deny") || !strings.Contains(footer, "v whole call") {
				t.Errorf("footer %q: want the prompt's keys alone", footer)
			}
			if w == 80 {
				matchGolden(t, "approval-long-80x24", rh.freeze(rv))
			}
			// Approving before the end is not possible.
			rh.keys("o")
			if _, ok := rh.overlays.top().(*approvalOverlay); !ok {
				t.Fatal("o approved a call whose end was never shown")
			}
			if scr := rh.screen(); !strings.Contains(scr, "read the call to its end before approving") {
				t.Errorf("no nudge after an early o:\n%s", scr)
			}
			// v opens the whole call; esc comes back to the prompt.
			rh.keys("v")
			if v, ok := rh.overlays.top().(*viewer); !ok || !strings.Contains(v.docs[v.current()].text, "; echo DANGER-TAIL") {
				t.Fatalf("v did not open the whole call:\n%s", rh.screen())
			}
			rh.keys("esc")
			// Page down; the approve keys answer only once the call's end
			// (the arguments' last line, after the command's last word) is
			// on screen.
			sawTail := false
			for i := 0; ; i++ {
				if i > 50 {
					t.Fatalf("never approved:\n%s", rh.screen())
				}
				scr := rh.screen()
				checkFrame(t, rh.View().Content, w, h)
				sawTail = sawTail || strings.Contains(scr, "DANGER-TAIL")
				end := strings.Contains(scr, `"_rationale": "long"`)
				rh.keys("o")
				if _, asking := rh.overlays.top().(*approvalOverlay); !asking {
					if !end || !sawTail || i == 0 {
						t.Fatalf("approved at page %d, the tail seen %v, the end on screen %v:\n%s", i, sawTail, end, scr)
					}
					break
				}
				if end {
					t.Fatalf("o did not answer with the end on screen:\n%s", rh.screen())
				}
				rh.keys("space")
			}
			rh.pumpUntil("the run ends", rv.ended)
			if l := rv.record.ToolCalls[0].Result.Label; l != "approved" {
				t.Errorf("label %q", l)
			}
		})
	}
}

// TestApprovalOfARemoteServer: the prompt of an http or sse MCP server's
// tool says the call acts outside the trial.
func TestApprovalOfARemoteServer(t *testing.T) {
	st := NewStyles(true, false)
	for _, remote := range []bool{false, true} {
		o := &approvalOverlay{keys: DefaultKeyMap().Approval, move: DefaultKeyMap().Move,
			prompt: approve.Prompt{Req: approve.Request{Tool: "docs__search", Server: "docs", Args: []byte(`{"q":"x"}`), Remote: remote}}}
		scr := ansi.Strip(strings.Join(o.render(&st, 100, 30), "\n"))
		if got := strings.Contains(scr, "acts outside the trial"); got != remote {
			t.Errorf("remote %v: warning shown %v:\n%s", remote, got, scr)
		}
	}
}

// A TOOL:GLOB pattern of a tool without a named subject (an MCP tool,
// file_write) is matched against the compact JSON arguments without meta
// arguments: the prompt shows that form, so a glob copied from it
// matches.
func TestApprovalPromptShowsWhatAGlobMatches(t *testing.T) {
	req := approve.NewRequest("github__create_issue", "github", []byte(`{"Title": "x",  "Body": "y", "_rationale": "file it"}`))
	o := &approvalOverlay{keys: DefaultKeyMap().Approval, prompt: approve.Prompt{Req: req}}
	st := NewStyles(true, false)
	text := ansi.Strip(strings.Join(o.render(&st, 100, 40), "\n"))
	want := `Glob on  {"Body":"y","Title":"x"}`
	if !strings.Contains(text, want) {
		t.Errorf("the prompt does not show what a glob is matched against (%q):\n%s", want, text)
	}
	p, err := approve.Parse(`github__create_issue:{"Body":"y"*`)
	if err != nil || !p.Match(req.Tool, req.Server, req.Subject) {
		t.Errorf("a glob copied from the prompt does not match: %v", err)
	}
}
