package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/preview/request"
)

// The runtime's inline budgets for a tool result (ToolOutputSpill.cs
// @4496960c: DefaultContentBudget; ShellTool.cs @8a459b11:
// InlineOutputBudgetChars): a longer result is cut to its last Budget
// characters, after the separator "\n...\n", and spilled whole to the
// session folder, from where tool_output_read reads it on. Characters are
// UTF-16 code units, as .NET counts a string's Length.
const (
	ContentBudget = 12_000
	ShellBudget   = 2_000
)

// ToolOutputRead is the name of the tool that reads spilled results.
const ToolOutputRead = "tool_output_read"

// tool_output_read's bounds (ToolOutputReadTool.cs, salma-marei/netclaw
// @ba08b016c9d3286e62ce64e5013d63d298264231): Start in [0, 256000],
// Limit in [128, 10000], 8000 by default; the window's continuation line
// counts towards Limit.
const (
	OutputReadDefaultLimit = 8_000
	OutputReadMinLimit     = 128
	OutputReadMaxLimit     = 10_000
	OutputReadMaxStart     = 256_000
)

// spillDir is where spilled results go inside the session folder, one
// file a call named by the SHA-256 of its id in upper-case hex, as
// ToolOutputSpillLocation.TryResolve names it (salma-marei/netclaw
// @0c8a8a64161c06c949fb79c6b66e2e86c3ae1db4: <session>/tool-calls/<HEX>.log).
const spillDir = "tool-calls"

// maxCallIDLength is ToolOutputSpillLocation.MaximumCallIdLength.
const maxCallIDLength = 200

// validCallID reports whether a call id can name a spill, as
// ToolOutputSpillLocation.IsValidCallId decides: not blank, at most 200
// UTF-16 units, not "." or "..", no control character, no white space, no
// slash or backslash.
func validCallID(id string) bool {
	if strings.TrimSpace(id) == "" || utf16Len(id) > maxCallIDLength || id == "." || id == ".." || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == '/' || r == '\\' {
			return false
		}
	}
	return true
}

// spillPath is the file of a call's spilled result, relative to
// session_dir.
func spillPath(callID string) string {
	sum := sha256.Sum256([]byte(callID))
	return path.Join(spillDir, strings.ToUpper(hex.EncodeToString(sum[:]))+".log")
}

// utf16Len is the length of s in UTF-16 code units (.NET's Length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// BudgetFor returns the inline budget of a tool's results.
func BudgetFor(tool string) int {
	if tool == ShellExecute {
		return ShellBudget
	}
	return ContentBudget
}

// windowSeparator marks the dropped head of a spilled result
// (BoundedOutputReader.Separator, Environment.NewLine + "..." +
// Environment.NewLine, "\n...\n" on Linux and macOS). The runtime's inline
// window is the separator and the last budget characters
// (BoundedOutputReader.Window in its tail-only version, the newest stored,
// for which the index names no commit; the head+tail versions before it are
// salma-marei/netclaw @ba08b016 and Aaronontheweb/netclaw @539c1345), as
// NetClaw's netclaw-operations skill says: "the result contains only its
// tail, with a separator before the retained text".
const windowSeparator = "\n...\n"

// Spill bounds a result as the runtime does: a text longer than the
// tool's budget is cut to the separator and its last budget characters, the whole text is
// written to the workspace's session_dir (ws nil, or without a session,
// keeps nothing) under the call id, and a note tells the model to go on
// with tool_output_read, naming its CallId, Start and Limit parameters.
func Spill(ws *Workspace, tool, callID string, res Result) Result {
	budget := BudgetFor(tool)
	units := utf16.Encode([]rune(res.Text))
	n := len(units)
	if n <= budget {
		return res
	}
	inline := windowSeparator + string(utf16.Decode(units[n-budget:]))
	kept := false
	if ws != nil && ws.session != nil && validCallID(callID) {
		kept = ws.session.WriteFile(ws.sessionFile(spillPath(callID)), []byte(res.Text)) == nil
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

// OutputReadTool returns tool_output_read on the workspace's session
// folder, offered with the catalogue's spec: CallId names a spilled
// result, Start (0-based, in UTF-16 characters) and Limit pick the window,
// and the result is the window followed by the runtime's range line
// ("[range start=S end=E; next_start=N|none; complete=true|false]").
func (w *Workspace) OutputReadTool() Tool {
	t, _ := request.NetClaw().Tool(ToolOutputRead)
	return &builtin{spec: SpecOf(t), call: w.outputRead}
}

// outputRead answers as ToolOutputReadTool.ExecuteAsync does, with its
// error texts and in its order of checks.
func (w *Workspace) outputRead(_ context.Context, a args, _ Meta) Result {
	id, _, err := a.str("CallId")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if w.session == nil || !validCallID(id) {
		return Errorf("Error: CallId must be an opaque identifier from a truncated tool result in this session.")
	}
	start, hasStart, err := a.integer("Start")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if !hasStart {
		start = 0
	}
	if start < 0 || start > OutputReadMaxStart {
		return Errorf("Error: Start must be between 0 and %d.", OutputReadMaxStart)
	}
	limit, hasLimit, err := a.integer("Limit")
	if err != nil {
		return Errorf("Error: %v", err)
	}
	if !hasLimit {
		limit = OutputReadDefaultLimit
	}
	if limit < OutputReadMinLimit || limit > OutputReadMaxLimit {
		return Errorf("Error: Limit must be between %d and %d.", OutputReadMinLimit, OutputReadMaxLimit)
	}
	data, err := w.session.ReadFile(w.sessionFile(spillPath(id)))
	if err != nil {
		return Errorf("Error: No retained output exists for that call in this session. Re-run the source tool with narrower output bounds.")
	}
	if !utf8.Valid(data) {
		return Errorf("Error: Retained output is not valid UTF-8.")
	}
	text, ok := OutputWindow(string(data), start, limit)
	if !ok {
		return Errorf("Error: Start exceeds the retained output length.")
	}
	return Result{Text: text, Label: LabelReal}
}

// OutputWindow returns the window of text tool_output_read answers for
// start and limit (UTF-16 units), as ToolOutputReadTool.ComposeWindow
// writes it: at most limit units in all, the content first, then
// "\n[range start=S end=E; next_start=N; complete=false]", or next_start=none
// and complete=true once the window reaches the end. ok is false when
// start lies past the end of text.
func OutputWindow(text string, start, limit int) (window string, ok bool) {
	units := utf16.Encode([]rune(text))
	if start < 0 || start > len(units) {
		return "", false
	}
	captured := units[start:min(len(units), start+limit+1)]
	reachedEnd := len(captured) <= limit
	length := min(len(captured), limit)
	var meta string
	for {
		complete := reachedEnd && length == len(captured)
		next := "none"
		if !complete {
			next = strconv.Itoa(start + length)
		}
		meta = "\n[range start=" + strconv.Itoa(start) + " end=" + strconv.Itoa(start+length) +
			"; next_start=" + next + "; complete=" + strconv.FormatBool(complete) + "]"
		bounded := min(len(captured), limit-len(meta))
		if bounded >= length {
			break
		}
		length = max(bounded, 0)
	}
	return string(utf16.Decode(captured[:length])) + meta, true
}
