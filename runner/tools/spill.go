package tools

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/runner/overlay"
)

// The runtime's inline budgets for a tool result (ToolOutputSpill.cs
// @4496960c: DefaultContentBudget; ShellTool.cs @8a459b11:
// InlineOutputBudgetChars): a longer result is cut to its last Budget
// characters and spilled whole to the session folder, from where
// tool_output_read reads it on.
const (
	ContentBudget = 12_000
	ShellBudget   = 2_000
)

// ToolOutputRead is the name of the tool that reads spilled results.
const ToolOutputRead = "tool_output_read"

// spillDir is where spilled results go, inside the session folder.
const spillDir = ".tool-output"

// validCallID is what a call id must look like to name a spill file.
var validCallID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// BudgetFor returns the inline budget of a tool's results.
func BudgetFor(tool string) int {
	if tool == ShellExecute {
		return ShellBudget
	}
	return ContentBudget
}

// Spill bounds a result as the runtime does: a text longer than the
// tool's budget is cut to its last budget characters, the whole text is
// written to the session folder (session; nil keeps nothing) under the
// call id, and a note tells the model to go on with tool_output_read.
func Spill(session *overlay.Overlay, tool, callID string, res Result) Result {
	budget := BudgetFor(tool)
	n := utf8.RuneCountInString(res.Text)
	if n <= budget {
		return res
	}
	runes := []rune(res.Text)
	inline := string(runes[len(runes)-budget:])
	kept := false
	if session != nil && validCallID.MatchString(callID) {
		kept = session.WriteFile(path.Join(spillDir, callID+".txt"), []byte(res.Text)) == nil
	}
	note := fmt.Sprintf("\n\n[output truncated to %d chars of %d", budget, n)
	if kept {
		note += fmt.Sprintf("; continue with tool_output_read using CallId='%s' and a bounded Start/Limit window instead of re-running", callID)
	} else {
		note += "; Netclaw did not keep the full output, so tool_output_read cannot continue this call " +
			"and everything before the inline tail is not available. If the source tool has an output bound, call it again " +
			"with a narrower bound. For a skill, read one specific resource with skill_read_resource"
	}
	res.Text = inline + note + "]"
	res.Cut = true
	return res
}

// OutputReadSpec is tool_output_read's spec as a trial offers it.
func OutputReadSpec() Spec { return (&Workspace{}).OutputReadTool().Spec() }

// OutputReadTool returns tool_output_read on the workspace's session
// folder: CallId names a spilled result, Start (0-based, in characters)
// and Limit (default ContentBudget) pick the window.
func (w *Workspace) OutputReadTool() Tool {
	return &builtin{spec: Spec{Name: ToolOutputRead,
		Description: "Read a tool result that was truncated and spilled, by its call id, in a bounded window of characters.",
		Parameters: schema([][3]string{{"CallId", "string", "The call id named in the truncated result."},
			{"Start", "integer", "First character to return, 0-based (default 0)."},
			{"Limit", "integer", "Maximum characters to return (default 12000)."}}, "CallId")},
		call: w.outputRead}
}

func (w *Workspace) outputRead(_ context.Context, a args, _ Meta) Result {
	id, _, _ := a.str("CallId")
	if !validCallID.MatchString(id) {
		return Errorf("Error: 'CallId' must be the call id named in a truncated result.")
	}
	if w.session == nil {
		return Errorf("Error: No spilled output is kept for call '%s'.", id)
	}
	data, err := w.session.ReadFile(path.Join(spillDir, id+".txt"))
	if err != nil {
		return Errorf("Error: No spilled output is kept for call '%s'.", id)
	}
	start, _, err1 := a.integer("Start")
	limit, hasLimit, err2 := a.integer("Limit")
	if err1 != nil || err2 != nil || start < 0 || hasLimit && limit < 1 {
		return Errorf("Error: 'Start' must be 0 or more and 'Limit' 1 or more.")
	}
	if !hasLimit {
		limit = ContentBudget
	}
	limit = min(limit, ContentBudget)
	runes := []rune(string(data))
	if start > len(runes) {
		start = len(runes)
	}
	end := min(start+limit, len(runes))
	text := string(runes[start:end])
	if end < len(runes) {
		text += "\n[characters " + strconv.Itoa(start) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(runes)) + "; continue with Start=" + strconv.Itoa(end) + "]"
	}
	return Result{Text: text, Label: LabelReal}
}
